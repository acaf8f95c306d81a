//! Records: random games round-trip through JSON and replay; bad records give clear errors;
//! no input makes the parsers panic.

use proptest::prelude::*;
use umpire_schroedinger::record::{self, RecordError};
use umpire_schroedinger::{Command, Game, Move, RandomPlayer, Verdict};

/// A random game of at most `plies` moves, with an illegal attempt now and then.
fn random_game(seed: u64, plies: usize) -> Game {
    let mut game = Game::new();
    let mut player = RandomPlayer::new(seed);
    for ply in 0..plies {
        if ply % 7 == 3 {
            // Whatever this is, it is judged and recorded.
            let _ = game.submit(Command::Move("a1a8".parse().expect("valid syntax")));
        }
        let Some(mv) = player.choose(game.umpire_mut()) else {
            break;
        };
        assert_eq!(game.submit(Command::Move(mv)), Verdict::Accepted);
    }
    game
}

#[test]
fn random_games_replay_from_their_records() {
    for seed in 0..12 {
        let game = random_game(seed, 60);
        let text = record::to_json(&game);
        let replayed = record::replay(&text).expect("a written record replays");
        assert_eq!(replayed.entries(), game.entries());
        assert_eq!(replayed.umpire().board(), game.umpire().board());
        assert_eq!(record::to_json(&replayed), text);
    }
}

#[test]
fn a_resigned_game_replays_with_its_result() {
    let mut game = Game::new();
    game.submit(Command::Move("e2e4".parse().expect("move")));
    game.submit(Command::Resign);
    let text = record::to_json(&game);
    assert!(text.contains("\"resignation\""), "{text}");
    let replayed = record::replay(&text).expect("replays");
    assert_eq!(replayed.umpire().ending(), game.umpire().ending());
}

#[test]
fn tags_are_kept_checked_and_optional() {
    let mut game = Game::new();
    game.set_tag("White", "Ann").expect("a roster tag");
    game.set_tag("Seed", "7").expect("a free tag");
    assert!(game.set_tag("Result", "1-0").is_err(), "Result is derived");
    game.submit(Command::Move("e2e4".parse().expect("move")));
    let text = record::to_json(&game);
    let replayed = record::replay(&text).expect("replays");
    assert_eq!(replayed.tags(), game.tags());
    assert_eq!(replayed.tags().get("White"), Some("Ann"));
    assert_eq!(replayed.tags().get("Black"), Some("?"));

    // A record written before tags existed reads with the unknown values.
    let untagged =
        r#"{"format":"umpire-schroedinger-record","version":1,"entries":[],"result":null}"#;
    let replayed = record::replay(untagged).expect("tags are optional");
    assert_eq!(replayed.tags().get("White"), Some("?"));

    // Tags a record derives, and bad values, are refused with the tag named.
    let derived = text.replace("\"Seed\"", "\"Result\"");
    let error = record::replay(&derived)
        .expect_err("Result is derived")
        .to_string();
    assert!(error.contains("Result"), "{error}");
}

#[test]
fn a_changed_verdict_is_reported_with_its_entry() {
    let mut game = Game::new();
    game.submit(Command::Move("e2e4".parse().expect("move")));
    game.submit(Command::Move("e8e6".parse().expect("move")));
    let text = record::to_json(&game);
    assert!(text.contains("\"no_nature\""), "{text}");
    let forged = text.replacen("\"illegal\"", "\"accepted\"", 1).replacen(
        "\"reason\": \"no_nature\"",
        "\"reason\": null",
        1,
    );
    let error = record::replay(&forged).expect_err("a forged verdict fails");
    let message = error.to_string();
    assert!(
        matches!(error, RecordError::Entry { index: 1, .. }),
        "{message}"
    );
    assert!(message.contains("e8e6"), "{message}");
}

#[test]
fn wrong_format_version_and_result_are_reported() {
    let text = record::to_json(&Game::new());
    let other = text.replace("umpire-schroedinger-record", "umpire-kriegspiel-record");
    assert!(matches!(
        record::replay(&other),
        Err(RecordError::Format(_))
    ));
    let newer = text.replace("\"version\": 1", "\"version\": 2");
    assert!(matches!(
        record::replay(&newer),
        Err(RecordError::Version(2))
    ));
    let result = text.replace(
        "\"result\": null",
        "\"result\": {\"score\": \"1-0\", \"reason\": \"checkmate\"}",
    );
    assert!(matches!(
        record::replay(&result),
        Err(RecordError::Result(_))
    ));
    assert!(matches!(record::replay("{"), Err(RecordError::Json(_))));
}

#[test]
fn moves_parse_and_print_as_uci() {
    let mv: Move = "g1f3".parse().expect("move");
    assert_eq!(mv.to_string(), "g1f3");
    assert!("e7e8q".parse::<Move>().is_err());
    assert!("e2e2".parse::<Move>().is_err());
    assert!("e2".parse::<Move>().is_err());
    assert!("i2i4".parse::<Move>().is_err());
    assert_eq!("RESIGN".parse::<Command>(), Ok(Command::Resign));
}

proptest! {
    #[test]
    fn move_parsing_never_panics(text in ".{0,12}") {
        let _ = text.parse::<Command>();
    }

    #[test]
    fn record_reading_never_panics(text in ".{0,200}") {
        let _ = record::replay(&text);
    }

    #[test]
    fn mangled_records_never_panic(seed in 0u64..1000, cut in 0usize..2000, junk in ".{0,8}") {
        let text = record::to_json(&random_game(seed % 4, 8));
        let at = text.char_indices().map(|(i, _)| i).nth(cut % text.chars().count()).unwrap_or(0);
        let mangled = format!("{}{}{}", &text[..at], junk, &text[at..]);
        let _ = record::replay(&mangled);
    }
}

#[test]
fn the_documented_example_record_replays() {
    let doc = include_str!("../../../docs/SCHROEDINGER.md");
    let section = doc
        .split("## Records")
        .nth(1)
        .expect("docs/SCHROEDINGER.md has a Records section");
    let example = section
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the Records section has a JSON example");
    let game = record::replay(example).expect("the example replays");
    assert_eq!(game.entries().len(), 2);
    assert_eq!(game.tags().get("Seed"), Some("7"));
}
