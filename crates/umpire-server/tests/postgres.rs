//! The same code path on PostgreSQL: migrations, accounts, a game played, chat, the record,
//! and a restart that resumes the game. Needs a server: run with
//! `UMPIRE_TEST_POSTGRES=postgres://USER@HOST:PORT/DB cargo test --release -p umpire-server --test postgres -- --ignored`
//! (the database's `public` schema is emptied first).

mod common;

use common::*;
use serde_json::json;
use sqlx::Connection;
use umpire_server::Database;

async fn fresh_database() -> Database {
    let url = std::env::var("UMPIRE_TEST_POSTGRES")
        .expect("set UMPIRE_TEST_POSTGRES=postgres://USER@HOST:PORT/DB to run this test");
    let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::raw_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    Database::Url(url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn a_game_on_postgres_is_stored_replayed_and_resumed() {
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
    let rec = server
        .client()
        .request("GET", &format!("/games/{id}.json"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let record = umpire_rules::record::Record::from_json(&rec.to_string()).unwrap();
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
