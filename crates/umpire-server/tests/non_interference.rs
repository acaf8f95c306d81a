//! Non-interference of the server's projection: two true histories that give a player the same
//! observations produce byte-identical frames to that player (clocks held equal, as they
//! depend on time only); the same for spectators with what both players hear.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::shakmaty::{Color, EnPassantMode, fen::Fen};
use umpire_rules::{AttemptList, Command, Observation, RuleSet, Umpire};
use umpire_server::clock::ClockReading;
use umpire_server::projection::{
    Public, SpectatorObservation, player_state, player_update, spectator_observation,
    spectator_state,
};
use umpire_server::rating::Rating;
use umpire_server::shown_rating::ShownRating;
use umpire_view::PlayerView;

fn public<'a>(rules: &'a RuleSet, result: Option<(&'a str, &'a str)>) -> Public<'a> {
    Public {
        game: "g",
        rules,
        names: ["ann", "bob"],
        status: if result.is_some() { "over" } else { "live" },
        clocks: ClockReading {
            white_ms: 60_000,
            black_ms: 60_000,
            running: Some(Color::White),
        },
        time_control: (60_000, 0),
        rated: true,
        result,
        ratings: &RATINGS,
    }
}

/// Both seats rated, the same in every history (ratings are public).
const RATINGS: [Option<ShownRating>; 2] = [
    Some(ShownRating {
        before: Rating::NEW,
        games: 0,
        after: None,
    }),
    Some(ShownRating {
        before: Rating {
            rating: 1712.3,
            deviation: 64.0,
            volatility: 0.06,
        },
        games: 31,
        after: None,
    }),
];

/// What one history showed one audience: the frames, keyed by what the audience observed.
#[derive(Default)]
struct Seen {
    /// observations (Debug text) -> (frame, true position)
    frames: HashMap<String, (String, String)>,
    /// keys reached by at least two different true positions
    collisions: usize,
}

impl Seen {
    fn add(&mut self, key: String, frame: String, truth: String) {
        match self.frames.get(&key) {
            Some((f, t)) => {
                assert_eq!(f, &frame, "same observations, different frames:\n{key}");
                if t != &truth {
                    self.collisions += 1;
                }
            }
            None => {
                self.frames.insert(key, (frame, truth));
            }
        }
    }
}

fn run(rules: RuleSet, games: u64, max_commands: usize) -> [usize; 3] {
    let mut seen: [Seen; 3] = Default::default();
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut umpire = Umpire::new(rules);
        let mut views = [
            PlayerView::standard(rules, Color::White),
            PlayerView::standard(rules, Color::Black),
        ];
        let mut transcripts: [Vec<Observation>; 2] = [Vec::new(), Vec::new()];
        let mut spectators: Vec<SpectatorObservation> = Vec::new();
        let mut list = AttemptList::new();
        for _ in 0..max_commands {
            if umpire.is_over() {
                break;
            }
            list.clear();
            let may_ask = umpire.mover_options(&mut list);
            let n = list.len() + usize::from(may_ask);
            let pick = rng.random_range(0..n);
            let command = if pick == list.len() {
                Command::AskAny
            } else {
                Command::Attempt(list[pick])
            };
            let outcome = umpire.submit(command);
            let truth = Fen::from_position(umpire.position(), EnPassantMode::Legal).to_string();
            let result = umpire.result().map(|r| (r.score(), r.reason.as_str()));
            for side in [Color::White, Color::Black] {
                let i = side.fold_wb(0, 1);
                if let Some(obs) = outcome.observation(command, side) {
                    views[i].observe(&obs).unwrap();
                    transcripts[i].push(obs.clone());
                    let p = public(&rules, result);
                    let frame = format!(
                        "{}\n{}",
                        player_state(&views[i], &p, &[]),
                        player_update(&views[i], &obs, &p, None)
                    );
                    seen[i].add(format!("{:?}", transcripts[i]), frame, truth.clone());
                }
            }
            if let Some(s) = spectator_observation(&outcome) {
                spectators.push(s);
                let plies = spectators.iter().filter(|s| s.moved).count() as u32;
                let to_move = if plies.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let p = public(&rules, result);
                let frame = spectator_state(&p, &[], &spectators, plies, to_move);
                seen[2].add(format!("{spectators:?}"), frame, truth.clone());
            }
        }
    }
    [seen[0].collisions, seen[1].collisions, seen[2].collisions]
}

#[test]
fn equal_observations_give_byte_identical_frames() {
    for rules in [RuleSet::WILD16, RuleSet::BERKELEY_ANY, RuleSet::ENGLISH] {
        let collisions = run(rules, 400, 14);
        // The test compares something: many observation histories were reached by
        // different true positions, for each audience.
        for (who, n) in ["white", "black", "spectator"].iter().zip(collisions) {
            assert!(n > 50, "{:?}: only {n} {who} collisions", rules.id);
        }
    }
}
