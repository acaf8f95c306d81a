//! The action encoding: the 8 × 8 × 73 = 4,672 moves of AlphaZero's chess policy plus one for
//! "Any?" ([`ANY_ACTION`]), 4,673 in all ([`NUM_ACTIONS`]).
//!
//! An action is `from * 73 + plane`, where `from` is the index (a1 = 0, b1 = 1, …, h8 = 63) of
//! the starting square **seen from the mover's side**: Black's squares are mirrored rank by
//! rank (a8 is 0 for Black), so that "forward" is the same for both. The 73 planes:
//!
//! - `0..56`: a queen-like move, `direction * 7 + (distance - 1)`, directions in the order
//!   north, north-east, east, south-east, south, south-west, west, north-west (north is towards
//!   the opponent); a pawn's promotion to a queen is one of these;
//! - `56..64`: a knight's move, (file, rank) steps in the order (1, 2), (2, 1), (2, −1),
//!   (1, −2), (−1, −2), (−2, −1), (−2, 1), (−1, 2);
//! - `64..73`: an under-promotion (from the mover's 7th rank), `piece * 3 + (file step + 1)`, pieces in the order knight,
//!   bishop, rook, file steps −1 (capture towards the a-file), 0, +1.
//!
//! Castling is the king's two-square step (e1g1). Every attempt a player's own board allows
//! has one action and every action at most one attempt; decoding needs to know only whether a
//! pawn stands on the starting square (for a queen promotion), which the mover knows.

use umpire_rules::Attempt;
use umpire_rules::shakmaty::{Color, Role, Square};

/// The number of planes per starting square.
pub const PLANES: usize = 73;
/// The action that asks "Any?".
pub const ANY_ACTION: usize = 64 * PLANES;
/// The size of the action space: 4,672 moves and "Any?".
pub const NUM_ACTIONS: usize = ANY_ACTION + 1;
/// [`ANY_ACTION`] as the states keep their legal actions: two bytes each (every action id is
/// below [`NUM_ACTIONS`], which fits in a `u16`).
pub const ANY_ACTION_ID: u16 = ANY_ACTION as u16;

/// Queen-like directions as (file, rank) steps, from the mover's side.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Knight steps as (file, rank), from the mover's side.
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The under-promotion pieces, in plane order.
const UNDER: [Role; 3] = [Role::Knight, Role::Bishop, Role::Rook];

/// What an action means for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// An attempt.
    Attempt(Attempt),
    /// The question "Any?".
    AskAny,
}

/// `square` as the `side` to move sees it (Black's board mirrored by rank).
fn orient(square: Square, side: Color) -> (i8, i8) {
    let file = square.file() as i8;
    let rank = square.rank() as i8;
    match side {
        Color::White => (file, rank),
        Color::Black => (file, 7 - rank),
    }
}

/// The square at oriented coordinates, if on the board.
#[cfg(test)]
fn unorient(file: i8, rank: i8, side: Color) -> Option<Square> {
    if !(0..8).contains(&file) || !(0..8).contains(&rank) {
        return None;
    }
    let rank = match side {
        Color::White => rank,
        Color::Black => 7 - rank,
    };
    Some(Square::from_coords(
        umpire_rules::shakmaty::File::new(u32::try_from(file).ok()?),
        umpire_rules::shakmaty::Rank::new(u32::try_from(rank).ok()?),
    ))
}

/// No plane (in `PLANE_BY_STEP`).
const NONE: u8 = u8::MAX;

/// The plane of a step by (file, rank) difference seen from the mover's side, if some piece
/// makes it (under-promotions aside).
const fn plane_of(df: i8, dr: i8) -> Option<usize> {
    let mut k = 0;
    while k < KNIGHT.len() {
        if KNIGHT[k].0 == df && KNIGHT[k].1 == dr {
            return Some(56 + k);
        }
        k += 1;
    }
    let (adf, adr) = (df.abs(), dr.abs());
    let distance = if adf > adr { adf } else { adr };
    if distance == 0 || (df != 0 && dr != 0 && adf != adr) {
        return None;
    }
    let mut d = 0;
    while d < DIRECTIONS.len() {
        if DIRECTIONS[d].0 == df.signum() && DIRECTIONS[d].1 == dr.signum() {
            return Some(d * 7 + (distance - 1) as usize);
        }
        d += 1;
    }
    None
}

