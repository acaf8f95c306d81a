//! [`PeekAgent`]: the cheating yardstick. It sees the true board.

use umpire_rules::shakmaty::Position;
use umpire_rules::{Announcement, Attempt, Command, Observation};
use umpire_view::{PlayerView, ViewError};

use super::TrueBoard;
use super::greedy::best_move;
use crate::{Agent, RandomAgent};

/// The plies [`PeekAgent`] searches before the captures.
pub const PEEK_DEPTH: u32 = 2;

/// **Cheats**: reads the true position from a [`TrueBoard`] and plays the best move of a
/// shallow full-information search ([`best_move`] at [`PEEK_DEPTH`] plies and the captures
/// beyond): safe captures first, else a move that leaves nothing hanging, a random one among
/// equals (seeded). No player that hears only its announcements can beat it reliably; an
/// agent's score against it shows how well that agent keeps its men safe.
///
/// Only for measurement: `umpire match --allow-cheating-agents` builds it; the server and
/// `umpire play` never offer it. While the slot is empty, or holds a position where it is not
/// its turn, it plays a random attempt its own board allows (as [`crate::RandomAgent`]).
#[derive(Clone, Debug)]
pub struct PeekAgent {
    truth: TrueBoard,
    /// Its view, its options and its seeded generator, and its play while blind.
    fallback: RandomAgent,
}

impl PeekAgent {
    /// A cheating agent with this view, reading the true position from `truth`, seeded.
    pub fn new(view: PlayerView, truth: TrueBoard, seed: u64) -> PeekAgent {
        PeekAgent {
            truth,
            fallback: RandomAgent::new(view, seed ^ 0x7065_656b),
        }
    }

    /// The search's choice in the true position, if the slot holds one with this agent to move
    /// and the choice is an attempt the view still allows.
    fn peeked(&mut self) -> Option<Attempt> {
        let pos = self.truth.get()?;
        if pos.turn() != self.fallback.view().side() {
            return None;
        }
        let (moves, _) = best_move(&pos, PEEK_DEPTH)?;
        let options = self.fallback.options();
        let attempts: Vec<Attempt> = moves
            .iter()
            .filter_map(Attempt::from_move)
            .filter(|a| options.contains(a))
            .collect();
        if attempts.is_empty() {
            return None;
        }
        Some(attempts[self.fallback.draw(attempts.len())])
    }
}

impl Agent for PeekAgent {
    fn name(&self) -> &str {
        "peek"
    }

    fn view(&self) -> &PlayerView {
        self.fallback.view()
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.fallback.hear_opening(announcements);
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        self.fallback.observe(observation)
    }

    fn choose(&mut self) -> Command {
        let may_ask = self.fallback.refresh_options();
        match self.peeked() {
            Some(a) => Command::Attempt(a),
            None => self.fallback.choose_among(may_ask),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup_view;
    use umpire_rules::shakmaty::{Color, Square};
    use umpire_rules::{AttemptList, RuleSet};

    use umpire_testkit::pos;

    #[test]
    fn peek_takes_a_hanging_queen() {
        // The black queen on d5 hangs to the knight on c3 (and nothing guards it).
        let p = pos("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1");
        let truth = TrueBoard::new();
        truth.set(&p);
        for seed in 0..5 {
            let mut peek = PeekAgent::new(
                setup_view(RuleSet::WILD16, &p, Color::White),
                truth.clone(),
                seed,
            );
            match peek.choose() {
                Command::Attempt(a) => {
                    assert_eq!((a.from, a.to), (Square::C3, Square::D5), "seed {seed}")
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn blind_peek_plays_only_what_its_own_board_allows() {
        let p = pos("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1");
        let view = setup_view(RuleSet::WILD16, &p, Color::White);
        let mut offered = AttemptList::new();
        view.options(&mut offered);
        let mut peek = PeekAgent::new(view, TrueBoard::new(), 3);
        for _ in 0..20 {
            match peek.choose() {
                Command::Attempt(a) => assert!(offered.contains(&a)),
                Command::AskAny => {}
                other => panic!("{other:?}"),
            }
        }
    }
}
