//! The squares our men surely attack while enemy pawns may stand in the way: a line counts
//! up to the square where the chance that an enemy pawn blocks it reaches [`BLOCK_CHANCE`].
//!
//! The mating net drops a possible square of the enemy king when our men attack it (a king
//! never stands in check on our move) and calls a king without flight squares mated when it
//! stands in check. Both were decided with our men alone as blockers, so a rook on a1 "saw" a7
//! through an enemy pawn on a2: the net dropped the true king square and played a stalemate it
//! scored as a certain mate. Every square where a pawn *may* stand cannot block either: where
//! the metaposition has lost track of a pawn that is twenty squares, and nearly every line
//! would be blocked. A line is cut where the chance of a pawn on the squares it crossed (each
//! counted at the pawns' density over their possible squares) reaches the threshold.

use umpire_rules::shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square, attacks};

/// The chance of a blocking pawn at which a line stops counting as an attack.
pub(crate) const BLOCK_CHANCE: f32 = 0.125;

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const BOTH: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The square one step from `sq` by `(files, ranks)`, if on the board.
fn step(sq: Square, files: i32, ranks: i32) -> Option<Square> {
    let f = sq.file() as i32 + files;
    let r = sq.rank() as i32 + ranks;
    ((0..8).contains(&f) && (0..8).contains(&r))
        .then(|| Square::from_coords(File::new(f as u32), Rank::new(r as u32)))
}

/// The squares the men of `us` on `board` surely attack: `occupied` blocks every line (our men
/// and the squares surely holding an enemy man; the enemy king is transparent), and each
/// square of `maybe` a line crosses adds `density` to the chance that it is blocked.
pub(crate) fn sure_attacks(
    board: &Board,
    us: Color,
    occupied: Bitboard,
    maybe: Bitboard,
    density: f32,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in board.by_color(us) {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let directions: &[(i32, i32)] = match piece.role {
            Role::Rook => &ORTHOGONAL,
            Role::Bishop => &DIAGONAL,
            Role::Queen => &BOTH,
            _ => {
                out |= attacks::attacks(sq, piece, occupied);
                continue;
            }
        };
        for &(files, ranks) in directions {
            let mut chance = 0.0f32;
            let mut at = sq;
            while let Some(next) = step(at, files, ranks) {
                if chance >= BLOCK_CHANCE {
                    break;
                }
                out |= Bitboard::from_square(next);
                if occupied.contains(next) {
                    break;
                }
                if maybe.contains(next) {
                    chance += density;
                }
                at = next;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().unwrap();
        fen.into_setup().board
    }

    #[test]
    fn without_doubt_the_attacks_are_the_usual_ones() {
        let b = board("4k3/8/8/8/8/8/8/R3KB2 w - - 0 1");
        let own = b.by_color(Color::White);
        let expected = own.into_iter().fold(Bitboard::EMPTY, |acc, sq| {
            acc | attacks::attacks(sq, b.piece_at(sq).unwrap(), own)
        });
        assert_eq!(
            sure_attacks(&b, Color::White, own, Bitboard::EMPTY, 0.0),
            expected
        );
    }

    #[test]
    fn a_likely_pawn_cuts_the_line_and_an_unlikely_one_does_not() {
        use Square::*;
        let b = board("k7/8/8/8/8/8/8/R3K3 w - - 0 1");
        let own = b.by_color(Color::White);
        let a2 = Bitboard::from_square(A2);
        // A pawn surely or even probably on a2: a2 is attacked, a3 and beyond are not.
        let cut = sure_attacks(&b, Color::White, own, a2, 0.5);
        assert!(cut.contains(A2) && !cut.contains(A3) && !cut.contains(A7));
        // The pawn may be on any of twenty squares, one of them a2: the file still counts.
        let thin = sure_attacks(&b, Color::White, own, a2, 0.05);
        assert!(thin.contains(A7) && thin.contains(A8));
        // Three such squares on the way add up past the threshold.
        let three =
            Bitboard::from_square(A2) | Bitboard::from_square(A3) | Bitboard::from_square(A4);
        let far = sure_attacks(&b, Color::White, own, three, 0.05);
        assert!(far.contains(A4) && !far.contains(A5));
    }
}
