//! Repetition: a winning agent does not shuffle back into its own boards.
//!
//! The shuffle is the pattern of the issue-28 games in which `mcts` won on material but drew by
//! threefold repetition: its queen went back and forth (here b1–b2) while the lone enemy king
//! did the same (h5–h6). Replayed to the point where the queen's next step back would stand an
//! own board again (and the position a second time), the agent must play something else.

mod common;

use common::at_nodes;
use umpire_ai::eval::material;
use umpire_ai::mcts::{AHEAD_MATERIAL, MctsAgent};
use umpire_ai::sure_lead::{knight_proven, sure_lead};
use umpire_ai::{Agent, RandomAgent, Seat, play_observations, setup_view};
use umpire_rules::shakmaty::{Chess, Color, Position};
use umpire_rules::{Attempt, Command, OwnBoard, Record, RuleSet, Umpire, Verdict};
use umpire_testkit::pos;

fn start() -> Chess {
    pos("8/8/8/7k/8/8/8/KQR5 w - - 0 1")
}

/// Requires `chosen` not to stand the agent's own board as `repeated` (the move that would
/// stand it a third time) would.
fn assert_not_a_third_time(agent: &impl Agent, chosen: Command, repeated: Attempt, context: &str) {
    let Command::Attempt(chosen) = chosen else {
        panic!("{context}: {chosen:?}");
    };
    let mut third = agent.view().own_board().clone();
    third.play(repeated);
    let mut after = agent.view().own_board().clone();
    after.play(chosen);
    assert_ne!(
        after, third,
        "{context}: {chosen} stands the board a third time"
    );
}

#[test]
fn a_winning_agent_leaves_the_shuffle() {
    let shuffle = ["b1b2", "h5h6", "b2b1", "h6h5", "b1b2", "h5h6"];
    for seed in 0..3 {
        let rules = RuleSet::WILD16;
        let pos = start();
        let mut umpire = Umpire::from_position(rules, pos.clone()).unwrap();
        let config = at_nodes(300);
        let mut agent = MctsAgent::new(
            setup_view(rules, &pos, Color::White),
            seed,
            Some(pos),
            config,
        );
        for uci in shuffle {
            let command = Command::Attempt(Attempt::from_uci(uci).unwrap());
            let outcome = umpire.submit(command);
            assert_eq!(outcome.verdict, Verdict::Accepted, "{uci}");
            play_observations(&mut agent, Color::White, command, &outcome).unwrap();
        }
        // The queen's step back to b1 would stand its own board again (and the whole position
        // for the second time, one short of threefold).
        let mut back = agent.view().own_board().clone();
        back.play(Attempt::from_uci("b2b1").unwrap());
        let command = agent.choose();
        let Command::Attempt(chosen) = command else {
            panic!("seed {seed}: {command:?}, {:?}", umpire.result());
        };
        let mut after: OwnBoard = agent.view().own_board().clone();
        after.play(chosen);
        assert_ne!(after, back, "seed {seed}: {chosen} repeats the shuffle");
        assert!(
            agent.analysis().is_some_and(|a| a.value > 0.3),
            "seed {seed}: the agent should stand to win"
        );
    }
}

#[test]
fn an_agent_a_rook_ahead_does_not_stand_a_board_a_third_time() {
    // White is a rook up (Black keeps a pawn, so that the lone-king technique plays no part);
    // the rook comes to c2 and shuffles c2–c1 and back, the black king h5–h6.
    let start = pos("8/p7/8/7k/8/2R5/8/K7 w - - 0 1");
    let shuffle = [
        "c3c2", "h5h6", "c2c1", "h6h5", "c1c2", "h5h6", "c2c1", "h6h5",
    ];
    for seed in 0..3 {
        let rules = RuleSet::WILD16;
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let config = at_nodes(300);
        let view = setup_view(rules, &start, Color::White);
        let mut agent = MctsAgent::new(view, seed, Some(start.clone()), config);
        for uci in shuffle {
            let command = Command::Attempt(Attempt::from_uci(uci).unwrap());
            let outcome = umpire.submit(command);
            assert_eq!(outcome.verdict, Verdict::Accepted, "{uci}");
            play_observations(&mut agent, Color::White, command, &outcome).unwrap();
        }
        assert!(!umpire.is_over());
        // The rook on c2 has stood twice after White's moves: a third time may be threefold.
        let chosen = agent.choose();
        let repeated = Attempt::from_uci("c1c2").unwrap();
        assert_not_a_third_time(&agent, chosen, repeated, &format!("seed {seed}"));
    }
}