/// The plane of every step without under-promotion by its difference in 0x88 square numbers
/// (`rank * 16 + file`) seen from the mover's side, offset by 119 so that it is not negative,
/// [`NONE`] where no piece makes it: worked out at compile time. Four cache lines (a table by
/// side, from- and to-square was 16 kB, and the hot path's look-ups into it missed the
/// first-level cache once many games were stepped in turn).
static PLANE_BY_STEP: [u8; 256] = {
    let mut t = [NONE; 256];
    let mut dr: i8 = -7;
    while dr <= 7 {
        let mut df: i8 = -7;
        while df <= 7 {
            if let Some(plane) = plane_of(df, dr) {
                // Below 73: fits; the index lies in 0..=238.
                t[(dr as i32 * 16 + df as i32 + 119) as usize] = plane as u8;
            }
            df += 1;
        }
        dr += 1;
    }
    t
};

/// The actions of the steps of one man, without under-promotions: what depends on its square
/// worked out once, then one look-up per destination ([`StepEncoder::to`]).
#[derive(Clone, Copy, Debug)]
pub struct StepEncoder {
    /// 56 for Black (the rank bits flipped: its board is mirrored by rank), 0 for White.
    flip: usize,
    /// 119 minus the from-square's oriented 0x88 number.
    offset: usize,
    /// The from-square's first action.
    base: usize,
}

/// A square index's 0x88 number (`rank * 16 + file`).
fn x88(square: usize) -> usize {
    square + (square & 0x38)
}

impl StepEncoder {
    /// The encoder of the steps of `side`'s man on `from`.
    pub fn new(from: Square, side: Color) -> StepEncoder {
        let flip = if side == Color::Black { 56 } else { 0 };
        let f = usize::from(from) ^ flip;
        StepEncoder {
            flip,
            // At most 119: a 0x88 number of a square is at most 119.
            offset: 119 - x88(f),
            base: f * PLANES,
        }
    }

    /// The action of the step to `to` (a queen promotion included), or `None` for a step no
    /// piece makes.
    pub fn to(&self, to: Square) -> Option<usize> {
        self.plane(to).map(|plane| self.base + plane)
    }

    /// The plane (below 64) of the step to `to` (a queen promotion included), or `None` for a
    /// step no piece makes.
    pub fn plane(&self, to: Square) -> Option<usize> {
        // The step lies in -119..=119, so the index is in 0..=238.
        let step = x88(usize::from(to) ^ self.flip) + self.offset;
        match PLANE_BY_STEP[step & 255] {
            NONE => None,
            plane => Some(usize::from(plane)),
        }
    }

    /// The starting square seen from the mover's side (Black's mirrored by rank), below 64.
    pub fn oriented_from(&self) -> usize {
        self.base / PLANES
    }
}

/// The action of the step `from`–`to` by `side` without under-promotion (a queen promotion
/// included), or `None` for a step no piece makes.
pub fn encode_step(from: Square, to: Square, side: Color) -> Option<usize> {
    StepEncoder::new(from, side).to(to)
}

/// The action of `attempt` by `side`, or `None` for a step no piece makes (say a1h2), which no
/// own board allows.
pub fn encode(attempt: Attempt, side: Color) -> Option<usize> {
    match attempt.promotion {
        Some(role) if role != Role::Queen => encode_slow(attempt, side),
        _ => encode_step(attempt.from, attempt.to, side),
    }
}

/// [`encode`] worked out from the geometry.
fn encode_slow(attempt: Attempt, side: Color) -> Option<usize> {
    let (ff, fr) = orient(attempt.from, side);
    let (tf, tr) = orient(attempt.to, side);
    let (df, dr) = (tf - ff, tr - fr);
    let from = usize::try_from(fr * 8 + ff).ok()?;
    let plane = match attempt.promotion {
        Some(role) if role != Role::Queen => {
            let piece = UNDER.iter().position(|&r| r == role)?;
            if fr != 6 || dr != 1 || !(-1..=1).contains(&df) {
                return None;
            }
            64 + piece * 3 + usize::try_from(df + 1).ok()?
        }
        _ => {
            if let Some(k) = KNIGHT.iter().position(|&s| s == (df, dr)) {
                56 + k
            } else {
                let distance = df.abs().max(dr.abs());
                if distance == 0 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
                    return None;
                }
                let step = (df.signum(), dr.signum());
                let dir = DIRECTIONS.iter().position(|&s| s == step)?;
                dir * 7 + usize::try_from(distance - 1).ok()?
            }
        }
    };
    Some(from * PLANES + plane)
}

