//! The mating net's root term for capture tries as the fifty-move clock runs: an attempt onto a
//! square where an enemy pawn may stand takes it if it is there, and a capture resets the
//! clock. With a lone rook or queen against pawns the net otherwise boxes a king it may not
//! mate before the hundredth ply, while taking the pawns both resets the clock and leaves a
//! table's ending (issue 28: session 9's `mcts` against `raider` row at 100 ms drew five games
//! by the fifty-move rule 3 to 10 points ahead, rook endings against pawns).
//!
//! Each option's term, in evaluation pawns, is [`TRY_WEIGHT`] times the pawn move's progress
//! bonus at this clock (`root_terms.rs`: nothing up to its threshold, then growing with every
//! ply) times the chance that an enemy pawn stands on the attempt's target (1 where one surely
//! does; else the enemy's most pawns spread evenly over their possible squares), for a move
//! that would capture there (a pawn's only diagonally). Only while our mating men are a lone
//! rook or queen, with at most one bishop or knight beside it ([`lone_heavy`]): with more, the
//! net mates in time, and the term only distracts it (session 10's first `mcts@4000` row with
//! the term for every net: games 6 and 9, a rook, a bishop and a knight against two pawns and
//! two rooks, a bishop and a knight against two, both won before, drawn by the fifty-move rule
//! 11 and 16 ahead).

use umpire_belief::Metaposition;
use umpire_rules::Attempt;
use umpire_rules::shakmaty::Role;

use super::root_terms::progress_urgency;

/// A capture try's bonus against a pawn move's at the same clock, for a pawn surely on the
/// target: above one, so that a sure capture comes before a push, as the push does not take
/// the enemy's last hopes off the board.
pub(crate) const TRY_WEIGHT: f32 = 1.5;

/// Adds each of `options`' capture-try terms in `meta` with the fifty-move clock at most
/// `clock` to `out` (one per option, as [`OwnHistory::bonus`](super::root_terms::OwnHistory)
/// wrote it).
pub(crate) fn add_capture_tries(
    meta: &Metaposition,
    clock: u32,
    options: &[Attempt],
    out: &mut [f32],
) {
    let urgency = progress_urgency(clock);
    if urgency <= 0.0 || !lone_heavy(meta) {
        return;
    }
    let maybe_pawns = meta.possible(0);
    if maybe_pawns.is_empty() {
        return;
    }
    let sure = maybe_pawns & meta.surely_enemy();
    let density = (f32::from(meta.pawns().1) / maybe_pawns.count() as f32).min(1.0);
    let board = meta.own().board();
    for (b, a) in out.iter_mut().zip(options) {
        if !maybe_pawns.contains(a.to) {
            continue;
        }
        if board.role_at(a.from) == Some(Role::Pawn) && a.from.file() == a.to.file() {
            continue;
        }
        let chance = if sure.contains(a.to) { 1.0 } else { density };
        *b += TRY_WEIGHT * urgency * chance;
    }
}

/// Whether our men besides the king and the pawns are one rook or queen and at most one bishop
/// or knight.
pub(crate) fn lone_heavy(meta: &Metaposition) -> bool {
    let board = meta.own().board();
    let mine = board.by_color(!meta.enemy());
    let heavy = ((board.rooks() | board.queens()) & mine).count();
    let minor = ((board.bishops() | board.knights()) & mine).count();
    heavy == 1 && minor <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::Color;

    /// White's metaposition at a set-up start of `fen` (told the enemy's material only).
    fn meta(fen: &str) -> Metaposition {
        let start = umpire_testkit::pos(fen);
        Metaposition::start(&crate::setup_view(RuleSet::WILD16, &start, Color::White))
    }

    #[test]
    fn a_try_onto_a_pawn_earns_more_as_the_clock_runs() {
        // Rook against king and pawn, the pawn anywhere a pawn may stand (a set-up start).
        let m = meta("8/8/8/8/p7/8/8/R3K2k w - - 0 1");
        let take = Attempt::from_uci("a1a4").unwrap();
        let quiet = Attempt::from_uci("a1b1").unwrap();
        let options = [take, quiet];
        let mut out = [0.0f32; 2];
        add_capture_tries(&m, 30, &options, &mut out);
        assert_eq!(out, [0.0, 0.0], "below the progress threshold nothing");
        add_capture_tries(&m, 70, &options, &mut out);
        assert!(out[0] > 0.0 && out[1] == 0.0, "{out:?}");
        let mut late = [0.0f32; 2];
        add_capture_tries(&m, 95, &options, &mut late);
        assert!(late[0] > out[0], "{late:?} {out:?}");
    }

    #[test]
    fn with_more_than_a_lone_heavy_piece_the_net_is_left_alone() {
        let options = [Attempt::from_uci("a1a4").unwrap()];
        for (fen, applies) in [
            ("8/8/8/8/p7/8/8/R3K2k w - - 0 1", true),
            ("8/8/8/8/p7/8/8/Q2NK2k w - - 0 1", true),
            ("8/8/8/8/p7/8/8/R2RK2k w - - 0 1", false),
            ("8/8/8/8/p7/8/8/R1BNK2k w - - 0 1", false),
        ] {
            let mut out = [0.0f32];
            add_capture_tries(&meta(fen), 90, &options, &mut out);
            assert_eq!(out[0] > 0.0, applies, "{fen}");
        }
    }
}
