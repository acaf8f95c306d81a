//! Hidden histories as game records: a held position's witness (the opponent's moves) is
//! completed with the opponent's other commands the player heard (rejected attempts, "Any?",
//! draw offers and answers) into a whole game whose view for the player is the real one.

use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode};
use umpire_rules::record::{Game, Record, Tags};
use umpire_rules::{Announcement, Attempt, AttemptList, Command, EndReason, Observation, Umpire};

use crate::Belief;
use crate::compare::{OpponentEvent, opponent_event};

/// Why a hidden history could not be written out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    /// No held position has this index.
    #[error("no held position has index {0}")]
    NoSuchPosition(usize),
    /// The start position is not a legal game start.
    #[error("the start position cannot begin a game")]
    BadStart,
    /// No command sequence of the opponent's reproduces what the player heard in this turn
    /// (for instance a draw by repetition the sampled history would reach earlier).
    #[error("the opponent's turn ending at observation {0} cannot be reproduced")]
    Unreproducible(usize),
    /// Our own command did not get the answer the player heard.
    #[error("the player's command at observation {0} is answered differently")]
    OwnMismatch(usize),
}

/// Most game states the search for one opponent turn may visit.
const SEARCH_LIMIT: usize = 20_000;

/// The whole game record of the hidden history witnessing held position `i`: the player's
/// commands as it gave them, the opponent's moves of the witness and, between them, opponent
/// commands that make the player hear exactly what it heard. The record's view for the
/// player equals the real game's (its observations and opening announcements are the same).
pub fn sample_record(belief: &Belief, i: usize, tags: &Tags) -> Result<Record, HistoryError> {
    let moves = belief
        .opponent_moves(i)
        .ok_or(HistoryError::NoSuchPosition(i))?;
    let fen = Fen::from_position(belief.start(), EnPassantMode::Legal).to_string();
    let mut game = Game::from_fen(*belief.rules(), &fen).map_err(|_| HistoryError::BadStart)?;
    *game.tags_mut() = tags.clone();
    let me = belief.side();
    let transcript = belief.transcript();
    let mut next_move = moves.iter().copied();
    let mut k = 0;
    while k < transcript.len() {
        let obs = &transcript[k];
        if obs.actor == me {
            let command = obs
                .own
                .map(|o| o.command)
                .ok_or(HistoryError::OwnMismatch(k))?;
            let out = game.submit(command);
            if out.observation(command, me).as_ref() != Some(obs) {
                return Err(HistoryError::OwnMismatch(k));
            }
            k += 1;
            continue;
        }
        // The opponent's observations up to its move (or the end of the transcript).
        let mut end = k;
        while end < transcript.len() && transcript[end].actor != me {
            end += 1;
            if transcript[end - 1].moved {
                break;
            }
        }
        let run = &transcript[k..end];
        let mv = if run.last().is_some_and(|o| o.moved) {
            Some(
                next_move
                    .next()
                    .ok_or(HistoryError::Unreproducible(end - 1))?,
            )
        } else {
            None
        };
        let mut budget = SEARCH_LIMIT;
        game =
            search(game, run, mv, me, &mut budget).ok_or(HistoryError::Unreproducible(end - 1))?;
        k = end;
    }
    Ok(game.into_record())
}

/// A command sequence of the opponent's that gives `me` the observations `run` (the last one
/// the move `mv`, if given), depth first.
fn search(
    game: Game,
    run: &[Observation],
    mv: Option<Attempt>,
    me: Color,
    budget: &mut usize,
) -> Option<Game> {
    let Some((obs, rest)) = run.split_first() else {
        return Some(game);
    };
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut candidates: Vec<Command> = Vec::new();
    match opponent_event(obs) {
        OpponentEvent::Moved => candidates.extend(mv.map(Command::Attempt)),
        OpponentEvent::Any => candidates.push(Command::AskAny),
        OpponentEvent::Rebuff => rebuffs(game.umpire(), &mut candidates),
        OpponentEvent::Silent => candidates.extend(silent_command(obs)),
    }
    for command in candidates {
        let mut next = game.clone();
        let out = next.submit(command);
        if out.observation(command, me).as_ref() == Some(obs)
            && let Some(done) = search(next, rest, mv, me, budget)
        {
            return Some(done);
        }
        if *budget == 0 {
            return None;
        }
    }
    None
}

/// The command behind an observation of the opponent's that tells nothing of the position.
fn silent_command(obs: &Observation) -> Option<Command> {
    obs.announcements.iter().find_map(|a| match a {
        Announcement::DrawOffered(_) => Some(Command::OfferDraw),
        Announcement::DrawDeclined(_) => Some(Command::DeclineDraw),
        Announcement::DrawAccepted(_) => Some(Command::AcceptDraw),
        Announcement::Resigned(_) => Some(Command::Resign),
        // An end a server declared for the opponent, on its turn.
        Announcement::GameOver(r) => match r.reason {
            EndReason::TimeForfeit => Some(Command::FlagFall),
            EndReason::Abandonment => Some(Command::Abandon),
            EndReason::Aborted => Some(Command::Abort),
            _ => None,
        },
        _ => None,
    })
}

/// Attempts for a rejection the player heard: every attempt on the opponent's own board, one
/// from an empty square, and pawn "captures" onto its own men.
fn rebuffs(umpire: &Umpire, out: &mut Vec<Command>) {
    let mut list = AttemptList::new();
    crate::simulate::rebuff_candidates(umpire, &mut list);
    out.extend(list.into_iter().map(Command::Attempt));
}
