//! Non-interference end to end: paired histories (`umpire_testkit::scripts`, paired by the
//! independent oracle) are played through a real server in process, on a hand-turned clock,
//! with real WebSocket connections for both players and a spectator, and every byte the
//! audience receives is compared: the frames of its connection in order, and the HTTP bodies
//! it may fetch during the game (`GET /api/games/ID`, its own view's download, the game list),
//! the observer's `state` again (sync), a `ping`'s answer, a resumed `state` (`?from=N`) and a
//! new spectator's `state` (whole and resumed), taken just before heard commands (so after the
//! silent ones). Presence frames are among the frames compared.
//!
//! The two games of a pair differ in how many commands the opponent gives that the audience
//! hears nothing of, and when (at sub-millisecond moments of the injected clock), and, for a
//! player, in the opponent's heard commands too as long as they tell that player the same.
//! Random identifiers (the game's id, the guests' names) are the only thing replaced before
//! comparing. A longer run: `cargo test --profile ci -p umpire-server --test hiding_end_to_end
//! -- --ignored`.

mod common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use umpire_client::client::{Client, GameSocket};
use umpire_client::command_frame::command_frame;
use umpire_rules::RuleSetId;
use umpire_rules::shakmaty::Color;
use umpire_server::store::{ManualClock, TimeSource};
use umpire_testkit::pairing::PairConfig;
use umpire_testkit::scripts::{Audience, Step, paired_scripts};

use common::{Server, T, fresh_dir};

/// Every byte one audience received in one game, in order, identifiers replaced.
#[derive(Debug, Default, PartialEq, Eq)]
struct Received {
    /// What each connection of the audience received, one entry per connection.
    frames: Vec<Vec<String>>,
    /// The HTTP bodies fetched, with what was fetched.
    bodies: Vec<(String, String)>,
}

static RUN: AtomicU32 = AtomicU32::new(0);

/// Reads `s` until the frame answering `id`; returns every frame read, in order.
async fn until_reply(s: &mut GameSocket, id: u64) -> Vec<String> {
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        loop {
            let text = s.next_text().await.expect("a frame");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            out.push(text);
            if v["reply_to"] == json!(id) {
                return;
            }
        }
    })
    .await
    .unwrap_or_else(|_| {
        let last = out.len().saturating_sub(3);
        panic!(
            "no answer to frame {id} within {T:?}; the last frames read: {:?}",
            &out[last..]
        )
    });
    out
}

/// Reads `s` until the `pong` answering `n`; returns every frame read, in order.
async fn until_pong(s: &mut GameSocket, n: u32) -> Vec<String> {
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        loop {
            let text = s.next_text().await.expect("a frame");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            out.push(text);
            if v["type"] == "pong" && v["n"] == json!(n) {
                return;
            }
        }
    })
    .await
    .expect("a pong");
    out
}

/// Reads `s` until a frame says the game is over.
async fn until_over(s: &mut GameSocket) -> Vec<String> {
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        loop {
            let text = s.next_text().await.expect("a frame");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            out.push(text);
            if v["status"] == "over" || v["type"] == "game_over" {
                return;
            }
        }
    })
    .await
    .expect("the end");
    out
}

async fn body(client: &Client, path: &str) -> String {
    let r = client.request("GET", path, None).await.expect("an answer");
    format!("{r:?}")
}

