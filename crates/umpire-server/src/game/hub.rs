//! [`Hub`]: finds or starts the task of a game, rebuilds unfinished games on start, stops all
//! on shutdown.

use std::collections::HashMap;
use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinHandle;

use crate::error::ApiError;
use crate::game::round::{Round, RoundMsg};
use crate::lobby::feed::Lobby;
use crate::store::{GameRow, Store};

/// How many messages may wait for one game's task.
const QUEUE: usize = 256;

/// A handle on a game's task.
#[derive(Clone, Debug)]
pub struct RoundHandle {
    tx: mpsc::Sender<RoundMsg>,
    store: Store,
}

impl RoundHandle {
    /// The storage the game's task writes to (and its metrics).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Resolves when the game's task has ended (stopped, handed over to another node, or
    /// the server stopping): a connection on it then has nothing more to wait for.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }

    /// Sends a message; `unavailable` if the task is gone (server stopping).
    pub async fn send(&self, msg: RoundMsg) -> Result<(), ApiError> {
        self.tx.send(msg).await.map_err(|_| {
            ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "the game is not running (the server is stopping)",
            )
        })
    }
}

/// Every running game task.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    rounds: Mutex<HashMap<String, RoundHandle>>,
    tasks: StdMutex<Vec<JoinHandle<()>>>,
    abandon_ms: AtomicU64,
    expiry_ms: AtomicU64,
    creator_gone_ms: AtomicU64,
    idle_ms: AtomicU64,
    lobby: Lobby,
    /// This node's cluster, if it is one of several (`crate::cluster`): a game runs here only
    /// while this node owns it.
    cluster: std::sync::OnceLock<std::sync::Arc<crate::cluster::Cluster>>,
}

/// The display names of a game's seats: the user's name, `agent:KIND`, or `?` for a free seat.
pub async fn seat_names(store: &Store, row: &GameRow) -> Result<[String; 2], ApiError> {
    let mut names = [String::from("?"), String::from("?")];
    for (name, (user, agent)) in names.iter_mut().zip(row.users.iter().zip(&row.agents)) {
        if let Some(user) = user {
            if let Some(u) = store.user_by_id(user).await? {
                *name = u.name;
            }
        } else if let Some(agent) = agent {
            *name = format!("agent:{agent}");
        }
    }
    Ok(names)
}

impl Hub {
    /// A hub over this store, with no game running.
    pub fn new(store: Store) -> Hub {
        Hub {
            store,
            rounds: Mutex::new(HashMap::new()),
            tasks: StdMutex::new(Vec::new()),
            abandon_ms: AtomicU64::new(crate::game::round::ABANDON_AFTER.as_millis() as u64),
            expiry_ms: AtomicU64::new(crate::game::round::CHALLENGE_EXPIRY.as_millis() as u64),
            creator_gone_ms: AtomicU64::new(crate::game::round::CREATOR_GONE.as_millis() as u64),
            idle_ms: AtomicU64::new(crate::game::round::IDLE_UNLOAD.as_millis() as u64),
            lobby: Lobby::new(),
            cluster: std::sync::OnceLock::new(),
        }
    }

