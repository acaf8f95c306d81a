//! Non-interference of the server's projection: two true histories that give a player the same
//! observations produce byte-identical frames to that player (clocks held equal, as they
//! depend on time only); the same for spectators with what both players hear. The lobby feed
//! is an output channel too: it is byte-identical (game ids aside) whatever hidden history the
//! running games have, also for a player of such a game.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_protocol::game::presence::{Presence, SeatPresence};
use umpire_rules::shakmaty::{Color, EnPassantMode, fen::Fen};
use umpire_rules::{AttemptList, Command, Observation, RuleSet, Umpire};
use umpire_server::game::clock::ClockReading;
use umpire_server::game::projection::{
    Public, SpectatorObservation, player_state, player_update, pong_frame, presence_frame,
    spectator_observation, spectator_state,
};
use umpire_server::ratings::glicko::Rating;
use umpire_server::ratings::shown_rating::ShownRating;
use umpire_view::PlayerView;

fn public<'a>(rules: &'a RuleSet, result: Option<(&'a str, &'a str)>) -> Public<'a> {
    Public {
        game: "g",
        rules,
        names: ["ann", "bob"],
        status: if result.is_some() { "over" } else { "live" },
        clocks: ClockReading {
            white_ms: 60_000,
            black_ms: 60_000,
            running: Some(Color::White),
        },
        time_control: (60_000, 0),
        rated: true,
        practice: false,
        result,
        ratings: &RATINGS,
        // Public: connections and time only, the same in every history.
        presence: PRESENCE,
    }
}

/// Black gone with the abandonment countdown running: the same in every history.
const PRESENCE: Presence = Presence {
    white: SeatPresence::Connected,
    black: SeatPresence::Gone,
    abandon_in_ms: Some(61_500),
};

/// Both seats rated, the same in every history (ratings are public).
const RATINGS: [Option<ShownRating>; 2] = [
    Some(ShownRating {
        before: Rating::NEW,
        games: 0,
        after: None,
    }),
    Some(ShownRating {
        before: Rating {
            rating: 1712.3,
            deviation: 64.0,
            volatility: 0.06,
        },
        games: 31,
        after: None,
    }),
];

/// What one history showed one audience: the frames, keyed by what the audience observed.
#[derive(Default)]
struct Seen {
    /// observations (Debug text) -> (frame, true position)
    frames: HashMap<String, (String, String)>,
    /// keys reached by at least two different true positions
    collisions: usize,
}

impl Seen {
    fn add(&mut self, key: String, frame: String, truth: String) {
        match self.frames.get(&key) {
            Some((f, t)) => {
                assert_eq!(f, &frame, "same observations, different frames:\n{key}");
                if t != &truth {
                    self.collisions += 1;
                }
            }
            None => {
                self.frames.insert(key, (frame, truth));
            }
        }
    }
}

fn run(rules: RuleSet, games: u64, max_commands: usize) -> [usize; 3] {
    let mut seen: [Seen; 3] = Default::default();
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut umpire = Umpire::new(rules);
        let mut views = [
            PlayerView::standard(rules, Color::White),
            PlayerView::standard(rules, Color::Black),
        ];
        let mut transcripts: [Vec<Observation>; 2] = [Vec::new(), Vec::new()];
        let mut spectators: Vec<SpectatorObservation> = Vec::new();
        let mut list = AttemptList::new();
        for _ in 0..max_commands {
            if umpire.is_over() {
                break;
            }
            list.clear();
            let may_ask = umpire.mover_options(&mut list);
            let n = list.len() + usize::from(may_ask);
            let pick = rng.random_range(0..n);
            let command = if pick == list.len() {
                Command::AskAny
            } else {
                Command::Attempt(list[pick])
            };
            let outcome = umpire.submit(command);
            let truth = Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string();
            let result = umpire.result().map(|r| (r.score(), r.reason.as_str()));
            for side in [Color::White, Color::Black] {
                let i = side.fold_wb(0, 1);
                if let Some(obs) = outcome.observation(command, side) {
                    views[i].observe(&obs).unwrap();
                    transcripts[i].push(obs.clone());
                    let p = public(&rules, result);
                    // The whole state, a resumed one (half the transcript held already),
                    // the update, and the frames of presence and ping.
                    let half = (transcripts[i].len() / 2) as u32;
                    let frame = format!(
                        "{}\n{}\n{}\n{}\n{}",
                        player_state(&views[i], &p, &[], 0, 0),
                        player_state(&views[i], &p, &[], 0, half),
                        player_update(&views[i], &obs, &p, None),
                        presence_frame(p.presence),
                        pong_frame(7),
                    );
                    seen[i].add(format!("{:?}", transcripts[i]), frame, truth.clone());
                }
            }
            if let Some(s) = spectator_observation(&outcome) {
                spectators.push(s);
                let plies = spectators.iter().filter(|s| s.moved).count() as u32;
                let to_move = if plies.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let p = public(&rules, result);
                let half = (spectators.len() / 2) as u32;
                let frame = format!(
                    "{}\n{}",
                    spectator_state(&p, &[], &spectators, plies, to_move, 0),
                    spectator_state(&p, &[], &spectators, plies, to_move, half),
                );
                seen[2].add(format!("{spectators:?}"), frame, truth.clone());
            }
        }
    }
    [seen[0].collisions, seen[1].collisions, seen[2].collisions]
}

