//! [`Lines`]: the line reader of the interactive commands (`referee`, `play`, `connect` and
//! the Schrödinger forms), with a bound on the length of a line ([`MAX_LINE`]), and
//! [`Lines::typed`], a line read at a game's prompt.

use std::io::{BufRead, ErrorKind};

use super::stdout::say;

/// The longest line the interactive commands read, in bytes (line ending excluded): 4 KiB.
/// A longer line is refused as a whole ([`Line::TooLong`]); it is never kept in full.
pub const MAX_LINE: usize = 4096;

/// How much of a refused line is shown back, in characters.
const SHOWN: usize = 40;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line within the bound, trimmed.
    Text(&'a str),
    /// A line over [`MAX_LINE`] bytes; only its start is kept, to show (at most 40
    /// characters, with `…`), and the rest was skipped.
    TooLong {
        /// The start of the line, for messages.
        start: &'a str,
    },
}

impl Line<'_> {
    /// The answer to a line over the bound, in words.
    pub fn too_long_message() -> String {
        format!("the line is longer than {MAX_LINE} bytes, the longest line read; it was skipped")
    }

    /// The answer, in words, to a line over the bound that starts with `start`.
    pub fn too_long_answer(start: &str) -> String {
        format!("\"{start}\": {}", Line::too_long_message())
    }
}

/// What a player typed at a game's prompt, once [`Lines::typed`] has answered what is not a
/// command.
#[derive(Debug, PartialEq, Eq)]
pub enum Typed<'a> {
    /// A line within the bound, trimmed.
    Text(&'a str),
    /// A line over the bound, answered already: prompt again.
    Skipped,
    /// The end of the input, said already: the player leaves the game unfinished.
    End,
}

/// Reads input one line at a time, reusing its buffers. Bytes that are not UTF-8 are replaced,
/// so a garbage line is answered like any other line and never ends the game; a line over
/// [`MAX_LINE`] bytes is skipped without being stored; a read error is said on stderr and ends
/// the input like end of file, so the caller still finishes the game and saves its record.
pub struct Lines<R> {
    input: R,
    bytes: Vec<u8>,
    line: String,
}

impl<R: BufRead> Lines<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Lines<R> {
        Lines {
            input,
            bytes: Vec::new(),
            line: String::new(),
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> Option<Line<'_>> {
        self.bytes.clear();
        let mut read_any = false;
        let mut length = 0usize;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    eprintln!("umpire: input: {e}; taken as the end of the input");
                    return None;
                }
            };
            if buffer.is_empty() {
                break;
            }
            read_any = true;
            let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
                Some(i) => (&buffer[..i], true),
                None => (buffer, false),
            };
            length += chunk.len();
            // Keep at most the bound (plus a carriage return), never the whole of a long line.
            let room = (MAX_LINE + 1).saturating_sub(self.bytes.len());
            self.bytes
                .extend_from_slice(&chunk[..chunk.len().min(room)]);
            let used = chunk.len() + usize::from(done);
            self.input.consume(used);
            if done {
                break;
            }
        }
        if !read_any {
            return None;
        }
        let content =
            length - usize::from(self.bytes.last() == Some(&b'\r') && length <= MAX_LINE + 1);
        self.line.clear();
        if content > MAX_LINE {
            let start = String::from_utf8_lossy(&self.bytes);
            let shown: String = start.chars().take(SHOWN).collect();
            self.line.push_str(&shown);
            self.line.push('…');
            return Some(Line::TooLong { start: &self.line });
        }
        self.line.push_str(&String::from_utf8_lossy(&self.bytes));
        Some(Line::Text(self.line.trim()))
    }

    /// The next line typed at the prompt of a game against a built-in opponent (`umpire
    /// play`, also `--game schroedinger`): a line over the bound is answered and skipped, and
    /// the end of the input is said (the game is left unfinished, never resigned).
    pub fn typed(&mut self) -> Typed<'_> {
        match self.next_line() {
            None => {
                say!("");
                say!("End of input: you leave the game unfinished (it is not resigned).");
                Typed::End
            }
            Some(Line::TooLong { start }) => {
                say!("{}", Line::too_long_answer(start));
                Typed::Skipped
            }
            Some(Line::Text(text)) => Typed::Text(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_a_line_and_the_end_is_none() {
        let mut lines = Lines::new(&b"  e2e4 \r\n\xff\xfe\nlast"[..]);
        assert_eq!(lines.next_line(), Some(Line::Text("e2e4")));
        assert_eq!(lines.next_line(), Some(Line::Text("\u{fffd}\u{fffd}")));
        assert_eq!(lines.next_line(), Some(Line::Text("last")));
        assert_eq!(lines.next_line(), None);
    }

    #[test]
    fn a_line_over_the_bound_is_skipped_and_shown_short() {
        let mut input = vec![b'x'; MAX_LINE];
        input.extend_from_slice(b"\r\n");
        input.extend_from_slice(&vec![b'y'; MAX_LINE + 1]);
        input.extend_from_slice(b"\n");
        input.extend_from_slice(&vec![b'z'; 3 * MAX_LINE]);
        input.extend_from_slice(b"\ne2e4\n");
        // A small buffer makes the long lines arrive in many pieces.
        let mut lines = Lines::new(std::io::BufReader::with_capacity(100, &input[..]));
        let exact = "x".repeat(MAX_LINE);
        assert_eq!(lines.next_line(), Some(Line::Text(exact.as_str())));
        let shown = format!("{}…", "y".repeat(SHOWN));
        assert_eq!(
            lines.next_line(),
            Some(Line::TooLong {
                start: shown.as_str()
            })
        );
        assert!(matches!(lines.next_line(), Some(Line::TooLong { .. })));
        assert!(lines.bytes.capacity() <= 2 * MAX_LINE + 200);
        assert_eq!(lines.next_line(), Some(Line::Text("e2e4")));
        assert_eq!(lines.next_line(), None);
    }
}
