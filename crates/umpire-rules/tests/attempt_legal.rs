//! `Umpire::attempt_legal` judges a legal move exactly as `Umpire::attempt` judges its attempt:
//! the same outcome, and an umpire that answers what follows the same way, at every turn of
//! random games under every rule set, after "Any?" and rejected attempts as well as at a turn's
//! start.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::{Attempt, AttemptList, Command, RuleSetId, Umpire, Verdict};

/// Every legal move of `umpire`, judged both ways in copies; returns how many were accepted.
fn compare_every_move(umpire: &Umpire, id: RuleSetId, list: &mut AttemptList) -> usize {
    let mut accepted = 0;
    for m in umpire.legal_moves() {
        let Some(a) = Attempt::from_move(&m) else {
            continue;
        };
        let (mut fast, mut full) = (umpire.clone(), umpire.clone());
        let (out_fast, out_full) = (fast.attempt_legal(&m), full.attempt(a));
        assert_eq!(out_fast, out_full, "{id}: {m:?} in {:?}", umpire.position());
        accepted += usize::from(out_full.verdict == Verdict::Accepted);
        assert_eq!(fast.position(), full.position(), "{id}: {m:?}");
        assert_eq!(fast.plies(), full.plies(), "{id}: {m:?}");
        assert_eq!(fast.result(), full.result(), "{id}: {m:?}");
        assert_eq!(fast.must_try_pawn_capture(), full.must_try_pawn_capture());
        // What follows is answered alike: the options, "Any?" and every attempt possible.
        list.clear();
        let ask_fast = fast.mover_options(list);
        let options: Vec<Attempt> = list.to_vec();
        list.clear();
        assert_eq!(ask_fast, full.mover_options(list), "{id}: {m:?}");
        assert_eq!(options, list.to_vec(), "{id}: {m:?}");
        for &next in options.iter().take(6) {
            let (mut f, mut g) = (fast.clone(), full.clone());
            assert_eq!(
                f.submit(Command::Attempt(next)),
                g.submit(Command::Attempt(next)),
                "{id}: {m:?} then {next:?}"
            );
        }
        assert_eq!(fast.submit(Command::AskAny), full.submit(Command::AskAny));
        // The outcome shown to a caller that throws it away is the same; its answer returned.
        let mut shown = None;
        assert!(!umpire.clone().attempt_legal_if(&m, |out| {
            shown = Some(out.clone());
            false
        }));
        assert_eq!(shown.as_ref(), Some(&out_full), "{id}: {m:?}");
    }
    accepted
}

#[test]
fn attempt_legal_judges_as_attempt_does() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut list = AttemptList::new();
    let (mut states, mut accepted, mut refused) = (0usize, 0usize, 0usize);
    for id in RuleSetId::ALL {
        for _ in 0..4 {
            let mut umpire = Umpire::new(*id.rules());
            for _ in 0..600 {
                if umpire.is_over() {
                    break;
                }
                let legal = umpire.legal_moves().len();
                let a = compare_every_move(&umpire, id, &mut list);
                states += 1;
                accepted += a;
                refused += legal - a.min(legal);
                // On with a random command of the mover's: "Any?" now and then, rejections often.
                list.clear();
                let may_ask = umpire.mover_options(&mut list);
                let command = if may_ask && rng.random_range(0..6) == 0 || list.is_empty() {
                    Command::AskAny
                } else {
                    Command::Attempt(list[rng.random_range(0..list.len())])
                };
                umpire.submit(command);
            }
        }
    }
    // Both paths were exercised: moves accepted and legal moves refused (an obligation to try
    // pawn captures, an underpromotion where every promotion is to a queen).
    assert!(states > 1000, "{states} states");
    assert!(
        accepted > 10_000 && refused > 100,
        "{accepted} accepted, {refused} refused"
    );
}
