//! Small positions checked by hand against the table.

mod common;

use common::{krk, set};
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