/// Game 5 of the lead's quiet `mcts` against `raider` row (issue 28, 100 ms a decision): `mcts`
/// (White) two rooks and a bishop against a bishop and a knight, five points ahead, shuffled
/// its rook d8–h8/g8/f8–d8 while the black knight went c5–d3, and its third `Rd8` drew by
/// threefold repetition. Replayed to that decision (the agent hears what White heard), it must
/// not stand the board with the rook on d8 a third time. (At these budgets the replayed agent's
/// search values the position about +0.4 and prefers another rook move even without the
/// repetition rules; the rule keyed to the lead in material, for beliefs that value such a
/// position far lower, is tested on its bands in `mcts/root_pick.rs`.)
#[test]
fn the_recorded_rook_shuffle_is_left_while_ahead_on_material() {
    let text = include_str!("data/threefold_rook_ahead.json");
    let record = Record::from_json(text).unwrap();
    let rules = *record.rules.rules();
    // Up to White's last turn: an illegal f6d8, then the accepted f8d8 that drew.
    let last_turn = record.entries.len() - 2;
    assert_eq!(
        record.entries[last_turn + 1].command,
        Command::Attempt(Attempt::from_uci("f8d8").unwrap())
    );
    for seed in 0..2 {
        let (mut umpire, mut agent) = common::seated_mcts(rules, Color::White, seed, 3_000);
        for entry in &record.entries[..last_turn] {
            let outcome = umpire.submit(entry.command);
            assert_eq!(outcome.verdict, entry.verdict);
            play_observations(&mut agent, Color::White, entry.command, &outcome).unwrap();
        }
        let chosen = agent.choose();
        let repeated = Attempt::from_uci("f8d8").unwrap();
        assert_not_a_third_time(&agent, chosen, repeated, &format!("seed {seed}"));
    }
}

/// Game 15 of this session's `mcts@30000` against `raider` row (seed 28): `mcts` (White) a queen,
/// two rooks, a knight and four pawns against a bishop and three pawns, 19.75 ahead, drew by
/// threefold repetition with `Kd3–e3`. Its belief had been restarted from a single guess that
/// put it 7.25 *behind*, so the rule keyed to the belief's lead in material did not apply. The
/// lead it is sure of (its own men against the enemy's count, every enemy piece a queen) does.
/// Replayed from the start with the game's seed and budget (the agent asked at every one of its
/// decisions, as in the game), its last decision must not stand its board a third time.
#[test]
fn a_sure_lead_in_material_leaves_the_shuffle_when_the_belief_misjudges_it() {
    let text = include_str!("data/threefold_lead_misjudged.json");
    let record = Record::from_json(text).unwrap();
    let (mut umpire, mut agent) = common::record_mcts(&record, Color::White, 30_000);
    let last = record.entries.len() - 1;
    assert_eq!(record.entries[last].side, Color::White);
    for (i, entry) in record.entries.iter().enumerate() {
        if entry.side == Color::White {
            let chosen = agent.choose();
            if i == last {
                let Command::Attempt(recorded) = entry.command else {
                    panic!("the record ends with a move");
                };
                assert_not_a_third_time(&agent, chosen, recorded, "the last decision");
                return;
            }
        }
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict);
        play_observations(&mut agent, Color::White, entry.command, &outcome).unwrap();
    }
}

/// Replays `text` (a record of a game against `raider`) into a fresh `mcts@30000` seated as
/// `side` with the record's seed, to entry `at` (a move of `side` that stood its own board a
/// third time, `repeated`), and requires another board. With `ask_each` the agent is asked at
/// every decision of the game on the way, as in the game (its random state then follows the
/// game's, and a game of the same build replays exactly).
fn leaves_the_third_standing(text: &str, side: Color, at: usize, repeated: &str, ask_each: bool) {
    leaves_the_third_standing_at(text, side, at, repeated, ask_each, 30_000);
}

/// [`leaves_the_third_standing`] with `mcts` at `nodes`.
fn leaves_the_third_standing_at(
    text: &str,
    side: Color,
    at: usize,
    repeated: &str,
    ask_each: bool,
    nodes: u64,
) {
    let record = Record::from_json(text).unwrap();
    let repeated = Attempt::from_uci(repeated).unwrap();
    assert_eq!(record.entries[at].side, side);
    assert_eq!(record.entries[at].command, Command::Attempt(repeated));
    let (mut umpire, mut agent) = common::record_mcts(&record, side, nodes);
    for entry in &record.entries[..at] {
        if ask_each && entry.side == side {
            agent.choose();
        }
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict);
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    let chosen = agent.choose();
    assert_not_a_third_time(&agent, chosen, repeated, &format!("entry {at}"));
}

