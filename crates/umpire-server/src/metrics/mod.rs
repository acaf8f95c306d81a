//! [`Metrics`]: where a game command's time goes inside the server, as histograms, served as
//! JSON by `GET /api/metrics` (aggregates over all games: no game's content, no player).
//!
//! The bottom of the crate: storage, the games' tasks and the sockets record into it; it uses
//! nothing of the crate but its own [`latency`] histograms.

pub mod latency;

use std::sync::atomic::{AtomicU64, Ordering};

use latency::Histogram;

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
