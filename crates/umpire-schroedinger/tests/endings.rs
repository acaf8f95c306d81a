//! Game endings, decided over all consistent worlds, on games found by random play (seeded
//! search with `RandomPlayer`); each ending is checked against the brute-force enumeration:
//! no consistent world leaves the side to move a legal move, and the side is in check in every,
//! no, or only some consistent worlds.

use umpire_schroedinger::brute::BruteForce;
use umpire_schroedinger::shakmaty::Color;
use umpire_schroedinger::{EndReason, Ending, Judgement, Move, Refusal, Umpire};

const CHECKMATE: &str = concat!(
    "g2g3 d7d5 e1g2 b8a6 f1e1 a6b4 d2d3 f7f6 e2e4 f8d7 h2h3 b7b6 c1e3 d5d4 h3h4 b4d3 d1d2 ",
    "a8c6 b1d1 e8f8 g2f4 f8f7 b2b4 c6c5 f4d3 g8f8 a1b3 c8a8 b4c5 f8e8 e3g5 f7e6 g5d5"
);

const STALEMATE: &str = concat!(
    "g2g4 e7e6 h1f3 c8b6 d1c3 g8h6 d2d3 e8e7 f3f4 b6a4 c3e4 f7f5 c2c4 e7h4 c4c5 a4b2 b1d2 ",
    "f8g8 e2e3 h6f7 f4f3 h4h5 d3d4 d8e7 f1h3 h5h3 g4f5 a7a6 g1g4 h7h6 c1c4 e6f5 g4g3 e7e6 ",
    "f3d1 b7b5 d4d5 e6e5 e4d6 g7g5 d6b7 f7d6 d1c2 b5c4 b7d8 h8f6 d2c4 b2c4 a1b1 c4b6 c5b6 ",
    "h3g2 b6c7 f5f4 c2c6 g8g7 g3h3 f4e3 d8e6 d6f7 a2a4 d7d6 c7c8 a8a7 h3f3 h6h5 e6c7 b8c7 ",
    "c8e6 g2f1 c6c1 f6e7 c1a3 c7b6 f3f6 e3f2 a3f3 f1e1 b1a2 a6a5 f3e3 b6e3 a2b3 e5e4 e6h3 ",
    "f7e5 b3b2 h5h4 f6d6 e3d4 b2a2 e7f6 h3c8 e5d3 d6b6 g7c7 h2h3 d4b6 d5d6 a7a6 c8b7 e4e3 ",
    "b7c8 c7b7 a2b3 e1e2 b3c4 f6h8 c4b3 e2d2 c8f5 d2b4 b3c2 b4d6 c2b3 b6c5 b3c4 d3c1 f5e4 ",
    "e3e4"
);

const UNPROVEN_MATE: &str = concat!(
    "h1g3 h7h6 b1c3 f8g6 g3h1 g6f8 f2f4 a7a5 e1f2 d8e6 f2e3 e6d8 c1b1 c7c6 b2b4 b7b6 b4b5 ",
    "f8e6 g2g4 c8c7 d1c1 f7f5 h2h4 b8b7 f1f3 c7d6 c1d1 d6c5 e3f2 e6c7 c3d5 g8f8 g1h2 e7e5 ",
    "h2g2 c5f2 f3d3 d8f7 g2g1 c7e6 d3d4 f2h4 a1c3 h4e7 d5c7 e6f4 d2d3 f7g5 c3a1 f4h5 a2a3 ",
    "h5f6 d4a4 e7a3 c7e8 a3c3 b1b4 c3e1 d1e1 c6c5 a1c3 g5h7 g1g2 h8g8 e1d2 g7g6 a4a1 f6e4 ",
    "g2e4 g8g7 a1c1 h7f6 e4c4 f8e7 h1g3 f6g8 c4a2 e5e4 g3h5 e7f8 g4g5 g8e7 d2d1 b7a7 b4c4 ",
    "a7c7 c3f6 f8e8 a2a1 e7c6 a1a3 c7c8 d3e4 c8c7 c1a1 d7d5 a3d3 g7h7 c4a4 d5e4 f6e5 c7b7 ",
    "e5c7 c6e7 h5f4 e7d5 c2c3 d5e7 d3b1 e7d5 c7d8 c5c4 f4g6 e8f7 d8f6 f5f4 g6f8 h6g5 a1a3 ",
    "b7d7 d1c2 h7h8 a3b3 a8b7 c2d2 f7f6 b1h1 d7c7 h1d1 d5c3 d1b1 g5g4 a4a1 c3d5 b3b4 f6e7 ",
    "a1a3 a5b4 d2c2 h8h2 b1c1 c7c8 c1a1 g4g3 a1g7 e7d8 a3c3 h2h4 c3a3 c8b8 e2e3 h4h7 f8e6 ",
    "d8c8 c2b1 b7c6 g7g6 c6a8 a3a5 h7a7 e6f8 a8b7 b1a1 d5f6 a5a7 f6g4 f8e6 c4c3 a7a5 g4e5 ",
    "a1b1 e5c6 b1c2 c6a5 e3f4 b7c6 e6g5 e4e3 g6h6 c8d8 h6h4 b8c8 c2c1 d8d7 g5f3 d7e8 f3d2 ",
    "c8d8 d2f1 e8f7 f4f5 d8h8 h4g4 h8h5 g4e4 h5h7 e4f4 h7h1 f4e4 g3g2 c1c2 b4b3 c2d3 c6e4 ",
    "d3e3 h1h5 f5f6 h5e5 e3d4 f7g6 f1e3 g6h5 f6f7 e4d5 e3g4 d5e4 g4h2 e5d5 d4e4 c3c2 e4e3 ",
    "h5g6 e3f3 d5d6 f3e2 a5c4 e2f2 d6d4 f2e1 b3b2 h2f1 g6f7 e1f2 d4d3 f1g3 c4e3 g3h5 d3d4 ",
    "f2f3 f7f8 f3e2 f8f7 e2e1 e3d1 h5g3 d4e4 g3e4 b2b1 e4c3 f7f6 c3a4 f6e6 e1e2 e6d5 e2e1 ",
    "b1c1 a4c5 d1c3 e1f2 d5d4 f2f3 c3d5 c5d3 c1f1 d3f2 d5c3 f3g4 f1c1 f2h1 c1f4 g4h5 c3e2 ",
    "h5g6 f4f5 g6g7 f5f3 g7h8 d4d5 h8g8 e2c3 h1f2 f3f4 g8h8 c3d1 h8g7 d1e3 f2g4 f4f3 g4e3 ",
    "d5e4 g7g6 f3f5 g6g7 f5g5 g7f7 e4e3 f7f8 g5h5 f8g7 e3e4 g7g8 c2c1 g8g7 c1f1 g7g8 f1f7"
);

