//! The consequences the rules imply, in hand-built games.

use umpire_schroedinger::shakmaty::{Color, File};
use umpire_schroedinger::{
    CheckStatus, Judgement, ManId, Move, Nature, NatureSet, Refusal, Umpire,
};

fn mv(text: &str) -> Move {
    text.parse().expect("test moves are well formed")
}

/// Plays the space-separated moves, each of which must be legal.
fn play(umpire: &mut Umpire, moves: &str) {
    for text in moves.split_whitespace() {
        assert_eq!(
            umpire.play(mv(text)),
            Judgement::Legal,
            "{text} should be legal"
        );
    }
}

fn set(letters: &str) -> NatureSet {
    letters
        .chars()
        .map(|c| match c {
            'K' => Nature::King,
            'Q' => Nature::Queen,
            'R' => Nature::Rook,
            'B' => Nature::Bishop,
            _ => Nature::Knight,
        })
        .fold(NatureSet::EMPTY, NatureSet::with)
}

fn white(file: File) -> ManId {
    ManId::back_rank(Color::White, file)
}

#[test]
fn everything_is_possible_at_the_start() {
    let umpire = Umpire::new();
    for man in ManId::all() {
        let expected = if man.is_back_rank() {
            NatureSet::ALL
        } else {
            NatureSet::EMPTY
        };
        assert_eq!(umpire.possible_natures(man), expected, "{man}");
    }
}

#[test]
fn a_man_sliding_far_along_a_file_is_a_queen_or_rook() {
    let mut umpire = Umpire::new();
    play(&mut umpire, "a2a4 h7h6 a1a3");
    assert_eq!(umpire.possible_natures(white(File::A)), set("QR"));
    // The others are untouched, the b1 man included.
    assert_eq!(umpire.possible_natures(white(File::B)), NatureSet::ALL);
}

#[test]
fn a_man_sliding_far_along_a_diagonal_is_a_queen_or_bishop() {
    let mut umpire = Umpire::new();
    play(&mut umpire, "b2b3 h7h6 c1a3");
    assert_eq!(umpire.possible_natures(white(File::C)), set("QB"));
}

#[test]
fn a_knight_jump_reveals_a_knight() {
    let mut umpire = Umpire::new();
    play(&mut umpire, "b1c3");
    assert_eq!(umpire.possible_natures(white(File::B)), set("N"));
}

#[test]
fn three_rook_movers_hold_the_queen_and_a_fourth_is_illegal() {
    let mut umpire = Umpire::new();
    play(
        &mut umpire,
        "a2a4 a7a6 a1a3 b7b6 h2h4 h7h6 h1h3 g7g6 d2d4 a6a5",
    );
    // Two rook-movers: the queen may still be anywhere.
    assert!(
        umpire
            .possible_natures(white(File::E))
            .contains(Nature::Queen)
    );
    play(&mut umpire, "d1d2 b6b5");
    // d1d2 is one step: K, Q or R.
    assert_eq!(umpire.possible_natures(white(File::D)), set("KQR"));
    play(&mut umpire, "d2d3 g6g5");
    // The third man to move along a line is not a king either (two steps in all, but a
    // single step each time): still K, Q or R.
    assert_eq!(umpire.possible_natures(white(File::D)), set("KQR"));
    play(&mut umpire, "d3f3 h6h5");
    // Two squares in one move along the rank: the third rook-mover.
    for file in [File::A, File::D, File::H] {
        assert_eq!(umpire.possible_natures(white(file)), set("QR"), "{file:?}");
    }
    for file in [File::B, File::C, File::E, File::F, File::G] {
        let natures = umpire.possible_natures(white(file));
        assert!(!natures.contains(Nature::Queen), "{file:?}: {natures}");
        assert!(!natures.contains(Nature::Rook), "{file:?}: {natures}");
    }
    // A fourth man moving two squares along a file: no nature left for it.
    play(&mut umpire, "e2e4 a8a6");
    assert_eq!(
        umpire.judge(mv("e1e3")),
        Judgement::Illegal(Refusal::NoNature)
    );
}

