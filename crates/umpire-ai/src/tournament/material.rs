//! [`MaterialAccount`]: the material each side lost in a recorded game and the balance at its
//! end, for the issue-28 rows (material lost per game; games drawn by threefold repetition while
//! one side was ahead).

use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Position};
use umpire_rules::{Command, Record, Verdict};

use crate::darkboard::mate::answers_to;
use crate::eval::{material, material_value};

/// What a game cost each side in material (pawns: P 1, N 3, B 3.25, R 5, Q 9).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MaterialAccount {
    /// The material of White's and of Black's men captured in the game.
    pub lost: [f64; 2],
    /// White's material less Black's at the end.
    pub lead: f64,
}

impl MaterialAccount {
    /// The account of `record`, replaying its accepted moves from its start; `None` if the
    /// start does not parse or a move does not replay.
    pub fn of(record: &Record) -> Option<MaterialAccount> {
        let mut pos: Chess = record
            .fen
            .parse::<Fen>()
            .ok()?
            .into_position(CastlingMode::Standard)
            .ok()?;
        let mut lost = [0.0; 2];
        for entry in &record.entries {
            let (Verdict::Accepted, Command::Attempt(attempt)) = (entry.verdict, entry.command)
            else {
                continue;
            };
            let m = pos
                .legal_moves()
                .into_iter()
                .find(|m| answers_to(m, attempt))?;
            if let Some(role) = m.capture() {
                // The side not moving loses the man taken.
                lost[usize::from(pos.turn() == Color::White)] += material_value(role);
            }
            pos.play_unchecked(m);
        }
        let board = pos.board();
        Some(MaterialAccount {
            lost,
            lead: material(board, Color::White) - material(board, Color::Black),
        })
    }

    /// The material `side` lost.
    pub fn lost_by(&self, side: Color) -> f64 {
        self.lost[usize::from(side == Color::Black)]
    }

    /// `side`'s lead at the end (negative: behind).
    pub fn lead_of(&self, side: Color) -> f64 {
        if side == Color::White {
            self.lead
        } else {
            -self.lead
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::record::Game;
    use umpire_rules::{Attempt, RuleSet};

    #[test]
    fn captures_are_charged_to_the_side_that_lost_the_man() {
        let mut game = Game::new(RuleSet::WILD16);
        // 1.e4 d5 2.exd5 Qxd5: a pawn each.
        for uci in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a2", "a1a2"] {
            let command = Command::Attempt(Attempt::from_uci(uci).unwrap());
            assert_eq!(game.submit(command).verdict, Verdict::Accepted, "{uci}");
        }
        // A rejected attempt costs nothing.
        let illegal = Command::Attempt(Attempt::from_uci("d8d1").unwrap());
        assert_ne!(game.submit(illegal).verdict, Verdict::Accepted);
        let account = MaterialAccount::of(&game.into_record()).unwrap();
        // White lost the pawns e4 (on d5) and a2; Black the pawn d5 and the queen on a2.
        assert_eq!(account.lost_by(Color::White), 2.0);
        assert_eq!(account.lost_by(Color::Black), 10.0);
        assert_eq!(account.lead_of(Color::White), 8.0);
        assert_eq!(account.lead_of(Color::Black), -8.0);
    }
}
