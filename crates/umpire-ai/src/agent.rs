//! The interface every player implements.

use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, Attempt, Command, Observation, Outcome, Umpire};
use umpire_view::{PlayerView, ViewError};

use crate::Analysis;

/// A Kriegspiel player. It learns only through [`Agent::observe`] (and the opening
/// announcements), and is asked for a command when it is its turn or when a draw offer
/// awaits its answer. Agents are `Send` so that a match runner or a server can move a game,
/// with its two agents, to another thread.
pub trait Agent: Send {
    /// A short name for records and tables.
    fn name(&self) -> &str;

    /// What the agent knows.
    fn view(&self) -> &PlayerView;

    /// Takes in the announcements made before the first command.
    fn hear_opening(&mut self, announcements: &[Announcement]);

    /// Takes in one observation of the agent's player.
    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError>;

    /// The agent's next command on its turn.
    fn choose(&mut self) -> Command;

    /// Whether the agent accepts the opponent's draw offer.
    fn accepts_draw(&mut self) -> bool {
        false
    }

    /// For each of `attempts`, the share of the positions the agent cannot rule out in which
    /// it is legal and stalemates the opponent, written to `out` (one entry per attempt);
    /// `false`, with `out` untouched, if the agent keeps no such positions (the default). The
    /// [`Endgame`](crate::endgame::Endgame) wrapper checks its mating net's choice with it.
    fn stalemate_shares(&mut self, attempts: &[Attempt], out: &mut Vec<f32>) -> bool {
        let _ = (attempts, out);
        false
    }

    /// What a searching agent thought of its last [`Agent::choose`]: value and principal
    /// line. `None` for agents that do not search, and before the first choice.
    fn analysis(&self) -> Option<&Analysis> {
        None
    }
}

/// A boxed agent is the agent it holds (so that agents built by name, `Box<dyn Agent>`, go
/// wherever an agent does).
impl<A: Agent + ?Sized> Agent for Box<A> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn view(&self) -> &PlayerView {
        (**self).view()
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        (**self).hear_opening(announcements);
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        (**self).observe(observation)
    }

    fn choose(&mut self) -> Command {
        (**self).choose()
    }

    fn accepts_draw(&mut self) -> bool {
        (**self).accepts_draw()
    }

    fn stalemate_shares(&mut self, attempts: &[Attempt], out: &mut Vec<f32>) -> bool {
        (**self).stalemate_shares(attempts, out)
    }

    fn analysis(&self) -> Option<&Analysis> {
        (**self).analysis()
    }
}

/// Gives `agent`, seated as `side` by the caller, what `side` learns from `outcome` of
/// `command`, if anything. The seat is the caller's, never the agent's word: an agent whose
/// view claims the other side is refused ([`ViewError::WrongPlayer`]) and told nothing, so a
/// lying agent never hears the opponent's own commands.
pub fn play_observations(
    agent: &mut dyn Agent,
    side: Color,
    command: Command,
    outcome: &Outcome,
) -> Result<(), ViewError> {
    let claimed = agent.view().side();
    if claimed != side {
        return Err(ViewError::WrongPlayer {
            view: claimed,
            observer: side,
        });
    }
    match outcome.observation(command, side) {
        Some(observation) => agent.observe(&observation),
        None => Ok(()),
    }
}

/// The announcements `umpire` makes before the first command, as an agent takes them in
/// ([`Agent::hear_opening`]): the opening is public, both players hear all of it.
pub fn opening_heard(umpire: &Umpire) -> Vec<Announcement> {
    umpire
        .opening_announcements()
        .iter()
        .map(|h| h.announcement)
        .collect()
}
