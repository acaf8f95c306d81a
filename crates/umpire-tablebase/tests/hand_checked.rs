//! Small positions checked by hand against the table.

mod common;

use common::{kbbk_partial, kbnk_partial, kqk, krk, set};
use shakmaty::Role;
use shakmaty::Square::*;
use umpire_rules::Attempt;
use umpire_tablebase::{Layout, ProbeError};

fn attempt(text: &str) -> Attempt {
    text.parse().unwrap()
}

#[test]
fn mate_in_one_on_the_back_rank() {
    // Kg6, Rb1, black king on h8 or g8: Rb8 mates both (f8 and h8 on the rank, f7–h7 next to
    // the white king).
    let l = Layout::krk(G6, B1).unwrap();
    let table = krk();
    for s in [set(&[H8]), set(&[G8, H8])] {
        let p = table.probe(l, s).unwrap();
        assert_eq!(p.distance, Some(1), "{p}");
        assert!(p.best.contains(&attempt("b1b8")), "{p}");
    }
    // With f8 possible Rb8+ lets the king out to e7, and no other move mates on h8: no mate in 1.
    let d = table.distance(l, set(&[F8, G8, H8]));
    assert!(d.is_some_and(|d| d >= 2), "{d:?}");
}

#[test]
fn mate_in_two_walking_the_king_up() {
    // Kf6, Ra1, black king on h8. No mate in 1 (Ra8+ Kh7, Rh1+ Kg8). Kg6 leaves the black king
    // only g8, and then Ra8 mates.
    let l = Layout::krk(F6, A1).unwrap();
    let table = krk();
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(2), "{p}");
    assert!(p.best.contains(&attempt("f6g6")), "{p}");
    let check = table.attempt_value(l, set(&[H8]), attempt("a1a8"));
    assert!(check.is_some_and(|v| v > 2), "{check:?}");
    let after = Layout::krk(G6, A1).unwrap();
    assert_eq!(table.distance(after, set(&[G8])), Some(1));
}

#[test]
fn stalemate_trap_is_avoided() {
    // Kh6, Ra1, black king on h8: Rg1 stalemates, Ra8 mates.
    let l = Layout::krk(H6, A1).unwrap();
    let table = krk();
    assert_eq!(table.attempt_value(l, set(&[H8]), attempt("a1g1")), None);
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(1));
    assert!(p.best.contains(&attempt("a1a8")));
    assert!(!p.best.contains(&attempt("a1g1")));
}

#[test]
fn rook_left_next_to_the_king_is_lost() {
    // Ka1, Rd1, black king on e5: Rd4 puts the undefended rook next to it.
    let l = Layout::krk(A1, D1).unwrap();
    let table = krk();
    assert_eq!(table.attempt_value(l, set(&[E5]), attempt("d1d4")), None);
    let p = table.probe(l, set(&[E5])).unwrap();
    assert!(p.distance.is_some());
    assert!(!p.best.contains(&attempt("d1d4")));
}

#[test]
fn illegal_attempts_inform_without_costing_a_move() {
    // Kg6, Rb1, black king on f8, g8 or h8 (no mate in 1 against all three). Kf7 is illegal
    // with the king on f8 or g8 (e8–g8 are next to f7): the answer alone splits the set.
    let l = Layout::krk(G6, B1).unwrap();
    let table = krk();
    let whole = table.distance(l, set(&[F8, G8, H8])).unwrap();
    let illegal_part = table.distance(l, set(&[F8, G8])).unwrap();
    assert!(illegal_part <= whole);
    // The value of an attempt counts its illegal part at the same depth, not one more.
    if let Some(v) = table.attempt_value(l, set(&[F8, G8, H8]), attempt("g6f7")) {
        assert!(v >= illegal_part);
    }
}

#[test]
fn impossible_squares_are_left_out_and_empty_sets_rejected() {
    let l = Layout::krk(G6, B1).unwrap();
    let table = krk();
    // h7 is next to the white king, b5 on the rook's file.
    let p = table.probe(l, set(&[H8, H7, B5])).unwrap();
    assert_eq!(p.set, set(&[H8]));
    assert_eq!(p.dropped, set(&[H7, B5]));
    assert_eq!(p.distance, Some(1));
    assert_eq!(table.probe(l, set(&[H7])), Err(ProbeError::EmptySet));
}

#[test]
fn symmetric_layouts_have_mirrored_answers() {
    // Mirror of the mate in 1: Kb6, Rg1, black king on a8: Rg8 mates.
    let table = krk();
    let l = Layout::krk(B6, G1).unwrap();
    let p = table.probe(l, set(&[A8])).unwrap();
    assert_eq!(p.distance, Some(1));
    assert!(p.best.contains(&attempt("g1g8")));
    // Rotated: Kc7? Rather the board turned 90 degrees: Kf3... check an equality of distances.
    let a = Layout::krk(F6, A1).unwrap();
    let b = Layout::krk(F3, A8).unwrap();
    assert_eq!(
        table.distance(a, set(&[H8, E8, C4])),
        table.distance(b, set(&[H1, E1, C5]))
    );
}

fn queen(king: shakmaty::Square, queen: shakmaty::Square) -> Layout {
    Layout::new(king, &[(Role::Queen, queen)]).unwrap()
}

fn two(king: shakmaty::Square, a: (Role, shakmaty::Square), b: (Role, shakmaty::Square)) -> Layout {
    Layout::new(king, &[a, b]).unwrap()
}

