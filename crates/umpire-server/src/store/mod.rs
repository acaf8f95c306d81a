//! [`Store`]: everything the server keeps, on SQLite or PostgreSQL through one code path
//! (sqlx's `Any` driver; every statement is portable SQL with `$n` parameters).

use std::path::Path;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use std::sync::Arc;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};

mod checkpoint;
mod migrations;
mod name_key;
mod ratings;
mod time_source;
mod withdrawn;
mod writer;

pub use name_key::name_key;
pub use ratings::{HistoryRow, LeaderRow, RatingRow, SeatRating, SeatRow};
pub use time_source::{ManualClock, TimeSource};
pub use withdrawn::{WITHDRAWN_KEEP_MS, Withdrawn};
pub use writer::CommitCounts;

/// Milliseconds since the Unix epoch, by the system's clock (the server itself reads
/// [`Store::now_ms`], which a test may turn by hand).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file (the default, embedded).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// The storage of users, sessions, games, their commands and chat.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The connection of the group-commit writer.
    write_pool: AnyPool,
    /// The group-commit writer of the games' commands.
    writer: tokio::sync::mpsc::Sender<writer::Job>,
    /// What the writer has committed.
    commits: Arc<CommitCounts>,
    /// Where the server's time goes (`GET /api/metrics`).
    metrics: Arc<crate::metrics::Metrics>,
    /// Tells the writer to stop and give its connection back (on close).
    writer_stop: Arc<tokio::sync::Notify>,
    /// Where the time comes from.
    time: TimeSource,
}

/// A stored user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// Random identifier.
    pub id: String,
    /// Unique display name.
    pub name: String,
    /// `account`, `guest` or `bot`.
    pub kind: String,
    /// The argon2 PHC string of an account's password.
    pub password_hash: Option<String>,
    /// A bot's owner: the id of the account that made it (`None` for others, and for bots
    /// made before owners were kept).
    pub owner: Option<String>,
}

/// A stored game: everything but its commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Random identifier.
    pub id: String,
    /// Rule-set identifier ([`umpire_rules::RuleSetId`]).
    pub rules: String,
    /// Start position.
    pub fen: String,
    /// The white and black seats: user ids.
    pub users: [Option<String>; 2],
    /// The white and black seats: built-in agent names.
    pub agents: [Option<String>; 2],
    /// Seed of the built-in agents.
    pub agent_seed: i64,
    /// Clock at the start, per side.
    pub initial_ms: i64,
    /// Added to the mover's clock after each move.
    pub increment_ms: i64,
    /// `open` (waiting for a player), `live` or `over`.
    pub status: String,
    /// `1-0`, `0-1` or `1/2-1/2` once over.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Creation time.
    pub created_ms: i64,
    /// Whether the result changes the players' ratings (chosen at creation; else casual).
    pub rated: bool,
    /// A practice game: never rated; its players may see their own belief while it goes on.
    pub practice: bool,
    /// A direct challenge: the user id of the only account that may join this open game.
    pub opponent: Option<String>,
}

/// One stored command of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRow {
    /// Position in the game, from 0.
    pub seq: i64,
    /// `white` or `black`.
    pub side: String,
    /// The command in record words (`e2e4`, `any`, `draw offer`, …) or `flag` (time ran out).
    pub command: String,
    /// The actor's clock after the command (increment included).
    pub clock_ms: i64,
    /// When it was accepted.
    pub at_ms: i64,
}

/// One stored chat line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// `white` or `black`.
    pub side: String,
    /// The text.
    pub text: String,
    /// When it was said.
    pub at_ms: i64,
}

const GAME_COLUMNS: &str = "id, rules, fen, white_user, black_user, white_agent, black_agent, \
     agent_seed, initial_ms, increment_ms, status, result, reason, created_ms, rated, opponent, practice";

fn game_of(row: &sqlx::any::AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get(0)?,
        rules: row.try_get(1)?,
        fen: row.try_get(2)?,
        users: [row.try_get(3)?, row.try_get(4)?],
        agents: [row.try_get(5)?, row.try_get(6)?],
        agent_seed: row.try_get(7)?,
        initial_ms: row.try_get(8)?,
        increment_ms: row.try_get(9)?,
        status: row.try_get(10)?,
        result: row.try_get(11)?,
        reason: row.try_get(12)?,
        created_ms: row.try_get(13)?,
        rated: row.try_get::<i64, _>(14)? != 0,
        opponent: row.try_get(15)?,
        practice: row.try_get::<i64, _>(16)? != 0,
    })
}

