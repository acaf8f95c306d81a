//! The game WebSocket (`GET /api/games/{id}/ws`): a player's connection gets that player's
//! frames; anyone else's gets the spectator's. Protocol in `docs/PROTOCOL.md`. With
//! `?from=N` the first `state` frame's transcript starts at observation N (a resume). A `ping`
//! is answered here with its `pong`, never reaching the game's task.
//!
//! Frames a client sends are rate-limited per player and game, all its sockets together (a
//! spectator: per connection). Refused frames are answered in time-coalesced `rate_limited`
//! frames ([`crate::http::frame_limit`]): at most one per 250 ms for a player's sockets of a
//! game together (a spectator: for the sockets of its address together), the latest refused
//! frame's, so a client that waits for each answer always hears and a flood is not answered
//! frame by frame, however many sockets it opens. Frames to the client wait in a bounded [`outbox`](crate::game::outbox): a
//! client that does not read is told `lagged` and disconnected.

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, RawQuery, State};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::oneshot;
use umpire_rules::shakmaty::Color;
use umpire_rules::wire::color_name;

use crate::error::ApiError;
use crate::game::hub::RoundHandle;
use crate::game::outbox::{Inbox, OUTBOX_FRAMES, outbox};
use crate::game::projection::{error_frame, pong_frame};
use crate::game::round::{RoundMsg, Seat};
use crate::http::caller::MaybeCaller;
use crate::http::frame_limit::{FrameId, FrameLimit, Refusals};
use crate::http::peer::Peer;
use crate::http::rate_limit::Limiter;
use crate::http::refusal_budget::RefusalBudget;
use crate::http::state::AppState;
use umpire_protocol::client_message::{self, MAX_FRAME_BYTES};

/// Frames larger than this are refused by the transport (the connection closes); frames
/// between [`MAX_FRAME_BYTES`] and this get a `frame_too_large` error and the game goes on.
const TRANSPORT_LIMIT: usize = 64 * 1024;

/// The `N` of `?from=N` in the game socket's query (0 without it): the number of observations
/// the client holds already (a resume). `bad_request` (`bad_resume`) for anything but a whole
/// number that fits 32 bits, or `from` given twice; other parameters are ignored.
fn resume_from(query: Option<&str>) -> Result<u32, ApiError> {
    let mut found = None;
    for pair in query.unwrap_or_default().split('&') {
        let Some(text) = pair.strip_prefix("from=") else {
            continue;
        };
        let n = text.parse::<u32>().map_err(|_| {
            ApiError::bad_request(
                "bad_resume",
                format!(
                    "from={:?}: give the number of observations you hold (0 to {})",
                    text.chars().take(40).collect::<String>(),
                    u32::MAX
                ),
            )
        })?;
        if found.replace(n).is_some() {
            return Err(ApiError::bad_request("bad_resume", "give from=N once"));
        }
    }
    Ok(found.unwrap_or(0))
}

/// Upgrades to the game WebSocket.
pub async fn game_socket(
    State(st): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    peer: Peer,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    // The resume point is checked first, so that a bad one is refused in words whatever else
    // is wrong with the request.
    let from = resume_from(query.as_deref())?;
    let ws = match ws {
        Ok(ws) => ws,
        Err(rejection) => return Ok(rejection.into_response()),
    };
    let Some(row) = st.store.game(&id).await? else {
        // A challenge withdrawn before this socket came: say why, as a waiting socket heard.
        return match crate::lobby::challenge::withdrawal(&st.store, &id).await? {
            Some(why) => {
                let frame = crate::lobby::feed::withdrawn_frame(&id, why);
                Ok(crate::http::socket_buffers::sized(ws, TRANSPORT_LIMIT)
                    .on_upgrade(move |socket| withdrawn(socket, frame)))
            }
            None => Err(ApiError::not_found(format!("no game {id:?}"))),
        };
    };
    if row.status == "over"
        && let Some(ip) = peer.0
        && (st.options.limit_loopback_guests || !ip.is_loopback())
        && !st
            .finished_sockets
            .take(&ip.to_string(), std::time::Instant::now())
    {
        return Err(ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many sockets on finished games from this address: wait a little, or fetch the \
             record (GET /games/ID.pgn) or the review (GET /api/games/ID/review), which need none",
        ));
    }
    let seat = caller
        .and_then(|u| {
            [Color::White, Color::Black].into_iter().find(|&c| {
                row.users[crate::game::round::index(c)].as_deref() == Some(u.id.as_str())
            })
        })
        .map_or(Seat::Spectator, Seat::Player);
    let handle = st.hub.round(&id).await?;
    let limits = Limits {
        frames: st.player_frames.clone(),
        refusals: st.refusals.clone(),
        refusal_key: refusal_key(&id, seat, peer),
    };
    Ok(crate::http::socket_buffers::sized(ws, TRANSPORT_LIMIT)
        .on_upgrade(move |socket| connection(socket, handle, seat, id, from, limits)))
}

