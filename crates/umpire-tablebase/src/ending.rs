//! [`Ending`]: which endgame a table is for, and which White men it has.

use std::fmt;
use std::str::FromStr;

use shakmaty::Role;

/// An endgame with a lone black king against the white king and one or two men.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// King and rook against king.
    Krk,
    /// King and queen against king.
    Kqk,
    /// King and two bishops against king. Only bishops on squares of opposite colours: with
    /// both on one colour no mate exists, even in chess.
    Kbbk,
    /// King, bishop and knight against king.
    Kbnk,
}

impl Ending {
    /// Every ending this crate can build.
    pub const ALL: [Ending; 4] = [Ending::Krk, Ending::Kqk, Ending::Kbbk, Ending::Kbnk];

    /// The lower-case name (`"krk"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Ending::Krk => "krk",
            Ending::Kqk => "kqk",
            Ending::Kbbk => "kbbk",
            Ending::Kbnk => "kbnk",
        }
    }

    /// The byte that stands for this ending in a table file.
    pub const fn code(self) -> u8 {
        match self {
            Ending::Krk => 1,
            Ending::Kqk => 2,
            Ending::Kbbk => 3,
            Ending::Kbnk => 4,
        }
    }

    /// The ending a table-file byte stands for.
    pub fn from_code(code: u8) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.code() == code)
    }

    /// White's men besides the king, in the order a [`crate::Layout`] keeps them (by role).
    pub const fn men(self) -> &'static [Role] {
        match self {
            Ending::Krk => &[Role::Rook],
            Ending::Kqk => &[Role::Queen],
            Ending::Kbbk => &[Role::Bishop, Role::Bishop],
            Ending::Kbnk => &[Role::Knight, Role::Bishop],
        }
    }
}

impl Ending {
    /// Whether `layout` is a position of this ending: the same men, and for KBBK bishops on
    /// squares of opposite colours.
    pub fn accepts(self, layout: &crate::Layout) -> bool {
        let men = layout.men();
        if men.len() != self.men().len() || men.iter().zip(self.men()).any(|(m, r)| m.0 != *r) {
            return false;
        }
        match self {
            Ending::Kbbk => men[0].1.is_light() != men[1].1.is_light(),
            _ => true,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not an ending this crate can build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown or unsupported ending {0:?} (supported: krk, kqk, kbbk, kbnk)")]
pub struct UnknownEnding(pub String);

impl FromStr for Ending {
    type Err = UnknownEnding;

    fn from_str(s: &str) -> Result<Ending, UnknownEnding> {
        let lower = s.trim().to_ascii_lowercase();
        Ending::ALL
            .into_iter()
            .find(|e| e.as_str() == lower)
            .ok_or_else(|| UnknownEnding(s.to_owned()))
    }
}
