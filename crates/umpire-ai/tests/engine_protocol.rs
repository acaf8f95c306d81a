//! The engine protocol: a request holds exactly the player's view (rebuilt from it, the
//! view is the same), `serve` answers every line and survives bad input, and an engine can
//! join a game at any turn.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_ai::engine::{
    PROTOCOL, Request, RequestKind, Response, ServeOptions, StartFacts, serve,
};
use umpire_ai::{AgentConfig, AgentKind, Budget, setup_view};
use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, RuleSetId};
use umpire_view::PlayerView;

/// Plays a seeded random game and, after every command, rebuilds each player's view from its
/// request alone: it must equal the view the player holds.
fn round_trip(id: RuleSetId, fen: Option<&str>, seed: u64) -> usize {
    let rules = *id.rules();
    let mut game = match fen {
        Some(f) => Game::from_fen(rules, f).expect("a valid FEN"),
        None => Game::new(rules),
    };
    let start = game.umpire().position().clone();
    let mut views = [Color::White, Color::Black].map(|side| match fen {
        Some(_) => setup_view(rules, &start, side),
        None => PlayerView::standard(rules, side),
    });
    let facts = views.clone().map(|v| StartFacts::of(&v));
    let opening = umpire_ai::opening_heard(game.umpire());
    for v in &mut views {
        v.hear_opening(opening.iter().copied());
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..400 {
        if game.umpire().is_over() {
            break;
        }
        let (_, command) = umpire_testkit::driver::random_command(game.umpire(), &mut rng);
        let outcome = game.submit(command);
        for (i, side) in [Color::White, Color::Black].into_iter().enumerate() {
            if let Some(o) = outcome.observation(command, side) {
                views[i].observe(&o).expect("fits");
            }
            let request = Request::new(
                &facts[i],
                &views[i],
                RequestKind::Choose,
                Budget::Nodes(5),
                9,
            );
            let parsed: Request = serde_json::from_str(&request.to_line()).expect("reads back");
            assert_eq!(parsed, request);
            let start = parsed.start_facts().expect("start");
            assert_eq!(start, facts[i]);
            let mut rebuilt = start.view();
            rebuilt.hear_opening(parsed.opening().expect("opening"));
            for o in parsed.observations(side).expect("observations") {
                rebuilt.observe(&o).expect("fits");
            }
            assert_eq!(rebuilt, views[i], "{id} seed {seed}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn a_request_holds_the_whole_view_and_rebuilds_it() {
    let mut checked = 0;
    for id in RuleSetId::ALL {
        checked += round_trip(id, None, 1);
        checked += round_trip(
            id,
            Some("r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12"),
            2,
        );
    }
    assert!(checked > 1000, "{checked}");
}

fn serve_lines(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    let options = ServeOptions {
        kind: AgentKind::GuidedRandom,
        config: AgentConfig::default(),
        budget: None,
        seed: None,
    };
    serve(options, input.as_bytes(), &mut out).expect("serves");
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn first_request(side: Color) -> Request {
    let view = PlayerView::standard(*RuleSetId::Wild16.rules(), side);
    Request::new(
        &StartFacts::of(&view),
        &view,
        RequestKind::Choose,
        Budget::Nodes(5),
        3,
    )
}

#[test]
fn serve_answers_every_line_and_survives_bad_input() {
    let good = first_request(Color::White).to_line();
    let mut wrong_protocol = first_request(Color::White);
    wrong_protocol.protocol = "umpire-engine/0".into();
    let mut bad_board = first_request(Color::White);
    bad_board.start.own = "not a board".into();
    let mut enemy_men = first_request(Color::White);
    enemy_men.start.own = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".into();
    let not_my_turn = first_request(Color::Black).to_line();
    let mut bad_observation = first_request(Color::White);
    bad_observation
        .observations
        .push(umpire_ai::engine::ObservationJson {
            actor: "purple".into(),
            command: None,
            verdict: None,
            invalid: None,
            moved: true,
            announcements: vec![],
        });
    let input = [
        "hello".to_owned(),
        "{}".to_owned(),
        "\u{0}\u{7f}[[[".to_owned(),
        wrong_protocol.to_line(),
        bad_board.to_line(),
        enemy_men.to_line(),
        not_my_turn,
        bad_observation.to_line(),
        good.clone(),
        String::new(),
        good,
    ]
    .join("\n");
    let answers = serve_lines(&input);
    // Blank lines are skipped; every other line gets exactly one answer.
    assert_eq!(answers.len(), 10, "{answers:#?}");
    for (i, a) in answers.iter().enumerate() {
        let parsed = Response::parse(a);
        if i < 8 {
            let e = parsed.expect_err(a);
            assert!(e.contains("error"), "{e}");
        } else {
            let (command, _) = parsed.expect("a command");
            assert!(matches!(command, Command::Attempt(_)), "{a}");
        }
    }
    assert!(answers[3].contains(PROTOCOL) && answers[3].contains("umpire-engine/0"));
    assert!(
        answers[6].contains("not the player's turn"),
        "{}",
        answers[6]
    );
}

#[test]
fn an_engine_can_join_at_any_turn() {
    // A request in the middle of a game, to a fresh server: it answers with one of the
    // player's options.
    let rules = *RuleSetId::Wild16.rules();
    let mut game = Game::new(rules);
    let mut view = PlayerView::standard(rules, Color::White);
    let facts = StartFacts::of(&view);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut joined = 0;
    for _ in 0..200 {
        if game.umpire().is_over() {
            break;
        }
        let (_, command) = umpire_testkit::driver::random_command(game.umpire(), &mut rng);
        let outcome = game.submit(command);
        if let Some(o) = outcome.observation(command, Color::White) {
            view.observe(&o).expect("fits");
        }
        if view.is_my_turn() && view.result().is_none() {
            let request = Request::new(&facts, &view, RequestKind::Choose, Budget::Nodes(5), 1);
            let answers = serve_lines(&request.to_line());
            let (command, _) = Response::parse(&answers[0]).expect("a command");
            match command {
                Command::Attempt(a) => assert!(request.options.contains(&a.to_string())),
                Command::AskAny => assert!(request.may_ask_any),
                other => panic!("{other:?}"),
            }
            joined += 1;
        }
    }
    assert!(joined > 20, "{joined}");
}

#[test]
fn responses_are_checked() {
    assert!(Response::parse(r#"{"command":"e2e4"}"#).is_ok());
    assert!(Response::parse(r#"{"command":"e2e4","value":0.5,"line":["e2e4","d2d4"]}"#).is_ok());
    assert!(Response::parse(r#"{"command":"e2e4","value":1.5}"#).is_err());
    assert!(Response::parse(r#"{"command":"e2e4","value":0.1,"line":["zz"]}"#).is_err());
    assert!(Response::parse(r#"{"command":"castle please"}"#).is_err());
    assert!(Response::parse(r#"{"protocol":"umpire-engine/2","command":"e2e4"}"#).is_err());
    assert!(Response::parse(r#"{"error":"tired"}"#).is_err());
    assert!(Response::parse("").is_err());
    let (c, a) = Response::parse(r#"{"command":"draw accept","value":-0.25,"nodes":7}"#).unwrap();
    assert_eq!(c, Command::AcceptDraw);
    assert_eq!(a.map(|a| (a.value, a.nodes)), Some((-0.25, 7)));
}