/// Plays `script` on a fresh server; returns what `audience` (`observer`, or the spectators
/// and the observer) received.
async fn play(rules: RuleSetId, script: &[Step], observer: Color, audience: Audience) -> Received {
    let run = RUN.fetch_add(1, Ordering::SeqCst);
    let dir = fresh_dir(&format!("hiding-e2e-{run}"));
    let clock = ManualClock::new(1_800_000_000_000);
    let server = Server::start_timed(dir.clone(), TimeSource::Manual(clock.clone())).await;
    let white = server.guest().await;
    let black = server.guest().await;
    let spec = json!({"rules": rules.as_str(), "initial_ms": 600_000, "increment_ms": 1_000,
        "color": "white"});
    let g = white.create_game(&spec).await.expect("created");
    let id = g["id"].as_str().expect("an id").to_owned();
    black.join(&id).await.expect("joined");
    let names = [
        white
            .request("GET", "/api/me", None)
            .await
            .unwrap()
            .ok()
            .unwrap()["user"]["name"]
            .as_str()
            .unwrap()
            .to_owned(),
        black
            .request("GET", "/api/me", None)
            .await
            .unwrap()
            .ok()
            .unwrap()["user"]["name"]
            .as_str()
            .unwrap()
            .to_owned(),
    ];
    let players = [&white, &black];
    let mut sockets = [
        white.socket(&id).await.expect("white's socket"),
        black.socket(&id).await.expect("black's socket"),
    ];
    let anonymous = server.client();
    let mut spectator = anonymous.socket(&id).await.expect("a spectator's socket");
    let mut logs: [Vec<String>; 3] = Default::default();
    for (i, s) in sockets.iter_mut().enumerate() {
        logs[i].push(s.next_text().await.expect("state"));
    }
    let me = usize::from(observer.is_black());
    let observer_client = players[me];
    let mut bodies = Vec::new();
    let fetch = async |label: &str, bodies: &mut Vec<(String, String)>| {
        let mut paths = vec![
            (format!("/api/games/{id}"), observer_client),
            (
                format!(
                    "/games/{id}/{}.pgn",
                    if observer == Color::White {
                        "white"
                    } else {
                        "black"
                    }
                ),
                observer_client,
            ),
            ("/api/games".to_owned(), observer_client),
        ];
        if audience == Audience::Spectators {
            paths.push((format!("/api/games/{id}"), &anonymous));
        }
        for (path, who) in paths {
            bodies.push((format!("{label} {path}"), body(who, &path).await));
        }
    };
    let mut now_us = 0;
    let mut heard = 0;
    fetch("at the start", &mut bodies).await;
    let mut ids = [0u64; 2];
    for step in script {
        clock.advance(Duration::from_micros(step.at_us - now_us));
        now_us = step.at_us;
        if !step.silent {
            heard += 1;
            // Now and then, just before a heard command (so after any silent ones): the
            // bodies the audience may fetch, the observer's `state` again (sync), and a new
            // spectator's `state`.
            if heard % 4 == 0 {
                fetch(&format!("before heard {heard}"), &mut bodies).await;
                ids[me] += 1;
                sockets[me]
                    .send_text(&json!({"type": "sync", "id": ids[me]}).to_string())
                    .await
                    .expect("sent");
                let read = until_reply(&mut sockets[me], ids[me]).await;
                logs[me].extend(read);
                // A ping, and a second socket of the observer resuming from its second
                // observation (`?from=2`).
                sockets[me]
                    .send_text(&json!({"type": "ping", "n": heard}).to_string())
                    .await
                    .expect("sent");
                let read = until_pong(&mut sockets[me], heard).await;
                logs[me].extend(read);
                let mut resumed = observer_client.socket_from(&id, 2).await.expect("a socket");
                let state = resumed.next_text().await.expect("state");
                bodies.push((format!("before heard {heard}: resumed from 2"), state));
                resumed.close().await;
                if audience == Audience::Spectators {
                    let mut late = anonymous.socket(&id).await.expect("a spectator's socket");
                    let state = late.next_text().await.expect("state");
                    bodies.push((format!("before heard {heard}: a new spectator"), state));
                    late.close().await;
                    let mut late = anonymous.socket_from(&id, 1).await.expect("a socket");
                    let state = late.next_text().await.expect("state");
                    bodies.push((format!("before heard {heard}: a spectator from 1"), state));
                    late.close().await;
                    spectator
                        .send_text(&json!({"type": "ping", "n": heard}).to_string())
                        .await
                        .expect("sent");
                    let read = until_pong(&mut spectator, heard).await;
                    logs[2].extend(read);
                }
            }
        }
        // Each connection numbers its own frames (the observer's ids must not count the
        // opponent's commands).
        let side = usize::from(step.by.is_black());
        ids[side] += 1;
        let Some(frame) = command_frame(step.command, Some(ids[side])) else {
            continue;
        };
        sockets[side]
            .send_text(&frame.to_text())
            .await
            .expect("sent");
        let read = until_reply(&mut sockets[side], ids[side]).await;
        logs[side].extend(read);
    }
    clock.advance(Duration::from_millis(250));
    fetch("at the end", &mut bodies).await;
    // The end: the observer resigns (refused if the game is over already); it reads up to the
    // answer and the spectator up to the frame that says the game is over, so that each has
    // received all it will.
    let frame = command_frame(umpire_rules::Command::Resign, Some(0)).expect("a frame");
    sockets[me].send_text(&frame.to_text()).await.expect("sent");
    let read = until_reply(&mut sockets[me], 0).await;
    logs[me].extend(read);
    let read = until_over(&mut spectator).await;
    logs[2].extend(read);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
    let clean = |s: &str| {
        s.replace(&id, "GAME")
            .replace(&names[0], "WHITE")
            .replace(&names[1], "BLACK")
    };
    let mut frames = vec![logs[me].iter().map(|f| clean(f)).collect::<Vec<_>>()];
    if audience == Audience::Spectators {
        frames.push(logs[2].iter().map(|f| clean(f)).collect());
    }
    Received {
        frames,
        bodies: bodies
            .into_iter()
            .map(|(l, b)| (clean(&l), clean(&b)))
            .collect(),
    }
}