impl Store {
    /// Reads the time from `time` from now on (before the store is shared).
    pub fn set_time(&mut self, time: TimeSource) {
        self.time = time;
    }

    /// Where the server reads the time.
    pub fn time(&self) -> &TimeSource {
        &self.time
    }

    /// Milliseconds since the Unix epoch, by the server's time source.
    pub fn now_ms(&self) -> i64 {
        self.time.now_ms()
    }

    /// Opens (creating if missing) the SQLite database `umpire.sqlite3` in `dir`.
    pub async fn open_dir(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create data directory {}: {e}", dir.display()))?;
        let file = dir.join("umpire.sqlite3");
        let url = format!("sqlite://{}?mode=rwc", file.display());
        // SQLite's own message ("unable to open database file") names no file: this does.
        Store::connect(&url)
            .await
            .map_err(|e| format!("{e} (the database file {})", file.display()))
    }

    /// Connects to `sqlite://…` or `postgres://…` and runs the migrations.
    pub async fn connect(url: &str) -> Result<Store, String> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(format!(
                "unsupported database URL {url:?} (use sqlite://FILE or postgres://…)"
            ));
        };
        let options = AnyConnectOptions::from_str(url).map_err(|e| format!("{url}: {e}"))?;
        let max = if backend == Backend::Sqlite { 4 } else { 8 };
        let pool = open_pool(&options, backend, max, false).await?;
        let migrator = migrations::migrator()
            .await
            .map_err(|e| format!("migrations: {e}"))?;
        migrator
            .run(&pool)
            .await
            .map_err(|e| format!("migrations: {e}"))?;
        // The writer's own connection: it never queues behind the readers for one.
        let write_pool = open_pool(&options, backend, 1, true).await?;
        if backend == Backend::Sqlite {
            checkpoint::spawn(pool.clone());
        }
        let commits = Arc::new(CommitCounts::default());
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let writer_stop = Arc::new(tokio::sync::Notify::new());
        Ok(Store {
            time: TimeSource::System,
            writer: writer::spawn(
                write_pool.clone(),
                commits.clone(),
                metrics.clone(),
                writer_stop.clone(),
            ),
            writer_stop,
            metrics,
            pool,
            write_pool,
            backend,
            commits,
        })
    }

    /// The database in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pools, waiting for connections to be returned.
    pub async fn close(&self) {
        // The writer holds its connection between batches: it stops (after the batch in
        // hand) and gives it back, which closing the pool waits for.
        self.writer_stop.notify_one();
        self.write_pool.close().await;
        self.pool.close().await;
    }

    /// Adds a user.
    pub async fn insert_user(&self, user: &UserRow) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO users (id, name, name_key, kind, password_hash, owner, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(name_key(&user.name))
        .bind(&user.kind)
        .bind(&user.password_hash)
        .bind(&user.owner)
        .bind(self.now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn user_where(&self, column: &str, value: &str) -> Result<Option<UserRow>, sqlx::Error> {
        let sql =
            format!("SELECT id, name, kind, password_hash, owner FROM users WHERE {column} = $1");
        let row = sqlx::query(&sql)
            .bind(value)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(UserRow {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
                kind: r.try_get(2)?,
                password_hash: r.try_get(3)?,
                owner: r.try_get(4)?,
            })
        })
        .transpose()
    }

    /// The user of this name, compared by [`name_key`] (`ALICE` finds `alice`).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>, sqlx::Error> {
        self.user_where("name_key", &name_key(name)).await
    }

    /// How many bots an account has made.
    pub async fn bots_of(&self, owner: &str) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) FROM users WHERE owner = $1 AND kind = 'bot'")
            .bind(owner)
            .fetch_one(&self.pool)
            .await?;
        row.try_get(0)
    }

    /// Marks a session used at `at_ms` (its expiry slides from there).
    pub async fn touch_session(&self, token_hash: &str, at_ms: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE sessions SET last_ms = $1 WHERE token_hash = $2")
            .bind(at_ms)
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Removes the sessions unused since `before_ms`; returns how many.
    pub async fn delete_sessions_unused_since(&self, before_ms: i64) -> Result<u64, sqlx::Error> {
        let done = sqlx::query("DELETE FROM sessions WHERE last_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// The user of this id.
    pub async fn user_by_id(&self, id: &str) -> Result<Option<UserRow>, sqlx::Error> {
        self.user_where("id", id).await
    }

    /// Stores a credential (`sessions` or `api_tokens`) by the hash of its token.
    pub async fn insert_credential(
        &self,
        table: Credential,
        token_hash: &str,
        user_id: &str,
    ) -> Result<(), sqlx::Error> {
        let now = self.now_ms();
        let sql = match table {
            Credential::Session => {
                "INSERT INTO sessions (token_hash, user_id, created_ms, last_ms) VALUES ($1, $2, $3, $4)"
            }
            Credential::ApiToken => {
                "INSERT INTO api_tokens (token_hash, user_id, created_ms) VALUES ($1, $2, $3)"
            }
        };
        let mut q = sqlx::query(sql).bind(token_hash).bind(user_id).bind(now);
        if table == Credential::Session {
            q = q.bind(now);
        }
        q.execute(&self.pool).await?;
        Ok(())
    }

    /// The user a credential belongs to, and (a session) when it was last used.
    pub async fn user_by_credential(
        &self,
        table: Credential,
        token_hash: &str,
    ) -> Result<Option<(UserRow, i64)>, sqlx::Error> {
        let last = match table {
            Credential::Session => "c.last_ms",
            Credential::ApiToken => "c.created_ms",
        };
        let sql = format!(
            "SELECT u.id, u.name, u.kind, u.password_hash, u.owner, {last} FROM users u JOIN {} c ON c.user_id = u.id WHERE c.token_hash = $1",
            table.table()
        );
        let row = sqlx::query(&sql)
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok((
                UserRow {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    kind: r.try_get(2)?,
                    password_hash: r.try_get(3)?,
                    owner: r.try_get(4)?,
                },
                r.try_get(5)?,
            ))
        })
        .transpose()
    }

    /// Removes a session.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Adds a game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), sqlx::Error> {
        let sql = format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
        );
        sqlx::query(&sql)
            .bind(&g.id)
            .bind(&g.rules)
            .bind(&g.fen)
            .bind(&g.users[0])
            .bind(&g.users[1])
            .bind(&g.agents[0])
            .bind(&g.agents[1])
            .bind(g.agent_seed)
            .bind(g.initial_ms)
            .bind(g.increment_ms)
            .bind(&g.status)
            .bind(&g.result)
            .bind(&g.reason)
            .bind(g.created_ms)
            .bind(i64::from(g.rated))
            .bind(&g.opponent)
            .bind(i64::from(g.practice))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A game by id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, sqlx::Error> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(game_of).transpose()
    }

    /// Games with this status (all when `None`), newest first, at most `limit`.
    pub async fn games(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<GameRow>, sqlx::Error> {
        let rows = match status {
            Some(s) => {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE status = $1 ORDER BY created_ms DESC, id LIMIT $2"
                );
                sqlx::query(&sql)
                    .bind(s)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?
            }
            None => {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} FROM games ORDER BY created_ms DESC, id LIMIT $1"
                );
                sqlx::query(&sql).bind(limit).fetch_all(&self.pool).await?
            }
        };
        rows.iter().map(game_of).collect()
    }

    /// Every game not over (to rebuild on start).
    pub async fn unfinished_games(&self) -> Result<Vec<GameRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status <> 'over' ORDER BY created_ms, id"
        );
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(game_of).collect()
    }

    /// Seats a user on an open game and makes it live; false if the seat was taken meanwhile.
    pub async fn take_seat(&self, id: &str, side: usize, user: &str) -> Result<bool, sqlx::Error> {
        let column = ["white_user", "black_user"][side];
        let sql = format!(
            "UPDATE games SET {column} = $1, status = 'live' WHERE id = $2 AND status = 'open' AND {column} IS NULL"
        );
        let done = sqlx::query(&sql)
            .bind(user)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Appends one command; if `over` is given, marks the game over in the same transaction,
    /// and if the game is rated, updates both players' ratings and their history in it too (a
    /// crash never leaves a result without its rating change, nor the reverse). Returns once
    /// the transaction holding the command is committed; commands of other games sent
    /// meanwhile may share it (group commit).
    pub async fn append_command(
        &self,
        game: &str,
        row: &CommandRow,
        over: Option<(&str, &str)>,
    ) -> Result<(), sqlx::Error> {
        let (done, committed) = tokio::sync::oneshot::channel();
        let job = writer::Job {
            game: game.to_owned(),
            row: row.clone(),
            over: over.map(|(r, why)| (r.to_owned(), why.to_owned())),
            done,
        };
        self.writer
            .send(job)
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        committed.await.map_err(|_| sqlx::Error::PoolClosed)?
    }

    /// The server's latency histograms.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// `(transactions, commands)` the group-commit writer has committed since the store was
    /// opened.
    pub fn commit_counts(&self) -> (u64, u64) {
        self.commits.get()
    }

    /// Every command of a game, in order.
    pub async fn commands(&self, game: &str) -> Result<Vec<CommandRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT seq, side, command, clock_ms, at_ms FROM commands WHERE game_id = $1 ORDER BY seq",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(CommandRow {
                    seq: r.try_get(0)?,
                    side: r.try_get(1)?,
                    command: r.try_get(2)?,
                    clock_ms: r.try_get(3)?,
                    at_ms: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// Appends a chat line.
    pub async fn append_chat(
        &self,
        game: &str,
        seq: i64,
        line: &ChatRow,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO chat (game_id, seq, side, text, at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game)
        .bind(seq)
        .bind(&line.side)
        .bind(&line.text)
        .bind(line.at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Up to `limit` chat lines of a game numbered below `before`, oldest first, with the
    /// number of the first.
    pub async fn chat_page(
        &self,
        game: &str,
        before: i64,
        limit: i64,
    ) -> Result<(i64, Vec<ChatRow>), sqlx::Error> {
        let rows = sqlx::query(
            "SELECT seq, side, text, at_ms FROM chat WHERE game_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
        )
        .bind(game)
        .bind(before)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut from = before;
        let mut lines = Vec::with_capacity(rows.len());
        for r in rows.iter().rev() {
            if lines.is_empty() {
                from = r.try_get(0)?;
            }
            lines.push(ChatRow {
                side: r.try_get(1)?,
                text: r.try_get(2)?,
                at_ms: r.try_get(3)?,
            });
        }
        Ok((from, lines))
    }

    /// The chat of a game, in order.
    pub async fn chat(&self, game: &str) -> Result<Vec<ChatRow>, sqlx::Error> {
        let rows =
            sqlx::query("SELECT side, text, at_ms FROM chat WHERE game_id = $1 ORDER BY seq")
                .bind(game)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatRow {
                    side: r.try_get(0)?,
                    text: r.try_get(1)?,
                    at_ms: r.try_get(2)?,
                })
            })
            .collect()
    }
}

