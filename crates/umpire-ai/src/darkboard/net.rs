//! The mating method beyond the tables: when the enemy has only its king and at most two
//! other men that may all be pawns, and the player has mating material (a queen, a rook, or a bishop with another minor
//! piece), attempts are chosen by closing a net around every square where the metaposition
//! lets the enemy king stand (the worlds), not by the general search.
//!
//! Each attempt is scored, assuming it is accepted, over the worlds where it would be legal:
//! - the share of worlds it mates (surely checked: no enemy pawn may well block the check,
//!   `sure_attacks.rs`; and no flight square) and, far more costly, the share it stalemates
//!   (not surely checked, no flight square, no surely free enemy pawn move; where every flight
//!   square may hold an enemy pawn, the chance that they all do);
//! - the value of our men left unprotected next to a possible king square (the king takes
//!   them), and of unprotected men where an enemy pawn may take them (times the chance); a man
//!   whose loss leaves no mating material (a lone rook) is worth a mate: its loss draws;
//! - the box: the number of squares the enemy king can reach, in any number of moves, through
//!   squares none of our men attacks (the classic measure), per world and averaged over the
//!   worlds (a cut counts for the worlds on its small side before the king is found there);
//! - the king's flight squares (mean over the worlds);
//! - our king's distance to the possible king squares, our pawns' advance and our material
//!   (a promotion to a queen is the simplest mate); while we have no queen, a pawn that no
//!   enemy pawn may stop on its file is worth far more per rank, so that the capture of the
//!   enemy pawn that blocks it and its run to a queen come before a lone rook's slow net (an
//!   enemy pawn taken counts where we take it: the squares our men stand on hold none), and
//!   our king walks ahead of the leading pawn (it guards the rook that frees it and the pawn);
//! - the enemy pawns' run: by the square of their rank, times the chance one stands there,
//!   unless one of our men stands ahead of it on its file (capture or block it); a pawn takes
//!   a protected man too (it costs a pawn less);
//! - where an enemy man may be a piece (a pawn may have promoted unseen: the metaposition
//!   loses track), our unprotected men a piece may take, times the chance one stands on a
//!   square that attacks them (pieces spread evenly over their possible squares);
//!
//! The root terms against repetition and for progress (`root_terms.rs`) are added to the
//! scores; a third visit of the own men's configuration, a draw if the enemy's men stand where
//! they stood, costs a further mate.
//!
//! A second ply of our own attempts (the enemy king spread by one move over the free squares)
//! is searched and half its best score added, so that a king step that lets a piece shrink
//! the box next turn is seen. Each scored attempt is one node; nothing in the scoring
//! allocates.
//!
//! The value reported with the chosen attempt moves with the game (`net_value.rs`): it rises
//! as the squares the king may reach shrink, and is 1 for a certain mate.

use umpire_belief::Metaposition;
use umpire_rules::shakmaty::{Bitboard, Board, Color, Role, Square, attacks};
use umpire_rules::{Attempt, AttemptList, Command, OwnBoard};

use crate::Analysis;

use super::eval::man_value;
use super::net_value::{self, Closing};
use super::root_terms;

