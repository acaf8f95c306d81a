//! SQLite WAL checkpoints off the commit path. By default SQLite checkpoints inside the
//! `COMMIT` that makes the WAL pass 1,000 pages: that commit then copies the WAL into the
//! database file and `fsync`s both, and every command queued behind it waits (tens of
//! milliseconds on this VM's disk). The writer's connection turns automatic checkpoints off;
//! this task checkpoints from a reader connection once a second instead (`PASSIVE`: it never
//! waits for, nor blocks, the writer). Durability is unchanged: a commit is in the WAL when it
//! returns, as before.

use std::time::Duration;

use sqlx::AnyPool;

/// How often the WAL is checkpointed.
pub(super) const EVERY: Duration = Duration::from_secs(1);

/// Starts the checkpoint task on `pool` (a reader pool of the same database); it ends when
/// the pool is closed.
pub(super) fn spawn(pool: AnyPool) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if pool.is_closed() {
                return;
            }
            match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&pool)
                .await
            {
                Ok(_) => {}
                Err(sqlx::Error::PoolClosed) => return,
                Err(e) => tracing::warn!("WAL checkpoint failed: {e}"),
            }
        }
    });
}
