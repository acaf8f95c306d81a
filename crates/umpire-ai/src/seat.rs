//! [`Seat`]: one side of a game about to start — its umpire, the side and the seat's seed —
//! and the agent seated there, built and told the opening announcements, as the match runner
//! seats its agents. Replays of recorded games (the examples, the replay tests, the Python
//! agent) take their seat from here, so that an agent asked about a recorded decision is the
//! one that played it.

use umpire_rules::shakmaty::{Chess, Color};
use umpire_rules::{Record, SetupError, Umpire};
use umpire_view::PlayerView;

use crate::endgame::Endgame;
use crate::mcts::{MctsAgent, MctsConfig};
use crate::{Agent, AgentConfig, AgentSpec, setup_view};

/// Why a record gives no seat.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    /// The record's start position is not a FEN of a position with a move.
    #[error("the record's start position: {0}")]
    Start(#[from] SetupError),
    /// The record names no seed for the seat (`WhiteSeed` or `BlackSeed`).
    #[error("the record has no {0} tag")]
    NoSeed(&'static str),
}

/// One side of a game before its first command: the umpire (from the game's rule set and
/// start position), the side, and the seed its agent is built with.
#[derive(Debug, Clone)]
pub struct Seat {
    umpire: Umpire,
    side: Color,
    seed: u64,
}

impl Seat {
    /// The seat of `side` at `umpire`'s game (an umpire before its first command), `seed` for
    /// its agent.
    pub fn new(umpire: Umpire, side: Color, seed: u64) -> Seat {
        Seat { umpire, side, seed }
    }

    /// The seat of `side` in `record`: its rule set, its start position and the seed its tags
    /// name for the side (`WhiteSeed`, `BlackSeed`, as `umpire match` writes them).
    pub fn of_record(record: &Record, side: Color) -> Result<Seat, SeatError> {
        let tag = if side == Color::White {
            "WhiteSeed"
        } else {
            "BlackSeed"
        };
        let seed = record
            .tags
            .get(tag)
            .and_then(|s| s.trim().parse().ok())
            .ok_or(SeatError::NoSeed(tag))?;
        let umpire = Umpire::from_fen(*record.rules.rules(), &record.fen)?;
        Ok(Seat::new(umpire, side, seed))
    }

    /// The side.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The seed of the seat's agent.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The game's umpire before its first command.
    pub fn umpire(&self) -> &Umpire {
        &self.umpire
    }

    /// What the side knows before the first command: the standard start's view, or from a
    /// set-up position its own men and the enemy's count ([`setup_view`]).
    pub fn view(&self) -> PlayerView {
        let rules = *self.umpire.rules();
        let position = self.umpire.position();
        if *position == Chess::default() {
            PlayerView::standard(rules, self.side)
        } else {
            setup_view(rules, position, self.side)
        }
    }

    /// Seats the agent `build` makes from the seat's view and seed, tells it the opening
    /// announcements, and returns the game's umpire with it.
    pub fn take<A: Agent>(self, build: impl FnOnce(PlayerView, u64) -> A) -> (Umpire, A) {
        let mut agent = build(self.view(), self.seed);
        agent.hear_opening(&crate::opening_heard(&self.umpire));
        (self.umpire, agent)
    }

    /// Seats the agent `spec` names (`mcts@4000`, `raider`, …) as `umpire match` builds it,
    /// its budget the spec's own or the default.
    pub fn take_spec(self, spec: &AgentSpec) -> (Umpire, Box<dyn Agent>) {
        let config = AgentConfig::default();
        let config = AgentConfig {
            budget: spec.budget(config.budget),
            ..config
        };
        self.take(|view, seed| spec.build(view, seed, &config))
    }

    /// Seats `mcts` with `config`, in the endgame wrapper as the `mcts` agent plays; it knows
    /// the start position if it is the standard one (as `AgentKind::Mcts` builds it).
    pub fn take_mcts(self, config: MctsConfig) -> (Umpire, Endgame<MctsAgent>) {
        self.take(|view, seed| {
            let start = view.standard_start().then(Chess::default);
            Endgame::new(MctsAgent::new(view, seed, start, config))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::record::Game;
    use umpire_rules::shakmaty::Position;

    /// A record of a game from `fen` with no command and the given seed tags.
    fn record(fen: &str, seeds: &[(&str, &str)]) -> Record {
        let mut game = Game::from_fen(RuleSet::WILD16, fen).unwrap();
        for (tag, value) in seeds {
            game.set_tag(tag, value).unwrap();
        }
        game.into_record()
    }

    #[test]
    fn a_record_seat_takes_the_sides_seed_and_start() {
        let standard = umpire_rules::record::STANDARD_FEN;
        let record = record(standard, &[("WhiteSeed", "11"), ("BlackSeed", "29")]);
        let white = Seat::of_record(&record, Color::White).unwrap();
        let black = Seat::of_record(&record, Color::Black).unwrap();
        assert_eq!((white.seed(), black.seed()), (11, 29));
        assert_eq!(black.side(), Color::Black);
        assert!(black.view().standard_start());
        assert_eq!(black.umpire().position(), &Chess::default());
    }

    #[test]
    fn a_record_without_the_seats_seed_gives_no_seat() {
        let record = record(umpire_rules::record::STANDARD_FEN, &[("WhiteSeed", "3")]);
        assert!(Seat::of_record(&record, Color::White).is_ok());
        assert!(matches!(
            Seat::of_record(&record, Color::Black),
            Err(SeatError::NoSeed("BlackSeed"))
        ));
    }

    #[test]
    fn a_set_up_seat_starts_from_its_own_men() {
        let fen = "8/p7/8/7k/8/2R5/8/K7 w - - 0 1";
        let record = record(fen, &[("WhiteSeed", "1"), ("BlackSeed", "2")]);
        let seat = Seat::of_record(&record, Color::White).unwrap();
        let view = seat.view();
        assert!(!view.standard_start());
        let (umpire, agent) = seat.take_mcts(MctsConfig::default());
        assert_eq!(agent.view().own_board(), view.own_board());
        assert_eq!(umpire.position().board().occupied().count(), 4);
    }

    #[test]
    fn a_spec_is_seated_on_its_side() {
        let umpire = Umpire::new(RuleSet::WILD16);
        let spec: AgentSpec = "random".parse().unwrap();
        let (umpire, agent) = Seat::new(umpire, Color::Black, 7).take_spec(&spec);
        assert_eq!(agent.view().side(), Color::Black);
        assert_eq!(umpire.position(), &Chess::default());
    }
}
