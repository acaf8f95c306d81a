//! [`Marginals`]: per square, the share of the held positions with each enemy man type there.

use serde::Serialize;
use shakmaty::{Color, Position, Role, Square};

use crate::Belief;

/// The man types of a marginal, in order: pawn, knight, bishop, rook, queen, king, empty.
pub const MAN_TYPES: [&str; 7] = ["pawn", "knight", "bishop", "rook", "queen", "king", "empty"];

/// Index of a role in [`MAN_TYPES`].
pub(crate) fn role_index(role: Role) -> usize {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// Per square, the probability of each enemy man type (uniform over the held positions: the
/// exact set, or the sample), indexed `[square][type]` with squares a1 = 0 … h8 = 63 and types
/// in [`MAN_TYPES`] order.
#[derive(Clone, Debug, PartialEq)]
pub struct Marginals {
    /// The enemy's colour.
    pub enemy: Color,
    /// Positions counted.
    pub positions: usize,
    /// Whether they are the exact set.
    pub exact: bool,
    /// `[square][type]` probabilities.
    pub p: [[f64; 7]; 64],
}

/// The JSON form of [`Marginals`].
#[derive(Serialize)]
struct MarginalsJson<'a> {
    enemy: &'static str,
    positions: usize,
    exact: bool,
    types: [&'static str; 7],
    /// Square name to probabilities (in `types` order), squares with an enemy man possible.
    squares: Vec<(String, &'a [f64; 7])>,
}

impl Marginals {
    /// The marginals of the held positions.
    pub fn of(belief: &Belief) -> Marginals {
        let enemy = !belief.side();
        let mut counts = [[0u64; 7]; 64];
        let mut n = 0usize;
        for pos in belief.positions() {
            n += 1;
            let board = pos.board();
            let theirs = board.by_color(enemy);
            for sq in Square::ALL {
                let i = match board.role_at(sq) {
                    Some(role) if theirs.contains(sq) => role_index(role),
                    _ => 6,
                };
                counts[usize::from(sq)][i] += 1;
            }
        }
        let mut p = [[0.0; 7]; 64];
        for (ps, cs) in p.iter_mut().zip(counts) {
            for (x, c) in ps.iter_mut().zip(cs) {
                *x = if n == 0 { 0.0 } else { c as f64 / n as f64 };
            }
        }
        Marginals {
            enemy,
            positions: n,
            exact: belief.is_exact(),
            p,
        }
    }

    /// The marginals of the union of independent samples of the same belief (runs with
    /// different seeds, e.g. on a thread each): each sample's marginals weighted by the
    /// positions it holds, so that the result is that of all the held positions counted
    /// together (a position held by two runs counts twice). When every part is exact, they are the
    /// same set and the first is returned;
    /// `None` when `parts` is empty or their enemies differ.
    pub fn pooled(parts: &[Marginals]) -> Option<Marginals> {
        let first = parts.first()?;
        if parts.iter().any(|m| m.enemy != first.enemy) {
            return None;
        }
        if parts.iter().all(|m| m.exact) {
            // Every run holds the same exact set.
            return Some(first.clone());
        }
        let n: usize = parts.iter().map(|m| m.positions).sum();
        let mut p = [[0.0; 7]; 64];
        if n > 0 {
            for m in parts {
                let w = m.positions as f64 / n as f64;
                for (ps, ms) in p.iter_mut().zip(&m.p) {
                    for (x, y) in ps.iter_mut().zip(ms) {
                        *x += w * y;
                    }
                }
            }
        }
        Some(Marginals {
            enemy: first.enemy,
            positions: n,
            exact: parts.iter().all(|m| m.exact),
            p,
        })
    }

    /// The total variation distance per square between these marginals and `other`s (half the
    /// sum over the man types of the differences in probability): its mean over the 64 squares
    /// and its largest value. 0 for equal marginals, at most 1.
    pub fn total_variation(&self, other: &Marginals) -> (f64, f64) {
        let mut sum = 0.0;
        let mut max: f64 = 0.0;
        for (a, b) in self.p.iter().zip(&other.p) {
            let tv = a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>() / 2.0;
            sum += tv;
            max = max.max(tv);
        }
        (sum / 64.0, max)
    }

    /// The probability that an enemy man stands on `sq`.
    pub fn occupied(&self, sq: Square) -> f64 {
        1.0 - self.p[usize::from(sq)][6]
    }

    /// The JSON form: `{"enemy", "positions", "exact", "types", "squares": [[name, [p…]], …]}`,
    /// listing the squares where an enemy man is possible.
    pub fn to_json(&self) -> String {
        let json = MarginalsJson {
            enemy: if self.enemy == Color::White {
                "white"
            } else {
                "black"
            },
            positions: self.positions,
            exact: self.exact,
            types: MAN_TYPES,
            squares: Square::ALL
                .into_iter()
                .filter(|&sq| self.occupied(sq) > 0.0)
                .map(|sq| (sq.to_string(), &self.p[usize::from(sq)]))
                .collect(),
        };
        serde_json::to_string(&json).expect("marginals serialise")
    }
}
