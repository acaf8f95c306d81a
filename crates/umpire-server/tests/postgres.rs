//! The same code path on PostgreSQL: migrations, accounts, a game played, chat, the record,
//! a restart that resumes the game, and ratings. Needs a server: run with
//! `UMPIRE_TEST_POSTGRES=postgres://USER@HOST:PORT/DB cargo test --release -p umpire-server --test postgres -- --ignored`
//! (the database's `public` schema is emptied first).

mod common;

use common::postgres::{ONE_AT_A_TIME, fresh_database};
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn a_game_on_postgres_is_stored_replayed_and_resumed() {
    let _one = ONE_AT_A_TIME.lock().await;
    let db = fresh_database().await;
    let server = Server::start_db(db.clone()).await;
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    let a = server
        .client()
        .request(
            "POST",
            "/api/register",
            Some(&json!({"name":"ann","password":"password123"})),
        )
        .await
        .unwrap();
    assert_eq!(a.code(), Some("name_taken"));
    let (white, black, id) = two_player_game(&server, json!({"increment_ms": 1000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
    ask(&mut b, json!({"type":"attempt","move":"d7d5"}), 2).await;
    b.send(&json!({"type":"msg","text":"hello"})).await.unwrap();
    w.until("chat", T).await.unwrap();
    let (_, before) = socket(&white, &id).await;
    drop((w, b));
    server.stop().await;

    let server = Server::start_db(db).await;
    let white = server.client().with_token(white.token().unwrap());
    let black = server.client().with_token(black.token().unwrap());
    let (mut w, after) = socket(&white, &id).await;
    for key in ["transcript", "men", "options", "plies", "chat"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    let u = ask(&mut w, json!({"type":"attempt","move":"e4d5"}), 3).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    let (mut b, _) = socket(&black, &id).await;
    ask(&mut b, json!({"type":"resign"}), 4).await;
    let record = stored_record(&server.client(), &id).await;
    record.replay().unwrap();
    assert_eq!(record.plies(), 3);
    let over = server
        .client()
        .request("GET", "/api/games?status=over", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(over[0]["id"], id.as_str());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn ratings_on_postgres_change_with_rated_results_and_survive_a_restart() {
    use common::rated::*;
    use skillratings::Outcomes;
    use skillratings::glicko2::Glicko2Rating;

    let _one = ONE_AT_A_TIME.lock().await;
    let db = fresh_database().await;
    let server = Server::start_db(db.clone()).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let casual = game_between(&ann, &bob, json!({})).await;
    resign(&bob, &casual).await;
    assert!(ratings(&server, "ann").await.is_empty());
    let first = rated_win(&ann, &bob).await;
    let second = game_between(&ann, &bob, json!({"rated": true, "initial_ms": 60_000})).await;
    agree_draw(&ann, &bob, &second).await;
    server.stop().await;

    let server = Server::start_db(db).await;
    let (ann1, bob1) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::WIN);
    let (ann2, bob2) = expected(Glicko2Rating::new(), Glicko2Rating::new(), Outcomes::DRAW);
    let a = ratings(&server, "ann").await;
    let b = ratings(&server, "bob").await;
    // Ordered by rule set, then class: bullet before rapid.
    assert_eq!(
        (a[0]["class"].as_str(), a[1]["class"].as_str()),
        (Some("bullet"), Some("rapid"))
    );
    assert_rating(&a[0], ann2);
    assert_rating(&a[1], ann1);
    assert_rating(&b[0], bob2);
    assert_rating(&b[1], bob1);
    let board = get(&server, "/api/leaderboard?class=rapid&provisional=true").await;
    assert_eq!(board["players"][0]["name"], "ann");
    assert_eq!(board["players"][1]["name"], "bob");
    let h = get(&server, "/api/players/bob/history?class=rapid").await;
    assert_eq!(h["history"].as_array().unwrap().len(), 1);
    assert_eq!(h["history"][0]["game"], first.as_str());
    assert_rating(&h["history"][0]["after"], bob1);
    assert_eq!(
        get(&server, "/api/players/bob").await["games"],
        json!({"played": 3, "rated": 2})
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn rated_games_ending_at_once_on_postgres_lose_no_rating_update() {
    let _one = ONE_AT_A_TIME.lock().await;
    let server = Server::start_db(fresh_database().await).await;
    common::rated::ends_at_once_keep_every_update(&server).await;
    server.stop().await;
}