/// Game 6 of the fourth session's `mcts@30000` against `raider` row (seed 28): `mcts` (Black) a
/// queen, a rook, two bishops, a knight and four pawns against a knight and two pawns, 22.5
/// ahead, gave the same check from g2 again and again (`Qg2+`, `Qe2`/`Qf1+`/`Qg1+`, `Qg2+`)
/// and drew by threefold repetition. Its search valued the check +1 (a mate in every position
/// of its belief, which was wrong), put nearly all its visits there, and no alternative had the
/// share the winning band's rule asks for. Replayed (the agent hears what Black heard) to the
/// decision where `Qg1–g2+` stood the board a third time (entry 156, since the knight took on
/// g7), it must play something else.
#[test]
fn a_check_valued_as_mate_is_not_given_from_the_same_board_a_third_time() {
    leaves_the_third_standing(
        include_str!("data/threefold_false_mate.json"),
        Color::Black,
        156,
        "g1g2",
        false,
    );
}

/// Game 2 of the same row, after the rule above: `mcts` (Black) 12.25 ahead shuffled its rook
/// h5–h6 while `raider`'s king went d5–e5, and drew by threefold repetition; its value was
/// below the winning band, where the rule keyed to the lead in material asked an alternative
/// for a hundredth of the visits. Now the same rule applies whatever the value. Replayed with
/// the agent asked at every decision, as in the game.
#[test]
fn a_rook_shuffle_below_the_winning_band_is_left_while_ahead_on_material() {
    leaves_the_third_standing(
        include_str!("data/threefold_rook_ahead_2.json"),
        Color::Black,
        153,
        "h6h5",
        true,
    );
}

/// Replays `text` (a record of a game against `raider`) into a fresh `mcts@30000` seated as
/// `side` with the record's seed, asked at each of its decisions as in the game, to entry `at`; returns the agent, the
/// true lead of `side` in material there (pawns, from the umpire's position).
fn heard_to(text: &str, side: Color, at: usize) -> (MctsAgent, f64) {
    let record = Record::from_json(text).unwrap();
    let (mut umpire, mut agent) = Seat::of_record(&record, side)
        .unwrap()
        .take(|view, seed| MctsAgent::new(view, seed, Some(Chess::default()), at_nodes(30_000)));
    for entry in &record.entries[..at] {
        if entry.side == side {
            // Asked as in the game: the belief's repairs are done within decisions.
            agent.choose();
        }
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict);
        play_observations(&mut agent, side, entry.command, &outcome).unwrap();
    }
    let board = umpire.position().board();
    let truth = material(board, side) - material(board, !side);
    (agent, truth)
}

/// Requires the agent heard to entry `at` of `text` to count itself ahead for the repetition
/// rules ([`AHEAD_MATERIAL`]), its count from the men it took within a pawn of the truth.
fn counts_itself_ahead(text: &str, side: Color, at: usize, truth: f64) {
    let (mut agent, true_lead) = heard_to(text, side, at);
    assert_eq!(true_lead, truth, "the record's material");
    let counted = agent.counted_lead().unwrap();
    assert!(
        (counted - truth).abs() <= 1.0,
        "counted {counted}, truly {truth}"
    );
    let lead = agent.material_lead();
    assert!(lead >= AHEAD_MATERIAL, "lead {lead} (truly {truth})");
}

/// Game 15 of the fourth session's `mcts@30000` against `raider` row (seed 28): `mcts` (White) a
/// queen and five pawns against a rook, a bishop and two pawns, 3.75 ahead, shuffled its queen
/// a7–b7 while `raider`'s rook went d1–b1, and drew by threefold repetition (the third `a7b7`,
/// entry 111). Its value (+0.09) was inside the band where a third standing needs an
/// alternative nearly as good, and its lead as it counted it was under the material rule's 2
/// pawns: the sure lead counts the rook and the bishop as queens, and the belief's mean was too
/// low. Heard to that decision, the agent must count itself ahead: the lead counted from the men
/// it took (each valued from the belief when it was taken) does.
///
/// Open: the count comes to 1.75 here (the belief before two of the captures named the wrong
/// kind, or none): over [`AHEAD_MATERIAL`] since it is 1 pawn (session 8), but 2 from the truth.
#[test]
#[ignore = "open: the counted lead is 1.75 of the true 3.75 (kinds of two captures misjudged)"]
fn the_queen_shuffles_lead_is_counted_from_the_men_taken() {
    counts_itself_ahead(
        include_str!("data/threefold_queen_counted_lead.json"),
        Color::White,
        111,
        3.75,
    );
}

