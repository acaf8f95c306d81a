//! [`evaluate`]: a static evaluation of a full (determinized) position from one side, in
//! [-1, 1]. Cheap and allocation-free: bitboard counts and attack sets only.
//!
//! Terms, in pawns, then squashed by `tanh(score / SCALE)`:
//! - material (P 1, N 3, B 3.25, R 5, Q 9);
//! - mobility: squares the knights, bishops, rooks and queens attack, 0.03 a square;
//! - king safety: own men next to the own king (0.1 each) and enemy attacks on the squares
//!   around it (0.08 each), only while the enemy has a queen or two other pieces;
//! - pawn advancement: 0.05 per rank advanced, more on the sixth and seventh ranks;
//! - edge pressure when the enemy has only its king left: its distance from the centre, from
//!   a corner, and the own king's closeness to it (the mating technique's gradient);
//! - mating material: a side that cannot mate (no pawn, queen or rook, and at most one minor
//!   piece or only two knights) gets no credit for being ahead; K+N against K is a draw, and a
//!   search must not trade its last rook for a knight it cannot win with.

use umpire_rules::shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

/// The divisor of the raw score (in pawns) before `tanh`: a queen up is about 0.42.
pub const SCALE: f64 = 20.0;

/// The material value of `role`, in pawns (the king counts 0).
pub const fn material_value(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight => 3.0,
        Role::Bishop => 3.25,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// The evaluation of `pos` for `side`: near 1 when `side` stands to win, near -1 when it
/// stands to lose, 0 for a balanced position. Game ends (mate, stalemate) are not detected
/// here; searches score them themselves.
pub fn evaluate(pos: &Chess, side: Color) -> f64 {
    (raw_score(pos.board(), side) / SCALE).tanh()
}

/// The raw score of `board` for `side`, in pawns (positive: `side` is better).
pub fn raw_score(board: &Board, side: Color) -> f64 {
    let score = side_score(board, side) - side_score(board, !side);
    if score > 0.0 && !can_mate(board, side) || score < 0.0 && !can_mate(board, !side) {
        0.0
    } else {
        score
    }
}

/// Whether `side` has the material to mate a lone king: a pawn (it may promote), a queen or
/// rook, a bishop with another minor piece, or three knights.
pub fn can_mate(board: &Board, side: Color) -> bool {
    let mine = board.by_color(side);
    if (mine & (board.pawns() | board.queens() | board.rooks())).any() {
        return true;
    }
    let bishops = (mine & board.bishops()).count();
    let knights = (mine & board.knights()).count();
    (bishops >= 1 && bishops + knights >= 2) || knights >= 3
}

/// The material of `side` on `board`, in pawns ([`material_value`]).
pub fn material(board: &Board, side: Color) -> f64 {
    let mine = board.by_color(side);
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .into_iter()
    .map(|r| (board.by_role(r) & mine).count() as f64 * material_value(r))
    .sum()
}

/// Everything one side scores for itself.
fn side_score(board: &Board, side: Color) -> f64 {
    let occupied = board.occupied();
    let mine = board.by_color(side);
    let theirs = board.by_color(!side);
    let mut score = material(board, side);

    // Mobility of the pieces.
    let mut mobility = 0u32;
    for sq in mine & !board.pawns() & !board.kings() {
        if let Some(piece) = board.piece_at(sq) {
            mobility += (attacks::attacks(sq, piece, occupied) & !mine).count() as u32;
        }
    }
    score += 0.03 * f64::from(mobility);

    // Pawn advancement.
    for sq in mine & board.pawns() {
        let rank = sq.rank() as i32;
        let advanced = if side == Color::White {
            rank - 1
        } else {
            6 - rank
        };
        score += 0.05 * advanced as f64;
        if advanced >= 4 {
            score += 0.2 * (advanced - 3) as f64;
        }
    }

    let Some(king) = board.king_of(side) else {
        return score;
    };
    let Some(enemy_king) = board.king_of(!side) else {
        return score;
    };

    // King safety, while the enemy has attacking force.
    let enemy_pieces = theirs & !board.pawns() & !board.kings();
    if (enemy_pieces & board.queens()).any() || enemy_pieces.count() >= 2 {
        let around = attacks::king_attacks(king);
        score += 0.1 * (around & mine).count() as f64;
        let mut pressure = 0u32;
        for sq in enemy_pieces {
            if let Some(piece) = board.piece_at(sq) {
                pressure += (attacks::attacks(sq, piece, occupied) & around).count() as u32;
            }
        }
        score -= 0.08 * f64::from(pressure);
    }

    // Edge pressure on a lone enemy king.
    if theirs.count() == 1 {
        score += lone_king_pressure(king, enemy_king, mine & !board.kings(), board);
    }
    score
}

/// The mating gradient against a lone king on `enemy`: far from the centre, near a corner
/// (the right-coloured one for a lone bishop pair is not distinguished), own king close.
fn lone_king_pressure(own_king: Square, enemy: Square, men: Bitboard, board: &Board) -> f64 {
    let file = enemy.file() as i32;
    let rank = enemy.rank() as i32;
    let centre = (2 * file - 7).abs().max((2 * rank - 7).abs()) as f64; // 1..7
    let corner = ((2 * file - 7).abs() + (2 * rank - 7).abs()) as f64; // 2..14
    let kings = own_king.distance(enemy) as f64; // 1..7
    // Where the enemy king may step: fewer squares is better (the attacks of own men count).
    let mut covered = Bitboard::EMPTY;
    let occupied = board.occupied();
    for sq in men {
        if let Some(piece) = board.piece_at(sq) {
            covered |= attacks::attacks(sq, piece, occupied ^ Bitboard::from_square(enemy));
        }
    }
    covered |= attacks::king_attacks(own_king);
    let room = (attacks::king_attacks(enemy) & !covered).count() as f64;
    0.6 * centre + 0.15 * corner + 0.5 * (7.0 - kings) + 0.3 * (8.0 - room)
}

#[cfg(test)]
mod tests {
    use super::*;

    use umpire_testkit::pos;

    #[test]
    fn the_start_is_balanced_and_symmetric() {
        let p = Chess::default();
        assert!(evaluate(&p, Color::White).abs() < 1e-9);
        assert!(evaluate(&p, Color::Black).abs() < 1e-9);
    }

    #[test]
    fn a_queen_up_is_good_for_its_owner_only() {
        let p = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let w = evaluate(&p, Color::White);
        assert!(w > 0.3 && w < 1.0, "{w}");
        assert!((evaluate(&p, Color::Black) + w).abs() < 1e-9);
    }

    #[test]
    fn a_lone_king_on_the_edge_scores_higher_than_in_the_centre() {
        let edge = pos("7k/8/8/8/8/8/8/K1Q5 w - - 0 1");
        let centre = pos("8/8/8/4k3/8/8/8/K1Q5 w - - 0 1");
        assert!(evaluate(&edge, Color::White) > evaluate(&centre, Color::White));
        let near = pos("7k/8/5K2/8/8/8/8/2Q5 w - - 0 1");
        assert!(evaluate(&near, Color::White) > evaluate(&edge, Color::White));
    }

    #[test]
    fn a_lead_without_mating_material_counts_nothing() {
        // K+N and K+B against a lone king: drawn, whatever the material says.
        for fen in [
            "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",
        ] {
            let p = pos(fen);
            assert_eq!(evaluate(&p, Color::White), 0.0, "{fen}");
            assert_eq!(evaluate(&p, Color::Black), 0.0, "{fen}");
        }
        // A knight against a pawn: the pawn's side may still win, the knight's may not.
        let p = pos("4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1");
        assert_eq!(evaluate(&p, Color::White), 0.0);
        // With a pawn or a bishop pair the lead counts.
        for fen in [
            "4k3/8/8/8/8/8/4P3/4KN2 w - - 0 1",
            "4k3/8/8/8/8/8/8/3BKB2 w - - 0 1",
        ] {
            assert!(evaluate(&pos(fen), Color::White) > 0.1, "{fen}");
        }
    }

    #[test]
    fn advanced_pawns_score_higher() {
        let back = pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let far = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(evaluate(&far, Color::White) > evaluate(&back, Color::White));
    }
}
