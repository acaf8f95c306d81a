//! Game records: JSON and PGN round trips over random and hand-driven games under every rule
//! set, replay that catches tampering, information hiding in player views, and parsers that
//! never panic.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use shakmaty::Color;
use umpire_rules::record::{Game, PgnError, Record, RecordError, ReplayError};
use umpire_rules::{
    Announcement, Attempt, Audience, Command, EndReason, Heard, Invalid, OwnBoard, RuleSetId,
    Umpire, Verdict,
};

fn attempt(uci: &str) -> Command {
    Command::Attempt(Attempt::from_uci(uci).unwrap())
}

/// Checks every round trip of a record: JSON -> Record, Record -> PGN -> Record, replay.
fn check_round_trips(record: &Record) {
    let json = record.to_json();
    let from_json = Record::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&from_json, record, "JSON round trip");
    let pretty = Record::from_json(&record.to_json_pretty()).unwrap();
    assert_eq!(&pretty, record, "pretty JSON round trip");
    let pgn = record.to_pgn().unwrap();
    let from_pgn = Record::from_pgn(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(&from_pgn, record, "PGN round trip\n{pgn}");
    let replayed = from_pgn.replay().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    assert_eq!(replayed.record(), record, "replay rebuilds the same record");
    for player in [Color::White, Color::Black] {
        let view = record.player_pgn(player).unwrap();
        assert!(view.contains("[KriegspielView"), "{view}");
    }
}

/// PGN with its line breaks turned into spaces.
fn flat(pgn: &str) -> String {
    pgn.replace('\n', " ")
}

fn random_record(id: RuleSetId, seed: u64, max_plies: u32) -> Record {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(*id.rules());
    game.set_tag("White", "random").unwrap();
    game.set_tag("Black", &format!("random \"seed\" {seed}"))
        .unwrap();
    game.play_random(&mut rng, max_plies);
    game.into_record()
}

#[test]
fn random_games_round_trip_under_every_rule_set() {
    for id in RuleSetId::ALL {
        let mut finished = 0;
        for seed in 0..6 {
            let record = random_record(id, seed, 400);
            assert_eq!(record.rules, id);
            assert!(record.plies() > 0);
            finished += usize::from(record.result.is_some());
            check_round_trips(&record);
        }
        assert!(
            finished > 0,
            "{id}: some random game should finish within 400 plies"
        );
    }
}

#[test]
fn random_games_from_set_up_positions_round_trip() {
    let fens = [
        "r3k2r/pPpp1ppp/8/3Pp3/8/8/P1PP1PPP/R3K2R w KQkq e6 0 12",
        "4k3/8/8/8/8/8/4P3/R3K2R b KQ - 3 40",
        "8/P6k/8/8/8/8/6Kp/8 w - - 0 60",
    ];
    for id in RuleSetId::ALL {
        for (i, fen) in fens.iter().enumerate() {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(i as u64 + 100);
            let mut game = Game::from_fen(*id.rules(), fen).unwrap();
            game.play_random(&mut rng, 120);
            check_round_trips(game.record());
        }
    }
}

