//! One man's moves as the 73 planes of its starting square (bit `p` of a `u128` is plane `p`,
//! [`crate::action`]), worked out from its destinations on the own board.
//!
//! A queen-like plane is a direction and a distance (`direction * 7 + distance - 1`), so the
//! moves of a slider along one ray are a run of consecutive planes: on the own board a ray's
//! destinations are the squares from the slider up to the first own man (the enemy's men are
//! not on it), so the run is as long as the ray holds destinations, one count per direction
//! instead of one look-up per square ([`slider`]). Knights, kings and pawns have few
//! destinations and are looked up square by square ([`steps`]).

use umpire_rules::shakmaty::{Bitboard, Square};

use crate::action::StepEncoder;

/// The a-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The a1–h8 diagonal.
const DIAGONAL: u64 = 0x8040_2010_0804_0201;
/// The h1–a8 diagonal.
const ANTI_DIAGONAL: u64 = 0x0102_0408_1020_4080;

/// `line` moved up by `ranks` ranks (down when negative), squares leaving the board dropped.
fn shifted(line: u64, ranks: i32) -> u64 {
    if ranks >= 0 {
        line << (8 * ranks)
    } else {
        line >> (-8 * ranks)
    }
}

/// The planes of a bishop, rook or queen on `from` whose destinations are `targets`, both seen
/// from the mover's side (Black's board mirrored by rank: square index `^ 56`, the bit board
/// flipped vertically). `targets` must be the slider's destinations on its own board, or any
/// set that holds, along each ray, the squares from the slider up to some distance.
pub fn slider(from: usize, targets: u64) -> u128 {
    let from = from & 63;
    let (file, rank) = ((from & 7) as i32, (from >> 3) as i32);
    let file_line = FILE_A << file;
    let rank_line = 0xFF << (8 * rank);
    let diagonal = shifted(DIAGONAL, rank - file);
    let anti_diagonal = shifted(ANTI_DIAGONAL, rank + file - 7);
    let above = (u64::MAX << from) << 1;
    let below = (1u64 << from) - 1;
    // In the planes' order of directions: north, north-east, east, south-east, south,
    // south-west, west, north-west ("north" towards the opponent, the higher ranks).
    let rays = [
        file_line & above,
        diagonal & above,
        rank_line & above,
        anti_diagonal & below,
        file_line & below,
        diagonal & below,
        rank_line & below,
        anti_diagonal & above,
    ];
    let mut planes = 0u64;
    for (direction, ray) in rays.into_iter().enumerate() {
        // At most 7 squares on a ray: the run fits in its direction's 7 planes.
        let run = (1u64 << (targets & ray).count_ones()) - 1;
        planes |= run << (7 * direction);
    }
    u128::from(planes)
}

/// The planes of a man going to each of `targets` by one step each (a knight, a king, a pawn
/// or a slider whose destinations this turn are not whole runs), through `encoder`, the man's
/// encoder; with `under_promotions`, a pawn promoting, each step also to a knight, bishop and
/// rook (planes `64 + piece * 3 + file step + 1`). Steps no piece makes are left out.
pub fn steps(
    encoder: &StepEncoder,
    from: Square,
    targets: Bitboard,
    under_promotions: bool,
) -> u128 {
    let mut planes = 0u128;
    for to in targets {
        let Some(plane) = encoder.plane(to) else {
            continue;
        };
        planes |= 1 << plane;
        if under_promotions {
            // A pawn's step changes its file by -1, 0 or +1: the column is 0, 1 or 2.
            let column = (to.file() as u32 + 1)
                .saturating_sub(from.file() as u32)
                .min(2);
            // Knight, bishop and rook: planes 64, 67 and 70 plus the column.
            planes |= 0b1_001_001 << (64 + column);
        }
    }
    planes
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::{Color, Role, attacks};

    use crate::action::PLANES;

    /// A slider's planes are those of its destinations looked up one by one, for every square,
    /// each kind of slider, from sides and with own men anywhere on its rays.
    #[test]
    fn a_sliders_runs_are_its_steps() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for from in Square::ALL {
            for round in 0..40 {
                // A pseudo-random set of own men (an xorshift), sparser in later rounds.
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let own =
                    Bitboard(seed & if round % 2 == 0 { seed >> 3 } else { !0 }).without(from);
                for role in [Role::Bishop, Role::Rook, Role::Queen] {
                    for side in [Color::White, Color::Black] {
                        let targets = attacks::attacks(from, role.of(side), own) & !own;
                        let encoder = StepEncoder::new(from, side);
                        let want = steps(&encoder, from, targets, false);
                        let (oriented, board) = match side {
                            Color::White => (usize::from(from), targets.0),
                            Color::Black => (usize::from(from) ^ 56, targets.flip_vertical().0),
                        };
                        assert_eq!(slider(oriented, board), want, "{from} {role:?} {side:?}");
                    }
                }
            }
        }
    }

    /// A promoting pawn's steps carry the three under-promotions each, in the right columns.
    #[test]
    fn promotion_steps_carry_the_under_promotions() {
        let from = Square::B7;
        let targets = Bitboard::from(Square::A8) | Bitboard::from(Square::B8);
        let planes = steps(&StepEncoder::new(from, Color::White), from, targets, true);
        let set: Vec<usize> = (0..PLANES).filter(|&p| planes & (1 << p) != 0).collect();
        // North 1 (plane 0), north-west 1 (plane 49), and columns 0 (towards a) and 1.
        assert_eq!(set, vec![0, 49, 64, 65, 67, 68, 70, 71]);
    }
}
