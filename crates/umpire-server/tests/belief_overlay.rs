//! The belief overlay (`GET /api/games/{id}/belief`, `docs/PROTOCOL.md`): who may ask for
//! which side's belief and when, and what the body says.

mod common;

use std::time::Duration;

use common::{Server, ask, fresh_dir, socket, two_player_game};
use serde_json::json;
use umpire_client::client::{Answer, Client};
use umpire_protocol::http::belief::BeliefBody;
use umpire_protocol::side::Side;
use umpire_server::Database;

/// A long abandonment timeout: nobody loses while a test runs.
const LONG: Duration = Duration::from_secs(600);

async fn get(c: &Client, path: &str) -> Answer {
    c.request("GET", path, None).await.unwrap()
}

fn body_of(answer: Answer) -> BeliefBody {
    let value = answer.ok().unwrap();
    let body: BeliefBody = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(serde_json::to_value(&body).unwrap(), value);
    assert_eq!(body.squares.len(), 64);
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_a_house_agent_the_player_sees_its_own_belief_only() {
    let server = Server::start_with(Database::Dir(fresh_dir("belief-agent")), LONG).await;
    let ann = server.guest().await;
    let g = ann
        .create_game(&json!({"agent": "random", "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let base = format!("/api/games/{id}/belief");
    // At the start White knows where every black man stands.
    let start = body_of(get(&ann, &format!("{base}?side=white")).await);
    assert_eq!(
        (start.side, start.plies, start.exact),
        (Side::White, 0, true)
    );
    assert_eq!(start.size, 1);
    assert_eq!(start.squares[60].king, 1.0); // e8
    assert_eq!(start.squares[52].pawn, 1.0); // e7
    assert_eq!(start.squares[4].any, 0.0); // e1: White's own king
    // The agent's side, to its opponent or to anyone else; White's, to anyone else.
    for (c, side) in [
        (&ann, "black"),
        (&server.client(), "white"),
        (&server.guest().await, "black"),
    ] {
        let r = get(c, &format!("{base}?side={side}")).await;
        assert_eq!((r.status, r.code()), (403, Some("forbidden")), "{side}");
    }
    // A point the game has not reached.
    let r = get(&ann, &format!("{base}?side=white&ply=3")).await;
    assert_eq!((r.status, r.code()), (400, Some("bad_ply")));
    // After a move White no longer knows where Black's men are.
    let (mut w, _) = socket(&ann, &id).await;
    ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    let now = body_of(get(&ann, &format!("{base}?side=white")).await);
    assert!(now.plies >= 1 && now.plies <= 2, "{}", now.plies);
    // Earlier points stay open to the player; the start is the same as before.
    let again = body_of(get(&ann, &format!("{base}?side=white&ply=0")).await);
    assert_eq!(again, start);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_people_the_belief_waits_for_the_end_then_is_open_to_all() {
    let server = Server::start_with(Database::Dir(fresh_dir("belief-people")), LONG).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let base = format!("/api/games/{id}/belief");
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    // While it goes on: not even a player's own belief (no house agent).
    for (c, side) in [
        (&white, "white"),
        (&black, "black"),
        (&white, "black"),
        (&server.client(), "white"),
    ] {
        let r = get(c, &format!("{base}?side={side}")).await;
        assert_eq!((r.status, r.code()), (403, Some("forbidden")), "{side}");
    }
    ask(&mut b, json!({"type": "attempt", "move": "e7e6"}), 2).await;
    ask(&mut w, json!({"type": "resign"}), 3).await;
    let anyone = server.client();
    let white_now = body_of(get(&anyone, &format!("{base}?side=white")).await);
    assert_eq!(white_now.plies, 2);
    // White saw e2e4 then heard Black move: some black man may have left its square.
    assert!(white_now.size > 1);
    assert!(white_now.squares[60].king == 1.0);
    let black_one = body_of(get(&anyone, &format!("{base}?side=black&ply=1")).await);
    assert_eq!((black_one.side, black_one.plies), (Side::Black, 1));
    // After White's first move Black cannot tell which of White's moves it was.
    assert!(black_one.squares[12].pawn < 1.0); // e2
    assert!(black_one.squares[12].pawn > 0.0);
    // Asked again: the cached answer, the same.
    let cached = body_of(get(&server.guest().await, &format!("{base}?side=black&ply=1")).await);
    assert_eq!(cached, black_one);
    let r = get(&anyone, &format!("{base}?side=black&ply=9")).await;
    assert_eq!(r.code(), Some("bad_ply"));
    let r = get(&anyone, &format!("{base}?side=green")).await;
    assert_eq!(r.status, 400);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_practice_game_each_player_sees_its_own_belief_while_it_goes_on() {
    let server = Server::start_with(Database::Dir(fresh_dir("belief-practice")), LONG).await;
    // Never rated.
    let r = server
        .guest()
        .await
        .request(
            "POST",
            "/api/games",
            Some(&json!({"practice": true, "rated": true})),
        )
        .await
        .unwrap();
    assert_eq!((r.status, r.code()), (400, Some("practice_unrated")));
    let (white, black, id) = two_player_game(&server, json!({"practice": true})).await;
    let summary = server
        .client()
        .request("GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(
        (&summary["practice"], &summary["rated"]),
        (&json!(true), &json!(false))
    );
    let (mut w, state) = socket(&white, &id).await;
    assert_eq!(state["practice"], true, "{state}");
    ask(&mut w, json!({"type": "attempt", "move": "d2d4"}), 1).await;
    let base = format!("/api/games/{id}/belief");
    let mine = body_of(get(&black, &format!("{base}?side=black")).await);
    assert_eq!((mine.side, mine.plies), (Side::Black, 1));
    let mine = body_of(get(&white, &format!("{base}?side=white")).await);
    assert_eq!((mine.side, mine.plies), (Side::White, 1));
    // Not the opponent's, and not to anyone else.
    for (c, side) in [
        (&white, "black"),
        (&black, "white"),
        (&server.client(), "white"),
    ] {
        let r = get(c, &format!("{base}?side={side}")).await;
        assert_eq!((r.status, r.code()), (403, Some("forbidden")), "{side}");
    }
    // An ordinary casual game between people says it is no practice.
    let (_, _, casual) = two_player_game(&server, json!({})).await;
    let (_, state) = socket(&white, &casual).await;
    assert_eq!(state["practice"], false, "{state}");
    server.stop().await;
}

/// A server whose state the test keeps (to hold the belief's places itself), and a guest
/// playing White against the random agent with the path of its belief at the start.
async fn agent_game_kept(name: &str) -> (Server, umpire_server::AppState, Client, String) {
    let dir = fresh_dir(name);
    let options = umpire_server::Options {
        abandon_after: LONG,
        ..Default::default()
    };
    let state = umpire_server::open_with(&Database::Dir(dir.clone()), options)
        .await
        .unwrap();
    let server = Server::serving(state.clone(), dir).await;
    let ann = server.guest().await;
    let g = ann
        .create_game(&json!({"agent": "random", "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}/belief?side=white&ply=0");
    (server, state, ann, path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_every_permit_held_a_belief_not_kept_is_refused_busy_then_answered() {
    let (server, state, ann, path) = agent_game_kept("belief-busy").await;
    let permits = std::sync::Arc::clone(&state.belief_permits);
    // Every permit held, as if that many beliefs were being computed.
    let held = permits
        .clone()
        .acquire_many_owned(umpire_server::http::belief::BELIEF_AT_ONCE as u32)
        .await
        .unwrap();
    let r = get(&ann, &path).await;
    assert_eq!((r.status, r.code()), (503, Some("busy")));
    // The refusal says what to do, in words.
    assert!(
        r.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("again")),
        "{r:?}"
    );
    drop(held);
    let body = body_of(get(&ann, &path).await);
    assert_eq!(body.plies, 0);
    // Kept now: answered even with every permit held.
    let _held = permits
        .acquire_many_owned(umpire_server::http::belief::BELIEF_AT_ONCE as u32)
        .await
        .unwrap();
    assert_eq!(body_of(get(&ann, &path).await), body);
    server.stop().await;
}

/// One address computes one belief at a time: while a belief asked from 127.0.0.1 is being
/// computed, a second asked from there is refused `busy` even with a server-wide place free
/// (else one client asking without pause held every place and refused everyone's overlay);
/// another address is answered meanwhile, and 127.0.0.1 again once its belief is done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_computes_one_belief_at_a_time() {
    let (server, state, ann, path) = agent_game_kept("belief-share").await;
    let share = std::sync::Arc::clone(&state.belief_share);
    let permits = std::sync::Arc::clone(&state.belief_permits);
    let here: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    // A belief of 127.0.0.1's being computed (its place held).
    let computing = share.take(Some(here)).expect("a place").expect("counted");
    assert_eq!(
        permits.available_permits(),
        umpire_server::http::belief::BELIEF_AT_ONCE,
        "server-wide places are free"
    );
    let r = get(&ann, &path).await;
    assert_eq!((r.status, r.code()), (503, Some("busy")), "{r:?}");
    assert!(
        r.body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("your address")),
        "{r:?}"
    );
    // Another address is not held back.
    let elsewhere: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    assert!(share.take(Some(elsewhere)).is_some());
    drop(computing);
    let body = body_of(get(&ann, &path).await);
    assert_eq!(body.plies, 0);
    assert_eq!(share.holds(here), 0, "the place is given back");
    server.stop().await;
}
