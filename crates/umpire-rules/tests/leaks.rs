//! Regression tests for the information leaks found in review (issue 10): each test fails on the
//! code before its fix.
//!
//! - leak 1: a player's filtered record (PGN and JSON) carries only the public tags, never a seed;
//! - leak 2: a double check's two announcements come in the fixed order of `CheckKind`;
//! - leak 3: a draw offer lapses only with something the offerer hears anyway;
//! - leak 6: a player's filtered record of a set-up position says what the player is told of
//!   the enemy's men;
//! - leak 7: a side cannot accept or decline its own draw offer.

use shakmaty::Color;
use umpire_rules::record::{Game, PLAYER_VIEW_TAGS, Record};
use umpire_rules::{
    Announcement, CheckKind, Command, EnemyCount, Invalid, Outcome, RuleSet, RuleSetId, Umpire,
    Verdict,
};

fn att(uci: &str) -> Command {
    Command::Attempt(uci.parse().expect("UCI"))
}

fn checks(list: impl IntoIterator<Item = Announcement>) -> Vec<CheckKind> {
    list.into_iter()
        .filter_map(|a| match a {
            Announcement::Check(k) => Some(k),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Leak 1
// ---------------------------------------------------------------------------------------------

/// A recorded game with a seed and other private tags.
fn tagged_game() -> Game {
    let mut game = Game::new(RuleSet::WILD16);
    for (name, value) in [
        ("White", "Ann"),
        ("Black", "Bob"),
        ("Round", "3"),
        ("Seed", "1234567890123"),
        ("Annotator", "the arbiter"),
        ("WhiteSeed", "42"),
    ] {
        game.set_tag(name, value).expect("valid tag");
    }
    for uci in ["e2e4", "e7e5", "d2d4"] {
        game.submit(att(uci));
    }
    game
}

#[test]
fn player_views_carry_only_public_tags() {
    let game = tagged_game();
    let record = game.record();
    // The referee's record keeps every tag.
    assert!(
        record
            .to_pgn()
            .unwrap()
            .contains("[Seed \"1234567890123\"]")
    );
    for player in [Color::White, Color::Black] {
        let view = record.player_view(player).unwrap();
        let names: Vec<&str> = view.tags.iter().map(|(n, _)| n).collect();
        assert_eq!(names, PLAYER_VIEW_TAGS);
        for text in [view.to_pgn(), view.to_json()] {
            assert!(!text.contains("Seed"), "{player:?}: {text}");
            assert!(!text.contains("1234567890123"), "{player:?}: {text}");
            assert!(!text.contains("Annotator"), "{player:?}: {text}");
            assert!(text.contains("Ann") && text.contains("Bob"), "{text}");
        }
    }
}

#[test]
fn player_view_tags_are_filtered_even_when_set_by_hand() {
    // A view built by hand with private tags still writes only the public ones.
    let mut view = tagged_game().record().player_view(Color::Black).unwrap();
    view.tags.set("Seed", "99").unwrap();
    assert!(!view.to_pgn().contains("Seed"));
    assert!(!view.to_json().contains("Seed"));
}

#[test]
fn player_json_is_the_players_observations() {
    let record = tagged_game().into_record();
    let json: serde_json::Value =
        serde_json::from_str(&record.player_json(Color::Black).unwrap()).unwrap();
    assert_eq!(json["format"], "umpire-kriegspiel-player-view");
    assert_eq!(json["player"], "black");
    let obs = json["observations"].as_array().unwrap();
    // Black hears White's two moves and its own one, nothing of the squares White moved on.
    assert_eq!(obs.len(), 3);
    assert_eq!(obs[0]["actor"], "white");
    assert!(obs[0].get("command").is_none());
    assert_eq!(obs[1]["command"], "e7e5");
    assert_eq!(obs[1]["verdict"], "accepted");
    assert!(!json.to_string().contains("e2e4"));
    assert!(!json.to_string().contains("d2d4"));
}

// ---------------------------------------------------------------------------------------------
// Leak 2
// ---------------------------------------------------------------------------------------------

#[test]
fn double_check_kinds_come_in_a_fixed_order() {
    // A file check and a knight check, the knight below the rook and then above it: the order
    // of the announcements must not say which.
    for fen in [
        "4r2k/8/8/8/4K3/8/3n4/8 w - - 0 1", // knight d2 (below), rook e8 (above)
        "7k/8/5n2/8/4K3/8/8/4r3 w - - 0 1", // knight f6 (above), rook e1 (below)
    ] {
        for id in RuleSetId::ALL {
            let u = Umpire::from_fen(*id.rules(), fen).unwrap();
            let heard = checks(u.opening_announcements().iter().map(|h| h.announcement));
            assert_eq!(heard, [CheckKind::File, CheckKind::Knight], "{id} {fen}");
        }
    }
    // A discovered double check: the knight on d3 uncovers the rook on h3 and checks from c1,
    // below the king's rank (square order would say knight first).
    let mut u = Umpire::from_fen(RuleSet::WILD16, "7K/8/8/8/8/1k1N3R/8/8 w - - 0 1").unwrap();
    let out = u.submit(att("d3c1"));
    assert_eq!(out.verdict, Verdict::Accepted);
    let kinds = checks(out.heard_by(Color::Black));
    assert_eq!(kinds, [CheckKind::Rank, CheckKind::Knight]);
}

// ---------------------------------------------------------------------------------------------
// Leak 3
// ---------------------------------------------------------------------------------------------

/// White offers a draw, then plays Ra1-d1; Black is to move with d8 and d7 covered.
fn offered(rules: RuleSet) -> Umpire {
    let mut u = Umpire::from_fen(rules, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    assert_eq!(u.submit(Command::OfferDraw).verdict, Verdict::Answered);
    assert_eq!(u.submit(att("a1d1")).verdict, Verdict::Accepted);
    u
}

fn draw_events(out: &Outcome, player: Color, command: Command) -> usize {
    out.observation(command, player).map_or(0, |o| {
        o.announcements
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Announcement::DrawDeclined(_)
                        | Announcement::DrawAccepted(_)
                        | Announcement::DrawOffered(_)
                )
            })
            .count()
    })
}

#[test]
fn draw_offer_does_not_lapse_at_a_rejected_attempt() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        // Illegal in the true position (d8 is covered), then impossible on Black's own board.
        for bad in [att("e8d8"), att("e8e6")] {
            let mut u = offered(rules);
            let out = u.submit(bad);
            assert!(out.verdict.is_rejection(), "{id} {bad:?}");
            assert_eq!(draw_events(&out, Color::White, bad), 0, "{id} {bad:?}");
            if rules.illegal.audience == umpire_rules::Audience::Mover
                && out.verdict == Verdict::Illegal
            {
                // The offerer hears nothing at all of an attempt it may not hear of.
                assert_eq!(out.observation(bad, Color::White), None, "{id}");
            }
            // The offer still waits: the accepted move lapses it, heard by both.
            let mv = att("e8e7");
            let out = u.submit(mv);
            assert_eq!(out.verdict, Verdict::Accepted, "{id}");
            assert_eq!(
                out.heard_by(Color::White).next(),
                Some(Announcement::DrawDeclined(Color::Black)),
                "{id}"
            );
        }
    }
}

