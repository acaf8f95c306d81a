//! Non-interference end to end: paired histories (`umpire_testkit::scripts`, paired by the
//! independent oracle) are played through a real server in process, on a hand-turned clock,
//! with real WebSocket connections for both players and a spectator, and every byte the
//! audience receives is compared: the frames of its game connection in order, the frames of
//! its lobby feed (`/api/lobby/ws`) in order, and the HTTP bodies it may fetch during the game
//! (`GET /api/games/ID`, its own view's download, the game list, the review (refused until the
//! end), the chat page, the leaderboard, both players' profiles and its history, and in a
//! practice game its own belief overlay), the observer's `state` again (sync), a `ping`'s
//! answer, a resumed `state` (`?from=N`), a new lobby feed's snapshot and a new spectator's
//! `state` (whole and resumed), taken just before heard commands (so after the silent ones).
//! Presence frames are among the frames compared. Games start from the standard position and
//! from set-up positions (written to storage).
//!
//! Typed moves that name no move of the player's (`"Ke2"` with a pawn on e2, `"Nf6"` with no
//! knight that reaches f6, lines that are no move at all) are refused in words made from the
//! player's own men: the observer types some now and then in both games (so the words must
//! be the same bytes whatever the enemy holds), and in the first game of a pair the opponent
//! types some too (so neither the observer nor a spectator may hear anything of them).
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

use futures_util::StreamExt;
use serde_json::{Value, json};
use umpire_client::client::{Client, GameSocket};
use umpire_client::command_frame::command_frame;
use umpire_rules::RuleSetId;
use umpire_rules::shakmaty::Color;
use umpire_server::Store;
use umpire_server::accounts::auth::{new_token, token_hash};
use umpire_server::store::{Credential, GameRow, ManualClock, TimeSource, UserRow};
use umpire_testkit::pairing::PairConfig;
use umpire_testkit::scripts::{Audience, Step, paired_scripts};

use common::typed_moves::refused_moves;
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

/// Sends `frame` on `s` and reads until `answered` says a frame answers it; returns every
/// frame read, in order. A `rate_limited` refusal of it (the server's frame limit counts real
/// time, and a fast machine may send a long script quicker than the limit allows) is left out
/// and the frame sent again a little later: it depends on the pace of the audience's own
/// frames only, the same in both games of a pair, and is no part of what is compared.
async fn exchange(
    s: &mut GameSocket,
    frame: &str,
    answered: impl Fn(&Value) -> bool,
) -> Vec<String> {
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        s.send_text(frame).await.expect("sent");
        loop {
            let text = s.next_text().await.expect("a frame");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            if v["type"] == "error" && v["code"] == "rate_limited" {
                tokio::time::sleep(Duration::from_millis(300)).await;
                s.send_text(frame).await.expect("sent");
                continue;
            }
            out.push(text);
            if answered(&v) {
                return;
            }
        }
    })
    .await
    .unwrap_or_else(|_| {
        let last = out.len().saturating_sub(3);
        panic!(
            "no answer to {frame} within {T:?}; the last frames read: {:?}",
            &out[last..]
        )
    });
    out
}

/// Sends the frame `frame` with its id `id` and reads up to its answer (see [`exchange`]).
async fn ask(s: &mut GameSocket, frame: &str, id: u64) -> Vec<String> {
    exchange(s, frame, |v| v["reply_to"] == json!(id)).await
}

/// Sends a `ping` numbered `n` and reads up to its `pong` (see [`exchange`]).
async fn ping(s: &mut GameSocket, n: u32) -> Vec<String> {
    let frame = json!({"type": "ping", "n": n}).to_string();
    exchange(s, &frame, |v| v["type"] == "pong" && v["n"] == json!(n)).await
}

