//! [`LayoutIndex`]: the KRK layouts up to symmetry, numbered, and the way from any layout to
//! its representative.

use shakmaty::Square;

use crate::{Layout, Symmetry};

/// The canonical KRK layouts (one per symmetry class, see [`Layout::canonical`]) in increasing
/// order, and for every one of the 64 × 64 (king, rook) pairs its class number and the
/// symmetry that maps it onto the class representative.
#[derive(Clone, Debug)]
pub struct LayoutIndex {
    layouts: Vec<Layout>,
    /// Indexed by `king * 64 + rook`: (class number, symmetry to the representative).
    slots: Vec<Option<(u32, Symmetry)>>,
}

impl LayoutIndex {
    /// The index for KRK.
    pub fn krk() -> LayoutIndex {
        let mut layouts: Vec<Layout> = Vec::new();
        for king in Square::ALL {
            for rook in Square::ALL {
                if let Ok(l) = Layout::new(king, rook) {
                    let (c, _) = l.canonical();
                    if c == l {
                        layouts.push(l);
                    }
                }
            }
        }
        layouts.sort();
        let mut slots = vec![None; 64 * 64];
        for king in Square::ALL {
            for rook in Square::ALL {
                if let Ok(l) = Layout::new(king, rook) {
                    let (c, s) = l.canonical();
                    if let Ok(i) = layouts.binary_search(&c) {
                        slots[usize::from(king) * 64 + usize::from(rook)] = Some((i as u32, s));
                    }
                }
            }
        }
        LayoutIndex { layouts, slots }
    }

    /// The canonical layouts, in increasing order.
    pub fn layouts(&self) -> &[Layout] {
        &self.layouts
    }

    /// Number of canonical layouts.
    pub fn len(&self) -> usize {
        self.layouts.len()
    }

    /// Whether there is no layout (never, for KRK).
    pub fn is_empty(&self) -> bool {
        self.layouts.is_empty()
    }

    /// The class number of `layout` and the symmetry that maps it onto its representative.
    #[inline]
    pub fn locate(&self, layout: Layout) -> (usize, Symmetry) {
        match self.slots[usize::from(layout.king) * 64 + usize::from(layout.rook)] {
            Some((i, s)) => (i as usize, s),
            // Unreachable for a layout built by `Layout::new`; fall back to computing it.
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
        let index = LayoutIndex::krk();
        // 64 * 63 layouts; classes of size 8, except the 4 * 7 with both men on the long
        // diagonal a1-h8... counted by Burnside: (4032 + 0 + 0 + 56 + 56 + 0 + 0 + 0) / 8 = 518.
        assert_eq!(index.len(), 518);
        for king in Square::ALL {
            for rook in Square::ALL {
                if let Ok(l) = Layout::new(king, rook) {
                    let (i, s) = index.locate(l);
                    assert_eq!(l.transformed(s), index.layouts()[i]);
                }
            }
        }
    }
}
