//! Finished games do not stay in memory (issue 31, item 14): a finished game's task ends once
//! nobody watches it, and a socket that wakes it later gets the finished game from storage.

mod common;

use std::time::Duration;

use common::{T, ask, fresh_dir};
use serde_json::json;
use umpire_client::client::Client;
use umpire_server::{Database, Options, open_with, serve};

/// Waits until the hub runs `n` game tasks.
async fn running(hub: &umpire_server::game::hub::Hub, n: usize) {
    tokio::time::timeout(T, async {
        while hub.running().await != n {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the hub did not come to {n} running game(s)"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_unloaded_when_nobody_watches() {
    let state = open_with(&Database::Dir(fresh_dir("idle-unload")), Options::default())
        .await
        .unwrap();
    state.hub.set_idle_unload(Duration::from_millis(50));
    let hub = state.hub.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(state, listener, async {
        let _ = stopped.await;
    }));
    let mut white = Client::new(&url).unwrap();
    white.guest().await.unwrap();
    let mut black = Client::new(&url).unwrap();
    black.guest().await.unwrap();
    let g = white.create_game(&json!({"color": "white"})).await.unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    black.join(&id).await.unwrap();
    let mut w = white.socket(&id).await.unwrap();
    w.until("state", T).await.unwrap();
    let over = ask(&mut w, json!({"type": "resign"}), 1).await;
    assert_eq!(over["result"]["score"], "0-1", "{over}");
    // Watched: the task stays; nobody left: it ends.
    assert_eq!(hub.running().await, 1);
    w.close().await;
    running(&hub, 0).await;
    // Woken again from storage, the game is as it ended; then it is unloaded again.
    let mut s = black.socket(&id).await.unwrap();
    let state = s.until("state", T).await.unwrap();
    assert_eq!(state["status"], "over", "{state}");
    assert_eq!(state["result"]["score"], "0-1", "{state}");
    s.close().await;
    running(&hub, 0).await;
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
