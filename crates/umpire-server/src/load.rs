//! `umpire loadtest`: N concurrent games between remote random agents, measured.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use umpire_ai::{AgentKind, AgentSpec};

use crate::client::Client;
use crate::remote::{PlayStats, play};

/// The figures of a load test.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LoadReport {
    /// Concurrent games asked for.
    pub games: usize,
    /// Seconds asked for.
    pub seconds: f64,
    /// Games created and joined.
    pub games_started: u64,
    /// Games that reached a result.
    pub games_finished: u64,
    /// Commands sent (attempts, "Any?", draw answers).
    pub attempts: u64,
    /// Commands answered by the server.
    pub acknowledged: u64,
    /// Acknowledged commands per second.
    pub attempts_per_second: f64,
    /// Median time from sending a command to its answer, milliseconds.
    pub p50_ms: f64,
    /// 99th percentile of the same, milliseconds.
    pub p99_ms: f64,
    /// Failed requests, refused commands and lost connections.
    pub errors: u64,
}

#[derive(Default)]
struct Totals {
    started: u64,
    finished: u64,
    stats: PlayStats,
    errors: u64,
}

async fn one_game(
    url: &str,
    seed: u64,
    deadline: Instant,
    totals: &Mutex<Totals>,
) -> Result<(), String> {
    let mut a = Client::new(url)?;
    a.guest().await?;
    let mut b = Client::new(url)?;
    b.guest().await?;
    let g = a
        .create_game(&json!({"color":"white","initial_ms": 3_600_000}))
        .await?;
    let id = g["id"].as_str().ok_or("no game id")?.to_owned();
    b.join(&id).await?;
    if let Ok(mut t) = totals.lock() {
        t.started += 1;
    }
    let (mut sa, mut sb) = (PlayStats::default(), PlayStats::default());
    let random = AgentSpec::Builtin(AgentKind::Random);
    let (ra, rb) = tokio::join!(
        play(&a, &id, &random, seed, Some(deadline), &mut sa),
        play(&b, &id, &random, seed ^ 1, Some(deadline), &mut sb),
    );
    let finished = matches!(&ra, Ok(e) if !e.result.is_null());
    if let Ok(mut t) = totals.lock() {
        for s in [sa, sb] {
            t.stats.sent += s.sent;
            t.stats.acknowledged += s.acknowledged;
            t.stats.errors += s.errors;
            t.stats.latencies_us.extend(s.latencies_us);
        }
        t.finished += u64::from(finished);
        t.errors += u64::from(ra.is_err()) + u64::from(rb.is_err());
    }
    Ok(())
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

/// Drives `games` concurrent games for `seconds`, starting a new game whenever one ends, and
/// reports the figures even if the server fails under it.
pub async fn run(url: &str, games: usize, seconds: f64, seed: u64) -> LoadReport {
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let totals = Arc::new(Mutex::new(Totals::default()));
    let mut tasks = Vec::new();
    for g in 0..games {
        let url = url.to_owned();
        let totals = totals.clone();
        tasks.push(tokio::spawn(async move {
            let mut round = 0u64;
            while Instant::now() < deadline {
                let seed = seed ^ ((g as u64) << 32) ^ round;
                round += 1;
                if one_game(&url, seed, deadline, &totals).await.is_err() {
                    if let Ok(mut t) = totals.lock() {
                        t.errors += 1;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let mut t = totals
        .lock()
        .map(|mut t| std::mem::take(&mut *t))
        .unwrap_or_default();
    t.stats.latencies_us.sort_unstable();
    LoadReport {
        games,
        seconds,
        games_started: t.started,
        games_finished: t.finished,
        attempts: t.stats.sent,
        acknowledged: t.stats.acknowledged,
        attempts_per_second: t.stats.acknowledged as f64 / elapsed.max(1e-9),
        p50_ms: percentile(&t.stats.latencies_us, 0.5),
        p99_ms: percentile(&t.stats.latencies_us, 0.99),
        errors: t.errors + t.stats.errors,
    }
}
