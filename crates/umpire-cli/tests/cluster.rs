//! Several `umpire serve` nodes on one PostgreSQL database (`docs/CLUSTER.md`): a node is
//! refused on SQLite before anything is created; three nodes behind HAProxy (the shipped
//! `deploy/haproxy.cfg`, with free ports put in) share the lobby, and a game played through
//! HAProxy while its owner is killed goes on on another node with every acknowledged command
//! stored and its record verifying. The latter needs PostgreSQL and Debian's `haproxy`:
//! `UMPIRE_TEST_POSTGRES=postgres://… cargo test --profile ci -p umpire-cli --test cluster --
//! --ignored` (`scripts/test.sh` runs it when `.ci/run` gives a database).

mod common;

use std::ffi::OsStr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::terminal::Terminal;
use common::{Reaped, UMPIRE};
use serde_json::{Value, json};
use umpire_ai::AgentKind;
use umpire_client::client::Client;
use umpire_client::remote::{PlayStats, play};

/// `--node-id` on SQLite (the default storage) is refused with a message that says what to
/// give instead, and no data directory is made.
#[test]
fn a_node_on_sqlite_is_refused_clearly() {
    let dir = std::env::temp_dir().join(format!("umpire-cluster-refused-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(UMPIRE)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--node-id",
            "a",
            "--data",
        ])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--database postgres://"), "{err}");
    assert!(err.contains("SQLite"), "{err}");
    assert!(!dir.exists(), "a refused node made {}", dir.display());
    let out = Command::new(UMPIRE)
        .args(["serve", "--listen", "127.0.0.1:0", "--node-id", "a"])
        .args(["--database", "sqlite:///tmp/none.sqlite3"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--database postgres://"));
}

/// Free loopback ports (bound then let go: the children bind them right after).
fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    held.iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// Starts node `name` on `port` over the database `db`.
fn node(db: &str, name: &str, port: u16) -> Reaped {
    let listen = format!("127.0.0.1:{port}");
    let words = [
        "--listen",
        &listen,
        "--database",
        db,
        "--node-id",
        name,
        "--trust-proxy",
        "127.0.0.1",
        "--abandon-seconds",
        "600",
    ];
    let args: Vec<&OsStr> = words.iter().map(OsStr::new).collect();
    common::serve(&args).0
}

/// Starts HAProxy on the shipped configuration, its example ports replaced by `front` and
/// `nodes`; returns the child and the site's URL.
fn haproxy(front: u16, nodes: &[u16]) -> (Reaped, String) {
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../deploy/haproxy.cfg"
    ))
    .unwrap();
    let mut cfg = shipped.replace("127.0.0.1:8080", &format!("127.0.0.1:{front}"));
    for (k, port) in nodes.iter().enumerate() {
        cfg = cfg.replace(
            &format!("127.0.0.1:{}", 8081 + k),
            &format!("127.0.0.1:{port}"),
        );
    }
    let file = std::env::temp_dir().join(format!("umpire-haproxy-{}.cfg", std::process::id()));
    std::fs::write(&file, cfg).unwrap();
    let child = Command::new("haproxy")
        .arg("-db")
        .arg("-f")
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("haproxy (Debian's package) must be installed: .ci/run installs it");
    (Reaped(child), format!("http://127.0.0.1:{front}"))
}

/// Runs `sql` on the database with `psql` (one value per line).
fn psql(db: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .arg(db)
        .args(["-tAc", sql])
        .output()
        .expect("psql");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The node that owns `game` (holds its advisory lock), if any.
fn owner(db: &str, game: &str) -> Option<String> {
    let name = psql(
        db,
        &format!(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
             WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
             AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('{game}', 0)"
        ),
    );
    name.strip_prefix("umpire:").map(str::to_owned)
}

fn stored(db: &str, game: &str) -> u64 {
    psql(
        db,
        &format!("SELECT count(*) FROM commands WHERE game_id = '{game}'"),
    )
    .parse()
    .unwrap()
}

/// Reads frames of `feed` until an `added` one for `game`.
async fn sees_added(
    feed: &mut umpire_client::client::GameSocket,
    game: &str,
) -> Result<(), String> {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        let v = feed.next_within(Duration::from_secs(20)).await?;
        if v["type"] == "added" && v["challenge"]["id"] == game {
            return Ok(());
        }
    }
    Err(format!("no `added` of {game}"))
}

