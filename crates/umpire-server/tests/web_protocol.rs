//! The protocol additions for the web page (`docs/PROTOCOL.md`): the application ping, the
//! players' presence with the abandonment countdown, the resume of a game socket from the
//! observations a client holds (`?from=N`), and the review of a finished game.

mod common;

use std::time::Duration;

use common::{Server, T, ask, fresh_dir, socket, two_player_game};
use serde_json::{Value, json};
use umpire_protocol::game::GameFrame;
use umpire_protocol::http::review::ReviewBody;
use umpire_server::Database;

/// A long abandonment timeout: nobody loses while a test runs.
const LONG: Duration = Duration::from_secs(600);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_is_answered_on_its_own_connection_for_players_and_spectators() {
    let server = Server::start_with(Database::Dir(fresh_dir("ping")), LONG).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    let _ = w.until("presence", T).await.unwrap();
    let (mut s, _) = socket(&server.client(), &id).await;
    w.send(&json!({"type": "ping", "n": 7})).await.unwrap();
    assert_eq!(
        w.next_within(T).await.unwrap(),
        json!({"type": "pong", "n": 7})
    );
    s.send(&json!({"type": "ping", "n": u32::MAX}))
        .await
        .unwrap();
    let pong = s.next_within(T).await.unwrap();
    assert_eq!(pong, json!({"type": "pong", "n": u32::MAX}));
    assert!(matches!(
        GameFrame::parse(&pong.to_string()).unwrap(),
        GameFrame::Pong(p) if p.n == u32::MAX
    ));
    // Nobody else hears it: Black's next frame is the answer to its own ping.
    b.send(&json!({"type": "ping", "n": 1})).await.unwrap();
    assert_eq!(
        b.next_within(T).await.unwrap(),
        json!({"type": "pong", "n": 1})
    );
    // A ping without a number is refused in words.
    w.send(&json!({"type": "ping"})).await.unwrap();
    let e = w.next_within(T).await.unwrap();
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("bad_message"))
    );
    server.stop().await;
}

