//! [`GameLocks`]: a node owns a live game while it holds the game's PostgreSQL session-level
//! advisory lock (`pg_try_advisory_lock`). Every lock of a node is taken on one dedicated
//! connection, whatever the number of games: when the node dies, or that connection does, the
//! database drops all its locks at once and other nodes may take the games over.
//!
//! The connection's life is an *epoch*: a [`Lease`] remembers the epoch it was granted in, and
//! is given back only on that same connection (after a reconnect the old locks are gone, and
//! unlocking on the new connection could release a lock granted again since).

use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Row};
use tokio::sync::Mutex;

/// The SQL expression of a game's lock key: the 64-bit hash of its id. Two ids with one hash
/// share a lock (they are then always owned by one node: harmless, and with 64 bits, rare).
pub const LOCK_KEY: &str = "hashtextextended($1, 0)";

/// A lock held on a game.
#[derive(Debug)]
pub struct Lease {
    /// The game.
    pub game: String,
    /// The lock connection's life it was granted in.
    pub epoch: u64,
}

/// The lock connection and its epoch.
#[derive(Debug)]
struct Slot {
    conn: Option<PgConnection>,
    epoch: u64,
}

/// The advisory locks of one node, on its dedicated connection.
#[derive(Debug)]
pub struct GameLocks {
    options: PgConnectOptions,
    slot: Mutex<Slot>,
}

impl GameLocks {
    /// Locks taken on connections to `url`, named `application_name` (so that `pg_locks`
    /// joined with `pg_stat_activity` says which node holds which game). Connects lazily.
    pub fn new(url: &str, application_name: &str) -> Result<GameLocks, String> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| format!("{url}: {e}"))?
            .application_name(application_name);
        Ok(GameLocks {
            options,
            slot: Mutex::new(Slot {
                conn: None,
                epoch: 0,
            }),
        })
    }

    /// The connection, opened if there is none (a new epoch).
    async fn conn<'a>(&self, slot: &'a mut Slot) -> Result<&'a mut PgConnection, sqlx::Error> {
        if slot.conn.is_none() {
            let conn = PgConnection::connect_with(&self.options).await?;
            slot.epoch += 1;
            slot.conn = Some(conn);
        }
        slot.conn.as_mut().ok_or(sqlx::Error::PoolClosed)
    }

    /// Takes the lock of `game` if nobody holds it: `Some(lease)` if this node now owns the
    /// game (or already did: session locks count, and each lease is given back once), `None` if
    /// another session holds it.
    pub async fn try_own(&self, game: &str) -> Result<Option<Lease>, sqlx::Error> {
        let mut slot = self.slot.lock().await;
        let sql = format!("SELECT pg_try_advisory_lock({LOCK_KEY})");
        let got = {
            let conn = self.conn(&mut slot).await?;
            sqlx::query(&sql).bind(game).fetch_one(conn).await
        };
        match got {
            Ok(row) => {
                let owned: bool = row.try_get(0)?;
                Ok(owned.then(|| Lease {
                    game: game.to_owned(),
                    epoch: slot.epoch,
                }))
            }
            Err(e) => {
                // The connection may be gone, and every lock on it: start a new epoch.
                slot.conn = None;
                Err(e)
            }
        }
    }

    /// Gives a lease back (if its connection still lives; else the lock went with it).
    pub async fn release(&self, lease: Lease) {
        let mut slot = self.slot.lock().await;
        if slot.epoch != lease.epoch {
            return;
        }
        let Some(conn) = slot.conn.as_mut() else {
            return;
        };
        let sql = format!("SELECT pg_advisory_unlock({LOCK_KEY})");
        if sqlx::query(&sql)
            .bind(&lease.game)
            .execute(conn)
            .await
            .is_err()
        {
            slot.conn = None;
        }
    }

    /// Checks that the lock connection lives: `Ok(epoch)` if it does (or there is none, and so
    /// no lock), `Err(epoch)` with the epoch whose locks are lost if it does not.
    pub async fn check(&self) -> Result<u64, u64> {
        let mut slot = self.slot.lock().await;
        let epoch = slot.epoch;
        let Some(conn) = slot.conn.as_mut() else {
            return Ok(epoch);
        };
        let ping = tokio::time::timeout(std::time::Duration::from_secs(5), conn.ping()).await;
        if matches!(ping, Ok(Ok(()))) {
            Ok(epoch)
        } else {
            slot.conn = None;
            Err(epoch)
        }
    }

    /// Closes the lock connection: every lock of this node is released at once.
    pub async fn close(&self) {
        let mut slot = self.slot.lock().await;
        if let Some(conn) = slot.conn.take() {
            let _ = conn.close().await;
        }
        slot.epoch += 1;
    }
}
