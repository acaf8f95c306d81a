//! [`LayoutIndex`]: the layouts of one ending up to symmetry, numbered, and the way from any
//! layout to its representative.

use shakmaty::Square;

use crate::{Ending, Layout, Symmetry};

/// The canonical layouts of an ending (one per symmetry class, see [`Layout::canonical`]) in
/// increasing order, and for every layout of the ending its class number and the symmetry
/// that maps it onto the class representative.
///
/// All eight board symmetries are used for every ending. They preserve how every man moves,
/// so a position and its image are won in the same number of moves; the answers are mapped
/// too (a rank check becomes a file check under a quarter turn; long and short diagonals keep
/// their lengths), which is why a split is always computed in the layout's own frame. Half of
/// the symmetries swap the square colours: a layout with a light-squared bishop is then
/// represented by one with a dark-squared bishop. That is correct for KBNK (the mating corner
/// moves with the bishop) and for KBBK (the two bishops are interchangeable and stay on
/// opposite colours).
#[derive(Clone, Debug)]
pub struct LayoutIndex {
    ending: Ending,
    layouts: Vec<Layout>,
    /// Indexed by [`Layout::key`]: (class number, symmetry to the representative).
    slots: Vec<Option<(u32, Symmetry)>>,
}

/// Every layout of `ending` (normalised, each once).
fn all_layouts(ending: Ending) -> Vec<Layout> {
    let roles = ending.men();
    let mut out = Vec::new();
    for king in Square::ALL {
        for a in Square::ALL {
            if roles.len() == 1 {
                if let Ok(l) = Layout::new(king, &[(roles[0], a)]) {
                    out.push(l);
                }
                continue;
            }
            for b in Square::ALL {
                // Two men of one role: each unordered pair once.
                if roles[0] == roles[1] && b <= a {
                    continue;
                }
                if let Ok(l) = Layout::new(king, &[(roles[0], a), (roles[1], b)])
                    && ending.accepts(&l)
                {
                    out.push(l);
                }
            }
        }
    }
    out
}

impl LayoutIndex {
    /// The index of `ending`.
    pub fn new(ending: Ending) -> LayoutIndex {
        let all = all_layouts(ending);
        let mut layouts: Vec<Layout> = all
            .iter()
            .copied()
            .filter(|l| l.canonical().0 == *l)
            .collect();
        layouts.sort();
        let mut slots = vec![None; 64 * 64 * 64];
        for l in &all {
            let (c, s) = l.canonical();
            if let Ok(i) = layouts.binary_search(&c) {
                slots[l.key()] = Some((i as u32, s));
            }
        }
        LayoutIndex {
            ending,
            layouts,
            slots,
        }
    }

    /// The index for KRK.
    pub fn krk() -> LayoutIndex {
        LayoutIndex::new(Ending::Krk)
    }

    /// The ending.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// The canonical layouts, in increasing order.
    pub fn layouts(&self) -> &[Layout] {
        &self.layouts
    }

    /// Number of canonical layouts.
    pub fn len(&self) -> usize {
        self.layouts.len()
    }

    /// Whether there is no layout (never).
    pub fn is_empty(&self) -> bool {
        self.layouts.is_empty()
    }

    /// How many layouts of the ending each canonical layout stands for (its symmetry class
    /// size), in the order of [`LayoutIndex::layouts`].
    pub fn class_sizes(&self) -> Vec<u32> {
        let mut sizes = vec![0u32; self.layouts.len()];
        for (i, _) in self.slots.iter().flatten() {
            sizes[*i as usize] += 1;
        }
        sizes
    }

    /// The class number of `layout` and the symmetry that maps it onto its representative, or
    /// `None` if the layout is not one of this ending's.
    #[inline]
    pub fn find(&self, layout: &Layout) -> Option<(usize, Symmetry)> {
        if !self.ending.accepts(layout) {
            return None;
        }
        self.slots[layout.key()].map(|(i, s)| (i as usize, s))
    }

    /// As [`LayoutIndex::find`], for a layout known to be of this ending (a successor of one
    /// of its layouts).
    #[inline]
    pub(crate) fn locate(&self, layout: &Layout) -> (usize, Symmetry) {
        match self.slots[layout.key()] {
            Some((i, s)) => (i as usize, s),
            // Unreachable for a layout of this ending; fall back to computing it.
            None => {
                let (c, s) = layout.canonical();
                let i = self.layouts.binary_search(&c).unwrap_or(0);
                (i, s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_lands_on_its_representative() {
        for ending in Ending::ALL {
            let index = LayoutIndex::new(ending);
            let all = all_layouts(ending);
            for l in &all {
                let (i, s) = index.find(l).unwrap();
                assert_eq!(l.transformed(s), index.layouts()[i], "{ending} {l}");
            }
            let sizes = index.class_sizes();
            assert_eq!(
                sizes.iter().map(|&s| s as usize).sum::<usize>(),
                all.len(),
                "{ending}"
            );
            assert!(sizes.iter().all(|&s| s == 1 || s == 2 || s == 4 || s == 8));
        }
        // Burnside for one man: (64·63 + 4·(8·7)... only the two diagonal mirrors fix layouts
        // with both men on that diagonal: (4032 + 56 + 56) / 8 = 518.
        assert_eq!(LayoutIndex::krk().len(), 518);
        assert_eq!(LayoutIndex::new(Ending::Kqk).len(), 518);
        // Opposite-coloured bishops: 64 · 992 ordered (light, dark) layouts.
        assert_eq!(all_layouts(Ending::Kbbk).len(), 64 * 31 * 32);
        assert_eq!(all_layouts(Ending::Kbnk).len(), 64 * 63 * 62);
    }
}
