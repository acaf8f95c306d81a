//! Names and sessions (issue 31, item 9): names compared case-insensitively after Unicode
//! normalisation (`alice` and `ALICE` are one account), no `guest-` names for accounts or
//! bots, sessions that expire on the server after a while unused (sliding), and the migration
//! that gives existing names their keys, collisions included.

mod common;

use common::postgres::{ONE_AT_A_TIME, fresh_database};
use common::rated::account;
use common::{Server, fresh_dir};
use serde_json::json;
use sqlx::{Connection, Row};
use umpire_server::accounts::auth::{SESSION_IDLE, SESSION_TOUCH, token_hash};
use umpire_server::store::{Credential, now_ms};
use umpire_server::{Database, Store};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_differing_by_case_are_one_account() {
    let server = Server::start(fresh_dir("names-case")).await;
    account(&server, "alice").await;
    for taken in ["ALICE", "Alice", "ａｌｉｃｅ"] {
        let a = server
            .client()
            .request(
                "POST",
                "/api/register",
                Some(&json!({"name": taken, "password": "password123"})),
            )
            .await
            .unwrap();
        // The full-width name is not a valid name at all; the others are taken.
        assert!(a.status >= 400, "{taken}: {a:?}");
        assert!(matches!(a.code(), Some("name_taken" | "bad_name")), "{a:?}");
    }
    // The owner logs in with any case, and the profile answers to any case.
    let mut c = server.client();
    let me = c.login("ALICE", "password123").await.unwrap();
    assert_eq!(me["name"], "alice");
    let p = server
        .client()
        .request("GET", "/api/players/Alice", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(p["name"], "alice");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_account_or_bot_is_named_like_a_guest() {
    let server = Server::start(fresh_dir("names-guest")).await;
    let owner = account(&server, "owner").await;
    for name in ["guest-abc", "GUEST-abc", "Guest-x1"] {
        let a = owner
            .request("POST", "/api/bots", Some(&json!({"name": name})))
            .await
            .unwrap();
        assert_eq!(a.code(), Some("bad_name"), "bot {name}: {a:?}");
        let a = server
            .client()
            .request(
                "POST",
                "/api/register",
                Some(&json!({"name": name, "password": "password123"})),
            )
            .await
            .unwrap();
        assert_eq!(a.code(), Some("bad_name"), "account {name}: {a:?}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_expire_unused_and_slide_when_used() {
    let dir = fresh_dir("names-sessions");
    let server = Server::start(dir.clone()).await;
    let idle = SESSION_IDLE.as_millis() as i64;
    let touch = SESSION_TOUCH.as_millis() as i64;
    let used = account(&server, "used").await;
    let unused = account(&server, "unused").await;
    let store = Store::open_dir(&dir).await.unwrap();
    // `used` was last seen just inside the idle time, `unused` just outside it.
    let used_hash = token_hash(used.token().unwrap());
    let unused_hash = token_hash(unused.token().unwrap());
    store
        .touch_session(&used_hash, now_ms() - idle + 60_000)
        .await
        .unwrap();
    store
        .touch_session(&unused_hash, now_ms() - idle - 1)
        .await
        .unwrap();
    let me = used.request("GET", "/api/me", None).await.unwrap();
    assert_eq!(me.status, 200, "{me:?}");
    let me = unused.request("GET", "/api/me", None).await.unwrap();
    assert_eq!(me.status, 401, "{me:?}");
    // The expired session is gone from storage; the used one slid to now.
    assert!(
        store
            .user_by_credential(Credential::Session, &unused_hash)
            .await
            .unwrap()
            .is_none()
    );
    let (_, last) = store
        .user_by_credential(Credential::Session, &used_hash)
        .await
        .unwrap()
        .unwrap();
    assert!(
        now_ms() - last < touch,
        "the session's last use did not slide"
    );
    store.close().await;
    server.stop().await;
}

/// Runs migrations 1–5 as text, stores names that collide once compared, then migration 6.
/// A session's idle time is measured on the clock that wrote its times: a server on an
/// injected clock (the hiding suites start theirs in 2027) keeps its sessions whatever the
/// wall clock says. (Measured on the wall clock, a server whose clock stands years back
/// refused every session it had just opened, and the hiding suites would all have failed once
/// the wall clock passed their start by 30 days.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_timed_on_the_servers_own_clock() {
    use umpire_server::store::{ManualClock, TimeSource};
    let long_ago = ManualClock::new(1_500_000_000_000);
    let server = Server::start_timed(fresh_dir("names-clock"), TimeSource::Manual(long_ago)).await;
    let guest = server.guest().await;
    let me = guest.request("GET", "/api/me", None).await.unwrap();
    assert_eq!(me.status, 200, "{me:?}");
    let user = me.ok().unwrap();
    assert!(user["user"]["name"].is_string(), "{user}");
    // A second session opened later does not sweep the first away.
    let other = server.guest().await;
    let me = guest.request("GET", "/api/me", None).await.unwrap();
    assert_eq!(me.status, 200, "{me:?}");
    let me = other.request("GET", "/api/me", None).await.unwrap();
    assert_eq!(me.status, 200, "{me:?}");
    server.stop().await;
}

async fn collisions_migrate(url: &str) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    for sql in [
        include_str!("../migrations/0001_init.sql"),
        include_str!("../migrations/0002_ratings.sql"),
        include_str!("../migrations/0003_end_reasons.sql"),
        include_str!("../migrations/0004_challenges.sql"),
        include_str!("../migrations/0005_withdrawn.sql"),
    ] {
        sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    }
    for (id, name, at) in [
        ("u2", "ALICE", 2),
        ("u1", "alice", 1),
        ("u3", "Alice", 3),
        ("u4", "bob", 4),
    ] {
        sqlx::query(
            "INSERT INTO users (id, name, kind, created_ms) VALUES ($1, $2, 'account', $3)",
        )
        .bind(id)
        .bind(name)
        .bind(at as i64)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_ms) VALUES ('h', 'u4', 77)")
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::raw_sql(include_str!("../migrations/0006_accounts.sql"))
        .execute(&mut conn)
        .await
        .unwrap();
    let rows = sqlx::query("SELECT id, name_key FROM users ORDER BY id")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    let keys: Vec<(String, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    let expected = [
        ("u1", "alice"),
        ("u2", "alice~u2"),
        ("u3", "alice~u3"),
        ("u4", "bob"),
    ];
    assert_eq!(
        keys,
        expected
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    );
    let last: i64 = sqlx::query("SELECT last_ms FROM sessions")
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0);
    assert_eq!(last, 77, "an existing session's last use is its creation");
    conn.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colliding_names_migrate_oldest_first_on_sqlite() {
    let dir = fresh_dir("names-migrate");
    std::fs::create_dir_all(&dir).unwrap();
    collisions_migrate(&format!(
        "sqlite://{}?mode=rwc",
        dir.join("m.sqlite3").display()
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn colliding_names_migrate_oldest_first_on_postgres() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Database::Url(url) = fresh_database().await else {
        unreachable!()
    };
    collisions_migrate(&url).await;
}
