//! Standard input for the screens that also wait on the network (`umpire connect` and its
//! lobby): the lines are read on their own thread and arrive as [`Input`] on a channel.

use std::io;

use tokio::sync::mpsc;

use super::input::{Line, Lines};

/// One line of the player's input.
pub enum Input {
    /// A line within the bound, trimmed.
    Text(String),
    /// A line over the bound: its start, to show.
    TooLong(String),
    /// The end of the input.
    End,
}

/// How many lines may wait unread; the reading thread waits while the channel is full.
const WAITING_LINES: usize = 64;

/// Reads stdin on its own thread, one [`Input`] a line, until the end of the input or until
/// the receiver is dropped.
pub fn read_input() -> mpsc::Receiver<Input> {
    let (tx, rx) = mpsc::channel(WAITING_LINES);
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut lines = Lines::new(stdin.lock());
        loop {
            let input = match lines.next_line() {
                None => Input::End,
                Some(Line::Text(t)) => Input::Text(t.to_owned()),
                Some(Line::TooLong { start }) => Input::TooLong(start.to_owned()),
            };
            let end = matches!(input, Input::End);
            if tx.blocking_send(input).is_err() || end {
                break;
            }
        }
    });
    rx
}