/// Opens a socket with `open`, reads its first frame (its `state`) and closes it.
async fn first_frame(open: impl Future<Output = Result<GameSocket, String>>) -> String {
    let mut socket = open.await.expect("a socket");
    let state = socket.next_text().await.expect("state");
    socket.close().await;
    state
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

/// Who fetches the bodies of a game, and which: the observer (and, for the spectators'
/// pairing, an anonymous client).
struct Fetcher<'a> {
    id: &'a str,
    observer: Color,
    names: &'a [String; 2],
    me: &'a Client,
    anonymous: Option<&'a Client>,
}

impl Fetcher<'_> {
    /// The observer's side, as paths name it.
    fn side(&self) -> &'static str {
        if self.observer == Color::White {
            "white"
        } else {
            "black"
        }
    }

    /// The bodies the observer (and the anonymous client) may fetch during the game: the
    /// game, its own view's download, the game list, the review (refused before the end), the
    /// chat page, the leaderboard, both players' profiles and the observer's history; with
    /// `belief`, the observer's own belief overlay (a practice game).
    async fn during(&self, label: &str, belief: bool, bodies: &mut Vec<(String, String)>) {
        let (id, side, names) = (self.id, self.side(), self.names);
        let mut paths = vec![
            format!("/api/games/{id}"),
            format!("/games/{id}/{side}.pgn"),
            "/api/games".to_owned(),
            format!("/api/games/{id}/review"),
            format!("/api/games/{id}/chat"),
            "/api/leaderboard".to_owned(),
            format!("/api/players/{}", names[0]),
            format!("/api/players/{}", names[1]),
            format!(
                "/api/players/{}/history",
                names[usize::from(self.observer.is_black())]
            ),
        ];
        if belief {
            paths.push(format!("/api/games/{id}/belief?side={side}"));
        }
        // Once the game is over (a script may end it) the review is everyone's, and differs as
        // the games do.
        let game = self
            .me
            .request("GET", &paths[0], None)
            .await
            .expect("an answer");
        if game.ok().is_ok_and(|g| g["status"] == "over") {
            paths.retain(|p| !p.ends_with("/review"));
        }
        for path in &paths {
            bodies.push((format!("{label} {path}"), body(self.me, path).await));
        }
        if let Some(anonymous) = self.anonymous {
            for path in paths
                .iter()
                .filter(|p| !p.contains(".pgn") && !p.contains("belief"))
            {
                bodies.push((
                    format!("{label} anonymous {path}"),
                    body(anonymous, path).await,
                ));
            }
        }
    }

    /// After the end the review and the whole record are everyone's (and differ, as the games
    /// do); what stays the observer's own: its view's download, its history and (`belief`:
    /// where both games of a pair have one id, as the belief's sample is seeded from it) its
    /// belief.
    async fn after(&self, belief: bool, bodies: &mut Vec<(String, String)>) {
        let (id, side) = (self.id, self.side());
        let mut paths = vec![
            format!("/games/{id}/{side}.pgn"),
            format!(
                "/api/players/{}/history",
                self.names[usize::from(self.observer.is_black())]
            ),
        ];
        if belief {
            paths.push(format!("/api/games/{id}/belief?side={side}"));
        }
        for path in paths {
            bodies.push((format!("after the end {path}"), body(self.me, &path).await));
        }
    }
}

async fn body(client: &Client, path: &str) -> String {
    let r = client.request("GET", path, None).await.expect("an answer");
    format!("{r:?}")
}

/// The name `client` is known by (`GET /api/me`).
async fn name_of(client: &Client) -> String {
    client
        .request("GET", "/api/me", None)
        .await
        .expect("an answer")
        .ok()
        .expect("a user")["user"]["name"]
        .as_str()
        .expect("a name")
        .to_owned()
}

/// Reads a lobby feed up to the answer to a text frame sent to it (the feed takes no commands
/// and says so), so that it has received all it will until then; returns every frame read.
async fn lobby_sync(s: &mut GameSocket) -> Vec<String> {
    s.send_text("sync").await.expect("sent");
    let mut out = Vec::new();
    tokio::time::timeout(T, async {
        loop {
            let text = s.next_text().await.expect("a lobby frame");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            out.push(text);
            if v["type"] == "error" && v["code"] == "unknown_command" {
                return;
            }
        }
    })
    .await
    .expect("the lobby's answer");
    out
}

