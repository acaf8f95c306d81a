//! The evaluation of a metaposition (seed 001): material, the safety of each own man under the
//! enemy pseudopieces' threats, protection, pawn advancement, the queen's presence, pressure on
//! a lone enemy king towards the edge, and chessboard entropy and age of information (less is
//! better: it rewards probing). In pawns, from the player's point of view.

use umpire_belief::Metaposition;
use umpire_rules::shakmaty::{Bitboard, Color, Piece, Role, Square, attacks};

/// Value of a man in pawns.
pub(crate) fn man_value(role: Role) -> f32 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight | Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// Roles in pseudopiece index order.
const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Per square, the probability that an enemy man attacks it (pseudopieces equally likely on
/// their square, independent across squares).
pub(crate) fn threats(meta: &Metaposition) -> [f32; 64] {
    let enemy = meta.enemy();
    let blockers = meta.own().board().occupied() | meta.surely_enemy();
    let mut free = [1.0f32; 64];
    for sq in meta.maybe_enemy() {
        let bits = meta.bits(sq);
        let p = 1.0 / bits.count_ones() as f32;
        for (i, role) in ROLES.iter().enumerate() {
            if bits & (1 << i) == 0 {
                continue;
            }
            let reach = attacks::attacks(
                sq,
                Piece {
                    color: enemy,
                    role: *role,
                },
                blockers,
            );
            for x in reach {
                free[usize::from(x)] *= 1.0 - p;
            }
        }
    }
    free.map(|f| 1.0 - f)
}

/// The most enemy men (king included) for which our pawns are pushed hard.
const LITTLE_LEFT: u8 = 3;

/// The evaluation of `meta` for the player, in pawns.
pub(crate) fn evaluate(meta: &Metaposition) -> f32 {
    let board = meta.own().board();
    let us = !meta.enemy();
    let threat = threats(meta);
    let occ = board.occupied() | meta.surely_enemy();
    let mut protected = Bitboard::EMPTY;
    let mut pressure = 0.0f32;
    for (sq, piece) in board.clone() {
        let reach = attacks::attacks(sq, piece, occ);
        protected |= reach;
        for x in reach & meta.maybe_enemy() {
            let bits = meta.bits(x);
            pressure +=
                (bits & !umpire_belief::EMPTY).count_ones() as f32 / bits.count_ones() as f32;
        }
    }
    let (men_lo, men_hi) = meta.men();
    // Pawns promote where the enemy has little left to stop them: that both wins material and
    // keeps the fifty-move clock from running out in a won ending.
    let push = if men_hi <= LITTLE_LEFT { 0.35 } else { 0.1 };
    let mut score = 0.0f32;
    let mut own_material = 0.0f32;
    let mut has_queen = false;
    let mut mating_force = false;
    for (sq, piece) in board.clone() {
        let v = man_value(piece.role);
        own_material += v;
        let t = threat[usize::from(sq)];
        if piece.role == Role::King {
            score -= 0.3 * t;
            continue;
        }
        let guarded = protected.contains(sq);
        score -= t * v * if guarded { 0.35 } else { 0.9 };
        if guarded {
            score += 0.03;
        }
        match piece.role {
            Role::Pawn => {
                let r = relative_rank(us, sq);
                score += push * (r as f32 - 1.0) + if r == 6 { 0.8 } else { 0.0 };
            }
            Role::Knight | Role::Bishop => {
                score += 0.04 * relative_rank(us, sq).min(5) as f32;
            }
            Role::Queen => {
                has_queen = true;
                mating_force = true;
            }
            Role::Rook => mating_force = true,
            _ => {}
        }
    }
    if has_queen {
        score += 0.5;
    }
    score += 0.12 * pressure;
    let (p_lo, p_hi) = meta.pawns();
    let men = (men_lo as f32 + men_hi as f32) / 2.0;
    let pawns = (p_lo as f32 + p_hi as f32) / 2.0;
    let enemy_material = pawns + (men - 1.0 - pawns).max(0.0) * 4.0;
    score += own_material - enemy_material;
    // Entropy and age of information: probing pays.
    score -= 0.01 * meta.entropy() as f32;
    let mut stale = 0u32;
    for sq in meta.maybe_enemy() {
        if meta.bits(sq).count_ones() > 1 {
            stale += u32::from(meta.age(sq).min(20));
        }
    }
    score -= 0.0005 * stale as f32;
    // Mating: push the possible enemy king squares together and towards the edge.
    if men_hi == 1 && mating_force {
        let kings = meta.possible(5);
        let n = kings.count().max(1) as f32;
        let edge: f32 = kings
            .into_iter()
            .map(|k| centre_distance(k) as f32)
            .sum::<f32>()
            / n;
        score -= 0.08 * n;
        score -= 0.4 * (3.0 - edge);
        if let Some(own_king) = board.king_of(us) {
            let d: f32 = kings
                .into_iter()
                .map(|k| own_king.distance(k) as f32)
                .sum::<f32>()
                / n;
            score -= 0.15 * d;
        }
        score += 20.0;
    }
    score
}

/// 0 for the centre four squares … 3 for the edge.
fn centre_distance(sq: Square) -> u32 {
    let f = u32::from(sq.file());
    let r = u32::from(sq.rank());
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df.max(dr)
}

/// Rank from the player's side: 0 for its first rank.
fn relative_rank(us: Color, sq: Square) -> u32 {
    let r = u32::from(sq.rank());
    if us == Color::White { r } else { 7 - r }
}