/// A pool of at most `max` connections to the database of `options`; `writer`: the
/// group-commit writer's (on SQLite its commits never checkpoint the WAL).
async fn open_pool(
    options: &AnyConnectOptions,
    backend: Backend,
    max: u32,
    writer: bool,
) -> Result<AnyPool, String> {
    AnyPoolOptions::new()
        .max_connections(max)
        // No idle timeout and no lifetime: sqlx 0.8 then starts no reaper task, whose
        // idle-count underflow (sqlx issue 3645, fixed upstream after 0.8.6) spins a core forever and
        // hangs the runtime's shutdown; it hung a test's end here. Connections are at most
        // `max` and live as long as the server.
        .idle_timeout(None)
        .max_lifetime(None)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    // WAL: readers do not block the writer. synchronous = NORMAL: a commit is in
                    // the WAL file (the operating system's cache) when it returns, so it survives
                    // the server process being killed (`kill -9`), which is what "nothing lost"
                    // asks; it may lose the last commits on a power loss or kernel crash (FULL
                    // would fsync the WAL at every commit, one fsync per group-commit batch, to
                    // survive those too).
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA busy_timeout = 10000").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    if writer {
                        // The writer's commits never checkpoint: `checkpoint` does, off the
                        // commit path.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                    }
                }
                Ok(())
            })
        })
        .connect_with(options.clone())
        .await
        .map_err(|e| format!("cannot open database: {e}"))
}

/// A kind of bearer credential.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential {
    /// A browser or terminal session (cookie).
    Session,
    /// A bot's API token.
    ApiToken,
}

impl Credential {
    fn table(self) -> &'static str {
        match self {
            Credential::Session => "sessions",
            Credential::ApiToken => "api_tokens",
        }
    }
}