/// Syncs the player on `s` (its frame ids counted in `id`), then types the lines of
/// [`refused_moves`] for `turn` and reads each refusal; returns every frame read. Each refusal
/// must be `bad_move`, in the words the server's reading gives on the own board the player was
/// just shown.
async fn type_refused_moves(s: &mut GameSocket, id: &mut u64, turn: usize) -> Vec<String> {
    *id += 1;
    let sync = json!({"type": "sync", "id": *id}).to_string();
    let mut out = ask(s, &sync, *id).await;
    for (text, words) in refused_moves(out.last().expect("the state"), turn) {
        *id += 1;
        let frame = json!({"type": "attempt", "move": text, "id": *id}).to_string();
        let answer = ask(s, &frame, *id).await;
        let v: Value = serde_json::from_str(answer.last().expect("an answer")).expect("JSON");
        assert_eq!(v["code"], "bad_move", "{text}: {v}");
        assert_eq!(v["message"], words.as_str(), "{text}: {v}");
        out.extend(answer);
    }
    out
}

/// The moment the hand-turned clock starts at (milliseconds since the epoch).
const START_MS: i64 = 1_800_000_000_000;

/// One game to play: its rule set, its start (a set-up position's FEN, or the standard
/// start), and whether it is a practice game (whose player may fetch its own belief overlay
/// while it goes on).
#[derive(Clone, Copy, Debug)]
struct Setup {
    rules: RuleSetId,
    fen: Option<&'static str>,
    practice: bool,
}

