//! Ends declared off the board: a flag fall (FIDE Laws 6.9), an abandonment and an abort,
//! judged by the umpire and carried by records that replay and verify exactly.

use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::Color;
use umpire_rules::{
    Announcement, Command, EndReason, GameResult, Invalid, RuleSet, RuleSetId, Umpire, Verdict,
};

fn attempt(uci: &str) -> Command {
    Command::Attempt(uci.parse().unwrap())
}

/// JSON and PGN round trips, then a replay that rebuilds the same record.
fn check_round_trips(record: &Record) {
    let json = record.to_json();
    let from_json = Record::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&from_json, record, "JSON round trip");
    let replayed = from_json.replay().unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(replayed.record(), record, "replay rebuilds the same record");
    let pgn = record.to_pgn().unwrap();
    let from_pgn = Record::from_pgn(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(&from_pgn, record, "PGN round trip\n{pgn}");
    from_pgn.replay().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    for player in [Color::White, Color::Black] {
        record.player_pgn(player).unwrap();
        record.player_json(player).unwrap();
    }
}

#[test]
fn a_flag_fall_is_a_loss() {
    let mut u = Umpire::new(RuleSet::WILD16);
    assert_eq!(u.submit(attempt("e2e4")).verdict, Verdict::Accepted);
    // Black is to move; Black's flag falls.
    let out = u.submit_as(Color::Black, Command::FlagFall);
    assert_eq!(out.verdict, Verdict::Answered);
    assert_eq!(out.side, Color::Black);
    let result = GameResult::win(Color::White, EndReason::TimeForfeit);
    assert_eq!(u.result(), Some(result));
    assert_eq!(result.score(), "1-0");
    for side in [Color::White, Color::Black] {
        assert!(
            out.heard_by(side)
                .any(|a| a == Announcement::GameOver(result)),
            "{side:?} hears the end"
        );
    }
    assert_eq!(u.submit(attempt("e7e5")).verdict, Verdict::GameOver);
    assert_eq!(
        u.submit_as(Color::White, Command::FlagFall).verdict,
        Verdict::GameOver
    );
}

#[test]
fn a_flag_fall_of_the_side_not_to_move_is_a_loss_too() {
    let mut u = Umpire::new(RuleSet::WILD16);
    let out = u.submit_as(Color::Black, Command::FlagFall);
    assert_eq!(out.verdict, Verdict::Answered);
    assert_eq!(
        u.result(),
        Some(GameResult::win(Color::White, EndReason::TimeForfeit))
    );
}

#[test]
fn a_flag_fall_against_a_side_that_cannot_mate_is_a_draw() {
    // (FEN, side whose flag falls, expected winner): the opponent's men alone decide.
    let cases = [
        // White's flag falls; Black has a bare king.
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::White, None),
        // Black's flag falls; White has a rook: White wins.
        (
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
            Color::Black,
            Some(Color::White),
        ),
        // White's flag falls; Black has king and knight against king and queen.
        ("4k3/8/8/3n4/8/8/8/Q3K3 w - - 0 1", Color::White, None),
        // White's flag falls; Black has king and bishop against king and queen: a bishop's
        // check leaves a cornered king two flight squares, and one queen blocks only one.
        ("4k3/8/8/3b4/8/8/8/Q3K3 w - - 0 1", Color::White, None),
        // White's flag falls; Black has king and knight, White a rook: the rook may block
        // its own king, so a mate exists by some legal sequence and Black wins.
        (
            "4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1",
            Color::White,
            Some(Color::Black),
        ),
        // White's flag falls; Black has king and pawn: a pawn can promote and mate.
        (
            "4k3/4p3/8/8/8/8/8/R3K3 w - - 0 1",
            Color::White,
            Some(Color::Black),
        ),
        // White's flag falls; Black has two knights: a mate exists with White's help.
        (
            "4k3/8/8/2nn4/8/8/8/R3K3 w - - 0 1",
            Color::White,
            Some(Color::Black),
        ),
    ];
    for (fen, flagged, winner) in cases {
        // The rule applies under every rule set.
        for rules in [RuleSet::WILD16, RuleSet::BERKELEY_ANY] {
            let mut u = Umpire::from_fen(rules, fen).unwrap();
            let out = u.submit_as(flagged, Command::FlagFall);
            assert_eq!(out.verdict, Verdict::Answered, "{fen}");
            let result = u.result().unwrap();
            assert_eq!(result.reason, EndReason::TimeForfeit, "{fen}");
            assert_eq!(result.winner, winner, "{fen}");
            assert_eq!(result.is_draw(), winner.is_none(), "{fen}");
        }
    }
}

