//! Kriegspiel endgame tablebases.
//!
//! A Kriegspiel player does not see the enemy men, so a position, as White knows it, is its own
//! men (a [`Layout`]) and the *set* of squares where the lone black king may be (a `u64`, bit
//! `i` for square `i`, a1 = 0). White's attempt splits the set by the umpire's [`Answer`]
//! ([`Split`]); an illegal attempt costs no move but tells White where the king is not; after a
//! legal move the black king's reply spreads the set to every square it can reach. A
//! [`Tablebase`] holds, for every layout up to symmetry, the maximal sets from which White mates
//! by force, with the distance in White moves, after the retrograde method of Ciancarini and
//! Favini ("Solving Kriegspiel endings with brute force: the case of KR vs. K", ACG 2009); see
//! the `build` module documentation for the exact method.
//!
//! Endings: KRK, KQK, KBBK (bishops on opposite colours) and KBNK, under the `wild16` rules.
//!
//! ```
//! use shakmaty::{Bitboard, Square};
//! use umpire_tablebase::{BuildOptions, Ending, Layout, Tablebase};
//!
//! // A partial table: mates in at most 2 moves.
//! let options = BuildOptions { max_depth: 2, threads: 1 };
//! let table = Tablebase::build(Ending::Krk, options, |_| {});
//! let layout = Layout::krk(Square::G6, Square::B1).unwrap();
//! let probe = table.probe(layout, Bitboard::from_square(Square::H8).0).unwrap();
//! assert_eq!(probe.distance, Some(1));
//! assert_eq!(probe.best[0].to_string(), "b1b8");
//! ```

mod answer;
mod antichain;
mod bits;
mod build;
mod checks;
mod coverage;
mod ending;
mod format;
mod index;
mod knowledge;
mod layout;
mod probe;
mod split;
mod symmetry;
mod tablebase;

pub use answer::Answer;
pub use antichain::Antichain;
pub use bits::{king_spread, squares_text};
pub use build::{BuildOptions, IllegalRule, Progress, Variant, depth_profile};
pub use coverage::Coverage;
pub use ending::{Ending, UnknownEnding};
pub use format::{FORMAT_VERSION, FormatError, MAGIC};
pub use index::LayoutIndex;
pub use knowledge::{Knowledge, KnowledgeError, possible_black_king_squares, white_knowledge};
pub use layout::{Layout, LayoutError};
pub use probe::Probe;
pub use split::{MAX_CLASSES, Split};
pub use symmetry::Symmetry;
pub use tablebase::{ProbeError, Tablebase};