/// The (file, rank) step of each plane seen from the mover's side (an under-promotion's as
/// its pawn's), worked out at compile time: [`decode`] looks a plane's step up.
static PLANE_STEP: [(i8, i8); PLANES] = {
    let mut t = [(0i8, 0i8); PLANES];
    let mut plane = 0;
    while plane < PLANES {
        t[plane] = if plane < 56 {
            let (sf, sr) = DIRECTIONS[plane / 7];
            let d = (plane % 7 + 1) as i8;
            (sf * d, sr * d)
        } else if plane < 64 {
            KNIGHT[plane - 56]
        } else {
            (((plane - 64) % 3) as i8 - 1, 1)
        };
        plane += 1;
    }
    t
};

/// The meaning of `action` for `side`, or `None` if it is out of range or leaves the board.
/// `pawn_on` tells whether the mover has a pawn on a square: a queen-like move of a pawn to
/// the last rank is its promotion to a queen.
pub fn decode(action: usize, side: Color, pawn_on: impl Fn(Square) -> bool) -> Option<Action> {
    if action == ANY_ACTION {
        return Some(Action::AskAny);
    }
    if action >= ANY_ACTION {
        return None;
    }
    let (from, plane) = (action / PLANES, action % PLANES);
    // Below 64 and 8: `from` is below 64.
    let (ff, fr) = ((from % 8) as i8, (from / 8) as i8);
    let (df, dr) = PLANE_STEP[plane];
    let (tf, tr) = (ff + df, fr + dr);
    if !(0..8).contains(&tf) || !(0..8).contains(&tr) || (plane >= 64 && fr != 6) {
        return None;
    }
    // Black's board is mirrored by rank: its oriented square index with the rank bits flipped.
    let flip = if side == Color::Black { 56 } else { 0 };
    let from_sq = Square::new(from as u32 ^ flip);
    // Below 64: file and rank in 0..8.
    let to = Square::new((tr * 8 + tf) as u32 ^ flip);
    let promotion = if plane >= 64 {
        Some(UNDER[(plane - 64) / 3])
    } else if plane < 56 && tr == 7 && fr == 6 && df.abs() <= 1 && pawn_on(from_sq) {
        Some(Role::Queen)
    } else {
        None
    };
    Some(Action::Attempt(Attempt {
        from: from_sq,
        to,
        promotion,
    }))
}

