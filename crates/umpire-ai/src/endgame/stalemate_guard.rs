//! [`StalemateGuard`]: the share of the enemy's possible positions in which a move of the net
//! ([`super::NetCloser`]) may stalemate, counted soundly where enemy pawns may stand.
//!
//! The net keeps the enemy king's squares and calls a king mated or in check when our lines
//! reach it past squares where an enemy pawn is unlikely (`darkboard/sure_attacks.rs`): a line
//! counts until the chance of a blocking pawn reaches an eighth. Issue 28, session 8's
//! `raider` row at 100 ms: in game 5 (`mcts` White, KQRN vs KP, 16 ahead) the net dropped the
//! king's true square e4 because the queen on h4 "attacked" it through g4, where the pawn stood,
//! and `Qg3` stalemated; in game 52 (`mcts` Black, 24 ahead, its belief dead) the rook's line
//! h5–h2 was called a check through the pawn on h4, and `Rh5` stalemated a king it scored as
//! mated. The agent's belief could not object: in game 5 it was a restarted guess without the
//! true king square, in game 52 it held nothing.
//!
//! The guard keeps its own set of king squares beside the net's, spread after each enemy move
//! to every square our men do not attack *whatever stands on the squares where an enemy pawn
//! may be* (each such square blocks), so it never drops the true square by a guess about a
//! pawn. For an attempt it counts, in each of those king squares where the attempt is legal,
//! the placements of the enemy pawns (each square where a pawn may stand, in turn; the squares
//! surely holding one always) in which the king is not in check, has no square to go to, and no
//! pawn may move: a stalemate. The share is the mean over the king squares of the share of
//! placements that stalemate, the placements weighed evenly as the net weighs them.

use umpire_belief::Metaposition;
use umpire_rules::shakmaty::{Bitboard, Color, Square, attacks};
use umpire_rules::{Attempt, OwnBoard};

use crate::darkboard::net::{attacked_by, worlds_where_legal};
use crate::darkboard::net_worlds::KingWorlds;

/// The enemy king's squares kept by the guard (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, Default)]
pub struct StalemateGuard {
    /// The king squares, kept as the net keeps its own but past every square a pawn may hold.
    kings: KingWorlds,
}

/// The squares our men in `meta` attack whatever enemy pawns stand where they may: every square
/// where one may stand blocks.
fn surely_attacked(meta: &Metaposition) -> Bitboard {
    let own = meta.own();
    let board = own.board();
    let occupied = board.by_color(own.side()) | meta.possible(0);
    attacked_by(board, own.side(), occupied).0
}

/// Whether an enemy pawn of `colour` on `pawn` has a move with `ours` (our men) and `blockers`
/// (every other man: the enemy king, the other pawns) on the board.
fn pawn_moves(colour: Color, pawn: Square, ours: Bitboard, blockers: Bitboard) -> bool {
    let ahead = if colour == Color::White {
        pawn.offset(8)
    } else {
        pawn.offset(-8)
    };
    ahead.is_some_and(|s| !(ours | blockers).contains(s))
        || (attacks::pawn_attacks(colour, pawn) & ours).any()
}

impl StalemateGuard {
    /// Stops keeping the set.
    pub fn forget(&mut self) {
        self.kings.forget();
    }

    /// The enemy moved (`meta` has heard it): the king stepped to a square our men do not
    /// attack whatever the pawns block, and none of ours stands on, or stayed if it has other
    /// men, one of which may have moved instead.
    pub fn opponent_moved(&mut self, meta: &Metaposition) {
        self.kings.opponent_moved_past(meta, surely_attacked);
    }

    /// Per attempt of `options` (ours in `meta`), the share of the enemy's possible positions
    /// in which it is legal and stalemates (see the [module documentation](self)), written to
    /// `out` (cleared first).
    pub fn shares(&mut self, meta: &Metaposition, options: &[Attempt], out: &mut Vec<f32>) {
        out.clear();
        let kings = self.kings.worlds_past(meta, surely_attacked);
        for &a in options {
            out.push(share(meta, kings, a).unwrap_or(0.0));
        }
    }
}