/// The most enemy men besides the king for which the method is used (they are only watched,
/// not fought).
const MAX_ENEMY_MEN: u8 = 2;
/// Value of a certain mate.
const MATE: f32 = 1000.0;
/// Cost of a certain stalemate (a won game thrown away): a small risk of it outweighs a good
/// chance of mating now, since against a weak defence the mate comes later anyway.
const STALEMATE: f32 = 20.0 * MATE;
/// Cost per pawn of value of a man the king may take, per share of the worlds.
const HANG: f32 = 40.0;
/// Cost per pawn of value of an unprotected man standing where an enemy pawn may take it,
/// times the chance that one is there.
const PAWN_THREAT: f32 = 20.0;
/// Worth, in pawns, of a man whose loss leaves us no mating material (for the costs of men
/// the king or a pawn may take): losing it throws the win away, like a stalemate, so a share
/// of worlds where the king may take it costs as much as the same share of mates gains.
const LAST_MAN: f32 = MATE / HANG;
/// Cost per pawn of value of an unprotected man standing where an enemy piece may take it,
/// times the chance that one is there (a piece only where a man may not be a pawn).
const PIECE_THREAT: f32 = 20.0;
/// Cost per square of the box.
const BOX: f32 = 2.0;
/// Cost per flight square of the king (mean over the worlds).
const MOBILITY: f32 = 3.0;
/// Cost per square of our king's mean distance to the possible king squares (beyond 2).
const KING: f32 = 1.5;
/// Cost per square of our king's distance to the square ahead of our leading pawn (beyond 1),
/// while we have no queen.
const ESCORT: f32 = 2.0;
/// Cost per squared rank of an enemy pawn's advance that none of our men blocks (times the
/// chance it stands there).
const ENEMY_RUN: f32 = 4.0;
/// Worth of a pawn's rank.
const PAWN_RANK: f32 = 2.0;
/// Worth of a rank of a pawn no enemy pawn may stop on its file, while we have no queen
/// (a queen mates far sooner than a rook): below what its promotion gains.
const RUN_RANK: f32 = 8.0;
/// Worth of a pawn of material.
const MATERIAL: f32 = 10.0;
/// Weight of the second ply.
const SECOND: f32 = 0.5;
/// What a third visit of the own men's configuration costs beyond its root term (30 pawns,
/// [`BONUS_SCALE`] units each: `darkboard`'s mate, under a third of the net's): with the enemy's
/// men where they stood it is a draw by threefold repetition, which throws the win away as the
/// loss of the last mating man does ([`LAST_MAN`]), so it costs a certain mate. Issue 28: game 14
/// of session 8's quiet `mcts` against `raider` row (100 ms a decision), `mcts` a queen against a
/// knight and a pawn: checked by the knight, the net moved its king back beside the queen for
/// the third time (300 units) rather than step where the queen might hang next to one of the
/// enemy king's squares (a risk the net put at about 400 units), and the game was drawn.
const THIRD_VISIT: f32 = MATE;

/// Whether the method applies to `meta`: the enemy has its king and at most
/// [`MAX_ENEMY_MEN`] other men, all of which may be pawns, and we have mating material.
///
/// The other men need not surely be pawns: the metaposition soon loses track of whether a pawn
/// promoted, and then lets a piece stand almost anywhere. Only a man that is surely a piece
/// (more men than the enemy may have pawns) keeps the general search in charge.
pub(crate) fn applies(meta: &Metaposition) -> bool {
    let (_, men_hi) = meta.men();
    let (_, p_hi) = meta.pawns();
    if men_hi == 0 || men_hi - 1 > MAX_ENEMY_MEN || men_hi - 1 > p_hi {
        return false;
    }
    let board = meta.own().board();
    let heavy = (board.queens() | board.rooks()) & board.by_color(!meta.enemy());
    let mine = board.by_color(!meta.enemy());
    let bishops = (board.bishops() & mine).count();
    let knights = (board.knights() & mine).count();
    heavy.any() || (bishops >= 1 && bishops + knights >= 2)
}

/// What the scoring needs to know of the enemy, fixed for one decision.
#[derive(Clone, Copy)]
struct Enemy {
    colour: Color,
    /// Squares surely holding an enemy pawn.
    pawns: Bitboard,
    /// The chance that a square where an enemy pawn may stand holds one (pawns spread evenly).
    pawn_density: f32,
    /// Squares where an enemy pawn may stand.
    maybe_pawns: Bitboard,
    /// Whether an enemy man besides the king may be a piece.
    maybe_piece: bool,
    /// Where such a piece may stand, by how it attacks: knights, bishops and queens, rooks and
    /// queens (empty if none may be a piece).
    pieces: [Bitboard; 3],
    /// The chance that a square where a piece may stand holds one (pieces spread evenly).
    piece_density: f32,
}

