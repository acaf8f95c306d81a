//! The observation-driven metaposition (seed 001): in random and guided-random games under
//! every rule set, from the standard start and from set-up positions, each player's
//! metaposition, fed only that player's observations, admits the true position after every
//! command. Hand-built histories check what the pseudo and meta steps infer.
//!
//! `UMPIRE_META_GAMES=N` plays N games per rule set, start and driver (default 6).

mod common;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{EMPTY, Metaposition};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Position, Square};
use umpire_rules::{AttemptList, Command, OwnBoard, RuleSet, RuleSetId, Umpire};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{EnemyMaterial, PlayerView};

fn view_of(rules: RuleSet, start: &Chess, side: Color) -> PlayerView {
    if *start == Chess::default() {
        return PlayerView::standard(rules, side);
    }
    let theirs = start.board().by_color(!side);
    let enemy = EnemyMaterial {
        men: theirs.count() as u8,
        pawns_at_most: (theirs & start.board().pawns()).count() as u8,
    };
    PlayerView::new(rules, OwnBoard::of(start, side), start.turn(), enemy)
}

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

/// Plays one game and asserts after every command that both metapositions admit the truth.
fn check_game(rules: RuleSet, start: &Chess, seed: u64, guided: bool, plies: u32) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let mut views = [Color::White, Color::Black].map(|s| view_of(rules, start, s));
    let opening: Vec<_> = umpire
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect();
    for v in views.iter_mut() {
        v.hear_opening(opening.iter().copied());
    }
    let mut metas = [0, 1].map(|i| Metaposition::start(&views[i]));
    for m in &metas {
        assert!(
            m.admits(umpire.position()),
            "{} seed {seed}: start",
            rules.id
        );
    }
    let mut list = AttemptList::new();
    let mut commands = 0;
    while !umpire.is_over() && umpire.plies() < plies && commands < 4000 {
        commands += 1;
        let mover = usize::from(umpire.turn().is_black());
        list.clear();
        let mut may_ask = if guided {
            GuidedSpace::new(&views[mover], FilterSet::all_sound()).options(&mut list)
        } else {
            false
        };
        if list.is_empty() && !may_ask {
            may_ask = views[mover].options(&mut list);
        }
        let n = list.len() + usize::from(may_ask);
        assert!(n > 0);
        let pick = rng.random_range(0..n);
        let command = if pick == list.len() {
            Command::AskAny
        } else {
            Command::Attempt(list[pick])
        };
        let outcome = umpire.submit(command);
        for (i, side) in [Color::White, Color::Black].into_iter().enumerate() {
            if let Some(obs) = outcome.observation(command, side) {
                views[i].observe(&obs).unwrap();
                metas[i].observe(&obs);
            }
            assert!(
                metas[i].admits(umpire.position()),
                "{} seed {seed} guided {guided}: {side:?}'s metaposition lost the truth after {command:?} at ply {}: {}\n{:?}",
                rules.id,
                umpire.plies(),
                Fen::from_position(
                    umpire.position(),
                    umpire_rules::shakmaty::EnPassantMode::Legal
                ),
                metas[i].squares()
            );
        }
    }
}

fn games() -> u64 {
    std::env::var("UMPIRE_META_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6)
}

const SETUPS: [&str; 3] = [
    "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1",
    "8/2P3k1/8/8/8/8/1p4K1/8 b - - 0 1",
];

#[test]
fn the_truth_is_always_admitted_in_random_games_under_every_rule_set() {
    // A game that ended by the fifty-move rule, where silence about pawn captures means nothing.
    check_game(RuleSet::RAND, &Chess::default(), 63, false, 300);
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for seed in 0..games() {
            check_game(rules, &Chess::default(), seed, false, 300);
        }
    }
}

#[test]
fn the_truth_is_always_admitted_in_guided_random_games_under_every_rule_set() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for seed in 0..games() {
            check_game(rules, &Chess::default(), 1000 + seed, true, 300);
        }
    }
}

