//! `LISTEN/NOTIFY` between the nodes of a cluster, on two channels:
//! - `umpire_lobby`: each lobby event made on a node, as `NODE added ID` or
//!   `NODE removed ID REASON` (ids and reason words only). The other nodes re-read the game's
//!   row and tell their own feeds. Notifications are not replayed: after the listener
//!   reconnects, a node re-reads the open challenges and tells its feeds what changed meanwhile
//!   (a resnapshot).
//! - `umpire_handover`: `NODE ID`: node NODE's clients ask for game ID (the load balancer
//!   sends them there); its owner stops the game unless it was handed it over less than
//!   [`MIN_HOLD`](super::MIN_HOLD) ago, and the game's clients reconnect to NODE, which takes
//!   it.

use std::collections::HashSet;
use std::sync::Arc;

use sqlx::postgres::PgListener;
use tokio::sync::{broadcast, mpsc};

use super::Cluster;
use crate::lobby::feed::{Challenge, Lobby, LobbyEvent, Removal};
use crate::store::{GameRow, Store};

/// The channel of lobby events.
pub const LOBBY_CHANNEL: &str = "umpire_lobby";

/// The channel of hand-over requests.
pub const HANDOVER_CHANNEL: &str = "umpire_handover";

/// How many lobby events of this node may wait to be told to the others.
pub const RELAY_QUEUE: usize = 1024;

/// The most open challenges a node tracks for its resnapshots (beyond, new ones are not
/// tracked, and a removal missed during a reconnect is not repaired for them).
pub const MAX_TRACKED: usize = 100_000;

/// The payload of a lobby event made on node `node`.
pub fn lobby_payload(node: &str, event: &LobbyEvent) -> String {
    match event {
        LobbyEvent::Added(c) => format!("{node} added {}", c.id),
        LobbyEvent::Removed { id, reason } => format!("{node} removed {id} {}", reason.as_str()),
    }
}

/// A lobby notification read back: (node, event kind, id, reason).
fn parse(payload: &str) -> Option<(&str, &str, &str, Option<Removal>)> {
    let mut words = payload.split(' ');
    let node = words.next()?;
    let kind = words.next()?;
    let id = words.next()?;
    let reason = words.next().and_then(Removal::parse);
    Some((node, kind, id, reason))
}

/// The challenge of an open game row, with its people's names (`None` if it is not open).
pub async fn challenge_of(store: &Store, row: &GameRow) -> Result<Option<Challenge>, sqlx::Error> {
    let Some(creator) = row.users.iter().flatten().next() else {
        return Ok(None);
    };
    let Some(creator) = store.user_by_id(creator).await? else {
        return Ok(None);
    };
    let opponent = match &row.opponent {
        Some(id) => store.user_by_id(id).await?.map(|u| u.name),
        None => None,
    };
    Ok(Challenge::of(row, &creator.name, opponent.as_deref()))
}

/// Why a challenge is no longer open, read from storage.
async fn why_gone(store: &Store, id: &str) -> Removal {
    if let Ok(Some(w)) = store.withdrawn(id, store.now_ms()).await
        && let Some(r) = Removal::parse(&w.reason)
    {
        return r;
    }
    Removal::Joined
}

