//! [`Tablebase`]: a built or loaded table, probed for distances and best attempts.

use shakmaty::Bitboard;
use umpire_rules::Attempt;

use crate::build::{self, BuildOptions, Progress};
use crate::format::{self, Data, Sections};
use crate::{Ending, Layout, LayoutIndex, Probe, Split};

/// A Kriegspiel endgame table for the `wild16` rule set: for every White layout (up to
/// symmetry) the maximal sets of black-king squares from which White forces mate, each with
/// its distance (White moves, rejected attempts not counted).
///
/// The entries live in the file's bytes (memory-mapped when loaded with
/// [`Tablebase::load`]) and are decoded when read; nothing is copied into vectors.
#[derive(Debug)]
pub struct Tablebase {
    pub(crate) ending: Ending,
    pub(crate) index: LayoutIndex,
    pub(crate) data: Data,
    pub(crate) sections: Sections,
    /// Whether the build ran until a depth added nothing.
    pub(crate) complete: bool,
}

/// A probe that cannot be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// No square of the set is possible for the black king with this layout and White to move.
    #[error(
        "no square of the set is possible for the black king (it cannot stand on or next to a white man, or where a white man attacks it with White to move)"
    )]
    EmptySet,
    /// The layout's men are not this table's ending.
    #[error("the white men {layout} are not a position of this {ending} table")]
    WrongEnding {
        /// The layout probed.
        layout: Layout,
        /// The table's ending.
        ending: Ending,
    },
}

impl Tablebase {
    /// Builds the table of `ending`, calling `progress` after each depth.
    pub fn build(
        ending: Ending,
        options: BuildOptions,
        mut progress: impl FnMut(Progress),
    ) -> Tablebase {
        let index = LayoutIndex::new(ending);
        let built = build::build(&index, options, &mut progress);
        let mut entries = built.entries;
        for e in &mut entries {
            e.sort_unstable_by_key(|&(s, d)| (d, s));
        }
        let bytes = format::encode(ending, &index, &entries, built.complete);
        drop(entries);
        // The encoder and the checker agree by construction (tested); a failure is a bug.
        let checked = format::check(&bytes, Some(index))
            .unwrap_or_else(|e| panic!("a table just built does not read back: {e}"));
        Tablebase {
            ending,
            index: checked.index,
            data: Data::Owned(bytes),
            sections: checked.sections,
            complete: built.complete,
        }
    }

    /// The ending.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Whether the build went on until no set was added, so that a set absent from the table
    /// is not won by force. A depth-limited build is not complete.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The canonical layouts, in the order of [`Tablebase::entries_of`].
    pub fn layouts(&self) -> &[Layout] {
        self.index.layouts()
    }

    /// The layout index (canonical layouts and symmetries).
    pub fn index(&self) -> &LayoutIndex {
        &self.index
    }

