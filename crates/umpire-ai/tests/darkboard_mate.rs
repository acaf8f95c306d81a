//! The `darkboard` agent's mating method beyond the tables (issue 13, item 2): hand-built
//! endings played to mate against a random defence, the agent seeing only its own view.
//!
//! Against a bare king the agent is `darkboard` as `umpire match` builds it (with its tablebase
//! wrapper, used only if the random king takes men until a table ending is left) from a set-up
//! view: its metaposition lets the enemy king stand on any free square (it is told only the
//! enemy's material). With an enemy pawn, the set-up start is known exactly (the exact belief's
//! metaposition, `DarkboardAgent` alone) and the king's square grows uncertain as it moves
//! unseen. Each test plays eight seeds and asks for mates in most of them, never a stalemate
//! or a loss; two endings are known failures (ignored, with the reason).

use umpire_ai::{Agent, AgentConfig, AgentKind, Budget, DarkboardAgent, Watcher, play_match};
use umpire_belief::{Belief, BeliefConfig, Metaposition};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color};
use umpire_rules::{Command, EndReason, GameResult, RuleSet, Umpire};

/// Node budget per decision, as in the benchmarks.
const NODES: u64 = 2000;
/// The ply limit: within the fifty-move rule's reach from a fresh clock, with room.
const PLIES: u32 = 200;

fn nodes(n: u64) -> AgentConfig {
    AgentConfig {
        budget: Budget::Nodes(n),
        ..AgentConfig::default()
    }
}

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

/// Darkboard at a set-up start: told the enemy's material only, or (`exact`) knowing the start
/// exactly.
fn darkboard(rules: RuleSet, start: &Chess, side: Color, seed: u64, exact: bool) -> Box<dyn Agent> {
    let view = umpire_ai::setup_view(rules, start, side);
    if !exact {
        return AgentKind::Darkboard.build(view, seed, &nodes(NODES));
    }
    let meta = {
        let belief = Belief::new(
            rules,
            start.clone(),
            side,
            BeliefConfig {
                bound: 1000,
                seed,
                threads: 1,
                parallel_from: umpire_belief::PARALLEL_FROM,
                repair_budget: umpire_belief::REPAIR_BUDGET,
            },
        )
        .unwrap();
        Metaposition::of(&belief).unwrap()
    };
    Box::new(DarkboardAgent::with_metaposition(
        view,
        meta,
        seed,
        &nodes(NODES),
    ))
}

/// Records every command.
struct Log(Vec<Command>);

impl Watcher<Umpire> for Log {
    fn after(&mut self, _: &Umpire, command: Command, _: &umpire_rules::Outcome) {
        self.0.push(command);
    }
}

/// Plays `fen` with darkboard on `side` against `random` (seeded), returns the umpire and
/// the commands.
fn play(fen: &str, side: Color, seed: u64, exact: bool) -> (Umpire, Vec<Command>) {
    let rules = RuleSet::WILD16;
    let start = position(fen);
    let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let mut ours = darkboard(rules, &start, side, seed, exact);
    let mut theirs = AgentKind::Random.build(
        umpire_ai::setup_view(rules, &start, !side),
        seed + 100,
        &nodes(NODES),
    );
    let mut log = Log(Vec::new());
    let agents: [&mut dyn Agent; 2] = if side == Color::White {
        [&mut *ours, &mut *theirs]
    } else {
        [&mut *theirs, &mut *ours]
    };
    play_match(&mut umpire, agents, PLIES, &mut log).unwrap();
    (umpire, log.0)
}

/// Darkboard on `side` mates from `fen` in at least `at_least` of the games with `seeds`, and
/// never draws by stalemate nor loses.
fn mates(fen: &str, side: Color, seeds: std::ops::Range<u64>, exact: bool, at_least: usize) {
    let mut mated = Vec::new();
    for seed in seeds.clone() {
        let (umpire, log) = play(fen, side, seed, exact);
        let result = umpire.result();
        if std::env::var_os("UMPIRE_NET_DEBUG").is_some() {
            let fen = Fen::from_position(
                umpire.position(),
                umpire_rules::shakmaty::EnPassantMode::Legal,
            );
            eprintln!("seed {seed}: {result:?} {fen} {} commands", log.len());
        }
        assert_ne!(
            result.map(|r| r.reason),
            Some(EndReason::Stalemate),
            "{fen} seed {seed}: stalemate"
        );
        assert!(
            result.is_none_or(|r| r.winner != Some(!side)),
            "{fen} seed {seed}: lost"
        );
        if result == Some(GameResult::win(side, EndReason::Checkmate)) {
            mated.push(seed);
        }
    }
    assert!(
        mated.len() >= at_least,
        "{fen}: mates with seeds {mated:?} only, of {seeds:?}"
    );
}

#[test]
fn two_rooks_mate_a_king_that_may_be_anywhere() {
    mates(
        "8/8/8/3k4/8/8/8/R3K2R w - - 0 1",
        Color::White,
        0..8,
        false,
        6,
    );
}

#[test]
fn two_rooks_mate_as_black() {
    mates(
        "r3k2r/8/8/8/4K3/8/8/8 b - - 0 1",
        Color::Black,
        0..8,
        false,
        6,
    );
}

#[test]
#[ignore = "fails: with minor pieces alone the net does not mate within fifty moves (0 of 8 seeds)"]
fn bishop_and_two_knights_mate() {
    mates(
        "8/8/8/4k3/8/8/8/1N1BK1N1 w - - 0 1",
        Color::White,
        0..8,
        false,
        6,
    );
}

#[test]
fn queen_and_pawn_mate() {
    mates(
        "8/8/8/4k3/8/8/P7/3QK3 w - - 0 1",
        Color::White,
        0..8,
        false,
        7,
    );
}

#[test]
#[ignore = "fails: one rook does not hold the box around a king whose square it does not know (0 of 8 seeds)"]
fn rook_and_pawn_mate_a_king_with_a_blocked_pawn() {
    // The pawns on b4 and b5 block each other: the enemy has a pawn that cannot matter.
    mates(
        "8/8/8/1p2k3/1P6/8/8/R3K3 w - - 0 1",
        Color::White,
        0..8,
        true,
        6,
    );
}

#[test]
fn the_mating_method_is_deterministic() {
    let fen = "8/8/8/3k4/8/8/8/R3K2R w - - 0 1";
    let (_, a) = play(fen, Color::White, 7, false);
    let (_, b) = play(fen, Color::White, 7, false);
    assert_eq!(a, b);
    assert!(!a.is_empty());
}