/// The scores of one attempt's first ply (before the second ply is added).
struct Ply {
    score: f32,
    /// The value the net would report if the attempt were chosen.
    value: f32,
    /// Where the enemy king may stand after its reply.
    spread: Bitboard,
}

/// One attempt's score by the method and the value the net reports if it is chosen.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scored {
    /// The score (both plies): the higher, the better.
    pub(crate) score: f32,
    /// The value of the position it leaves, in [-1, 1] ([`net_value`](super::net_value)).
    pub(crate) value: f32,
}

/// For each of `options` (our attempts in `meta`, the enemy king on one of `kings`), its score
/// and value, written to `out` (cleared first). Returns the number of attempts scored, both plies (the nodes: the second ply is
/// always searched whatever the agent's budget, a few hundred to a few thousand plies of
/// about a microsecond each).
pub(crate) fn scores(
    meta: &Metaposition,
    kings: Bitboard,
    options: &[Attempt],
    out: &mut Vec<Scored>,
) -> u64 {
    out.clear();
    let colour = meta.enemy();
    let maybe_pawns = meta.possible(0);
    let pawns = maybe_pawns & meta.surely_enemy();
    let pawn_density = if maybe_pawns.any() {
        f32::from(meta.pawns().1) / maybe_pawns.count() as f32
    } else {
        0.0
    };
    let (_, men_hi) = meta.men();
    // At most this many enemy men may be pieces (a pawn may have promoted unseen).
    let may_be_pieces = men_hi.saturating_sub(1).saturating_sub(meta.pawns().0);
    let pieces = if may_be_pieces > 0 {
        [
            meta.possible(1),
            meta.possible(2) | meta.possible(4),
            meta.possible(3) | meta.possible(4),
        ]
    } else {
        [Bitboard::EMPTY; 3]
    };
    let piece_squares = pieces[0] | pieces[1] | pieces[2];
    let piece_density = if piece_squares.any() {
        f32::from(may_be_pieces) / piece_squares.count() as f32
    } else {
        0.0
    };
    let enemy = Enemy {
        colour,
        pawns,
        pawn_density,
        maybe_pawns,
        maybe_piece: may_be_pieces > 0,
        pieces,
        piece_density,
    };
    let mut nodes = 0u64;
    let mut next = AttemptList::new();
    for &a in options {
        nodes += 1;
        let mut own = meta.own().clone();
        let Some(first) = ply(&own, a, kings, &enemy) else {
            // Illegal wherever the king may be: the answer only narrows the worlds.
            out.push(Scored {
                score: -MATE,
                value: 0.0,
            });
            continue;
        };
        let mut score = first.score;
        if first.spread.any() {
            own.play(a);
            next.clear();
            own.attempts(false, &mut next);
            let mut best = f32::NEG_INFINITY;
            for &b in &next {
                nodes += 1;
                if let Some(second) = ply(&own, b, first.spread, &enemy) {
                    best = best.max(second.score);
                }
            }
            if best > f32::NEG_INFINITY {
                score += SECOND * best;
            }
        }
        out.push(Scored {
            score,
            value: first.value,
        });
    }
    nodes
}

/// The units of [`scores`] per evaluation pawn of the root terms (repetition, progress).
const BONUS_SCALE: f32 = 10.0;

/// The net's choice among `options` (not empty) in `meta` with the enemy king on one of
/// `kings`, the root terms `bonus` (evaluation pawns, one per option) added and, if given, a
/// stalemate's cost times the share of other worlds in which each option stalemates
/// (`stalemates`, one per option): the attempt and its analysis. `scores` is scratch space.
pub(crate) fn choose(
    meta: &Metaposition,
    kings: Bitboard,
    options: &[Attempt],
    bonus: &[f32],
    stalemates: Option<&[f32]>,
    scores: &mut Vec<Scored>,
) -> (Attempt, Analysis) {
    let nodes = self::scores(meta, kings, options, scores);
    let mut best = (0usize, f32::NEG_INFINITY);
    for (i, (s, &b)) in scores.iter().zip(bonus).enumerate() {
        let risk = stalemates.and_then(|x| x.get(i)).copied().unwrap_or(0.0);
        let third = if root_terms::third_visit(b) {
            THIRD_VISIT
        } else {
            0.0
        };
        let v = s.score + BONUS_SCALE * b - STALEMATE * risk - third;
        if v > best.1 {
            best = (i, v);
        }
    }
    let chosen = options[best.0];
    let analysis = Analysis {
        value: f64::from(scores[best.0].value),
        line: vec![Command::Attempt(chosen)],
        nodes,
    };
    (chosen, analysis)
}