fn presence(white: &str, black: &str, abandon: bool) -> impl Fn(&Value) {
    let (white, black) = (white.to_owned(), black.to_owned());
    move |p: &Value| {
        assert_eq!(p["white"], white.as_str(), "{p}");
        assert_eq!(p["black"], black.as_str(), "{p}");
        assert_eq!(p["abandon_in_ms"].is_u64(), abandon, "{p}");
        if abandon {
            assert!(p["abandon_in_ms"].as_u64().unwrap() <= LONG.as_millis() as u64);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_connection_hears_when_a_player_goes_and_comes_back() {
    let server = Server::start_with(Database::Dir(fresh_dir("presence")), LONG).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, state) = socket(&white, &id).await;
    // White is here, Black never came (but is not to move): no countdown.
    presence("connected", "gone", false)(&state["presence"]);
    let (mut spectator, sstate) = socket(&server.client(), &id).await;
    presence("connected", "gone", false)(&sstate["presence"]);
    let (b, bstate) = socket(&black, &id).await;
    presence("connected", "connected", false)(&bstate["presence"]);
    for s in [&mut w, &mut spectator] {
        let p = s.until("presence", T).await.unwrap();
        presence("connected", "connected", false)(&p);
        assert!(matches!(
            GameFrame::parse(&p.to_string()).unwrap(),
            GameFrame::Presence(_)
        ));
    }
    b.close().await;
    for s in [&mut w, &mut spectator] {
        presence("connected", "gone", false)(&s.until("presence", T).await.unwrap());
    }
    // White moves: now the side that is gone is to move, and its countdown runs.
    let u = ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    for s in [&mut w, &mut spectator] {
        presence("connected", "gone", true)(&s.until("presence", T).await.unwrap());
    }
    // Black comes back: the countdown stops.
    let (_b, bstate) = socket(&black, &id).await;
    presence("connected", "connected", false)(&bstate["presence"]);
    for s in [&mut w, &mut spectator] {
        presence("connected", "connected", false)(&s.until("presence", T).await.unwrap());
    }
    server.stop().await;
}

/// Issue 31's possible flake, the ordering forced: a player's socket that closed before its
/// game's task took its subscription (the client gone while the task was busy: its `state`
/// cannot be queued, so it was never counted) has its `Leave` arrive after the same player's
/// new socket subscribed. That `Leave` must not take the new socket away: the next spectator's
/// first `state` shows the player connected. (Counting connections up and down, the stray
/// `Leave` made a connected Black look gone.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_closed_before_it_subscribed_takes_no_one_away() {
    use umpire_rules::shakmaty::Color;
    use umpire_server::game::outbox::outbox;
    use umpire_server::game::round::{RoundMsg, Seat, next_connection};
    let dir = fresh_dir("presence-stray-leave");
    let options = umpire_server::Options {
        abandon_after: LONG,
        ..Default::default()
    };
    let state = umpire_server::open_with(&Database::Dir(dir.clone()), options)
        .await
        .expect("open");
    let hub = state.hub.clone();
    let server = Server::serving(state, dir).await;
    let (white, _black, id) = two_player_game(&server, json!({})).await;
    let (_w, _) = socket(&white, &id).await;
    let handle = hub.round(&id).await.expect("the game's task");
    let subscribe = |seat, tx, conn| RoundMsg::Subscribe {
        seat,
        tx,
        from: 0,
        conn,
    };
    let black = Seat::Player(Color::Black);
    // Black's first socket: its client is gone (its queue's reader dropped) before the task
    // takes the subscription.
    let (old_tx, old_inbox) = outbox();
    drop(old_inbox);
    let old = next_connection();
    handle.send(subscribe(black, old_tx, old)).await.unwrap();
    // Black's new socket subscribes, and only then does the old one's `Leave` arrive.
    let (new_tx, mut new_inbox) = outbox();
    let new = next_connection();
    handle.send(subscribe(black, new_tx, new)).await.unwrap();
    let bstate: Value = serde_json::from_str(&new_inbox.recv().await.unwrap()).unwrap();
    assert_eq!(bstate["presence"]["black"], "connected", "{bstate}");
    handle.send(RoundMsg::Leave { conn: old }).await.unwrap();
    // A spectator comes: Black is still connected.
    let (spectator_tx, mut spectator) = outbox();
    handle
        .send(subscribe(Seat::Spectator, spectator_tx, next_connection()))
        .await
        .unwrap();
    let sstate: Value = serde_json::from_str(&spectator.recv().await.unwrap()).unwrap();
    assert_eq!(sstate["type"], "state", "{sstate}");
    presence("connected", "connected", false)(&sstate["presence"]);
    // The new socket's own `Leave` does take Black away, and the spectator hears it.
    handle.send(RoundMsg::Leave { conn: new }).await.unwrap();
    let p: Value = serde_json::from_str(&spectator.recv().await.unwrap()).unwrap();
    assert_eq!(p["type"], "presence", "{p}");
    presence("connected", "gone", false)(&p);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_agent_is_always_present() {
    let server = Server::start_with(Database::Dir(fresh_dir("presence-agent")), LONG).await;
    let ann = server.guest().await;
    let g = ann
        .create_game(&json!({"agent": "random", "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap();
    let (_w, state) = socket(&ann, id).await;
    presence("connected", "connected", false)(&state["presence"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_resumes_from_the_observations_its_client_holds() {
    let server = Server::start_with(Database::Dir(fresh_dir("resume")), LONG).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    ask(&mut b, json!({"type": "attempt", "move": "e7e5"}), 2).await;
    ask(&mut w, json!({"type": "attempt", "move": "e1e3"}), 3).await;
    let (_, whole) = socket(&white, &id).await;
    let all = whole["transcript"].as_array().unwrap().clone();
    assert_eq!(all.len(), 3);
    assert_eq!(whole["transcript_from"], 0);
    for from in [0u32, 2, 3] {
        let mut s = white.socket_from(&id, from).await.unwrap();
        let state = s.next_within(T).await.unwrap();
        assert_eq!(state["type"], "state");
        assert_eq!(state["transcript_from"], from);
        assert_eq!(
            state["transcript"].as_array().unwrap()[..],
            all[from as usize..]
        );
    }
    // Past the end: refused in words, then the whole state.
    let mut s = white.socket_from(&id, 4).await.unwrap();
    let e = s.next_within(T).await.unwrap();
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("bad_resume"))
    );
    let state = s.next_within(T).await.unwrap();
    assert_eq!(state["transcript_from"], 0);
    assert_eq!(state["transcript"].as_array().unwrap()[..], all[..]);
    // Spectators resume the same way, from their own transcript.
    let mut s = server.client().socket_from(&id, 1).await.unwrap();
    let state = s.next_within(T).await.unwrap();
    assert_eq!(state["transcript_from"], 1);
    // Not a number: refused before the upgrade.
    let bad = white
        .request("GET", &format!("/api/games/{id}/ws?from=x"), None)
        .await
        .unwrap();
    assert_eq!(bad.code(), Some("bad_resume"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_is_refused_until_the_game_is_over_then_shows_every_step() {
    let server = Server::start_with(Database::Dir(fresh_dir("review")), LONG).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let path = format!("/api/games/{id}/review");
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    // Before the end: refused to the players and to anyone else.
    for c in [&white, &black, &server.client()] {
        let r = c.request("GET", &path, None).await.unwrap();
        assert_eq!(r.code(), Some("game_not_over"));
    }
    ask(&mut b, json!({"type": "attempt", "move": "e7e6"}), 2).await;
    ask(&mut w, json!({"type": "attempt", "move": "e1e3"}), 3).await;
    ask(&mut w, json!({"type": "resign"}), 4).await;
    let body = server
        .client()
        .request("GET", &path, None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let review: ReviewBody = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(serde_json::to_value(&review).unwrap(), body);
    assert_eq!(review.game, id);
    assert_eq!(review.result.as_ref().unwrap().score, "0-1");
    let steps: Vec<(&str, &str, bool)> = review
        .steps
        .iter()
        .map(|s| (s.command.as_str(), s.verdict.as_str(), s.moved))
        .collect();
    assert_eq!(
        steps,
        [
            ("e2e4", "accepted", true),
            ("e7e6", "accepted", true),
            ("e1e3", "impossible", false),
            ("resign", "answered", false),
        ]
    );
    assert!(
        review.steps[1]
            .fen
            .starts_with("rnbqkbnr/pppp1ppp/4p3/8/4P3/")
    );
    assert_eq!(review.steps[2].fen, review.steps[1].fen);
    // The illegal attempt: White heard it; what Black heard is the rule set's to say, and
    // matches what Black's own socket was told.
    assert!(!review.steps[2].heard.white.is_empty());
    server.stop().await;
}
