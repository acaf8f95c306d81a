//! [`Lines`]: the line reader of the interactive commands (`referee`, `play`, and their
//! Schrödinger forms).

use std::io::BufRead;

/// Reads input one line at a time, reusing its buffers. Bytes that are not UTF-8 are replaced,
/// so a garbage line is answered like any other line and never ends the game; a read error
/// is said on stderr and ends the input like end of file, so the caller still finishes the
/// game and saves its record.
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

    /// The next line, trimmed, or `None` at the end of the input.
    pub fn next_line(&mut self) -> Option<&str> {
        self.bytes.clear();
        match self.input.read_until(b'\n', &mut self.bytes) {
            Ok(0) => None,
            Ok(_) => {
                self.line.clear();
                self.line.push_str(&String::from_utf8_lossy(&self.bytes));
                Some(self.line.trim())
            }
            Err(e) => {
                eprintln!("umpire: input: {e}; taken as the end of the input");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_a_line_and_the_end_is_none() {
        let mut lines = Lines::new(&b"  e2e4 \r\n\xff\xfe\nlast"[..]);
        assert_eq!(lines.next_line(), Some("e2e4"));
        assert_eq!(lines.next_line(), Some("\u{fffd}\u{fffd}"));
        assert_eq!(lines.next_line(), Some("last"));
        assert_eq!(lines.next_line(), None);
    }
}
