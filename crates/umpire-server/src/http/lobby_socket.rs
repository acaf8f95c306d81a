//! The lobby feed (`GET /api/lobby/ws`): a WebSocket that sends the open challenges the
//! caller may see, then each one added or removed. Protocol in `docs/PROTOCOL.md`.
//!
//! Memory per feed is bounded: events come from one shared broadcast ring of
//! [`EVENT_QUEUE`](crate::lobby::feed::EVENT_QUEUE) events, and the frames the client has not read
//! are counted: the server pings every [`PING_EVERY`] frames, a client answers a ping when it
//! reads that far (WebSocket clients do so on their own), and a feed more than
//! [`MAX_UNREAD`] frames ahead of its client's last answer (a client that does not read), or
//! one that falls behind the ring, gets an `error` frame `lagged` and is closed. Without the
//! count a slow client would only be noticed once the kernel's socket buffers (megabytes)
//! were full. Besides that a feed holds only the ids of the challenges it has shown.

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ApiError;
use crate::game::projection::error_frame;
use crate::http::caller::MaybeCaller;
use crate::http::state::AppState;
use crate::lobby::feed::{Challenge, LobbyEvent, added_frame, removed_frame, snapshot_frame};

/// The most challenges in the first frame (the newest).
pub const SNAPSHOT_LIMIT: i64 = 500;

/// The server pings a feed after every this many frames; the ping carries the count of
/// frames sent so far, which the client's answer (its pong) confirms as read.
pub const PING_EVERY: u64 = 64;

/// The most frames a feed sends beyond what its client has confirmed as read; one more and the
/// feed is `lagged` and closed.
pub const MAX_UNREAD: u64 = 1024;

/// How long a closed feed waits for its client to read what was sent and answer the close.
pub const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

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
    Ok(crate::http::socket_buffers::sized(ws, TRANSPORT_LIMIT)
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
    let mut bucket = crate::http::rate_limit::frame_bucket(std::time::Instant::now());
    let mut unread = Unread::default();
    loop {
        let out = tokio::select! {
            event = events.recv() => match event {
                Ok(event) => frame_for(&event, viewer.as_deref(), &mut shown),
                Err(RecvError::Lagged(n)) => {
                    lagged(&mut sink, &format!("this feed fell {n} events behind")).await;
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
                Some(Ok(Message::Pong(payload))) => {
                    unread.answered(&payload);
                    None
                }
                Some(Ok(Message::Ping(_))) => None,
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
        };
        let Some(frame) = out else { continue };
        if sink.send(Message::Text(frame.into())).await.is_err() {
            break;
        }
        match unread.sent() {
            Sent::Fine => {}
            Sent::Ping(payload) => {
                if sink.send(Message::Ping(payload)).await.is_err() {
                    break;
                }
            }
            Sent::Lagged(n) => {
                let why = format!("your client has not read the last {n} frames of this feed");
                lagged(&mut sink, &why).await;
                break;
            }
        }
    }
    let _ = sink.close().await;
    // Read on until the client answers the close (or a while passes): dropping a connection
    // with the client's frames unread (its pongs, its close) would reset it, and the client
    // would lose the frames it has not read yet, the `lagged` frame among them.
    let _ = tokio::time::timeout(CLOSE_GRACE, async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Sends the `lagged` error frame (`why` and what to do); the caller then closes the feed.
async fn lagged(sink: &mut futures_util::stream::SplitSink<WebSocket, Message>, why: &str) {
    let frame = error_frame(
        "lagged",
        &format!("{why}: it is closed; connect again for a fresh list"),
        None,
    );
    let _ = sink.send(Message::Text(frame.into())).await;
}

/// The frames a feed sent and how many of them its client confirmed as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unread {
    sent: u64,
    confirmed: u64,
}

/// What to do after a frame was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// Nothing more.
    Fine,
    /// Send this ping (the count of frames sent, big-endian).
    Ping(axum::body::Bytes),
    /// The client is this many frames behind: more than [`MAX_UNREAD`].
    Lagged(u64),
}

impl Unread {
    /// One more frame was sent.
    pub fn sent(&mut self) -> Sent {
        self.sent += 1;
        let behind = self.sent - self.confirmed;
        if behind > MAX_UNREAD {
            Sent::Lagged(behind)
        } else if self.sent.is_multiple_of(PING_EVERY) {
            Sent::Ping(axum::body::Bytes::copy_from_slice(&self.sent.to_be_bytes()))
        } else {
            Sent::Fine
        }
    }

    /// The client answered a ping with `payload`: the frames before it are read. A pong
    /// that is not the answer to one of this feed's pings (a client may send pongs of its
    /// own) confirms nothing beyond what was sent.
    pub fn answered(&mut self, payload: &[u8]) {
        if let Ok(bytes) = <[u8; 8]>::try_from(payload) {
            let upto = u64::from_be_bytes(bytes).min(self.sent);
            self.confirmed = self.confirmed.max(upto);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby::feed::Removal;

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
            practice: false,
        }
    }

    #[test]
    fn a_feed_pings_and_is_lagged_past_the_unread_bound_unless_answered() {
        let mut u = Unread::default();
        let mut pings = Vec::new();
        for _ in 0..MAX_UNREAD {
            match u.sent() {
                Sent::Fine => {}
                Sent::Ping(p) => pings.push(p),
                Sent::Lagged(n) => panic!("lagged at {n}"),
            }
        }
        assert_eq!(pings.len() as u64, MAX_UNREAD / PING_EVERY);
        assert_eq!(&pings[0][..], &PING_EVERY.to_be_bytes());
        // A claim beyond what was sent confirms only what was sent; junk confirms nothing.
        let mut liar = u;
        liar.answered(&u64::MAX.to_be_bytes());
        assert_eq!(liar.confirmed, MAX_UNREAD);
        u.answered(b"junk");
        assert_eq!(u.sent(), Sent::Lagged(MAX_UNREAD + 1));
        // Answering the first ping makes room for its frames.
        let mut v = Unread::default();
        for _ in 0..MAX_UNREAD {
            v.sent();
        }
        v.answered(&pings[0]);
        assert_eq!(v.sent(), Sent::Fine);
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
