//! How games end besides the umpire's verdicts: abandonment and abort, resignation on the
//! opponent's turn, a flag falling in a game with increment; and the HTTP refusals the
//! framework writes (oversized body, wrong method, bad query) as JSON with stable codes.

mod common;

use std::time::Duration;

use common::{Server, T, ask, fresh_dir, socket, stored_record, two_player_game};
use serde_json::json;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, EndReason, GameResult};
use umpire_server::Database;
use umpire_server::game::strength::LEVEL_NODES;

async fn summary(server: &Server, id: &str) -> serde_json::Value {
    server
        .client()
        .request("GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .ok()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_before_both_moved_aborts_the_game() {
    let server = Server::start_with(
        Database::Dir(fresh_dir("abort")),
        Duration::from_millis(300),
    )
    .await;
    let (_white, black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    // Black watches; White (to move) never connects.
    let (mut b, _) = socket(&black, &id).await;
    let over = b.until("game_over", T).await.unwrap();
    assert_eq!(over["result"]["score"], "*");
    assert_eq!(over["result"]["reason"], "aborted");
    let g = summary(&server, &id).await;
    assert_eq!(
        (g["status"].as_str(), g["reason"].as_str()),
        (Some("over"), Some("aborted"))
    );
    let e = ask(&mut b, json!({"type":"attempt","move":"e7e5"}), 1).await;
    assert_eq!(e["code"], "game_over");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_past_the_timeout_loses_and_the_record_says_so() {
    let dir = fresh_dir("abandon");
    let server = Server::start_with(Database::Dir(dir.clone()), Duration::from_millis(400)).await;
    let (white, black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    let u = ask(&mut b, json!({"type":"attempt","move":"e7e5"}), 2).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    // White leaves on its turn; a reconnect within the timeout would have saved it.
    w.close().await;
    let over = b.until("game_over", T).await.unwrap();
    assert_eq!(over["result"]["score"], "0-1");
    assert_eq!(over["result"]["reason"], "abandonment");
    let record = stored_record(&server.client(), &id).await;
    record.replay().unwrap();
    assert_eq!(
        record.result,
        Some(GameResult::win(Color::Black, EndReason::Abandonment))
    );
    assert_eq!(record.entries.last().unwrap().command, Command::Abandon);
    assert_eq!(record.tags.get("Termination"), Some("abandoned 0-1"));
    // The end is stored: a restarted server still has it.
    server.stop().await;
    let server = Server::start(dir).await;
    let g = summary(&server, &id).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("0-1"), Some("abandonment"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_stays_connected_is_never_abandoned() {
    let server = Server::start_with(
        Database::Dir(fresh_dir("present")),
        Duration::from_millis(200),
    )
    .await;
    let (white, black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (_b, _) = socket(&black, &id).await;
    // Well past the timeout, White (to move, connected) still plays.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    assert_eq!(summary(&server, &id).await["status"], "live");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_may_resign_on_the_opponents_turn() {
    let dir = fresh_dir("offturn");
    let server = Server::start(dir.clone()).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    // White to move; Black resigns.
    let u = ask(&mut b, json!({"type":"resign"}), 1).await;
    assert_eq!(u["type"], "update", "{u}");
    assert_eq!(u["result"]["score"], "1-0");
    assert_eq!(u["result"]["reason"], "resignation");
    let heard = w.until("update", T).await.unwrap();
    assert_eq!(heard["observation"]["heard"][0]["kind"], "resigned");
    let record = stored_record(&server.client(), &id).await;
    record.replay().unwrap();
    // Replayed from storage after a restart, the game is the same.
    server.stop().await;
    let server = Server::start(dir).await;
    let g = summary(&server, &id).await;
    assert_eq!(g["result"], "1-0");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_in_a_game_with_increment() {
    let server = Server::start(fresh_dir("increment")).await;
    let (white, black, id) =
        two_player_game(&server, json!({"initial_ms": 1000, "increment_ms": 1000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    // (How the increment is added is the clock's unit test; here the flag still falls.)
    let u = ask(&mut b, json!({"type":"attempt","move":"e7e5"}), 2).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    // White lets its clock run out.
    let over = w.until("game_over", T).await.unwrap();
    assert_eq!(over["result"]["score"], "0-1");
    assert_eq!(over["result"]["reason"], "time_forfeit");
    assert_eq!(over["clocks"]["white_ms"], 0);
    // The umpire judged the flag fall: the record carries it, replays and verifies.
    let record = stored_record(&server.client(), &id).await;
    let replayed = record.replay().unwrap();
    assert_eq!(
        replayed.result(),
        Some(GameResult::win(Color::Black, EndReason::TimeForfeit))
    );
    let last = record.entries.last().unwrap();
    assert_eq!((last.side, last.command), (Color::White, Command::FlagFall));
    assert_eq!(record.tags.get("Termination"), Some("time forfeit 0-1"));
    // Black heard the end as an announcement, as the umpire made it, then `game_over`.
    let heard = b.until("update", T).await.unwrap();
    assert_eq!(heard["observation"]["actor"], "white", "{heard}");
    assert_eq!(
        heard["observation"]["heard"][0]["kind"], "game_over",
        "{heard}"
    );
    assert_eq!(heard["observation"]["heard"][0]["reason"], "time_forfeit");
    assert!(heard["observation"]["own"].is_null(), "{heard}");
    let over = b.until("game_over", T).await.unwrap();
    assert_eq!(over["result"]["reason"], "time_forfeit");
    let g = summary(&server, &id).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("0-1"), Some("time_forfeit"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn framework_refusals_are_json_with_stable_codes() {
    let server = Server::start(fresh_dir("refusals")).await;
    let c = server.client();
    let big = json!({"name": "x".repeat(umpire_server::MAX_BODY_BYTES), "password": "p"});
    let a = c
        .request("POST", "/api/register", Some(&big))
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (413, Some("body_too_large")), "{a:?}");
    let a = c.request("DELETE", "/api/games", None).await.unwrap();
    assert_eq!((a.status, a.code()), (405, Some("method_not_allowed")));
    let a = c
        .request("GET", "/api/games?limit=x&status=", None)
        .await
        .unwrap();
    assert_eq!(a.status, 400);
    assert!(a.code().is_some(), "{a:?}");
    // A plain GET where a WebSocket upgrade is expected.
    let a = c.request("GET", "/api/games/none/ws", None).await.unwrap();
    assert_eq!((a.status, a.code()), (400, Some("bad_request")), "{a:?}");
    let a = c.request("GET", "/nowhere", None).await.unwrap();
    assert_eq!((a.status, a.code()), (404, Some("not_found")));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_swaps_colours_and_is_offered_to_the_opponent() {
    let server = Server::start(fresh_dir("rematch")).await;
    let (white, black, id) =
        two_player_game(&server, json!({"rules":"berkeley","initial_ms": 300_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    let path = format!("/api/games/{id}/rematch");
    // Not before the end, and only for the players.
    let a = white.request("POST", &path, None).await.unwrap();
    assert_eq!((a.status, a.code()), (409, Some("game_not_over")));
    let stranger = server.guest().await;
    ask(&mut w, json!({"type":"resign"}), 1).await;
    let a = stranger.request("POST", &path, None).await.unwrap();
    assert_eq!((a.status, a.code()), (403, Some("not_a_player")));
    let g = black
        .request("POST", &path, None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(
        (g["you"].as_str(), g["status"].as_str(), g["rules"].as_str()),
        (Some("white"), Some("open"), Some("berkeley"))
    );
    assert_eq!(g["time_control"]["initial_ms"], 300_000);
    assert_eq!(g["rematch_of"].as_str(), Some(id.as_str()));
    let new = g["id"].as_str().unwrap();
    // The old opponent hears of it and joins by the link, as Black.
    let offer = w.until("rematch", T).await.unwrap();
    assert_eq!(offer["rematch"].as_str(), Some(new));
    b.until("rematch", T).await.unwrap();
    let j = white.join(new).await.unwrap();
    assert_eq!(
        (j["you"].as_str(), j["status"].as_str()),
        (Some("black"), Some("live"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_an_agent_starts_at_once_at_the_same_strength() {
    let server = Server::start(fresh_dir("rematch-agent")).await;
    let me = server.guest().await;
    let g = me
        .create_game(&json!({"agent":"guided-random","level":2,"color":"white"}))
        .await
        .unwrap();
    let seat = format!("agent:guided-random/nodes={}", LEVEL_NODES[1]);
    assert_eq!(g["players"]["black"], seat.as_str());
    let id = g["id"].as_str().unwrap();
    let (mut s, _) = socket(&me, id).await;
    ask(&mut s, json!({"type":"resign"}), 1).await;
    let r = me
        .request("POST", &format!("/api/games/{id}/rematch"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(
        (r["you"].as_str(), r["status"].as_str()),
        (Some("black"), Some("live"))
    );
    assert_eq!(r["players"]["white"], seat.as_str());
    let bad = me
        .create_game(&json!({"agent":"guided-random","level":9}))
        .await
        .unwrap_err();
    assert!(bad.contains("bad_level"), "{bad}");
    let bad = me.create_game(&json!({"level":2})).await.unwrap_err();
    assert!(bad.contains("bad_level"), "{bad}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_fall_stored_before_the_core_knew_it_still_loads() {
    use sqlx::Connection;

    let dir = fresh_dir("old-flag");
    let server = Server::start(dir.clone()).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 1000})).await;
    let (mut w, _) = socket(&white, &id).await;
    w.until("game_over", T).await.unwrap();
    server.stop().await;
    // Make the database what an older server left: the reason `time`, migration 3 not run.
    let url = format!("sqlite://{}", dir.join("umpire.sqlite3").display());
    let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::raw_sql(
        "UPDATE games SET reason = 'time'; DELETE FROM _sqlx_migrations WHERE version = 3",
    )
    .execute(&mut db)
    .await
    .unwrap();
    let stored: String = sqlx::query_scalar("SELECT command FROM commands ORDER BY seq DESC")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(stored, "flag");
    db.close().await.unwrap();
    let server = Server::start(dir).await;
    let g = summary(&server, &id).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("0-1"), Some("time_forfeit"))
    );
    let record = stored_record(&server.client(), &id).await;
    assert_eq!(
        record.replay().unwrap().result(),
        Some(GameResult::win(Color::Black, EndReason::TimeForfeit))
    );
    server.stop().await;
}
