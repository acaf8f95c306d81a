//! Group commit: one writer task stores the games' commands. It takes every command waiting in
//! its channel, writes them in one transaction, commits, and only then answers each sender, so
//! that an acknowledged command is always committed while commands arriving together share
//! one commit (one `fsync` on PostgreSQL, one WAL append on SQLite).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection};
use tokio::sync::{Notify, mpsc, oneshot};

use super::CommandRow;
use super::ratings;
use crate::metrics::Metrics;

/// At most this many commands share one transaction.
const MAX_BATCH: usize = 512;

/// How many commands may wait for the writer before senders wait too.
const QUEUE: usize = 8192;

/// One command to store, and where to say it is committed.
#[derive(Debug)]
pub(super) struct Job {
    /// The game.
    pub game: String,
    /// The command.
    pub row: CommandRow,
    /// `(result, reason)` if the command ends the game.
    pub over: Option<(String, String)>,
    /// Answered once the command is committed (or failed).
    pub done: oneshot::Sender<Result<(), sqlx::Error>>,
}

/// Transactions and commands the writer has committed so far.
#[derive(Debug, Default)]
pub struct CommitCounts {
    transactions: AtomicU64,
    commands: AtomicU64,
}

impl CommitCounts {
    /// `(transactions, commands)` committed so far.
    pub fn get(&self) -> (u64, u64) {
        (
            self.transactions.load(Ordering::Relaxed),
            self.commands.load(Ordering::Relaxed),
        )
    }

    fn add(&self, commands: usize) {
        self.transactions.fetch_add(1, Ordering::Relaxed);
        self.commands.fetch_add(commands as u64, Ordering::Relaxed);
    }
}

/// Starts the writer on `pool`; it stops when every sender is dropped or when `stop` is
/// notified (between two batches), giving its connection back to the pool.
pub(super) fn spawn(
    pool: AnyPool,
    counts: Arc<CommitCounts>,
    metrics: Arc<Metrics>,
    stop: Arc<Notify>,
) -> mpsc::Sender<Job> {
    let (tx, rx) = mpsc::channel(QUEUE);
    tokio::spawn(run(pool, rx, counts, metrics, stop));
    tx
}

async fn run(
    pool: AnyPool,
    mut rx: mpsc::Receiver<Job>,
    counts: Arc<CommitCounts>,
    metrics: Arc<Metrics>,
    stop: Arc<Notify>,
) {
    let mut writer = Writer {
        pool,
        conn: None,
        inserts: Inserts::new(),
    };
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    loop {
        let taken = tokio::select! {
            biased;
            n = rx.recv_many(&mut batch, MAX_BATCH) => n,
            () = stop.notified() => 0,
        };
        if taken == 0 {
            break;
        }
        let began = Instant::now();
        let written = writer.write(&batch).await;
        metrics.commit.record(began.elapsed());
        metrics.record_batch(batch.len());
        match written {
            Ok(()) => {
                counts.add(batch.len());
                for job in batch.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                if let Some(job) = batch.pop() {
                    let _ = job.done.send(Err(e));
                }
            }
            Err(_) => {
                // One command spoilt the batch (or the commit failed): store each alone, so
                // that only the commands that cannot be stored are refused.
                for job in batch.drain(..) {
                    let alone = writer.write(std::slice::from_ref(&job)).await;
                    if alone.is_ok() {
                        counts.add(1);
                    }
                    let _ = job.done.send(alone);
                }
            }
        }
    }
    // Dropping the connection gives it back to the pool, which `Store::close` waits for.
}

/// Rows per multi-row `INSERT` in a transaction, largest first: a large batch is written as a
/// few statements of these sizes, so that only these few statements are ever prepared (and
/// cached).
const CHUNKS: [usize; 5] = [256, 64, 16, 4, 1];

/// A batch of at most this many commands, none of which ends its game, is written as one
/// multi-row `INSERT` of exactly its size, alone: a single statement is atomic and commits by
/// itself, so it needs no `BEGIN` and `COMMIT` round trips. Statements of 1 to this many rows
/// are prepared (and cached) as they are first used.
const ONE_STATEMENT: usize = 32;

