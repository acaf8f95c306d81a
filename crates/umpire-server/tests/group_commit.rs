//! Group commit: commands of many games sent at once share transactions, yet each is
//! acknowledged only once it is committed, and a command that cannot be stored spoils no other.

mod common;

use std::sync::Arc;

use sqlx::{Connection, SqliteConnection};
use umpire_server::Store;
use umpire_server::store::{CommandRow, GameRow, now_ms};

use common::fresh_dir;

const GAMES: usize = 8;
const COMMANDS: i64 = 40;

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        rules: "berkeley".to_owned(),
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned(),
        users: [None, None],
        agents: [Some("random".to_owned()), Some("random".to_owned())],
        agent_seed: 0,
        initial_ms: 60_000,
        increment_ms: 0,
        status: "live".to_owned(),
        result: None,
        reason: None,
        created_ms: now_ms(),
        rated: false,
        practice: false,
        opponent: None,
    }
}

fn command(seq: i64) -> CommandRow {
    CommandRow {
        seq,
        side: if seq % 2 == 0 { "white" } else { "black" }.to_owned(),
        command: "any".to_owned(),
        clock_ms: 60_000 - seq,
        at_ms: now_ms(),
    }
}

/// Whether another connection (not the writer's) sees command `seq` of `game`: true only once
/// the transaction holding it is committed.
async fn visible(db: &mut SqliteConnection, game: &str, seq: i64) -> bool {
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM commands WHERE game_id = $1 AND seq = $2")
            .bind(game)
            .bind(seq)
            .fetch_one(db)
            .await
            .unwrap();
    n == 1
}

async fn open(name: &str) -> (Store, String) {
    let dir = fresh_dir(name);
    let store = Store::open_dir(&dir).await.unwrap();
    let url = format!("sqlite://{}", dir.join("umpire.sqlite3").display());
    (store, url)
}

#[tokio::test]
async fn concurrent_commands_share_transactions_and_each_is_acknowledged_after_its_commit() {
    let (store, url) = open("group-commit").await;
    for g in 0..GAMES {
        store.insert_game(&game(&format!("g{g}"))).await.unwrap();
    }
    let store = Arc::new(store);
    let mut tasks = Vec::new();
    for g in 0..GAMES {
        let (store, url) = (store.clone(), url.clone());
        tasks.push(tokio::spawn(async move {
            let id = format!("g{g}");
            let mut db = SqliteConnection::connect(&url).await.unwrap();
            for seq in 0..COMMANDS {
                store
                    .append_command(&id, &command(seq), None)
                    .await
                    .unwrap();
                // Acknowledged: another connection must already see it.
                assert!(
                    visible(&mut db, &id, seq).await,
                    "{id} #{seq} acknowledged before its commit"
                );
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let total = GAMES as u64 * COMMANDS as u64;
    for g in 0..GAMES {
        let rows = store.commands(&format!("g{g}")).await.unwrap();
        let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, (0..COMMANDS).collect::<Vec<_>>(), "game g{g}");
        assert_eq!(
            rows[7],
            CommandRow {
                at_ms: rows[7].at_ms,
                ..command(7)
            }
        );
    }
    let (transactions, commands) = store.commit_counts();
    assert_eq!(commands, total);
    // The games' commands were sent together, so some shared a transaction.
    assert!(
        transactions < commands,
        "{transactions} transactions for {commands} commands"
    );
    store.close().await;
}

#[tokio::test]
async fn a_command_that_cannot_be_stored_fails_alone_in_its_batch() {
    let (store, url) = open("group-commit-bad").await;
    for id in ["a", "b"] {
        store.insert_game(&game(id)).await.unwrap();
    }
    store.append_command("a", &command(0), None).await.unwrap();
    let store = Arc::new(store);
    // Sent together: a duplicate of a's command 0 (refused by the primary key) and b's first.
    let (s1, s2) = (store.clone(), store.clone());
    let dup = tokio::spawn(async move { s1.append_command("a", &command(0), None).await });
    let good = tokio::spawn(async move { s2.append_command("b", &command(0), None).await });
    assert!(dup.await.unwrap().is_err());
    good.await.unwrap().unwrap();
    let mut db = SqliteConnection::connect(&url).await.unwrap();
    assert!(visible(&mut db, "b", 0).await);
    assert_eq!(store.commands("a").await.unwrap().len(), 1);
    assert_eq!(store.commit_counts(), (2, 2));
    store.close().await;
}
