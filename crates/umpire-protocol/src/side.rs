//! [`Side`]: a colour as the wire spells it, [`Spectator`]: the `you` of a spectator, and
//! [`BySide`]: one thing per colour (`{"white":…,"black":…}`).

use serde::{Deserialize, Serialize};
use umpire_rules::shakmaty::Color;

/// A colour: `"white"` or `"black"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl Side {
    /// `white` or `black`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        c.fold_wb(Side::White, Side::Black)
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// The `you` of a spectator's frames: `"spectator"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Spectator {
    /// The only value.
    #[default]
    Spectator,
}

/// One `T` per colour: `{"white":…,"black":…}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BySide<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T> BySide<T> {
    /// White's and Black's, from an array in colour order (White first).
    pub fn from_array([white, black]: [T; 2]) -> BySide<T> {
        BySide { white, black }
    }
}