#[test]
fn the_truth_is_always_admitted_from_set_up_positions() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        for (k, fen) in SETUPS.iter().enumerate() {
            for seed in 0..games() {
                let start = position(fen);
                check_game(rules, &start, 77 + seed, seed % 2 == 0, 200 + k as u32);
            }
        }
    }
}

/// Black after 1.e4 (unseen): a white pawn may be on e2, e3 or e4 (or any pawn moved one or two
/// squares), a knight on its four squares; nothing else changed.
#[test]
fn after_a_first_move_black_sees_the_pseudopieces_spread() {
    let rules = RuleSet::WILD16;
    let mut umpire = Umpire::new(rules);
    let mut view = PlayerView::standard(rules, Color::Black);
    let mut meta = Metaposition::start(&view);
    let command = Command::Attempt("e2e4".parse().unwrap());
    let outcome = umpire.submit(command);
    let obs = outcome.observation(command, Color::Black).unwrap();
    view.observe(&obs).unwrap();
    meta.observe(&obs);
    assert!(meta.admits(umpire.position()));
    let pawn = 1u8;
    let knight = 2u8;
    assert_eq!(meta.bits(Square::E2), pawn | EMPTY);
    assert_eq!(meta.bits(Square::E3), pawn | EMPTY);
    assert_eq!(meta.bits(Square::E4), pawn | EMPTY);
    assert_eq!(meta.bits(Square::E5), EMPTY);
    assert_eq!(meta.bits(Square::F3), pawn | knight | EMPTY);
    assert_eq!(meta.bits(Square::A3), knight | pawn | EMPTY);
    // The king and the bishops cannot have moved: their squares are certain.
    assert_eq!(meta.bits(Square::E1), 1 << 5);
    assert_eq!(meta.bits(Square::C1), 1 << 2);
    assert_eq!(meta.bits(Square::B5), EMPTY);
    assert_eq!(meta.men(), (16, 16));
    assert!(meta.entropy() > 0.0);
}

/// A capture announced on our man: only the capturer moved, to that square.
#[test]
fn a_capture_announcement_puts_the_capturer_on_the_square() {
    let rules = RuleSet::WILD16;
    let mut umpire = Umpire::new(rules);
    let mut view = PlayerView::standard(rules, Color::White);
    let mut meta = Metaposition::start(&view);
    for uci in ["e2e4", "d7d5", "a2a3", "d5e4"] {
        let command = Command::Attempt(uci.parse().unwrap());
        let outcome = umpire.submit(command);
        let obs = outcome.observation(command, Color::White).unwrap();
        view.observe(&obs).unwrap();
        meta.observe(&obs);
        assert!(meta.admits(umpire.position()));
    }
    // Only a pawn (from d5) or a knight (from f6) could have taken on e4, and a man is there.
    assert_eq!(meta.bits(Square::E4), 1 | 2);
    assert_eq!(meta.own().board().piece_at(Square::E4), None);
}

/// Our capture: the enemy loses a man; the pawn that captured stands where the man was.
#[test]
fn our_capture_counts_the_enemy_man() {
    let rules = RuleSet::WILD16;
    let mut umpire = Umpire::new(rules);
    let mut view = PlayerView::standard(rules, Color::White);
    let mut meta = Metaposition::start(&view);
    for uci in ["e2e4", "d7d5", "e4d5"] {
        let command = Command::Attempt(uci.parse().unwrap());
        let outcome = umpire.submit(command);
        let obs = outcome.observation(command, Color::White).unwrap();
        view.observe(&obs).unwrap();
        meta.observe(&obs);
        assert!(meta.admits(umpire.position()));
    }
    assert_eq!(meta.men(), (15, 15));
    assert_eq!(meta.pawns(), (7, 7));
    assert_eq!(meta.bits(Square::D5), EMPTY);
}

