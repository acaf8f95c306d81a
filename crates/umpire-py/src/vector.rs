//! [`VectorEnv`]: many games stepped by one call, the fast path from Python.
//!
//! A Python loop that drives one state pays the interpreter for every attempt (a call to list
//! the legal actions, a random choice, a call to apply it). A vectorised environment, as
//! researchers use with Gymnasium's and PettingZoo's vector wrappers, steps `n` games with one
//! call taking an array of actions, and hands back arrays: the verdicts, the returns of games
//! that ended, and the legal actions of every game's mover as one flat array with offsets
//! (compressed rows), so that the choice of the next actions is itself one array operation.
//!
//! Games that end are started again at once (auto-reset): the step reports the ended game's
//! returns, and the next legal actions are those of the fresh game. Every game is played by
//! the same umpire and views as a single [`KriegspielState`], so each player's legal actions
//! come from its own view only; but a game keeps its history compactly ([`LeanGame`]: the
//! actions played, not the record and the transcripts) and is replayed into a full state only
//! when [`VectorEnv::state`] asks for it.

use crate::lean_game::LeanGame;
use crate::state::{GameConfig, KriegspielState, StateError};

/// The most games one vectorised environment holds (a bound on its memory: a game is a few
/// kilobytes and grows by two bytes a command).
pub const MAX_GAMES: usize = 65_536;

/// The verdict codes [`VectorEnv::step`] reports per game.
pub mod verdict {
    /// The attempt was accepted: a move was played.
    pub const ACCEPTED: u8 = 0;
    /// The attempt was illegal on the true board (the same player moves again).
    pub const ILLEGAL: u8 = 1;
    /// The attempt was impossible on the own board (the same player moves again).
    pub const IMPOSSIBLE: u8 = 2;
    /// "Any?" was answered (the same player moves again).
    pub const ANSWERED: u8 = 3;
    /// Any other verdict.
    pub const OTHER: u8 = 4;
}

/// What one [`VectorEnv::step`] reports, one entry per game (reused from step to step).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReport {
    /// The verdict of each game's action ([`verdict`] codes).
    pub verdicts: Vec<u8>,
    /// Whether each game ended with this step (it has been started again since).
    pub done: Vec<u8>,
    /// The returns of each game that ended (White's, Black's), zeros for the others: two
    /// entries per game.
    pub returns: Vec<f32>,
    /// The player to move next in each game (0 White, 1 Black), after any reset.
    pub to_move: Vec<u8>,
}

/// `n` games under one configuration, stepped together.
#[derive(Clone, Debug)]
pub struct VectorEnv {
    /// A game at the start, as a full state (replays start from it) and as a lean game
    /// (resets copy it).
    fresh: KriegspielState,
    fresh_lean: LeanGame,
    states: Vec<LeanGame>,
    games_done: u64,
    threads: usize,
    /// The action ids of the step being played, one per game (kept: no allocation a step).
    ids: Vec<u16>,
    /// How many legal actions each game's mover has, kept beside the games (written as each
    /// game is stepped): a step by rank checks its indices, and Python reads the counts,
    /// without touching the games' states.
    counts: Vec<u16>,
}

impl VectorEnv {
    /// `n` games (1 to [`MAX_GAMES`]) at the start of `config`.
    pub fn new(config: GameConfig, n: usize) -> Result<VectorEnv, StateError> {
        if n == 0 || n > MAX_GAMES {
            return Err(StateError::Load(format!(
                "a vector of {n} games (1 to {MAX_GAMES})"
            )));
        }
        let fresh = KriegspielState::new(config)?;
        let fresh_lean = LeanGame::start_of(&fresh);
        Ok(VectorEnv {
            states: vec![fresh_lean.clone(); n],
            counts: vec![count_of(&fresh_lean); n],
            fresh,
            fresh_lean,
            games_done: 0,
            threads: 1,
            ids: Vec::with_capacity(n),
        })
    }

    /// Steps the games on `threads` threads (1 to [`crate::batch::MAX_THREADS`]; 1, the
    /// default, steps them in the calling thread). The games played do not depend on it.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, crate::batch::MAX_THREADS);
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Always false: a vector holds at least one game.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The games finished since the vector was made.
    pub fn games_done(&self) -> u64 {
        self.games_done
    }