#[test]
fn abandonment_is_a_loss_and_an_abort_only_comes_before_both_sides_moved() {
    let mut u = Umpire::new(RuleSet::WILD16);
    let out = u.submit_as(Color::White, Command::Abort);
    assert_eq!(out.verdict, Verdict::Answered);
    let aborted = u.result().unwrap();
    assert_eq!(aborted, GameResult::aborted());
    assert_eq!(aborted.score(), "*");
    assert!(!aborted.is_draw());

    let mut u = Umpire::new(RuleSet::WILD16);
    u.submit(attempt("e2e4"));
    assert_eq!(
        u.submit_as(Color::Black, Command::Abort).verdict,
        Verdict::Answered
    );

    let mut u = Umpire::new(RuleSet::WILD16);
    u.submit(attempt("e2e4"));
    u.submit(attempt("e7e5"));
    assert_eq!(
        u.submit_as(Color::White, Command::Abort).verdict,
        Verdict::Invalid(Invalid::TooLateToAbort)
    );
    assert_eq!(u.result(), None);
    assert_eq!(
        u.submit_as(Color::White, Command::Abandon).verdict,
        Verdict::Answered
    );
    assert_eq!(
        u.result(),
        Some(GameResult::win(Color::Black, EndReason::Abandonment))
    );
}

#[test]
fn results_by_the_new_reasons_read_back_from_their_parts() {
    for r in [
        GameResult::win(Color::White, EndReason::TimeForfeit),
        GameResult::draw(EndReason::TimeForfeit),
        GameResult::win(Color::Black, EndReason::Abandonment),
        GameResult::aborted(),
    ] {
        assert_eq!(
            GameResult::from_parts(r.score(), r.reason.as_str()),
            Some(r)
        );
    }
    // The server's old name for a flag fall still reads.
    assert_eq!(
        GameResult::from_parts("0-1", "time"),
        Some(GameResult::win(Color::Black, EndReason::TimeForfeit))
    );
    assert_eq!(GameResult::from_parts("1/2-1/2", "abandonment"), None);
    assert_eq!(GameResult::from_parts("1-0", "aborted"), None);
    assert_eq!(GameResult::from_parts("*", "resignation"), None);
}

#[test]
fn a_record_with_a_time_forfeit_verifies_and_replays() {
    let mut game = Game::new(RuleSet::WILD16);
    for c in ["e2e4", "e7e5", "g1f3"] {
        assert_eq!(game.submit(attempt(c)).verdict, Verdict::Accepted);
    }
    assert_eq!(game.submit(attempt("e5e4")).verdict, Verdict::Illegal);
    assert_eq!(
        game.submit_as(Color::Black, Command::FlagFall).verdict,
        Verdict::Answered
    );
    let result = GameResult::win(Color::White, EndReason::TimeForfeit);
    assert_eq!(game.record().result, Some(result));
    check_round_trips(game.record());
    let pgn = game.record().to_pgn().unwrap();
    assert!(
        pgn.contains("[KriegspielTermination \"time_forfeit\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    let json = game.record().to_json();
    assert!(json.contains("\"flag\""), "{json}");

    // A record claiming the flagged side won does not verify.
    let mut forged = game.record().clone();
    forged.result = Some(GameResult::win(Color::Black, EndReason::TimeForfeit));
    assert!(forged.replay().is_err());
    // Nor does one whose flag fall is attributed to the other side.
    let mut forged = game.record().clone();
    forged.entries.last_mut().unwrap().side = Color::White;
    assert!(forged.replay().is_err());
}

#[test]
fn drawn_flag_falls_abandonments_and_aborts_round_trip() {
    let mut game = Game::from_fen(RuleSet::WILD16, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    game.submit(attempt("a1a7"));
    game.submit(attempt("e8f8"));
    game.submit_as(Color::White, Command::FlagFall);
    assert_eq!(
        game.result(),
        Some(GameResult::draw(EndReason::TimeForfeit))
    );
    check_round_trips(game.record());

    let mut game = Game::new(RuleSet::ENGLISH);
    game.submit(attempt("e2e4"));
    game.submit(attempt("e7e5"));
    game.submit_as(Color::White, Command::Abandon);
    assert_eq!(
        game.result(),
        Some(GameResult::win(Color::Black, EndReason::Abandonment))
    );
    check_round_trips(game.record());

    for id in [RuleSetId::Wild16, RuleSetId::Cincinnati] {
        let mut game = Game::new(*id.rules());
        game.submit(attempt("d2d4"));
        game.submit_as(Color::Black, Command::Abort);
        assert_eq!(game.result(), Some(GameResult::aborted()));
        check_round_trips(game.record());
        let pgn = game.record().to_pgn().unwrap();
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(pgn.contains("[KriegspielTermination \"aborted\"]"), "{pgn}");
    }
}

#[test]
fn a_player_cannot_type_a_declared_end() {
    let u = Umpire::new(RuleSet::WILD16);
    let board = u.own_board();
    for word in ["flag", "abandon", "abort"] {
        assert!(board.parse_command(word).is_err(), "{word}");
    }
}
