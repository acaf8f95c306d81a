//! `umpire serve` as a child process: SIGKILL mid-games loses no acknowledged command; two
//! `umpire bot` processes play a game whose record `umpire record verify` accepts; out of file
//! descriptors it says so clearly and serves again once some are closed.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Reaped, UMPIRE};

use serde_json::json;
use umpire_ai::AgentKind;
use umpire_client::client::Client;
use umpire_client::remote::{PlayStats, play, play_on};

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

/// Starts `umpire serve` on a free port; returns the child (killed when dropped) and its URL.
fn serve(dir: &Path) -> (Reaped, String) {
    serve_on(&Storage::Dir(dir.to_owned()))
}

/// Starts `umpire serve` on a free port over `storage`; returns the child (killed when
/// dropped) and its URL.
fn serve_on(storage: &Storage) -> (Reaped, String) {
    let mut args: Vec<&OsStr> = vec![OsStr::new("--listen"), OsStr::new("127.0.0.1:0")];
    match storage {
        Storage::Dir(dir) => args.extend([OsStr::new("--data"), dir.as_os_str()]),
        Storage::Url(url) => args.extend([OsStr::new("--database"), OsStr::new(url)]),
    }
    common::serve(&args)
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
                // Without reconnecting (`play` would try again for a minute): the server dies
                // under the players.
                let socket = client.socket(&id).await.unwrap();
                let _ = play_on(
                    socket,
                    &AgentKind::Random.into(),
                    g * 2 + side,
                    far,
                    None,
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
    let mut tokens = Vec::new();
    // Two owners: a game between bots of one owner is never rated (rating farming).
    for name in ["bot-a", "bot-b"] {
        let mut owner = Client::new(&url).unwrap();
        owner
            .register(&format!("owner-of-{name}"), "password123")
            .await
            .unwrap();
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
    common::verify_record(&file);
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

/// Waits until `bot` has an open game on the server at `url`, joins it as a guest and resigns;
/// returns the game's id.
async fn beat_by_resigning(url: &str, bot: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    let id = loop {
        let open = Client::new(url)
            .unwrap()
            .request("GET", "/api/games?status=open", None)
            .await
            .unwrap()
            .ok()
            .unwrap();
        let mine = open
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["players"]["white"] == bot || g["players"]["black"] == bot);
        if let Some(g) = mine {
            break g["id"].as_str().unwrap().to_owned();
        }
        assert!(Instant::now() < deadline, "{bot} opened no game");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut guest = Client::new(url).unwrap();
    guest.guest().await.unwrap();
    guest.join(&id).await.unwrap();
    let mut s = guest.socket(&id).await.unwrap();
    s.until("state", Duration::from_secs(30)).await.unwrap();
    s.send(&json!({"type": "resign", "id": 1})).await.unwrap();
    loop {
        let v = s.next_within(Duration::from_secs(30)).await.unwrap();
        if v["reply_to"] == 1 {
            assert!(v["result"]["score"].is_string(), "{v}");
            break;
        }
    }
    id
}

/// Issue 14, point 4: `umpire bot --register NAME --owner ACCOUNT` makes its own bot account
/// (the owner's password read from stdin, never printed), prints the token once, saves it in a
/// file only the user may read, and plays; the next run reads the token from
/// `UMPIRE_BOT_TOKEN`; registering again never overwrites the saved token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn umpire_bot_registers_its_own_account_and_keeps_its_token() {
    let dir = fresh_dir("bot-register");
    let cwd = dir.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let (_server, url) = serve(&dir.join("data"));
    let password = "owner's secret pw";
    let mut owner = Client::new(&url).unwrap();
    owner.register("owner", password).await.unwrap();
    let bot_args = ["--create", "wild16", "--agent", "random", "--games", "1"];
    let spawn = |extra: &[&str], env_token: Option<&str>| {
        let mut c = Command::new(UMPIRE);
        c.current_dir(&cwd)
            .args(["bot", "--server", &url])
            .args(extra)
            .args(bot_args)
            .env_remove("UMPIRE_BOT_TOKEN")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(t) = env_token {
            c.env("UMPIRE_BOT_TOKEN", t);
        }
        Reaped(c.spawn().unwrap())
    };
    let output = |mut child: Reaped| {
        use std::io::Read;
        let (mut out, mut err) = (String::new(), String::new());
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        (status.success(), out, err)
    };
    let mut first = spawn(&["--register", "botty", "--owner", "owner"], None);
    {
        use std::io::Write;
        let mut stdin = first.stdin.take().unwrap();
        writeln!(stdin, "{password}").unwrap();
    }
    let game = beat_by_resigning(&url, "botty").await;
    let (ok, out, err) = output(first);
    assert!(ok, "{out}\n{err}");
    assert!(
        !out.contains(password) && !err.contains(password),
        "{out}\n{err}"
    );
    let token = out
        .lines()
        .find_map(|l| l.strip_prefix("Its API token (shown once): "))
        .unwrap_or_else(|| panic!("no token in:\n{out}"))
        .to_owned();
    assert_eq!(
        out.matches(&token).count(),
        1,
        "the token is shown once: {out}"
    );
    assert!(out.contains("Saved in umpire-bot-botty.token"), "{out}");
    assert!(
        out.contains(&format!("{game} 1-0 resignation"))
            || out.contains(&format!("{game} 0-1 resignation")),
        "{out}"
    );
    let file = cwd.join("umpire-bot-botty.token");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!("{token}\n")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let me = Client::new(&url)
        .unwrap()
        .with_token(&token)
        .request("GET", "/api/me", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(me["user"]["name"], "botty");
    assert_eq!(me["user"]["kind"], "bot");

    // The next run takes the token from the environment.
    let second = spawn(&[], Some(&token));
    let game = beat_by_resigning(&url, "botty").await;
    let (ok, out, err) = output(second);
    assert!(ok, "{out}\n{err}");
    assert!(out.starts_with(&game), "{out}");

    // Registering again with the saved file in place is refused before anything is asked or
    // registered; without any token the bot says how to give one.
    let (ok, _, err) = output(spawn(
        &[
            "--register",
            "botty2",
            "--owner",
            "owner",
            "--token-file",
            "umpire-bot-botty.token",
        ],
        None,
    ));
    assert!(!ok);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!("{token}\n")
    );
    let (ok, _, err) = output(spawn(&[], None));
    assert!(!ok);
    assert!(
        err.contains("UMPIRE_BOT_TOKEN") && err.contains("--register"),
        "{err}"
    );
    let players = Client::new(&url)
        .unwrap()
        .request("GET", "/api/players/botty2", None)
        .await
        .unwrap();
    assert_eq!(players.status, 404, "no second bot was registered");
}

/// `umpire serve` on a fresh data directory named after `tag`, started by `sh` after the shell
/// command `ulimit` (which lowers its open-files limit); its output piped.
fn serve_under(ulimit: &str, tag: &str) -> Reaped {
    let dir = fresh_dir(tag);
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{ulimit} && exec \"$0\" serve --listen 127.0.0.1:0 --data \"$1\""
        ))
        .arg(UMPIRE)
        .arg(&dir)
        .env("UMPIRE_TABLES", "lazy")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Reaped(child)
}