    /// Game `i` as a full state (record and transcripts), replayed from its start: the state
    /// a [`KriegspielState`] given the same actions would be in. An error for no game `i`.
    pub fn state(&self, i: usize) -> Result<KriegspielState, StateError> {
        let game = self
            .states
            .get(i)
            .ok_or_else(|| StateError::Load(format!("no game {i} (of {})", self.states.len())))?;
        game.replay(&self.fresh)
    }

    /// Every game, in order, as kept (compactly).
    pub fn games(&self) -> &[LeanGame] {
        &self.states
    }

    /// Starts every game again.
    pub fn reset(&mut self) {
        for s in &mut self.states {
            s.reset_to(&self.fresh_lean);
        }
        self.counts.fill(count_of(&self.fresh_lean));
    }

    /// The legal actions of each game's mover, as compressed rows: game `i`'s actions are
    /// `actions[offsets[i]..offsets[i + 1]]`, sorted (`offsets` has `len() + 1` entries).
    pub fn legal_actions(&self, actions: &mut Vec<u32>, offsets: &mut Vec<u32>) {
        actions.clear();
        offsets.clear();
        offsets.push(0);
        for s in &self.states {
            // Action ids are below 4,673 and a game has at most a few hundred options.
            actions.extend(s.mover_actions().map(u32::from));
            offsets.push(actions.len() as u32);
        }
    }

    /// How many legal actions each game's mover has, in game order: what a caller needs to
    /// draw an index for [`VectorEnv::step_index`] (the sorted lists are not read out).
    pub fn counts(&self) -> &[u16] {
        &self.counts
    }

    /// Plays `actions[i]` in game `i` for every game. Every action is checked before any is
    /// played: an action that is not a legal action of its game's mover is an error naming the
    /// game, and then no game moves. Games that end are started again (see the module).
    pub fn step(&mut self, actions: &[i64], report: &mut StepReport) -> Result<(), StepError> {
        if actions.len() != self.states.len() {
            return Err(StepError::Length {
                given: actions.len(),
                games: self.states.len(),
            });
        }
        self.ids.clear();
        for (i, (s, &a)) in self.states.iter().zip(actions).enumerate() {
            match u16::try_from(a) {
                Ok(id) if s.mover_set().contains(usize::from(id)) => self.ids.push(id),
                _ => {
                    return Err(StepError::NotLegal {
                        game: i,
                        action: a,
                        player: s.current_player(),
                    });
                }
            }
        }
        self.play(Choice::Ids, report);
        Ok(())
    }

    /// Plays in game `i` the legal action of rank `picks[i]` among its mover's sorted legal
    /// actions (from 0): what [`VectorEnv::step`] plays with `actions[offsets[i] + picks[i]]`
    /// of [`VectorEnv::legal_actions`], without the lists being read out. Every index is
    /// checked before any game moves (one at or beyond its game's [`VectorEnv::counts`] is an
    /// error naming the game); games that end are started again (see the module).
    pub fn step_index(&mut self, picks: &[i64], report: &mut StepReport) -> Result<(), StepError> {
        if picks.len() != self.states.len() {
            return Err(StepError::Length {
                given: picks.len(),
                games: self.states.len(),
            });
        }
        self.ids.clear();
        for (i, (&count, &k)) in self.counts.iter().zip(picks).enumerate() {
            match u16::try_from(k) {
                Ok(rank) if rank < count => self.ids.push(rank),
                _ => {
                    return Err(StepError::NoSuchIndex {
                        game: i,
                        index: k,
                        count: usize::from(count),
                    });
                }
            }
        }
        self.play(Choice::Ranks, report);
        Ok(())
    }

