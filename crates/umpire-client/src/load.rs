//! `umpire loadtest`: N concurrent games between remote random agents, measured, either as
//! fast as the server answers or paced at a total command rate.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use tokio::sync::{Barrier, Semaphore};
use umpire_ai::{AgentKind, AgentSpec};

use crate::client::Client;
use crate::pacer::Pacer;
use crate::remote::{PlayStats, Seated};

/// How many games may be in creation (two guests, create, join) at once.
const SETUP_AT_ONCE: usize = 32;

/// How many times a game's creation is tried before its slot is given up.
const SETUP_TRIES: u32 = 5;

/// What to run.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadPlan {
    /// The server, as `http://HOST:PORT`.
    pub url: String,
    /// Concurrent games.
    pub games: usize,
    /// Seconds of play, counted once every game is created.
    pub seconds: f64,
    /// Commands per second over all games, spread evenly; `None`: each agent as fast as the
    /// server answers.
    pub rate: Option<f64>,
    /// Seed of the agents.
    pub seed: u64,
}

/// The figures of a load test.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LoadReport {
    /// Concurrent games asked for.
    pub games: usize,
    /// Seconds asked for.
    pub seconds: f64,
    /// Commands per second asked for (`null`: unpaced).
    pub rate: Option<f64>,
    /// Seconds spent creating the first `games` games, before the measured play.
    pub setup_seconds: f64,
    /// Games created and joined.
    pub games_started: u64,
    /// Games that reached a result.
    pub games_finished: u64,
    /// Commands sent (attempts, "Any?", draw answers).
    pub attempts: u64,
    /// Commands answered by the server.
    pub acknowledged: u64,
    /// Acknowledged commands per second of play.
    pub attempts_per_second: f64,
    /// Median time from sending a command to its answer, milliseconds.
    pub p50_ms: f64,
    /// 99th percentile of the same, milliseconds.
    pub p99_ms: f64,
    /// Largest of the same, milliseconds.
    pub max_ms: f64,
    /// Failed requests, refused commands and lost connections.
    pub errors: u64,
    /// Commands sent and never answered, other than those still awaiting their answer when the
    /// time ran out (`in_flight`).
    pub lost: u64,
    /// Commands awaiting their answer when the time ran out (at most one per player).
    pub in_flight: u64,
    /// Paced: the median of how late commands went out after their slot, milliseconds (the
    /// load generator falling behind its schedule; 0 unpaced).
    pub send_lag_p50_ms: f64,
    /// Paced: the 99th percentile of the same.
    pub send_lag_p99_ms: f64,
    /// CPU seconds the load generator used during the measured play (user + system, from
    /// `/proc/self/stat`; `null` where that cannot be read).
    pub client_cpu_seconds: Option<f64>,
    /// CPU seconds the server used during the measured play (from `GET /api/metrics` at its
    /// start and end; `null` if the server does not say).
    pub server_cpu_seconds: Option<f64>,
    /// The server's own histograms after the play (`GET /api/metrics`), if it answers.
    pub server: Option<serde_json::Value>,
}

#[derive(Default)]
struct Totals {
    started: u64,
    finished: u64,
    stats: PlayStats,
    errors: u64,
}

/// One game's two players: two guests, a game created by one and joined by the other, their
/// sockets opened and their players seated (`state` frames read, agents built) before the
/// measured play, so that neither connecting nor the set-up work of all games delays the first
/// commands.
struct Table {
    white: Seated,
    black: Seated,
}

async fn set_up(url: &str, seed: u64) -> Result<Table, String> {
    let mut white = Client::new(url)?;
    white.guest().await?;
    let mut black = Client::new(url)?;
    black.guest().await?;
    let g = white
        .create_game(&json!({"color":"white","initial_ms": 3_600_000}))
        .await?;
    let id = g["id"].as_str().ok_or("no game id")?.to_owned();
    black.join(&id).await?;
    let random = AgentSpec::Builtin(AgentKind::Random);
    Ok(Table {
        white: Seated::take(white.socket(&id).await?, &random, seed).await?,
        black: Seated::take(black.socket(&id).await?, &random, seed ^ 1).await?,
    })
}

