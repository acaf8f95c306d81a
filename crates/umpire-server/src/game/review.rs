//! A finished game step by step for the review page: each command the umpire judged, the true
//! board after it and what each player heard of it, rebuilt from the game's record.

use umpire_protocol::announcement::HeardAnnouncement;
use umpire_protocol::http::review::ReviewStep;
use umpire_protocol::side::BySide;
use umpire_rules::record::{Game, Record};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{Color, EnPassantMode};
use umpire_rules::{Heard, RuleSet};

/// The announcements of `list` that `side` hears, when `actor` gave the command.
fn heard(rules: &RuleSet, list: &[Heard], actor: Color, side: Color) -> Vec<HeardAnnouncement> {
    list.iter()
        .filter(|h| h.audience.includes(actor, side))
        .map(|h| HeardAnnouncement::new(rules, h.announcement))
        .collect()
}

/// What each player heard before the first command, and every step of `record`, replayed from
/// its start position (the record's entries hold the verdicts and announcements; the replay
/// gives the board after each). An error in words if the record does not replay.
pub fn review_steps(
    record: &Record,
) -> Result<(BySide<Vec<HeardAnnouncement>>, Vec<ReviewStep>), String> {
    let rules = *record.rules.rules();
    let mut game = Game::from_fen(rules, &record.fen).map_err(|e| format!("start: {e}"))?;
    let first = game.umpire().turn();
    let opening = BySide {
        white: heard(&rules, &record.opening, first, Color::White),
        black: heard(&rules, &record.opening, first, Color::Black),
    };
    let mut steps = Vec::with_capacity(record.entries.len());
    for (n, entry) in record.entries.iter().enumerate() {
        let outcome = game.submit_as(entry.side, entry.command);
        if outcome.verdict != entry.verdict {
            return Err(format!(
                "step {}: the record says {} but the replay {}",
                n + 1,
                entry.verdict.as_str(),
                outcome.verdict.as_str()
            ));
        }
        steps.push(ReviewStep {
            actor: entry.side.into(),
            command: entry.command.to_text(),
            verdict: entry.verdict.as_str().to_owned(),
            moved: outcome.is_accepted(),
            fen: Fen::from_position(game.umpire().position(), EnPassantMode::Legal).to_string(),
            heard: BySide {
                white: heard(&rules, &entry.announcements, entry.side, Color::White),
                black: heard(&rules, &entry.announcements, entry.side, Color::Black),
            },
        });
    }
    Ok((opening, steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_protocol::side::Side;
    use umpire_rules::{Command, RuleSetId};

    #[test]
    fn each_step_has_the_board_after_it_and_each_side_hears_its_own() {
        let rules = *RuleSetId::ALL[0].rules();
        let mut game = Game::new(rules);
        for c in ["e2e4", "e7e5", "e1e3", "d1h5", "b8c6", "h5f7"] {
            game.submit(Command::Attempt(c.parse().unwrap()));
        }
        game.submit(Command::Resign);
        let (opening, steps) = review_steps(game.record()).unwrap();
        assert_eq!(opening.white.len(), opening.black.len());
        assert_eq!(steps.len(), 7);
        assert_eq!(steps[0].command, "e2e4");
        assert!(steps[0].moved);
        assert!(
            steps[0]
                .fen
                .starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")
        );
        // The king cannot go two squares: no move, the board is the one before, and the
        // mover is told.
        assert_eq!(steps[2].command, "e1e3");
        assert!(!steps[2].moved);
        assert_ne!(steps[2].verdict, "accepted");
        assert_eq!(steps[2].fen, steps[1].fen);
        assert!(!steps[2].heard.white.is_empty());
        // Qxf7+: the capture is on the board after it.
        assert!(steps[5].moved);
        assert!(
            steps[5].fen.starts_with("r1bqkbnr/pppp1Qpp/"),
            "{}",
            steps[5].fen
        );
        let last = &steps[6];
        assert_eq!((last.command.as_str(), last.actor), ("resign", Side::Black));
        assert_eq!(last.heard.white, last.heard.black);
        assert!(!last.heard.white.is_empty());
    }

    #[test]
    fn a_record_that_does_not_replay_is_an_error() {
        let rules = *RuleSetId::ALL[0].rules();
        let mut game = Game::new(rules);
        game.submit(Command::Attempt("e2e4".parse().unwrap()));
        let mut record = game.record().clone();
        record.entries[0].verdict = umpire_rules::Verdict::Illegal;
        assert!(review_steps(&record).is_err());
    }
}