/// The limits a connection's frames count against.
struct Limits {
    /// Frames per player and game.
    frames: Arc<Limiter>,
    /// `rate_limited` answers per key.
    refusals: Arc<RefusalBudget>,
    /// This connection's key in `refusals`, see [`refusal_key`].
    refusal_key: String,
}

/// Whose `rate_limited` answers a connection's count against: a player's, all its sockets of
/// this game together; a spectator's, all the sockets of its address (in any game) together;
/// a connection whose address is unknown (a router served without connection info), its own.
fn refusal_key(id: &str, seat: Seat, peer: Peer) -> String {
    static UNKNOWN: AtomicU64 = AtomicU64::new(0);
    match (seat, peer.0) {
        (Seat::Player(side), _) => format!("game {id} {}", color_name(side)),
        (Seat::Spectator, Some(ip)) => format!("address {ip}"),
        (Seat::Spectator, None) => {
            format!("connection {}", UNKNOWN.fetch_add(1, Ordering::Relaxed))
        }
    }
}

/// A socket on a withdrawn challenge: its `withdrawn` frame, then closed.
async fn withdrawn(mut socket: WebSocket, frame: String) {
    let _ = socket.send(Message::Text(frame.into())).await;
    let _ = socket.close().await;
}

/// How long a connection closed for not reading is given to take its last frames.
pub const LAGGED_GRACE: Duration = Duration::from_secs(5);

/// Writes `inbox`'s frames to `sink` until the connection ends; if the client fell
/// [`OUTBOX_FRAMES`] frames behind, tells it so (`lagged`) and closes.
async fn write(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut inbox: Inbox,
    metrics: crate::store::Store,
) {
    while let Some(frame) = inbox.recv().await {
        let began = Instant::now();
        tokio::select! {
            sent = sink.send(Message::Text(frame.into())) => if sent.is_err() {
                return;
            },
            // The client stopped reading and the queue filled behind this write.
            () = inbox.overflow() => break,
        }
        let m = metrics.metrics();
        m.send.record(began.elapsed());
        m.frames_sent.fetch_add(1, Ordering::Relaxed);
    }
    if inbox.overflowed() {
        let why = format!(
            "your client has not read the last {OUTBOX_FRAMES} frames of this game: the connection is closed; connect again for a fresh state"
        );
        let _ = tokio::time::timeout(LAGGED_GRACE, async {
            let _ = sink
                .send(Message::Text(error_frame("lagged", &why, None).into()))
                .await;
            let _ = sink
                .send(Message::Close(Some(CloseFrame {
                    code: close_code::POLICY,
                    reason: "lagged".into(),
                })))
                .await;
        })
        .await;
        return;
    }
    let _ = sink.close().await;
}

