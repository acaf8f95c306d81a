//! A server in the test process, on a fresh SQLite directory.

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use umpire_client::client::{Client, GameSocket};
use umpire_server::{Database, open_with, serve};

/// A running server.
pub struct Server {
    pub url: String,
    pub dir: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), String>>>,
}

pub const T: Duration = Duration::from_secs(20);

/// A fresh data directory for test `name`.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-server-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl Server {
    /// Starts a server on `dir` (rebuilding what is stored there).
    pub async fn start(dir: PathBuf) -> Server {
        let mut s = Server::start_db(Database::Dir(dir.clone())).await;
        s.dir = dir;
        s
    }

    /// Starts a server on `database` (rebuilding what is stored there).
    pub async fn start_db(database: Database) -> Server {
        Server::start_with(database, umpire_server::game::round::ABANDON_AFTER).await
    }

    /// Starts a server on `database` with these options.
    pub async fn start_options(database: Database, options: umpire_server::Options) -> Server {
        let dir = match &database {
            Database::Dir(d) => d.clone(),
            Database::Url(_) => PathBuf::new(),
        };
        let state = open_with(&database, options).await.expect("open");
        Server::serving(state, dir).await
    }

    /// Starts a server on `database` with this abandonment timeout.
    pub async fn start_with(database: Database, abandon_after: Duration) -> Server {
        let dir = match &database {
            Database::Dir(d) => d.clone(),
            Database::Url(_) => PathBuf::new(),
        };
        let options = umpire_server::Options {
            abandon_after,
            ..Default::default()
        };
        let state = open_with(&database, options).await.expect("open");
        Server::serving(state, dir).await
    }

    /// Starts a server on `dir` that reads the time from `time` (a hand-turned clock).
    pub async fn start_timed(dir: PathBuf, time: umpire_server::store::TimeSource) -> Server {
        let state = umpire_server::open_timed(
            &Database::Dir(dir.clone()),
            umpire_server::Options::default(),
            time,
        )
        .await
        .expect("open");
        Server::serving(state, dir).await
    }

    /// Starts a server on `dir` listening on `addr` (`HOST:PORT`, e.g. a stopped server's).
    pub async fn start_at(dir: PathBuf, addr: &str) -> Server {
        let state = open_with(
            &Database::Dir(dir.clone()),
            umpire_server::Options::default(),
        )
        .await
        .expect("open");
        Server::serving_at(state, dir, addr).await
    }

    /// Serves `state` (opened by the test, which may keep parts of it) from `dir`.
    pub async fn serving(state: umpire_server::AppState, dir: PathBuf) -> Server {
        Server::serving_at(state, dir, "127.0.0.1:0").await
    }

    async fn serving_at(state: umpire_server::AppState, dir: PathBuf, addr: &str) -> Server {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (stop, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(state, listener, async {
            let _ = rx.await;
        }));
        Server {
            url,
            dir,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A client of this server.
    pub fn client(&self) -> Client {
        Client::new(&self.url).unwrap()
    }

    /// A new guest.
    pub async fn guest(&self) -> Client {
        let mut c = self.client();
        c.guest().await.unwrap();
        c
    }

    /// Stops gracefully.
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.task.take() {
            t.await.unwrap().unwrap();
        }
    }
}

/// Creates a game between two guests (white creates, black joins); returns (white, black, id).
pub async fn two_player_game(server: &Server, spec: Value) -> (Client, Client, String) {
    let white = server.guest().await;
    let black = server.guest().await;
    let mut spec = spec;
    spec["color"] = json!("white");
    let g = white.create_game(&spec).await.unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    assert_eq!(g["status"], "open");
    let j = black.join(&id).await.unwrap();
    assert_eq!(j["you"], "black");
    assert_eq!(j["status"], "live");
    (white, black, id)
}

/// Opens a socket and reads its `state` frame.
pub async fn socket(client: &Client, id: &str) -> (GameSocket, Value) {
    let mut s = client.socket(id).await.unwrap();
    let state = s.next_within(T).await.unwrap();
    assert_eq!(state["type"], "state", "{state}");
    (s, state)
}

/// Sends a frame with an id and returns the frame that answers it (update, relist or error).
pub async fn ask(s: &mut GameSocket, mut frame: Value, id: u64) -> Value {
    frame["id"] = json!(id);
    s.send(&frame).await.unwrap();
    tokio::time::timeout(T, async {
        loop {
            let v = s.next().await.unwrap();
            if v["reply_to"] == json!(id) {
                return v;
            }
        }
    })
    .await
    .expect("an answer")
}

pub mod postgres;
pub mod proxy;
pub mod rated;
pub mod raw_http;
pub mod typed_moves;

/// The record `GET /games/ID.json` gives `client`, parsed (it must be served and readable).
pub async fn stored_record(client: &Client, id: &str) -> umpire_rules::record::Record {
    let rec = client
        .request("GET", &format!("/games/{id}.json"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    umpire_rules::record::Record::from_json(&rec.to_string()).unwrap()
}
