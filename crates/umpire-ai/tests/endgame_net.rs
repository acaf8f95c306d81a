//! The [`Endgame`] wrapper closes `darkboard`'s mating net for another agent (`mcts`) beyond
//! the tables: hand-built endings with men beyond a table ending, played from a set-up view
//! (the agent is told only the enemy's material, so the king may stand on any free square)
//! against a random defence. Never a stalemate or a loss, mates in most seeds, and the net —
//! not the search — made the decisions.

use umpire_ai::endgame::{Endgame, EndgameConfig};
use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Agent, AgentConfig, AgentKind, Budget, play_match};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color};
use umpire_rules::{EndReason, GameResult, RuleSet, Umpire};

/// Search nodes per decision (the net does not use them; the search does where it decides).
const NODES: u64 = 300;
/// The ply limit: within the fifty-move rule's reach from a fresh clock, with room.
const PLIES: u32 = 200;

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

fn mcts(rules: RuleSet, start: &Chess, side: Color, seed: u64, net: bool) -> Endgame<MctsAgent> {
    let view = umpire_ai::setup_view(rules, start, side);
    let config = AgentConfig {
        budget: Budget::Nodes(NODES),
        ..AgentConfig::default()
    };
    let inner = MctsAgent::new(view, seed, None, MctsConfig::from_agent_config(&config));
    Endgame::with_config(
        inner,
        EndgameConfig {
            net,
            ..EndgameConfig::default()
        },
    )
}

/// Plays `fen` with `mcts` (the net on or off) on `side` against `random`; the result and the
/// decisions the net took.
fn play(fen: &str, side: Color, seed: u64, net: bool) -> (Option<GameResult>, u64) {
    let rules = RuleSet::WILD16;
    let start = position(fen);
    let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let mut ours = mcts(rules, &start, side, seed, net);
    let mut theirs = AgentKind::Random.build(
        umpire_ai::setup_view(rules, &start, !side),
        seed + 100,
        &AgentConfig::default(),
    );
    let agents: [&mut dyn Agent; 2] = if side == Color::White {
        [&mut ours, &mut *theirs]
    } else {
        [&mut *theirs, &mut ours]
    };
    play_match(&mut umpire, agents, PLIES, &mut ()).unwrap();
    (umpire.result(), ours.net_moves())
}

/// `mcts` with the net mates from `fen` in at least `at_least` of eight seeded games, never
/// stalemates nor loses, and the net took decisions in every game.
fn mates(fen: &str, side: Color, at_least: usize) {
    let mut mated = Vec::new();
    for seed in 0..8 {
        let (result, net_moves) = play(fen, side, seed, true);
        assert!(net_moves > 0, "{fen} seed {seed}: the net never decided");
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
        "{fen}: mates with seeds {mated:?} only"
    );
}

#[test]
fn mcts_with_the_net_mates_with_two_rooks() {
    mates("8/8/8/3k4/8/8/8/R3K2R w - - 0 1", Color::White, 6);
}

#[test]
fn mcts_with_the_net_mates_with_queen_and_pawn_as_black() {
    mates("3qk3/p7/8/8/4K3/8/8/8 b - - 0 1", Color::Black, 6);
}

#[test]
fn with_the_net_off_the_search_decides() {
    let (_, net_moves) = play("8/8/8/3k4/8/8/8/R3K2R w - - 0 1", Color::White, 1, false);
    assert_eq!(net_moves, 0);
}
