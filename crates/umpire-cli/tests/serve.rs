//! `umpire serve` as a child process: SIGKILL mid-games loses no acknowledged command; two
//! `umpire bot` processes play a game whose record `umpire record verify` accepts.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use umpire_ai::AgentKind;
use umpire_server::client::Client;
use umpire_server::remote::{PlayStats, play};

const UMPIRE: &str = env!("CARGO_BIN_EXE_umpire");

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-cli-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Where a test server keeps its data.
enum Storage {
    /// SQLite in this directory.
    Dir(PathBuf),
    /// This database URL (PostgreSQL).
    Url(String),
}

/// Starts `umpire serve` on a free port; returns the child and its URL.
fn serve(dir: &Path) -> (Child, String) {
    serve_on(&Storage::Dir(dir.to_owned()))
}

/// Starts `umpire serve` on a free port over `storage`; returns the child and its URL.
fn serve_on(storage: &Storage) -> (Child, String) {
    let mut command = Command::new(UMPIRE);
    command.args(["serve", "--listen", "127.0.0.1:0"]);
    match storage {
        Storage::Dir(dir) => command.arg("--data").arg(dir),
        Storage::Url(url) => command.args(["--database", url]),
    };
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("umpire serve: listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (child, url)
}

async fn own_commands(url: &str, token: &str, game: &str) -> usize {
    let client = Client::new(url).unwrap().with_token(token);
    let mut s = client.socket(game).await.unwrap();
    let state = s.until("state", Duration::from_secs(20)).await.unwrap();
    state["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| !o["own"].is_null())
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_games_loses_no_acknowledged_command() {
    sigkill_mid_games(Storage::Dir(fresh_dir("crash"))).await;
}

/// The same on PostgreSQL (`.ci/run` starts one and sets `UMPIRE_TEST_POSTGRES`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn sigkill_mid_games_on_postgres_loses_no_acknowledged_command() {
    let url = std::env::var("UMPIRE_TEST_POSTGRES")
        .expect("set UMPIRE_TEST_POSTGRES=postgres://USER@HOST:PORT/DB to run this test");
    sigkill_mid_games(Storage::Url(url)).await;
}

/// Plays games from several clients, kills the server with SIGKILL mid-games, restarts it,
/// and finds every acknowledged command stored and the games going on.
async fn sigkill_mid_games(storage: Storage) {
    let (mut child, url) = serve_on(&storage);
    let mut games = Vec::new();
    let mut tasks = Vec::new();
    for g in 0..4u64 {
        let mut a = Client::new(&url).unwrap();
        a.guest().await.unwrap();
        let mut b = Client::new(&url).unwrap();
        b.guest().await.unwrap();
        let id = a
            .create_game(&json!({"color":"white","initial_ms": 3_600_000}))
            .await
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        b.join(&id).await.unwrap();
        for (side, client) in [(0, a), (1, b)] {
            let id = id.clone();
            let token = client.token().unwrap().to_owned();
            games.push((id.clone(), token));
            tasks.push(tokio::spawn(async move {
                let mut stats = PlayStats::default();
                let far = Some(Instant::now() + Duration::from_secs(600));
                let _ = play(
                    &client,
                    &id,
                    &AgentKind::Random.into(),
                    g * 2 + side,
                    far,
                    &mut stats,
                )
                .await;
                stats
            }));
        }
    }
    // Let the games run, then kill the server without warning.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let mut stats = Vec::new();
    for t in tasks {
        stats.push(t.await.unwrap());
    }
    assert!(
        stats.iter().map(|s| s.acknowledged).sum::<u64>() > 20,
        "the games hardly ran: {stats:?}"
    );

    let (mut child, url) = serve_on(&storage);
    for ((id, token), s) in games.iter().zip(&stats) {
        let stored = own_commands(&url, token, id).await as u64;
        assert!(
            s.acknowledged <= stored && stored <= s.sent,
            "game {id}: {} acknowledged, {} sent, {stored} stored",
            s.acknowledged,
            s.sent
        );
    }
    // The games go on after the restart.
    let (id, token) = &games[0];
    let client = Client::new(&url).unwrap().with_token(token);
    let mut stats = PlayStats::default();
    let soon = Some(Instant::now() + Duration::from_millis(300));
    play(&client, id, &AgentKind::Random.into(), 9, soon, &mut stats)
        .await
        .unwrap();
    assert!(stats.acknowledged >= 1 || stats.sent == 0);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_umpire_bot_processes_play_and_the_record_verifies() {
    let dir = fresh_dir("bots");
    let (mut child, url) = serve(&dir);
    let mut owner = Client::new(&url).unwrap();
    owner.register("owner", "password123").await.unwrap();
    let mut tokens = Vec::new();
    for name in ["bot-a", "bot-b"] {
        let b = owner
            .request("POST", "/api/bots", Some(&json!({"name": name})))
            .await
            .unwrap()
            .ok()
            .unwrap();
        tokens.push(b["token"].as_str().unwrap().to_owned());
    }
    let creator = Command::new(UMPIRE)
        .args([
            "bot", "--server", &url, "--token", &tokens[0], "--agent", "random",
        ])
        .args(["--create", "wild16", "--rated", "--seed", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let joiner = Command::new(UMPIRE)
        .args([
            "bot",
            "--server",
            &url,
            "--token",
            &tokens[1],
            "--agent",
            "guided-random",
        ])
        .args(["--seed", "2"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let a = creator.wait_with_output().unwrap();
    let b = joiner.wait_with_output().unwrap();
    assert!(a.status.success() && b.status.success());
    let a = String::from_utf8(a.stdout).unwrap();
    let b = String::from_utf8(b.stdout).unwrap();
    assert_eq!(a, b, "both bots report the same game and result");
    let id = a.split_whitespace().next().unwrap();
    let record = Client::new(&url)
        .unwrap()
        .request("GET", &format!("/games/{id}.json"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let file = dir.join("game.json");
    std::fs::write(&file, record.to_string()).unwrap();
    let verify = Command::new(UMPIRE)
        .args(["record", "verify"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    // `--rated`: both bot accounts now have a rating after one game.
    for name in ["bot-a", "bot-b"] {
        let p = Client::new(&url)
            .unwrap()
            .request("GET", &format!("/api/players/{name}"), None)
            .await
            .unwrap()
            .ok()
            .unwrap();
        assert_eq!(p["games"], json!({"played": 1, "rated": 1}), "{p}");
        assert_eq!(p["ratings"][0]["games"], 1, "{p}");
    }
    child.kill().unwrap();
    child.wait().unwrap();
}