/// Under a low descriptor limit (`ulimit -n 48`, soft and hard) a client holding many idle
/// connections makes `accept` fail: the server logs a clear line saying it refuses
/// connections for lack of descriptors, answers those it cannot keep `503 server_full` (with
/// the descriptor it keeps aside) rather than leave them waiting, and serves again once the
/// others are closed.
#[test]
fn running_out_of_descriptors_is_logged_clearly_and_survived() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;

    let mut child = serve_under("ulimit -n 48", "emfile");
    let url = common::listening_url(&mut child);
    let addr = url
        .strip_prefix("http://")
        .unwrap_or_else(|| panic!("not an http URL: {url:?}"))
        .to_owned();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let held: Vec<TcpStream> = (0..80)
        .filter_map(|_| TcpStream::connect(&addr).ok())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    let logged = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) if l.contains("out of file descriptors") => break l,
            Ok(_) => continue,
            Err(_) => panic!("no log line about file descriptors"),
        }
    };
    assert!(logged.contains("ulimit"), "{logged}");
    // The connections beyond the limit were answered at once and closed.
    std::thread::sleep(Duration::from_millis(500));
    let mut told = 0;
    for mut s in held.iter() {
        let _ = s.set_read_timeout(Some(Duration::from_millis(20)));
        let mut answer = [0u8; 512];
        if let Ok(n) = s.read(&mut answer)
            && n > 0
        {
            let text = String::from_utf8_lossy(&answer[..n]);
            assert!(text.starts_with("HTTP/1.1 503 "), "{text}");
            assert!(text.contains("server_full"), "{text}");
            told += 1;
        }
    }
    assert!(told > 0, "no connection was told the server is full");
    drop(held);
    let mut served = false;
    for _ in 0..100 {
        if let Ok(mut s) = TcpStream::connect(&addr) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = s.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let mut answer = String::new();
            let _ = s.read_to_string(&mut answer);
            if answer.starts_with("HTTP/1.1 200") {
                served = true;
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(served, "the server serves again once descriptors are free");
}

/// The hard open-files limit of this process (`/proc/self/limits`), where there is one.
fn hard_open_files() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(4)?.parse().ok()
}

/// Started with a low soft open-files limit (`ulimit -S -n 64`) and the hard one as it is,
/// `umpire serve` raises the soft limit to the hard one and logs it with the games it leaves
/// room for (two sockets each).
#[test]
fn the_open_files_limit_is_raised_to_the_hard_one_and_logged() {
    use std::io::{BufRead, BufReader};

    let Some(hard) = hard_open_files().filter(|&h| h > 64) else {
        eprintln!("no /proc/self/limits or a hard limit of 64 or less: nothing to raise");
        return;
    };
    let mut child = serve_under("ulimit -S -n 64", "nofile");
    let stderr = child.stderr.take().unwrap();
    let line = BufReader::new(stderr)
        .lines()
        .map_while(Result::ok)
        .find(|l| l.contains("open-files limit"))
        .expect("a log line about the open-files limit");
    // An unlimited hard limit is taken as far as the kernel allows.
    if hard < 1 << 32 {
        assert!(
            line.contains(&format!("raised from 64 to the hard limit {hard}")),
            "{line}"
        );
        let games = (hard - 64) / 2;
        assert!(
            line.contains(&format!("room for about {games} live games")),
            "{line}"
        );
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", child.id())).unwrap();
        let soft: Vec<&str> = limits
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(soft[3], hard.to_string(), "{limits}");
    } else {
        assert!(line.contains("raised from 64"), "{line}");
    }
}
