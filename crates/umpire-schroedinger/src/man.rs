//! Men: which of a side's sixteen men a piece on the board is, and what kind of man it is.

use std::fmt;

use shakmaty::{Color, File, Rank, Square};

/// One of the 32 men, named by its side and its starting square: index 0..8 are the
/// back-rank men on files a..h, 8..16 the pawns on files a..h. A man keeps its name for the
/// whole game, also after a promotion (the pawn becomes a promoted man).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ManId {
    color: Color,
    index: u8,
}

/// What kind of man a man is, as far as anyone knows without the natures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A back-rank man: king, queen, rook, bishop or knight, unknown.
    BackRank,
    /// A pawn (known).
    Pawn,
    /// A promoted pawn: queen, rook, bishop or knight, unknown.
    Promoted,
}

impl ManId {
    /// The man of `color` with index `index` (0..16); `None` if out of range.
    pub const fn new(color: Color, index: u8) -> Option<ManId> {
        if index < 16 {
            Some(ManId { color, index })
        } else {
            None
        }
    }

    /// The back-rank man of `color` that starts on `file`.
    pub const fn back_rank(color: Color, file: File) -> ManId {
        ManId {
            color,
            index: file as u8,
        }
    }

    /// The pawn of `color` that starts on `file`.
    pub const fn pawn(color: Color, file: File) -> ManId {
        ManId {
            color,
            index: 8 + file as u8,
        }
    }

    /// The man's side.
    pub const fn color(self) -> Color {
        self.color
    }

    /// Index 0..16 within its side.
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// Whether it started on the back rank.
    pub const fn is_back_rank(self) -> bool {
        self.index < 8
    }

    /// Its starting file.
    pub const fn file(self) -> File {
        File::new((self.index % 8) as u32)
    }

    /// Its starting square.
    pub fn start(self) -> Square {
        let rank = match (self.color, self.is_back_rank()) {
            (Color::White, true) => Rank::First,
            (Color::White, false) => Rank::Second,
            (Color::Black, true) => Rank::Eighth,
            (Color::Black, false) => Rank::Seventh,
        };
        Square::from_coords(self.file(), rank)
    }

    /// All 32 men, White's first.
    pub fn all() -> impl Iterator<Item = ManId> {
        Color::ALL
            .into_iter()
            .flat_map(|color| (0..16u8).map(move |index| ManId { color, index }))
    }
}

impl fmt::Display for ManId {
    /// The side letter and starting square, e.g. `w:e1` or `b:g7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.color.fold_wb('w', 'b'), self.start())
    }
}
