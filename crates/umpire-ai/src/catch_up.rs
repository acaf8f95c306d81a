//! [`CatchUp`]: a fresh belief that catches up with the game a bounded amount of work at a
//! time, to replace a belief restarted from a guess.
//!
//! A sampled belief dies when every position it holds is ruled out; its repair replays the
//! observations since its last exact set with a larger sample, which late in a game costs far
//! more than a decision's budget ([`crate::time_bound`]), so it fails and the agent restarts
//! the belief from a guess ([`crate::restart`]): exact about that guess only, often wrong, and
//! dying again soon (issue 28: `mcts` restarted 50–120 times a game at 3,000 nodes a decision,
//! and lost strength; with unbounded repairs, 5–20 times). A catch-up belief is a new belief
//! from the game's start, seeded afresh, fed the player's transcript a repair budget's work
//! per decision; it samples differently from the one that died, and once it has taken in every
//! observation it replaces the restarted one. Its cost is bounded per decision by the budget
//! given to [`CatchUp::advance`] plus one observation's update (whose repair, if the catch-up
//! belief dies too, is bounded by its own repair budget).

use umpire_belief::{Belief, BeliefConfig};
use umpire_rules::Observation;
use umpire_rules::shakmaty::Chess;
use umpire_view::PlayerView;

/// A belief from the start catching up with the transcript (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct CatchUp {
    belief: Belief,
    /// Observations of the transcript taken in so far.
    cursor: usize,
}

/// Where a [`CatchUp`] stands after [`CatchUp::advance`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatchUpState {
    /// Observations remain to be taken in.
    Behind,
    /// Every observation is taken in and positions are held.
    CaughtUp,
    /// Every position was ruled out (and its repair failed): useless.
    Died,
}

impl CatchUp {
    /// A belief of the player of `view` from `start` (the start the player was told), built with
    /// `config`, nothing taken in yet; `None` if `start` has no moves.
    pub fn new(view: &PlayerView, start: Chess, config: BeliefConfig) -> Option<CatchUp> {
        let belief = Belief::new(*view.rules(), start, view.side(), config).ok()?;
        Some(CatchUp { belief, cursor: 0 })
    }

    /// Takes in observations of `transcript` (the player's, from the start) until the work
    /// done in this call reaches `budget` ([`Belief::work`] units) or none remains.
    pub fn advance(&mut self, transcript: &[Observation], budget: u64) -> CatchUpState {
        let start = self.belief.work();
        while let Some(obs) = transcript.get(self.cursor) {
            if self.belief.work().saturating_sub(start) >= budget {
                return CatchUpState::Behind;
            }
            self.cursor += 1;
            if self.belief.observe(obs).is_err() || self.belief.held() == 0 {
                return CatchUpState::Died;
            }
        }
        CatchUpState::CaughtUp
    }

    /// Observations taken in so far.
    pub fn taken(&self) -> usize {
        self.cursor
    }

    /// The belief (caught up or not).
    pub fn into_belief(self) -> Belief {
        self.belief
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Agent, RandomAgent, play_observations};
    use umpire_rules::shakmaty::Color;
    use umpire_rules::shakmaty::Position;
    use umpire_rules::{RuleSet, Umpire};

    #[test]
    fn catches_up_in_bounded_steps_and_holds_the_true_position() {
        let rules = RuleSet::WILD16;
        let mut umpire = Umpire::new(rules);
        let mut white = RandomAgent::new(PlayerView::standard(rules, Color::White), 3);
        let mut black = RandomAgent::new(PlayerView::standard(rules, Color::Black), 4);
        // A short random game, both players' views kept.
        for _ in 0..500 {
            if umpire.plies() >= 12 || umpire.is_over() {
                break;
            }
            let side = umpire.position().turn();
            let mover: &mut dyn Agent = if side == Color::White {
                &mut white
            } else {
                &mut black
            };
            let command = mover.choose();
            let outcome = umpire.submit(command);
            play_observations(&mut white, Color::White, command, &outcome).unwrap();
            play_observations(&mut black, Color::Black, command, &outcome).unwrap();
        }
        assert!(umpire.plies() >= 12 || umpire.is_over());
        let view = white.view();
        let transcript = view.transcript();
        let config = crate::time_bound::belief_config(64, 9, crate::Budget::Nodes(1_000));
        let mut catch_up = CatchUp::new(view, Chess::default(), config).unwrap();
        // A tiny budget: one observation a call, never all at once.
        let mut calls = 0;
        let state = loop {
            calls += 1;
            let before = catch_up.taken();
            match catch_up.advance(transcript, 1) {
                CatchUpState::Behind => assert!(catch_up.taken() > before),
                other => break other,
            }
            assert!(calls <= transcript.len() + 1);
        };
        assert_eq!(state, CatchUpState::CaughtUp);
        assert_eq!(catch_up.taken(), transcript.len());
        assert!(calls > 1);
        let belief = catch_up.into_belief();
        assert!(belief.held() > 0);
        if belief.is_exact() {
            assert!(belief.contains(umpire.position()));
        }
    }
}
