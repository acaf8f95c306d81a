//! [`Ending`]: which endgame a table is for.

use std::fmt;
use std::str::FromStr;

/// An endgame with a lone black king. Only KRK is built so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// King and rook against king.
    Krk,
}

impl Ending {
    /// Every ending this crate can build.
    pub const ALL: [Ending; 1] = [Ending::Krk];

    /// The lower-case name (`"krk"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Ending::Krk => "krk",
        }
    }

    /// The byte that stands for this ending in a table file.
    pub const fn code(self) -> u8 {
        match self {
            Ending::Krk => 1,
        }
    }

    /// The ending a table-file byte stands for.
    pub fn from_code(code: u8) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.code() == code)
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not an ending this crate can build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown or unsupported ending {0:?} (supported: krk; kqk, kbbk and kbnk are not built yet)"
)]
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