#[test]
fn draw_offers_answers_and_resignation_round_trip() {
    let mut game = Game::new(umpire_rules::RuleSet::WILD16);
    game.set_tag("Event", "Club night").unwrap();
    assert_eq!(
        game.submit(Command::AcceptDraw).verdict,
        Verdict::Invalid(Invalid::NoDrawOffer)
    );
    assert_eq!(game.submit(Command::OfferDraw).verdict, Verdict::Answered);
    assert_eq!(
        game.submit(Command::OfferDraw).verdict,
        Verdict::Invalid(Invalid::DrawAlreadyOffered)
    );
    assert_eq!(game.submit(Command::DeclineDraw).side, Color::Black);
    assert_eq!(game.submit(attempt("e2e5")).verdict, Verdict::Impossible);
    assert_eq!(
        game.submit(Command::OfferDraw).verdict,
        Verdict::Invalid(Invalid::DrawAlreadyOffered)
    );
    assert_eq!(game.submit(attempt("e2e4")).verdict, Verdict::Accepted);
    assert_eq!(game.submit(attempt("d8d6")).verdict, Verdict::Impossible);
    assert_eq!(
        game.submit(Command::OfferDraw).verdict,
        Verdict::Invalid(Invalid::DrawOfferAfterAttempt)
    );
    assert_eq!(game.submit(attempt("d7d5")).verdict, Verdict::Accepted);
    assert_eq!(
        game.submit(Command::AskAny).verdict,
        Verdict::Invalid(Invalid::NoAnyQuestion)
    );
    assert_eq!(game.submit(Command::OfferDraw).verdict, Verdict::Answered);
    // White offers; Black accepts.
    assert_eq!(game.submit(Command::AcceptDraw).verdict, Verdict::Answered);
    assert_eq!(game.result().map(|r| r.reason), Some(EndReason::DrawAgreed));
    assert_eq!(game.submit(attempt("d2d4")).verdict, Verdict::GameOver);
    check_round_trips(game.record());

    let mut game = Game::new(umpire_rules::RuleSet::RAND);
    for c in ["e2e4", "d7d5", "e4d5"] {
        game.submit(attempt(c));
    }
    assert_eq!(game.submit(Command::OfferDraw).side, Color::Black);
    assert_eq!(game.submit(attempt("d8d5")).verdict, Verdict::Accepted);
    // White lets the offer lapse by attempting a move; then Black resigns.
    let lapse = game.submit(attempt("b1c3"));
    assert!(
        lapse
            .heard_by(Color::Black)
            .any(|a| a == Announcement::DrawDeclined(Color::White))
    );
    assert_eq!(game.submit(Command::Resign).verdict, Verdict::Answered);
    assert_eq!(game.result().map(|r| r.winner), Some(Some(Color::White)));
    check_round_trips(game.record());
}

#[test]
fn any_questions_round_trip() {
    for rules in [
        umpire_rules::RuleSet::BERKELEY_ANY,
        umpire_rules::RuleSet::ENGLISH,
    ] {
        let mut game = Game::new(rules);
        game.submit(Command::AskAny);
        game.submit(Command::AskAny);
        for c in ["e2e4", "d7d5"] {
            assert_eq!(game.submit(attempt(c)).verdict, Verdict::Accepted);
        }
        let answer = game.submit(Command::AskAny);
        assert!(
            answer
                .heard_by(Color::Black)
                .any(|a| a == Announcement::AnyAnswer(true))
        );
        assert_eq!(
            game.submit(attempt("g1f3")).verdict,
            Verdict::Invalid(Invalid::MustTryPawnCapture)
        );
        assert_eq!(game.submit(attempt("e4f5")).verdict, Verdict::Illegal);
        game.submit(attempt("e4d5"));
        game.submit(Command::Resign);
        check_round_trips(game.record());
        let pgn = flat(&game.record().to_pgn().unwrap());
        assert!(pgn.contains("W any answered any_answer:yes"), "{pgn}");
        assert!(
            pgn.contains("W g1f3 invalid:must_try_pawn_capture"),
            "{pgn}"
        );
    }
}

#[test]
fn queen_only_promotion_keeps_the_typed_command() {
    let mut game = Game::from_fen(
        umpire_rules::RuleSet::UMPIRE1965,
        "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
    )
    .unwrap();
    assert_eq!(game.submit(attempt("e7e8")).verdict, Verdict::Accepted);
    let pgn = game.record().to_pgn().unwrap();
    assert!(
        pgn.contains("1. e8=Q+ { typed e7e8 promotion:white check:rank }"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"k7/4P3/8/8/8/8/8/4K3 w - - 0 1\"]"),
        "{pgn}"
    );
    check_round_trips(game.record());
}

#[test]
fn opening_announcements_of_a_set_up_position_round_trip() {
    // Black to move, in check from the rook on e1 along the file.
    let game = Game::from_fen(
        umpire_rules::RuleSet::WILD16,
        "4k3/8/8/8/8/8/8/K3R3 b - - 0 1",
    )
    .unwrap();
    assert!(!game.record().opening.is_empty());
    check_round_trips(game.record());
    assert!(
        game.record()
            .to_pgn()
            .unwrap()
            .contains("{ start check:file }")
    );
    // A dead position is over before it starts.
    let game = Game::from_fen(
        umpire_rules::RuleSet::WILD16,
        "4k3/8/8/8/8/8/8/K7 w - - 0 1",
    )
    .unwrap();
    assert_eq!(
        game.record().result.map(|r| r.reason),
        Some(EndReason::InsufficientMaterial)
    );
    check_round_trips(game.record());
}

