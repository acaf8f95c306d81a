//! Hand-built positions for every announcement and rule of every rule set.
//!
//! Every expected answer here is derived by hand from the rules (the brief, ARCHITECTURE.md,
//! seed 000 and seed 002), never copied from the umpire's own output: square colours,
//! diagonal lengths and check lines are worked out in the comments or with plain
//! arithmetic in the test, never by calling [`CheckKind::classify`].
//!
//! Geometry used throughout: a square is `(file, rank)` with both in `0..8`. Through a
//! square run two diagonals: the "rising" one (`rank - file` constant, a1-h8 direction) of
//! length `8 - |file - rank|`, and the "falling" one (`file + rank` constant, a8-h1
//! direction) of length `8 - |file + rank - 7|`. The two never have the same length (that
//! would need `2 * rank = 7` or `2 * file = 7`), so "long" and "short" are always defined.

use shakmaty::{Bitboard, Color, Position, Role, Square};
use umpire_rules::{
    Announcement, Audience, CheckKind, Command, EndReason, GameResult, Heard, Invalid, Man,
    Outcome, RuleSet, RuleSetId, Umpire, Verdict,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Every rule set, the default first.
fn all_rules() -> impl Iterator<Item = RuleSet> {
    RuleSetId::ALL.into_iter().map(|id| *id.rules())
}

/// A game under `rules` from `fen`; panics with the FEN if it cannot be set up.
fn game(rules: RuleSet, fen: &str) -> Umpire {
    Umpire::from_fen(rules, fen)
        .unwrap_or_else(|e| panic!("{}: bad test position {fen}: {e}", rules.id))
}

/// The command attempting `uci`.
fn att(uci: &str) -> Command {
    Command::Attempt(uci.parse().unwrap_or_else(|e| panic!("{e}")))
}

/// Submits the attempt `uci`.
fn try_move(u: &mut Umpire, uci: &str) -> Outcome {
    u.submit(att(uci))
}

/// Submits the attempt `uci` and insists that it is accepted; returns the outcome.
fn play(u: &mut Umpire, uci: &str) -> Outcome {
    let out = try_move(u, uci);
    assert_eq!(
        out.verdict,
        Verdict::Accepted,
        "{}: {uci} should be accepted in {}",
        u.rules().id,
        u.position().board()
    );
    out
}

/// Plays every move of a space-separated UCI list.
fn play_all(u: &mut Umpire, moves: &str) {
    for m in moves.split_whitespace() {
        play(u, m);
    }
}

/// An announcement heard by both players.
fn both(a: Announcement) -> Heard {
    Heard {
        audience: Audience::Both,
        announcement: a,
    }
}

/// All announcements of an outcome, without audiences.
fn said(out: &Outcome) -> Vec<Announcement> {
    out.announcements.iter().map(|h| h.announcement).collect()
}

/// The check kinds announced, sorted (the order of two checks is not a rule).
fn checks(out: &Outcome) -> Vec<CheckKind> {
    let mut v: Vec<CheckKind> = said(out)
        .into_iter()
        .filter_map(|a| match a {
            Announcement::Check(k) => Some(k),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Sorted copy of a list of check kinds.
fn sorted(mut v: Vec<CheckKind>) -> Vec<CheckKind> {
    v.sort();
    v
}

/// The game-over announcement of an outcome, if any.
fn game_over(out: &Outcome) -> Option<GameResult> {
    said(out).into_iter().find_map(|a| match a {
        Announcement::GameOver(r) => Some(r),
        _ => None,
    })
}

/// The capture announcement of an outcome (panics if there is not exactly one).
fn capture(out: &Outcome) -> Announcement {
    let caps: Vec<_> = said(out)
        .into_iter()
        .filter(|a| matches!(a, Announcement::Capture { .. }))
        .collect();
    assert_eq!(caps.len(), 1, "expected one capture in {out:?}");
    caps[0]
}

/// Whether the rule set says pawn or piece on a capture (brief: wild16, cincinnati, rand, umpire1965).
fn names_man(id: RuleSetId) -> bool {
    matches!(
        id,
        RuleSetId::Wild16 | RuleSetId::Cincinnati | RuleSetId::Rand | RuleSetId::Umpire1965
    )
}

/// Whether the rule set marks an e.p. capture as such (brief: wild16 and english).
fn marks_en_passant(id: RuleSetId) -> bool {
    matches!(id, RuleSetId::Wild16 | RuleSetId::English)
}

/// Whether the rule set announces promotions (ARCHITECTURE.md: rand, umpire1965).
fn announces_promotion(id: RuleSetId) -> bool {
    matches!(id, RuleSetId::Rand | RuleSetId::Umpire1965)
}

/// Whether threefold repetition and the fifty-move rule apply. Berkeley has neither
/// (ARCHITECTURE.md); where the sources are silent the conventional chess rules apply, as
/// automatic draws (the documented choice of `rule_set.rs`).
fn has_threefold_and_fifty(id: RuleSetId) -> bool {
    !matches!(id, RuleSetId::Berkeley | RuleSetId::BerkeleyAny)
}

/// Whether a pawn capture that the pawn-capture announcement rules out (no tries, no "pawn
/// captures", a pawn not among the try squares) is answered as impossible: wild16 (seed 000
/// rule C1), cincinnati and rand (RAND rule 10), as `rule_set.rs` documents.
fn pawn_info_binds(id: RuleSetId) -> bool {
    matches!(
        id,
        RuleSetId::Wild16 | RuleSetId::Cincinnati | RuleSetId::Rand
    )
}

/// Whether, in check, an attempt that cannot answer the announced check is answered as
/// impossible: rand only (RAND rule 7).
fn check_binds(id: RuleSetId) -> bool {
    id == RuleSetId::Rand
}

/// How a rejection is said and who hears it: `(word, audience)` for an attempt that the
/// opponent's men make illegal, and for one that is impossible on the own board (or a
/// repeat, outside umpire1965). From the brief: wild16 mover only, said as illegal;
/// berkeley "No" both but "Nonsense" mover only; cincinnati, rand, umpire1965 both, with
/// the impossible word; english both, everything said as illegal.
fn rebuffs(id: RuleSetId) -> [(Announcement, Audience); 2] {
    use Announcement::{Illegal, Impossible};
    use Audience::{Both, Mover};
    match id {
        RuleSetId::Wild16 => [(Illegal, Mover), (Illegal, Mover)],
        RuleSetId::Berkeley | RuleSetId::BerkeleyAny => [(Illegal, Both), (Impossible, Mover)],
        RuleSetId::Cincinnati | RuleSetId::Rand | RuleSetId::Umpire1965 => {
            [(Illegal, Both), (Impossible, Both)]
        }
        RuleSetId::English => [(Illegal, Both), (Illegal, Both)],
    }
}

/// `(file, rank)` of a square as signed integers.
fn fr(sq: Square) -> (i32, i32) {
    (u32::from(sq.file()) as i32, u32::from(sq.rank()) as i32)
}

/// A square from signed coordinates, if on the board.
fn at(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::from_coords(file.try_into().unwrap(), rank.try_into().unwrap()))
}

/// The expected kind of a diagonal check from direction `(df, dr)` (both ±1) against a king
/// on `king`, by counting diagonal lengths with plain arithmetic.
fn diagonal_kind(king: Square, df: i32, dr: i32) -> CheckKind {
    let (f, r) = fr(king);
    let rising = 8 - (f - r).abs();
    let falling = 8 - (f + r - 7).abs();
    let (this, other) = if df == dr {
        (rising, falling)
    } else {
        (falling, rising)
    };
    assert_ne!(this, other);
    if this > other {
        CheckKind::LongDiagonal
    } else {
        CheckKind::ShortDiagonal
    }
}

/// A FEN board field from a list of `(square, piece char)`.
fn board_fen(men: &[(Square, char)]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = at(file, rank).unwrap();
            match men.iter().find(|(m, _)| *m == sq) {
                Some((_, c)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Chebyshev distance.
fn king_distance(a: Square, b: Square) -> i32 {
    let ((af, ar), (bf, br)) = (fr(a), fr(b));
    (af - bf).abs().max((ar - br).abs())
}

/// The square farthest from `king` (ties: the first in `Square::ALL`) that is not in `avoid`.
fn far_square(king: Square, avoid: &[Square]) -> Square {
    let mut best = None;
    for s in Square::ALL {
        if avoid.contains(&s) {
            continue;
        }
        let d = king_distance(s, king);
        if best.is_none_or(|(_, bd)| d > bd) {
            best = Some((s, d));
        }
    }
    best.unwrap().0
}

/// A square for a white pawn on ranks 2-7 that is on no rank, file or diagonal of `king`,
/// does not attack it and is not in `avoid`.
fn quiet_pawn_square(king: Square, avoid: &[Square]) -> Square {
    let (kf, kr) = fr(king);
    Square::ALL
        .into_iter()
        .find(|&s| {
            let (f, r) = fr(s);
            (1..7).contains(&r)
                && !avoid.contains(&s)
                && f != kf
                && r != kr
                && (f - kf).abs() != (r - kr).abs()
                && !(r + 1 == kr && (f - kf).abs() == 1)
        })
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// Captures
// ---------------------------------------------------------------------------------------------

#[test]
fn capture_gives_the_square_and_pawn_or_piece_where_the_rule_set_names_it() {
    // Nf3xe5: nothing else happens (no check on e8, Black has no pawns, rooks stay on).
    for (fen, man) in [
        ("r3k3/8/8/4p3/8/5N2/8/R3K3 w - - 0 1", Man::Pawn),
        ("r3k3/8/8/4b3/8/5N2/8/R3K3 w - - 0 1", Man::Piece),
        ("r3k3/8/8/4q3/8/5N2/8/R3K3 w - - 0 1", Man::Piece),
    ] {
        for rules in all_rules() {
            let mut u = game(rules, fen);
            let out = play(&mut u, "f3e5");
            let expected_man = names_man(rules.id).then_some(man);
            assert_eq!(
                out.announcements.to_vec(),
                vec![both(Announcement::Capture {
                    square: Square::E5,
                    man: expected_man,
                    en_passant: false
                })],
                "{}: {fen}",
                rules.id
            );
        }
    }
}

#[test]
fn a_promoted_man_is_captured_as_a_piece() {
    // c7-c8=Q (no check: the rook on d8 shields e8), then Rd8xc8 takes the new queen.
    for rules in all_rules() {
        let mut u = game(rules, "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        let out = play(&mut u, "c7c8q");
        let promo =
            announces_promotion(rules.id).then_some(both(Announcement::Promotion(Color::White)));
        assert_eq!(
            out.announcements.to_vec(),
            promo.into_iter().collect::<Vec<_>>(),
            "{}",
            rules.id
        );
        let out = play(&mut u, "d8c8");
        assert_eq!(
            capture(&out),
            Announcement::Capture {
                square: Square::C8,
                man: names_man(rules.id).then_some(Man::Piece),
                en_passant: false
            },
            "{}",
            rules.id
        );
    }
    // An under-promoted knight, too.
    for rules in all_rules().filter(|r| r.id != RuleSetId::Umpire1965) {
        let mut u = game(rules, "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        play(&mut u, "c7c8n");
        let out = play(&mut u, "d8c8");
        assert_eq!(
            capture(&out),
            Announcement::Capture {
                square: Square::C8,
                man: names_man(rules.id).then_some(Man::Piece),
                en_passant: false
            }
        );
    }
}

#[test]
fn en_passant_is_announced_on_the_captured_pawns_square() {
    for rules in all_rules() {
        // White takes e.p.: the black pawn stood on d5, the white pawn lands on d6.
        let mut u = game(rules, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
        play(&mut u, "d7d5");
        let out = play(&mut u, "e5d6");
        assert_eq!(
            out.announcements.to_vec(),
            vec![both(Announcement::Capture {
                square: Square::D5,
                man: names_man(rules.id).then_some(Man::Pawn),
                en_passant: marks_en_passant(rules.id),
            })],
            "{}",
            rules.id
        );
        assert!(u.position().board().piece_at(Square::D5).is_none());

        // Black takes e.p.: the white pawn stood on e4.
        let mut u = game(rules, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
        play(&mut u, "e2e4");
        let out = play(&mut u, "d4e3");
        assert_eq!(
            capture(&out),
            Announcement::Capture {
                square: Square::E4,
                man: names_man(rules.id).then_some(Man::Pawn),
                en_passant: marks_en_passant(rules.id),
            },
            "{}",
            rules.id
        );
    }
}

#[test]
fn en_passant_that_gives_check() {
    use CheckKind::*;
    // (start FEN with Black to move d7-d5, expected checks after exd6 e.p.)
    let cases: [(&str, &str, Vec<CheckKind>); 6] = [
        // Direct: the pawn on d6 checks the king on c7. c7 = (2,6): rising length 8-4 = 4,
        // falling length 8-|8-7| = 7; d6 is on the falling diagonal: long.
        (
            "direct",
            "8/2kp4/8/4P3/8/8/8/4K3 b - - 0 1",
            vec![LongDiagonal],
        ),
        // Discovered along the rank through both emptied squares (rook h5, king a5).
        (
            "rank through both squares",
            "8/3p4/8/k3P2R/8/8/8/4K3 b - - 0 1",
            vec![Rank],
        ),
        // Discovered through the captured pawn's square: Bb7 checks Kf3 once d5 empties
        // (d7-d5 had interposed). f3 = (5,2): falling length 8, rising 5: long.
        (
            "diagonal through the captured square",
            "8/1B1p4/8/4P3/8/5k2/8/4K3 b - - 0 1",
            vec![LongDiagonal],
        ),
        // Discovered through the capturing pawn's square: Ba1-g7 through e5; g7 is on a1-h8: long.
        (
            "diagonal through the from square",
            "8/3p2k1/8/4P3/8/8/8/B3K3 b - - 0 1",
            vec![LongDiagonal],
        ),
        // Discovered along the e-file through e5.
        (
            "file through the from square",
            "4k3/3p4/8/4P3/8/8/8/K3R3 b - - 0 1",
            vec![File],
        ),
        // Double check: file (Re1 through e5) and the pawn on d6 against e7. e7 = (4,6):
        // rising length 6, falling length 5; d6 is on the rising diagonal: long.
        (
            "double: file and pawn",
            "8/3pk3/8/4P3/8/8/8/K3R3 b - - 0 1",
            vec![File, LongDiagonal],
        ),
    ];
    for (name, fen, expected) in cases {
        for rules in all_rules() {
            let mut u = game(rules, fen);
            play(&mut u, "d7d5");
            let out = play(&mut u, "e5d6");
            assert_eq!(
                checks(&out),
                sorted(expected.clone()),
                "{}: {name}",
                rules.id
            );
            assert_eq!(
                capture(&out),
                Announcement::Capture {
                    square: Square::D5,
                    man: names_man(rules.id).then_some(Man::Pawn),
                    en_passant: marks_en_passant(rules.id)
                },
                "{}: {name}",
                rules.id
            );
            // The capture is said first, then the checks.
            assert!(
                matches!(said(&out)[0], Announcement::Capture { .. }),
                "{}: {name}",
                rules.id
            );
        }
    }
}

#[test]
fn promotion_with_capture() {
    // c7xd8 takes the rook; the new queen on d8 gives a rank check to e8.
    for rules in all_rules() {
        let mut u = game(rules, "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        let out = play(&mut u, "c7d8q");
        let mut expected = vec![both(Announcement::Capture {
            square: Square::D8,
            man: names_man(rules.id).then_some(Man::Piece),
            en_passant: false,
        })];
        if announces_promotion(rules.id) {
            expected.push(both(Announcement::Promotion(Color::White)));
        }
        expected.push(both(Announcement::Check(CheckKind::Rank)));
        assert_eq!(out.announcements.to_vec(), expected, "{}", rules.id);
        assert_eq!(
            u.position().board().piece_at(Square::D8),
            Some(Role::Queen.of(Color::White))
        );
        // The king takes the promoted queen: a piece; bare kings remain.
        let out = play(&mut u, "e8d8");
        assert_eq!(
            out.announcements.to_vec(),
            vec![
                both(Announcement::Capture {
                    square: Square::D8,
                    man: names_man(rules.id).then_some(Man::Piece),
                    en_passant: false
                }),
                both(Announcement::GameOver(GameResult::draw(
                    EndReason::InsufficientMaterial
                ))),
            ],
            "{}",
            rules.id
        );
    }
    // Under-promotion with capture: a knight on d8 does not check e8.
    for rules in all_rules().filter(|r| r.id != RuleSetId::Umpire1965) {
        let mut u = game(rules, "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        let out = play(&mut u, "c7d8n");
        assert!(checks(&out).is_empty());
        assert_eq!(
            u.position().board().piece_at(Square::D8),
            Some(Role::Knight.of(Color::White))
        );
    }
    // umpire1965: a pawn reaching the last rank always becomes a queen, named or not.
    let mut u = game(RuleSet::UMPIRE1965, "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    let out = play(&mut u, "c7d8");
    assert_eq!(checks(&out), vec![CheckKind::Rank]);
    assert_eq!(
        u.position().board().piece_at(Square::D8),
        Some(Role::Queen.of(Color::White))
    );
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

#[test]
fn each_kind_of_single_check() {
    use CheckKind::*;
    // Black king on e8 = (4,7): rising diagonal (d7, c6, b5, a4) length 8-3 = 5, falling
    // diagonal (f7, g6, h5) length 8-4 = 4. White pawns on h2 keep mating material on board.
    let cases = [
        (
            "rook along the rank",
            "4k3/8/8/8/8/8/7P/R5K1 w - - 0 1",
            "a1a8",
            Rank,
        ),
        (
            "rook along the file",
            "4k3/8/8/8/8/8/7P/3R2K1 w - - 0 1",
            "d1e1",
            File,
        ),
        (
            "bishop from a4: long",
            "4k3/8/8/8/8/8/2B4P/6K1 w - - 0 1",
            "c2a4",
            LongDiagonal,
        ),
        (
            "bishop from h5: short",
            "4k3/8/8/8/8/5B2/7P/6K1 w - - 0 1",
            "f3h5",
            ShortDiagonal,
        ),
        (
            "queen from a4: long",
            "4k3/8/8/8/8/8/7P/Q5K1 w - - 0 1",
            "a1a4",
            LongDiagonal,
        ),
        (
            "queen along the file",
            "4k3/8/8/8/8/8/7P/Q5K1 w - - 0 1",
            "a1e5",
            File,
        ),
        ("knight", "4k3/8/8/8/4N3/8/7P/6K1 w - - 0 1", "e4f6", Knight),
        (
            "pawn from d7: long diagonal",
            "4k3/8/3P4/8/8/8/7P/6K1 w - - 0 1",
            "d6d7",
            LongDiagonal,
        ),
        (
            "pawn from f7: short diagonal",
            "4k3/8/5P2/8/8/8/7P/6K1 w - - 0 1",
            "f6f7",
            ShortDiagonal,
        ),
        // White king on e1 = (4,0): falling diagonal (d2, c3, b4, a5) length 5, rising
        // (f2, g3, h4) length 4 (seed 000: "for a king on E1, the short diagonal is E1 to H4").
        (
            "black pawn on d2: long",
            "6k1/p7/8/8/8/3p4/8/4K3 b - - 0 1",
            "d3d2",
            LongDiagonal,
        ),
        (
            "black bishop to h4: short",
            "6k1/p3b3/8/8/8/8/8/4K3 b - - 0 1",
            "e7h4",
            ShortDiagonal,
        ),
        (
            "black bishop to g3: short",
            "6k1/p7/8/8/8/8/7b/4K3 b - - 0 1",
            "h2g3",
            ShortDiagonal,
        ),
    ];
    for (name, fen, uci, kind) in cases {
        for rules in all_rules() {
            let mut u = game(rules, fen);
            let out = play(&mut u, uci);
            assert_eq!(checks(&out), vec![kind], "{}: {name}", rules.id);
            // Checks are heard by both players.
            for h in &out.announcements {
                if matches!(h.announcement, Announcement::Check(_)) {
                    assert_eq!(h.audience, Audience::Both);
                }
            }
        }
    }
}

/// Every double check that a single move can give, grouped by the pair of kinds.
///
/// Which pairs exist: after one move the checkers are the moved man and a slider it
/// uncovered (or, after e.p., sliders uncovered through two squares of one rank). Two checks
/// along the *same* line would need the moved man to cross the king. Long + short diagonal
/// cannot happen either: the uncovering man would have to stand on one diagonal and check
/// along the other; a queen there would already give check, a bishop cannot change
/// diagonal through the king, a rook or knight does not check diagonally, a pawn checks
/// from a square diagonally adjacent to the king, and every square it can come from
/// (`K+(±1,-2)`, `K+(0,-2)`, `K+(±2,-2)`, `K+(±1,-3)` for White) lies on the king's file
/// or on the same diagonal; a promoting pawn that stands diagonally next to a king on the
/// last rank already gives check, and e.p. uncovers two adjacent squares, whose diagonals
/// are parallel or meet off the king's lines. So the nine pairs below are all there are.
#[test]
fn every_double_check_pair_announces_both_kinds() {
    use CheckKind::*;
    // King e8: d7/c6/b5/a4 is its long diagonal (length 5), f7/g6/h5 its short one (4).
    let cases: Vec<(&str, &str, &str, Vec<CheckKind>)> = vec![
        // rank + file: only by promotion.
        (
            "promotion f7xg8=Q: queen on the rank, rook on the file",
            "5kn1/5P2/8/8/8/8/8/K4R2 w - - 0 1",
            "f7g8q",
            vec![Rank, File],
        ),
        (
            "promotion f7xg8=R",
            "5kn1/5P2/8/8/8/8/8/K4R2 w - - 0 1",
            "f7g8r",
            vec![Rank, File],
        ),
        (
            "promotion d7xe8=Q: queen on the file, rook on the rank",
            "4b3/R2Pk3/8/8/8/8/8/6K1 w - - 0 1",
            "d7e8q",
            vec![Rank, File],
        ),
        // rank + long diagonal.
        (
            "rook a8 uncovered by bishop c8-d7",
            "R1B1k3/8/8/8/8/8/8/6K1 w - - 0 1",
            "c8d7",
            vec![Rank, LongDiagonal],
        ),
        (
            "queen a8 uncovered by bishop c8-d7",
            "Q1B1k3/8/8/8/8/8/8/6K1 w - - 0 1",
            "c8d7",
            vec![Rank, LongDiagonal],
        ),
        (
            "bishop a4 uncovered by rook d7-d8",
            "4k3/3R4/8/8/B7/8/8/6K1 w - - 0 1",
            "d7d8",
            vec![Rank, LongDiagonal],
        ),
        // rank + short diagonal. King e7 = (4,6): d8 is on its falling diagonal, length 5
        // against 6: short.
        (
            "rook h8 uncovered by bishop g8-f7",
            "4k1BR/8/8/8/8/8/8/6K1 w - - 0 1",
            "g8f7",
            vec![Rank, ShortDiagonal],
        ),
        (
            "promotion d7-d8=B uncovering the rook on a7",
            "8/R2Pk3/8/8/8/8/8/6K1 w - - 0 1",
            "d7d8b",
            vec![Rank, ShortDiagonal],
        ),
        (
            "promotion d7-d8=Q uncovering the rook on a7",
            "8/R2Pk3/8/8/8/8/8/6K1 w - - 0 1",
            "d7d8q",
            vec![Rank, ShortDiagonal],
        ),
        // rank + knight.
        (
            "rook a8 uncovered by knight c8-d6",
            "R1N1k3/8/8/8/8/8/8/6K1 w - - 0 1",
            "c8d6",
            vec![Rank, Knight],
        ),
        // file + long diagonal.
        (
            "bishop a4 uncovered by rook c6-e6",
            "4k3/8/2R5/8/B7/8/8/6K1 w - - 0 1",
            "c6e6",
            vec![File, LongDiagonal],
        ),
        // King d5 = (3,4): falling diagonal (e4, f3, ...) length 8, rising (c4, ...) 7.
        (
            "rook d1 uncovered by pawn d3xe4",
            "8/8/8/3k4/4n3/3P4/8/3R2K1 w - - 0 1",
            "d3e4",
            vec![File, LongDiagonal],
        ),
        // file + short diagonal.
        (
            "rook e1 uncovered by bishop e6-f7",
            "4k3/8/4B3/8/8/8/8/4R1K1 w - - 0 1",
            "e6f7",
            vec![File, ShortDiagonal],
        ),
        (
            "bishop h5 uncovered by rook f7-e7",
            "4k3/5R2/8/7B/8/8/8/6K1 w - - 0 1",
            "f7e7",
            vec![File, ShortDiagonal],
        ),
        // file + knight.
        (
            "rook e1 uncovered by knight e4-d6",
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",
            "e4d6",
            vec![File, Knight],
        ),
        (
            "queen e1 uncovered by knight e4-d6",
            "4k3/8/8/8/4N3/8/8/4Q1K1 w - - 0 1",
            "e4d6",
            vec![File, Knight],
        ),
        (
            "black: rook e8 uncovered by knight e5-d3",
            "4r1k1/8/8/4n3/8/8/8/4K3 b - - 0 1",
            "e5d3",
            vec![File, Knight],
        ),
        // long diagonal + knight.
        (
            "bishop a4 uncovered by knight d7-f6",
            "4k3/3N4/8/8/B7/8/8/6K1 w - - 0 1",
            "d7f6",
            vec![LongDiagonal, Knight],
        ),
        // short diagonal + knight.
        (
            "bishop h5 uncovered by knight f7-d6",
            "4k3/5N2/8/7B/8/8/8/6K1 w - - 0 1",
            "f7d6",
            vec![ShortDiagonal, Knight],
        ),
        (
            "queen h5 uncovered by knight f7-d6",
            "4k3/5N2/8/7Q/8/8/8/6K1 w - - 0 1",
            "f7d6",
            vec![ShortDiagonal, Knight],
        ),
        // King e6 = (4,5): c8 is on its falling diagonal, length 6 against 7: short.
        (
            "promotion d7-d8=N uncovering the bishop on c8",
            "2B5/3P4/4k3/8/8/8/8/6K1 w - - 0 1",
            "d7d8n",
            vec![ShortDiagonal, Knight],
        ),
    ];
    for (name, fen, uci, expected) in cases {
        for rules in all_rules() {
            if rules.promotion_always_queen && uci.len() == 5 && !uci.ends_with('q') {
                continue;
            }
            let mut u = game(rules, fen);
            assert!(
                !u.position().is_check(),
                "{name}: the side to move must not start in check"
            );
            let out = play(&mut u, uci);
            assert_eq!(
                u.position().checkers().count(),
                2,
                "{name}: not a double check"
            );
            assert_eq!(
                checks(&out),
                sorted(expected.clone()),
                "{}: {name}",
                rules.id
            );
        }
    }
}

#[test]
fn long_or_short_diagonal_for_a_king_on_every_square_by_a_move() {
    // For every king square and every diagonal direction with a square next to the king:
    // a white bishop steps onto that square from a square two files or two ranks from the
    // king (which does not check), giving a diagonal check from that direction. Where the
    // square next to the king is a corner (king on b2, g2, b7, g7, towards the corner), no
    // bishop can get there; a queen comes along the edge from a knight's jump away instead.
    let mut tested = 0;
    for king in Square::ALL {
        let (kf, kr) = fr(king);
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let Some(to) = at(kf + df, kr + dr) else {
                continue;
            };
            let (from, piece) = match at(kf + 2 * df, kr).or_else(|| at(kf, kr + 2 * dr)) {
                Some(from) => (from, 'B'),
                None => (
                    at(kf + df, kr - 2 * dr).expect("a corner has an edge square three away"),
                    'Q',
                ),
            };
            let wk = far_square(king, &[from, to]);
            // A white pawn off every line of the black king keeps mating material on the
            // board (K+B v K would end the game at once).
            let pawn = quiet_pawn_square(king, &[from, to, wk]);
            let fen = format!(
                "{} w - - 0 1",
                board_fen(&[(king, 'k'), (from, piece), (wk, 'K'), (pawn, 'P')])
            );
            let mut u = game(RuleSet::WILD16, &fen);
            assert!(!u.position().is_check(), "{fen}");
            let out = play(&mut u, &format!("{from}{to}"));
            assert_eq!(
                checks(&out),
                vec![diagonal_kind(king, df, dr)],
                "{fen}: {from}{to}"
            );
            tested += 1;
        }
    }
    // 4 corners x 1 + 24 edge squares x 2 + 36 inner squares x 4 = 196.
    assert_eq!(tested, 4 + 24 * 2 + 36 * 4);
}

#[test]
fn check_kind_for_a_king_on_every_square_from_every_line() {
    // Set-up positions with Black in check: a bishop on every square of both diagonals
    // through the king, at every distance; a rook on every square of the king's rank and
    // file; a knight on every knight square. The opening announcement names the kind.
    for king in Square::ALL {
        let (kf, kr) = fr(king);
        let mut cases: Vec<(Square, char, CheckKind)> = Vec::new();
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            for n in 1..8 {
                if let Some(s) = at(kf + n * df, kr + n * dr) {
                    cases.push((s, 'B', diagonal_kind(king, df, dr)));
                }
            }
        }
        for (df, dr, kind) in [
            (1, 0, CheckKind::Rank),
            (-1, 0, CheckKind::Rank),
            (0, 1, CheckKind::File),
            (0, -1, CheckKind::File),
        ] {
            for n in 1..8 {
                if let Some(s) = at(kf + n * df, kr + n * dr) {
                    cases.push((s, 'R', kind));
                }
            }
        }
        for (df, dr) in [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ] {
            if let Some(s) = at(kf + df, kr + dr) {
                cases.push((s, 'N', CheckKind::Knight));
            }
        }
        for (checker, piece, kind) in cases {
            // The white king: two squares or more from the black king, not on the checking line.
            // Far away: never between checker and king, never taking the king's flight squares.
            let wk = far_square(king, &[checker]);
            let fen = format!(
                "{} b - - 0 1",
                board_fen(&[(king, 'k'), (checker, piece), (wk, 'K')])
            );
            let u = game(RuleSet::WILD16, &fen);
            let opening = u.opening_announcements();
            let kinds: Vec<_> = opening
                .iter()
                .filter_map(|h| match h.announcement {
                    Announcement::Check(k) => Some(k),
                    _ => None,
                })
                .collect();
            assert_eq!(kinds, vec![kind], "{fen}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pawn-capture information
// ---------------------------------------------------------------------------------------------

/// Black to move plays d7-d5. White then has: e5xd6 e.p.; b7xa8 and b7xc8 (each with four
/// promotion pieces, each counted once); a4xb5. The g2 pawn could take the bishop on f3
/// but is pinned by the rook on g8 once nothing stands on g3-g7: excluded. So 4 tries,
/// from the pawns on e5, b7 and a4.
const TRIES_FEN: &str = "r1b3rk/1P1p4/8/1p2P3/P7/5b2/6P1/6K1 b - - 0 1";

#[test]
fn pawn_capture_information_per_rule_set() {
    for rules in all_rules() {
        let mut u = game(rules, TRIES_FEN);
        let out = play(&mut u, "d7d5");
        let expected: Vec<Heard> = match rules.id {
            RuleSetId::Wild16 => vec![both(Announcement::PawnTries(4))],
            RuleSetId::Rand | RuleSetId::Umpire1965 => vec![both(Announcement::PawnTrySquares(
                Bitboard::EMPTY
                    .with(Square::E5)
                    .with(Square::B7)
                    .with(Square::A4),
            ))],
            RuleSetId::Cincinnati => vec![both(Announcement::PawnCaptures)],
            RuleSetId::Berkeley | RuleSetId::BerkeleyAny | RuleSetId::English => vec![],
        };
        assert_eq!(out.announcements.to_vec(), expected, "{}", rules.id);
        // The pinned pawn's capture is illegal, not impossible, except under rand, where the
        // try squares told White that the g2 pawn has no capture.
        assert_eq!(
            try_move(&mut u, "g2f3").verdict,
            if rules.id == RuleSetId::Rand {
                Verdict::Impossible
            } else {
                Verdict::Illegal
            },
            "{}",
            rules.id
        );
        // Each counted capture is indeed accepted.
        for uci in ["e5d6", "b7a8q", "b7c8q", "a4b5"] {
            let mut v = game(rules, TRIES_FEN);
            play(&mut v, "d7d5");
            play(&mut v, uci);
        }
    }
}

#[test]
fn pawn_capture_information_is_silent_without_pawn_captures() {
    // After Ke8-d8 White's e2 pawn has nothing to take.
    for rules in all_rules() {
        let mut u = game(rules, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
        let out = play(&mut u, "e8d8");
        assert!(out.announcements.is_empty(), "{}: {out:?}", rules.id);
    }
    // With one capture, cincinnati says yes; the count is 1; the square is e4.
    for rules in all_rules() {
        // White's king could take the knight on d2: a king capture, not a pawn capture.
        let mut u = game(rules, "4k3/8/8/8/4P3/8/3n4/4K3 b - - 0 1");
        let out = play(&mut u, "e8d8");
        assert!(
            out.announcements.is_empty(),
            "{}: king captures are not tries: {out:?}",
            rules.id
        );
    }
    for (rules, expected) in [
        (RuleSet::CINCINNATI, Announcement::PawnCaptures),
        (RuleSet::WILD16, Announcement::PawnTries(1)),
        (
            RuleSet::RAND,
            Announcement::PawnTrySquares(Bitboard::from(Square::E4)),
        ),
    ] {
        let mut u = game(rules, "4k3/3p4/8/8/4P3/8/8/4K3 b - - 0 1");
        let out = play(&mut u, "d7d5");
        assert_eq!(said(&out), vec![expected]);
    }
}

#[test]
fn an_en_passant_capture_that_exposes_the_king_is_no_try() {
    // After d7-d5, exd6 e.p. would empty e5 and d5 at once and open the rank from the rook
    // on h5 to the king on a5: illegal, so no try is announced and the attempt is "illegal".
    for rules in all_rules() {
        let mut u = game(rules, "4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1");
        let out = play(&mut u, "d7d5");
        assert!(out.announcements.is_empty(), "{}: {out:?}", rules.id);
        if rules.has_any_question() {
            assert_eq!(
                said(&u.submit(Command::AskAny)),
                vec![Announcement::AnyAnswer(false)]
            );
        } else {
            // Where the (absent) announcement binds, the attempt is known to fail.
            let expected = if pawn_info_binds(rules.id) {
                Verdict::Impossible
            } else {
                Verdict::Illegal
            };
            assert_eq!(try_move(&mut u, "e5d6").verdict, expected, "{}", rules.id);
        }
    }
}

#[test]
fn pawn_captures_ruled_out_by_the_announcement() {
    // Start position: no pawn capture, no announcement.
    for rules in all_rules() {
        let mut u = Umpire::new(rules);
        let expected = if pawn_info_binds(rules.id) {
            Verdict::Impossible
        } else {
            Verdict::Illegal
        };
        let out = try_move(&mut u, "e2d3");
        assert_eq!(out.verdict, expected, "{}", rules.id);
        let [
            (illegal_word, illegal_audience),
            (impossible_word, impossible_audience),
        ] = rebuffs(rules.id);
        let (word, audience) = if expected == Verdict::Impossible {
            (impossible_word, impossible_audience)
        } else {
            (illegal_word, illegal_audience)
        };
        assert_eq!(
            out.announcements.to_vec(),
            vec![Heard {
                audience,
                announcement: word
            }],
            "{}",
            rules.id
        );
    }
    // With tries announced: a count or a yes says nothing about which pawn, so a failing
    // capture is judged on the true position; RAND's squares do say which pawns.
    for rules in all_rules() {
        let mut u = game(rules, TRIES_FEN);
        play(&mut u, "d7d5");
        // e5 is a try square, but e5xf6 finds nothing there: illegal everywhere.
        assert_eq!(
            try_move(&mut u, "e5f6").verdict,
            Verdict::Illegal,
            "{}",
            rules.id
        );
        // g2 is not a try square.
        let expected = if rules.id == RuleSetId::Rand {
            Verdict::Impossible
        } else {
            Verdict::Illegal
        };
        assert_eq!(try_move(&mut u, "g2h3").verdict, expected, "{}", rules.id);
    }
}

#[test]
fn rand_attempts_that_cannot_answer_the_check_are_hell_no() {
    // White king e1 in a file check from the rook on e8. White: Ra1 (may castle long), Ng1.
    let fen = "4r2k/8/8/8/8/8/8/R3K1N1 w Q - 0 1";
    let cases = [
        ("castling", "e1c1", Verdict::Impossible, Verdict::Illegal),
        (
            "rook off the file",
            "a1a2",
            Verdict::Impossible,
            Verdict::Illegal,
        ),
        (
            "knight off the file",
            "g1f3",
            Verdict::Impossible,
            Verdict::Illegal,
        ),
        (
            "king step, judged on the board",
            "e1e2",
            Verdict::Illegal,
            Verdict::Illegal,
        ),
        (
            "knight interposes on the file",
            "g1e2",
            Verdict::Accepted,
            Verdict::Accepted,
        ),
        (
            "king steps aside",
            "e1d1",
            Verdict::Accepted,
            Verdict::Accepted,
        ),
    ];
    for (name, uci, rand, others) in cases {
        for rules in all_rules() {
            let mut u = game(rules, fen);
            let expected = if check_binds(rules.id) { rand } else { others };
            assert_eq!(
                try_move(&mut u, uci).verdict,
                expected,
                "{}: {name}",
                rules.id
            );
        }
    }
    // Double check (file and knight): only the king may move.
    for rules in all_rules() {
        let mut u = game(rules, "r3k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1");
        play(&mut u, "e4d6");
        let expected = if check_binds(rules.id) {
            Verdict::Impossible
        } else {
            Verdict::Illegal
        };
        assert_eq!(try_move(&mut u, "a8a7").verdict, expected, "{}", rules.id);
        // Even a move onto one of the two check lines cannot answer both checks.
        assert_eq!(try_move(&mut u, "a8c8").verdict, expected, "{}", rules.id);
        play(&mut u, "e8f8");
    }
    // A pawn check answered by e.p.: the captured pawn stood on the check line. e4 = (4,3):
    // d5 is on its falling diagonal (length 8 - |4+3-7| = 8, against 8 - 1 = 7): long.
    for rules in all_rules() {
        let mut u = game(rules, "7k/3p4/8/4P3/4K3/8/8/8 b - - 0 1");
        let out = play(&mut u, "d7d5");
        assert_eq!(checks(&out), vec![CheckKind::LongDiagonal], "{}", rules.id);
        let expected = if check_binds(rules.id) {
            Verdict::Impossible
        } else {
            Verdict::Illegal
        };
        assert_eq!(try_move(&mut u, "e5e6").verdict, expected, "{}", rules.id);
        play(&mut u, "e5d6");
    }
}

#[test]
fn any_question_yes_obliges_until_a_pawn_capture_succeeds_under_berkeley_any() {
    // White: Ke1, Rh1, e4; Black: Ke8, d5. One pawn capture: e4xd5.
    let fen = "4k3/8/8/3p4/4P3/8/8/4K2R w - - 0 1";
    let mut u = game(RuleSet::BERKELEY_ANY, fen);
    let out = u.submit(Command::AskAny);
    assert_eq!(out.verdict, Verdict::Answered);
    assert_eq!(
        out.announcements.to_vec(),
        vec![both(Announcement::AnyAnswer(true))]
    );
    // Asked twice.
    let out = u.submit(Command::AskAny);
    assert_eq!(out.verdict, Verdict::Invalid(Invalid::AnyAlreadyAsked));
    assert!(out.announcements.is_empty());
    // A legal non-pawn-capture move is refused: the mover must try pawn captures.
    let out = try_move(&mut u, "h1h2");
    assert_eq!(out.verdict, Verdict::Invalid(Invalid::MustTryPawnCapture));
    assert!(out.announcements.is_empty());
    assert_eq!(u.turn(), Color::White);
    // A failing pawn capture does not release a Berkeley player.
    let out = try_move(&mut u, "e4f5");
    assert_eq!(out.verdict, Verdict::Illegal);
    assert_eq!(
        out.announcements.to_vec(),
        vec![both(Announcement::Illegal)]
    );
    assert_eq!(
        try_move(&mut u, "h1h2").verdict,
        Verdict::Invalid(Invalid::MustTryPawnCapture)
    );
    assert_eq!(
        try_move(&mut u, "e1d1").verdict,
        Verdict::Invalid(Invalid::MustTryPawnCapture)
    );
    // The successful pawn capture ends the obligation with the move.
    let out = play(&mut u, "e4d5");
    assert_eq!(
        capture(&out),
        Announcement::Capture {
            square: Square::D5,
            man: None,
            en_passant: false
        }
    );
    assert_eq!(u.turn(), Color::Black);
    // Next turn the question may be asked again (Black has no pawn captures: no).
    let out = u.submit(Command::AskAny);
    assert_eq!(said(&out), vec![Announcement::AnyAnswer(false)]);
}

#[test]
fn any_question_yes_is_released_by_one_failed_try_under_english() {
    let fen = "4k3/8/8/3p4/4P3/8/8/4K2R w - - 0 1";
    let mut u = game(RuleSet::ENGLISH, fen);
    assert_eq!(
        said(&u.submit(Command::AskAny)),
        vec![Announcement::AnyAnswer(true)]
    );
    assert_eq!(
        try_move(&mut u, "h1h2").verdict,
        Verdict::Invalid(Invalid::MustTryPawnCapture)
    );
    let out = try_move(&mut u, "e4f5");
    assert_eq!(out.verdict, Verdict::Illegal);
    assert_eq!(
        out.announcements.to_vec(),
        vec![both(Announcement::Illegal)]
    );
    // Released: any move now.
    play(&mut u, "h1h2");
    // And an accepted pawn capture right away also satisfies the obligation.
    let mut u = game(RuleSet::ENGLISH, fen);
    u.submit(Command::AskAny);
    play(&mut u, "e4d5");
}

#[test]
fn any_question_no_makes_pawn_capture_attempts_impossible() {
    // No black pawn: no pawn capture for White.
    let fen = "4k3/8/8/8/4P3/8/8/4K2R w - - 0 1";
    for rules in [RuleSet::BERKELEY_ANY, RuleSet::ENGLISH] {
        let mut u = game(rules, fen);
        let out = u.submit(Command::AskAny);
        assert_eq!(
            out.announcements.to_vec(),
            vec![both(Announcement::AnyAnswer(false))]
        );
        // After "no", a pawn capture attempt is known to fail: answered as impossible.
        let out = try_move(&mut u, "e4d5");
        assert_eq!(out.verdict, Verdict::Impossible, "{}", rules.id);
        let [_, (word, audience)] = rebuffs(rules.id);
        assert_eq!(
            out.announcements.to_vec(),
            vec![Heard {
                audience,
                announcement: word
            }],
            "{}",
            rules.id
        );
        assert_eq!(
            u.submit(Command::AskAny).verdict,
            Verdict::Invalid(Invalid::AnyAlreadyAsked)
        );
        // No obligation after "no".
        play(&mut u, "h1h2");
    }
    // Other rule sets have no question.
    for rules in
        all_rules().filter(|r| !matches!(r.id, RuleSetId::BerkeleyAny | RuleSetId::English))
    {
        let mut u = game(rules, fen);
        let out = u.submit(Command::AskAny);
        assert_eq!(
            out.verdict,
            Verdict::Invalid(Invalid::NoAnyQuestion),
            "{}",
            rules.id
        );
        assert!(out.announcements.is_empty());
    }
}

#[test]
fn any_counts_en_passant() {
    // After d7-d5, White's only pawn capture is e5xd6 e.p.
    for rules in [RuleSet::BERKELEY_ANY, RuleSet::ENGLISH] {
        let mut u = game(rules, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
        play(&mut u, "d7d5");
        assert_eq!(
            said(&u.submit(Command::AskAny)),
            vec![Announcement::AnyAnswer(true)]
        );
        play(&mut u, "e5d6");
    }
}

// ---------------------------------------------------------------------------------------------
// Rejections
// ---------------------------------------------------------------------------------------------

/// White: Ke1, Be2 (pinned on the e-file by the rook on e8), Ra1, Nb1.
/// Black: Kh8, Rd8 (guards d1 and d2), Re8, pawn a5.
const REJECT_FEN: &str = "3rr2k/8/8/p7/8/8/4B3/RN2K3 w - - 0 1";

#[test]
fn illegal_impossible_and_repeat_with_their_audiences() {
    let illegal = [
        ("king into check", "e1d1"),
        ("king into check (d2)", "e1d2"),
        ("rook through an enemy man", "a1a6"),
        ("pinned bishop", "e2d3"),
    ];
    let impossible = [
        ("rook diagonally", "a1b2"),
        ("rook through an own man", "a1c1"),
        ("rook onto an own man", "a1b1"),
        ("bishop straight", "e2e4"),
        ("castling without the right", "e1g1"),
        ("no man of the mover's there", "h2h4"),
        ("an enemy man", "d8d1"),
        ("promotion piece on a king move", "e1f1q"),
    ];
    for rules in all_rules() {
        let [
            (illegal_word, illegal_audience),
            (impossible_word, impossible_audience),
        ] = rebuffs(rules.id);
        let mut u = game(rules, REJECT_FEN);
        for (name, uci) in illegal {
            let out = try_move(&mut u, uci);
            assert_eq!(out.verdict, Verdict::Illegal, "{}: {name}", rules.id);
            assert_eq!(
                out.announcements.to_vec(),
                vec![Heard {
                    audience: illegal_audience,
                    announcement: illegal_word
                }],
                "{}: {name}",
                rules.id
            );
            check_observations(&out, att(uci));
        }
        for (name, uci) in impossible {
            let out = try_move(&mut u, uci);
            assert_eq!(out.verdict, Verdict::Impossible, "{}: {name}", rules.id);
            assert_eq!(
                out.announcements.to_vec(),
                vec![Heard {
                    audience: impossible_audience,
                    announcement: impossible_word
                }],
                "{}: {name}",
                rules.id
            );
            check_observations(&out, att(uci));
        }
        // Repeats of illegal attempts: REPEAT NO (heard by both) in umpire1965, otherwise
        // answered like an impossible attempt.
        for (name, uci) in illegal {
            let out = try_move(&mut u, uci);
            if rules.id == RuleSetId::Umpire1965 {
                assert_eq!(out.verdict, Verdict::Repeat, "{name}");
                assert_eq!(
                    out.announcements.to_vec(),
                    vec![both(Announcement::Repeat)],
                    "{name}"
                );
            } else {
                assert_eq!(
                    out.verdict,
                    Verdict::Impossible,
                    "{}: repeated {name}",
                    rules.id
                );
                assert_eq!(
                    out.announcements.to_vec(),
                    vec![Heard {
                        audience: impossible_audience,
                        announcement: impossible_word
                    }],
                    "{}: repeated {name}",
                    rules.id
                );
            }
            check_observations(&out, att(uci));
        }
        // Nothing changed: White is still to move and can play the capture Ra1xa5.
        assert_eq!(u.turn(), Color::White);
        assert_eq!(u.plies(), 0);
        let out = play(&mut u, "a1a5");
        assert_eq!(
            capture(&out),
            Announcement::Capture {
                square: Square::A5,
                man: names_man(rules.id).then_some(Man::Pawn),
                en_passant: false
            }
        );
    }
}

/// The observations of both players for one outcome: the mover learns its verdict; the
/// opponent learns nothing at all (`None`) when it hears nothing and no move was played.
fn check_observations(out: &Outcome, command: Command) {
    let mover = out.side;
    let own = out
        .observation(command, mover)
        .expect("the mover always learns its verdict");
    assert_eq!(own.own.map(|o| o.verdict), Some(out.verdict));
    let heard_by_opponent: Vec<Announcement> = out
        .announcements
        .iter()
        .filter(|h| matches!(h.audience, Audience::Both | Audience::Opponent))
        .map(|h| h.announcement)
        .collect();
    match out.observation(command, !mover) {
        None => {
            assert!(
                heard_by_opponent.is_empty() && !out.is_accepted(),
                "{out:?}"
            );
        }
        Some(obs) => {
            assert!(
                obs.own.is_none(),
                "the opponent never learns the mover's command"
            );
            assert_eq!(obs.announcements.to_vec(), heard_by_opponent);
            assert_eq!(obs.moved, out.is_accepted());
        }
    }
    let heard_by_mover: Vec<Announcement> = out
        .announcements
        .iter()
        .filter(|h| matches!(h.audience, Audience::Both | Audience::Mover))
        .map(|h| h.announcement)
        .collect();
    assert_eq!(own.announcements.to_vec(), heard_by_mover);
}

#[test]
fn castling_rejections() {
    let cases = [
        (
            "out of check",
            "k3r3/8/8/8/8/8/8/4K2R w K - 0 1",
            "e1g1",
            Verdict::Illegal,
        ),
        (
            "through check",
            "k4r2/8/8/8/8/8/8/4K2R w K - 0 1",
            "e1g1",
            Verdict::Illegal,
        ),
        (
            "into check",
            "k5r1/8/8/8/8/8/8/4K2R w K - 0 1",
            "e1g1",
            Verdict::Illegal,
        ),
        (
            "enemy man between (g1)",
            "k7/8/8/8/8/8/8/4K1nR w K - 0 1",
            "e1g1",
            Verdict::Illegal,
        ),
        (
            "enemy man between (b1)",
            "7k/8/8/8/8/8/8/Rn2K3 w Q - 0 1",
            "e1c1",
            Verdict::Illegal,
        ),
        (
            "enemy man between (d1)",
            "7k/8/8/8/8/8/8/R2nK3 w Q - 0 1",
            "e1c1",
            Verdict::Illegal,
        ),
        (
            "queen side through d1 attacked",
            "3r3k/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "e1c1",
            Verdict::Illegal,
        ),
        (
            "queen side, only b1 attacked: legal",
            "1r5k/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "e1c1",
            Verdict::Accepted,
        ),
        (
            "king side, legal",
            "k7/8/8/8/8/8/8/4K2R w K - 0 1",
            "e1g1",
            Verdict::Accepted,
        ),
        (
            "without the right",
            "k7/8/8/8/8/8/8/4K2R w - - 0 1",
            "e1g1",
            Verdict::Impossible,
        ),
        (
            "own man between",
            "k7/8/8/8/8/8/8/4KB1R w K - 0 1",
            "e1g1",
            Verdict::Impossible,
        ),
        (
            "queen side right only, king side attempt",
            "3k4/8/8/8/8/8/8/R3K2R w Q - 0 1",
            "e1g1",
            Verdict::Impossible,
        ),
        (
            "black, through check",
            "r3k3/8/8/8/8/8/8/3R2K1 b q - 0 1",
            "e8c8",
            Verdict::Illegal,
        ),
        (
            "black, legal",
            "r3k3/8/8/8/8/8/8/6K1 b q - 0 1",
            "e8c8",
            Verdict::Accepted,
        ),
    ];
    for (name, fen, uci, verdict) in cases {
        for rules in all_rules() {
            let mut u = game(rules, fen);
            let out = try_move(&mut u, uci);
            // RAND rule 7: castling never answers a check.
            let verdict = if name == "out of check" && check_binds(rules.id) {
                Verdict::Impossible
            } else {
                verdict
            };
            assert_eq!(out.verdict, verdict, "{}: castling {name}", rules.id);
        }
    }
    // After castling the rook stands next to the king.
    let mut u = game(RuleSet::WILD16, "k7/8/8/8/8/8/8/4K2R w K - 0 1");
    play(&mut u, "e1g1");
    assert_eq!(
        u.position().board().piece_at(Square::F1),
        Some(Role::Rook.of(Color::White))
    );
    assert_eq!(
        u.position().board().piece_at(Square::G1),
        Some(Role::King.of(Color::White))
    );
}

#[test]
fn promotion_pieces() {
    // Black king a8: a queen or rook arriving on e8 gives a rank check.
    let fen = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1";
    for rules in all_rules() {
        let queen_only = rules.id == RuleSetId::Umpire1965;
        // Without a piece: impossible, except umpire1965 where it is a queen.
        let mut u = game(rules, fen);
        let out = try_move(&mut u, "e7e8");
        if queen_only {
            assert_eq!(out.verdict, Verdict::Accepted);
            assert_eq!(
                u.position().board().piece_at(Square::E8),
                Some(Role::Queen.of(Color::White))
            );
            assert_eq!(
                said(&out),
                vec![
                    Announcement::Promotion(Color::White),
                    Announcement::Check(CheckKind::Rank)
                ]
            );
        } else {
            assert_eq!(out.verdict, Verdict::Impossible, "{}", rules.id);
        }
        // Bad pieces.
        for uci in ["e7e8k", "e7e8p"] {
            let mut u = game(rules, fen);
            assert_eq!(
                try_move(&mut u, uci).verdict,
                Verdict::Impossible,
                "{}: {uci}",
                rules.id
            );
        }
        // Under-promotion: only where the mover may choose.
        for (uci, role) in [
            ("e7e8r", Role::Rook),
            ("e7e8b", Role::Bishop),
            ("e7e8n", Role::Knight),
        ] {
            let mut u = game(rules, fen);
            let out = try_move(&mut u, uci);
            if queen_only {
                assert_eq!(out.verdict, Verdict::Impossible, "{uci}");
            } else {
                assert_eq!(out.verdict, Verdict::Accepted, "{}: {uci}", rules.id);
                assert_eq!(
                    u.position().board().piece_at(Square::E8),
                    Some(role.of(Color::White))
                );
                let promo = announces_promotion(rules.id);
                assert_eq!(
                    said(&out).contains(&Announcement::Promotion(Color::White)),
                    promo,
                    "{}",
                    rules.id
                );
            }
        }
        // A promotion piece on a move that does not reach the last rank.
        let mut u = game(rules, "k7/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(
            try_move(&mut u, "e2e4q").verdict,
            Verdict::Impossible,
            "{}",
            rules.id
        );
        assert_eq!(
            try_move(&mut u, "e2e3n").verdict,
            Verdict::Impossible,
            "{}",
            rules.id
        );
    }
    // A promotion blocked by an enemy man is illegal, not impossible.
    for rules in all_rules() {
        let mut u = game(rules, "k3n3/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            try_move(&mut u, "e7e8q").verdict,
            Verdict::Illegal,
            "{}",
            rules.id
        );
    }
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

#[test]
fn checkmate() {
    for rules in all_rules() {
        let mut u = game(rules, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let out = play(&mut u, "a1a8");
        assert_eq!(
            out.announcements.to_vec(),
            vec![
                both(Announcement::Check(CheckKind::Rank)),
                both(Announcement::GameOver(GameResult::win(
                    Color::White,
                    EndReason::Checkmate
                ))),
            ],
            "{}",
            rules.id
        );
        assert_eq!(
            u.result(),
            Some(GameResult::win(Color::White, EndReason::Checkmate))
        );
        after_game_over(&mut u);
    }
    // Black mates too (back-rank mate of the white king).
    let mut u = game(RuleSet::WILD16, "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1");
    let out = play(&mut u, "a8a1");
    assert_eq!(
        game_over(&out),
        Some(GameResult::win(Color::Black, EndReason::Checkmate))
    );
}

/// Every command after the end of the game gets [`Verdict::GameOver`] and changes nothing.
fn after_game_over(u: &mut Umpire) {
    let result = u.result();
    assert!(result.is_some());
    let fen_before = u.position().board().to_string();
    for command in [
        att("a1a2"),
        att("e1e2"),
        Command::AskAny,
        Command::OfferDraw,
        Command::AcceptDraw,
        Command::DeclineDraw,
        Command::Resign,
    ] {
        let out = u.submit(command);
        assert_eq!(out.verdict, Verdict::GameOver, "{command:?}");
        assert!(out.announcements.is_empty(), "{command:?}");
    }
    assert_eq!(u.resign(!u.turn()).verdict, Verdict::GameOver);
    assert_eq!(u.result(), result);
    assert_eq!(u.position().board().to_string(), fen_before);
}

#[test]
fn stalemate_is_a_draw_except_under_rand() {
    // Qg5-g6: the king on h8 has g8, g7, h7 all covered and is not in check.
    for rules in all_rules() {
        let mut u = game(rules, "7k/8/8/6Q1/8/8/8/6K1 w - - 0 1");
        let out = play(&mut u, "g5g6");
        let expected = if rules.id == RuleSetId::Rand {
            GameResult::win(Color::White, EndReason::Stalemate)
        } else {
            GameResult::draw(EndReason::Stalemate)
        };
        assert_eq!(
            out.announcements.to_vec(),
            vec![both(Announcement::GameOver(expected))],
            "{}",
            rules.id
        );
        after_game_over(&mut u);
    }
}

const KNIGHT_SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

#[test]
fn threefold_repetition_on_the_third_occurrence_not_before() {
    for rules in all_rules() {
        let mut u = Umpire::new(rules);
        // Start position: 1st occurrence. After 4 plies: 2nd. After 8 plies: 3rd.
        play_all(&mut u, KNIGHT_SHUFFLE);
        play_all(&mut u, "g1f3 g8f6 f3g1");
        assert!(!u.is_over(), "{}", rules.id);
        let out = play(&mut u, "f6g8");
        if has_threefold_and_fifty(rules.id) {
            assert_eq!(
                game_over(&out),
                Some(GameResult::draw(EndReason::ThreefoldRepetition)),
                "{}",
                rules.id
            );
            assert!(
                out.announcements
                    .contains(&both(Announcement::GameOver(GameResult::draw(
                        EndReason::ThreefoldRepetition
                    ))))
            );
            after_game_over(&mut u);
        } else {
            assert_eq!(game_over(&out), None, "{}: no threefold rule", rules.id);
            // Berkeley plays on, however often the position comes back.
            for _ in 0..5 {
                play_all(&mut u, KNIGHT_SHUFFLE);
            }
            assert!(!u.is_over());
        }
    }
}

#[test]
fn threefold_repetition_rejected_attempts_do_not_break_or_make_a_repetition() {
    let mut u = Umpire::new(RuleSet::WILD16);
    for _ in 0..2 {
        for m in KNIGHT_SHUFFLE.split_whitespace() {
            // Rejected attempts in between change nothing.
            let side = u.turn();
            let back = if side == Color::White { "a1a3" } else { "a8a6" };
            assert_eq!(try_move(&mut u, back).verdict, Verdict::Impossible);
            play(&mut u, m);
        }
    }
    assert_eq!(
        u.result(),
        Some(GameResult::draw(EndReason::ThreefoldRepetition))
    );
}

#[test]
fn threefold_repetition_counts_en_passant_rights_as_fide_does() {
    // 1...d7-d5 with a white pawn on e5: the position after it has a legal e.p. capture, so it
    // differs from the same placement later (no e.p.). Positions with the knights home and
    // White to move: ply 1 (with e.p.), plies 5, 9 (without). Were ply 1 counted, ply 9 would
    // be a third occurrence; it is not, and the draw comes at ply 10 (plies 2, 6, 10).
    let fen = "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut u = game(RuleSet::WILD16, fen);
    play(&mut u, "d7d5");
    for _ in 0..2 {
        play_all(&mut u, KNIGHT_SHUFFLE);
    }
    assert!(
        !u.is_over(),
        "ply 9: the position of ply 1 (e.p. available) must not count"
    );
    // The position after 2.Nf3 (plies 2, 6, 10) is the first to occur three times.
    play(&mut u, "g1f3");
    assert_eq!(
        u.result(),
        Some(GameResult::draw(EndReason::ThreefoldRepetition))
    );

    // An e.p. "right" that no pawn can use does not make the position different (FIDE 9.2.3):
    // third occurrence at ply 9.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    let mut u = game(RuleSet::WILD16, fen);
    play(&mut u, "d7d5");
    play_all(&mut u, KNIGHT_SHUFFLE);
    play_all(&mut u, "g1f3 g8f6 f3g1");
    assert!(!u.is_over());
    play(&mut u, "f6g8");
    assert_eq!(
        u.result(),
        Some(GameResult::draw(EndReason::ThreefoldRepetition))
    );
}

#[test]
fn threefold_repetition_counts_castling_rights() {
    // 1.Nf3 Nf6 (ply 2) 2.Rg1 Rg8 3.Rh1 Rh8 (ply 6: same placement as ply 2, but neither side
    // may castle king side any more) 4.Ng1 Ng8 5.Nf3 Nf6 (ply 10) 6.Ng1 Ng8 7.Nf3 Nf6 (ply 14).
    // The placement of ply 2 occurs at plies 2, 6, 10, 14; with equal rights at 6, 10, 14.
    let mut u = Umpire::new(RuleSet::WILD16);
    play_all(&mut u, "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8 f3g1 f6g8 g1f3 g8f6");
    assert!(!u.is_over(), "plies 2 and 6 differ in castling rights");
    play_all(&mut u, "f3g1 f6g8 g1f3");
    assert!(!u.is_over());
    play(&mut u, "g8f6");
    assert_eq!(
        u.result(),
        Some(GameResult::draw(EndReason::ThreefoldRepetition))
    );
}

#[test]
fn fifty_moves_rejected_attempts_never_count() {
    // Halfmove clock 98. White: Ke1, Rd1; Black: Ke5, pawn d5 (blocks the d-file).
    let fen = "8/8/8/3pk3/8/8/8/3RK3 w - - 98 80";
    for rules in all_rules() {
        let repeat = if rules.id == RuleSetId::Umpire1965 {
            Verdict::Repeat
        } else {
            Verdict::Impossible
        };
        let mut u = game(rules, fen);
        // White's rejected attempts: illegal (through d5), impossible (rook diagonally), a repeat.
        assert_eq!(try_move(&mut u, "d1d7").verdict, Verdict::Illegal);
        assert_eq!(try_move(&mut u, "d1e2").verdict, Verdict::Impossible);
        assert_eq!(try_move(&mut u, "d1d7").verdict, repeat);
        let out = play(&mut u, "e1f2");
        assert_eq!(game_over(&out), None);
        assert_eq!(u.position().halfmoves(), 99);
        // Black's rejected attempts: into the rook's file, two squares with the king, a pawn backwards.
        assert_eq!(try_move(&mut u, "e5d4").verdict, Verdict::Illegal);
        assert_eq!(try_move(&mut u, "e5e3").verdict, Verdict::Impossible);
        assert_eq!(try_move(&mut u, "d5d6").verdict, Verdict::Impossible);
        assert_eq!(try_move(&mut u, "e5d4").verdict, repeat);
        assert!(!u.is_over());
        assert_eq!(u.position().halfmoves(), 99);
        // The hundredth half-move without pawn move or capture.
        let out = play(&mut u, "e5e6");
        if has_threefold_and_fifty(rules.id) {
            assert_eq!(
                out.announcements.to_vec(),
                vec![both(Announcement::GameOver(GameResult::draw(
                    EndReason::FiftyMoves
                )))],
                "{}",
                rules.id
            );
            after_game_over(&mut u);
        } else {
            assert_eq!(game_over(&out), None, "{}: no fifty-move rule", rules.id);
            play(&mut u, "f2g2");
            assert!(!u.is_over());
            assert_eq!(u.position().halfmoves(), 101);
        }
    }
}

#[test]
fn fifty_moves_a_pawn_move_or_capture_on_the_hundredth_half_move_resets_the_count() {
    let fen = "8/8/8/3pk3/8/8/8/3RK3 b - - 99 80";
    let mut u = game(RuleSet::WILD16, fen);
    play(&mut u, "d5d4");
    assert!(!u.is_over());
    assert_eq!(u.position().halfmoves(), 0);
    // A capture resets it as well: Rd1xd4.
    play(&mut u, "d1d4");
    assert!(!u.is_over());
}

#[test]
fn checkmate_takes_precedence_over_the_fifty_move_rule() {
    for rules in all_rules() {
        let mut u = game(rules, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
        let out = play(&mut u, "a1a8");
        assert_eq!(u.position().halfmoves(), 100);
        assert_eq!(
            game_over(&out),
            Some(GameResult::win(Color::White, EndReason::Checkmate)),
            "{}",
            rules.id
        );
    }
    // So does stalemate (a loss for the stalemated side under rand).
    for rules in all_rules() {
        let mut u = game(rules, "7k/8/8/6Q1/8/8/8/6K1 w - - 99 80");
        let out = play(&mut u, "g5g6");
        assert_eq!(
            game_over(&out).map(|r| r.reason),
            Some(EndReason::Stalemate),
            "{}",
            rules.id
        );
    }
}

/// `(name, FEN, drawn by insufficient material?)`. The decision follows the FIDE
/// dead-position convention as python-chess and lichess apply it: a side can only win if
/// some sequence of legal moves (even a helpmate) mates. K+N v K+N, K+N+N v K, K+B v K+N
/// and bishops of both colours can all be mated with help, so they are not drawn.
const MATERIAL: [(&str, &str, bool); 15] = [
    ("bare kings", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),
    ("K+B v K", "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true),
    ("K v K+B", "8/8/8/4k3/8/8/8/2b1K3 w - - 0 1", true),
    ("K+N v K", "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", true),
    ("K v K+N", "8/8/8/4k3/8/8/8/1n2K3 w - - 0 1", true),
    // c1 = (2,0) and f8 = (5,7): both sums even, both dark.
    (
        "K+B v K+B, same colour",
        "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        true,
    ),
    // c1, e3 = (4,2): dark.
    (
        "K+B+B v K, one colour",
        "8/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1",
        true,
    ),
    // c1, e3 v f8, h6 = (7,5): all dark.
    (
        "K+B+B v K+B+B, one colour",
        "5b2/8/7b/4k3/8/4B3/8/2B1K3 w - - 0 1",
        true,
    ),
    // c8 = (2,7): odd sum, light.
    (
        "K+B v K+B, opposite colours",
        "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        false,
    ),
    (
        "K+B+B v K, both colours",
        "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",
        false,
    ),
    ("K+N v K+N", "6n1/8/8/4k3/8/8/8/1N2K3 w - - 0 1", false),
    ("K+N+N v K", "8/8/8/4k3/8/8/8/1N2K1N1 w - - 0 1", false),
    ("K+B v K+N", "6n1/8/8/4k3/8/8/8/2B1K3 w - - 0 1", false),
    ("K+P v K", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false),
    ("K+R v K", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false),
];

#[test]
fn insufficient_material_in_set_up_positions() {
    for (name, fen, drawn) in MATERIAL {
        for rules in all_rules() {
            let u = game(rules, fen);
            let expected = drawn.then_some(GameResult::draw(EndReason::InsufficientMaterial));
            assert_eq!(u.result(), expected, "{}: {name}", rules.id);
            if drawn {
                assert!(
                    u.opening_announcements()
                        .contains(&both(Announcement::GameOver(GameResult::draw(
                            EndReason::InsufficientMaterial
                        ))))
                );
            }
        }
    }
}

#[test]
fn insufficient_material_after_a_capture() {
    // The white king takes the last black man of each position, leaving the named material.
    let cases = [
        (
            "bare kings",
            "8/8/8/4k3/8/8/3q4/4K3 w - - 0 1",
            "e1d2",
            true,
        ),
        ("K+B v K", "8/8/8/4k3/8/8/3q4/2B1K3 w - - 0 1", "e1d2", true),
        ("K+N v K", "8/8/8/4k3/8/8/3r4/1N2K3 w - - 0 1", "e1d2", true),
        // The bishop takes the pawn on e3 (dark): bishops c1... all dark against f8 (dark).
        (
            "K+B v K+B same colour",
            "5b2/8/8/4k3/8/4p3/8/2B1K3 w - - 0 1",
            "c1e3",
            true,
        ),
        // Two bishops each: the queen on d2 goes, all four bishops dark.
        (
            "K+B+B v K+B+B one colour",
            "5b2/8/7b/4k3/8/4B3/3q4/2B1K3 w - - 0 1",
            "e1d2",
            true,
        ),
        (
            "K+B v K+B opposite colours",
            "2b5/8/8/4k3/8/8/3q4/2B1K3 w - - 0 1",
            "e1d2",
            false,
        ),
        (
            "K+N v K+N",
            "6n1/8/8/4k3/8/8/3q4/1N2K3 w - - 0 1",
            "e1d2",
            false,
        ),
        (
            "K+N+N v K",
            "8/8/8/4k3/8/8/3q4/1N2K1N1 w - - 0 1",
            "e1d2",
            false,
        ),
    ];
    for (name, fen, uci, drawn) in cases {
        for rules in all_rules() {
            let mut u = game(rules, fen);
            let out = play(&mut u, uci);
            let expected = drawn.then_some(GameResult::draw(EndReason::InsufficientMaterial));
            assert_eq!(game_over(&out), expected, "{}: {name}", rules.id);
            assert_eq!(u.result(), expected, "{}: {name}", rules.id);
            if drawn {
                after_game_over(&mut u);
            }
        }
    }
}

#[test]
fn insufficient_material_agrees_with_shakmaty() {
    // Shakmaty follows python-chess; our umpire ends the game exactly when it says so.
    for (name, fen, drawn) in MATERIAL {
        let u = game(RuleSet::WILD16, fen);
        assert_eq!(u.position().is_insufficient_material(), drawn, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Draw offers and resignation
// ---------------------------------------------------------------------------------------------

#[test]
fn draw_offer_accepted() {
    for rules in all_rules() {
        let mut u = Umpire::new(rules);
        let out = u.submit(Command::OfferDraw);
        assert_eq!(out.verdict, Verdict::Answered);
        assert_eq!(
            out.announcements.to_vec(),
            vec![both(Announcement::DrawOffered(Color::White))]
        );
        assert_eq!(u.actor(Command::AcceptDraw), Color::Black);
        let out = u.submit(Command::AcceptDraw);
        assert_eq!(out.side, Color::Black);
        assert_eq!(
            out.announcements.to_vec(),
            vec![
                both(Announcement::DrawAccepted(Color::Black)),
                both(Announcement::GameOver(GameResult::draw(
                    EndReason::DrawAgreed
                ))),
            ]
        );
        assert_eq!(u.result(), Some(GameResult::draw(EndReason::DrawAgreed)));
        after_game_over(&mut u);
    }
}

#[test]
fn draw_offer_declined_and_one_per_player_per_turn() {
    let mut u = Umpire::new(RuleSet::WILD16);
    u.submit(Command::OfferDraw);
    // The offerer's opponent cannot offer while an offer waits.
    // (Black is not to move; its own offer would come on its own turn anyway.)
    let out = u.submit(Command::DeclineDraw);
    assert_eq!(out.side, Color::Black);
    assert_eq!(
        out.announcements.to_vec(),
        vec![both(Announcement::DrawDeclined(Color::Black))]
    );
    assert!(!u.is_over());
    // Nothing left to answer.
    assert_eq!(
        u.submit(Command::AcceptDraw).verdict,
        Verdict::Invalid(Invalid::NoDrawOffer)
    );
    assert_eq!(
        u.submit(Command::DeclineDraw).verdict,
        Verdict::Invalid(Invalid::NoDrawOffer)
    );
    // Only one offer per turn.
    let out = u.submit(Command::OfferDraw);
    assert_eq!(out.verdict, Verdict::Invalid(Invalid::DrawAlreadyOffered));
    assert!(out.announcements.is_empty());
    play(&mut u, "e2e4");
    // Black's turn: Black may offer; then White's next turn White may offer again.
    assert_eq!(u.submit(Command::OfferDraw).verdict, Verdict::Answered);
    u.submit(Command::DeclineDraw);
    play(&mut u, "e7e5");
    assert_eq!(u.submit(Command::OfferDraw).verdict, Verdict::Answered);
}

#[test]
fn draw_offer_only_before_any_attempt_of_the_turn() {
    let mut u = Umpire::new(RuleSet::WILD16);
    // An impossible attempt is an attempt.
    assert_eq!(try_move(&mut u, "e2e5").verdict, Verdict::Impossible);
    let out = u.submit(Command::OfferDraw);
    assert_eq!(
        out.verdict,
        Verdict::Invalid(Invalid::DrawOfferAfterAttempt)
    );
    assert!(out.announcements.is_empty());
    // So is "Any?".
    let mut u = Umpire::new(RuleSet::BERKELEY_ANY);
    u.submit(Command::AskAny);
    assert_eq!(
        u.submit(Command::OfferDraw).verdict,
        Verdict::Invalid(Invalid::DrawOfferAfterAttempt)
    );
    // An illegal one too.
    let mut u = game(RuleSet::WILD16, REJECT_FEN);
    assert_eq!(try_move(&mut u, "e1d1").verdict, Verdict::Illegal);
    assert_eq!(
        u.submit(Command::OfferDraw).verdict,
        Verdict::Invalid(Invalid::DrawOfferAfterAttempt)
    );
}

#[test]
fn draw_offer_lapses_when_the_offered_side_acts() {
    let mut u = Umpire::new(RuleSet::WILD16);
    u.submit(Command::OfferDraw);
    // The offer stands while the offerer moves.
    let out = play(&mut u, "e2e4");
    assert!(
        !said(&out)
            .iter()
            .any(|a| matches!(a, Announcement::DrawDeclined(_)))
    );
    // A waiting offer blocks the other side's own offer.
    assert_eq!(
        u.submit(Command::OfferDraw).verdict,
        Verdict::Invalid(Invalid::DrawOfferPending)
    );
    // Rejected attempts do not lapse it (the offerer may not hear of them): issue 10, leak 3.
    for rejected in [att("e7e4"), att("b8d7")] {
        let out = u.submit(rejected);
        assert!(out.verdict.is_rejection());
        assert!(
            !said(&out)
                .iter()
                .any(|a| matches!(a, Announcement::DrawDeclined(_))),
            "{rejected:?}"
        );
        assert_eq!(out.observation(rejected, Color::White), None);
    }
    // Black's accepted move lapses it, declined, heard by both.
    let out = u.submit(att("e7e5"));
    assert_eq!(
        out.announcements[0],
        both(Announcement::DrawDeclined(Color::Black))
    );
    assert_eq!(
        u.submit(Command::AcceptDraw).verdict,
        Verdict::Invalid(Invalid::NoDrawOffer)
    );
    assert!(!u.is_over());
    // "Any?" is acting too.
    let mut u = Umpire::new(RuleSet::ENGLISH);
    u.submit(Command::OfferDraw);
    play(&mut u, "e2e4");
    let out = u.submit(Command::AskAny);
    assert_eq!(
        said(&out),
        vec![
            Announcement::DrawDeclined(Color::Black),
            Announcement::AnyAnswer(false)
        ]
    );
}

#[test]
fn resignation_by_either_side() {
    for rules in all_rules() {
        // The side to move resigns.
        let mut u = Umpire::new(rules);
        let out = u.submit(Command::Resign);
        assert_eq!(
            out.announcements.to_vec(),
            vec![
                both(Announcement::Resigned(Color::White)),
                both(Announcement::GameOver(GameResult::win(
                    Color::Black,
                    EndReason::Resignation
                ))),
            ]
        );
        after_game_over(&mut u);
        // The side not to move resigns.
        let mut u = Umpire::new(rules);
        let out = u.resign(Color::Black);
        assert_eq!(out.side, Color::Black);
        assert_eq!(
            u.result(),
            Some(GameResult::win(Color::White, EndReason::Resignation))
        );
        assert_eq!(
            said(&out),
            vec![
                Announcement::Resigned(Color::Black),
                Announcement::GameOver(GameResult::win(Color::White, EndReason::Resignation))
            ]
        );
        // Both players hear it.
        assert!(out.observation(Command::Resign, Color::White).is_some());
    }
}

// ---------------------------------------------------------------------------------------------
// Information hiding
// ---------------------------------------------------------------------------------------------

#[test]
fn the_opponent_learns_nothing_of_a_mover_only_rejection() {
    // wild16: illegal and impossible attempts are heard by the mover only.
    let mut u = game(RuleSet::WILD16, REJECT_FEN);
    for uci in ["e1d1", "a1b2", "e1d1"] {
        let out = try_move(&mut u, uci);
        assert!(out.verdict.is_rejection());
        assert_eq!(out.observation(att(uci), Color::Black), None, "{uci}");
        let own = out.observation(att(uci), Color::White).unwrap();
        assert_eq!(own.announcements.to_vec(), vec![Announcement::Illegal]);
    }
    // berkeley: "No" reaches the opponent, "Nonsense" does not.
    let mut u = game(RuleSet::BERKELEY, REJECT_FEN);
    let out = try_move(&mut u, "e1d1");
    let theirs = out.observation(att("e1d1"), Color::Black).unwrap();
    assert_eq!(theirs.announcements.to_vec(), vec![Announcement::Illegal]);
    assert!(theirs.own.is_none() && !theirs.moved);
    let out = try_move(&mut u, "a1b2");
    assert_eq!(out.observation(att("a1b2"), Color::Black), None);
    assert_eq!(
        out.observation(att("a1b2"), Color::White)
            .unwrap()
            .announcements
            .to_vec(),
        vec![Announcement::Impossible]
    );
    // The opponent of a refused command (Invalid) learns nothing either.
    let mut u = game(RuleSet::BERKELEY_ANY, "4k3/8/8/3p4/4P3/8/8/4K2R w - - 0 1");
    u.submit(Command::AskAny);
    let out = try_move(&mut u, "h1h2");
    assert_eq!(out.observation(att("h1h2"), Color::Black), None);
}

#[test]
fn audiences_per_rule_set_for_every_kind_of_rejection_reach_the_right_players() {
    for rules in all_rules() {
        let [(_, illegal_audience), (_, impossible_audience)] = rebuffs(rules.id);
        let mut u = game(rules, REJECT_FEN);
        for (uci, audience) in [("e1d1", illegal_audience), ("a1b2", impossible_audience)] {
            let out = try_move(&mut u, uci);
            let opponent_hears = out.observation(att(uci), Color::Black).is_some();
            assert_eq!(
                opponent_hears,
                audience == Audience::Both,
                "{}: {uci}",
                rules.id
            );
        }
    }
}

#[test]
fn an_accepted_move_is_observed_by_the_opponent_even_in_silence() {
    let mut u = Umpire::new(RuleSet::WILD16);
    let out = play(&mut u, "g1f3");
    assert!(out.announcements.is_empty());
    let theirs = out.observation(att("g1f3"), Color::Black).unwrap();
    assert!(theirs.moved && theirs.own.is_none() && theirs.announcements.is_empty());
}
