//! [`Outbox`]: the bounded queue of frames waiting to be written to one connection.
//!
//! A game's task and the connection's own reader put frames in; the connection's writer takes
//! them out as fast as the client reads. A client that does not read (or cannot keep up) lets
//! at most [`OUTBOX_FRAMES`] frames wait: one more and the outbox is *overflowed*: every
//! further frame is refused (the game's task drops the subscriber, as it does a closed one),
//! and the writer, woken at once, tells the client why (an `error` frame `lagged`) and
//! closes the connection. Memory per connection is thus bounded by this queue plus the
//! kernel's socket buffers, however fast frames are made and however slowly they are read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::{Notify, mpsc};

/// The most frames waiting for one connection's writer. A client that reads keeps this near
/// zero (a frame is written as soon as it is queued); a burst of 200 frames answered (a
/// player's whole frame burst) still fits.
pub const OUTBOX_FRAMES: usize = 256;

/// Where a connection's frames are put (cheap to clone; every clone is the same queue).
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<String>,
    shared: Arc<Shared>,
}

/// Where the connection's writer takes its frames from.
#[derive(Debug)]
pub struct Inbox {
    rx: mpsc::Receiver<String>,
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    overflowed: AtomicBool,
    woken: Notify,
}

/// The outbox is closed (its connection is gone) or overflowed: the frame was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

/// A new queue of [`OUTBOX_FRAMES`] frames.
pub fn outbox() -> (Outbox, Inbox) {
    outbox_of(OUTBOX_FRAMES)
}

/// A new queue of `frames` frames (at least one).
pub fn outbox_of(frames: usize) -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::channel(frames.max(1));
    let shared = Arc::new(Shared::default());
    (
        Outbox {
            tx,
            shared: shared.clone(),
        },
        Inbox { rx, shared },
    )
}

impl Outbox {
    /// Queues a frame; refused if the connection is gone, or if the queue is full (which
    /// overflows it for good and wakes the writer).
    pub fn send(&self, frame: String) -> Result<(), Refused> {
        if self.shared.overflowed.load(Ordering::Acquire) {
            return Err(Refused);
        }
        match self.tx.try_send(frame) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.shared.overflowed.store(true, Ordering::Release);
                self.shared.woken.notify_one();
                Err(Refused)
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(Refused),
        }
    }

    /// Whether no frame will be taken any more (the connection is gone or overflowed).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed() || self.shared.overflowed.load(Ordering::Acquire)
    }
}

impl Inbox {
    /// The next frame; `None` once every [`Outbox`] is dropped or the queue overflowed (what
    /// is still queued then is dropped: the client is too far behind to be caught up).
    pub async fn recv(&mut self) -> Option<String> {
        if self.overflowed() {
            return None;
        }
        tokio::select! {
            biased;
            () = self.shared.woken.notified() => None,
            frame = self.rx.recv() => frame.filter(|_| !self.overflowed()),
        }
    }

    /// Resolves once the queue overflows (at once if it has): a writer waiting for a client
    /// that does not read races its write against this.
    pub async fn overflow(&self) {
        while !self.overflowed() {
            self.shared.woken.notified().await;
        }
    }

    /// Whether the queue overflowed.
    pub fn overflowed(&self) -> bool {
        self.shared.overflowed.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_outbox_overflows_for_good_and_wakes_its_reader() {
        let (out, mut inbox) = outbox_of(2);
        assert_eq!(out.send("a".into()), Ok(()));
        assert_eq!(inbox.recv().await.as_deref(), Some("a"));
        assert_eq!(out.send("b".into()), Ok(()));
        assert_eq!(out.send("c".into()), Ok(()));
        assert!(!out.is_closed());
        assert_eq!(out.send("d".into()), Err(Refused));
        assert!(out.is_closed() && inbox.overflowed());
        // Nothing more is taken or given.
        assert_eq!(out.send("e".into()), Err(Refused));
        assert_eq!(inbox.recv().await, None);
    }

    #[tokio::test]
    async fn a_dropped_inbox_closes_the_outbox() {
        let (out, inbox) = outbox();
        drop(inbox);
        assert!(out.is_closed());
        assert_eq!(out.send("a".into()), Err(Refused));
    }
}