#[test]
fn a_fourth_bishop_mover_is_illegal() {
    let mut umpire = Umpire::new();
    play(
        &mut umpire,
        "b2b3 a7a6 c1a3 a6a5 d2d3 h7h6 e1c3 h6h5 g2g3 b7b6 f1h3 g7g6 e2e4 b6b5",
    );
    for file in [File::C, File::E, File::F] {
        assert_eq!(umpire.possible_natures(white(file)), set("QB"), "{file:?}");
    }
    assert_eq!(umpire.possible_natures(white(File::D)), set("KRN"));
    assert_eq!(
        umpire.judge(mv("d1f3")),
        Judgement::Illegal(Refusal::NoNature)
    );
    // One step along the diagonal is still fine: the d1 man may be the king.
    assert_eq!(umpire.judge(mv("d1e2")), Judgement::Legal);
}

#[test]
fn a_third_knight_jumper_is_illegal() {
    let mut umpire = Umpire::new();
    play(&mut umpire, "b1c3 a7a6 g1f3 a6a5");
    for file in [File::A, File::C, File::D, File::E, File::F, File::H] {
        assert!(
            !umpire
                .possible_natures(white(file))
                .contains(Nature::Knight)
        );
    }
    assert_eq!(
        umpire.judge(mv("c1d3")),
        Judgement::Illegal(Refusal::NoNature)
    );
    assert_eq!(
        umpire.judge(mv("e1d3")),
        Judgement::Illegal(Refusal::NoNature)
    );
}

/// White identifies every back-rank man but the e1 man as a non-king, while a black knight
/// comes round to give check.
const KING_HUNT: &str = "b1c3 a7a6 g1f3 b8c6 a2a4 h7h6 a1a3 g7g6 d2d4 c6d4 \
                         c1e3 b7b6 d1d3 h6h5 g2g3 g6g5 f1h3 a6a5 h1f1";

#[test]
fn check_constrains_the_other_side() {
    let mut umpire = Umpire::new();
    play(&mut umpire, KING_HUNT);
    // Seven men moved two squares or more: the e1 man is the king; a1, d1, h1 moved along
    // lines, so one of them is the queen and c1, f1 are the bishops.
    assert_eq!(umpire.possible_natures(white(File::E)), set("K"));
    for file in [File::A, File::D, File::H] {
        assert_eq!(umpire.possible_natures(white(file)), set("QR"), "{file:?}");
    }
    assert_eq!(umpire.possible_natures(white(File::C)), set("B"));
    assert_eq!(umpire.possible_natures(white(File::F)), set("B"));
    // The black knight (b8, a knight since its first jump) attacks c2? No: it captures there
    // and then attacks e1. White is in check in every world.
    assert_eq!(umpire.check_status(), CheckStatus::Never);
    play(&mut umpire, "d4c2");
    assert_eq!(umpire.check_status(), CheckStatus::Always);
    // A move that does nothing about it leaves the king in check in every world.
    assert_eq!(
        umpire.judge(mv("b2b3")),
        Judgement::Illegal(Refusal::NoWorld)
    );
    assert_eq!(
        umpire.judge(mv("h3g4")),
        Judgement::Illegal(Refusal::NoWorld)
    );
    // Stepping the king away, or taking the knight, is legal.
    assert_eq!(umpire.judge(mv("e1d2")), Judgement::Legal);
    assert_eq!(umpire.judge(mv("e1d1")), Judgement::Legal);
    // Capturing with the d3 man (diagonal step) makes it the queen, hence a1 and h1 rooks.
    play(&mut umpire, "d3c2");
    assert_eq!(umpire.possible_natures(white(File::D)), set("Q"));
    assert_eq!(umpire.possible_natures(white(File::A)), set("R"));
    assert_eq!(umpire.possible_natures(white(File::H)), set("R"));
    // The captured knight keeps its nature.
    assert_eq!(
        umpire.possible_natures(ManId::back_rank(Color::Black, File::B)),
        set("N")
    );
}

