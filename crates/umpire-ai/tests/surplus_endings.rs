//! Endings with more men than a table covers (issue 28): in the seventh session's `mcts@30000`
//! against `raider` row (seed 28), games 26 and 33 reached rook and knight against the bare
//! king and were drawn by the fifty-move rule 100 plies later, `mcts` wandering. The tables
//! cover KRK; the knight beside the rook kept the wrapper from using them.
//!
//! Each case replays the record (cut at the capture that left the bare king) into `mcts` seated
//! as the stronger side and into `raider` seated as the defender, both with the game's seat
//! seeds, each hearing exactly what its seat heard; then the two play on under the game's
//! umpire, whose fifty-move rule is counting from that capture. `mcts` must mate before the
//! rule draws, with moves taken from the KRK table, and without the surplus play (the wrapper
//! as before) the same replay must not mate.
//!
//! Then set-up endings with a surplus man beside a table's men, against a random king that may
//! stand anywhere (the agent is told only the enemy's material): `mcts` must mate in most
//! seeds before the fifty-move rule, never stalemate, and take moves from the table.

use umpire_ai::endgame::{Endgame, EndgameConfig};
use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Agent, AgentConfig, AgentKind, Budget, Seat, play_match, play_observations};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color};
use umpire_rules::{EndReason, GameResult, Record, RuleSet, Umpire, Verdict};

/// The node budget of `mcts` after the replay (its search decides only where the table does
/// not).
const NODES: u64 = 2000;
/// The most commands one side gives in a turn before the test gives up on the game.
const TURN_COMMANDS: usize = 64;

/// Replays `text` (the stronger side `side`) and plays on to the end; returns the result and
/// the stronger side's decisions taken from a table.
fn play_on(text: &str, side: Color, surplus: bool) -> (Option<GameResult>, u64) {
    let record = Record::from_json(text).unwrap();
    let config = MctsConfig {
        budget: Budget::Nodes(NODES),
        ..MctsConfig::default()
    };
    let (mut umpire, mut ours) = Seat::of_record(&record, side).unwrap().take(|view, seed| {
        let mcts = MctsAgent::new(view, seed, Some(Chess::default()), config);
        Endgame::with_config(
            mcts,
            EndgameConfig {
                surplus,
                ..EndgameConfig::default()
            },
        )
    });
    let (_, mut theirs) = Seat::of_record(&record, !side)
        .unwrap()
        .take(|view, seed| AgentKind::Raider.build(view, seed, &AgentConfig::default()));
    for entry in &record.entries {
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict, "the record replays");
        play_observations(&mut ours, side, entry.command, &outcome).unwrap();
        play_observations(&mut *theirs, !side, entry.command, &outcome).unwrap();
    }
    let mut commands = 0;
    while !umpire.is_over() && commands < TURN_COMMANDS {
        let mover = umpire.turn();
        let command = if mover == side {
            ours.choose()
        } else {
            theirs.choose()
        };
        let outcome = umpire.submit(command);
        play_observations(&mut ours, side, command, &outcome).unwrap();
        play_observations(&mut *theirs, !side, command, &outcome).unwrap();
        commands = if outcome.verdict == Verdict::Accepted {
            0
        } else {
            commands + 1
        };
    }
    (umpire.result(), ours.table_moves())
}

/// The stronger side `side` of `text` mates with the table's help; without the surplus play it
/// does not.
fn mates_with_rook_and_knight(text: &str, side: Color) {
    let (result, table_moves) = play_on(text, side, true);
    assert_eq!(result, Some(GameResult::win(side, EndReason::Checkmate)));
    assert!(table_moves > 0, "the table never decided");
    let (before, _) = play_on(text, side, false);
    assert_ne!(
        before,
        Some(GameResult::win(side, EndReason::Checkmate)),
        "the wrapper as before mates too: the replay no longer shows the draw"
    );
}

#[test]
fn rook_and_knight_mate_as_black_before_the_fifty_move_rule() {
    mates_with_rook_and_knight(include_str!("data/fifty_krn_vs_k.json"), Color::Black);
}

#[test]
fn rook_and_knight_mate_as_white_before_the_fifty_move_rule() {
    mates_with_rook_and_knight(include_str!("data/fifty_krn_vs_k_2.json"), Color::White);
}

/// `mcts` on `side` of the set-up `fen` (the wrapper as `umpire match` builds it) plays eight
/// seeded games against `random`; it mates in at least `at_least`, never stalemates nor
/// loses, and the table decided in every game.
fn mates_from(fen: &str, side: Color, at_least: usize) {
    let rules = RuleSet::WILD16;
    let start: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let config = AgentConfig {
        budget: Budget::Nodes(300),
        ..AgentConfig::default()
    };
    let mut mated = 0;
    for seed in 0..8 {
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let mut ours = Endgame::new(MctsAgent::new(
            umpire_ai::setup_view(rules, &start, side),
            seed,
            None,
            MctsConfig::from_agent_config(&config),
        ));
        let mut theirs =
            AgentKind::Random.build(umpire_ai::setup_view(rules, &start, !side), seed, &config);
        let agents: [&mut dyn Agent; 2] = if side == Color::White {
            [&mut ours, &mut *theirs]
        } else {
            [&mut *theirs, &mut ours]
        };
        play_match(&mut umpire, agents, 400, &mut ()).unwrap();
        let result = umpire.result();
        assert_ne!(
            result.map(|r| r.reason),
            Some(EndReason::Stalemate),
            "{fen} seed {seed}"
        );
        assert!(
            result.is_none_or(|r| r.winner != Some(!side)),
            "{fen} seed {seed}"
        );
        assert!(
            ours.table_moves() > 0,
            "{fen} seed {seed}: the table never decided"
        );
        mated += usize::from(result == Some(GameResult::win(side, EndReason::Checkmate)));
    }
    assert!(mated >= at_least, "{fen}: {mated} mates of 8");
}