#[test]
fn equal_observations_give_byte_identical_frames() {
    for rules in [RuleSet::WILD16, RuleSet::BERKELEY_ANY, RuleSet::ENGLISH] {
        let collisions = run(rules, 400, 14);
        // The test compares something: many observation histories were reached by
        // different true positions, for each audience.
        for (who, n) in ["white", "black", "spectator"].iter().zip(collisions) {
            assert!(n > 50, "{:?}: only {n} {who} collisions", rules.id);
        }
    }
}

/// Replaces each game id in `frame` by `G1`, `G2`, … in order of first appearance (ids are
/// random, chosen by the server, and say nothing of any game's hidden state).
fn normalized(frame: &str, ids: &mut Vec<String>) -> String {
    let mut v: serde_json::Value = serde_json::from_str(frame).unwrap();
    let mut name = |id: &serde_json::Value| {
        let id = id.as_str().unwrap().to_owned();
        let n = match ids.iter().position(|i| *i == id) {
            Some(n) => n,
            None => {
                ids.push(id);
                ids.len() - 1
            }
        };
        serde_json::Value::String(format!("G{}", n + 1))
    };
    if let Some(cs) = v.get_mut("challenges").and_then(|c| c.as_array_mut()) {
        for c in cs {
            c["id"] = name(&c["id"]);
        }
    }
    if v.get("challenge").is_some() {
        v["challenge"]["id"] = name(&v["challenge"]["id"]);
    }
    if v.get("game").is_some() {
        v["game"] = name(&v["game"]);
    }
    v.to_string()
}