    /// Plays `self.ids` (checked, one per game, read as `choice` says) and fills `report`.
    fn play(&mut self, choice: Choice, report: &mut StepReport) {
        let actions = &self.ids;
        let n = self.states.len();
        report.verdicts.clear();
        report.verdicts.resize(n, 0);
        report.done.clear();
        report.done.resize(n, 0);
        report.to_move.clear();
        report.to_move.resize(n, 0);
        report.returns.clear();
        report.returns.resize(2 * n, 0.0);
        let threads = self.threads.min(n);
        let fresh = &self.fresh_lean;
        if threads <= 1 {
            self.games_done += step_games(
                &mut self.states,
                actions,
                choice,
                fresh,
                Out {
                    verdicts: &mut report.verdicts,
                    done: &mut report.done,
                    returns: &mut report.returns,
                    to_move: &mut report.to_move,
                    counts: &mut self.counts,
                },
            );
            return;
        }
        let chunk = n.div_ceil(threads);
        let ended: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .states
                .chunks_mut(chunk)
                .zip(actions.chunks(chunk))
                .zip(report.verdicts.chunks_mut(chunk))
                .zip(report.done.chunks_mut(chunk))
                .zip(report.returns.chunks_mut(2 * chunk))
                .zip(report.to_move.chunks_mut(chunk))
                .zip(self.counts.chunks_mut(chunk))
                .map(
                    |((((((states, actions), verdicts), done), returns), to_move), counts)| {
                        scope.spawn(move || {
                            step_games(
                                states,
                                actions,
                                choice,
                                fresh,
                                Out {
                                    verdicts,
                                    done,
                                    returns,
                                    to_move,
                                    counts,
                                },
                            )
                        })
                    },
                )
                .collect();
            // A worker only judges legal actions; a panic there would be a bug, counted as
            // no game ended rather than passed on.
            handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        });
        self.games_done += ended;
    }
}

/// Where [`step_games`] writes, one entry per game of its share (two returns each).
struct Out<'a> {
    verdicts: &'a mut [u8],
    done: &'a mut [u8],
    returns: &'a mut [f32],
    to_move: &'a mut [u8],
    counts: &'a mut [u16],
}

/// What the numbers handed to [`step_games`] are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// Action ids, each a legal action of its game's mover.
    Ids,
    /// Ranks among each game's mover's sorted legal actions, each below its game's count.
    Ranks,
}

/// The number of legal actions of `s`'s mover, as the vector keeps it.
fn count_of(s: &LeanGame) -> u16 {
    // At most 4,673 actions: fits in a u16.
    s.mover_count() as u16
}

/// Plays `actions[i]` in `states[i]` (checked by the caller: a legal action id, or the rank
/// of one, as `choice` says), restarting ended games from `fresh`; returns the number of
/// games that ended.
fn step_games(
    states: &mut [LeanGame],
    actions: &[u16],
    choice: Choice,
    fresh: &LeanGame,
    out: Out<'_>,
) -> u64 {
    let mut ended_games = 0;
    for (i, (s, &a)) in states.iter_mut().zip(actions).enumerate() {
        // Checked by the caller (legality is not checked a second time): a rank below the
        // count has its action in the set.
        let id = match choice {
            Choice::Ids => Some(a),
            Choice::Ranks => s.mover_set().nth(usize::from(a)),
        };
        let played = id.and_then(|id| s.play_legal_verdict(id));
        out.verdicts[i] = match played {
            Some(v) => match v {
                umpire_rules::Verdict::Accepted => verdict::ACCEPTED,
                umpire_rules::Verdict::Answered => verdict::ANSWERED,
                umpire_rules::Verdict::Illegal => verdict::ILLEGAL,
                umpire_rules::Verdict::Impossible => verdict::IMPOSSIBLE,
                _ => verdict::OTHER,
            },
            // Checked before: every action is legal in its game.
            None => verdict::OTHER,
        };
        let ended = s.is_terminal();
        out.done[i] = u8::from(ended);
        if ended {
            let r = s.returns();
            out.returns[2 * i] = r[0] as f32;
            out.returns[2 * i + 1] = r[1] as f32;
            s.reset_to(fresh);
            ended_games += 1;
        }
        out.to_move[i] = u8::from(s.current_player() == 1);
        out.counts[i] = count_of(s);
    }
    ended_games
}

