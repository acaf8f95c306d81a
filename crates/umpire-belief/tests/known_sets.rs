//! Hand-built histories whose consistent sets are known, and a brute-force oracle: every
//! sequence of opponent moves replayed through the umpire, kept when the player would have
//! heard exactly what it heard.

use std::collections::HashSet;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::Belief;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, EnPassantMode};
use umpire_rules::{AttemptList, Command, Observation, RuleSet, Umpire};

fn position(fen: &str) -> Chess {
    let setup: Fen = fen.parse().unwrap();
    setup.into_position(CastlingMode::Standard).unwrap()
}

/// Plays UCI moves (all legal) and feeds `side`'s belief.
fn belief_after(rules: RuleSet, side: Color, moves: &[&str]) -> (Belief, Umpire) {
    let mut umpire = Umpire::new(rules);
    let mut belief = Belief::standard(rules, side);
    for m in moves {
        let command = Command::Attempt(m.parse().unwrap());
        let out = umpire.submit(command);
        if let Some(obs) = out.observation(command, side) {
            belief.observe(&obs).unwrap();
        }
    }
    (belief, umpire)
}

fn fens(belief: &Belief) -> HashSet<String> {
    belief
        .positions()
        .map(|p| Fen::from_position(p, EnPassantMode::Legal).to_string())
        .collect()
}

#[test]
fn after_1_e4_black_cannot_rule_out_any_first_move() {
    let (belief, _) = belief_after(RuleSet::WILD16, Color::Black, &["e2e4"]);
    assert!(belief.is_exact());
    assert_eq!(belief.size(), 20);
}

#[test]
fn a_try_announcement_places_the_enemy_pawn() {
    // 1.e4 d5: White hears "1 try": a black man stands on d5 or f5, and only a pawn got there.
    let (belief, umpire) = belief_after(RuleSet::WILD16, Color::White, &["e2e4", "d7d5"]);
    assert_eq!(belief.size(), 2);
    assert!(belief.contains(umpire.position()));
    let f5 = position("rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 2");
    assert!(belief.contains(&f5));
}

#[test]
fn a_capture_announcement_with_the_tries_known_before() {
    // 1.e4 d5 2.exd5: White's "1 try", announced to both after ...d5, tells Black that a white
    // pawn attacks d5 (1.c4 or 1.e4); the capture on d5 leaves both.
    let (belief, umpire) = belief_after(RuleSet::WILD16, Color::Black, &["e2e4", "d7d5", "e4d5"]);
    assert!(belief.contains(umpire.position()));
    let by_c = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PP1PPPPP/RNBQKBNR b KQkq - 0 2";
    let by_e = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2";
    assert_eq!(
        fens(&belief),
        HashSet::from([by_c.to_owned(), by_e.to_owned()])
    );
}

#[test]
fn the_capturer_of_a_capture_is_reduced_to_the_men_that_reach_the_square() {
    // The white pawn has captured on d5 (it was the only try): its own capture tells White the
    // black pawn came from d7.
    let (belief, _) = belief_after(RuleSet::WILD16, Color::White, &["e2e4", "d7d5", "e4d5"]);
    assert_eq!(belief.size(), 1);
}

#[test]
fn a_rejected_attempt_proves_a_square_attacked() {
    // Black's rook on h3 moved quietly (a check would have been announced); White's Kf2 is then
    // rejected: the rook attacks f2, so it stands on f3 or h2.
    let start = position("7k/8/8/8/8/7r/8/4K3 b - - 0 1");
    let rules = RuleSet::WILD16;
    let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let mut belief = Belief::new(rules, start, Color::White, Default::default()).unwrap();
    for (m, accepted) in [("h3f3", true), ("e1f2", false)] {
        let command = Command::Attempt(m.parse().unwrap());
        let out = umpire.submit(command);
        assert_eq!(out.is_accepted(), accepted, "{m}");
        belief
            .observe(&out.observation(command, Color::White).unwrap())
            .unwrap();
    }
    let f3 = "7k/8/8/8/8/5r2/8/4K3 w - - 1 2";
    let h2 = "7k/8/8/8/8/8/7r/4K3 w - - 1 2";
    assert_eq!(fens(&belief), HashSet::from([f3.to_owned(), h2.to_owned()]));
}

#[test]
fn a_check_of_a_known_kind_places_the_checker() {
    // Black's rook from h8: a rank check on the white king on a1 means it went to h1, a file
    // check that it went to a8.
    let start = position("7r/8/6k1/8/8/8/8/K7 b - - 0 1");
    for (m, line) in [("h8h1", "rank"), ("h8a8", "file")] {
        let rules = RuleSet::WILD16;
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let mut belief =
            Belief::new(rules, start.clone(), Color::White, Default::default()).unwrap();
        let command = Command::Attempt(m.parse().unwrap());
        let out = umpire.submit(command);
        belief
            .observe(&out.observation(command, Color::White).unwrap())
            .unwrap();
        assert_eq!(belief.size(), 1, "{line}");
        assert!(belief.contains(umpire.position()));
    }
}

