//! Safe play: the Monte Carlo agent does not give a man for a pawn on a defended square.
//!
//! The positions are set up from the game of issue 28 (a blind queen raid by White took both
//! Black rooks; then `21...Qxf2+ 22.Rxf2`): White has castled (king g1, rook f1, pawns f2 g2
//! h2), Black's man can take the pawn on f2 with check or not. A set-up start is public, so
//! Black's belief holds the position: the same knowledge the announcements of the game had made
//! likely (the rook on f1 after castling), here made certain.

use umpire_ai::mcts::{MctsAgent, MctsConfig};
use umpire_ai::{Agent, Budget, setup_view};
use umpire_rules::shakmaty::{Color, Square};
use umpire_rules::{Command, RuleSet};

use umpire_testkit::pos;

/// The moves of Black's Monte Carlo agent in `fen` over a few seeds, at `nodes` per decision.
fn choices(fen: &str, nodes: u64) -> Vec<(Square, Square)> {
    let start = pos(fen);
    (0..4)
        .map(|seed| {
            let config = MctsConfig {
                budget: Budget::Nodes(nodes),
                ..MctsConfig::default()
            };
            let view = setup_view(RuleSet::WILD16, &start, Color::Black);
            let mut agent = MctsAgent::new(view, seed, Some(start.clone()), config);
            match agent.choose() {
                Command::Attempt(a) => (a.from, a.to),
                other => panic!("seed {seed}: {other:?}"),
            }
        })
        .collect()
}

fn never_takes_f2(fen: &str) {
    for nodes in [50, 400] {
        for (from, to) in choices(fen, nodes) {
            assert!(to != Square::F2, "{fen}: {from}{to} at {nodes} nodes");
        }
    }
}

#[test]
fn the_queen_does_not_check_into_the_castled_rook() {
    never_takes_f2("6k1/5ppp/8/8/3q4/8/2Q2PPP/5RK1 b - - 0 21");
}

#[test]
fn the_rook_does_not_take_a_defended_pawn() {
    never_takes_f2("6k1/5ppp/8/8/5r2/8/2Q2PPP/5RK1 b - - 0 21");
}

#[test]
fn the_knight_does_not_take_a_defended_pawn() {
    never_takes_f2("6k1/5ppp/8/8/4n3/8/2Q2PPP/5RK1 b - - 0 21");
}
