//! [`Probe`]: the answer to "how fast can White mate from here, and how?".

use std::fmt;

use umpire_rules::Attempt;

use crate::Layout;
use crate::bits::squares_text;

/// What the table says about one White-to-move position: the layout and the set of possible
/// black-king squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// White's men.
    pub layout: Layout,
    /// The set probed, without the squares where the black king cannot be (see `dropped`).
    pub set: u64,
    /// Squares of the set given that are impossible with White to move (on or next to a white
    /// man, or attacked by the rook) and were left out.
    pub dropped: u64,
    /// Mate in at most this many White moves against every defence, or `None` when the table
    /// knows no forced mate (none exists, if the table is complete).
    pub distance: Option<u8>,
    /// Every attempt that keeps the mate within `distance` (empty when there is none).
    pub best: Vec<Attempt>,
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "white: {}  black king in: {}",
            self.layout,
            squares_text(self.set)
        )?;
        if self.dropped != 0 {
            writeln!(f, "left out (impossible): {}", squares_text(self.dropped))?;
        }
        match self.distance {
            Some(d) => {
                let best: Vec<String> = self.best.iter().map(|a| a.to_string()).collect();
                write!(f, "mate in {d} (worst case); best: {}", best.join(" "))
            }
            None => write!(f, "no forced mate known"),
        }
    }
}