/// The squares a king on any of `set` reaches in one step (by shifts, without a loop).
pub(crate) fn king_spread(set: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let b = set.0;
    let sideways = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | sideways;
    Bitboard(sideways | (row << 8) | (row >> 8))
}

/// The squares of `kings` where attempt `a` by our man of `role` is legal: the enemy king is
/// not on its path or target, and not next to the square our king goes to.
pub(crate) fn worlds_where_legal(kings: Bitboard, a: Attempt, role: Role) -> Bitboard {
    let mut blocked = attacks::between(a.from, a.to) | Bitboard::from_square(a.to);
    if role == Role::King {
        blocked |= attacks::king_attacks(a.to);
    }
    kings & !blocked
}

/// The score of attempt `a` from `own` with the enemy king on one of `kings`, assuming it is
/// accepted; `None` if it is illegal wherever the king may be.
fn ply(own: &OwnBoard, a: Attempt, kings: Bitboard, enemy: &Enemy) -> Option<Ply> {
    let board = own.board();
    let us = own.side();
    let role = board.role_at(a.from)?;
    // A pawn's capture needs an enemy man there (the king is never taken); its push, none.
    if role == Role::Pawn {
        let capture = a.from.file() != a.to.file();
        let path = attacks::between(a.from, a.to) | Bitboard::from_square(a.to);
        if (capture && !enemy.maybe_pawns.contains(a.to))
            || (!capture && (path & enemy.pawns).any())
        {
            return None;
        }
    }
    let worlds = worlds_where_legal(kings, a, role);
    if worlds.is_empty() {
        return None;
    }
    let mut after = own.clone();
    after.play(a);
    let b = after.board();
    let mine = b.by_color(us);
    // A capture took whatever stood there: no enemy pawn stands where our men do.
    let captured = enemy.maybe_pawns.contains(a.to);
    let sure_capture = enemy.pawns.contains(a.to);
    let enemy = &Enemy {
        pawns: enemy.pawns & !mine,
        maybe_pawns: enemy.maybe_pawns & !mine,
        ..*enemy
    };
    let occupied = mine | enemy.pawns;
    let (attacked, protected) = attacked_by(b, us, occupied);
    let king_free = !attacked & !enemy.pawns;
    // A check is sure only if no enemy pawn may well block it: otherwise a king without flight
    // squares may be stalemated behind the pawn rather than mated.
    let surely_attacked = super::sure_attacks::sure_attacks(
        b,
        us,
        occupied,
        enemy.maybe_pawns & !enemy.pawns,
        enemy.pawn_density,
    );

    // Per world: mate, stalemate, men the king may take.
    let pawn_move = pawn_may_move(enemy, mine);
    let unit = 1.0 / worlds.count() as f32;
    let mut mate = 0.0f32;
    let mut stalemate = 0.0f32;
    let mut hang = 0.0f32;
    let mut mobility = 0.0f32;
    let loose = mine & !protected & !b.kings();
    let last = last_mating_men(b, us);
    let worth = |sq: Square, r: Role| {
        if last.contains(sq) {
            LAST_MAN
        } else {
            man_value(r)
        }
    };
    for k in worlds {
        let reach = attacks::king_attacks(k);
        let flights = reach & king_free;
        mobility += flights.count() as f32 * unit;
        if flights.is_empty() {
            if surely_attacked.contains(k) {
                mate += unit;
            } else if !pawn_move {
                stalemate += unit;
            }
        } else if !attacked.contains(k) && !pawn_move && (flights & !enemy.maybe_pawns).is_empty() {
            // Every flight square may hold an enemy pawn: a stalemate if they all do.
            stalemate += unit * enemy.pawn_density.min(1.0).powi(flights.count() as i32);
        }
        for m in reach & loose {
            hang += unit * b.role_at(m).map_or(0.0, |r| worth(m, r));
        }
    }

    // The box: per world, the squares the king reaches through free squares (its part of the
    // board cut by our men), averaged over the worlds. A man of ours the king cannot take now
    // is a wall (the men it may take cost [`HANG`] already; a man the king walks toward
    // steps away when it may take it next).
    let walls = loose & !king_spread(worlds);
    let box_free = king_free & !walls;
    let mut boxed = 0.0f32;
    // Every square the king may reach from any world (for the value).
    let mut reach = Bitboard::EMPTY;
    let mut left = worlds;
    while let Some(k) = left.first() {
        let mut region = Bitboard::from_square(k);
        loop {
            let grown = region | (king_spread(region) & box_free);
            if grown == region {
                break;
            }
            region = grown;
        }
        let inside = left & region;
        boxed += (inside.count() * region.count()) as f32 * unit;
        reach |= region;
        left &= !region;
    }

    let mut material = 0.0f32;
    let mut pawn_ranks = 0.0f32;
    let mut running = 0.0f32;
    let mut pawn_threat = 0.0f32;
    let mut piece_threat = 0.0f32;
    // Our most advanced pawn and its rank.
    let mut lead: Option<(Square, f32)> = None;
    for sq in mine {
        let Some(r) = b.role_at(sq) else { continue };
        material += man_value(r);
        if r == Role::Pawn {
            let rank = relative_rank(us, sq) as f32;
            pawn_ranks += rank;
            if lead.is_none_or(|(_, best)| rank > best) {
                lead = Some((sq, rank));
            }
            if (file_ahead(us, sq) & enemy.maybe_pawns).is_empty() {
                running += rank;
            }
        }
        if r == Role::King {
            continue;
        }
        // The squares from which an enemy pawn would attack `sq`: it takes the man, protected
        // or not (a protected one costs a pawn less: we take the pawn back).
        let from = attacks::pawn_attacks(us, sq) & enemy.maybe_pawns;
        let chance = (from.count() as f32 * enemy.pawn_density).min(1.0);
        let back = if protected.contains(sq) { 1.0 } else { 0.0 };
        pawn_threat += chance * (worth(sq, r) - back).max(0.0);
        // The squares from which a piece (a pawn promoted unseen) would attack it, if loose.
        if !protected.contains(sq) && enemy.piece_density > 0.0 {
            let [knights, diagonal, straight] = enemy.pieces;
            let from = (attacks::knight_attacks(sq) & knights)
                | (attacks::bishop_attacks(sq, occupied) & diagonal)
                | (attacks::rook_attacks(sq, occupied) & straight);
            let chance = ((from & !mine).count() as f32 * enemy.piece_density).min(1.0);
            piece_threat += chance * worth(sq, r);
        }
    }
    // The enemy pawns' run to a queen: by the square of their rank, times the chance one
    // stands there, unless one of our men blocks the file ahead.
    let mut enemy_run = 0.0f32;
    for sq in enemy.maybe_pawns {
        if (file_ahead(enemy.colour, sq) & mine).any() {
            continue;
        }
        let chance = if enemy.pawns.contains(sq) {
            1.0
        } else {
            enemy.pawn_density
        };
        let rank = relative_rank(enemy.colour, sq) as f32;
        enemy_run += chance * rank * rank;
    }
    // A capture of an enemy pawn (half of one where a pawn only may stand).
    if sure_capture {
        material += 1.0;
    } else if captured {
        material += 0.5;
    }
    let run = if (b.queens() & mine).any() {
        0.0
    } else {
        RUN_RANK
    };
    let king_distance = b.king_of(us).map_or(0.0, |kk| {
        worlds
            .into_iter()
            .map(|k| kk.distance(k).max(2) as f32 - 2.0)
            .sum::<f32>()
            * unit
    });
    // Without a queen, our king walks next to the square ahead of our leading pawn (it guards
    // the men that free and escort it).
    let escort = match (b.king_of(us), lead) {
        (Some(kk), Some((p, _))) if run > 0.0 => {
            let front = (file_ahead(us, p) & attacks::king_attacks(p))
                .first()
                .unwrap_or(p);
            kk.distance(front).max(1) as f32 - 1.0
        }
        _ => 0.0,
    };
    let room = (!(mine | enemy.pawns)).count() as f32;
    let value = net_value::value(&Closing {
        mate,
        stalemate,
        hang,
        reach: reach.count() as f32,
        room,
        maybe_piece: enemy.maybe_piece,
    });
    let score = MATE * mate
        - STALEMATE * stalemate
        - HANG * hang
        - PAWN_THREAT * pawn_threat
        - PIECE_THREAT * piece_threat
        - BOX * boxed
        - MOBILITY * mobility
        - KING * king_distance
        - ESCORT * escort
        - ENEMY_RUN * enemy_run
        + PAWN_RANK * pawn_ranks
        + run * running
        + MATERIAL * material;
    // The king's reply: any step to a free square (or it stays while a pawn moves).
    let mut spread = king_spread(worlds) & king_free;
    if pawn_move {
        spread |= worlds & !attacked;
    }
    Some(Ply {
        score,
        value,
        spread,
    })
}

