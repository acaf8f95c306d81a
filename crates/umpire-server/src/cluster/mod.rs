//! Several `umpire serve` nodes on one PostgreSQL database (`docs/CLUSTER.md`).
//!
//! PostgreSQL is the shared truth; no state is shared between nodes but through it:
//! - [`game_locks`]: a node owns a live game while it holds the game's session-level advisory
//!   lock, on one dedicated connection per node. The stored commands' key (game, index) makes a
//!   stale owner's late write fail instead of forking the game (the round then drops the game).
//! - [`registry`]: the `nodes` table (where each node listens, its heartbeat, whether it
//!   drains), the owner of a game (read from `pg_locks`), the unowned unfinished games that a
//!   node adopts.
//! - [`relay`]: `LISTEN/NOTIFY`: the lobby's events (ids only; listeners re-read the rows, and
//!   resnapshot after a reconnect) and requests to hand a game over to the node the load
//!   balancer sends its clients to.
//! - [`node_options`]: the `--node-id` options, refused on SQLite.
//!
//! [`Cluster`] holds them and the leases of the games this node runs.
//!
//! Connections per node, whatever the number of games: the store's pools (8 + 1 writer), one
//! lock connection, one listener and [`REGISTRY_POOL`] for the registry: 13.

pub mod game_locks;
pub mod node_options;
pub mod registry;
pub mod relay;

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::sync::Notify;

pub use game_locks::{GameLocks, Lease};
pub use node_options::NodeOptions;

/// Connections of the registry's pool (heartbeats, owners, orphans, notifications).
pub const REGISTRY_POOL: u32 = 2;

/// How often the lock connection is checked: a node whose lock connection died stops its
/// games within this time (plus the ping's timeout).
pub const CHECK_EVERY: Duration = Duration::from_secs(1);

/// A node keeps a game it was handed over at least this long before it hands it over again
/// on request (so that two nodes whose clients disagree cannot pass a game to and fro faster
/// than this). A game it took free (created here, adopted, or its owner died) it hands over
/// at once: the first hand-over of a game created on a node its id does not hash to costs no
/// wait.
pub const MIN_HOLD: Duration = Duration::from_secs(1);

/// How long a draining node keeps serving after its games stopped and its health check
/// failed: the load balancer's health checks (`deploy/haproxy.cfg`: every second, down after
/// two failures) take the node out meanwhile, and clients reconnecting are sent elsewhere.
pub const DRAIN_NOTICE: Duration = Duration::from_secs(3);

/// A game this node runs: its lease's epoch, until when it is kept against hand-over requests
/// ([`MIN_HOLD`] after a hand-over to this node, none after a free take), how to stop its
/// task, and how many ownerships of it are out (a request may take one while the task still
/// runs: it gives it back at once).
#[derive(Debug)]
struct Held {
    epoch: u64,
    hold_until: Instant,
    stop: Arc<Notify>,
    count: usize,
}

/// The ownership of one game by this node: hold it while the game's task runs, and give it
/// back with [`Cluster::disown`] when the task ends.
#[derive(Debug)]
pub struct Ownership {
    lease: Lease,
    /// Notified when the node must stop the game at once (its lock is lost, another node asks
    /// for it, or the node drains).
    pub stop: Arc<Notify>,
}

/// This node of a cluster.
#[derive(Debug)]
pub struct Cluster {
    node: NodeOptions,
    locks: GameLocks,
    pool: PgPool,
    held: StdMutex<HashMap<String, Held>>,
    draining: AtomicBool,
}

