//! A side: as the command line names it (`--side white|black`) and as the consoles title it.

use umpire_rules::shakmaty::Color;

/// A side, on the command line: `white` or `black`. (The values have no doc comments of
/// their own: clap would print them in the help as descriptions.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(side: Side) -> Self {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// "White" or "Black".
pub fn side_title(side: Color) -> &'static str {
    side.fold_wb("White", "Black")
}