/// Whether men of these numbers (queens and rooks, bishops, knights) can force mate.
fn mating(heavy: u32, bishops: u32, knights: u32) -> bool {
    heavy > 0 || (bishops > 0 && bishops + knights >= 2)
}

/// Our men on `board` whose loss would leave us no mating material (pawns aside: they must
/// first promote).
fn last_mating_men(board: &Board, us: Color) -> Bitboard {
    let mine = board.by_color(us);
    let heavy = (board.queens() | board.rooks()) & mine;
    let bishops = board.bishops() & mine;
    let knights = board.knights() & mine;
    let (h, b, n) = (
        heavy.count() as u32,
        bishops.count() as u32,
        knights.count() as u32,
    );
    if !mating(h, b, n) {
        return Bitboard::EMPTY;
    }
    let mut last = Bitboard::EMPTY;
    if h > 0 && !mating(h - 1, b, n) {
        last |= heavy;
    }
    if b > 0 && !mating(h, b - 1, n) {
        last |= bishops;
    }
    if n > 0 && !mating(h, b, n - 1) {
        last |= knights;
    }
    last
}

/// Whether an enemy pawn surely on the board may have a move (a free square ahead or one of
/// our men to take).
fn pawn_may_move(enemy: &Enemy, mine: Bitboard) -> bool {
    enemy.pawns.into_iter().any(|p| {
        let ahead = if enemy.colour == Color::White {
            p.offset(8)
        } else {
            p.offset(-8)
        };
        ahead.is_some_and(|s| !mine.contains(s) && !enemy.pawns.contains(s))
            || (attacks::pawn_attacks(enemy.colour, p) & mine).any()
    })
}