/// Game 36 of the same row: `mcts` (Black) two rooks and two pawns against a rook and four
/// pawns, 3 ahead, shuffled a rook f1–a1 (value −0.07) and drew by threefold repetition (the
/// third `a1f1`, entry 89), its lead as counted under 2 pawns as in game 15.
#[test]
fn the_rook_shuffles_lead_is_counted_from_the_men_taken() {
    counts_itself_ahead(
        include_str!("data/threefold_rook_counted_lead.json"),
        Color::Black,
        89,
        3.0,
    );
}

/// The same two decisions, replayed with the agent asked at every decision as in the game: the
/// third standing must give way. (The present build no longer plays these games move for move,
/// so these pass without the counted lead too; the tests above are the ones that need it.)
#[test]
fn the_counted_lead_shuffles_are_left() {
    leaves_the_third_standing(
        include_str!("data/threefold_queen_counted_lead.json"),
        Color::White,
        111,
        "a7b7",
        true,
    );
    leaves_the_third_standing(
        include_str!("data/threefold_rook_counted_lead.json"),
        Color::Black,
        89,
        "a1f1",
        true,
    );
}

/// Game 39 of session 7's quiet `mcts` against `raider` row (100 ms a decision, seed 28):
/// `mcts` (White) a queen, a rook and two pawns against a bishop and two pawns, 10.75 ahead,
/// shuffled its queen b5–b3 and its rook c6–b6 while the black king went b2–c1, and drew by
/// threefold repetition after its `b3b5` (entry 226). Each of its boards there had stood only
/// twice after its own moves: the first standing of the repeated position came from the enemy
/// king taking the knight on b2, a board no own move had left. The standings after an enemy
/// capture now count. Replayed with the agent asked at every decision, as in the game.
#[test]
fn a_board_left_by_the_enemys_capture_counts_as_a_standing() {
    leaves_the_third_standing(
        include_str!("data/threefold_after_capture.json"),
        Color::White,
        226,
        "b3b5",
        true,
    );
}

/// Game 11 of the same row: `mcts` (White) a queen, a bishop and two pawns against a bishop, a
/// knight and five pawns, 3 ahead, valued the position about 0 and shuffled its queen a2–g8
/// while `raider`'s bishop went f3–g2, and drew by threefold repetition with its third `a2g8`
/// (entry 93). Its lead as counted from the men it took was 1.75, under the 2 pawns the rule
/// keyed to material asked then ([`AHEAD_MATERIAL`] was 1 after it), and no alternative was valued
/// within the value band's margin. Replayed with the agent asked at every decision.
#[test]
fn a_small_lead_in_material_leaves_the_shuffle() {
    leaves_the_third_standing(
        include_str!("data/threefold_small_lead.json"),
        Color::White,
        93,
        "a2g8",
        true,
    );
}

/// Game 23 of session 8's `mcts@4000` against `raider` row (seed 28, the build with the two
/// changes above): `mcts` (White) two rooks, two knights and four pawns against a rook, a
/// bishop and five pawns, 6.75 ahead, shuffled its rook a8–b8 and drew by threefold repetition
/// with its third `b8a8` (entry 167). Its belief, restarted from a single guess, had the enemy
/// rook on a8 attacking the rook on b8: `b8a8` took it there, and every other move "lost" the
/// rook, more than the 2 pawns the rule let an alternative lose. What already hangs now costs
/// every move alike ([`umpire_ai::safety::standing_delta`]). Replayed at the game's budget with
/// the agent asked at every decision, as in the game (a node budget: the same moves).
#[test]
fn a_man_hanging_in_the_belief_does_not_keep_the_shuffle() {
    leaves_the_third_standing_at(
        include_str!("data/threefold_hanging_rook.json"),
        Color::White,
        167,
        "b8a8",
        true,
        4_000,
    );
}