/// The brute-force oracle: every sequence of opponent moves (rejections are silent under
/// wild16), replayed with the player's own commands, kept when every observation matches.
fn oracle(
    rules: RuleSet,
    start: Chess,
    transcript: &[Observation],
    side: Color,
) -> HashSet<String> {
    fn go(umpire: Umpire, rest: &[Observation], side: Color, out: &mut HashSet<String>) {
        let Some((obs, tail)) = rest.split_first() else {
            out.insert(Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string());
            return;
        };
        if obs.actor == side {
            let command = obs.own.unwrap().command;
            let mut next = umpire.clone();
            let o = next.submit(command);
            if o.observation(command, side).as_ref() == Some(obs) {
                go(next, tail, side, out);
            }
        } else {
            for m in umpire.legal_moves() {
                let command = Command::Attempt(umpire_rules::Attempt::from_move(&m).unwrap());
                let mut next = umpire.clone();
                let o = next.submit(command);
                if o.observation(command, side).as_ref() == Some(obs) {
                    go(next, tail, side, out);
                }
            }
        }
    }
    let mut out = HashSet::new();
    go(
        Umpire::from_position(rules, start).unwrap(),
        transcript,
        side,
        &mut out,
    );
    out
}

#[test]
fn the_exact_set_equals_brute_force_over_short_random_games() {
    use rand::RngExt;
    for seed in 0..12u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut umpire = Umpire::new(RuleSet::WILD16);
        let side = if seed % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut belief = Belief::standard(RuleSet::WILD16, side);
        let mut list = AttemptList::new();
        while umpire.plies() < 5 && !umpire.is_over() {
            list.clear();
            umpire.mover_options(&mut list);
            let command = Command::Attempt(list[rng.random_range(0..list.len())]);
            let out = umpire.submit(command);
            if let Some(obs) = out.observation(command, side) {
                belief.observe(&obs).unwrap();
            }
        }
        let expected = oracle(RuleSet::WILD16, Chess::default(), belief.transcript(), side);
        assert!(belief.is_exact());
        assert_eq!(fens(&belief), expected, "seed {seed}");
    }
}

/// White shuffles its rook between a1 and a2 (`shuffles` times, then plays Rb1 and shuffles on)
/// while the lone black king walks at random: the real game may end by threefold repetition,
/// and histories in which the repetition would have ended the game earlier (or not at all)
/// must be ruled out. The exact set equals the brute force over every black king walk.
#[test]
fn threefold_repetition_is_tracked_exactly() {
    use rand::RngExt;
    let start = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut repetitions = 0;
    for seed in 0..10u64 {
        for rules in [RuleSet::WILD16, RuleSet::ENGLISH] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
            let mut belief =
                Belief::new(rules, start.clone(), Color::White, Default::default()).unwrap();
            let rook = ["a1a2", "a2a1"];
            let mut k = 0;
            let mut last: Option<umpire_rules::Attempt> = None;
            while umpire.plies() < 12 && !umpire.is_over() {
                let command = if umpire.turn() == Color::White {
                    k += 1;
                    Command::Attempt(rook[(k - 1) % 2].parse().unwrap())
                } else {
                    // The black king: back where it came from (two times in three), or anywhere.
                    let moves = umpire.legal_moves();
                    let m = &moves[rng.random_range(0..moves.len())];
                    let any = umpire_rules::Attempt::from_move(m).unwrap();
                    let back = last.map(|a| umpire_rules::Attempt::new(a.to, a.from));
                    let a = match back {
                        Some(b) if rng.random_range(0..3) < 2 => b,
                        _ => any,
                    };
                    last = Some(a);
                    Command::Attempt(a)
                };
                let out = umpire.submit(command);
                assert!(out.is_accepted());
                if let Some(obs) = out.observation(command, Color::White) {
                    belief.observe(&obs).unwrap();
                }
            }
            if umpire
                .result()
                .is_some_and(|r| r.reason == umpire_rules::EndReason::ThreefoldRepetition)
            {
                repetitions += 1;
            }
            let expected = oracle(rules, start.clone(), belief.transcript(), Color::White);
            assert!(belief.contains(umpire.position()), "seed {seed}");
            assert!(belief.is_exact());
            assert_eq!(fens(&belief), expected, "{} seed {seed}", rules.id);
        }
    }
    assert!(
        repetitions > 0,
        "no game ended by repetition: the test proves nothing"
    );
}

#[test]
fn a_rejected_attempt_proves_a_square_occupied() {
    // Black moves its king or its a-pawn one or two squares. White's Ra6 is rejected only if
    // the pawn blocks the a-file on a5 (proving a5 occupied); it captures on a6; and after a
    // king move it is quiet, which leaves the five king moves.
    let start = position("4k3/p7/8/8/8/8/8/R3K3 b - - 0 1");
    let rules = RuleSet::WILD16;
    for (black, accepted, want) in [("a7a5", false, 1), ("a7a6", true, 1), ("e8d8", true, 5)] {
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let mut belief =
            Belief::new(rules, start.clone(), Color::White, Default::default()).unwrap();
        for m in [black, "a1a6"] {
            let command = Command::Attempt(m.parse().unwrap());
            let out = umpire.submit(command);
            belief
                .observe(&out.observation(command, Color::White).unwrap())
                .unwrap();
        }
        assert_eq!(umpire.plies() == 2, accepted, "{black}");
        assert!(belief.is_exact());
        assert!(belief.contains(umpire.position()), "{black}");
        assert_eq!(belief.size(), want, "{black}");
        if !accepted {
            assert_eq!(
                fens(&belief),
                HashSet::from(["4k3/8/8/p7/8/8/8/R3K3 w - - 0 2".to_owned()])
            );
        }
    }
}
