//! [`ProgressClock`]: the fifty-move clock as the player can count it, and the rule that a
//! winning ending makes progress with it.
//!
//! The player hears every capture (either side's) and knows its own pawn moves, the two things
//! that reset the clock besides the enemy's pawn moves, which it does not hear: its count is
//! the plies since the last reset it knows of, never fewer than the umpire's. Once that count
//! reaches [`PUSH_FROM`], the table play with surplus men (`surplus.rs`) plays a pawn push that
//! the table values among the moves it allows before any other move: the push resets the
//! clock and brings a second queen nearer. Issue 28, session 8's `raider` row at 100 ms, game
//! 23: `mcts` had a passed pawn on c4 beside its queen and two knights against the bare king for
//! the last hundred plies and never moved it; the fifty-move rule drew 16 ahead.

use umpire_rules::shakmaty::Role;
use umpire_rules::{Announcement, Command, Observation, Verdict};
use umpire_view::PlayerView;

/// The plies since the last reset the player knows of from which a pawn push comes first:
/// more than half the rule's hundred, so that the table's own mates come first and four or
/// five pushes still fit before the limit.
pub const PUSH_FROM: u32 = 50;

/// The fifty-move clock counted from the player's observations (see the
/// [module documentation](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressClock {
    plies: u32,
}

impl ProgressClock {
    /// A clock that has run `plies` plies since the last reset (a set-up start whose clock the
    /// player is told).
    pub fn starting_at(plies: u32) -> ProgressClock {
        ProgressClock { plies }
    }

    /// Plies since the last reset the player knows of.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Whether a pawn push should come first ([`PUSH_FROM`]).
    pub fn urgent(&self) -> bool {
        self.plies >= PUSH_FROM
    }

    /// Takes in `observation`, heard by the player of `view` as it stood *before* the
    /// observation (its own board tells whether its move was a pawn's).
    pub fn observe(&mut self, view: &PlayerView, observation: &Observation) {
        if !observation.moved {
            return;
        }
        let capture = observation
            .announcements
            .iter()
            .any(|a| matches!(a, Announcement::Capture { .. }));
        let pawn = observation.own.is_some_and(|own| {
            own.verdict == Verdict::Accepted
                && matches!(own.command, Command::Attempt(a)
                    if view.own_board().board().role_at(a.from) == Some(Role::Pawn))
        });
        self.plies = if capture || pawn {
            0
        } else {
            self.plies.saturating_add(1)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::{Color, Square};
    use umpire_rules::{Attempt, RuleSet, Umpire};

    /// Plays `moves` from `fen` and returns White's clock after each.
    fn clocks(fen: &str, moves: &[(Square, Square)]) -> Vec<u32> {
        let rules = RuleSet::WILD16;
        let start = umpire_testkit::pos(fen);
        let mut umpire = Umpire::from_position(rules, start.clone()).unwrap();
        let mut view = crate::setup_view(rules, &start, Color::White);
        let mut clock = ProgressClock::default();
        let mut out = Vec::new();
        for &(from, to) in moves {
            let command = Command::Attempt(Attempt {
                from,
                to,
                promotion: None,
            });
            let outcome = umpire.submit(command);
            assert_eq!(outcome.verdict, Verdict::Accepted);
            let observation = outcome.observation(command, Color::White).unwrap();
            clock.observe(&view, &observation);
            view.observe(&observation).unwrap();
            out.push(clock.plies());
        }
        out
    }

    #[test]
    fn own_pawn_moves_and_captures_reset_the_count_other_moves_add_a_ply() {
        use Square::*;
        // Quiet moves, White's pawn push, quiet moves, Black takes the knight.
        let plies = clocks(
            "4k3/8/8/8/8/8/P7/N3K3 w - - 0 1",
            &[
                (E1, D1),
                (E8, D8),
                (A2, A3),
                (D8, C7),
                (A1, B3),
                (C7, B6),
                (D1, E2),
                (B6, B5),
                (B3, D4),
                (B5, C4),
                (E2, F1),
                (C4, D4),
            ],
        );
        assert_eq!(plies, [1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0]);
        assert!(
            !ProgressClock {
                plies: PUSH_FROM - 1
            }
            .urgent()
        );
        assert!(ProgressClock { plies: PUSH_FROM }.urgent());
    }

    /// The first command of `mcts` in the endgame wrapper on White's side of `fen`, its
    /// clock at `plies`.
    fn first_command(fen: &str, plies: u32) -> Command {
        use crate::Agent;
        use crate::mcts::{MctsAgent, MctsConfig};
        let rules = RuleSet::WILD16;
        let start = umpire_testkit::pos(fen);
        let config = MctsConfig {
            budget: crate::Budget::Nodes(300),
            ..MctsConfig::default()
        };
        let view = crate::setup_view(rules, &start, Color::White);
        let mut agent = super::super::Endgame::new(MctsAgent::new(view, 1, None, config));
        agent.clock = ProgressClock { plies };
        agent.choose()
    }

    #[test]
    fn with_surplus_men_a_pawn_push_comes_first_once_the_clock_is_urgent() {
        use Square::*;
        // Queen and pawn against the bare king: the table's queen moves first, the pawn
        // once the clock has run half way.
        let fen = "8/8/8/4k3/8/8/P7/3QK3 w - - 0 1";
        let pawn = |c: Command| matches!(c, Command::Attempt(a) if a.from == A2);
        assert!(!pawn(first_command(fen, 0)));
        assert!(pawn(first_command(fen, PUSH_FROM)));
    }
}