/// Starts the relay: this node's lobby events are notified to the others, theirs told to this
/// node's feeds, and hand-over requests passed to `cluster`. Runs until the cluster is
/// dropped.
pub async fn spawn(
    cluster: &Arc<Cluster>,
    store: Store,
    lobby: Lobby,
    url: &str,
) -> Result<(), String> {
    let mut listener = PgListener::connect(url)
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    listener
        .listen_all([LOBBY_CHANNEL, HANDOVER_CHANNEL])
        .await
        .map_err(|e| format!("LISTEN: {e}"))?;
    let (tx, mut rx) = mpsc::channel::<Arc<LobbyEvent>>(RELAY_QUEUE);
    lobby.relay_to(tx);
    // Out: this node's events, notified.
    let me = Arc::downgrade(cluster);
    tokio::spawn(async move {
        while let Some(event) = rx.recv().await {
            let Some(cluster) = me.upgrade() else { break };
            let payload = lobby_payload(&cluster.node().id, &event);
            if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(LOBBY_CHANNEL)
                .bind(payload)
                .execute(cluster.pool())
                .await
            {
                tracing::warn!("lobby relay: {e}");
            }
        }
    });
    // What this node's feeds were told, for the resnapshots (apart from the listener: its
    // `try_recv` is not raced against anything).
    let open = Arc::new(std::sync::Mutex::new(Tracked::default()));
    let mut seen = lobby.subscribe();
    let tracked = open.clone();
    tokio::spawn(async move {
        loop {
            match seen.recv().await {
                Ok(event) => {
                    if let Ok(mut t) = tracked.lock() {
                        t.see(&event);
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    });
    // In: the others' events and requests.
    let me = Arc::downgrade(cluster);
    tokio::spawn(async move {
        loop {
            let note = listener.try_recv().await;
            let Some(cluster) = me.upgrade() else { break };
            match note {
                Ok(Some(note)) => {
                    let payload = note.payload();
                    if note.channel() == HANDOVER_CHANNEL {
                        if let Some((node, id)) = payload.split_once(' ')
                            && node != cluster.node().id
                            && cluster.hand_over(id)
                        {
                            tracing::info!("game {id}: handed over to node {node}");
                        }
                        continue;
                    }
                    heard(&store, &lobby, &cluster.node().id, payload).await;
                }
                // The connection was lost and is made again: what was notified meanwhile is
                // lost, so look at storage again.
                Ok(None) => {
                    tracing::warn!("lobby relay: reconnected; resnapshot");
                    let known = open.lock().map(|t| t.ids.clone()).unwrap_or_default();
                    resnapshot(&store, &lobby, &known).await;
                }
                Err(e) => {
                    tracing::warn!("lobby relay: {e}");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    });
    Ok(())
}

/// Tells this node's feeds a lobby event notified by another node.
async fn heard(store: &Store, lobby: &Lobby, me: &str, payload: &str) {
    let Some((node, kind, id, reason)) = parse(payload) else {
        return;
    };
    if node == me {
        return;
    }
    match (kind, reason) {
        ("added", _) => {
            if let Ok(Some(row)) = store.game(id).await
                && let Ok(Some(c)) = challenge_of(store, &row).await
            {
                lobby.publish_local(LobbyEvent::Added(c));
            }
        }
        ("removed", Some(reason)) => lobby.publish_local(LobbyEvent::Removed {
            id: id.to_owned(),
            reason,
        }),
        _ => {}
    }
}

/// The open challenges this node's feeds were told of (bounded by [`MAX_TRACKED`]).
#[derive(Default)]
struct Tracked {
    ids: HashSet<String>,
}

impl Tracked {
    fn see(&mut self, event: &LobbyEvent) {
        match event {
            LobbyEvent::Added(c) => {
                if self.ids.len() < MAX_TRACKED {
                    self.ids.insert(c.id.clone());
                }
            }
            LobbyEvent::Removed { id, .. } => {
                self.ids.remove(id);
            }
        }
    }
}

/// Tells the feeds every open challenge (they skip those they show) and the removal of each
/// of `known` (those they were told of) that is no longer open.
async fn resnapshot(store: &Store, lobby: &Lobby, known: &HashSet<String>) {
    let Ok(rows) = store.games(Some("open"), MAX_TRACKED as i64).await else {
        return;
    };
    let mut now_open = HashSet::new();
    for row in &rows {
        now_open.insert(row.id.clone());
        if let Ok(Some(c)) = challenge_of(store, row).await {
            lobby.publish_local(LobbyEvent::Added(c));
        }
    }
    for id in known.iter().filter(|id| !now_open.contains(*id)) {
        let reason = why_gone(store, id).await;
        lobby.publish_local(LobbyEvent::Removed {
            id: id.clone(),
            reason,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_carry_ids_and_reasons_only() {
        let removed = LobbyEvent::Removed {
            id: "g1".into(),
            reason: Removal::Expired,
        };
        let p = lobby_payload("n1", &removed);
        assert_eq!(p, "n1 removed g1 expired");
        assert_eq!(
            parse(&p),
            Some(("n1", "removed", "g1", Some(Removal::Expired)))
        );
        assert_eq!(parse("n1"), None);
    }
}