#[test]
fn an_unknown_attacker_makes_check_uncertain_and_then_rules_out_kings() {
    let mut umpire = Umpire::new();
    // The black b8 man is a knight; on d3 it attacks c1 and e1.
    play(&mut umpire, "h2h3 b8c6 h3h4 c6b4 h4h5 b4d3");
    assert_eq!(umpire.check_status(), CheckStatus::Sometimes);
    assert!(
        umpire
            .possible_natures(white(File::C))
            .contains(Nature::King)
    );
    // White ignores it: so neither c1 nor e1 is White's king.
    play(&mut umpire, "a2a3");
    assert!(
        !umpire
            .possible_natures(white(File::C))
            .contains(Nature::King)
    );
    assert!(
        !umpire
            .possible_natures(white(File::E))
            .contains(Nature::King)
    );
    assert!(
        umpire
            .possible_natures(white(File::D))
            .contains(Nature::King)
    );
}

#[test]
fn a_captured_man_is_not_the_king_and_keeps_its_past() {
    let black = |file| ManId::back_rank(Color::Black, file);
    let mut umpire = Umpire::new();
    play(&mut umpire, "b1c3 b8c6 c3d5 a7a6 d5c7");
    // The knight on c7 attacks a8 and e8 and Black ignores it: neither is Black's king.
    play(&mut umpire, "a6a5");
    assert!(
        !umpire
            .possible_natures(black(File::E))
            .contains(Nature::King)
    );
    assert!(
        umpire
            .possible_natures(black(File::D))
            .contains(Nature::King)
    );
    play(&mut umpire, "c7e8");
    assert_eq!(umpire.possible_natures(black(File::E)), set("QRBN"));
    assert_eq!(umpire.possible_natures(black(File::B)), set("N"));
}

#[test]
fn a_promoted_man_has_an_unknown_nature_outside_the_counts() {
    let mut umpire = Umpire::new();
    play(
        &mut umpire,
        "b1c3 h7h6 g1f3 h6h5 a2a4 g7g6 a4a5 g6g5 a5a6 e7e6 a6b7 e6e5 b7a8",
    );
    let pawn = ManId::pawn(Color::White, File::A);
    assert_eq!(umpire.possible_natures(pawn), NatureSet::PROMOTED);
    assert!(
        !umpire
            .possible_natures(ManId::back_rank(Color::Black, File::A))
            .contains(Nature::King)
    );
    play(&mut umpire, "d7d6");
    // Both back-rank knights are known, yet the promoted man may jump like a third knight.
    assert_eq!(umpire.judge(mv("a8c7")), Judgement::Legal);
    play(&mut umpire, "a8c7");
    assert_eq!(umpire.possible_natures(pawn), set("N"));
}

#[test]
fn moves_a_pawn_cannot_make_are_refused() {
    let mut umpire = Umpire::new();
    assert_eq!(
        umpire.judge(mv("e2e5")),
        Judgement::Illegal(Refusal::NoNature)
    );
    assert_eq!(
        umpire.judge(mv("e2d3")),
        Judgement::Illegal(Refusal::NoNature)
    );
    assert_eq!(
        umpire.judge(mv("e7e5")),
        Judgement::Illegal(Refusal::NotYourMan)
    );
    assert_eq!(
        umpire.judge(mv("e1e2")),
        Judgement::Illegal(Refusal::OwnMan)
    );
    // No back-rank man can move at all before a pawn does, except the two knights.
    assert_eq!(umpire.judge(mv("b1c3")), Judgement::Legal);
    assert_eq!(umpire.judge(mv("c1d3")), Judgement::Legal);
    assert_eq!(
        umpire.judge(mv("c1e3")),
        Judgement::Illegal(Refusal::NoNature)
    );
}