impl Cluster {
    /// Connects this node to the database at `url` (PostgreSQL): the registry's pool now, the
    /// lock connection at the first lock.
    pub async fn connect(url: &str, node: NodeOptions) -> Result<Arc<Cluster>, String> {
        let application_name = format!("umpire:{}", node.id);
        let locks = GameLocks::new(url, &application_name)?;
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| format!("{url}: {e}"))?
            .application_name(&application_name);
        let pool = PgPoolOptions::new()
            .max_connections(REGISTRY_POOL)
            .acquire_timeout(Duration::from_secs(10))
            // No reaper task (see `store::open_pool`: sqlx 0.8's reaper can spin forever).
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        Ok(Arc::new(Cluster {
            node,
            locks,
            pool,
            held: StdMutex::new(HashMap::new()),
            draining: AtomicBool::new(false),
        }))
    }

    /// This node's options.
    pub fn node(&self) -> &NodeOptions {
        &self.node
    }

    /// The registry's pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Whether this node drains (takes no game, hands its games over).
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// Takes `game` if nobody owns it: `Ok(None)` if another node does, or if this one drains.
    /// `handed`: this node asked another one for the game (it is then kept [`MIN_HOLD`]
    /// against requests to hand it over again).
    pub async fn own(&self, game: &str, handed: bool) -> Result<Option<Ownership>, sqlx::Error> {
        if self.draining() {
            return Ok(None);
        }
        let Some(lease) = self.locks.try_own(game).await? else {
            return Ok(None);
        };
        let mut held = self
            .held
            .lock()
            .map_err(|_| sqlx::Error::Protocol("poisoned".into()))?;
        let hold_until = if handed {
            Instant::now() + MIN_HOLD
        } else {
            Instant::now()
        };
        let h = held.entry(game.to_owned()).or_insert_with(|| Held {
            epoch: lease.epoch,
            hold_until,
            stop: Arc::new(Notify::new()),
            count: 0,
        });
        if h.epoch != lease.epoch {
            // Left from a lock connection since lost: a fresh start.
            *h = Held {
                epoch: lease.epoch,
                hold_until,
                stop: Arc::new(Notify::new()),
                count: 0,
            };
        }
        h.count += 1;
        let stop = h.stop.clone();
        Ok(Some(Ownership { lease, stop }))
    }

    /// Gives back an ownership (the game's task ended, or it was taken while the task ran).
    pub async fn disown(&self, ownership: Ownership) {
        if let Ok(mut held) = self.held.lock()
            && let Some(h) = held.get_mut(&ownership.lease.game)
            && Arc::ptr_eq(&h.stop, &ownership.stop)
        {
            h.count = h.count.saturating_sub(1);
            if h.count == 0 {
                held.remove(&ownership.lease.game);
            }
        }
        self.locks.release(ownership.lease).await;
    }

    /// How many games this node owns.
    pub fn owned(&self) -> usize {
        self.held.lock().map_or(0, |h| h.len())
    }

    /// Stops every game whose lease is of `epoch` (its lock connection died: the locks are
    /// gone, and another node may already run the games).
    fn lost(&self, epoch: u64) {
        if let Ok(held) = self.held.lock() {
            for h in held.values().filter(|h| h.epoch == epoch) {
                h.stop.notify_one();
            }
        }
    }

    /// Stops `game` (another node's clients ask for it) unless this node was handed it over
    /// less than [`MIN_HOLD`] ago; returns whether it did.
    pub fn hand_over(&self, game: &str) -> bool {
        let Ok(held) = self.held.lock() else {
            return false;
        };
        match held.get(game) {
            Some(h) if Instant::now() >= h.hold_until => {
                h.stop.notify_one();
                true
            }
            _ => false,
        }
    }

    /// Drains: takes no game any more, says so in the registry (and to the load balancer's
    /// health checks), and stops every game it runs (their clients reconnect, through the load
    /// balancer, to another node, which takes the game over).
    pub async fn drain(&self) {
        self.draining.store(true, Ordering::Relaxed);
        let _ = registry::heartbeat(self).await;
        if let Ok(held) = self.held.lock() {
            for h in held.values() {
                h.stop.notify_one();
            }
        }
    }

    /// Leaves the cluster: the lock connection closes (every lock is released) and the node's
    /// row is removed.
    pub async fn close(&self) {
        self.draining.store(true, Ordering::Relaxed);
        self.locks.close().await;
        let _ = registry::leave(self).await;
        self.pool.close().await;
    }

    /// Checks the lock connection every [`CHECK_EVERY`] and stops the games whose locks are
    /// lost; beats the registry's heartbeat. Ends when the cluster is dropped.
    pub fn spawn_watchdog(self: &Arc<Self>) {
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut beat = Instant::now() - registry::HEARTBEAT;
            loop {
                tokio::time::sleep(CHECK_EVERY).await;
                let Some(cluster) = me.upgrade() else { break };
                if let Err(epoch) = cluster.locks.check().await {
                    tracing::warn!(
                        "node {}: the lock connection is lost: stopping its games",
                        cluster.node.id
                    );
                    cluster.lost(epoch);
                }
                if beat.elapsed() >= registry::HEARTBEAT && !cluster.draining() {
                    beat = Instant::now();
                    if let Err(e) = registry::heartbeat(&cluster).await {
                        tracing::warn!("node {}: heartbeat: {e}", cluster.node.id);
                    }
                }
            }
        });
    }
}
