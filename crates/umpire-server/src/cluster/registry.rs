//! The cluster's registry in PostgreSQL: the `nodes` table (where each node listens, its
//! heartbeat, whether it drains), who owns a game (the session holding its advisory lock, read
//! from `pg_locks` and named by its `application_name`), and the unfinished games nobody owns.

use std::time::Duration;

use sqlx::Row;

use super::Cluster;

/// How often a node beats its heartbeat.
pub const HEARTBEAT: Duration = Duration::from_secs(2);

/// The most orphaned games adopted in one sweep.
pub const ADOPT_AT_ONCE: i64 = 200;

/// A node as the registry lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    /// Its name.
    pub id: String,
    /// Where it is reached.
    pub address: String,
    /// Its last heartbeat (ms since the epoch).
    pub heartbeat_ms: i64,
    /// Whether it drains.
    pub draining: bool,
}

/// Says that this node lives (and whether it drains).
pub async fn heartbeat(cluster: &Cluster) -> Result<(), sqlx::Error> {
    let now = crate::store::now_ms();
    sqlx::query(
        "INSERT INTO nodes (id, address, started_ms, heartbeat_ms, draining) \
         VALUES ($1, $2, $3, $3, $4) \
         ON CONFLICT (id) DO UPDATE SET address = $2, heartbeat_ms = $3, draining = $4",
    )
    .bind(&cluster.node().id)
    .bind(&cluster.node().advertise)
    .bind(now)
    .bind(i64::from(cluster.draining()))
    .execute(cluster.pool())
    .await?;
    Ok(())
}

/// Removes this node's row.
pub async fn leave(cluster: &Cluster) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM nodes WHERE id = $1")
        .bind(&cluster.node().id)
        .execute(cluster.pool())
        .await?;
    Ok(())
}

/// Every node of the registry, by name.
pub async fn nodes(cluster: &Cluster) -> Result<Vec<NodeRow>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT id, address, heartbeat_ms, draining FROM nodes ORDER BY id LIMIT 1000")
            .fetch_all(cluster.pool())
            .await?;
    rows.iter()
        .map(|r| {
            Ok(NodeRow {
                id: r.try_get(0)?,
                address: r.try_get(1)?,
                heartbeat_ms: r.try_get(2)?,
                draining: r.try_get::<i64, _>(3)? != 0,
            })
        })
        .collect()
}

/// The condition on `pg_locks l` of an advisory lock granted in this database on the key of
/// game `$1` (a bigint key is split into `classid`, its high 32 bits, and `objid`, its low ones).
const LOCK_OF_GAME: &str = "l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
     AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)";

/// The name of the node that owns `game` (holds its lock), if any.
pub async fn owner_of(cluster: &Cluster, game: &str) -> Result<Option<String>, sqlx::Error> {
    let sql = format!(
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE {LOCK_OF_GAME} LIMIT 1"
    );
    let row = sqlx::query(&sql)
        .bind(game)
        .fetch_optional(cluster.pool())
        .await?;
    Ok(row
        .map(|r| r.try_get::<String, _>(0))
        .transpose()?
        .map(|name| name.strip_prefix("umpire:").unwrap_or(&name).to_owned()))
}

/// Up to [`ADOPT_AT_ONCE`] unfinished games (open or live) whose lock nobody holds: their
/// owner died or drained, and no client came back yet (their clocks and timers still need a
/// node to run them).
pub async fn orphans(cluster: &Cluster) -> Result<Vec<String>, sqlx::Error> {
    // The held keys are read once (a hashed subplan), not once per game.
    let sql = format!(
        "SELECT g.id FROM games g WHERE g.status IN ('open', 'live') \
         AND hashtextextended(g.id, 0) NOT IN \
         (SELECT (l.classid::bigint << 32) | l.objid::bigint FROM pg_locks l \
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())) \
         ORDER BY g.created_ms LIMIT {ADOPT_AT_ONCE}"
    );
    let rows = sqlx::query(&sql).fetch_all(cluster.pool()).await?;
    rows.iter().map(|r| r.try_get(0)).collect()
}