/// The `INSERT` statement of `rows` rows.
fn insert_sql(rows: usize) -> String {
    let mut sql =
        String::from("INSERT INTO commands (game_id, seq, side, command, clock_ms, at_ms) VALUES ");
    for r in 0..rows {
        let p = r * 6;
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            p + 1,
            p + 2,
            p + 3,
            p + 4,
            p + 5,
            p + 6
        ));
    }
    sql
}

/// The `INSERT` statements the writer uses, built once.
struct Inserts {
    /// `chunks[k]` inserts `CHUNKS[k]` rows.
    chunks: [String; CHUNKS.len()],
    /// `exact[n - 1]` inserts `n` rows, for n up to [`ONE_STATEMENT`].
    exact: Vec<String>,
}

impl Inserts {
    fn new() -> Inserts {
        Inserts {
            chunks: CHUNKS.map(insert_sql),
            exact: (1..=ONE_STATEMENT).map(insert_sql).collect(),
        }
    }
}

/// Binds the rows of `jobs` to `sql` (which has exactly that many rows) and runs it.
async fn insert(conn: &mut AnyConnection, sql: &str, jobs: &[Job]) -> Result<(), sqlx::Error> {
    let mut query = sqlx::query(sql);
    for job in jobs {
        let row = &job.row;
        query = query
            .bind(&job.game)
            .bind(row.seq)
            .bind(&row.side)
            .bind(&row.command)
            .bind(row.clock_ms)
            .bind(row.at_ms);
    }
    query.execute(conn).await?;
    Ok(())
}

/// The writer's state: its connection, held from one batch to the next (taking one from the
/// pool and giving it back costs a ping each way), and its statements.
struct Writer {
    pool: AnyPool,
    conn: Option<PoolConnection<Any>>,
    inserts: Inserts,
}

impl Writer {
    /// Writes `jobs` and commits them (see [`write_on`]). After an error the connection is
    /// given back (the pool checks it) and a fresh one taken for the next batch.
    async fn write(&mut self, jobs: &[Job]) -> Result<(), sqlx::Error> {
        if self.conn.is_none() {
            self.conn = Some(self.pool.acquire().await?);
        }
        let Some(conn) = self.conn.as_mut() else {
            return Err(sqlx::Error::PoolClosed);
        };
        let written = write_on(conn, &self.inserts, jobs).await;
        if written.is_err() {
            self.conn = None;
        }
        written
    }
}

/// Writes `jobs` and commits them: a small batch that ends no game as one statement (see
/// [`ONE_STATEMENT`]); else in one transaction, their commands in a few multi-row `INSERT`s,
/// then the end of each game that ends (result and, if rated, both players' ratings). The
/// writer is the only task that stores ends, so no two rating updates interleave.
async fn write_on(
    conn: &mut AnyConnection,
    inserts: &Inserts,
    jobs: &[Job],
) -> Result<(), sqlx::Error> {
    if (1..=ONE_STATEMENT).contains(&jobs.len()) && jobs.iter().all(|j| j.over.is_none()) {
        return insert(conn, &inserts.exact[jobs.len() - 1], jobs).await;
    }
    let mut tx = conn.begin().await?;
    let mut rest = jobs;
    while !rest.is_empty() {
        let (k, rows) = CHUNKS
            .iter()
            .enumerate()
            .find(|(_, n)| **n <= rest.len())
            .map_or((CHUNKS.len() - 1, 1), |(k, n)| (k, *n));
        let (chunk, after) = rest.split_at(rows);
        insert(&mut tx, &inserts.chunks[k], chunk).await?;
        rest = after;
    }
    for job in jobs {
        if let Some((result, reason)) = &job.over {
            end(&mut tx, &job.game, result, reason, job.row.at_ms).await?;
        }
    }
    tx.commit().await
}

/// Marks `game` over and settles the ratings, in the transaction that stored its last command.
async fn end(
    conn: &mut AnyConnection,
    game: &str,
    result: &str,
    reason: &str,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE games SET status = 'over', result = $1, reason = $2 WHERE id = $3")
        .bind(result)
        .bind(reason)
        .bind(game)
        .execute(&mut *conn)
        .await?;
    // The commands' insert above took the write lock (SQLite), so what is read here cannot
    // change before the commit.
    ratings::settle(conn, game, result, at_ms).await
}