/// A rejected pawn push outside check, by a pawn that cannot be pinned, proves the square
/// ahead occupied.
#[test]
fn a_rejected_push_proves_the_square_occupied() {
    let rules = RuleSet::WILD16;
    let start = position("4k3/8/8/8/8/p7/P7/4K3 w - - 0 1");
    let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let mut view = view_of(rules, &start, Color::White);
    let mut meta = Metaposition::start(&view);
    assert_ne!(meta.bits(Square::A3) & EMPTY, 0);
    let command = Command::Attempt("a2a3".parse().unwrap());
    let outcome = umpire.submit(command);
    assert_eq!(outcome.verdict, umpire_rules::Verdict::Illegal);
    let obs = outcome.observation(command, Color::White).unwrap();
    view.observe(&obs).unwrap();
    meta.observe(&obs);
    assert!(meta.admits(umpire.position()));
    assert_eq!(meta.bits(Square::A3) & EMPTY, 0, "a3 must be occupied");
    // The same inference as a hypothesis of a search.
    let fresh = Metaposition::start(&view_of(rules, &start, Color::White));
    let after = fresh.after_attempt("a2a3".parse().unwrap(), umpire_rules::Verdict::Illegal, &[]);
    assert_eq!(after, meta);
}

/// The metaposition of `side` after `commands` from `fen` under `rules`, with the umpire, and
/// the metaposition before the last command.
fn after(
    rules: RuleSet,
    fen: &str,
    side: Color,
    commands: &[Command],
) -> (Metaposition, Metaposition, Umpire) {
    let start = position(fen);
    let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let mut view = view_of(rules, &start, side);
    let opening: Vec<_> = umpire
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect();
    view.hear_opening(opening.iter().copied());
    let mut meta = Metaposition::start(&view);
    let mut before = meta.clone();
    for &command in commands {
        before = meta.clone();
        let outcome = umpire.submit(command);
        if let Some(obs) = outcome.observation(command, side) {
            view.observe(&obs).unwrap();
            meta.observe(&obs);
        }
        assert!(meta.admits(umpire.position()), "{command:?}");
    }
    (before, meta, umpire)
}

fn attempt(uci: &str) -> Command {
    Command::Attempt(uci.parse().unwrap())
}

const KNIGHT: u8 = 1 << 1;
const KING: u8 = 1 << 5;

/// A rejected king step: g1 is attacked once the king stands there, and the only square an
/// attacker may stand on is h3, from where only a knight attacks g1.
#[test]
fn a_rejected_king_step_with_one_possible_attacker_puts_it_there() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let fen = "4k3/8/8/8/8/5P1n/4NPPP/5R1K w - - 0 1";
        let (before, meta, umpire) = after(rules, fen, Color::White, &[attempt("h1g1")]);
        assert_eq!(umpire.plies(), 0, "{id}: the step must be rejected");
        assert_ne!(before.bits(Square::H3) & EMPTY, 0, "{id}: h3 was uncertain");
        assert_ne!(before.bits(Square::H3) & !KNIGHT, 0);
        assert_eq!(
            meta.bits(Square::H3),
            KNIGHT,
            "{id}: h3 must hold the knight"
        );
        // Nothing else was a possible cause: the rest of the board is untouched.
        for sq in Square::ALL.into_iter().filter(|&s| s != Square::H3) {
            assert_eq!(meta.bits(sq) | KING, before.bits(sq) | KING, "{id}: {sq}");
        }
    }
}

