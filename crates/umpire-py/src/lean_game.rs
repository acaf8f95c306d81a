//! [`LeanGame`]: a game of a vectorised environment that keeps its history compactly.
//!
//! A [`KriegspielState`] keeps the game's record (an entry per command) and each player's
//! transcript (an observation per command), which grow into memory no step touches again: in a
//! vector of many games nearly every step then misses the caches on writing. A `LeanGame`
//! plays the same games with the same umpire and the same views, but keeps of its history only
//! the action ids played (two bytes a command) and, per player, what the observation tensor
//! reads of the past ([`LastHeard`]). The full state (record, transcripts) is rebuilt by
//! replaying the actions from the start when it is asked for ([`LeanGame::replay`]).
//!
//! With the guided filters the views keep their transcripts (the filters read them); only the
//! record is left out then.

use umpire_rules::shakmaty::Color;
use umpire_rules::{Command, Outcome, Umpire, Verdict};
use umpire_view::PlayerView;

use crate::action::{self, Action};
use crate::action_set::ActionSet;
use crate::legal::legal_set_of;
use crate::state::{KriegspielState, StateError, index};
use crate::tensor::{self, LastHeard};

/// The most commands a lean game keeps (two bytes each: 2 MiB), the bound on its history.
/// Random games take a few thousand commands; a game past the bound (possible in principle:
/// the fifty-move rule bounds the moves, each turn's rejected attempts are bounded, but their
/// product is larger) goes on, but can no longer be replayed ([`LeanGame::replay`] says so).
pub const MAX_PLAYED: usize = 1 << 20;

/// One game of a vectorised environment, its history kept as the actions played.
#[derive(Clone, Debug)]
pub struct LeanGame {
    umpire: Umpire,
    views: [PlayerView; 2],
    heard: [LastHeard; 2],
    /// The action ids played since the start, in order (at most [`MAX_PLAYED`]).
    played: Vec<u16>,
    /// Whether more than [`MAX_PLAYED`] commands were played (the list is then incomplete).
    overflow: bool,
    guided: bool,
    mover: ActionSet,
    mover_count: u16,
}

impl LeanGame {
    /// The lean game at the position of `state`, which must be at its start (no command
    /// played: the actions kept are counted from here).
    pub fn start_of(state: &KriegspielState) -> LeanGame {
        let view = |side| state.view(side).clone();
        LeanGame {
            umpire: state.game().umpire().clone(),
            heard: [Color::White, Color::Black]
                .map(|side| LastHeard::of_transcript(state.view(side).transcript())),
            views: [view(Color::White), view(Color::Black)],
            played: Vec::new(),
            overflow: false,
            guided: state.config().guided,
            mover: state.mover_set().clone(),
            mover_count: state.mover_count() as u16,
        }
    }

    /// Starts again from `start` (a game made by [`LeanGame::start_of`]), keeping the buffers.
    pub fn reset_to(&mut self, start: &LeanGame) {
        // Every field is named: a new field fails to compile here until it is copied.
        let LeanGame {
            umpire,
            views,
            heard,
            played,
            overflow,
            guided,
            mover,
            mover_count,
        } = start;
        self.umpire.clone_from(umpire);
        for (mine, theirs) in self.views.iter_mut().zip(views) {
            mine.clone_from(theirs);
        }
        self.heard = *heard;
        self.played.clone_from(played);
        self.overflow = *overflow;
        self.guided = *guided;
        self.mover.clone_from(mover);
        self.mover_count = *mover_count;
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.umpire.turn()
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.umpire.is_over()
    }

    /// 0 (White) or 1 (Black) to move, or [`crate::state::TERMINAL_PLAYER`].
    pub fn current_player(&self) -> i32 {
        if self.is_terminal() {
            crate::state::TERMINAL_PLAYER
        } else {
            match self.turn() {
                Color::White => 0,
                Color::Black => 1,
            }
        }
    }

    /// The returns (White, Black), as [`KriegspielState::returns`].
    pub fn returns(&self) -> [f64; 2] {
        match self.umpire.result().and_then(|r| r.winner) {
            Some(Color::White) => [1.0, -1.0],
            Some(Color::Black) => [-1.0, 1.0],
            None => [0.0, 0.0],
        }
    }

    /// The legal actions of the player to move as a set (empty when the game is over).
    pub fn mover_set(&self) -> &ActionSet {
        &self.mover
    }