#[test]
fn referee_pgn_looks_as_documented() {
    let mut game = Game::new(umpire_rules::RuleSet::WILD16);
    game.set_tag("White", "Ann").unwrap();
    game.set_tag("Black", "Bob").unwrap();
    for c in ["e2e4", "e7e5", "e4e5", "g1f3", "d7d5", "e4d5"] {
        game.submit(attempt(c));
    }
    let pgn = game.record().to_pgn().unwrap();
    let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ann\"]\n\
        [Black \"Bob\"]\n[Result \"*\"]\n[KriegspielRules \"wild16\"]\n\
        [KriegspielFormat \"1\"]\n\n\
        1. e4 e5 { W e4e5 illegal illegal@mover } 2. Nf3 d5 { pawn_tries:1 } 3. exd5 {\ncapture:d5:pawn } *\n";
    assert_eq!(pgn, expected);
}

fn tampered(record: &Record, edit: impl FnOnce(&mut Record)) -> ReplayError {
    let mut copy = record.clone();
    edit(&mut copy);
    copy.replay().expect_err("tampering must be detected")
}

#[test]
fn replay_detects_tampering() {
    let record = random_record(RuleSetId::Wild16, 7, 60);
    record.replay().unwrap();
    let capture = record
        .entries
        .iter()
        .position(|e| {
            e.announcements
                .iter()
                .any(|h| matches!(h.announcement, Announcement::Capture { .. }))
        })
        .expect("a capture in 60 random plies");

    let err = tampered(&record, |r| {
        let h = &mut r.entries[capture].announcements[0];
        if let Announcement::Capture {
            square,
            man,
            en_passant,
        } = h.announcement
        {
            h.announcement = Announcement::Capture {
                square: square.flip_vertical(),
                man,
                en_passant,
            };
        }
    });
    let text = err.to_string();
    assert!(
        matches!(err, ReplayError::Entry { index, .. } if index == capture),
        "{text}"
    );
    assert!(
        text.contains(&format!("entry {}", capture + 1)) && text.contains("capture:"),
        "{text}"
    );

    let err = tampered(&record, |r| {
        r.entries[capture].announcements[0].audience = Audience::Mover
    });
    assert!(err.to_string().contains("@mover"), "{err}");

    let rejected = record
        .entries
        .iter()
        .position(|e| e.verdict == Verdict::Illegal)
        .expect("a rejection");
    let err = tampered(&record, |r| {
        r.entries[rejected].verdict = Verdict::Impossible
    });
    let text = err.to_string();
    assert!(
        text.contains(&format!("entry {}", rejected + 1))
            && text.contains("verdict was impossible"),
        "{text}"
    );

    let moved = record
        .entries
        .iter()
        .position(|e| e.verdict == Verdict::Accepted)
        .unwrap();
    // The first move is played from the start position, where the rook cannot move.
    let err = tampered(&record, |r| r.entries[moved].command = attempt("a1a3"));
    let text = err.to_string();
    assert!(
        text.contains(&format!("entry {} (white a1a3)", moved + 1))
            && text.contains("verdict was accepted"),
        "{text}"
    );

    let err = tampered(&record, |r| r.entries[1].side = !r.entries[1].side);
    // Counted from 1 in the message, as people count.
    assert!(err.to_string().contains("entry 2 "), "{err}");

    // Dropping a move puts the next command in the wrong mouth.
    let err = tampered(&record, |r| {
        r.entries.remove(moved);
    });
    assert!(
        matches!(
            err,
            ReplayError::Entry {
                what: umpire_rules::record::Mismatch::Side { .. },
                ..
            }
        ),
        "{err}"
    );

    let err = tampered(&record, |r| {
        r.result = Some(umpire_rules::GameResult::draw(EndReason::DrawAgreed))
    });
    assert!(err.to_string().contains("result"), "{err}");

    let err = tampered(&record, |r| {
        r.opening.push(Heard {
            audience: Audience::Both,
            announcement: Announcement::PawnTries(1),
        })
    });
    assert!(err.to_string().contains("opening"), "{err}");
}