/// Why a vectorised step was refused (no game moved).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The actions are not one per game.
    #[error("{given} actions for {games} games (one per game)")]
    Length {
        /// Actions given.
        given: usize,
        /// Games in the vector.
        games: usize,
    },
    /// An action is not a legal action of its game's mover.
    #[error("game {game}: action {action} is not a legal action of player {player} now")]
    NotLegal {
        /// The game.
        game: usize,
        /// The action.
        action: i64,
        /// The mover.
        player: i32,
    },
    /// An index is not below its game's number of legal actions.
    #[error("game {game}: index {index} is not below its {count} legal actions")]
    NoSuchIndex {
        /// The game.
        game: usize,
        /// The index.
        index: i64,
        /// The game's number of legal actions.
        count: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::shakmaty::Color;

    fn env(n: usize) -> VectorEnv {
        VectorEnv::new(GameConfig::new("wild16", None, false).unwrap(), n).unwrap()
    }

    /// The vector plays exactly the games single states play with the same actions: its
    /// replayed states (records, strings) and its tensors are the single states'.
    #[test]
    fn steps_as_single_states_do_and_resets_ended_games() {
        let n = 5;
        let mut v = env(n);
        let mut singles: Vec<KriegspielState> =
            (0..n).map(|i| v.state(i).unwrap().clone()).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut actions, mut offsets) = (Vec::new(), Vec::new());
        let mut report = StepReport::default();
        let mut ended = 0;
        for _ in 0..3_000 {
            v.legal_actions(&mut actions, &mut offsets);
            assert_eq!(offsets.len(), n + 1);
            let chosen: Vec<i64> = (0..n)
                .map(|i| {
                    let row = &actions[offsets[i] as usize..offsets[i + 1] as usize];
                    let mine: Vec<u32> = singles[i].mover_actions().map(u32::from).collect();
                    assert_eq!(row, &mine[..]);
                    i64::from(row[rng.random_range(0..row.len())])
                })
                .collect();
            v.step(&chosen, &mut report).unwrap();
            for i in 0..n {
                let out = singles[i].apply_action(chosen[i]).unwrap();
                assert_eq!(report.done[i] == 1, singles[i].is_terminal());
                if singles[i].is_terminal() {
                    let r = singles[i].returns();
                    assert_eq!(report.returns[2 * i..2 * i + 2], [r[0] as f32, r[1] as f32]);
                    singles[i] =
                        KriegspielState::new(GameConfig::new("wild16", None, false).unwrap())
                            .unwrap();
                    ended += 1;
                } else {
                    assert_eq!(report.returns[2 * i..2 * i + 2], [0.0, 0.0]);
                    assert_eq!(report.verdicts[i] == verdict::ACCEPTED, out.is_accepted());
                }
                assert_eq!(i32::from(report.to_move[i]), singles[i].current_player());
                let replayed = v.state(i).unwrap();
                let (mut kept_t, mut lean_t) = (Vec::new(), Vec::new());
                for side in [Color::White, Color::Black] {
                    assert_eq!(
                        replayed.information_state_string(side),
                        singles[i].information_state_string(side)
                    );
                    assert_eq!(
                        replayed.observation_string(side),
                        singles[i].observation_string(side)
                    );
                    // The vector's tensors, read from its lean games, are the single
                    // states' bit for bit.
                    v.games()[i].observation_tensor(side, &mut lean_t);
                    singles[i].observation_tensor(side, &mut kept_t);
                    assert_eq!(lean_t, kept_t);
                }
                assert_eq!(replayed.serialize(), singles[i].serialize());
            }
        }
        assert!(ended > 0, "no game ended in 3,000 steps");
        assert_eq!(v.games_done(), ended);
    }

    #[test]
    fn threads_play_the_same_games() {
        let mut one = env(7);
        let mut three = env(7);
        three.set_threads(3);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut actions, mut offsets) = (Vec::new(), Vec::new());
        let (mut r1, mut r3) = (StepReport::default(), StepReport::default());
        for _ in 0..2_000 {
            one.legal_actions(&mut actions, &mut offsets);
            let chosen: Vec<i64> = (0..7)
                .map(|i| {
                    let row = &actions[offsets[i] as usize..offsets[i + 1] as usize];
                    i64::from(row[rng.random_range(0..row.len())])
                })
                .collect();
            one.step(&chosen, &mut r1).unwrap();
            three.step(&chosen, &mut r3).unwrap();
            assert_eq!(r1, r3);
        }
        assert!(one.games_done() > 0);
        assert_eq!(one.games_done(), three.games_done());
    }

    /// A step by rank plays what a step plays with the action of that rank in the sorted
    /// lists: the same reports and games, on one thread and on three, and the kept counts
    /// are the lists' lengths at every step (after resets too).
    #[test]
    fn step_index_plays_the_action_of_that_rank() {
        let mut by_list = env(6);
        let mut by_rank = env(6);
        let mut threaded = env(6);
        threaded.set_threads(3);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let (mut actions, mut offsets) = (Vec::new(), Vec::new());
        let (mut r1, mut r2, mut r3) = (
            StepReport::default(),
            StepReport::default(),
            StepReport::default(),
        );
        for _ in 0..3_000 {
            by_list.legal_actions(&mut actions, &mut offsets);
            let lengths: Vec<u16> = offsets.windows(2).map(|w| (w[1] - w[0]) as u16).collect();
            assert_eq!(by_rank.counts(), &lengths[..]);
            assert_eq!(threaded.counts(), &lengths[..]);
            let ranks: Vec<i64> = lengths
                .iter()
                .map(|&c| rng.random_range(0..i64::from(c)))
                .collect();
            let chosen: Vec<i64> = ranks
                .iter()
                .zip(&offsets)
                .map(|(&k, &at)| i64::from(actions[at as usize + k as usize]))
                .collect();
            by_list.step(&chosen, &mut r1).unwrap();
            by_rank.step_index(&ranks, &mut r2).unwrap();
            threaded.step_index(&ranks, &mut r3).unwrap();
            assert_eq!(r1, r2);
            assert_eq!(r1, r3);
        }
        assert!(by_list.games_done() > 0);
        assert_eq!(by_rank.games_done(), by_list.games_done());
        for i in 0..6 {
            assert_eq!(
                by_rank.state(i).unwrap().serialize(),
                by_list.state(i).unwrap().serialize()
            );
        }
        by_rank.reset();
        assert_eq!(by_rank.counts(), &[count_of(&by_rank.fresh_lean); 6][..]);
    }

    #[test]
    fn a_bad_index_moves_no_game() {
        let mut v = env(3);
        let mut report = StepReport::default();
        let before: Vec<String> = (0..3).map(|i| v.state(i).unwrap().serialize()).collect();
        let count = i64::from(v.counts()[0]);
        assert!(matches!(
            v.step_index(&[0, 0], &mut report),
            Err(StepError::Length { given: 2, games: 3 })
        ));
        for (bad, game) in [([0, -1, 0], 1), ([0, 0, count], 2), ([1 << 40, 0, 0], 0)] {
            assert!(matches!(
                v.step_index(&bad, &mut report),
                Err(StepError::NoSuchIndex { game: g, .. }) if g == game
            ));
        }
        let after: Vec<String> = (0..3).map(|i| v.state(i).unwrap().serialize()).collect();
        assert_eq!(before, after);
        v.step_index(&[0; 3], &mut report).unwrap();
        assert_eq!(report.to_move, vec![1, 1, 1]);
    }

    #[test]
    fn a_bad_step_moves_no_game() {
        let mut v = env(3);
        let mut report = StepReport::default();
        let before: Vec<String> = (0..3).map(|i| v.state(i).unwrap().serialize()).collect();
        let e2e4 = 12 * 73 + 1;
        assert!(matches!(
            v.step(&[e2e4, e2e4], &mut report),
            Err(StepError::Length { given: 2, games: 3 })
        ));
        assert!(matches!(
            v.step(&[e2e4, -1, e2e4], &mut report),
            Err(StepError::NotLegal { game: 1, .. })
        ));
        assert!(matches!(
            v.step(&[e2e4, e2e4, 1 << 40], &mut report),
            Err(StepError::NotLegal { game: 2, .. })
        ));
        let after: Vec<String> = (0..3).map(|i| v.state(i).unwrap().serialize()).collect();
        assert_eq!(before, after);
        v.step(&[e2e4; 3], &mut report).unwrap();
        assert_eq!(report.to_move, vec![1, 1, 1]);
        assert!(VectorEnv::new(GameConfig::new("wild16", None, false).unwrap(), 0).is_err());
        assert!(
            VectorEnv::new(
                GameConfig::new("wild16", None, false).unwrap(),
                MAX_GAMES + 1
            )
            .is_err()
        );
    }
}