    /// The legal actions of the player to move, sorted.
    pub fn mover_actions(&self) -> impl Iterator<Item = u16> + '_ {
        self.mover.iter()
    }

    /// How many legal actions the player to move has.
    pub fn mover_count(&self) -> usize {
        usize::from(self.mover_count)
    }

    /// The action ids played since the start.
    pub fn played(&self) -> &[u16] {
        &self.played
    }

    /// `side`'s observation tensor, byte for byte [`KriegspielState::observation_tensor`] of
    /// the replayed state.
    pub fn observation_tensor(&self, side: Color, out: &mut Vec<f32>) {
        tensor::observation_tensor_with(&self.views[index(side)], &self.heard[index(side)], out);
    }

    /// The full state: `start` (the state this game started from, as given to
    /// [`LeanGame::start_of`]) with the actions played replayed onto it.
    pub fn replay(&self, start: &KriegspielState) -> Result<KriegspielState, StateError> {
        if self.overflow {
            return Err(StateError::Load(format!(
                "the game is longer than the {MAX_PLAYED} commands a vectorised game keeps"
            )));
        }
        let mut state = start.clone();
        for (k, &id) in self.played.iter().enumerate() {
            state.play_legal(id).ok_or_else(|| {
                StateError::Load(format!("command {k}: action {id} does not replay"))
            })?;
        }
        Ok(state)
    }

    /// Plays `id`, one of the mover's legal actions (checked by the caller), as
    /// [`KriegspielState::play_legal`] does, and gives back the verdict. `None`, with nothing
    /// played, for an action that means no command for the mover.
    pub(crate) fn play_legal_verdict(&mut self, id: u16) -> Option<Verdict> {
        let action = usize::from(id);
        let side = self.umpire.turn();
        let pawns = self.views[index(side)].own_board().board().pawns();
        let command = match action::decode(action, side, |sq| pawns.contains(sq))? {
            Action::Attempt(a) => Command::Attempt(a),
            Action::AskAny => Command::AskAny,
        };
        let before = {
            let t = self.views[index(side)].turn();
            (t.must_try_pawn_capture, t.any_answer)
        };
        let outcome = self.umpire.submit(command);
        if self.played.len() < MAX_PLAYED {
            self.played.push(id);
        } else {
            self.overflow = true;
        }
        self.observe_all(command, &outcome);
        match command {
            Command::Attempt(attempt)
                if outcome.verdict.is_rejection() && !self.guided && self.turn() == side =>
            {
                // As `KriegspielState::play_legal`: a rejection that leaves the "Any?" answer
                // and the pawn-capture obligation as they were takes only itself out.
                let t = self.views[index(side)].turn();
                if (t.must_try_pawn_capture, t.any_answer) == before {
                    if t.rejected.contains(&attempt) && self.mover.contains(action) {
                        self.mover.remove(action);
                        self.mover_count -= 1;
                    }
                } else {
                    self.refresh();
                }
            }
            _ => self.refresh(),
        }
        Some(outcome.verdict)
    }

    fn observe_all(&mut self, command: Command, outcome: &Outcome) {
        for side in [Color::White, Color::Black] {
            if let Some(obs) = outcome.observation(command, side) {
                let i = index(side);
                // The umpire's observations always fit the views they are built for.
                let _ = if self.guided {
                    self.views[i].observe(&obs)
                } else {
                    self.views[i].observe_unkept(&obs)
                };
                self.heard[i].hear(&obs);
            }
        }
    }

    fn refresh(&mut self) {
        self.mover.clear();
        if !self.is_terminal() {
            legal_set_of(
                &self.views[index(self.turn())],
                self.guided,
                &mut self.mover,
            );
        }
        // At most 4,673 actions: fits in a u16.
        self.mover_count = self.mover.len() as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legal::tests::SETUPS;
    use crate::state::GameConfig;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use umpire_rules::RuleSetId;
    use umpire_rules::shakmaty::{EnPassantMode, Position, Square};

    /// Every output of a replayed lean game equals the kept state's.
    fn assert_replay_equals(lean: &LeanGame, start: &KriegspielState, kept: &KriegspielState) {
        let replayed = lean.replay(start).unwrap();
        assert_eq!(replayed.serialize(), kept.serialize());
        assert_eq!(replayed.game().record(), kept.game().record());
        assert_eq!(
            replayed.game().umpire().position(),
            kept.game().umpire().position()
        );
        assert_eq!(
            replayed.mover_actions().collect::<Vec<_>>(),
            kept.mover_actions().collect::<Vec<_>>()
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for side in [Color::White, Color::Black] {
            assert_eq!(replayed.view(side), kept.view(side));
            assert_eq!(
                replayed.observation_string(side),
                kept.observation_string(side)
            );
            assert_eq!(
                replayed.information_state_string(side),
                kept.information_state_string(side)
            );
            replayed.observation_tensor(side, &mut a);
            kept.observation_tensor(side, &mut b);
            assert_eq!(a, b);
            replayed.stacked_observation_tensor(side, 4, &mut a);
            kept.stacked_observation_tensor(side, 4, &mut b);
            assert_eq!(a, b);
        }
    }

    /// A lean game plays exactly what a kept-history state plays, at every step of random
    /// games under every rule set, from the standard start and from set-ups that reach
    /// promotions, castling and en passant, plain and guided: the same verdicts, legal
    /// actions, returns and observation tensors (bit for bit, from the lean game's own
    /// views); and its replay equals the kept state (record, views, strings, tensors,
    /// stacked tensors) after every step.
    #[test]
    fn a_lean_game_is_the_kept_state_at_every_step() {
        let (mut steps_total, mut replays, mut promotions, mut castles) = (0, 0, 0, 0);
        let mut en_passant = 0;
        for id in RuleSetId::ALL {
            let fens = std::iter::once(None).chain(SETUPS.iter().map(|f| Some(f.to_string())));
            for (k, fen) in fens.enumerate() {
                for guided in [false, true] {
                    let config = GameConfig::new(id.as_str(), fen.clone(), guided).unwrap();
                    let start = KriegspielState::new(config).unwrap();
                    let fresh = LeanGame::start_of(&start);
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31 + k as u64);
                    let games = if guided { 1 } else { 2 };
                    for _ in 0..games {
                        let mut kept = start.clone();
                        let mut lean = fresh.clone();
                        let mut steps = 0;
                        let (mut a, mut b) = (Vec::new(), Vec::new());
                        while !kept.is_terminal() && steps < 2_000 {
                            let ctx = format!("{id} setup {k} guided {guided} step {steps}");
                            assert_eq!(lean.mover_count(), kept.mover_count(), "{ctx}");
                            let r = rng.random_range(0..kept.mover_count());
                            let action = kept.mover_set().nth(r).unwrap();
                            assert_eq!(lean.mover_set().nth(r), Some(action), "{ctx}");
                            let text = kept.action_to_string(usize::from(action));
                            if text.len() == 5 {
                                promotions += 1;
                            }
                            let before = kept.game().umpire().position().clone();
                            if before.ep_square(EnPassantMode::Legal).is_some() {
                                en_passant += 1;
                            }
                            let verdict = kept.apply_action(i64::from(action)).unwrap().verdict;
                            assert_eq!(lean.play_legal_verdict(action), Some(verdict), "{ctx}");
                            let king_from = |sq: Square| before.board().kings().contains(sq);
                            if verdict == Verdict::Accepted
                                && ((matches!(text.as_str(), "e1g1" | "e1c1")
                                    && king_from(Square::E1))
                                    || (matches!(text.as_str(), "e8g8" | "e8c8")
                                        && king_from(Square::E8)))
                            {
                                castles += 1;
                            }
                            steps += 1;
                            assert_eq!(lean.is_terminal(), kept.is_terminal(), "{ctx}");
                            assert_eq!(lean.returns(), kept.returns(), "{ctx}");
                            assert_eq!(lean.current_player(), kept.current_player(), "{ctx}");
                            assert_eq!(
                                lean.mover_actions().collect::<Vec<_>>(),
                                kept.mover_actions().collect::<Vec<_>>(),
                                "{ctx}"
                            );
                            for side in [Color::White, Color::Black] {
                                lean.observation_tensor(side, &mut a);
                                kept.observation_tensor(side, &mut b);
                                assert_eq!(a, b, "{ctx} {side:?}");
                                let (l, kv) = (&lean.views[index(side)], kept.view(side));
                                assert_eq!(l.own_board(), kv.own_board(), "{ctx}");
                                assert_eq!(l.turn(), kv.turn(), "{ctx}");
                                assert_eq!(l.enemy(), kv.enemy(), "{ctx}");
                                assert_eq!(
                                    lean.heard[index(side)],
                                    LastHeard::of_transcript(kv.transcript()),
                                    "{ctx}"
                                );
                            }
                            assert_replay_equals(&lean, &start, &kept);
                            replays += 1;
                        }
                        steps_total += steps;
                        assert_eq!(lean.played().len(), steps);
                    }
                }
            }
        }
        assert!(steps_total > 30_000, "{steps_total}");
        assert!(replays > 10_000, "{replays}");
        assert!(promotions > 0 && castles > 0 && en_passant > 0);
    }

    /// A game reset to its start plays as a fresh one.
    #[test]
    fn a_reset_game_is_a_fresh_game() {
        let start = KriegspielState::new(GameConfig::new("wild16", None, false).unwrap()).unwrap();
        let fresh = LeanGame::start_of(&start);
        let mut g = fresh.clone();
        for _ in 0..40 {
            if g.is_terminal() {
                break;
            }
            let a = g.mover_set().nth(g.mover_count() / 2).unwrap();
            g.play_legal_verdict(a).unwrap();
        }
        assert!(!g.played().is_empty());
        g.reset_to(&fresh);
        assert!(g.played().is_empty());
        assert_eq!(g.replay(&start).unwrap().serialize(), start.serialize());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        g.observation_tensor(Color::White, &mut a);
        start.observation_tensor(Color::White, &mut b);
        assert_eq!(a, b);
    }
}