#[test]
fn json_import_rejects_bad_input_clearly() {
    let good = random_record(RuleSetId::Berkeley, 3, 20).to_json();
    let cases: [(&str, &str, &str); 9] = [
        (
            "\"version\":1",
            "\"version\":2",
            "unsupported record version 2",
        ),
        (
            "\"umpire-kriegspiel-record\"",
            "\"chess\"",
            "format is \"chess\"",
        ),
        (
            "\"rules\":\"berkeley\"",
            "\"rules\":\"bughouse\"",
            "unknown rule set \"bughouse\"",
        ),
        ("rnbqkbnr/pppppppp", "rnbqkbnr/ppppzppp", "record fen"),
        (
            "\"command\":\"",
            "\"command\":\"x",
            "record entry 1: command",
        ),
        (
            "\"verdict\":\"",
            "\"verdict\":\"x",
            "record entry 1: verdict",
        ),
        (
            "\"side\":\"white\"",
            "\"side\":\"red\"",
            "record entry 1: side \"red\"",
        ),
        (
            "\"Event\":\"?\"",
            "\"Result\":\"1-0\"",
            "tag \"Result\" is derived",
        ),
        ("\"entries\":[", "\"moves\":[", "unknown field `moves`"),
    ];
    for (from, to, message) in cases {
        let bad = good.replacen(from, to, 1);
        assert_ne!(bad, good, "{from}");
        let err = Record::from_json(&bad).expect_err(message);
        assert!(
            err.to_string().contains(message),
            "{err} should contain {message}"
        );
    }
    let square = good.replacen("\"square\":\"", "\"square\":\"z", 1);
    if square != good {
        assert!(
            Record::from_json(&square)
                .unwrap_err()
                .to_string()
                .contains("is not a square")
        );
    }
    assert!(matches!(Record::from_json("[]"), Err(RecordError::Json(_))));
    assert!(matches!(Record::from_json(""), Err(RecordError::Json(_))));
}

#[test]
fn pgn_import_rejects_bad_input_clearly() {
    let good = random_record(RuleSetId::Cincinnati, 5, 30)
        .to_pgn()
        .unwrap();
    let cases: [(&str, &str, &str); 7] = [
        (
            "[KriegspielRules \"cincinnati\"]\n",
            "",
            "KriegspielRules: missing",
        ),
        ("\"cincinnati\"", "\"chess960\"", "unknown rule set"),
        (
            "[KriegspielFormat \"1\"]",
            "[KriegspielFormat \"9\"]",
            "unsupported version \"9\"",
        ),
        (
            "[KriegspielRules",
            "[Variant \"Atomic\"]\n[KriegspielRules",
            "is not Kriegspiel",
        ),
        ("1. ", "1. Ke2 ", "not legal in the true position"),
        (
            "[Result \"*\"]",
            "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]",
            "PGN tag FEN",
        ),
        (
            "{ ",
            "{ X ",
            "expected a clause starting with W, B or start",
        ),
    ];
    for (from, to, message) in cases {
        let bad = good.replacen(from, to, 1);
        assert_ne!(bad, good, "{from}");
        let err = Record::from_pgn(&bad).expect_err(message);
        assert!(
            err.to_string().contains(message),
            "{err} should contain {message}"
        );
    }
    assert_eq!(Record::from_pgn(""), Err(PgnError::NoGame));
    let view = random_record(RuleSetId::Wild16, 1, 10)
        .player_pgn(Color::White)
        .unwrap();
    assert!(
        Record::from_pgn(&view)
            .unwrap_err()
            .to_string()
            .contains("one player's view")
    );
}

#[test]
fn python_chess_style_movetext_uses_san_with_check_marks() {
    // Fool's mate: the referee view writes real SAN, mate included.
    let mut game = Game::new(umpire_rules::RuleSet::BERKELEY);
    for c in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        game.submit(attempt(c));
    }
    let pgn = game.record().to_pgn().unwrap();
    assert!(
        pgn.contains("1. f3 e5 2. g4 Qh4# { check:short_diagonal game_over:0-1:checkmate } 0-1"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[KriegspielTermination \"checkmate\"]"),
        "{pgn}"
    );
    check_round_trips(game.record());
}