/// Set-up starts (the server's API creates games from the standard start only, so these are
/// written to storage as a live game of two accounts): castling, promotion and e.p. at once;
/// and a sparse ending.
const SETUPS: [&str; 2] = [
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Writes to a fresh store in `dir` two accounts with sessions and a live game between them
/// from `fen`; returns the sessions' tokens and the game's id.
async fn seat_from_store(
    dir: &std::path::Path,
    clock: &std::sync::Arc<ManualClock>,
    setup: Setup,
    fen: &str,
) -> ([String; 2], String) {
    let mut store = Store::open_dir(dir).await.expect("a store");
    store.set_time(TimeSource::Manual(clock.clone()));
    let mut tokens: [String; 2] = Default::default();
    for (i, name) in ["white-e2e", "black-e2e"].into_iter().enumerate() {
        let user = UserRow {
            id: format!("{name}-id"),
            name: name.to_owned(),
            kind: "account".to_owned(),
            password_hash: None,
            owner: None,
        };
        store.insert_user(&user).await.expect("a user");
        tokens[i] = new_token();
        store
            .insert_credential(Credential::Session, &token_hash(&tokens[i]), &user.id)
            .await
            .expect("a session");
    }
    let id = "e2egame".to_owned();
    store
        .insert_game(&GameRow {
            id: id.clone(),
            rules: setup.rules.as_str().to_owned(),
            fen: fen.to_owned(),
            users: [
                Some("white-e2e-id".to_owned()),
                Some("black-e2e-id".to_owned()),
            ],
            agents: [None, None],
            agent_seed: 1,
            initial_ms: 600_000,
            increment_ms: 1_000,
            status: "live".to_owned(),
            result: None,
            reason: None,
            created_ms: START_MS,
            rated: false,
            practice: setup.practice,
            opponent: None,
        })
        .await
        .expect("a game");
    store.close().await;
    (tokens, id)
}

/// Plays `script` on a fresh server; returns what `audience` (`observer`, or the spectators
/// and the observer) received. With `noise`, the opponent also types moves that are refused
/// (which the audience must not hear of).
async fn play(
    setup: Setup,
    script: &[Step],
    observer: Color,
    audience: Audience,
    noise: bool,
) -> Received {
    let run = RUN.fetch_add(1, Ordering::SeqCst);
    let dir = fresh_dir(&format!("hiding-e2e-{run}"));
    let clock = ManualClock::new(START_MS);
    // A practice game's belief overlay is sampled from a seed made of the game's id (public),
    // so those games, and set-up starts, are written to storage under one id; the others are
    // made through the API (so the lobby feeds hear of the challenge and its taking).
    let from_store = (setup.fen.is_some() || setup.practice)
        .then(|| setup.fen.unwrap_or(umpire_rules::record::STANDARD_FEN));
    let (server, white, black, stored) = match from_store {
        Some(fen) => {
            let (tokens, id) = seat_from_store(&dir, &clock, setup, fen).await;
            let server = Server::start_timed(dir.clone(), TimeSource::Manual(clock.clone())).await;
            let white = server.client().with_token(&tokens[0]);
            let black = server.client().with_token(&tokens[1]);
            (server, white, black, Some(id))
        }
        None => {
            let server = Server::start_timed(dir.clone(), TimeSource::Manual(clock.clone())).await;
            let white = server.guest().await;
            let black = server.guest().await;
            (server, white, black, None)
        }
    };
    let names = [name_of(&white).await, name_of(&black).await];
    let players = [&white, &black];
    let me = usize::from(observer.is_black());
    let observer_client = players[me];
    let anonymous = server.client();
    // The lobby feeds (the observer's, and an anonymous one for the spectators' pairing),
    // open from before the game is made.
    let mut lobbies = vec![observer_client.lobby().await.expect("a lobby feed")];
    if audience == Audience::Spectators {
        lobbies.push(anonymous.lobby().await.expect("a lobby feed"));
    }
    let mut lobby_logs: Vec<Vec<String>> = Vec::new();
    for l in &mut lobbies {
        lobby_logs.push(vec![l.next_text().await.expect("the snapshot")]);
    }
    let id = match stored {
        Some(id) => id,
        None => {
            let spec = json!({"rules": setup.rules.as_str(), "initial_ms": 600_000,
                "increment_ms": 1_000, "color": "white", "practice": setup.practice});
            let g = white.create_game(&spec).await.expect("created");
            let id = g["id"].as_str().expect("an id").to_owned();
            black.join(&id).await.expect("joined");
            id
        }
    };
    // Each connection is opened once the one before has its `state` (so that each `state`
    // shows the same presence in both games).
    let mut logs: [Vec<String>; 3] = Default::default();
    let mut white_socket = white.socket(&id).await.expect("white's socket");
    logs[0].push(white_socket.next_text().await.expect("state"));
    let mut black_socket = black.socket(&id).await.expect("black's socket");
    logs[1].push(black_socket.next_text().await.expect("state"));
    let mut sockets = [white_socket, black_socket];
    let mut spectator = anonymous.socket(&id).await.expect("a spectator's socket");
    // Issue 31 item 2: the spectators hear of the opening only what both players heard.
    let spectator_state = spectator.next_text().await.expect("state");
    let opening = |text: &str| -> Vec<Value> {
        let v: Value = serde_json::from_str(text).expect("JSON");
        v["opening"].as_array().cloned().unwrap_or_default()
    };
    let (w, b) = (opening(&logs[0][0]), opening(&logs[1][0]));
    for a in opening(&spectator_state) {
        assert!(
            w.contains(&a) && b.contains(&a),
            "{setup:?}: spectators were told {a} of the opening, which a player did not hear"
        );
    }
    logs[2].push(spectator_state);
    let spectators = (audience == Audience::Spectators).then_some(&anonymous);
    let fetcher = Fetcher {
        id: &id,
        observer,
        names: &names,
        me: observer_client,
        anonymous: spectators,
    };
    let mut bodies = Vec::new();
    let mut now_us = 0;
    let mut heard = 0;
    fetcher
        .during("at the start", setup.practice, &mut bodies)
        .await;
    for (l, log) in lobbies.iter_mut().zip(&mut lobby_logs) {
        log.extend(lobby_sync(l).await);
    }
    let mut ids = [0u64; 2];
    for step in script {
        clock.advance(Duration::from_micros(step.at_us - now_us));
        now_us = step.at_us;
        if !step.silent {
            heard += 1;
            // Now and then, just before a heard command (so after any silent ones): the
            // bodies the audience may fetch, the lobby feeds up to now and a new one's
            // snapshot, the observer's `state` again (sync), and a new spectator's `state`.
            if heard % 4 == 0 {
                let label = format!("before heard {heard}");
                let belief = setup.practice && heard % 8 == 0;
                fetcher.during(&label, belief, &mut bodies).await;
                for (l, log) in lobbies.iter_mut().zip(&mut lobby_logs) {
                    log.extend(lobby_sync(l).await);
                }
                let mut late = observer_client.lobby().await.expect("a lobby feed");
                let snapshot = late.next_text().await.expect("the snapshot");
                bodies.push((format!("{label}: a new lobby feed"), snapshot));
                late.close().await;
                ids[me] += 1;
                let sync = json!({"type": "sync", "id": ids[me]}).to_string();
                logs[me].extend(ask(&mut sockets[me], &sync, ids[me]).await);
                // Typed moves no man of the observer's can make (both games), and of the
                // opponent's (the first game only).
                let turn = heard as usize / 4;
                logs[me].extend(type_refused_moves(&mut sockets[me], &mut ids[me], turn).await);
                if noise {
                    let them = 1 - me;
                    type_refused_moves(&mut sockets[them], &mut ids[them], turn + 1).await;
                }
                // A ping, and a second socket of the observer resuming from its second
                // observation (`?from=2`).
                logs[me].extend(ping(&mut sockets[me], heard).await);
                let state = first_frame(observer_client.socket_from(&id, 2)).await;
                bodies.push((format!("{label}: resumed from 2"), state));
                if audience == Audience::Spectators {
                    let state = first_frame(anonymous.socket(&id)).await;
                    bodies.push((format!("{label}: a new spectator"), state));
                    let state = first_frame(anonymous.socket_from(&id, 1)).await;
                    bodies.push((format!("{label}: a spectator from 1"), state));
                    logs[2].extend(ping(&mut spectator, heard).await);
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
        logs[side].extend(ask(&mut sockets[side], &frame.to_text(), ids[side]).await);
    }
    clock.advance(Duration::from_millis(250));
    fetcher
        .during("at the end", setup.practice, &mut bodies)
        .await;
    // The end: the observer resigns (refused if the game is over already); it reads up to the
    // answer and the spectator up to the frame that says the game is over, so that each has
    // received all it will.
    let frame = command_frame(umpire_rules::Command::Resign, Some(0)).expect("a frame");
    logs[me].extend(ask(&mut sockets[me], &frame.to_text(), 0).await);
    logs[2].extend(until_over(&mut spectator).await);
    for (l, log) in lobbies.iter_mut().zip(&mut lobby_logs) {
        log.extend(lobby_sync(l).await);
    }
    fetcher.after(from_store.is_some(), &mut bodies).await;
    for l in lobbies {
        l.close().await;
    }
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
    for log in lobby_logs {
        frames.push(log.iter().map(|f| clean(f)).collect());
    }
    Received {
        frames,
        bodies: bodies
            .into_iter()
            .map(|(l, b)| (clean(&l), clean(&b)))
            .collect(),
    }
}

/// How many pairs are played at once (each pair's two games at once too, on servers of their
/// own): `UMPIRE_E2E_PAIRS_AT_ONCE`, 3 by default. A game waits on its server most of the
/// time (every command and body is a round trip through a socket, a game's task and
/// storage), so games side by side use the cores that one game alone leaves idle.
fn pairs_at_once() -> usize {
    std::env::var("UMPIRE_E2E_PAIRS_AT_ONCE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(3)
}

/// Plays one pair (both games at once) and fails on the first difference; returns the number
/// of silent commands in each game.
async fn one_pair(setup: Setup, cfg: PairConfig, audience: Audience) -> (usize, usize) {
    let began = std::time::Instant::now();
    let observer = cfg.observer;
    let seed = cfg.seed;
    // Pairing is computing alone: off the test's task, which drives the other games meanwhile.
    let s = tokio::task::spawn_blocking(move || paired_scripts(&cfg, audience, 3))
        .await
        .expect("paired");
    let paired = began.elapsed();
    let (a, b) = tokio::join!(
        play(setup, &s.first, observer, audience, true),
        play(setup, &s.second, observer, audience, false)
    );
    let what = format!("{setup:?} seed {seed} {observer:?} {audience:?}");
    assert_eq!(a.frames.len(), b.frames.len());
    for (i, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
        for (j, (x, y)) in fa.iter().zip(fb).enumerate() {
            assert_eq!(x, y, "{what}: connection {i} frame {j} differs");
        }
        assert_eq!(
            fa.len(),
            fb.len(),
            "{what}: connection {i} got a different number of frames"
        );
    }
    for (x, y) in a.bodies.iter().zip(&b.bodies) {
        assert_eq!(x, y, "{what}: an HTTP body differs");
    }
    assert_eq!(a.bodies.len(), b.bodies.len());
    let silent = |v: &[Step]| v.iter().filter(|x| x.silent).count();
    eprintln!(
        "{what}: {} + {} steps, paired in {paired:.1?}, played in {:.1?}",
        s.first.len(),
        s.second.len(),
        began.elapsed() - paired
    );
    (silent(&s.first), silent(&s.second))
}

/// Plays `pairs` pairs for every rule set (observers alternating) from each of `starts`, for
/// `audience`, [`pairs_at_once`] at a time; fails on the first difference. Every other game is
/// a practice game (its observer fetches its own belief overlay as it goes).
async fn pairs(audience: Audience, pairs: u64, max_commands: u32, starts: &[Option<&'static str>]) {
    let mut jobs = Vec::new();
    for (r, rules) in RuleSetId::ALL.into_iter().enumerate() {
        for (f, &fen) in starts.iter().enumerate() {
            for k in 0..pairs {
                let observer = if (k + f as u64).is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let setup = Setup {
                    rules,
                    fen,
                    practice: (r as u64 + k) % 2 == 1,
                };
                let cfg = PairConfig {
                    rules: *rules.rules(),
                    fen: fen.map(str::to_owned),
                    observer,
                    seed: 0x5eed_0000 + (r as u64) * 1000 + (f as u64) * 100 + k,
                    max_commands,
                };
                jobs.push(one_pair(setup, cfg, audience));
            }
        }
    }
    let silent: Vec<(usize, usize)> = futures_util::stream::iter(jobs)
        .buffer_unordered(pairs_at_once())
        .collect()
        .await;
    // The pairs did exercise what they are for.
    assert!(silent.iter().any(|&(a, b)| a + b > 0));
    assert!(silent.iter().any(|&(a, b)| a != b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_receives_the_same_bytes_whatever_the_opponent_does_unheard() {
    pairs(Audience::Player, 2, 40, &[None]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_receive_the_same_bytes_whatever_either_player_does_unheard() {
    pairs(Audience::Spectators, 2, 40, &[None]).await;
}

/// Set-up starts (written to storage: the API starts games from the standard position only),
/// for both audiences; the spectators' opening is checked to be what both players heard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_up_starts_give_every_audience_the_same_bytes() {
    let starts = SETUPS.map(Some);
    pairs(Audience::Player, 1, 24, &starts).await;
    pairs(Audience::Spectators, 1, 24, &starts).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the long run: cargo test --profile ci -p umpire-server --test hiding_end_to_end -- --ignored"]
async fn long_run_many_pairs_of_every_audience() {
    pairs(Audience::Player, 20, 120, &[None]).await;
    pairs(Audience::Spectators, 20, 120, &[None]).await;
    let starts = SETUPS.map(Some);
    pairs(Audience::Player, 4, 60, &starts).await;
    pairs(Audience::Spectators, 4, 60, &starts).await;
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
