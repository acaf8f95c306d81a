//! The true position is always among the positions a player cannot rule out, in random games
//! under every rule set, from the standard start and from set-up positions.

mod common;

use umpire_rules::shakmaty::{CastlingMode, Chess, fen::Fen};

fn truth_always_held(rules: umpire_rules::RuleSet, start: Chess, seed: u64, plies: u32) -> usize {
    let mut checks = 0;
    common::play(
        rules,
        start,
        seed,
        plies,
        200_000,
        &mut |belief, umpire, _| {
            if belief.is_exact() {
                assert!(
                    belief.contains(umpire.position()),
                    "{} seed {seed}: the true position is missing from {:?}'s exact set of {} after ply {}",
                    rules.id,
                    belief.side(),
                    belief.size(),
                    umpire.plies()
                );
                checks += 1;
            }
            assert!(belief.held() > 0, "{}: an empty belief", rules.id);
        },
    );
    checks
}

#[test]
fn the_true_position_is_in_the_exact_set_under_every_rule_set() {
    for rules in common::all_rules() {
        let mut checks = 0;
        for seed in 0..3 {
            checks += truth_always_held(rules, Chess::default(), seed, 10);
        }
        assert!(checks > 30, "{}: only {checks} exact checks", rules.id);
    }
}

#[test]
fn set_up_positions_are_handled() {
    let fens = [
        // Rooks and pawns, castling rights on both sides, Black to move.
        "r3k2r/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/R3K2R b KQkq - 0 1",
        // An e.p. capture available at once.
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        // Promotions close.
        "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    ];
    for fen in fens {
        let setup: Fen = fen.parse().unwrap();
        let start: Chess = setup.into_position(CastlingMode::Standard).unwrap();
        for rules in common::all_rules() {
            truth_always_held(rules, start.clone(), 7, 14);
        }
    }
}