/// Two guests through `front`, and a game White made and Black joined with `initial_ms` on
/// each clock: (white, black, the game's id).
async fn two_guests_and_a_game(front: &str, initial_ms: u64) -> (Client, Client, String) {
    let mut white = Client::new(front).unwrap();
    white.guest().await.unwrap();
    let mut black = Client::new(front).unwrap();
    black.guest().await.unwrap();
    let id = white
        .create_game(&json!({"color": "white", "initial_ms": initial_ms}))
        .await
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (white, black, id)
}

async fn own_commands(url: &str, token: &str, game: &str) -> u64 {
    let client = Client::new(url).unwrap().with_token(token);
    let mut s = client.socket(game).await.unwrap();
    let state = s.until("state", Duration::from_secs(20)).await.unwrap();
    state["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| !o["own"].is_null())
        .count() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL (UMPIRE_TEST_POSTGRES) and haproxy: pass --ignored"]
async fn three_nodes_behind_haproxy_share_the_lobby_and_a_killed_owner_loses_no_move() {
    let db = std::env::var("UMPIRE_TEST_POSTGRES").expect("set UMPIRE_TEST_POSTGRES");
    let ports = free_ports(4);
    let mut nodes: Vec<Option<Reaped>> = (0..3)
        .map(|k| Some(node(&db, &format!("n{}", k + 1), ports[k + 1])))
        .collect();
    let node_urls: Vec<String> = ports[1..]
        .iter()
        .map(|p| format!("http://127.0.0.1:{p}"))
        .collect();
    let (_proxy, front) = haproxy(ports[0], &ports[1..]);
    // HAProxy up, every node healthy.
    let ready = Instant::now() + Duration::from_secs(20);
    loop {
        let ok = Client::new(&front)
            .unwrap()
            .request("GET", "/api/health", None)
            .await
            .is_ok_and(|a| a.status == 200);
        if ok {
            break;
        }
        assert!(Instant::now() < ready, "HAProxy never answered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;

    // The lobby: a feed on every node sees a challenge made through HAProxy.
    let mut feeds = Vec::new();
    for url in &node_urls {
        let mut feed = Client::new(url).unwrap().lobby().await.unwrap();
        feed.until("lobby", Duration::from_secs(20)).await.unwrap();
        feeds.push(feed);
    }
    let (white, black, id) = two_guests_and_a_game(&front, 3_600_000).await;
    for (k, feed) in feeds.iter_mut().enumerate() {
        sees_added(feed, &id)
            .await
            .unwrap_or_else(|e| panic!("node {k}: {e}"));
    }
    black.join(&id).await.unwrap();

    // The game through HAProxy, its players reconnecting; its owner killed mid-game.
    let mut tasks = Vec::new();
    for (seed, client) in [(1u64, white.clone()), (2, black.clone())] {
        let id = id.clone();
        tasks.push(tokio::spawn(async move {
            let mut stats = PlayStats::default();
            let until = Some(Instant::now() + Duration::from_secs(14));
            let ended = play(
                &client,
                &id,
                &AgentKind::Random.into(),
                seed,
                until,
                &mut stats,
            )
            .await;
            (ended.map(|e| e.result), stats)
        }));
    }
    // Random players end a game within seconds: kill its owner early on.
    let started = Instant::now() + Duration::from_secs(20);
    while stored(&db, &id) < 10 {
        assert!(Instant::now() < started, "the game never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let first = owner(&db, &id).expect("the game has an owner");
    let k: usize = first.trim_start_matches('n').parse::<usize>().unwrap() - 1;
    let before = stored(&db, &id);
    let over_at_kill = psql(&db, &format!("SELECT status FROM games WHERE id = '{id}'"));
    if let Some(mut killed) = nodes[k].take() {
        killed.kill().unwrap();
        killed.wait().unwrap();
    }
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }
    let after = stored(&db, &id);
    eprintln!(
        "owner {first} killed with {before} commands stored ({over_at_kill}); {after} at the end"
    );
    assert_eq!(
        over_at_kill, "live",
        "the game ended before its owner was killed"
    );
    assert!(
        before > 4,
        "the game hardly ran before the kill: {before} commands"
    );
    for (ended, stats) in &results {
        assert!(ended.is_ok(), "a player gave up: {ended:?} {stats:?}");
    }
    let finished_early = results
        .iter()
        .any(|(e, _)| e.as_ref().is_ok_and(|r| !r.is_null()));
    assert!(
        after > before || finished_early,
        "the game did not go on after its owner died: {before} then {after} commands"
    );
    let second = owner(&db, &id);
    assert_ne!(
        second.as_deref(),
        Some(first.as_str()),
        "the dead node still owns it"
    );
    // Every acknowledged command is stored.
    for ((_, stats), client) in results.iter().zip([&white, &black]) {
        let own = own_commands(&front, client.token().unwrap(), &id).await;
        assert!(
            stats.acknowledged <= own && own <= stats.sent,
            "{} acknowledged, {} sent, {own} stored",
            stats.acknowledged,
            stats.sent
        );
    }
    // The game ends on the new owner and its record verifies.
    if !finished_early {
        let mut s = white.socket(&id).await.unwrap();
        s.until("state", Duration::from_secs(20)).await.unwrap();
        s.send(&json!({"type": "resign"})).await.unwrap();
        s.until("game_over", Duration::from_secs(20)).await.unwrap();
    }
    let record: Value = Client::new(&front)
        .unwrap()
        .request("GET", &format!("/games/{id}.json"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let file = std::env::temp_dir().join(format!("umpire-cluster-{id}.json"));
    std::fs::write(&file, record.to_string()).unwrap();
    common::verify_record(&file);
}

/// Three nodes behind HAProxy; returns them (by index, `n1` to `n3`), HAProxy and the site's
/// URL once HAProxy takes connections and has had time to see every node up.
fn three_nodes(db: &str) -> (Vec<Option<Reaped>>, Vec<u16>, Reaped, String) {
    let ports = free_ports(4);
    let nodes: Vec<Option<Reaped>> = (0..3)
        .map(|k| Some(node(db, &format!("n{}", k + 1), ports[k + 1])))
        .collect();
    let (proxy, front) = haproxy(ports[0], &ports[1..]);
    let ready = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", ports[0])).is_err() {
        assert!(Instant::now() < ready, "HAProxy never listened");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Health checks every second, a node up after two good ones.
    std::thread::sleep(Duration::from_secs(3));
    (nodes, ports, proxy, front)
}

/// `umpire connect` through HAProxy, in a game against a house agent, goes on after the node
/// that runs the game is killed with SIGKILL: it says the connection was lost, reconnects
/// (to another node, which took the game over and replayed it), its next move is played, and
/// the record it downloads at the end holds the moves from before and after the kill. (`umpire
/// bot` plays its games through `umpire_client::remote::play`, which the test above drives
/// through the same kind of kill.)
#[test]
#[ignore = "needs PostgreSQL (UMPIRE_TEST_POSTGRES) and haproxy: pass --ignored"]
fn connect_resumes_on_another_node_after_its_games_owner_is_killed() {
    let db = std::env::var("UMPIRE_TEST_POSTGRES").expect("set UMPIRE_TEST_POSTGRES");
    let (mut nodes, _ports, _proxy, front) = three_nodes(&db);
    let cwd = std::env::temp_dir().join(format!("umpire-cluster-connect-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    let since_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    // A clock no other test here uses, to find the game in the shared database.
    let args = [
        front.as_str(),
        "--agent",
        "guided-random",
        "--color",
        "white",
        "--clock",
        "3599",
    ];
    let mut t = Terminal::start(&cwd, &args);
    t.wait_for("White, move 1> ");
    t.type_line("e4");
    t.wait_for("Your move e2e4 was played.");
    t.wait_for("White, move 2> ");
    let id = psql(
        &db,
        &format!(
            "SELECT id FROM games WHERE initial_ms = 3599000 AND created_ms >= {since_ms} \
             ORDER BY created_ms DESC LIMIT 1"
        ),
    );
    assert!(!id.is_empty(), "the game is not in the database");
    let first = owner(&db, &id).expect("the game has an owner");
    let k: usize = first.trim_start_matches('n').parse::<usize>().unwrap() - 1;
    if let Some(mut killed) = nodes[k].take() {
        killed.kill().unwrap();
        killed.wait().unwrap();
    }
    t.wait_for("Connection lost");
    t.wait_for("Reconnected to the server.");
    t.type_line("Nf3");
    t.wait_for("Your move g1f3 was played");
    t.wait_for("White, move 3> ");
    let second = owner(&db, &id).expect("the game runs on a node");
    assert_ne!(second, first, "the killed node still owns the game");
    t.type_line("resign");
    t.wait_for("You resign.");
    t.wait_for("The record is saved in ");
    assert!(t.child.wait().unwrap().success());
    let text = common::downloaded_record(&cwd);
    assert!(text.contains("e2e4") && text.contains("g1f3"), "{text}");
}

/// Opens a socket on `game` through `front` until one answers with the game's state (the game
/// runs on a node again), trying every 20 ms; returns how long that took, or `None` after 30 s.
async fn answers_within(client: &Client, game: &str, since: Instant) -> Option<Duration> {
    while since.elapsed() < Duration::from_secs(30) {
        if let Ok(mut s) = client.socket(game).await
            && s.until("state", Duration::from_secs(5)).await.is_ok()
        {
            return Some(since.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

/// The failover time, a benchmark rather than a test (`scripts/clusterbench.sh failover`):
/// three nodes behind HAProxy, one live game; `UMPIRE_FAILOVER_KILLS` times, the game's owner
/// is killed with SIGKILL and the time until a client through HAProxy gets the game's state
/// from another node is taken (the client retries every 20 ms: the server's part, not a
/// client's back-off); the node is then started again. Prints the times (ms) and their p50
/// and p99 as one JSON line. Does nothing without `UMPIRE_FAILOVER_KILLS`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: needs PostgreSQL, haproxy and UMPIRE_FAILOVER_KILLS"]
async fn failover_times() {
    let Some(kills) = std::env::var("UMPIRE_FAILOVER_KILLS")
        .ok()
        .and_then(|k| k.parse::<usize>().ok())
    else {
        eprintln!("failover_times: UMPIRE_FAILOVER_KILLS not set, nothing measured");
        return;
    };
    let db = std::env::var("UMPIRE_TEST_POSTGRES").expect("set UMPIRE_TEST_POSTGRES");
    let (mut nodes, ports, _proxy, front) = three_nodes(&db);
    let (white, black, id) = two_guests_and_a_game(&front, 36_000_000).await;
    black.join(&id).await.unwrap();
    let mut times = Vec::new();
    for _ in 0..kills {
        // The game runs somewhere: a socket through HAProxy makes sure of it.
        let mut first = None;
        for _ in 0..100 {
            first = owner(&db, &id);
            if first.is_some() {
                break;
            }
            answers_within(&white, &id, Instant::now()).await;
        }
        let first = first.expect("the game never got an owner");
        let k: usize = first.trim_start_matches('n').parse::<usize>().unwrap() - 1;
        let killed_at = Instant::now();
        if let Some(mut killed) = nodes[k].take() {
            killed.kill().unwrap();
            killed.wait().unwrap();
        }
        let took = answers_within(&black, &id, killed_at)
            .await
            .expect("the game never answered after its owner was killed");
        times.push(took.as_secs_f64() * 1000.0);
        nodes[k] = Some(node(&db, &first, ports[k + 1]));
        // HAProxy sees the node up again (health checks every second, up after 2).
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let at =
        |q: f64| sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1];
    println!(
        "{}",
        json!({"kills": kills, "failover_ms": times, "p50_ms": at(0.5), "p99_ms": at(0.99),
               "max_ms": sorted.last()})
    );
}
