//! Keys of held hypotheses: a 128-bit fingerprint (the position's Zobrist hash and a second,
//! independent hash of the board and of whatever else tells hypotheses apart).

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position};

/// A hypothesis key: (Zobrist hash of the position with its legal e.p. square, second hash).
///
/// Two hypotheses with equal keys are taken to be the same. The Zobrist hash covers men, side
/// to move, castling rights and the legal e.p. square; the second hash covers the men again
/// with a different function, plus `extra` (the halfmove clock where the fifty-move rule is in
/// force, the repetition history where threefold repetition is). Two different hypotheses
/// collide on both with a probability of about n²/2¹²⁹ for n keys (below 10⁻²⁶ at n = 10⁷).
pub(crate) type Key = (u64, u64);

/// Mixes one word into a running hash (the finaliser of SplitMix64 on the sum).
fn mix(h: u64, word: u64) -> u64 {
    let mut z = h.wrapping_add(word).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A well-mixed hash of one word, for multiset fingerprints (sums of these).
pub(crate) fn scramble(word: u64) -> u64 {
    mix(0x5851_F42D_4C95_7F2D, word)
}

/// The Zobrist hash the umpire uses for repetitions (legal e.p. square only).
pub(crate) fn zobrist(pos: &Chess) -> u64 {
    let z: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    z.0
}

/// The second hash's part that depends on the men only (computed once where several keys of
/// one position are needed).
pub(crate) fn board_hash(pos: &Chess) -> u64 {
    let board = pos.board();
    let mut h = mix(0, board.by_color(Color::White).0);
    for bb in [
        board.pawns(),
        board.knights(),
        board.bishops(),
        board.rooks(),
        board.queens(),
        board.kings(),
    ] {
        h = mix(h, bb.0);
    }
    h
}

/// The key of a position whose [`board_hash`] is `board` and Zobrist hash `zobrist`, with
/// `extra` (0 if nothing else tells hypotheses apart).
pub(crate) fn key_of_board(board: u64, zobrist: u64, extra: u64) -> Key {
    (zobrist, mix(board, extra))
}