/// Sets up a game, trying again a few times; counts each failure.
async fn set_up_counted(
    url: &str,
    seed: u64,
    setups: &Semaphore,
    totals: &Mutex<Totals>,
) -> Option<Table> {
    for _ in 0..SETUP_TRIES {
        let done = match setups.acquire().await {
            Ok(_permit) => set_up(url, seed).await,
            Err(_) => return None,
        };
        match done {
            Ok(t) => {
                if let Ok(mut t) = totals.lock() {
                    t.started += 1;
                }
                return Some(t);
            }
            Err(_) => {
                if let Ok(mut t) = totals.lock() {
                    t.errors += 1;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    None
}

async fn play_game(table: Table, deadline: Instant, pacer: Option<Pacer>, totals: &Mutex<Totals>) {
    let (mut sa, mut sb) = (PlayStats::default(), PlayStats::default());
    let (ra, rb) = tokio::join!(
        table.white.play(Some(deadline), pacer.as_ref(), &mut sa),
        table.black.play(Some(deadline), pacer.as_ref(), &mut sb),
    );
    let finished = matches!(&ra, Ok(e) if !e.result.is_null());
    if let Ok(mut t) = totals.lock() {
        for s in [sa, sb] {
            t.stats.sent += s.sent;
            t.stats.acknowledged += s.acknowledged;
            t.stats.errors += s.errors;
            t.stats.in_flight += s.in_flight;
            t.stats.latencies_us.extend(s.latencies_us);
            t.stats.send_lag_us.extend(s.send_lag_us);
        }
        t.finished += u64::from(finished);
        t.errors += u64::from(ra.is_err()) + u64::from(rb.is_err());
    }
}

/// The server's metrics (`GET /api/metrics`), if it answers.
async fn server_metrics(url: &str) -> Option<serde_json::Value> {
    let client = Client::new(url).ok()?;
    client
        .request("GET", "/api/metrics", None)
        .await
        .and_then(|a| a.ok())
        .ok()
}

/// The CPU seconds the server says it has used.
async fn server_cpu_seconds(url: &str) -> Option<f64> {
    server_metrics(url).await?["cpu_seconds"].as_f64()
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

/// Creates `plan.games` games (a few at a time), then plays them all for `plan.seconds`,
/// starting a new game whenever one ends, and reports the figures even if the server fails
/// under it. Paced (`plan.rate`), game `g` sends its commands at `start + (g + k·games) / rate`
/// for k = 0, 1, …, so that the commands of all games are spread evenly in time.
pub async fn run_plan(plan: &LoadPlan) -> LoadReport {
    let begin = Instant::now();
    let games = plan.games.max(1);
    let totals = Arc::new(Mutex::new(Totals::default()));
    let setups = Arc::new(Semaphore::new(SETUP_AT_ONCE));
    let ready = Arc::new(Barrier::new(games));
    let start = Arc::new(OnceLock::new());
    // The server's CPU seconds when the play starts (read by one task after the set-up).
    let server_cpu_start: Arc<OnceLock<Option<f64>>> = Arc::new(OnceLock::new());
    let rate = plan.rate.filter(|r| r.is_finite() && *r > 0.0);
    let mut tasks = Vec::new();
    for g in 0..games {
        let url = plan.url.clone();
        let (totals, setups, ready, start) =
            (totals.clone(), setups.clone(), ready.clone(), start.clone());
        let server_cpu_start = server_cpu_start.clone();
        let (seconds, seed) = (plan.seconds.max(0.0), plan.seed);
        tasks.push(tokio::spawn(async move {
            let game_seed = |round: u64| seed ^ ((g as u64) << 32) ^ round;
            let mut table = set_up_counted(&url, game_seed(0), &setups, &totals).await;
            if ready.wait().await.is_leader() {
                let (url, cell) = (url.clone(), server_cpu_start.clone());
                tokio::spawn(async move {
                    let _ = cell.set(server_cpu_seconds(&url).await);
                });
            }
            let start: Instant = start
                .get_or_init(|| {
                    (
                        Instant::now(),
                        umpire_protocol::cpu_time::process_cpu_seconds(),
                    )
                })
                .0;
            let deadline = start + Duration::from_secs_f64(seconds);
            let mut first = rate.map(|r| start + Duration::from_secs_f64(g as f64 / r));
            let mut round = 0u64;
            while Instant::now() < deadline {
                let Some(t) = table.take() else {
                    break;
                };
                let pacer = rate.map(|r| {
                    let at = first.take().unwrap_or_else(Instant::now);
                    Pacer::new(at, Duration::from_secs_f64(games as f64 / r))
                });
                round += 1;
                play_game(t, deadline, pacer, &totals).await;
                if Instant::now() < deadline {
                    table = set_up_counted(&url, game_seed(round), &setups, &totals).await;
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let end = Instant::now();
    let cpu_end = umpire_protocol::cpu_time::process_cpu_seconds();
    let (start, cpu_start) = start.get().copied().unwrap_or((begin, None));
    let server = server_metrics(&plan.url).await;
    let server_cpu = server
        .as_ref()
        .and_then(|m| m["cpu_seconds"].as_f64())
        .zip(server_cpu_start.get().copied().flatten())
        .map(|(b, a)| b - a);
    let played = end.saturating_duration_since(start).as_secs_f64();
    let mut t = totals
        .lock()
        .map(|mut t| std::mem::take(&mut *t))
        .unwrap_or_default();
    t.stats.latencies_us.sort_unstable();
    t.stats.send_lag_us.sort_unstable();
    let s = &t.stats;
    LoadReport {
        games: plan.games,
        seconds: plan.seconds,
        rate,
        setup_seconds: start.saturating_duration_since(begin).as_secs_f64(),
        games_started: t.started,
        games_finished: t.finished,
        attempts: s.sent,
        acknowledged: s.acknowledged,
        attempts_per_second: s.acknowledged as f64 / played.max(1e-9),
        p50_ms: percentile(&s.latencies_us, 0.5),
        p99_ms: percentile(&s.latencies_us, 0.99),
        max_ms: percentile(&s.latencies_us, 1.0),
        errors: t.errors + s.errors,
        lost: s.sent.saturating_sub(s.acknowledged + s.in_flight),
        in_flight: s.in_flight,
        send_lag_p50_ms: percentile(&s.send_lag_us, 0.5),
        send_lag_p99_ms: percentile(&s.send_lag_us, 0.99),
        client_cpu_seconds: cpu_start.zip(cpu_end).map(|(a, b)| b - a),
        server_cpu_seconds: server_cpu,
        server,
    }
}

/// [`run_plan`] unpaced: `games` games as fast as the server answers, for `seconds`.
pub async fn run(url: &str, games: usize, seconds: f64, seed: u64) -> LoadReport {
    run_plan(&LoadPlan {
        url: url.to_owned(),
        games,
        seconds,
        rate: None,
        seed,
    })
    .await
}