#[test]
fn kqk_mates_in_one_and_two() {
    let table = kqk();
    // Kg6, Qb1, black king on h8 or g8: Qb8 mates both (f8 on the rank, f7-h7 and g7 next to
    // the white king).
    let l = queen(G6, B1);
    for s in [set(&[H8]), set(&[G8, H8])] {
        let p = table.probe(l, s).unwrap();
        assert_eq!(p.distance, Some(1), "{p}");
        assert!(p.best.contains(&attempt("b1b8")), "{p}");
    }
    // Kf6, Qa1, black king on h8: Qa8+ Kh7 and Qh1+ Kg8 escape, the long diagonal is blocked
    // by the own king: no mate in 1. Qa7 leaves only g8, then Qg7 mates (protected by Kf6);
    // Kg6 leaves only g8, then Qa8 mates.
    let l = queen(F6, A1);
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(2), "{p}");
    assert!(p.best.contains(&attempt("f6g6")), "{p}");
    assert!(p.best.contains(&attempt("a1a7")), "{p}");
    assert!(
        table
            .attempt_value(l, set(&[H8]), attempt("a1a8"))
            .is_some_and(|v| v > 2)
    );
}

#[test]
fn kqk_stalemate_trap_and_lost_queen() {
    let table = kqk();
    // Kf7, Qb1, black king on h8: Qg6 stalemates (g8, g7, h7 covered, no check); Qh1 mates
    // (g8 and g7 covered by the king).
    let l = queen(F7, B1);
    assert_eq!(table.attempt_value(l, set(&[H8]), attempt("b1g6")), None);
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(1), "{p}");
    assert!(p.best.contains(&attempt("b1h1")) && !p.best.contains(&attempt("b1g6")));
    // Qh7 is next to h8 and unprotected: Black takes it.
    assert_eq!(table.attempt_value(l, set(&[H8]), attempt("b1h7")), None);
    // Ka1, Qd1, black king on e5: Qd4 and Qd5 put the queen next to it, unprotected.
    let l = queen(A1, D1);
    assert_eq!(table.attempt_value(l, set(&[E5]), attempt("d1d4")), None);
    assert_eq!(table.attempt_value(l, set(&[E5]), attempt("d1d5")), None);
    assert!(table.distance(l, set(&[E5])).is_some());
}

#[test]
fn kbnk_mate_in_one() {
    // Kg6, Nh6 (covering g8), Bc1, black king on h8. Bb2 checks along the long diagonal; g7
    // and h7 are the king's, g8 the knight's: mate. Nf7+ lets the king out to g8.
    let table = kbnk_partial();
    let l = two(G6, (Role::Bishop, C1), (Role::Knight, H6));
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(1), "{p}");
    assert_eq!(p.best, vec![attempt("c1b2")], "{p}");
    assert!(
        table
            .attempt_value(l, set(&[H8]), attempt("h6f7"))
            .is_some_and(|v| v > 1)
    );
}

#[test]
fn kbnk_mate_in_two_and_stalemate_trap() {
    let table = kbnk_partial();
    // Kc1, Ne1, Bd3 (a light bishop), black king on a1 (a dark corner). No mate in 1: only the
    // knight can check a1 (Nc2+), and a2 is free. 1. Nc2+ Ka2 (b1, b2 are the king's)
    // 2. Bc4 mate: a1 and a3 are the knight's, b1 and b2 the king's, b3 on the bishop's line.
    let l = two(C1, (Role::Bishop, D3), (Role::Knight, E1));
    let p = table.probe(l, set(&[A1])).unwrap();
    assert_eq!(p.distance, Some(2), "{p}");
    assert!(p.best.contains(&attempt("e1c2")), "{p}");
    let after = two(C1, (Role::Bishop, D3), (Role::Knight, C2));
    let p = table.probe(after, set(&[A2])).unwrap();
    assert_eq!(p.distance, Some(1), "{p}");
    assert!(p.best.contains(&attempt("d3c4")), "{p}");
    // Kg6, Ne7, Bc1, black king on h8: it has no move already. Bb2 mates along the long
    // diagonal; a quiet move such as Bd2 stalemates.
    let l = two(G6, (Role::Bishop, C1), (Role::Knight, E7));
    assert_eq!(table.attempt_value(l, set(&[H8]), attempt("c1d2")), None);
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(1), "{p}");
    assert!(p.best.contains(&attempt("c1b2")) && !p.best.contains(&attempt("c1d2")));
}

#[test]
fn kbnk_and_kbbk_unprotected_men_are_lost() {
    // Ka1, Nc3, Bc1, black king on e5: Ne4 and Bf4 land next to it, unprotected.
    let l = two(A1, (Role::Bishop, C1), (Role::Knight, C3));
    let table = kbnk_partial();
    assert_eq!(table.attempt_value(l, set(&[E5]), attempt("c3e4")), None);
    assert_eq!(table.attempt_value(l, set(&[E5]), attempt("c1f4")), None);
    // Ka1, Bc4, Bc1: Bf4 is lost the same way (a light bishop never protects a dark square).
    let l = two(A1, (Role::Bishop, C1), (Role::Bishop, C4));
    let table = kbbk_partial();
    assert_eq!(table.attempt_value(l, set(&[E5]), attempt("c1f4")), None);
}

#[test]
fn kbbk_mate_in_one() {
    // Kg6, Bc4 (covering g8), Bc1, black king on h8: Bb2 mates along the long diagonal.
    let table = kbbk_partial();
    let l = two(G6, (Role::Bishop, C1), (Role::Bishop, C4));
    let p = table.probe(l, set(&[H8])).unwrap();
    assert_eq!(p.distance, Some(1), "{p}");
    assert!(p.best.contains(&attempt("c1b2")), "{p}");
    // Same-coloured bishops are not a KBBK layout of the table.
    let same = two(G6, (Role::Bishop, C1), (Role::Bishop, D2));
    assert!(matches!(
        table.probe(same, set(&[H8])),
        Err(ProbeError::WrongEnding { .. })
    ));
}