#[test]
fn draw_offer_may_be_answered_after_a_rejected_attempt() {
    let mut u = offered(RuleSet::WILD16);
    assert_eq!(u.submit(att("e8d8")).verdict, Verdict::Illegal);
    let out = u.submit(Command::AcceptDraw);
    assert_eq!(out.side, Color::Black);
    assert_eq!(out.verdict, Verdict::Answered);
    assert!(u.is_over());
}

#[test]
fn draw_offer_lapses_with_the_any_answer() {
    let mut u = Umpire::new(RuleSet::BERKELEY_ANY);
    u.submit(Command::OfferDraw);
    u.submit(att("e2e4"));
    let out = u.submit(Command::AskAny);
    let heard: Vec<_> = out.heard_by(Color::White).collect();
    assert_eq!(
        heard,
        [
            Announcement::DrawDeclined(Color::Black),
            Announcement::AnyAnswer(false)
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Leak 6
// ---------------------------------------------------------------------------------------------

#[test]
fn set_up_player_view_says_what_the_player_is_told_of_the_enemy() {
    let fen = "4k3/pp6/8/8/8/8/3PPP2/R3K2N w Q - 0 1";
    let game = Game::from_fen(RuleSet::WILD16, fen).unwrap();
    let record = game.record();
    let pos = game.umpire().position().clone();
    for (player, men, pawns) in [(Color::White, 3, 2), (Color::Black, 6, 3)] {
        let told = EnemyCount::told(&pos, player);
        assert_eq!(told, EnemyCount { men, pawns }, "{player:?}");
        let view = record.player_view(player).unwrap();
        assert_eq!(view.enemy_start, told);
        let pgn = view.to_pgn();
        assert!(
            pgn.contains(&format!("[KriegspielEnemyStart \"{men} {pawns}\"]")),
            "{pgn}"
        );
        let json: serde_json::Value = serde_json::from_str(&view.to_json()).unwrap();
        assert_eq!(json["enemy_start"]["men"], men);
        assert_eq!(json["enemy_start"]["pawns"], pawns);
    }
    // The standard start states nothing: the player knows the standard position.
    let game = Game::new(RuleSet::WILD16);
    assert!(
        !game
            .record()
            .player_pgn(Color::White)
            .unwrap()
            .contains("KriegspielEnemyStart")
    );
}

// ---------------------------------------------------------------------------------------------
// Leak 7
// ---------------------------------------------------------------------------------------------

#[test]
fn a_side_cannot_answer_its_own_draw_offer() {
    for id in RuleSetId::ALL {
        for answer in [Command::AcceptDraw, Command::DeclineDraw] {
            let mut u = Umpire::new(*id.rules());
            u.submit(Command::OfferDraw);
            let out = u.submit_as(Color::White, answer);
            assert_eq!(out.side, Color::White);
            assert_eq!(out.verdict, Verdict::Invalid(Invalid::OwnDrawOffer), "{id}");
            assert!(out.announcements.is_empty());
            assert!(!u.is_over());
            // After White's move, still White's offer: still not White's to answer.
            u.submit(att("e2e4"));
            assert_eq!(
                u.submit_as(Color::Black, Command::OfferDraw).verdict,
                Verdict::Invalid(Invalid::DrawOfferPending)
            );
            let out = u.submit_as(Color::White, answer);
            assert_eq!(out.verdict, Verdict::Invalid(Invalid::OwnDrawOffer), "{id}");
            // Black answers.
            let out = u.submit_as(Color::Black, answer);
            assert_eq!(out.side, Color::Black);
            assert_eq!(out.verdict, Verdict::Answered);
            assert_eq!(u.is_over(), answer == Command::AcceptDraw);
        }
    }
}

#[test]
fn submit_as_refuses_the_side_not_to_move() {
    let mut u = Umpire::new(RuleSet::WILD16);
    for command in [att("e7e5"), Command::AskAny, Command::OfferDraw] {
        let out = u.submit_as(Color::Black, command);
        assert_eq!(out.verdict, Verdict::Invalid(Invalid::NotYourTurn));
        assert_eq!(out.side, Color::Black);
    }
    // Either side may resign at any time.
    let out = u.submit_as(Color::Black, Command::Resign);
    assert_eq!(out.verdict, Verdict::Answered);
    assert_eq!(
        out.heard_by(Color::White).next(),
        Some(Announcement::Resigned(Color::Black))
    );
}

#[test]
fn refused_own_answer_is_recorded_and_replays() {
    let mut game = Game::new(RuleSet::WILD16);
    game.submit(Command::OfferDraw);
    assert_eq!(
        game.submit_as(Color::White, Command::AcceptDraw).verdict,
        Verdict::Invalid(Invalid::OwnDrawOffer)
    );
    game.submit(att("e2e4"));
    // Out of turn, refused; then Black declines.
    assert_eq!(
        game.submit_as(Color::White, att("d2d4")).verdict,
        Verdict::Invalid(Invalid::NotYourTurn)
    );
    game.submit_as(Color::Black, Command::DeclineDraw);
    game.submit(att("e7e5"));
    // Black resigns on White's turn.
    assert_eq!(
        game.submit_as(Color::Black, Command::Resign).verdict,
        Verdict::Answered
    );
    let record = game.record();
    record.replay().unwrap();
    let again = Record::from_json(&record.to_json()).unwrap();
    assert_eq!(&again, record);
    again.replay().unwrap();
    let from_pgn = Record::from_pgn(&record.to_pgn().unwrap()).unwrap();
    from_pgn.replay().unwrap();
    assert_eq!(from_pgn.entries, record.entries);
}