/// The squares our men on `board` attack (the enemy king transparent), and the squares of
/// our men protected by another of ours.
pub(crate) fn attacked_by(board: &Board, us: Color, occupied: Bitboard) -> (Bitboard, Bitboard) {
    let mut attacked = Bitboard::EMPTY;
    for sq in board.by_color(us) {
        if let Some(piece) = board.piece_at(sq) {
            attacked |= attacks::attacks(sq, piece, occupied);
        }
    }
    (attacked, attacked & board.by_color(us))
}

/// The squares ahead of a pawn of `us` on `sq`, on its file.
fn file_ahead(us: Color, sq: Square) -> Bitboard {
    let file = Bitboard::from_file(sq.file());
    let rank = u32::from(sq.rank());
    let ahead = if us == Color::White {
        Bitboard(u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0))
    } else {
        Bitboard(u64::MAX.checked_shr(8 * (8 - rank)).unwrap_or(0))
    };
    file & ahead
}

/// Rank from the player's side: 0 for its first rank.
fn relative_rank(us: Color, sq: Square) -> u32 {
    let r = u32::from(sq.rank());
    if us == Color::White { r } else { 7 - r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_rules::shakmaty::{CastlingMode, Chess};

    /// White's metaposition at a set-up start of `fen` (told the enemy's material only).
    fn meta(fen: &str) -> Metaposition {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        Metaposition::start(&crate::setup_view(RuleSet::WILD16, &pos, Color::White))
    }

    #[test]
    fn the_method_needs_mating_material_against_a_king_and_pawns() {
        assert!(applies(&meta("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")));
        assert!(applies(&meta("4k3/p7/8/8/8/8/8/3QK3 w - - 0 1")));
        assert!(applies(&meta("4k3/8/8/8/8/8/8/1N1BK3 w - - 0 1")));
        // A lone knight, or two knights, cannot force mate.
        assert!(!applies(&meta("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")));
        assert!(!applies(&meta("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")));
        // An enemy piece, or three pawns, leave the general search in charge.
        assert!(!applies(&meta("4k1n1/8/8/8/8/8/8/R3K3 w - - 0 1")));
        assert!(!applies(&meta("4k3/ppp5/8/8/8/8/8/R3K3 w - - 0 1")));
    }

    #[test]
    fn the_last_mating_men_are_those_whose_loss_leaves_no_mate() {
        let board = |fen: &str| {
            let fen: Fen = fen.parse().unwrap();
            let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
            umpire_rules::shakmaty::Position::board(&pos).clone()
        };
        use Square::*;
        let last = |fen: &str| last_mating_men(&board(fen), Color::White);
        assert_eq!(
            last("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1"),
            Bitboard::from_square(A1)
        );
        assert_eq!(last("4k3/8/8/8/8/8/8/R3K2R w - - 0 1"), Bitboard::EMPTY);
        assert_eq!(
            last("4k3/8/8/8/8/8/8/1N1BK3 w - - 0 1"),
            Bitboard::from_square(B1) | Bitboard::from_square(D1)
        );
        // With two knights beside it the bishop is the last; either knight may go.
        assert_eq!(
            last("4k3/8/8/8/8/8/8/1N1BK1N1 w - - 0 1"),
            Bitboard::from_square(D1)
        );
        assert_eq!(last("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1"), Bitboard::EMPTY);
    }

    #[test]
    fn the_file_ahead_of_a_pawn_is_the_squares_it_still_has_to_cross() {
        use Square::*;
        let squares = |list: &[Square]| {
            list.iter()
                .fold(Bitboard::EMPTY, |b, &s| b | Bitboard::from_square(s))
        };
        assert_eq!(file_ahead(Color::White, B4), squares(&[B5, B6, B7, B8]));
        assert_eq!(file_ahead(Color::Black, B5), squares(&[B4, B3, B2, B1]));
        assert_eq!(file_ahead(Color::White, H7), squares(&[H8]));
        assert_eq!(file_ahead(Color::Black, A2), squares(&[A1]));
        assert_eq!(file_ahead(Color::White, C8), Bitboard::EMPTY);
        assert_eq!(file_ahead(Color::Black, C1), Bitboard::EMPTY);
    }

    #[test]
    fn taking_the_pawn_that_blocks_ours_scores_above_a_rook_move_along_the_file() {
        // The enemy pawn on b5 blocks ours on b4; the king is known on h8, far away.
        let fen: Fen = "7k/8/8/Rp6/1P6/8/8/4K3 w - - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let belief = umpire_belief::Belief::new(
            RuleSet::WILD16,
            pos,
            Color::White,
            umpire_belief::BeliefConfig {
                bound: 100,
                particles: None,
                seed: 1,
                threads: 1,
                parallel_from: umpire_belief::PARALLEL_FROM,
                repair_budget: umpire_belief::REPAIR_BUDGET,
            },
        )
        .unwrap();
        let meta = Metaposition::of(&belief).unwrap();
        let kings = Bitboard::from_square(Square::H8);
        let take = Attempt {
            from: Square::A5,
            to: Square::B5,
            promotion: None,
        };
        let aside = Attempt {
            from: Square::A5,
            to: Square::A6,
            promotion: None,
        };
        let mut out = Vec::new();
        scores(&meta, kings, &[take, aside], &mut out);
        assert!(out[0].score > out[1].score + 20.0, "{out:?}");
    }

    #[test]
    fn a_mate_scores_above_a_quiet_move_and_a_stalemate_below() {
        // The king is known on h8 (a world of one square): Qg7 mates (protected by the king),
        // Qg6 stalemates, Qb1 does neither.
        let fen: Fen = "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let view = crate::setup_view(RuleSet::WILD16, &pos, Color::White);
        let meta = Metaposition::start(&view);
        let kings = Bitboard::from_square(Square::H8);
        let options = [
            Attempt {
                from: Square::G1,
                to: Square::G7,
                promotion: None,
            },
            Attempt {
                from: Square::G1,
                to: Square::G6,
                promotion: None,
            },
            Attempt {
                from: Square::G1,
                to: Square::B1,
                promotion: None,
            },
        ];
        let mut out = Vec::new();
        let nodes = scores(&meta, kings, &options, &mut out);
        assert!(nodes >= options.len() as u64);
        let [mate, stalemate, quiet] = [out[0], out[1], out[2]];
        assert!(mate.score > quiet.score, "mate {mate:?} vs quiet {quiet:?}");
        assert!(
            stalemate.score < quiet.score,
            "{stalemate:?} vs quiet {quiet:?}"
        );
        // A certain mate is a certain win; a certain stalemate a draw.
        assert_eq!(mate.value, 1.0);
        assert_eq!(stalemate.value, 0.0);
        assert!(quiet.value > 0.0 && quiet.value < 1.0, "{quiet:?}");
    }
}