    /// The stored `(set, depth)` entries of canonical layout number `i`, by depth then set:
    /// each set is a maximal set won in `depth` moves and not won in fewer.
    pub fn entries_of(&self, i: usize) -> impl ExactSizeIterator<Item = (u64, u8)> + '_ {
        let range = self.sections.range(&self.data, i);
        range.map(move |j| self.sections.entry(&self.data, j))
    }

    /// Total number of stored sets.
    pub fn len(&self) -> usize {
        self.sections.entries
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The largest stored distance (0 for an empty table).
    pub fn longest_mate(&self) -> u8 {
        (0..self.len())
            .map(|j| self.sections.entry(&self.data, j).1)
            .max()
            .unwrap_or(0)
    }

    /// Number of stored sets per depth: element `d` counts the sets first won at depth `d`.
    pub fn sets_per_depth(&self) -> Vec<usize> {
        let mut counts = vec![0; usize::from(self.longest_mate()) + 1];
        for j in 0..self.len() {
            counts[usize::from(self.sections.entry(&self.data, j).1)] += 1;
        }
        counts
    }

    /// The distance to mate of `set` (squares outside the layout's domain are ignored): the
    /// shortest distance among the stored supersets, or `None` if no stored set contains it
    /// (or the layout is not of this table's ending). The empty set is won in 0.
    pub fn distance(&self, layout: Layout, set: u64) -> Option<u8> {
        let set = set & layout.domain();
        if set == 0 {
            return Some(0);
        }
        let (i, sym) = self.index.find(&layout)?;
        let set = sym.set(set);
        self.entries_of(i)
            .find(|&(s, _)| set & !s == 0)
            .map(|(_, d)| d)
    }

    /// The worst-case distance to mate if White tries `attempt` now, following the table
    /// afterwards; `None` if the attempt does not keep a known forced mate (it may stalemate,
    /// lose a man, lead to a set the table does not know, or be illegal for every square
    /// of the set, which teaches nothing).
    pub fn attempt_value(&self, layout: Layout, set: u64, attempt: Attempt) -> Option<u8> {
        let set = set & layout.domain();
        if set == 0 || !layout.attempts().contains(&attempt) {
            return None;
        }
        self.split_value(layout, set, &Split::new(&layout, attempt))
    }

    fn split_value(&self, layout: Layout, set: u64, split: &Split) -> Option<u8> {
        let illegal = set & split.illegal;
        if illegal == set || set & (split.stalemate | split.lost) != 0 {
            return None;
        }
        let mut worst = 0;
        if illegal != 0 {
            worst = self.distance(layout, illegal)?;
        }
        if set & split.mate != 0 {
            worst = worst.max(1);
        }
        for &(_, class) in split.classes() {
            let part = set & class & !split.mate;
            if part != 0 {
                let after = self.distance(split.after, split.spread(part))?;
                worst = worst.max(after.saturating_add(1));
            }
        }
        Some(worst)
    }

    /// Probes a White-to-move position: White's men on `layout`, the black king somewhere in
    /// `set`. Squares where the black king cannot be are left out (and reported); if none is
    /// left, that is an error.
    pub fn probe(&self, layout: Layout, set: u64) -> Result<Probe, ProbeError> {
        if self.index.find(&layout).is_none() {
            return Err(ProbeError::WrongEnding {
                layout,
                ending: self.ending,
            });
        }
        let domain = layout.domain();
        let dropped = set & !domain;
        let set = set & domain;
        if set == 0 {
            return Err(ProbeError::EmptySet);
        }
        let distance = self.distance(layout, set);
        let mut best = Vec::new();
        if let Some(d) = distance {
            for a in layout.attempts() {
                if self.split_value(layout, set, &Split::new(&layout, a)) == Some(d) {
                    best.push(a);
                }
            }
        }
        Ok(Probe {
            layout,
            set,
            dropped,
            distance,
            best,
        })
    }

    /// The lowest value over all attempts of the one-move look-ahead (see
    /// [`Tablebase::attempt_value`]); for a set of a complete table it equals
    /// [`Tablebase::distance`] (the table satisfies its own recurrence).
    pub fn lookahead(&self, layout: Layout, set: u64) -> Option<u8> {
        let set = set & layout.domain();
        layout
            .attempts()
            .into_iter()
            .filter_map(|a| self.split_value(layout, set, &Split::new(&layout, a)))
            .min()
    }

    /// Draws a set of squares on a board, rank 8 first: `x` for a square of the set, `.` for
    /// another square, and `K`, `Q`, `R`, `B`, `N` for White's men.
    pub fn diagram(layout: Layout, set: u64) -> String {
        let mut out = String::with_capacity(8 * 17);
        for rank in (0..8u32).rev() {
            for file in 0..8u32 {
                let sq = shakmaty::Square::new(rank * 8 + file);
                let c = match layout.man_on(sq) {
                    Some(role) => role.upper_char(),
                    None if Bitboard(set).contains(sq) => 'x',
                    None => '.',
                };
                out.push(c);
                if file < 7 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }
}
