//! [`Coverage`]: how much of an ending's space a table proves won — the share of certain wins.

use shakmaty::Bitboard;

use crate::Tablebase;

/// What share of an ending the table proves to be a certain win, counted over every layout of
/// the ending (not only the canonical ones: each canonical layout is weighted by the size of
/// its symmetry class). Exact for a complete table; a lower bound for a depth-limited one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// Layouts of the ending.
    pub layouts: u64,
    /// (layout, black-king square) positions with White to move: the square is in the
    /// layout's domain.
    pub positions: u64,
    /// Those positions won by force when White knows the black king's square.
    pub won_positions: u64,
    /// Layouts whose whole domain is won by force: White mates knowing nothing of the black
    /// king but that the position is legal.
    pub won_blind: u64,
}

impl Coverage {
    /// `won_positions / positions`.
    pub fn position_share(&self) -> f64 {
        self.won_positions as f64 / self.positions.max(1) as f64
    }

    /// `won_blind / layouts`.
    pub fn blind_share(&self) -> f64 {
        self.won_blind as f64 / self.layouts.max(1) as f64
    }
}

impl Tablebase {
    /// The share of the ending this table proves won (see [`Coverage`]).
    pub fn coverage(&self) -> Coverage {
        let sizes = self.index.class_sizes();
        let mut c = Coverage {
            layouts: 0,
            positions: 0,
            won_positions: 0,
            won_blind: 0,
        };
        for (i, layout) in self.layouts().iter().enumerate() {
            let weight = u64::from(sizes[i]);
            let domain = layout.domain();
            let mut won = 0u64;
            let mut blind = false;
            for (set, _) in self.entries_of(i) {
                won |= set;
                blind |= domain & !set == 0;
            }
            c.layouts += weight;
            c.positions += weight * u64::from(Bitboard(domain).count() as u32);
            c.won_positions += weight * u64::from(won.count_ones());
            c.won_blind += weight * u64::from(blind);
        }
        c
    }
}