    /// Makes this hub one node of `cluster` (once, before any game runs).
    pub fn set_cluster(&self, cluster: std::sync::Arc<crate::cluster::Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// This node's cluster, if any.
    pub fn cluster(&self) -> Option<&std::sync::Arc<crate::cluster::Cluster>> {
        self.cluster.get()
    }

    /// The lobby's event channel.
    pub fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    /// Sets how long an open game waits for an opponent before it expires (counted from its
    /// creation), for games started from now on.
    pub fn set_challenge_expiry(&self, after: Duration) {
        self.expiry_ms
            .store(after.as_millis() as u64, Ordering::Relaxed);
    }

    /// Sets how long an open game's creator may be gone (its game sockets on it all closed)
    /// before the challenge is withdrawn as `abandoned`, for games started from now on.
    pub fn set_creator_gone(&self, after: Duration) {
        self.creator_gone_ms
            .store(after.as_millis() as u64, Ordering::Relaxed);
    }

    /// Sets how long the side to move may stay away before it loses by abandonment (or the
    /// game is aborted before both sides moved), for games started from now on.
    pub fn set_abandon_after(&self, after: Duration) {
        self.abandon_ms
            .store(after.as_millis() as u64, Ordering::Relaxed);
    }

    /// Sets how long a finished game's task stays without a connection before it ends
    /// (default [`crate::game::round::IDLE_UNLOAD`]), for games started from now on.
    pub fn set_idle_unload(&self, after: Duration) {
        self.idle_ms
            .store(after.as_millis() as u64, Ordering::Relaxed);
    }

    /// How many game tasks are running.
    pub async fn running(&self) -> usize {
        let mut map = self.rounds.lock().await;
        map.retain(|_, h| !h.tx.is_closed());
        map.len()
    }

    /// Starts the task of the game of `row`; in a cluster, `owned` is this node's ownership of
    /// it (given back if the game cannot be loaded).
    async fn spawn(
        &self,
        map: &mut HashMap<String, RoundHandle>,
        row: GameRow,
        owned: Option<(
            std::sync::Arc<crate::cluster::Cluster>,
            crate::cluster::Ownership,
        )>,
    ) -> Result<RoundHandle, ApiError> {
        let id = row.id.clone();
        let names = match seat_names(&self.store, &row).await {
            Ok(names) => names,
            Err(e) => {
                if let Some((cluster, ownership)) = owned {
                    cluster.disown(ownership).await;
                }
                return Err(e);
            }
        };
        let mut round = match Round::load(self.store.clone(), row, names).await {
            Ok(round) => round,
            Err(e) => {
                if let Some((cluster, ownership)) = owned {
                    cluster.disown(ownership).await;
                }
                return Err(ApiError::storage(e));
            }
        };
        round.abandon_after = Duration::from_millis(self.abandon_ms.load(Ordering::Relaxed));
        round.challenge_expiry = Duration::from_millis(self.expiry_ms.load(Ordering::Relaxed));
        round.creator_gone = Duration::from_millis(self.creator_gone_ms.load(Ordering::Relaxed));
        round.lobby = Some(self.lobby.clone());
        round.idle_unload = Duration::from_millis(self.idle_ms.load(Ordering::Relaxed));
        // Ended tasks leave the map and the list (a game unloaded when idle, or withdrawn).
        map.retain(|_, h| !h.tx.is_closed());
        let (tx, rx) = mpsc::channel(QUEUE);
        let task = tokio::spawn(crate::game::cluster_node::run_owned(
            Box::new(round),
            rx,
            owned,
        ));
        if let Ok(mut tasks) = self.tasks.lock() {
            tasks.retain(|t| !t.is_finished());
            tasks.push(task);
        }
        let handle = RoundHandle {
            tx,
            store: self.store.clone(),
        };
        map.insert(id, handle.clone());
        Ok(handle)
    }

    /// The task of game `id`, started from storage if it is not running; `not_found` if there
    /// is no such game (or the reason's code if it was a challenge withdrawn lately).
    pub async fn round(&self, id: &str) -> Result<RoundHandle, ApiError> {
        let Some(cluster) = self.cluster.get() else {
            let mut map = self.rounds.lock().await;
            if let Some(h) = Hub::running_in(&mut map, id) {
                return Ok(h);
            }
            let Some(row) = self.store.game(id).await? else {
                return Err(crate::lobby::challenge::missing(&self.store, id).await);
            };
            return self.spawn(&mut map, row, None).await;
        };
        if let Some(h) = Hub::running_in(&mut *self.rounds.lock().await, id) {
            return Ok(h);
        }
        // In a cluster, the game runs here only while this node holds its lock, taken before
        // the game is read (every command its last owner committed is then in storage), and
        // outside the map's lock (taking it may wait for another node to hand the game over).
        let ownership = crate::game::cluster_node::acquire(cluster, id).await?;
        let mut map = self.rounds.lock().await;
        if let Some(h) = Hub::running_in(&mut map, id) {
            cluster.disown(ownership).await;
            return Ok(h);
        }
        let row = match self.store.game(id).await {
            Ok(Some(row)) => row,
            Ok(None) => {
                cluster.disown(ownership).await;
                return Err(crate::lobby::challenge::missing(&self.store, id).await);
            }
            Err(e) => {
                cluster.disown(ownership).await;
                return Err(e.into());
            }
        };
        self.spawn(&mut map, row, Some((cluster.clone(), ownership)))
            .await
    }

    /// The handle of game `id` if its task runs (an ended one leaves the map).
    fn running_in(map: &mut HashMap<String, RoundHandle>, id: &str) -> Option<RoundHandle> {
        match map.get(id) {
            Some(h) if !h.tx.is_closed() => Some(h.clone()),
            // The task ended (a challenge withdrawn or expired): ask storage again.
            Some(_) => {
                map.remove(id);
                None
            }
            None => None,
        }
    }

    /// Starts the task of every unfinished game (crash recovery is replay); returns how many.
    pub async fn recover(&self) -> Result<usize, String> {
        if self.cluster.get().is_some() {
            // A node of a cluster adopts the games nobody owns instead (`cluster_node`).
            return Ok(0);
        }
        let rows = self
            .store
            .unfinished_games()
            .await
            .map_err(|e| e.to_string())?;
        let mut map = self.rounds.lock().await;
        let mut n = 0;
        for row in rows {
            let id = row.id.clone();
            match self.spawn(&mut map, row, None).await {
                Ok(_) => n += 1,
                Err(e) => tracing::error!("game {id}: not recovered: {e}"),
            }
        }
        Ok(n)
    }

    /// Stops every game task after the message it is handling and waits for them (at most
    /// `grace`).
    pub async fn shutdown(&self, grace: Duration) {
        let handles: Vec<RoundHandle> = self.rounds.lock().await.drain().map(|(_, h)| h).collect();
        for h in handles {
            let _ = h.tx.send(RoundMsg::Stop).await;
        }
        let tasks: Vec<JoinHandle<()>> = self
            .tasks
            .lock()
            .map(|mut t| std::mem::take(&mut *t))
            .unwrap_or_default();
        let _ = tokio::time::timeout(grace, async {
            for t in tasks {
                let _ = t.await;
            }
        })
        .await;
    }
}