/// Game 14 of session 8's quiet `mcts` against `raider` row (100 ms a decision, seed 28):
/// `mcts` (Black) a queen against a knight and a pawn, 5 ahead, was checked by the knight from
/// f5 again and again and answered with its king d4–d5 beside its queen on c5, and drew by
/// threefold repetition with its third `d4d5` (entry 173). The `Endgame` wrapper's mating net
/// decided those moves (the enemy's two men may both be pawns, as the net counts them), not the
/// search, so `mcts`'s repetition rules were not consulted; the net's cost of a third visit
/// (300 units) was under what it put on the other king moves for leaving the queen beside a
/// square the enemy king might hold. A third visit now costs the net a certain mate. The net
/// replays the game move for move whatever the search's budget.
#[test]
fn the_mating_net_does_not_answer_a_check_with_a_third_standing() {
    leaves_the_third_standing_at(
        include_str!("data/threefold_net_king_check.json"),
        Color::Black,
        173,
        "d4d5",
        false,
        2_000,
    );
}

/// Feeds `text` to a player seated as `side` (one that only listens) up to entry `at`; returns
/// its view and the true lead of `side` in material there.
fn view_at(text: &str, side: Color, at: usize) -> (umpire_view::PlayerView, f64) {
    let record = Record::from_json(text).unwrap();
    let (mut umpire, mut player) = Seat::of_record(&record, side)
        .unwrap()
        .take(RandomAgent::new);
    for entry in &record.entries[..at] {
        let outcome = umpire.submit(entry.command);
        assert_eq!(outcome.verdict, entry.verdict);
        play_observations(&mut player, side, entry.command, &outcome).unwrap();
    }
    let board = umpire.position().board();
    let truth = material(board, side) - material(board, !side);
    (player.view().clone(), truth)
}

/// Game 62 of the same row: `mcts` (Black) a queen and a pawn against a knight and four pawns,
/// 3 ahead, shuffled its queen f1–b1 while `raider`'s knight went f6–e4/e8 and back, and drew
/// by threefold repetition with its third `b1f1` (entry 139). It had taken six of the seven
/// enemy pieces but counted the kinds of two wrong (the belief before those captures was a
/// restarted guess), so it counted itself a quarter of a pawn ahead and valued the position
/// −0.22: neither repetition rule applied. The knight had given it check (entry 124) since its
/// last capture of a piece: the one piece left is a knight, and the lead it is sure of is 3.5.
#[test]
fn a_knights_check_proves_the_lead_the_count_misjudged() {
    let text = include_str!("data/threefold_knight_proven.json");
    let (before_check, _) = view_at(text, Color::Black, 124);
    assert!(!knight_proven(&before_check));
    let (view, truth) = view_at(text, Color::Black, 139);
    assert_eq!(truth, 3.0, "the record's material");
    assert!(knight_proven(&view));
    let sure = sure_lead(&view);
    assert!((sure - truth).abs() <= 1.0, "sure {sure}, truly {truth}");
    assert!(sure >= AHEAD_MATERIAL);
}

/// The same decision, replayed at a budget near the game's (about 30,000 nodes a 100 ms
/// decision on a quiet machine) with the agent asked at every decision, as in the game: it
/// replays the game move for move up to there, and must now leave the shuffle.
#[test]
fn the_queen_shuffle_a_knight_ahead_is_left() {
    leaves_the_third_standing(
        include_str!("data/threefold_knight_proven.json"),
        Color::Black,
        139,
        "b1f1",
        true,
    );
}

/// Game 11 of the same row: `mcts` (White) two knights against a bishop and two pawns (0.75
/// ahead, counted 0.875 from the men it took) shuffled a knight c4–d6 while `raider`'s bishop
/// went b3–a4, and drew by threefold repetition with its third `c4d6` (entry 124). It valued
/// the position about −0.32, below the band where a third standing gives way to an alternative
/// valued nearly as well, and its lead was under the pawn the rule keyed to material asked;
/// the other knight moves were valued within a few hundredths. Half a pawn's lead now counts
/// ([`AHEAD_MATERIAL`]; an alternative may then lose no more than the lead). Replayed at
/// 30,000 nodes, asked at that decision only (where this build, before the change, played the
/// recorded `c4d6`).
#[test]
fn a_lead_of_under_a_pawn_leaves_the_knight_shuffle() {
    leaves_the_third_standing_at(
        include_str!("data/threefold_half_pawn.json"),
        Color::White,
        124,
        "c4d6",
        false,
        30_000,
    );
}
