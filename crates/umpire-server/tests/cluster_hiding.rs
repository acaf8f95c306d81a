//! Non-interference across nodes (issue 27, `docs/CLUSTER.md`): paired histories
//! (`umpire_testkit::scripts`, paired by the independent oracle) are played on two cluster
//! nodes on one PostgreSQL database, both in this process and on one hand-turned clock; the
//! game is made on node A (which owns it), and midway A drains (as on SIGTERM): it stops the
//! game and lets its lock go, every socket closes, and the three connections (both players and
//! a spectator) open again on node B, the observer and the spectator resuming (`?from=N`); B
//! takes the game over, replays it from storage and the game goes on there. The observing
//! player's frames, and the spectator's, must be byte-identical in the two games of a pair,
//! the frames before the drain, the resumed `state` B sends and everything after included.
//! On B, the observer types moves no man of its can make (both games; the refusals' words must
//! be the same bytes) and, in the first game only, so does the other player (unheard).
//!
//! Needs a server: `UMPIRE_TEST_POSTGRES=postgres://… cargo test --profile ci -p umpire-server
//! --test cluster_hiding -- --ignored` (`scripts/test.sh` runs it when CI gives one).

mod common;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use umpire_client::client::{Client, GameSocket};
use umpire_client::command_frame::command_frame;
use umpire_rules::RuleSetId;
use umpire_rules::shakmaty::Color;
use umpire_server::Database;
use umpire_server::cluster::NodeOptions;
use umpire_server::store::{ManualClock, TimeSource};
use umpire_testkit::pairing::PairConfig;
use umpire_testkit::scripts::{Audience, Step, paired_scripts};

use common::T;
use common::postgres::{ONE_AT_A_TIME, fresh_database};
use common::typed_moves::refused_moves;

/// The moment the hand-turned clock starts at (milliseconds since the epoch).
const START_MS: i64 = 1_800_000_000_000;

/// One node, serving in this process.
struct Node {
    url: String,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), String>>,
}

impl Node {
    /// Starts node `name` on `database`, reading the time from `clock`.
    async fn start(database: &Database, name: &str, clock: &Arc<ManualClock>) -> Node {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let options = umpire_server::Options {
            node: Some(NodeOptions::new(name, &url).unwrap()),
            ..Default::default()
        };
        let state = umpire_server::open_timed(database, options, TimeSource::Manual(clock.clone()))
            .await
            .expect("a node");
        let (stop, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(umpire_server::serve(state, listener, async {
            let _ = rx.await;
        }));
        Node {
            url,
            stop: Some(stop),
            task,
        }
    }

    fn client(&self) -> Client {
        Client::new(&self.url).unwrap()
    }

    /// Starts the node's drain (as SIGTERM does); the returned task ends when it has stopped.
    fn drain(mut self) -> JoinHandle<Result<(), String>> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.task
    }
}

/// Reads `s` until the frame answering `id`; returns every frame read, in order.
async fn until_reply(s: &mut GameSocket, id: u64) -> Vec<String> {
    until(s, |v| v["reply_to"] == json!(id)).await
}

/// Reads `s` until a frame for which `last` holds; returns every frame read, in order.
async fn until(s: &mut GameSocket, last: impl Fn(&Value) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        loop {
            let text = s.next_text().await.expect("a frame");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            out.push(text);
            if last(&v) {
                return;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no awaited frame within {T:?}; read {out:?}"));
    out
}

/// Reads `s` until the node closes it; returns every frame read before, in order.
async fn until_closed(s: &mut GameSocket) -> Vec<String> {
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        while let Ok(text) = s.next_text().await {
            out.push(text);
        }
    })
    .await
    .expect("the draining node closes the game's sockets");
    out
}

