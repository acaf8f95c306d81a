//! The natures a back-rank man or a promoted man may have, and sets of them.

use std::fmt;

/// The nature of a man whose identity is hidden: what it moves like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nature {
    /// Moves one step in any direction; exactly one per side.
    King = 0,
    /// Slides along ranks, files and diagonals; one per side among the back-rank men.
    Queen = 1,
    /// Slides along ranks and files; two per side among the back-rank men.
    Rook = 2,
    /// Slides along diagonals; two per side among the back-rank men.
    Bishop = 3,
    /// Jumps like a knight; two per side among the back-rank men.
    Knight = 4,
}

impl Nature {
    /// The five natures, in index order.
    pub const ALL: [Nature; 5] = [
        Nature::King,
        Nature::Queen,
        Nature::Rook,
        Nature::Bishop,
        Nature::Knight,
    ];

    /// The natures a promoted pawn may have.
    pub const PROMOTED: [Nature; 4] = [Nature::Queen, Nature::Rook, Nature::Bishop, Nature::Knight];

    /// How many back-rank men of one side have this nature (1 king, 1 queen, 2 rooks,
    /// 2 bishops, 2 knights: eight in all, so every count is exact).
    pub const fn count(self) -> usize {
        match self {
            Nature::King | Nature::Queen => 1,
            Nature::Rook | Nature::Bishop | Nature::Knight => 2,
        }
    }

    /// Index 0..5.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter (K, Q, R, B, N).
    pub const fn letter(self) -> char {
        match self {
            Nature::King => 'K',
            Nature::Queen => 'Q',
            Nature::Rook => 'R',
            Nature::Bishop => 'B',
            Nature::Knight => 'N',
        }
    }

    /// The shakmaty role of this nature.
    pub const fn role(self) -> shakmaty::Role {
        match self {
            Nature::King => shakmaty::Role::King,
            Nature::Queen => shakmaty::Role::Queen,
            Nature::Rook => shakmaty::Role::Rook,
            Nature::Bishop => shakmaty::Role::Bishop,
            Nature::Knight => shakmaty::Role::Knight,
        }
    }

    /// The lower-case name ("king", …).
    pub const fn name(self) -> &'static str {
        match self {
            Nature::King => "king",
            Nature::Queen => "queen",
            Nature::Rook => "rook",
            Nature::Bishop => "bishop",
            Nature::Knight => "knight",
        }
    }
}

/// A set of natures (a bit per nature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NatureSet(u8);

impl NatureSet {
    /// No nature.
    pub const EMPTY: NatureSet = NatureSet(0);
    /// All five natures.
    pub const ALL: NatureSet = NatureSet(0b1_1111);
    /// Queen, rook, bishop, knight: what a promoted pawn may be.
    pub const PROMOTED: NatureSet = NatureSet(0b1_1110);

    /// The set holding only `n`.
    pub const fn only(n: Nature) -> NatureSet {
        NatureSet(1 << n as u8)
    }

    /// Whether `n` is in the set.
    pub const fn contains(self, n: Nature) -> bool {
        self.0 & (1 << n as u8) != 0
    }

    /// The set with `n` added.
    pub const fn with(self, n: Nature) -> NatureSet {
        NatureSet(self.0 | (1 << n as u8))
    }

    /// The set with `n` removed.
    pub const fn without(self, n: Nature) -> NatureSet {
        NatureSet(self.0 & !(1 << n as u8))
    }

    /// Members common to both sets.
    pub const fn intersect(self, other: NatureSet) -> NatureSet {
        NatureSet(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of natures in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The natures in the set, in index order.
    pub fn iter(self) -> impl Iterator<Item = Nature> {
        Nature::ALL.into_iter().filter(move |&n| self.contains(n))
    }

    /// The only member, if the set has exactly one.
    pub fn single(self) -> Option<Nature> {
        if self.len() == 1 {
            self.iter().next()
        } else {
            None
        }
    }
}

impl fmt::Display for NatureSet {
    /// The letters of the members in order, e.g. `QR`; `-` for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for n in self.iter() {
            write!(f, "{}", n.letter())?;
        }
        Ok(())
    }
}
