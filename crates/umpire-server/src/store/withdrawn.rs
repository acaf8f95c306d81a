//! Tombstones of withdrawn challenges: an open game declined, cancelled or expired is deleted
//! (it never started: no record), and a small row keeps why and when, so that a client that
//! comes late (a socket, a `GET`, a join) hears the reason. Kept for [`WITHDRAWN_KEEP_MS`];
//! older ones are deleted as new ones are written, so the table stays small.

use sqlx::Row;

use super::Store;

/// How long a tombstone is kept: a day, in milliseconds.
pub const WITHDRAWN_KEEP_MS: i64 = 24 * 60 * 60 * 1000;

/// Why and when a challenge was withdrawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Withdrawn {
    /// `declined`, `cancelled` or `expired`.
    pub reason: String,
    /// When, ms since the Unix epoch.
    pub at_ms: i64,
}

impl Store {
    /// Deletes the open game `id` and leaves its tombstone (`reason` at `at_ms`) in one
    /// transaction, dropping tombstones older than [`WITHDRAWN_KEEP_MS`]; false (nothing
    /// changed) if the game is not open any more.
    pub async fn withdraw_open_game(
        &self,
        id: &str,
        reason: &str,
        at_ms: i64,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query("DELETE FROM games WHERE id = $1 AND status = 'open'")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM withdrawn WHERE at_ms < $1")
            .bind(at_ms.saturating_sub(WITHDRAWN_KEEP_MS))
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO withdrawn (id, reason, at_ms) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(reason)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The tombstone of `id`, if it was withdrawn less than [`WITHDRAWN_KEEP_MS`] before
    /// `now_ms`.
    pub async fn withdrawn(&self, id: &str, now_ms: i64) -> Result<Option<Withdrawn>, sqlx::Error> {
        let row = sqlx::query("SELECT reason, at_ms FROM withdrawn WHERE id = $1 AND at_ms >= $2")
            .bind(id)
            .bind(now_ms.saturating_sub(WITHDRAWN_KEEP_MS))
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(Withdrawn {
                reason: r.try_get("reason")?,
                at_ms: r.try_get("at_ms")?,
            })
        })
        .transpose()
    }
}
