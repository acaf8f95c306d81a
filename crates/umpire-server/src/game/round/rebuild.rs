//! Event sourcing: a game is its row and its commands; [`replay`] rebuilds the umpire, both
//! players' views and what the spectators heard from them, and [`take_in`] is how each of
//! them learns from one outcome (on replay and live alike).

use umpire_rules::record::{Game, STANDARD_FEN};
use umpire_rules::shakmaty::Color;
use umpire_rules::wire::{color_name, parse_color};
use umpire_rules::{Command, Outcome, RuleSet, RuleSetId, Verdict};
use umpire_view::PlayerView;

use super::index;
use crate::game::house_agent::HouseAgent;
use crate::game::projection::{self, SpectatorObservation};
use crate::store::{CommandRow, GameRow};

/// The rule set of a stored game.
pub fn rules_of(row: &GameRow) -> Result<RuleSet, String> {
    let id: RuleSetId = row
        .rules
        .parse()
        .map_err(|e| format!("game {}: {e}", row.id))?;
    Ok(*id.rules())
}

/// A player's view at the start of `game`, having heard the opening announcements.
pub(super) fn fresh_view(rules: RuleSet, game: &Game, side: Color) -> PlayerView {
    let mut view = if game.record().fen == STANDARD_FEN {
        PlayerView::standard(rules, side)
    } else {
        umpire_ai::setup_view(rules, game.umpire().position(), side)
    };
    view.hear_opening(game.record().opening.iter().map(|h| h.announcement));
    view
}

/// A game rebuilt from storage: the umpire with its record, the players' views, what
/// spectators heard and the clocks.
#[derive(Debug)]
pub struct Replayed {
    /// The umpire and the record.
    pub game: Game,
    /// White's and Black's views.
    pub views: [PlayerView; 2],
    /// What the spectators heard.
    pub spectators: Vec<SpectatorObservation>,
    /// Each side's clock after its last stored move (or the end).
    pub clock_ms: [i64; 2],
}

/// Rebuilds a game from its row and commands (event sourcing: the commands are the game).
pub fn replay(row: &GameRow, commands: &[CommandRow]) -> Result<Replayed, String> {
    let rules = rules_of(row)?;
    let game = Game::from_fen(rules, &row.fen).map_err(|e| format!("game {}: {e}", row.id))?;
    let views = [
        fresh_view(rules, &game, Color::White),
        fresh_view(rules, &game, Color::Black),
    ];
    let mut r = Replayed {
        game,
        views,
        spectators: Vec::new(),
        clock_ms: [row.initial_ms; 2],
    };
    for c in commands {
        let side = parse_color(&c.side)
            .ok_or_else(|| format!("game {} command {}: bad side {:?}", row.id, c.seq, c.side))?;
        // The record words: a player's commands and the ends the server declared (`flag`,
        // `abandon`, `abort`, stored with the side they concern since before the rules core
        // knew them: the same words load unchanged).
        let command = Command::parse_record_word(&c.command).ok_or_else(|| {
            format!(
                "game {} command {}: unreadable {:?}",
                row.id, c.seq, c.command
            )
        })?;
        let actor = r.game.umpire().actor(command);
        if actor != side && !by_either_side(command) {
            return Err(format!(
                "game {} command {}: stored as {}'s but it is {}'s",
                row.id,
                c.seq,
                c.side,
                color_name(actor)
            ));
        }
        let outcome = r.game.submit_as(side, command);
        if command.is_declared_end() && outcome.verdict != Verdict::Answered {
            return Err(format!(
                "game {} command {}: the umpire refuses the stored end {:?} ({})",
                row.id,
                c.seq,
                c.command,
                outcome.verdict.as_str()
            ));
        }
        take_in(&mut r.views, &mut r.spectators, None, command, &outcome);
        // The clocks come back from the moves and the end alone: the reading stored with any
        // other command (a rejected attempt the opponent never heard of) would tell when it
        // was made.
        if outcome.is_accepted() || r.game.result().is_some() {
            r.clock_ms[index(side)] = c.clock_ms;
        }
    }
    Ok(r)
}

/// Whether `command` may come from the side not to move: a resignation, or an end the server
/// declares for a side (a flag fall, an abandonment, an abort).
fn by_either_side(command: Command) -> bool {
    command == Command::Resign || command.is_declared_end()
}

/// Gives each view, agent and the spectator log what it learns from one outcome.
pub(super) fn take_in(
    views: &mut [PlayerView; 2],
    spectators: &mut Vec<SpectatorObservation>,
    mut agents: Option<&mut [Option<HouseAgent>; 2]>,
    command: Command,
    outcome: &Outcome,
) {
    for side in [Color::White, Color::Black] {
        if let Some(obs) = outcome.observation(command, side) {
            // The umpire's own observations always fit the view built from the same game.
            let _ = views[index(side)].observe(&obs);
            if let Some(agents) = agents.as_deref_mut()
                && let Some(agent) = &mut agents[index(side)]
                && !agent.observe(&obs)
            {
                tracing::warn!("a house agent could not take in its observation");
            }
        }
    }
    if let Some(s) = projection::spectator_observation(outcome) {
        spectators.push(s);
    }
}