/// Plays the same White moves against two different Black histories.
fn history(black: &[&str]) -> Record {
    let mut game = Game::new(umpire_rules::RuleSet::WILD16);
    let white = ["e2e4", "g1f3", "f1c4"];
    for (w, b) in white.iter().zip(black.iter().map(|s| s.split(' '))) {
        assert_eq!(game.submit(attempt(w)).verdict, Verdict::Accepted);
        for c in b {
            game.submit(attempt(c));
        }
    }
    game.into_record()
}

#[test]
fn player_view_is_identical_for_histories_that_sound_the_same_to_that_player() {
    // Black's rejected attempts are heard by Black only under wild16, and these Black moves
    // capture nothing and give no check: White hears the same in both histories.
    let a = history(&["g8f6", "b8c6", "a7a6"]);
    let b = history(&["d8d6 h7h6", "g7g6", "f8d6 b7b6"]);
    assert_ne!(a, b);
    let white_a = a.player_pgn(Color::White).unwrap();
    let white_b = b.player_pgn(Color::White).unwrap();
    assert_eq!(white_a, white_b);
    assert!(
        white_a.contains("1. e2-e4 ?? 2. Ng1-f3 ?? 3. Bf1-c4 ??"),
        "{white_a}"
    );
    assert!(
        !white_a.contains("f6") && !white_a.contains("h6"),
        "{white_a}"
    );
    // Black heard different things about its own commands: its views differ.
    assert_ne!(
        a.player_pgn(Color::Black).unwrap(),
        b.player_pgn(Color::Black).unwrap()
    );
}

#[test]
fn player_view_hides_what_the_player_did_not_hear() {
    for id in RuleSetId::ALL {
        for seed in 0..3 {
            let record = random_record(id, seed, 200);
            for player in [Color::White, Color::Black] {
                let view = record.player_view(player).unwrap();
                let pgn = view.to_pgn();
                // Every observation holds only what the player heard.
                let heard: usize = record
                    .entries
                    .iter()
                    .map(|e| e.outcome().heard_by(player).count())
                    .sum();
                let kept: usize = view
                    .observations
                    .iter()
                    .map(|o| o.announcements.len())
                    .sum();
                assert_eq!(heard, kept);
                // No opponent command appears, and no SAN check mark or SAN capture form leaks.
                let own: Vec<Command> = record
                    .entries
                    .iter()
                    .filter(|e| e.side == player)
                    .map(|e| e.command)
                    .collect();
                for e in record
                    .entries
                    .iter()
                    .filter(|e| e.side != player && !own.contains(&e.command))
                {
                    if let Command::Attempt(a) = e.command {
                        assert!(
                            !flat(&pgn).contains(&format!(" {a} ")),
                            "{id}: opponent attempt {a} in\n{pgn}"
                        );
                    }
                }
                let movetext = pgn.split("\n\n").nth(1).unwrap();
                assert!(
                    !movetext.contains('+') && !movetext.contains('#'),
                    "{movetext}"
                );
            }
        }
    }
}