/// Opens a socket on `game` (from observation `from`, if any) and reads its `state`, asking
/// again while the game is still moving between nodes (the new node answers `503
/// game_elsewhere` until the old one has let the game go, or a socket it opened closes).
async fn reopen(client: &Client, game: &str, from: Option<u32>) -> (GameSocket, String) {
    for _ in 0..100 {
        let opened = match from {
            Some(n) => client.socket_from(game, n).await,
            None => client.socket(game).await,
        };
        if let Ok(mut s) = opened
            && let Ok(Ok(text)) = tokio::time::timeout(T, s.next_text()).await
        {
            let v: Value = serde_json::from_str(&text).expect("JSON");
            if v["type"] == "state" {
                return (s, text);
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the game never answered on the second node");
}

/// Syncs the player on `s` (its frame ids counted in `id`), then types the lines of
/// [`refused_moves`] and reads each refusal (`bad_move`, in the words the server's reading
/// gives on the own board just shown); returns every frame read.
async fn type_refused_moves(s: &mut GameSocket, id: &mut u64) -> Vec<String> {
    *id += 1;
    let sync = json!({"type": "sync", "id": *id}).to_string();
    s.send_text(&sync).await.expect("sent");
    let mut out = until_reply(s, *id).await;
    for (text, words) in refused_moves(out.last().expect("the state"), 0) {
        *id += 1;
        let frame = json!({"type": "attempt", "move": text, "id": *id}).to_string();
        s.send_text(&frame).await.expect("sent");
        let answer = until_reply(s, *id).await;
        let v: Value = serde_json::from_str(answer.last().expect("an answer")).expect("JSON");
        assert_eq!(v["code"], "bad_move", "{text}: {v}");
        assert_eq!(v["message"], words.as_str(), "{text}: {v}");
        out.extend(answer);
    }
    out
}

/// Plays `script` with the game moving from node A to node B just before heard command
/// `switch_at`; returns what `audience` received: the observer's frames, and with
/// [`Audience::Spectators`] the spectator's, identifiers replaced. With `noise`, the other
/// player types refused moves on B too.
async fn play(
    rules: RuleSetId,
    script: &[Step],
    observer: Color,
    audience: Audience,
    switch_at: u32,
    noise: bool,
) -> Vec<Vec<String>> {
    let database = fresh_database().await;
    let clock = ManualClock::new(START_MS);
    let mut a = Some(Node::start(&database, "a", &clock).await);
    let b = Node::start(&database, "b", &clock).await;
    let node_a = a.as_ref().expect("node A");
    // Made on A, so A owns the game.
    let mut white = node_a.client();
    white.guest().await.unwrap();
    let mut black = node_a.client();
    black.guest().await.unwrap();
    let spec = json!({"rules": rules.as_str(), "initial_ms": 600_000, "increment_ms": 1_000,
        "color": "white"});
    let id = white.create_game(&spec).await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    black.join(&id).await.unwrap();
    let mut names = Vec::new();
    for c in [&white, &black] {
        let me = c
            .request("GET", "/api/me", None)
            .await
            .unwrap()
            .ok()
            .unwrap();
        names.push(me["user"]["name"].as_str().unwrap().to_owned());
    }
    let anonymous = node_a.client();
    let me = usize::from(observer.is_black());
    // Each connection is opened once the one before has its `state` (the same presence in
    // both games of a pair).
    let mut logs: [Vec<String>; 3] = Default::default();
    let mut opened = Vec::new();
    for (k, c) in [&white, &black, &anonymous].into_iter().enumerate() {
        let mut s = c.socket(&id).await.expect("a socket on node A");
        logs[k].push(s.next_text().await.expect("state"));
        opened.push(s);
    }
    let mut spectator = opened.pop().expect("the spectator's socket");
    let Ok(mut sockets) = <[GameSocket; 2]>::try_from(opened) else {
        panic!("two players' sockets");
    };
    let mut now_us = 0;
    let mut heard = 0;
    let mut drained = None;
    let mut ids = [0u64; 2];
    for step in script {
        clock.advance(Duration::from_micros(step.at_us - now_us));
        now_us = step.at_us;
        if !step.silent {
            heard += 1;
            if heard == switch_at
                && let Some(node) = a.take()
            {
                // A drains: the game stops there, and every socket closes.
                drained = Some(node.drain());
                for (k, s) in sockets.iter_mut().enumerate() {
                    logs[k].extend(until_closed(s).await);
                }
                logs[2].extend(until_closed(&mut spectator).await);
                // Everyone comes back on B, one after the other: the observer and the
                // spectator resume from their second observation, the other player whole.
                let on_b = |c: &Client| {
                    Client::new(&b.url)
                        .unwrap()
                        .with_token(c.token().unwrap_or_default())
                };
                for (k, c) in [&white, &black].into_iter().enumerate() {
                    let from = (k == me).then_some(2);
                    let (s, state) = reopen(&on_b(c), &id, from).await;
                    logs[k].push(state);
                    sockets[k] = s;
                }
                let (s, state) = reopen(&b.client(), &id, Some(1)).await;
                logs[2].push(state);
                spectator = s;
                logs[me].extend(type_refused_moves(&mut sockets[me], &mut ids[me]).await);
                if noise {
                    type_refused_moves(&mut sockets[1 - me], &mut ids[1 - me]).await;
                }
            }
        }
        // Each connection numbers its own frames.
        let side = usize::from(step.by.is_black());
        ids[side] += 1;
        let Some(frame) = command_frame(step.command, Some(ids[side])) else {
            continue;
        };
        sockets[side]
            .send_text(&frame.to_text())
            .await
            .expect("sent");
        logs[side].extend(until_reply(&mut sockets[side], ids[side]).await);
    }
    assert!(drained.is_some(), "the script ended before the switch");
    // The end: the observer resigns (refused if the game is over already) and reads up to
    // the answer; the spectator up to the frame that says the game is over.
    let frame = command_frame(umpire_rules::Command::Resign, Some(0)).expect("a frame");
    sockets[me].send_text(&frame.to_text()).await.expect("sent");
    logs[me].extend(until_reply(&mut sockets[me], 0).await);
    logs[2].extend(
        until(&mut spectator, |v| {
            v["status"] == "over" || v["type"] == "game_over"
        })
        .await,
    );
    let stopping = b.drain();
    for task in [drained, Some(stopping)].into_iter().flatten() {
        task.await.unwrap().unwrap();
    }
    let clean = |s: &String| {
        s.replace(&id, "GAME")
            .replace(&names[0], "WHITE")
            .replace(&names[1], "BLACK")
    };
    let mut out = vec![logs[me].iter().map(clean).collect()];
    if audience == Audience::Spectators {
        out.push(logs[2].iter().map(clean).collect());
    }
    out
}

/// Plays one pair for `audience` (the first seed from `seed` on whose two games differ in the
/// count of commands the audience hears nothing of) and compares what it received.
async fn a_pair(audience: Audience, rules: RuleSetId, observer: Color, seed: u64) {
    let _one = ONE_AT_A_TIME.lock().await;
    let silent = |v: &[Step]| v.iter().filter(|x| x.silent).count();
    let heard = |v: &[Step]| v.iter().filter(|x| !x.silent).count();
    let (cfg, s) = (seed..seed + 50)
        .map(|seed| {
            let cfg = PairConfig {
                rules: *rules.rules(),
                fen: None,
                observer,
                seed,
                max_commands: 30,
            };
            let s = paired_scripts(&cfg, audience, 3);
            (cfg, s)
        })
        .find(|(_, s)| {
            silent(&s.first) != silent(&s.second) && heard(&s.first).min(heard(&s.second)) >= 8
        })
        .expect("a pair that differs unheard");
    let switch_at = u32::try_from(heard(&s.first).min(heard(&s.second)) / 2).unwrap();
    let first = play(rules, &s.first, observer, audience, switch_at, true).await;
    let second = play(rules, &s.second, observer, audience, switch_at, false).await;
    let what = format!("{rules:?} seed {} {observer:?} {audience:?}", cfg.seed);
    assert_eq!(first.len(), second.len());
    for (i, (fa, fb)) in first.iter().zip(&second).enumerate() {
        // The connection was resumed on node B (its `state` came after the drain).
        let states = fa
            .iter()
            .filter(|f| f.contains(r#""type":"state""#))
            .count();
        assert!(states >= 2, "{what}: connection {i} has no resumed state");
        for (j, (x, y)) in fa.iter().zip(fb).enumerate() {
            assert_eq!(x, y, "{what}: connection {i} frame {j} differs");
        }
        assert_eq!(
            fa.len(),
            fb.len(),
            "{what}: connection {i}: frame counts differ"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn a_player_receives_the_same_bytes_across_an_owner_change() {
    a_pair(
        Audience::Player,
        RuleSetId::ALL[0],
        Color::White,
        0x5eed_2700,
    )
    .await;
    a_pair(
        Audience::Player,
        RuleSetId::ALL[1],
        Color::Black,
        0x5eed_2750,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn spectators_receive_the_same_bytes_across_an_owner_change() {
    a_pair(
        Audience::Spectators,
        RuleSetId::ALL[0],
        Color::White,
        0x5eed_2800,
    )
    .await;
}
