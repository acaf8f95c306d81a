//! Which squares a man of a given nature reaches, from shakmaty's attack tables.

use shakmaty::{Bitboard, Color, Rank, Square, attacks};

use crate::nature::{Nature, NatureSet};

/// The squares a man of nature `nature` on `from` attacks (and may move to, when not held by
/// its own side), with `occupied` blocking the sliders.
pub fn reach(nature: Nature, from: Square, occupied: Bitboard) -> Bitboard {
    match nature {
        Nature::King => attacks::king_attacks(from),
        Nature::Queen => attacks::queen_attacks(from, occupied),
        Nature::Rook => attacks::rook_attacks(from, occupied),
        Nature::Bishop => attacks::bishop_attacks(from, occupied),
        Nature::Knight => attacks::knight_attacks(from),
    }
}

/// The natures among `candidates` for which a man on `from` reaches `to`.
pub fn natures_reaching(
    candidates: NatureSet,
    from: Square,
    to: Square,
    occupied: Bitboard,
) -> NatureSet {
    candidates
        .iter()
        .filter(|&n| reach(n, from, occupied).contains(to))
        .fold(NatureSet::EMPTY, NatureSet::with)
}

/// The squares a pawn of `color` on `from` attacks.
pub fn pawn_attacks(color: Color, from: Square) -> Bitboard {
    attacks::pawn_attacks(color, from)
}

/// The squares a pawn of `color` on `from` may move to: one step forward onto an empty
/// square, two from its starting rank over two empty squares, or a diagonal step onto an
/// enemy man (no en passant in Schrödinger chess).
pub fn pawn_targets(color: Color, from: Square, own: Bitboard, enemy: Bitboard) -> Bitboard {
    let occupied = own | enemy;
    let mut targets = attacks::pawn_attacks(color, from) & enemy;
    let step = |sq: Square| sq.offset(color.fold_wb(8, -8));
    if let Some(one) = step(from).filter(|s| !occupied.contains(*s)) {
        targets.add(one);
        let start = color.fold_wb(Rank::Second, Rank::Seventh);
        if from.rank() == start
            && let Some(two) = step(one).filter(|s| !occupied.contains(*s))
        {
            targets.add(two);
        }
    }
    targets
}
