//! White's knowledge from a game record, checked against an independent brute force (every
//! full position consistent with what White heard, replayed with the `umpire-rules` umpire),
//! while White plays by the table from that knowledge and Black replies at random: the game
//! ends in mate within the distance the table promised at the start.

mod common;

use common::{kbnk_full, kqk, krk};
use shakmaty::{Bitboard, Color, Position};
use umpire_rules::record::Entry;
use umpire_rules::{Attempt, Command, Game, Outcome, RuleSet, Umpire, Verdict};
use umpire_tablebase::{Layout, Tablebase, squares_text, white_knowledge};

/// What White hears of one outcome.
fn heard_by_white(o: &Outcome) -> (Verdict, Vec<umpire_rules::Announcement>) {
    (o.verdict, o.heard_by(Color::White).collect())
}

/// Every full position (White's men known, the black king anywhere legal) consistent with
/// what White heard in `entries`; the black-king squares of those positions.
fn brute_force(start: Layout, entries: &[Entry]) -> u64 {
    let mut candidates: Vec<Umpire> = shakmaty::Square::ALL
        .into_iter()
        .filter_map(|bk| Umpire::from_fen(RuleSet::WILD16, &start.fen(bk)).ok())
        .collect();
    for e in entries {
        let truth = heard_by_white(&e.outcome());
        let mut next = Vec::new();
        match e.side {
            Color::White => {
                for mut u in candidates {
                    if heard_by_white(&u.submit(e.command)) == truth {
                        next.push(u);
                    }
                }
            }
            Color::Black => {
                for u in &candidates {
                    for m in u.legal_moves() {
                        let mut after = u.clone();
                        let a = Attempt::new(m.from().expect("king move"), m.to());
                        if heard_by_white(&after.submit(Command::Attempt(a))) == truth {
                            next.push(after);
                        }
                    }
                }
            }
        }
        // White's men are the same in every candidate: one per black-king square.
        next.sort_by_key(|u| u.position().board().king_of(Color::Black));
        next.dedup_by_key(|u| u.position().board().king_of(Color::Black));
        candidates = next;
    }
    candidates
        .iter()
        .map(|u| Bitboard::from_square(u.position().board().king_of(Color::Black).unwrap()).0)
        .fold(0, |a, b| a | b)
}

/// Plays one game from `layout` with the black king on `bk`; returns the moves White needed.
/// The distance White's knowledge has in the table falls by at least one with every White
/// move (and never rises after an illegal attempt). Unless `unmodelled_draws` allows the
/// `wild16` automatic draws the tables do not model (fifty moves, threefold repetition of the
/// true position), the game must end in mate within the distance promised at the start.
fn play(
    table: &Tablebase,
    layout: Layout,
    bk: shakmaty::Square,
    seed: u64,
    unmodelled_draws: bool,
) -> u32 {
    let mut game = Game::from_fen(RuleSet::WILD16, &layout.fen(bk)).unwrap();
    let mut rng = seed | 1;
    let mut promised = None;
    let mut white_moves = 0;
    let mut plies = 0;
    let mut bound: Option<u8> = None;
    while game.result().is_none() {
        if game.umpire().turn() == Color::White {
            let view = game.record().player_view(Color::White).unwrap();
            let k = white_knowledge(&view, 0, false, plies).unwrap();
            assert!(k.exact);
            let truth = game
                .umpire()
                .position()
                .board()
                .king_of(Color::Black)
                .unwrap();
            let brute = brute_force(layout, &game.record().entries);
            assert_eq!(
                k.set,
                brute,
                "{} ply {plies}: knowledge {{{}}} brute force {{{}}}",
                k.layout,
                squares_text(k.set),
                squares_text(brute)
            );
            assert!(Bitboard(k.set).contains(truth));
            let probe = table.probe(k.layout, k.set).unwrap();
            let d = probe.distance.expect("a forced mate");
            promised.get_or_insert(d);
            if let Some(bound) = bound {
                assert!(d <= bound, "distance {d} after a bound of {bound}");
            }
            let out = game.submit(Command::Attempt(probe.best[0]));
            if out.verdict == Verdict::Accepted {
                white_moves += 1;
                plies += 1;
                bound = Some(d.saturating_sub(1));
            } else {
                bound = Some(d);
            }
        } else {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let moves = game.umpire().legal_moves();
            let m = &moves[(rng % moves.len() as u64) as usize];
            let out = game.submit(Command::Attempt(Attempt::new(m.from().unwrap(), m.to())));
            assert_eq!(out.verdict, Verdict::Accepted);
            plies += 1;
        }
    }
    let result = game.result().unwrap();
    use umpire_rules::EndReason::{Checkmate, FiftyMoves, ThreefoldRepetition};
    if unmodelled_draws && matches!(result.reason, FiftyMoves | ThreefoldRepetition) {
        return white_moves;
    }
    assert_eq!(result.reason, Checkmate, "{result}");
    assert!(white_moves <= u32::from(promised.unwrap()));
    white_moves
}

