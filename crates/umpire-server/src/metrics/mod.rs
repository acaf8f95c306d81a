//! [`Metrics`]: where a game command's time goes inside the server, as histograms, served as
//! JSON by `GET /api/metrics` (aggregates over all games: no game's content, no player).

use std::sync::atomic::{AtomicU64, Ordering};

use axum::Json;
use axum::extract::State;
use serde::Serialize;

use crate::AppState;
use crate::latency::{Histogram, Summary};

/// The server's latency histograms.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Game socket: from a player's frame read off the socket to its answer queued for the
    /// connection's writer (the acknowledging `update` is queued before it).
    pub frame: Histogram,
    /// The game's task: from taking the command to having broadcast its outcome (judging,
    /// storing, building and queueing the frames).
    pub act: Histogram,
    /// The game's task waiting for its command to be committed (the writer's queue and its
    /// transaction).
    pub store: Histogram,
    /// The group-commit writer: one transaction, from its begin to its commit.
    pub commit: Histogram,
    /// Commands per transaction of the writer, as a histogram of counts (read "ms" as
    /// "thousands of commands").
    pub batch: Histogram,
    /// Game socket: from an `update`/answer queued for a connection to its write to the socket
    /// done.
    pub send: Histogram,
    /// Frames written to game sockets.
    pub frames_sent: AtomicU64,
}

/// The JSON of `GET /api/metrics`.
#[derive(Debug, Serialize)]
struct Report {
    frame: Summary,
    act: Summary,
    store: Summary,
    commit: Summary,
    batch_commands: Summary,
    send: Summary,
    frames_sent: u64,
    /// CPU seconds the server process has used since it started.
    cpu_seconds: Option<f64>,
}

impl Metrics {
    /// Clears every histogram and count.
    pub fn clear(&self) {
        for h in [
            &self.frame,
            &self.act,
            &self.store,
            &self.commit,
            &self.batch,
            &self.send,
        ] {
            h.clear();
        }
        self.frames_sent.store(0, Ordering::Relaxed);
    }

    /// Counts a batch of `n` commands.
    pub fn record_batch(&self, n: usize) {
        self.batch
            .record(std::time::Duration::from_micros(n as u64 * 1000));
    }
}

/// `GET /api/metrics`: the histograms' percentiles since the start (or the last clear), when
/// the server was started with them on ([`Options::metrics`](crate::Options::metrics)).
pub async fn get_metrics(
    State(st): State<AppState>,
) -> Result<Json<serde_json::Value>, crate::error::ApiError> {
    if !st.options.metrics {
        return Err(crate::error::ApiError::not_found_code(
            "metrics_off",
            "the server's metrics are off (`umpire serve --metrics` turns them on)",
        ));
    }
    let m = st.store.metrics();
    let r = Report {
        frame: m.frame.summary(),
        act: m.act.summary(),
        store: m.store.summary(),
        commit: m.commit.summary(),
        batch_commands: m.batch.summary(),
        send: m.send.summary(),
        frames_sent: m.frames_sent.load(Ordering::Relaxed),
        cpu_seconds: umpire_protocol::cpu_time::process_cpu_seconds(),
    };
    Ok(Json(serde_json::to_value(&r).unwrap_or_default()))
}