/// An attack through the king's origin: in check along the first rank, Ke1-f1 is rejected
/// because the checker attacks f1 through e1 once the king has left it. Counting e1 as a
/// blocker would leave h2 (a knight) as the lone possible attacker and wrongly put one there.
#[test]
fn a_rejected_king_step_counts_attackers_through_the_kings_origin() {
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let fen = "4k3/8/8/8/8/4N1N1/3PPPP1/r3K1B1 w - - 0 1";
        let (before, meta, umpire) = after(rules, fen, Color::White, &[attempt("e1f1")]);
        assert_eq!(umpire.plies(), 0, "{id}: the step must be rejected");
        assert_ne!(
            before.bits(Square::H2) & KNIGHT,
            0,
            "{id}: h2 may hold a knight"
        );
        assert_eq!(meta.bits(Square::H2), before.bits(Square::H2), "{id}");
        assert_eq!(meta.bits(Square::A1), before.bits(Square::A1), "{id}");
    }
}

/// With two possible attackers (knights on e2 or h3) a rejected step proves nothing.
#[test]
fn a_rejected_king_step_with_two_possible_attackers_proves_nothing() {
    let rules = RuleSet::WILD16;
    let fen = "4k3/8/8/8/8/5P1n/5PPP/5R1K w - - 0 1";
    let (before, meta, umpire) = after(rules, fen, Color::White, &[attempt("h1g1")]);
    assert_eq!(umpire.plies(), 0, "the step must be rejected");
    for sq in [Square::E2, Square::H3] {
        assert_ne!(meta.bits(sq) & EMPTY, 0, "{sq} must stay uncertain");
        assert_eq!(meta.bits(sq), before.bits(sq), "{sq} must be untouched");
    }
}

/// One announced pawn capture whose only possible capture square is d5 (f5 holds our bishop):
/// an enemy man, not the king, stands on d5 — under every rule set that says so.
#[test]
fn an_announced_try_with_one_capture_square_puts_a_man_there() {
    let fen = "4k3/8/8/3n1B2/4P3/8/8/K7 w - - 0 1";
    for (rules, commands) in [
        (RuleSet::WILD16, vec![]),
        (RuleSet::CINCINNATI, vec![]),
        (RuleSet::BERKELEY_ANY, vec![Command::AskAny]),
    ] {
        let (_, meta, _) = after(rules, fen, Color::White, &commands);
        let d5 = meta.bits(Square::D5);
        assert_eq!(d5 & (EMPTY | KING), 0, "{}: d5 must hold a man", rules.id);
        assert_ne!(d5, 0);
    }
    // Where nothing is said about pawn captures, d5 stays uncertain.
    let (_, meta, _) = after(RuleSet::BERKELEY, fen, Color::White, &[]);
    assert_ne!(meta.bits(Square::D5) & EMPTY, 0);
}

/// One try and two possible capture squares prove nothing; two tries and two possible
/// captures prove both.
#[test]
fn tries_prove_men_only_where_they_leave_no_choice() {
    let rules = RuleSet::WILD16;
    let (_, one, _) = after(rules, "4k3/8/8/3n4/4P3/8/8/K7 w - - 0 1", Color::White, &[]);
    assert_ne!(one.bits(Square::D5) & EMPTY, 0);
    assert_ne!(one.bits(Square::F5) & EMPTY, 0);
    let (_, two, _) = after(
        rules,
        "4k3/8/8/3n1n2/4P3/8/8/K7 w - - 0 1",
        Color::White,
        &[],
    );
    assert_eq!(two.bits(Square::D5) & EMPTY, 0);
    assert_eq!(two.bits(Square::F5) & EMPTY, 0);
}