#[test]
fn following_the_table_from_white_knowledge_mates_random_defenders() {
    use shakmaty::Role;
    use shakmaty::Square::*;
    let krk_start = Layout::krk(E1, A1).unwrap();
    let kqk_start = Layout::new(D1, &[(Role::Queen, H1)]).unwrap();
    for (table, start, squares) in [
        (krk(), krk_start, [E5, H8, C6, G4]),
        (kqk(), kqk_start, [E5, A5, B8, F6]),
    ] {
        for (i, bk) in squares.into_iter().enumerate() {
            let moves = play(table, start, bk, 7 + i as u64, false);
            assert!(moves >= 1);
        }
    }
}

/// KBNK from White's knowledge (builds the complete KBNK table, about 31 s):
/// `cargo test --release -p umpire-tablebase -- --ignored`. White starts knowing nothing of the
/// black king: the blind mate from Ka1 Nb1 Bc1 takes up to 76 moves, beyond the fifty-move rule
/// the `wild16` umpire applies, so such a draw is allowed here.
#[test]
#[ignore]
fn kbnk_from_white_knowledge_mates_random_defenders() {
    use shakmaty::Role;
    use shakmaty::Square::*;
    let start = Layout::new(A1, &[(Role::Bishop, C1), (Role::Knight, B1)]).unwrap();
    for (i, bk) in [E5, H8].into_iter().enumerate() {
        play(kbnk_full(), start, bk, 11 + i as u64, true);
    }
}

/// The true black-king square after each ply of a recorded game, replayed by the umpire.
fn true_black_king(record: &umpire_rules::Record) -> Vec<shakmaty::Square> {
    let mut u = Umpire::from_fen(RuleSet::WILD16, &record.fen).unwrap();
    let king = |u: &Umpire| u.position().board().king_of(Color::Black).unwrap();
    let mut out = vec![king(&u)];
    for e in &record.entries {
        if u.submit(e.command).verdict == Verdict::Accepted {
            out.push(king(&u));
        }
    }
    out
}

#[test]
fn the_conservative_set_always_holds_the_true_king() {
    use rand::SeedableRng;
    use umpire_tablebase::possible_black_king_squares;
    // Random games from the standard start (Black keeps men for a long time: the conservative
    // update) and from a KRK set-up (the exact one), every ply checked.
    let starts = [
        (umpire_rules::record::STANDARD_FEN, 15, true),
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 0, false),
        ("8/8/8/4k3/8/8/8/1N1BK3 w - - 0 1", 0, false),
    ];
    let mut checked = 0;
    for (fen, black_men, standard) in starts {
        for seed in 0..6u64 {
            let mut game = Game::from_fen(RuleSet::WILD16, fen).unwrap();
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            game.play_random(&mut rng, 300);
            let record = game.record();
            let view = record.player_view(Color::White).unwrap();
            for (ply, &bk) in true_black_king(record).iter().enumerate() {
                let set = possible_black_king_squares(&view, black_men, standard, ply).unwrap();
                assert!(
                    Bitboard(set).contains(bk),
                    "{fen} seed {seed} ply {ply}: {bk} not in {{{}}}",
                    squares_text(set)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn games_under_other_rule_sets_are_refused() {
    use shakmaty::Square::*;
    let layout = Layout::krk(E1, A1).unwrap();
    for rules in [RuleSet::BERKELEY, RuleSet::RAND] {
        let game = Game::from_fen(rules, &layout.fen(E5)).unwrap();
        let view = game.record().player_view(Color::White).unwrap();
        let error = white_knowledge(&view, 0, false, 0).unwrap_err();
        assert!(error.to_string().contains("wild16 only"), "{error}");
    }
}
