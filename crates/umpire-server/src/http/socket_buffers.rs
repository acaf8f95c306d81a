//! The buffers of each WebSocket connection the server accepts, sized for Kriegspiel frames.
//!
//! The transport's defaults (128 KiB read buffer per connection) are made for bulk transfer.
//! Its reader fills the whole read buffer's capacity with zeros before each read from the
//! socket, so every connection that reads once holds all of it: at two connections per game
//! that is a quarter of a megabyte per game, most of the server's memory under load. The
//! frames a client sends are at most [`MAX_FRAME_BYTES`](umpire_protocol::client_message::MAX_FRAME_BYTES)
//! (a few hundred bytes in practice); a small read buffer holds several of them, and a larger
//! frame (up to the connection's transport limit) still arrives whole: the reader grows the
//! buffer to the frame's length once its header is read. The write buffer is left as it is:
//! it is not allocated ahead and the server flushes every frame it sends.

use axum::extract::ws::WebSocketUpgrade;

/// Bytes of a connection's read buffer: a dozen ordinary client frames (an attempt is about
/// 50 bytes), half the largest one the protocol accepts.
pub const READ_BUFFER_BYTES: usize = 1024;

/// `ws` with buffers sized for this server's frames, and frames and messages larger than
/// `transport_limit` bytes refused by the transport (the connection closes).
pub fn sized(ws: WebSocketUpgrade, transport_limit: usize) -> WebSocketUpgrade {
    ws.read_buffer_size(READ_BUFFER_BYTES)
        .max_message_size(transport_limit)
        .max_frame_size(transport_limit)
}