/// Plays one game feeding both players' beliefs (exact sets under `bound`) and
/// observation-driven metapositions; after every observation the metaposition must admit the
/// true position and, while the set is exact, every position of it. Returns how many exact
/// sets were compared.
fn differential(rules: RuleSet, start: &Chess, seed: u64, guided: bool, plies: u32) -> usize {
    let umpire = Umpire::from_position(rules, start.clone()).unwrap();
    let opening: Vec<_> = umpire
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect();
    let mut metas = [Color::White, Color::Black].map(|side| {
        let mut view = view_of(rules, start, side);
        view.hear_opening(opening.iter().copied());
        Metaposition::start(&view)
    });
    let mut compared = 0;
    common::play_as(
        rules,
        start.clone(),
        seed,
        plies,
        4_000,
        guided,
        &mut |belief, _, umpire, obs| {
            let meta = &mut metas[usize::from(belief.side().is_black())];
            meta.observe(obs);
            assert!(
                meta.admits(umpire.position()),
                "{} seed {seed}: the metaposition lost the truth at ply {}",
                rules.id,
                umpire.plies()
            );
            if belief.is_exact() {
                compared += 1;
                for pos in belief.positions() {
                    assert!(
                        meta.admits(pos),
                        "{} seed {seed} guided {guided}: {:?}'s metaposition excludes a consistent position at ply {} after {:?}: {}\n{:?}",
                        rules.id,
                        belief.side(),
                        umpire.plies(),
                        obs.own,
                        Fen::from_position(pos, umpire_rules::shakmaty::EnPassantMode::Legal),
                        meta.squares()
                    );
                }
            }
        },
    );
    compared
}

/// Differential property: the observation-driven metaposition admits every position of the
/// exact belief set, in random and guided-random games under every rule set, from the
/// standard start and from set-up positions (where king steps are tried often).
#[test]
fn the_metaposition_admits_every_position_of_the_exact_set() {
    let setups = [
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1",
        "8/2P3k1/8/8/8/8/1p4K1/8 b - - 0 1",
        "4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 0 1",
        "1n2k1n1/4p3/8/8/8/8/4P3/1N2K1N1 w - - 0 1",
    ];
    for id in RuleSetId::ALL {
        let rules = *id.rules();
        let mut compared = 0;
        for seed in 0..(games() / 3).max(1) {
            compared += differential(rules, &Chess::default(), 500 + seed, seed % 2 == 1, 10);
            for fen in setups {
                compared += differential(rules, &position(fen), 600 + seed, seed % 2 == 0, 24);
            }
        }
        assert!(compared > 100, "{id}: only {compared} exact sets compared");
    }
}

/// The cost of the updates (a benchmark, not a test; figures in docs/BENCHMARKS.md):
/// `cargo test --release -p umpire-belief --test metaposition metaposition_update_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn metaposition_update_cost() {
    use std::time::Instant;
    let rules = RuleSet::WILD16;
    let mut observed = 0u64;
    let mut observe_time = std::time::Duration::ZERO;
    let mut hypo = 0u64;
    let mut hypo_time = std::time::Duration::ZERO;
    for seed in 0..200 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut umpire = Umpire::new(rules);
        let mut metas = [Color::White, Color::Black]
            .map(|s| Metaposition::start(&PlayerView::standard(rules, s)));
        let mut list = AttemptList::new();
        while !umpire.is_over() && umpire.plies() < 200 {
            list.clear();
            umpire.mover_options(&mut list);
            let command = Command::Attempt(list[rng.random_range(0..list.len())]);
            let mover = usize::from(umpire.turn().is_black());
            if let Command::Attempt(a) = command {
                let t = Instant::now();
                let m = metas[mover].after_attempt(a, umpire_rules::Verdict::Accepted, &[]);
                let m = m.after_opponent_move();
                hypo_time += t.elapsed();
                hypo += 2;
                std::hint::black_box(m);
            }
            let outcome = umpire.submit(command);
            for (i, side) in [Color::White, Color::Black].into_iter().enumerate() {
                if let Some(obs) = outcome.observation(command, side) {
                    let t = Instant::now();
                    metas[i].observe(&obs);
                    observe_time += t.elapsed();
                    observed += 1;
                }
            }
        }
    }
    println!(
        "observe: {observed} updates, {:.0} ns each; hypothetical pseudo+meta steps: {hypo}, {:.0} ns each",
        observe_time.as_nanos() as f64 / observed as f64,
        hypo_time.as_nanos() as f64 / hypo as f64
    );
}
