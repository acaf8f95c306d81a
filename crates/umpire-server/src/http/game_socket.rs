//! The game WebSocket (`GET /api/games/{id}/ws`): a player's connection gets that player's
//! frames; anyone else's gets the spectator's. Protocol in `docs/PROTOCOL.md`.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use std::sync::atomic::Ordering;
use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};
use umpire_rules::shakmaty::Color;

use crate::error::ApiError;
use crate::game::hub::RoundHandle;
use crate::game::projection::error_frame;
use crate::game::round::{RoundMsg, Seat};
use crate::http::caller::MaybeCaller;
use crate::http::state::AppState;
use umpire_protocol::client_message::{self, MAX_FRAME_BYTES};

/// Frames larger than this are refused by the transport (the connection closes); frames
/// between [`MAX_FRAME_BYTES`] and this get a `frame_too_large` error and the game goes on.
const TRANSPORT_LIMIT: usize = 64 * 1024;

/// Upgrades to the game WebSocket.
pub async fn game_socket(
    State(st): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<String>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
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
    let seat = caller
        .and_then(|u| {
            [Color::White, Color::Black].into_iter().find(|&c| {
                row.users[crate::game::round::index(c)].as_deref() == Some(u.id.as_str())
            })
        })
        .map_or(Seat::Spectator, Seat::Player);
    let handle = st.hub.round(&id).await?;
    Ok(crate::http::socket_buffers::sized(ws, TRANSPORT_LIMIT)
        .on_upgrade(move |socket| connection(socket, handle, seat, id)))
}

/// A socket on a withdrawn challenge: its `withdrawn` frame, then closed.
async fn withdrawn(mut socket: WebSocket, frame: String) {
    let _ = socket.send(Message::Text(frame.into())).await;
    let _ = socket.close().await;
}

async fn connection(socket: WebSocket, handle: RoundHandle, seat: Seat, id: String) {
    let store = handle.store().clone();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    if handle
        .send(RoundMsg::Subscribe {
            seat,
            tx: tx.clone(),
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
    let (mut sink, mut stream) = socket.split();
    let metrics = store.clone();
    let writer = tokio::spawn(async move {
        while let Some(frame) = rx.recv().await {
            let began = Instant::now();
            if sink.send(Message::Text(frame.into())).await.is_err() {
                break;
            }
            let m = metrics.metrics();
            m.send.record(began.elapsed());
            m.frames_sent.fetch_add(1, Ordering::Relaxed);
        }
        let _ = sink.close().await;
    });
    let mut bucket = crate::http::rate_limit::frame_bucket(Instant::now());
    while let Some(Ok(msg)) = stream.next().await {
        let read = Instant::now();
        let text = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                if !bucket.take(Instant::now()) {
                    continue;
                }
                let _ = tx.send(error_frame("bad_json", "send text frames (JSON)", None));
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let parsed = client_message::parse(text.as_str());
        if !bucket.take(Instant::now()) {
            let id = parsed.as_ref().map_or_else(|r| r.id, |m| m.id);
            let _ = tx.send(error_frame(
                "rate_limited",
                "too many frames: at most 100 a second (bursts of 200); this one was dropped, send it again",
                id,
            ));
            continue;
        }
        let parsed = match parsed {
            Ok(m) => m,
            Err(r) => {
                let _ = tx.send(error_frame(r.code, &r.message, r.id));
                continue;
            }
        };
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
    writer.abort();
    let _ = handle.send(RoundMsg::Leave { seat }).await;
}

/// The largest frame a client may send, for the protocol document.
pub const fn max_frame_bytes() -> usize {
    MAX_FRAME_BYTES
}