/// The cost of a decision by the method (a measurement, not a test: it prints and asserts
/// nothing): `cargo test --profile mutants -p umpire-ai --lib net_decision_cost -- --ignored
/// --nocapture`.
#[cfg(test)]
mod cost {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::fen::Fen;
    use umpire_rules::shakmaty::{CastlingMode, Chess};

    #[test]
    #[ignore]
    fn net_decision_cost() {
        const ROUNDS: u32 = 20;
        for f in [
            "2k5/Q7/8/8/NP6/R3B1p1/R1P3P1/4K3 w - - 0 1",
            "8/8/8/3k4/8/8/8/R3K2R w - - 0 1",
            "5k2/4R3/8/8/8/8/6p1/4R1K1 w - - 0 1",
        ] {
            let fen: Fen = f.parse().unwrap();
            let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
            let view = crate::setup_view(RuleSet::WILD16, &pos, Color::White);
            let meta = Metaposition::start(&view);
            let mut worlds = super::super::net_worlds::KingWorlds::default();
            let kings = worlds.worlds(&meta);
            let mut options = AttemptList::new();
            meta.own().attempts(false, &mut options);
            let mut out = Vec::new();
            let start = std::time::Instant::now();
            let mut nodes = 0;
            for _ in 0..ROUNDS {
                nodes = scores(&meta, kings, &options, &mut out);
            }
            let each = start.elapsed() / ROUNDS;
            eprintln!(
                "{f}: {} attempts, {} king squares, {nodes} nodes, {each:?} per decision, {:?} per node",
                options.len(),
                kings.count(),
                each / nodes.max(1) as u32
            );
        }
    }
}