#[cfg(test)]
/// [`decode`] worked out from the geometry (the tests compare them).
/// `pawn_on` tells whether the mover has a pawn on a square: a queen-like move of a pawn to
/// the last rank is its promotion to a queen.
pub(crate) fn decode_slow(
    action: usize,
    side: Color,
    pawn_on: impl Fn(Square) -> bool,
) -> Option<Action> {
    if action == ANY_ACTION {
        return Some(Action::AskAny);
    }
    if action >= ANY_ACTION {
        return None;
    }
    let (from, plane) = (action / PLANES, action % PLANES);
    let ff = i8::try_from(from % 8).ok()?;
    let fr = i8::try_from(from / 8).ok()?;
    let from_sq = unorient(ff, fr, side)?;
    let (df, dr, promotion) = if plane < 56 {
        let (sf, sr) = DIRECTIONS[plane / 7];
        let d = i8::try_from(plane % 7 + 1).ok()?;
        (sf * d, sr * d, None)
    } else if plane < 64 {
        let (sf, sr) = KNIGHT[plane - 56];
        (sf, sr, None)
    } else if fr == 6 {
        let p = plane - 64;
        (i8::try_from(p % 3).ok()? - 1, 1, Some(UNDER[p / 3]))
    } else {
        return None;
    };
    let to = unorient(ff + df, fr + dr, side)?;
    let promotion = match promotion {
        Some(role) => Some(role),
        None if plane < 56 && fr + dr == 7 && fr == 6 && df.abs() <= 1 && pawn_on(from_sq) => {
            Some(Role::Queen)
        }
        None => None,
    };
    Some(Action::Attempt(Attempt {
        from: from_sq,
        to,
        promotion,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::{Chess, Position};
    use umpire_rules::{AttemptList, OwnBoard};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn known_codes() {
        // e2e4 for White: from e2 (index 12), north 2.
        assert_eq!(
            encode(Attempt::new(sq("e2"), sq("e4")), Color::White),
            Some(12 * 73 + 1)
        );
        // e7e5 for Black is the same move seen from Black's side.
        assert_eq!(
            encode(Attempt::new(sq("e7"), sq("e5")), Color::Black),
            Some(12 * 73 + 1)
        );
        // g1f3: knight step (-1, 2) is plane 63.
        assert_eq!(
            encode(Attempt::new(sq("g1"), sq("f3")), Color::White),
            Some(6 * 73 + 63)
        );
        // a7b8n: under-promotion to a knight, capture towards the h-file.
        assert_eq!(
            encode(
                Attempt::promoting(sq("a7"), sq("b8"), Role::Knight),
                Color::White
            ),
            Some(48 * 73 + 64 + 2)
        );
        assert_eq!(encode(Attempt::new(sq("a1"), sq("h2")), Color::White), None);
        assert_eq!(
            decode(ANY_ACTION, Color::White, |_| false),
            Some(Action::AskAny)
        );
        assert_eq!(decode(NUM_ACTIONS, Color::White, |_| false), None);
        // A rook on a7 moving to a8 is no promotion; a pawn there is.
        let a7a8 = encode(Attempt::new(sq("a7"), sq("a8")), Color::White).unwrap();
        assert_eq!(
            decode(a7a8, Color::White, |_| false),
            Some(Action::Attempt(Attempt::new(sq("a7"), sq("a8"))))
        );
        assert_eq!(
            decode(a7a8, Color::White, |_| true),
            Some(Action::Attempt(Attempt::promoting(
                sq("a7"),
                sq("a8"),
                Role::Queen
            )))
        );
    }

    #[test]
    fn every_action_decodes_to_at_most_one_attempt_and_back() {
        for side in [Color::White, Color::Black] {
            let mut seen = std::collections::HashSet::new();
            for action in 0..ANY_ACTION {
                for pawn in [false, true] {
                    if let Some(Action::Attempt(a)) = decode(action, side, |_| pawn) {
                        assert_eq!(encode(a, side), Some(action), "{a} {side:?}");
                        assert_eq!(encode_slow(a, side), Some(action), "{a} {side:?}");
                        seen.insert((a, pawn));
                    }
                }
            }
            // Queen moves from a square: at most 56 targets; the grid's real moves number 1,456
            // queen-like + 336 knight moves; plus under-promotions from the 7th rank (22 × 3).
            let attempts: std::collections::HashSet<Attempt> =
                seen.iter().map(|(a, _)| *a).collect();
            assert_eq!(attempts.len(), 1456 + 336 + 22 * 3 + 22);
        }
    }

    #[test]
    fn decoding_by_table_is_decoding_by_geometry() {
        for side in [Color::White, Color::Black] {
            for action in 0..NUM_ACTIONS + 2 {
                for pawn in [false, true] {
                    assert_eq!(
                        decode(action, side, |_| pawn),
                        decode_slow(action, side, |_| pawn),
                        "{action} {side:?} {pawn}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_table_is_the_geometry() {
        for side in [Color::White, Color::Black] {
            for from in Square::ALL {
                for to in Square::ALL {
                    for promotion in [
                        None,
                        Some(Role::Queen),
                        Some(Role::Knight),
                        Some(Role::Rook),
                    ] {
                        let a = Attempt {
                            from,
                            to,
                            promotion,
                        };
                        assert_eq!(encode(a, side), encode_slow(a, side), "{a} {side:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_own_board_attempt_round_trips() {
        let fens = [
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R b KQkq - 0 12",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 40",
        ];
        for fen in fens {
            let pos: Chess = fen
                .parse::<umpire_rules::shakmaty::fen::Fen>()
                .unwrap()
                .into_position(umpire_rules::shakmaty::CastlingMode::Standard)
                .unwrap();
            for side in [Color::White, Color::Black] {
                let own = OwnBoard::of(&pos, side);
                let mut list = AttemptList::new();
                own.attempts(false, &mut list);
                assert!(!list.is_empty());
                for a in list {
                    let action = encode(a, side).expect("an own-board attempt has an action");
                    let back = decode(action, side, |s| own.board().pawns().contains(s));
                    assert_eq!(back, Some(Action::Attempt(a)), "{fen} {side:?}");
                }
            }
            let _ = pos.turn();
        }
    }
}
