//! [`MetricsBody`]: the answer of `GET /api/metrics`.

use serde::{Deserialize, Serialize};

/// Percentiles of one histogram, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LatencySummary {
    /// Durations recorded.
    pub count: u64,
    /// Mean.
    pub mean_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Largest.
    pub max_ms: f64,
}

/// Where a command's time goes inside the server (`docs/SERVER.md`): aggregates only.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MetricsBody {
    /// A player's frame read off the socket to its answer queued.
    pub frame: LatencySummary,
    /// The game's task judging, storing and broadcasting a command.
    pub act: LatencySummary,
    /// Waiting for a command's commit.
    pub store: LatencySummary,
    /// One writer transaction.
    pub commit: LatencySummary,
    /// Commands per transaction (read "ms" as thousands).
    pub batch_commands: LatencySummary,
    /// Writing one frame to a socket.
    pub send: LatencySummary,
    /// Frames written to game sockets.
    pub frames_sent: u64,
    /// CPU seconds the server process has used, where known.
    pub cpu_seconds: Option<f64>,
}
