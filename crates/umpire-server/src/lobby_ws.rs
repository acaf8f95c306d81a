//! The lobby feed (`GET /api/lobby/ws`): a WebSocket that sends the open challenges the
//! caller may see, then each one added or removed. Protocol in `docs/PROTOCOL.md`.
//!
//! Memory per feed is bounded: events come from one shared broadcast ring of
//! [`EVENT_QUEUE`](crate::lobby::EVENT_QUEUE) events; a feed that falls that far behind (a
//! client that does not read) gets an `error` frame `lagged` and is closed, never buffered.
//! Besides that it holds only the ids of the challenges it has shown.

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use crate::AppState;
use crate::auth::MaybeCaller;
use crate::error::ApiError;
use crate::lobby::{Challenge, LobbyEvent, added_frame, removed_frame, snapshot_frame};
use crate::projection::error_frame;

/// The most challenges in the first frame (the newest).
pub const SNAPSHOT_LIMIT: i64 = 500;

/// A client sends nothing on this feed but control frames; a text frame larger than this
/// closes the connection.
const TRANSPORT_LIMIT: usize = 4 * 1024;

/// The open challenges `viewer` (a user id) sees now, newest first.
pub async fn visible_challenges(
    st: &AppState,
    viewer: Option<&str>,
) -> Result<Vec<Challenge>, ApiError> {
    let rows = st.store.games(Some("open"), SNAPSHOT_LIMIT).await?;
    let mut out = Vec::new();
    for row in &rows {
        if row.opponent.is_some()
            && !viewer.is_some_and(|v| {
                row.opponent.as_deref() == Some(v) || row.users.iter().flatten().any(|u| u == v)
            })
        {
            continue;
        }
        if let Some(c) = challenge_of(st, row).await? {
            out.push(c);
        }
    }
    Ok(out)
}

/// The challenge of an open game row, with its people's names.
pub async fn challenge_of(
    st: &AppState,
    row: &crate::store::GameRow,
) -> Result<Option<Challenge>, ApiError> {
    let Some(creator) = row.users.iter().flatten().next() else {
        return Ok(None);
    };
    let Some(creator) = st.store.user_by_id(creator).await? else {
        return Ok(None);
    };
    let opponent = match &row.opponent {
        Some(id) => st.store.user_by_id(id).await?.map(|u| u.name),
        None => None,
    };
    Ok(Challenge::of(row, &creator.name, opponent.as_deref()))
}

/// Upgrades to the lobby feed. Anyone may listen; a caller (session or bot token) also sees
/// the direct challenges it made or received.
pub async fn lobby_socket(
    State(st): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Subscribe before reading the snapshot, so that nothing falls between the two; an event
    // about a challenge already in the snapshot is skipped by id.
    let events = st.hub.lobby().subscribe();
    let viewer = caller.as_ref().map(|u| u.id.clone());
    let challenges = visible_challenges(&st, viewer.as_deref()).await?;
    let first = snapshot_frame(caller.as_ref().map(|u| u.name.as_str()), &challenges);
    let shown: HashSet<String> = challenges.into_iter().map(|c| c.id).collect();
    Ok(crate::socket_buffers::sized(ws, TRANSPORT_LIMIT)
        .on_upgrade(move |socket| feed(socket, events, first, shown, viewer)))
}

/// The frame an event gives this feed, if any; keeps `shown` up to date.
pub fn frame_for(
    event: &LobbyEvent,
    viewer: Option<&str>,
    shown: &mut HashSet<String>,
) -> Option<String> {
    match event {
        LobbyEvent::Added(c) => {
            (c.visible_to(viewer) && shown.insert(c.id.clone())).then(|| added_frame(c))
        }
        LobbyEvent::Removed { id, reason } => shown.remove(id).then(|| removed_frame(id, *reason)),
    }
}

async fn feed(
    socket: WebSocket,
    mut events: broadcast::Receiver<Arc<LobbyEvent>>,
    first: String,
    mut shown: HashSet<String>,
    viewer: Option<String>,
) {
    let (mut sink, mut stream) = socket.split();
    if sink.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let mut bucket = crate::rate_limit::frame_bucket(std::time::Instant::now());
    loop {
        let out = tokio::select! {
            event = events.recv() => match event {
                Ok(event) => frame_for(&event, viewer.as_deref(), &mut shown),
                Err(RecvError::Lagged(n)) => {
                    let frame = error_frame(
                        "lagged",
                        &format!("this feed fell {n} events behind and is closed: connect again for a fresh list"),
                        None,
                    );
                    let _ = sink.send(Message::Text(frame.into())).await;
                    break;
                }
                Err(RecvError::Closed) => break,
            },
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(_) | Message::Binary(_))) => {
                    if !bucket.take(std::time::Instant::now()) {
                        continue;
                    }
                    Some(error_frame(
                        "unknown_command",
                        "the lobby feed takes no commands: use the HTTP API (POST /api/games, …/join, …/decline, DELETE /api/games/ID)",
                        None,
                    ))
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
        };
        if let Some(frame) = out
            && sink.send(Message::Text(frame.into())).await.is_err()
        {
            break;
        }
    }
    let _ = sink.close().await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::Removal;

    fn challenge(id: &str, to: Option<&str>) -> Challenge {
        Challenge {
            id: id.into(),
            creator_id: "u-ann".into(),
            creator: "ann".into(),
            creator_color: "white",
            opponent: to.map(|t| (t.to_owned(), t.trim_start_matches("u-").to_owned())),
            rules: "wild16".into(),
            initial_ms: 600_000,
            increment_ms: 0,
            rated: false,
        }
    }

    #[test]
    fn a_feed_sends_each_challenge_once_and_removes_only_what_it_showed() {
        // g1 was in the snapshot: its `added` (a race with the snapshot) is not sent again.
        let mut shown: HashSet<String> = ["g1".to_owned()].into();
        let added = |c| LobbyEvent::Added(c);
        assert_eq!(
            frame_for(&added(challenge("g1", None)), Some("u-zed"), &mut shown),
            None
        );
        let g2 = frame_for(&added(challenge("g2", None)), Some("u-zed"), &mut shown);
        assert!(g2.is_some_and(|f| f.contains("\"g2\"")));
        // A direct challenge to bob: not for zed, so its removal is not either.
        let direct = added(challenge("g3", Some("u-bob")));
        assert_eq!(frame_for(&direct, Some("u-zed"), &mut shown), None);
        let removed = |id: &str| LobbyEvent::Removed {
            id: id.into(),
            reason: Removal::Declined,
        };
        assert_eq!(frame_for(&removed("g3"), Some("u-zed"), &mut shown), None);
        // Bob's feed shows it and its removal.
        let mut bobs = HashSet::new();
        assert!(frame_for(&direct, Some("u-bob"), &mut bobs).is_some());
        let r = frame_for(&removed("g3"), Some("u-bob"), &mut bobs).unwrap();
        assert!(r.contains("\"declined\""), "{r}");
        assert!(bobs.is_empty());
        // Removing g1 and g2 empties zed's set.
        assert!(frame_for(&removed("g1"), Some("u-zed"), &mut shown).is_some());
        assert!(frame_for(&removed("g2"), Some("u-zed"), &mut shown).is_some());
        assert!(shown.is_empty());
    }
}
