//! Non-interference: two true histories that give a player the same observations give that
//! player identical views and identical guided action spaces.
//!
//! For random seeds under every rule set, and for each side as the observer, two games are
//! played side by side. The observer gives the same commands in both. The opponent's hidden
//! choices differ: at each of its turns, game 1 plays a random legal move (sometimes after
//! rejected attempts, which the observer may not hear), and game 2 plays any *other* legal move
//! that the observer hears exactly the same way, if there is one. While the observer's
//! observation streams stay equal, its views, offered attempts, "Any?" permission and the
//! reasons each own-board attempt is hidden must be equal, though the true positions differ.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::shakmaty::Color;
use umpire_rules::{
    Attempt, AttemptList, Command, Observation, Outcome, RuleSetId, Umpire, Verdict,
};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

/// What `me` hears of `command` in `umpire` (played on a copy).
fn hears(umpire: &Umpire, me: Color, command: Command) -> (Option<Observation>, Outcome) {
    let mut copy = umpire.clone();
    let outcome = copy.submit(command);
    (outcome.observation(command, me), outcome)
}

/// Submits `command` and feeds the observer's view.
fn play(umpire: &mut Umpire, view: &mut PlayerView, command: Command) -> Option<Observation> {
    let outcome = umpire.submit(command);
    let seen = outcome.observation(command, view.side());
    if let Some(seen) = &seen {
        view.observe(seen).expect("observation fits");
    }
    seen
}

/// Asserts that the observer's two views, and what the guided space makes of them, are identical.
fn assert_same_knowledge(a: &PlayerView, b: &PlayerView, ctx: &str) {
    assert_eq!(a, b, "{ctx}: views differ");
    for filters in [FilterSet::all(), FilterSet::all_sound()] {
        let (sa, sb) = (GuidedSpace::new(a, filters), GuidedSpace::new(b, filters));
        assert_eq!(sa.inference(), sb.inference(), "{ctx}");
        let (mut oa, mut ob) = (AttemptList::new(), AttemptList::new());
        assert_eq!(sa.options(&mut oa), sb.options(&mut ob), "{ctx}");
        assert_eq!(oa, ob, "{ctx}: offered attempts differ");
        let mut own = AttemptList::new();
        a.own_board()
            .attempts(a.rules().promotion_always_queen, &mut own);
        for &at in &own {
            assert_eq!(sa.hidden_by(at), sb.hidden_by(at), "{ctx}: {at}");
        }
    }
}

/// Plays one pair of games observed by `me`; returns how many of `me`'s decisions were
/// compared with the true positions differing.
fn pair(id: RuleSetId, seed: u64, me: Color) -> u64 {
    let rules = *id.rules();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut u1 = Umpire::new(rules);
    let mut u2 = Umpire::new(rules);
    let mut v1 = PlayerView::standard(rules, me);
    let mut v2 = PlayerView::standard(rules, me);
    let mut differing = 0;
    let mut commands = 0;
    while !u1.is_over() && !u2.is_over() && commands < 300 {
        let ctx = format!("{id} seed {seed} observer {me:?} command {commands}");
        commands += 1;
        assert_eq!(u1.turn(), u2.turn(), "{ctx}");
        if u1.turn() == me {
            assert_same_knowledge(&v1, &v2, &ctx);
            if u1.position() != u2.position() {
                differing += 1;
            }
            // The same command in both games, from the guided offers or the own board.
            let mut offered = AttemptList::new();
            let filters = if rng.random_bool(0.5) {
                FilterSet::all_sound()
            } else {
                FilterSet::own_board_only()
            };
            let may_ask = GuidedSpace::new(&v1, filters).options(&mut offered);
            let n = offered.len() + usize::from(may_ask);
            if n == 0 {
                break;
            }
            let pick = rng.random_range(0..n);
            let command = offered
                .get(pick)
                .map_or(Command::AskAny, |&a| Command::Attempt(a));
            let o1 = play(&mut u1, &mut v1, command);
            let o2 = play(&mut u2, &mut v2, command);
            if o1 != o2 {
                // The observer now hears the difference: the histories part.
                break;
            }
            continue;
        }
        // The opponent: in game 1, sometimes a rejected own-board attempt first (alone).
        if rng.random_bool(0.3) {
            let mut options = AttemptList::new();
            u1.mover_options(&mut options);
            if let Some(&a) = options.get(rng.random_range(0..options.len().max(1))) {
                let (seen, outcome) = hears(&u1, me, Command::Attempt(a));
                if !outcome.is_accepted()
                    && seen.is_none()
                    && !matches!(outcome.verdict, Verdict::Invalid(_))
                {
                    play(&mut u1, &mut v1, Command::Attempt(a));
                    continue;
                }
            }
        }
        let mut moves: Vec<Attempt> = u1
            .legal_moves()
            .iter()
            .filter_map(Attempt::from_move)
            .collect();
        if moves.is_empty() {
            break;
        }
        moves.shuffle(&mut rng);
        let b1 = Command::Attempt(moves[0]);
        let (heard1, _) = hears(&u1, me, b1);
        // Game 2: another legal move the observer hears the same way, else the same move.
        let mut alternatives: Vec<Attempt> = u2
            .legal_moves()
            .iter()
            .filter_map(Attempt::from_move)
            .collect();
        alternatives.shuffle(&mut rng);
        let b2 = alternatives
            .iter()
            .map(|&a| Command::Attempt(a))
            .find(|&c| c != b1 && hears(&u2, me, c).0 == heard1)
            .or_else(|| {
                alternatives
                    .iter()
                    .map(|&a| Command::Attempt(a))
                    .find(|&c| hears(&u2, me, c).0 == heard1)
            });
        let Some(b2) = b2 else {
            break;
        };
        let o1 = play(&mut u1, &mut v1, b1);
        let o2 = play(&mut u2, &mut v2, b2);
        assert_eq!(o1, o2, "{ctx}");
    }
    differing
}

#[test]
fn same_observations_give_same_views_and_guided_spaces() {
    let games: u64 = std::env::var("UMPIRE_NONINTERFERENCE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    for id in RuleSetId::ALL {
        for me in [Color::White, Color::Black] {
            let mut differing = 0;
            for seed in 0..games {
                differing += pair(id, seed, me);
            }
            eprintln!(
                "{id}, {me:?} observing: {differing} decisions with differing true positions"
            );
            // The property must have been exercised: the observer decided many times while
            // the true positions differed.
            assert!(
                differing >= 2 * games,
                "{id}, {me:?}: only {differing} decisions with differing positions"
            );
        }
    }
}