/// Plays one hidden history of a game between `ann` and `bob` (random attempts from each
/// mover's offered options, drawn with `seed`) while the lobby changes around it; returns what
/// the lobby feeds of `bob` (a player of the running game) and of an anonymous listener
/// received, ids normalized, and White's transcript (to check the histories differ).
async fn lobby_during_a_game(seed: u64) -> (Vec<String>, Vec<String>, String) {
    use common::{Server, ask, fresh_dir};
    use serde_json::json;
    let server = Server::start(fresh_dir(&format!("lobby-ni-{seed}"))).await;
    let mut clients = Vec::new();
    for name in ["ann", "bob", "cat", "dan"] {
        let mut c = server.client();
        c.register(name, "correct horse battery").await.unwrap();
        clients.push(c);
    }
    let [ann, bob, cat, dan] = <[_; 4]>::try_from(clients).unwrap();
    let mut feeds = [
        bob.lobby().await.unwrap(),
        server.client().lobby().await.unwrap(),
    ];
    let g = ann
        .create_game(&json!({"opponent": "bob", "color": "white"}))
        .await
        .unwrap();
    let game = g["id"].as_str().unwrap().to_owned();
    bob.join(&game).await.unwrap();
    let mut sockets = [
        common::socket(&ann, &game).await.0,
        common::socket(&bob, &game).await.0,
    ];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut id = 0u64;
    let mut challenges = Vec::new();
    for step in 0..12 {
        match step {
            2 | 5 | 7 => {
                let rules = ["wild16", "berkeley-any", "english"][challenges.len()];
                let c = dan
                    .create_game(&json!({"rules": rules, "color": "white"}))
                    .await
                    .unwrap();
                challenges.push(c["id"].as_str().unwrap().to_owned());
            }
            4 => {
                cat.create_game(&json!({"opponent": "bob", "rated": true, "color": "black"}))
                    .await
                    .unwrap();
            }
            6 => {
                dan.cancel(&challenges[0]).await.unwrap();
            }
            9 => {
                cat.join(&challenges[1]).await.unwrap();
            }
            _ => {}
        }
        // The mover is the player offered attempts.
        let mut mover = None;
        for (i, s) in sockets.iter_mut().enumerate() {
            id += 1;
            let state = ask(s, json!({"type": "sync"}), id).await;
            let options: Vec<String> = state["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_str().unwrap().to_owned())
                .collect();
            if !options.is_empty() {
                mover = Some((i, options));
            }
        }
        let Some((i, options)) = mover else { break };
        let pick = &options[rng.random_range(0..options.len())];
        id += 1;
        ask(
            &mut sockets[i],
            json!({"type": "attempt", "move": pick}),
            id,
        )
        .await;
    }
    id += 1;
    let state = ask(&mut sockets[0], json!({"type": "sync"}), id).await;
    let mut out = [Vec::new(), Vec::new()];
    for (f, out) in feeds.iter_mut().zip(&mut out) {
        let mut ids = Vec::new();
        while let Ok(text) =
            tokio::time::timeout(std::time::Duration::from_millis(400), f.next_text()).await
        {
            out.push(normalized(&text.unwrap(), &mut ids));
        }
    }
    server.stop().await;
    let [bob_feed, anonymous_feed] = out;
    (bob_feed, anonymous_feed, state["transcript"].to_string())
}

mod common;

#[tokio::test]
async fn the_lobby_feed_is_the_same_whatever_the_hidden_history_of_running_games() {
    let (bob_a, anon_a, history_a) = lobby_during_a_game(1).await;
    let (bob_b, anon_b, history_b) = lobby_during_a_game(2).await;
    // The two games went differently (so the comparison means something) …
    assert_ne!(history_a, history_b);
    // … and the feeds saw every lobby change, …
    assert!(bob_a[0].contains("\"type\":\"lobby\""), "{bob_a:#?}");
    assert!(bob_a.len() >= 9, "{bob_a:#?}");
    assert!(bob_a.iter().any(|f| f.contains("\"opponent\":\"bob\"")));
    assert!(!anon_a.iter().any(|f| f.contains("\"opponent\":\"bob\"")));
    // … byte for byte the same.
    assert_eq!(bob_a, bob_b);
    assert_eq!(anon_a, anon_b);
}

/// The belief overlay is an output channel too: two true histories that give a side the same
/// observations give byte-identical belief bodies for that side, at every point (the belief
/// reads the side's observations only, and its seed is the game's id, the side and the plies).
#[test]
fn equal_observations_give_byte_identical_belief_bodies() {
    use umpire_rules::record::Game;
    use umpire_server::game::belief::belief_body;

    for rules in [RuleSet::BERKELEY_ANY, RuleSet::WILD16] {
        let mut seen: [Seen; 2] = Default::default();
        for seed in 0..120 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut game = Game::new(rules);
            let mut list = AttemptList::new();
            for _ in 0..6 {
                if game.umpire().is_over() {
                    break;
                }
                list.clear();
                let may_ask = game.umpire().mover_options(&mut list);
                let n = list.len() + usize::from(may_ask);
                let pick = rng.random_range(0..n);
                let command = if pick == list.len() {
                    Command::AskAny
                } else {
                    Command::Attempt(list[pick])
                };
                game.submit(command);
                let truth =
                    Fen::from_position(game.umpire().position(), EnPassantMode::Legal).to_string();
                for side in [Color::White, Color::Black] {
                    let record = game.record();
                    let (heard, _) = record.observations_until(side, None);
                    let body = belief_body("g", record, side, None).unwrap();
                    let frame = serde_json::to_string(&body).unwrap();
                    seen[side.fold_wb(0, 1)].add(format!("{heard:?}"), frame, truth.clone());
                }
            }
        }
        for (who, s) in ["white", "black"].iter().zip(&seen) {
            assert!(
                s.collisions > 20,
                "{:?}: only {} {who} collisions",
                rules.id,
                s.collisions
            );
        }
    }
}
