//! A random game driver for the belief tests: both sides pick uniformly among what they may
//! still say (sometimes offering, declining or ignoring draws), and every observation goes to
//! both beliefs. A check runs after every observation, with the true position.

#![allow(dead_code)]

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::shakmaty::Position;
use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{AttemptList, Command, Observation, OwnBoard, RuleSet, RuleSetId, Umpire};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{EnemyMaterial, PlayerView};

/// The view of `side` in a game from `start` (public).
pub fn view_of(rules: RuleSet, start: &Chess, side: Color) -> PlayerView {
    let theirs = start.board().by_color(!side);
    let enemy = EnemyMaterial {
        men: theirs.count() as u8,
        pawns_at_most: (theirs & start.board().pawns()).count() as u8,
    };
    PlayerView::new(rules, OwnBoard::of(start, side), start.turn(), enemy)
}

/// Every rule set.
pub fn all_rules() -> impl Iterator<Item = RuleSet> {
    RuleSetId::ALL.into_iter().map(|id| *id.rules())
}

/// One random command for the side to move.
pub fn random_command(
    umpire: &Umpire,
    rng: &mut Xoshiro256PlusPlus,
    list: &mut AttemptList,
) -> Command {
    list.clear();
    let may_ask = umpire.mover_options(list);
    let n = list.len() + usize::from(may_ask);
    if n == 0 {
        return Command::Resign;
    }
    let pick = rng.random_range(0..n);
    if pick == list.len() {
        Command::AskAny
    } else {
        Command::Attempt(list[pick])
    }
}

/// Plays a random game of at most `plies` moves under `rules` from `start`, feeding both
/// beliefs (bound `bound`); after every observation calls `check(belief, truth)`.
pub fn play(
    rules: RuleSet,
    start: Chess,
    seed: u64,
    plies: u32,
    bound: usize,
    check: &mut dyn FnMut(&Belief, &PlayerView, &Umpire, &Observation),
) -> [Belief; 2] {
    play_as(rules, start, seed, plies, bound, false, check)
}

/// [`play`], with both sides playing guided-random (uniform over the guided action space with
/// every sound filter, from their own views) when `guided`.
pub fn play_as(
    rules: RuleSet,
    start: Chess,
    seed: u64,
    plies: u32,
    bound: usize,
    guided: bool,
    check: &mut dyn FnMut(&Belief, &PlayerView, &Umpire, &Observation),
) -> [Belief; 2] {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut umpire = Umpire::from_position(rules, start.clone()).expect("a live start");
    // Two threads from small sets on: the checks below hold the parallel updates to account.
    let config = BeliefConfig {
        bound,
        particles: None,
        seed,
        threads: 2,
        parallel_from: 64,
        ..BeliefConfig::default()
    };
    let mut beliefs = [Color::White, Color::Black]
        .map(|side| Belief::new(rules, start.clone(), side, config).expect("a live start"));
    let mut views = [Color::White, Color::Black].map(|side| view_of(rules, &start, side));
    let mut list = AttemptList::new();
    let mut offered_this_turn = false;
    let mut last_plies = u32::MAX;
    while !umpire.is_over() && umpire.plies() < plies {
        if umpire.plies() != last_plies {
            last_plies = umpire.plies();
            offered_this_turn = false;
        }
        let mut command = random_command(&umpire, &mut rng, &mut list);
        if guided {
            let view = &views[usize::from(umpire.turn() == Color::Black)];
            list.clear();
            GuidedSpace::new(view, FilterSet::all_sound()).options(&mut list);
            if !list.is_empty() && view.is_my_turn() {
                command = Command::Attempt(list[rng.random_range(0..list.len())]);
            }
        }
        if rules.draw_offers && !offered_this_turn && rng.random_range(0..20) == 0 {
            command = Command::OfferDraw;
            offered_this_turn = true;
        }
        let actor = umpire.actor(command);
        let outcome = umpire.submit(command);
        deliver(&mut beliefs, &mut views, &umpire, command, &outcome, check);
        if command == Command::OfferDraw && outcome.verdict == umpire_rules::Verdict::Answered {
            // The other side declines now, half the time (otherwise the offer lapses).
            if rng.random_range(0..2) == 0 {
                let answer = Command::DeclineDraw;
                let outcome = umpire.submit(answer);
                deliver(&mut beliefs, &mut views, &umpire, answer, &outcome, check);
            }
        }
        let _ = actor;
    }
    beliefs
}

fn deliver(
    beliefs: &mut [Belief; 2],
    views: &mut [PlayerView; 2],
    umpire: &Umpire,
    command: Command,
    outcome: &umpire_rules::Outcome,
    check: &mut dyn FnMut(&Belief, &PlayerView, &Umpire, &Observation),
) {
    for (belief, view) in beliefs.iter_mut().zip(views.iter_mut()) {
        if let Some(obs) = outcome.observation(command, belief.side()) {
            belief.observe(&obs).expect("the umpire's observations fit");
            view.observe(&obs).expect("the umpire's observations fit");
            check(belief, view, umpire, &obs);
        }
    }
}
