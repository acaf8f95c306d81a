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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `frame`, `act`, `store`, `commit`, `batch_commands`, `send` (count, mean, p50, p90, p99,
    /// p99.9, max in ms), `frames_sent` and `cpu_seconds`.
    #[test]
    fn the_metrics_are_as_documented() {
        let s = LatencySummary {
            count: 2,
            mean_ms: 1.5,
            p50_ms: 1.0,
            p90_ms: 2.0,
            p99_ms: 2.0,
            p999_ms: 2.0,
            max_ms: 2.0,
        };
        let sj = json!({"count": 2, "mean_ms": 1.5, "p50_ms": 1.0, "p90_ms": 2.0,
                        "p99_ms": 2.0, "p999_ms": 2.0, "max_ms": 2.0});
        let body = MetricsBody {
            frame: s,
            act: s,
            store: s,
            commit: s,
            batch_commands: s,
            send: s,
            frames_sent: 10,
            cpu_seconds: None,
        };
        crate::http::example::check(
            &body,
            json!({"frame": sj, "act": sj, "store": sj, "commit": sj, "batch_commands": sj,
                   "send": sj, "frames_sent": 10, "cpu_seconds": null}),
        );
    }
}