#[test]
fn own_moves_are_long_algebraic_from_own_knowledge() {
    let mut game = Game::new(umpire_rules::RuleSet::WILD16);
    for c in [
        "e2e4", "d7d5", "e4d5", "g8f6", "g1f3", "f6d5", "f1c4", "c8g4", "e1g1",
    ] {
        assert_eq!(game.submit(attempt(c)).verdict, Verdict::Accepted, "{c}");
    }
    let white = flat(&game.record().player_pgn(Color::White).unwrap());
    assert!(
        white.contains("1. e2-e4 ?? { pawn_tries:1 } 2. e4xd5 { capture:d5:pawn } 2... ?? 3. Ng1-f3 ?? { capture:d5:pawn } 4. Bf1-c4 ?? 5. O-O *"),
        "{white}"
    );
    let black = flat(&game.record().player_pgn(Color::Black).unwrap());
    assert!(black.contains("1. ?? d7-d5 { pawn_tries:1 } 2. ?? { capture:d5:pawn } 2... Ng8-f6 3. ?? Nf6xd5 { capture:d5:pawn }"), "{black}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_strings(text in ".{0,200}") {
        let _ = Record::from_json(&text);
        let _ = Record::from_pgn(&text);
        let _ = Umpire::from_fen(umpire_rules::RuleSet::WILD16, &text);
        let _ = Attempt::from_uci(&text);
        let _ = Command::parse_keyword_or_uci(&text);
        let own = OwnBoard::of(&shakmaty::Chess::default(), Color::White);
        let _ = own.parse_command(&text);
        let _ = umpire_rules::record::notation::parse_heard_token(&text);
        let _ = umpire_rules::record::notation::parse_command_token(&text);
        let _ = text.parse::<RuleSetId>();
    }

    #[test]
    fn parsers_never_panic_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Record::from_json(&text);
        let _ = Record::from_pgn(&text);
        let _ = Umpire::from_fen(umpire_rules::RuleSet::RAND, &text);
        let _ = shakmaty::san::San::from_ascii(&bytes);
        let _ = shakmaty::uci::UciMove::from_ascii(&bytes);
    }

    #[test]
    fn mutated_records_never_panic(seed in 0u64..40, edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)) {
        let record = random_record(RuleSetId::ALL[(seed % 7) as usize], seed, 40);
        for text in [record.to_json(), record.to_pgn().unwrap()] {
            let mut bytes = text.into_bytes();
            for (at, byte) in &edits {
                let i = at.index(bytes.len());
                bytes[i] = *byte;
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(r) = Record::from_json(&text) {
                let _ = r.replay();
                let _ = r.to_pgn();
                let _ = r.player_pgn(Color::White);
            }
            if let Ok(r) = Record::from_pgn(&text) {
                let _ = r.replay();
                let _ = r.to_json();
                let _ = r.player_pgn(Color::Black);
            }
        }
    }
}

#[test]
fn player_view_of_a_set_up_position_shows_own_men_and_the_enemy_count() {
    // The black men stand elsewhere but are as many, with as many pawns; White's first move is
    // silent in both: White's views are identical.
    let play = |fen: &str| {
        let mut game = Game::from_fen(umpire_rules::RuleSet::WILD16, fen).unwrap();
        assert_eq!(game.submit(attempt("e2e3")).verdict, Verdict::Accepted);
        game.into_record()
    };
    let a = play("4k3/p7/8/8/8/8/4P3/R3K3 w Q - 0 30");
    let b = play("k7/8/8/8/p7/8/4P3/R3K3 w Q - 0 30");
    let white = a.player_pgn(Color::White).unwrap();
    assert_eq!(white, b.player_pgn(Color::White).unwrap());
    assert!(
        white.contains("[KriegspielOwnStart \"8/8/8/8/8/8/4P3/R3K3 w Q 30\"]"),
        "{white}"
    );
    assert!(white.contains("[KriegspielEnemyStart \"2 1\"]"), "{white}");
    assert!(white.contains("30. e2-e3 *"), "{white}");
    assert!(!white.contains("[FEN"), "{white}");
    assert_ne!(
        a.player_pgn(Color::Black).unwrap(),
        b.player_pgn(Color::Black).unwrap()
    );
}

#[test]
fn observations_until_a_ply_are_what_the_player_heard_by_then() {
    let mut game = Game::new(*RuleSetId::Wild16.rules());
    for uci in ["e2e4", "e7e5", "e1e3", "g1f3"] {
        game.submit(attempt(uci));
    }
    let record = game.into_record();
    let whole = record.player_view(Color::White).unwrap().observations;
    // Three moves and White's rejected e1e3: White hears each of its three commands and
    // Black's move.
    assert_eq!(
        record.observations_until(Color::White, None),
        (whole.clone(), 3)
    );
    let (two, moves) = record.observations_until(Color::White, Some(2));
    assert_eq!(moves, 2);
    assert_eq!(
        two,
        whole[..2].to_vec(),
        "e2e4 and Black's e7e5, not the later attempts"
    );
    assert_eq!(
        record.observations_until(Color::Black, Some(0)),
        (Vec::new(), 0)
    );
    // Beyond the end: the whole game, and the moves there are.
    assert_eq!(record.observations_until(Color::White, Some(9)), (whole, 3));
}