/// Plays `pairs` pairs for every rule set and both observers, for `audience`; fails on the
/// first difference.
async fn pairs(audience: Audience, pairs: u64, max_commands: u32) {
    let mut silent_total = [0usize; 2];
    let mut differing_counts = 0;
    for (r, rules) in RuleSetId::ALL.into_iter().enumerate() {
        for k in 0..pairs {
            let observer = if k % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let cfg = PairConfig {
                rules: *rules.rules(),
                fen: None,
                observer,
                seed: 0x5eed_0000 + (r as u64) * 1000 + k,
                max_commands,
            };
            let s = paired_scripts(&cfg, audience, 3);
            let silent = |v: &[Step]| v.iter().filter(|x| x.silent).count();
            silent_total[0] += silent(&s.first);
            silent_total[1] += silent(&s.second);
            differing_counts += usize::from(silent(&s.first) != silent(&s.second));
            let a = play(rules, &s.first, observer, audience).await;
            let b = play(rules, &s.second, observer, audience).await;
            assert_eq!(a.frames.len(), b.frames.len());
            for (i, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
                for (j, (x, y)) in fa.iter().zip(fb).enumerate() {
                    assert_eq!(
                        x, y,
                        "{rules:?} seed {} {observer:?} {audience:?}: connection {i} frame {j} differs",
                        cfg.seed
                    );
                }
                assert_eq!(
                    fa.len(),
                    fb.len(),
                    "{rules:?} seed {}: connection {i} got a different number of frames",
                    cfg.seed
                );
            }
            for (x, y) in a.bodies.iter().zip(&b.bodies) {
                assert_eq!(x, y, "{rules:?} seed {}: an HTTP body differs", cfg.seed);
            }
            assert_eq!(a.bodies.len(), b.bodies.len());
        }
    }
    // The pairs did exercise what they are for.
    assert!(silent_total[0] + silent_total[1] > 0);
    assert!(differing_counts > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_receives_the_same_bytes_whatever_the_opponent_does_unheard() {
    pairs(Audience::Player, 2, 40).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_receive_the_same_bytes_whatever_either_player_does_unheard() {
    pairs(Audience::Spectators, 2, 40).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the long run: cargo test --profile ci -p umpire-server --test hiding_end_to_end -- --ignored"]
async fn long_run_many_pairs_of_every_audience() {
    pairs(Audience::Player, 20, 120).await;
    pairs(Audience::Spectators, 20, 120).await;
}

/// After a restart the clocks come back from the moves alone: the reading stored with a
/// rejected attempt (which the opponent never heard of) would tell when it was made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_shows_the_clocks_of_the_moves_alone() {
    let dir = fresh_dir("hiding-restart");
    let clock = ManualClock::new(1_800_000_000_000);
    let server = Server::start_timed(dir.clone(), TimeSource::Manual(clock.clone())).await;
    let (white, black, id) = common::two_player_game(
        &server,
        json!({"rules": "berkeley", "initial_ms": 600_000, "increment_ms": 1_000}),
    )
    .await;
    let (mut w, _) = common::socket(&white, &id).await;
    let (mut b, _) = common::socket(&black, &id).await;
    clock.advance(Duration::from_micros(1_000_300));
    let moved = common::ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    assert_eq!(moved["observation"]["moved"], true, "{moved}");
    assert_eq!(moved["clocks"]["white_ms"], 599_999);
    clock.advance(Duration::from_micros(1_000_400));
    let moved = common::ask(&mut b, json!({"type": "attempt", "move": "e7e5"}), 1).await;
    assert_eq!(moved["observation"]["moved"], true, "{moved}");
    // White tries a move its own board allows and the true position does not, and is told no.
    clock.advance(Duration::from_micros(1_500_700));
    let refused = common::ask(&mut w, json!({"type": "attempt", "move": "e4e5"}), 2).await;
    assert_eq!(refused["observation"]["moved"], false, "{refused}");
    server.stop().await;
    let clock = ManualClock::new(1_800_000_100_000);
    let server = Server::start_timed(dir.clone(), TimeSource::Manual(clock)).await;
    let (_, state) = common::socket(&server.client(), &id).await;
    assert_eq!(state["clocks"]["white_ms"], 599_999, "{state}");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
