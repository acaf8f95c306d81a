//! The memory a running game costs the server does not depend on how many games run, and is
//! kept small: each game task's future (allocated once per game when the task is spawned)
//! holds no whole copy of the game besides the one it works on, and the messages to a game,
//! whose queue reserves room for 32 of them when its first arrives, are small.

mod common;

use tokio::sync::mpsc;
use umpire_server::Store;
use umpire_server::game::round::{Round, RoundMsg};
use umpire_server::store::{GameRow, now_ms};

use common::fresh_dir;

/// A game task's future may take at most this many bytes besides the boxed game.
const TASK_FUTURE_LIMIT: usize = 4 * 1024;

/// A message to a game task may take at most this many bytes (its largest variant, an
/// attempt with its text and the channel of its answer, takes 64 on 64-bit targets).
const MESSAGE_LIMIT: usize = 80;

fn live_game(id: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        rules: "wild16".to_owned(),
        fen: umpire_rules::record::STANDARD_FEN.to_owned(),
        users: [None, None],
        agents: [None, None],
        agent_seed: 0,
        initial_ms: 600_000,
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

#[tokio::test]
async fn a_game_task_future_is_small_and_holds_no_second_game() {
    let dir = fresh_dir("task-size");
    let store = Store::open_dir(&dir).await.unwrap();
    let row = live_game("g-size");
    store.insert_game(&row).await.unwrap();
    let round = Round::load(store.clone(), row, ["?".into(), "?".into()])
        .await
        .unwrap();
    let (_tx, rx) = mpsc::channel(1);
    // Never polled: only its size is looked at, then it is dropped.
    let task = Box::new(round).run(rx);
    let bytes = std::mem::size_of_val(&task);
    eprintln!(
        "a game task future: {bytes} bytes (a game: {} bytes, boxed)",
        std::mem::size_of::<Round>()
    );
    assert!(
        bytes < std::mem::size_of::<Round>(),
        "a game task's future takes {bytes} bytes, more than a whole game ({} bytes)",
        std::mem::size_of::<Round>()
    );
    assert!(
        bytes <= TASK_FUTURE_LIMIT,
        "a game task's future takes {bytes} bytes (limit {TASK_FUTURE_LIMIT})"
    );
    drop(task);
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_message_to_a_game_is_small() {
    let bytes = std::mem::size_of::<RoundMsg>();
    eprintln!("a message to a game: {bytes} bytes");
    assert!(
        bytes <= MESSAGE_LIMIT,
        "a message to a game takes {bytes} bytes (limit {MESSAGE_LIMIT})"
    );
}