/// The share of the positions (king on one of `kings`, pawns placed as the metaposition
/// allows) in which `a` is legal and stalemates; `None` if it is legal in none.
fn share(meta: &Metaposition, kings: Bitboard, a: Attempt) -> Option<f32> {
    let own: &OwnBoard = meta.own();
    let us = own.side();
    let colour = meta.enemy();
    let role = own.board().role_at(a.from)?;
    let worlds = worlds_where_legal(kings, a, role);
    if worlds.is_empty() {
        return None;
    }
    let mut after = own.clone();
    after.play(a);
    let board = after.board();
    let mine = board.by_color(us);
    let (_, most) = meta.pawns();
    // A capture took whatever stood there: no enemy pawn stands where our men do.
    let maybe = meta.possible(0) & !mine;
    let sure = maybe & meta.surely_enemy();
    let unsure = maybe & !sure;
    // Pawns not surely placed: each placement puts one on a square where one may stand; any
    // further pawn is taken to be stuck (the placements overcount a stalemate, never miss one).
    let placements: Vec<Bitboard> = if u32::from(most) <= sure.count() as u32 || unsure.is_empty() {
        vec![sure]
    } else {
        unsure
            .into_iter()
            .map(|p| sure | Bitboard::from_square(p))
            .collect()
    };
    let attacked: Vec<Bitboard> = placements
        .iter()
        .map(|&pawns| attacked_by(board, us, mine | pawns).0)
        .collect();
    let mut total = 0.0f32;
    for k in worlds {
        let mut stalemates = 0u32;
        let mut counted = 0u32;
        for (pawns, hit) in placements.iter().zip(&attacked) {
            if pawns.contains(k) {
                continue;
            }
            counted += 1;
            if hit.contains(k) {
                continue;
            }
            let flights = attacks::king_attacks(k) & !*hit & !*pawns;
            if flights.any() {
                continue;
            }
            let king = Bitboard::from_square(k);
            let moves = pawns
                .into_iter()
                .any(|p| pawn_moves(colour, p, mine, *pawns | king));
            if !moves {
                stalemates += 1;
            }
        }
        if counted > 0 {
            total += stalemates as f32 / counted as f32;
        }
    }
    Some(total / worlds.count() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_rules::shakmaty::{CastlingMode, Chess};

    /// The metaposition of `side`, who knows the position of `fen` exactly.
    fn meta(fen: &str, side: Color) -> Metaposition {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let config = umpire_belief::BeliefConfig {
            bound: 16,
            particles: None,
            seed: 1,
            threads: 1,
            parallel_from: umpire_belief::PARALLEL_FROM,
            repair_budget: umpire_belief::REPAIR_BUDGET,
        };
        let belief = umpire_belief::Belief::new(RuleSet::WILD16, pos, side, config);
        Metaposition::of(&belief.unwrap()).unwrap()
    }

    fn attempt(from: Square, to: Square) -> Attempt {
        Attempt {
            from,
            to,
            promotion: None,
        }
    }

    #[test]
    fn a_rook_in_front_of_the_pawn_stalemates_the_king_its_line_does_not_reach() {
        use Square::*;
        // Game 52's last position, Black to move: Rb5-h5 blocks the pawn on h4 and does not
        // check the king on h2 through it; Ra1-h1 checks (and mates).
        let m = meta("8/8/8/1r6/2kn3P/1n3q2/7K/r7 b - - 0 1", Color::Black);
        let mut guard = StalemateGuard::default();
        let mut out = Vec::new();
        guard.shares(&m, &[attempt(B5, H5), attempt(A1, H1)], &mut out);
        assert!(out[0] > 0.99, "Rh5 stalemates: {out:?}");
        assert_eq!(out[1], 0.0);
    }

    #[test]
    fn a_line_through_a_possible_pawn_square_keeps_the_king_square_behind_it() {
        use Square::*;
        // Game 5: the queen on h4 does not surely attack e4 while a pawn may stand on g4; the
        // king on f3 may step there.
        let m = meta("8/8/4K3/3R1N2/6pQ/5k2/8/8 b - - 0 1", Color::White);
        let mut guard = StalemateGuard {
            kings: KingWorlds::from_set(Bitboard::from_square(F3)),
        };
        guard.opponent_moved(&m);
        assert!(guard.kings.kept().unwrap().contains(E4));
        assert!(!guard.kings.kept().unwrap().contains(G3));
    }

    #[test]
    fn a_queen_that_takes_the_last_square_stalemates_and_a_check_does_not() {
        use Square::*;
        // A bare king on a8, ours on b6: Qc7 leaves the king no square and no check, Qc8 mates.
        let m = meta("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", Color::White);
        let mut guard = StalemateGuard::default();
        let mut out = Vec::new();
        guard.shares(&m, &[attempt(C1, C7), attempt(C1, C8)], &mut out);
        assert!(out[0] > 0.99, "Qc7 stalemates: {out:?}");
        assert_eq!(out[1], 0.0);
    }
}
