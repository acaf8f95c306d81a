//! In random games under every rule set, from the standard start and from set-up positions:
//! the true position is always in the exact set and admitted by the metaposition; the exact
//! filter never hides a legal move, and hides everything the sound rule filters hide.

mod common;

use umpire_belief::{LegalUnion, Metaposition};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess};
use umpire_rules::{Attempt, AttemptList, RuleSet};
use umpire_view::guided::{FilterSet, GuidedSpace};

/// Plays one game and checks every property after every observation; returns how many
/// observations found the set exact.
fn check_game(rules: RuleSet, start: Chess, seed: u64, plies: u32) -> usize {
    check_game_bounded(rules, start, seed, plies, 30_000)
}

/// [`check_game`] with the belief's bound given.
fn check_game_bounded(rules: RuleSet, start: Chess, seed: u64, plies: u32, bound: usize) -> usize {
    check_game_as(rules, start, seed, plies, bound, false)
}

/// [`check_game_bounded`], with guided-random play when `guided`.
fn check_game_as(
    rules: RuleSet,
    start: Chess,
    seed: u64,
    plies: u32,
    bound: usize,
    guided: bool,
) -> usize {
    let mut exact_checks = 0;
    common::play_as(
        rules,
        start,
        seed,
        plies,
        bound,
        guided,
        &mut |belief, view, umpire, _| {
            let truth = umpire.position();
            assert!(
                belief.held() > 0 || !belief.is_exact(),
                "{}: an empty belief called exact",
                rules.id
            );
            if !belief.is_exact() {
                return;
            }
            exact_checks += 1;
            let ply = umpire.plies();
            assert!(
                belief.contains(truth),
                "{} seed {seed}: the true position is missing from {:?}'s exact set of {} at ply {ply}",
                rules.id,
                belief.side(),
                belief.size(),
            );
            let meta = Metaposition::of(belief).expect("a non-empty belief");
            assert!(
                meta.admits(truth),
                "{} seed {seed}: metaposition at ply {ply}",
                rules.id
            );
            if !view.is_my_turn() || umpire.is_over() {
                return;
            }
            let union = LegalUnion::of(belief);
            for m in umpire.legal_moves() {
                let a = Attempt::from_move(&m).unwrap();
                assert!(
                    union.may_be_legal(a),
                    "{} seed {seed}: {a} hidden at ply {ply}",
                    rules.id
                );
            }
            // Whatever a sound rule filter hides, the exact filter hides too.
            let mut own = AttemptList::new();
            view.options(&mut own);
            let mut guided = AttemptList::new();
            GuidedSpace::new(view, FilterSet::all_sound()).options(&mut guided);
            for a in own.iter().filter(|a| !guided.contains(a)) {
                assert!(
                    !union.may_be_legal(*a),
                    "{} seed {seed}: a sound rule filter hides {a}, which is legal in a consistent position (ply {ply})",
                    rules.id
                );
            }
        },
    );
    exact_checks
}

#[test]
fn every_property_holds_under_every_rule_set() {
    for rules in common::all_rules() {
        let mut checks = 0;
        for seed in 0..3 {
            checks += check_game(rules, Chess::default(), seed, 8);
        }
        assert!(checks > 20, "{}: only {checks} exact checks", rules.id);
    }
}

#[test]
fn guided_random_games_under_every_rule_set() {
    // Guided-random play avoids the attempts a sound filter hides: its games reach other
    // positions (fewer rejections, more moves) than uniform play.
    for rules in common::all_rules() {
        let mut checks = 0;
        checks += check_game_as(rules, Chess::default(), 100, 9, 30_000, true);
        assert!(checks > 5, "{}: only {checks} exact checks", rules.id);
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
            check_game(rules, start.clone(), 7, 12);
        }
    }
}

#[test]
fn tiny_bounds_sample_repair_and_never_claim_exactness_wrongly() {
    // Bound 3: the set is sampled from the first moves on, samples die and are repaired; the
    // checks above still hold whenever the belief says it is exact.
    for rules in [RuleSet::WILD16, RuleSet::BERKELEY_ANY, RuleSet::RAND] {
        for seed in 0..3 {
            check_game_bounded(rules, Chess::default(), seed, 16, 3);
        }
    }
    // Longer games with a small bound: witnesses are compacted while a checkpoint is held, and
    // repairs restart from it.
    for seed in 0..4 {
        check_game_bounded(RuleSet::WILD16, Chess::default(), seed, 60, 40);
    }
}

/// Long runs: more games and plies (`UMPIRE_LONG_TESTS=1`).
#[test]
fn long_random_games() {
    if std::env::var_os("UMPIRE_LONG_TESTS").is_none() {
        return;
    }
    for rules in common::all_rules() {
        for seed in 10..30 {
            check_game(rules, Chess::default(), seed, 14);
            check_game_as(rules, Chess::default(), seed, 14, 100_000, true);
        }
    }
}