/// Plays `moves` on both umpires; every move but none after the last must be legal.
fn replay(moves: &str) -> (Umpire, BruteForce) {
    let mut umpire = Umpire::new();
    let mut brute = BruteForce::new();
    for text in moves.split_whitespace() {
        let mv: Move = text.parse().expect("fixture moves are well formed");
        assert_eq!(umpire.ending(), None, "the game ended before {text}");
        assert_eq!(umpire.play(mv), Judgement::Legal, "{text}");
        assert!(brute.play(mv), "brute force: {text}");
    }
    (umpire, brute)
}

fn check_ending(moves: &str, expected: Ending, (checked, safe): (bool, bool)) {
    let (mut umpire, brute) = replay(moves);
    assert_eq!(umpire.ending(), Some(expected));
    assert!(
        brute.legal_moves().is_empty(),
        "the brute force finds a legal move"
    );
    assert_eq!(brute.check_somewhere(), (checked, safe));
    let mut legal = Vec::new();
    umpire.legal_moves(&mut legal);
    assert!(legal.is_empty());
    // Nothing more is played once the game is over.
    let any = brute
        .board()
        .men(brute.board().turn())
        .next()
        .map(|(_, sq)| sq);
    if let Some(from) = any {
        let to = if from == umpire_schroedinger::shakmaty::Square::A1 {
            umpire_schroedinger::shakmaty::Square::A2
        } else {
            umpire_schroedinger::shakmaty::Square::A1
        };
        assert_eq!(
            umpire.play(Move { from, to }),
            Judgement::Illegal(Refusal::GameOver)
        );
    }
}

#[test]
fn checkmate_in_every_world() {
    let plies = CHECKMATE.split_whitespace().count();
    let winner = if plies % 2 == 1 {
        Color::White
    } else {
        Color::Black
    };
    check_ending(
        CHECKMATE,
        Ending {
            winner: Some(winner),
            reason: EndReason::Checkmate,
        },
        (true, false),
    );
}

#[test]
fn stalemate_in_every_world() {
    check_ending(
        STALEMATE,
        Ending {
            winner: None,
            reason: EndReason::Stalemate,
        },
        (false, true),
    );
}

#[test]
fn no_move_but_check_only_in_some_worlds_is_a_draw() {
    check_ending(
        UNPROVEN_MATE,
        Ending {
            winner: None,
            reason: EndReason::UnprovenMate,
        },
        (true, true),
    );
}

#[test]
fn a_resignation_ends_the_game() {
    let mut umpire = Umpire::new();
    assert_eq!(umpire.play("e2e4".parse().expect("move")), Judgement::Legal);
    umpire.resign();
    assert_eq!(
        umpire.ending(),
        Some(Ending {
            winner: Some(Color::White),
            reason: EndReason::Resignation,
        })
    );
}