async fn connection(
    socket: WebSocket,
    handle: RoundHandle,
    seat: Seat,
    id: String,
    from: u32,
    limits: Limits,
) {
    let store = handle.store().clone();
    let (tx, inbox) = outbox();
    let conn = crate::game::round::next_connection();
    if handle
        .send(RoundMsg::Subscribe {
            seat,
            tx: tx.clone(),
            from,
            conn,
        })
        .await
        .is_err()
    {
        // The game's task ended between the upgrade and now: a challenge withdrawn meanwhile
        // (its tombstone says why), or the server stopping.
        let frame = match crate::lobby::challenge::withdrawal(&store, &id).await {
            Ok(Some(why)) => crate::lobby::feed::withdrawn_frame(&id, why),
            _ => error_frame("not_found", &format!("no game {id:?} any more"), None),
        };
        withdrawn(socket, frame).await;
        return;
    }
    let (sink, mut stream) = socket.split();
    let mut writer = tokio::spawn(write(sink, inbox, store.clone()));
    let mut limit = FrameLimit::new(
        match seat {
            Seat::Player(side) => Some((limits.frames, format!("{id}/{}", color_name(side)))),
            Seat::Spectator => None,
        },
        tokio::time::Instant::now(),
    );
    // A refused frame's text is kept until it is answered (at most one, the latest), and its
    // id read only then: a flood costs no parsing.
    let mut refusals = Refusals::<Option<Utf8Bytes>>::new(limits.refusals, limits.refusal_key);
    // The game's task ended under the connection (in a cluster: handed over to another node,
    // the node draining, its lock lost): nothing more will come, the client must reconnect.
    let mut ended = false;
    loop {
        let due = refusals.due();
        let msg = tokio::select! {
            msg = stream.next() => msg,
            _ = &mut writer => None,
            () = handle.closed() => {
                ended = true;
                None
            }
            // Armed only while a refused frame waits for its answer.
            () = tokio::time::sleep_until(due.unwrap_or_else(tokio::time::Instant::now)), if due.is_some() => {
                if let Some(text) = refusals.fire(tokio::time::Instant::now()) {
                    let _ = tx.send(rate_limited(frame_id(text.as_ref())));
                }
                continue;
            }
        };
        let Some(Ok(msg)) = msg else { break };
        let read = Instant::now();
        let text = match msg {
            Message::Text(t) => Some(t),
            Message::Binary(_) => None,
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let now = tokio::time::Instant::now();
        if !limit.admit(now) {
            if let Some(text) = refusals.refused(text, now) {
                let _ = tx.send(rate_limited(frame_id(text.as_ref())));
            }
            continue;
        }
        let Some(text) = text else {
            let _ = tx.send(error_frame("bad_json", "send text frames (JSON)", None));
            continue;
        };
        let parsed = match client_message::parse(text.as_str()) {
            Ok(m) => m,
            Err(r) => {
                let _ = tx.send(error_frame(r.code, &r.message, r.id));
                continue;
            }
        };
        if let client_message::Action::Ping(n) = parsed.action {
            // Answered here, at once: the game's task never sees a ping.
            let _ = tx.send(pong_frame(n));
            continue;
        }
        let Seat::Player(side) = seat else {
            let _ = tx.send(error_frame(
                "not_a_player",
                "you do not play in this game (spectators only watch)",
                parsed.id,
            ));
            continue;
        };
        let (reply, answer) = oneshot::channel();
        let sent = handle
            .send(RoundMsg::Act {
                side,
                action: parsed.action,
                id: parsed.id,
                reply,
            })
            .await;
        let result = match sent {
            Ok(()) => answer
                .await
                .unwrap_or_else(|_| Err(ApiError::storage("game task ended"))),
            Err(e) => Err(e),
        };
        store.metrics().frame.record(read.elapsed());
        match result {
            Ok(Some(frame)) => {
                let _ = tx.send(frame);
            }
            Ok(None) => {}
            Err(e) => {
                let _ = tx.send(error_frame(e.code, &e.message, parsed.id));
            }
        }
    }
    drop(tx);
    if ended {
        // The frames the task queued before it ended are written, then the socket is closed
        // (the writer ends once every sender of its queue is gone), so that the client
        // reconnects, to the game's new owner; a client not reading gets the lagged grace.
        let _ = tokio::time::timeout(LAGGED_GRACE, &mut writer).await;
    }
    writer.abort();
    let _ = handle.send(RoundMsg::Leave { conn }).await;
}

/// The id of a frame (`None` for a binary frame, or a frame without one).
fn frame_id(text: Option<&Utf8Bytes>) -> FrameId {
    text.and_then(|t| client_message::parse(t.as_str()).map_or_else(|r| r.id, |m| m.id))
}

/// The `rate_limited` answer to the refused frame `id`.
fn rate_limited(id: FrameId) -> String {
    error_frame(
        "rate_limited",
        "too many frames: at most 100 a second per player and game (bursts of 200); this frame was dropped, send it again. Refusals are answered at most once per 250 ms for all your sockets of this game together (spectators: of your address), the latest refused frame's on each socket; the other frames refused meanwhile were dropped unanswered",
        id,
    )
}

/// The largest frame a client may send, for the protocol document.
pub const fn max_frame_bytes() -> usize {
    MAX_FRAME_BYTES
}

#[cfg(test)]
mod tests {
    use super::resume_from;

    #[test]
    fn the_resume_point_is_read_strictly() {
        assert_eq!(resume_from(None).unwrap(), 0);
        assert_eq!(resume_from(Some("")).unwrap(), 0);
        assert_eq!(resume_from(Some("from=7")).unwrap(), 7);
        assert_eq!(resume_from(Some("x=1&from=4294967295")).unwrap(), u32::MAX);
        for bad in [
            "from=",
            "from=-1",
            "from=1e3",
            "from=4294967296",
            "from=1&from=2",
        ] {
            let e = resume_from(Some(bad)).unwrap_err();
            assert_eq!(e.code, "bad_resume", "{bad}");
        }
    }
}