#[test]
fn rook_and_knight_mate_a_king_that_may_be_anywhere() {
    mates_from("8/8/8/3k4/8/8/8/1N2K2R w - - 0 1", Color::White, 7);
}

#[test]
fn rook_and_knight_mate_as_black() {
    mates_from("1n2k2r/8/8/8/3K4/8/8/8 b - - 0 1", Color::Black, 7);
}

#[test]
fn queen_and_two_pawns_mate() {
    mates_from("8/8/8/4k3/8/8/PP6/3QK3 w - - 0 1", Color::White, 7);
}

#[test]
fn bishop_and_two_knights_mate_with_the_kbnk_table() {
    mates_from("8/8/8/4k3/8/8/8/1N1BK1N1 w - - 0 1", Color::White, 5);
}

#[test]
fn the_strongest_table_among_the_men_is_played_and_only_against_a_lone_king() {
    use umpire_ai::endgame::table_core;
    use umpire_tablebase::Ending;
    let core = |fen: &str, side: Color, config: EndgameConfig| {
        let start = umpire_testkit::pos(fen);
        let view = umpire_ai::setup_view(RuleSet::WILD16, &start, side);
        table_core(&view, config).map(|(ending, _, board)| (ending, board.has_surplus()))
    };
    let on = EndgameConfig::default();
    let off = EndgameConfig {
        surplus: false,
        ..on
    };
    let krn = "8/8/8/3k4/8/8/8/1N2K2R w - - 0 1";
    assert_eq!(core(krn, Color::White, on), Some((Ending::Krk, true)));
    assert_eq!(core(krn, Color::White, off), None);
    assert_eq!(
        core("8/8/8/2k5/8/8/8/R2QK3 w - - 0 1", Color::White, on),
        Some((Ending::Kqk, true))
    );
    assert_eq!(
        core("1n2k2r/8/8/8/3K4/8/8/8 b - - 0 1", Color::Black, on),
        Some((Ending::Krk, true))
    );
    // The exact table ending has nothing beside it.
    assert_eq!(
        core("8/8/8/3k4/8/8/8/4K2R w - - 0 1", Color::White, on),
        Some((Ending::Krk, false))
    );
    // Two knights make no table; an enemy pawn is not a lone king.
    assert_eq!(
        core("8/8/8/3k4/8/8/8/1N2K1N1 w - - 0 1", Color::White, on),
        None
    );
    assert_eq!(
        core("8/7p/8/3k4/8/8/8/1N2K2R w - - 0 1", Color::White, on),
        None
    );
}

/// Game 23 of session 8's quiet `mcts` vs `raider` row at 100 ms (`mcts` White, KQNNP vs K
/// after `g7g8q`, 16 ahead): from ply 270 the king stood on a6–a8 (the tracked set), every
/// move the surplus play allowed was valued alike (mate in 3 at worst), the first listed, a
/// knight's, was played each time, and the knights toured until the fifty-move rule drew at
/// ply 307. Ties now go to the move after which the next decision may do best
/// (`Board::next_best`). The position of ply 270, the agent told the king's three squares,
/// against `random` in eight seeds: `mcts` mates within 40 moves in every one.
#[test]
fn queen_knights_and_pawn_mate_from_the_corner() {
    let fen = "8/1N6/k1K5/4Q3/2P5/8/8/3N4 w - - 0 1";
    let rules = RuleSet::WILD16;
    let start: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let config = AgentConfig {
        budget: Budget::Nodes(300),
        ..AgentConfig::default()
    };
    use umpire_rules::shakmaty::Square;
    let corner = [Square::A6, Square::A7, Square::A8]
        .iter()
        .fold(0u64, |acc, &s| acc | 1u64 << (s as u32));
    for seed in 0..8 {
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let mut ours = Endgame::knowing(
            MctsAgent::new(
                umpire_ai::setup_view(rules, &start, Color::White),
                seed,
                None,
                MctsConfig::from_agent_config(&config),
            ),
            EndgameConfig::default(),
            corner,
        );
        let mut theirs = AgentKind::Random.build(
            umpire_ai::setup_view(rules, &start, Color::Black),
            seed,
            &config,
        );
        play_match(&mut umpire, [&mut ours, &mut *theirs], 80, &mut ()).unwrap();
        assert_eq!(
            umpire.result(),
            Some(GameResult::win(Color::White, EndReason::Checkmate)),
            "seed {seed}"
        );
    }
}
