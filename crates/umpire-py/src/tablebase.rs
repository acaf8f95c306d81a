//! Kriegspiel endgame tables for Python: what `umpire-tablebase` answers, asked with a FEN or
//! with White's view of a game.
//!
//! The tables (KRK, KQK, KBBK, KBNK under `wild16`) hold, for White to move, the distance to
//! mate in White moves against every defence when White knows only its own men and a *set* of
//! squares where the lone black king may be. A probe gives that distance (the DTM of the
//! Kriegspiel position), the attempts that keep it, and a win/draw/unknown verdict (WDL): a
//! forced mate is a win; no forced mate in a complete table is a draw (no forced win), and in
//! a depth-limited table is unknown. Anything a table cannot answer (other material, rules,
//! Black to move, an impossible set) is an error with the reason.

use umpire_rules::record::{Record, STANDARD_FEN};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{Color, Role, Square};
use umpire_tablebase::{Layout, Probe, Tablebase, white_knowledge};

/// Why a probe has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The FEN does not parse.
    #[error("bad FEN: {0}")]
    Fen(String),
    /// The position is not one the tables are about.
    #[error("{0}")]
    Position(String),
    /// The table cannot answer (other material, an impossible set, …).
    #[error("{0}")]
    Probe(String),
}

/// The win/draw/unknown verdict of a probe, for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// White mates by force.
    Win,
    /// No forced mate exists (the table is complete).
    Draw,
    /// The table is depth-limited and knows no forced mate within its depth.
    Unknown,
}

impl Wdl {
    /// `"win"`, `"draw"` or `"unknown"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Unknown => "unknown",
        }
    }
}

/// The answer to a probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAnswer {
    /// What the table says.
    pub probe: Probe,
    /// The verdict for White.
    pub wdl: Wdl,
    /// Whether the set of black-king squares is exact (a FEN, or a view in which White knew
    /// from the start the black king was alone) rather than a conservative superset.
    pub exact: bool,
}

fn answer(
    table: &Tablebase,
    layout: Layout,
    set: u64,
    exact: bool,
) -> Result<TableAnswer, TableError> {
    let probe = table
        .probe(layout, set)
        .map_err(|e| TableError::Probe(e.to_string()))?;
    let wdl = match (probe.distance, table.is_complete()) {
        (Some(_), _) => Wdl::Win,
        (None, true) => Wdl::Draw,
        (None, false) => Wdl::Unknown,
    };
    Ok(TableAnswer { probe, wdl, exact })
}

/// Probes a position given as FEN: White to move, White's king and one or two of Q, R, B, N,
/// and Black's lone king. With `squares`, the black king's square in the FEN is replaced by
/// that set of possible squares (what White knows); without, the set is the king's square.
pub fn probe_fen(
    table: &Tablebase,
    fen: &str,
    squares: Option<&[Square]>,
) -> Result<TableAnswer, TableError> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| TableError::Fen(format!("{e}")))?;
    let setup = parsed.as_setup();
    if setup.turn != Color::White {
        return Err(TableError::Position(
            "Black is to move; the tables are for White to move".to_owned(),
        ));
    }
    let board = &setup.board;
    let king = board
        .king_of(Color::White)
        .ok_or_else(|| TableError::Position("White has no king (or more than one)".to_owned()))?;
    let mut men = Vec::new();
    for (sq, piece) in board.clone() {
        if piece.color == Color::White && piece.role != Role::King {
            men.push((piece.role, sq));
        }
    }
    let layout = Layout::new(king, &men).map_err(|e| {
        TableError::Position(format!(
            "White's men are not a table ending (the king and one or two of Q, R, B, N): {e}"
        ))
    })?;
    let black = board.by_color(Color::Black);
    let set = match squares {
        Some(list) => {
            if list.is_empty() {
                return Err(TableError::Position(
                    "no square is given for the black king".to_owned(),
                ));
            }
            list.iter().fold(0u64, |s, &sq| s | (1u64 << u32::from(sq)))
        }
        None => {
            let bk = board.king_of(Color::Black).ok_or_else(|| {
                TableError::Position("Black has no king (or more than one)".to_owned())
            })?;
            if black.count() != 1 {
                return Err(TableError::Position(format!(
                    "Black has {} men; the tables are for a lone black king",
                    black.count()
                )));
            }
            1u64 << u32::from(bk)
        }
    };
    answer(table, layout, set, squares.is_none())
}

/// Probes White's knowledge after `ply` moves of the game `record` (White to move then),
/// worked out from White's filtered view alone: its men and the set of squares where the
/// black king may be.
pub fn probe_white_view(
    table: &Tablebase,
    record: &Record,
    ply: usize,
) -> Result<TableAnswer, TableError> {
    let view = record
        .player_view(Color::White)
        .map_err(|e| TableError::Position(e.to_string()))?;
    // Black's material at the start is public (a set-up start is told to both players);
    // where the black king stands is not.
    let fen: Fen = record
        .fen
        .parse()
        .map_err(|e| TableError::Fen(format!("{e}")))?;
    let black_men = (fen.as_setup().board.by_color(Color::Black).count() as u32).saturating_sub(1);
    let k = white_knowledge(&view, black_men, record.fen == STANDARD_FEN, ply)
        .map_err(|e| TableError::Position(e.to_string()))?;
    answer(table, k.layout, k.set, k.exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::record::Game;
    use umpire_rules::{Attempt, Command, RuleSetId};
    use umpire_tablebase::{BuildOptions, Ending};

    fn krk(depth: u8) -> Tablebase {
        Tablebase::build(
            Ending::Krk,
            BuildOptions {
                max_depth: depth,
                threads: 1,
            },
            |_| {},
        )
    }

    #[test]
    fn a_known_mate_in_one_and_the_errors() {
        let table = krk(2);
        // White Kg6, Rb1; Black Kh8: Rb8 mates.
        let a = probe_fen(&table, "7k/8/6K1/8/8/8/8/1R6 w - - 0 1", None).unwrap();
        assert_eq!(a.probe.distance, Some(1));
        assert_eq!(a.wdl, Wdl::Win);
        assert!(a.exact);
        assert!(a.probe.best.iter().any(|m| m.to_string() == "b1b8"));
        // Black king on g8 or h8: still known to be mated? Not within 1 for sure; the set is
        // the one asked.
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let b = probe_fen(
            &table,
            "7k/8/6K1/8/8/8/8/1R6 w - - 0 1",
            Some(&[sq("h8"), sq("a8")]),
        )
        .unwrap();
        assert_eq!(b.probe.set, (1 << 63) | (1 << 56));
        assert!(!b.exact);
        // A depth-limited table that knows no mate says unknown.
        let far = probe_fen(&table, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1", None).unwrap();
        assert_eq!((far.probe.distance, far.wdl), (None, Wdl::Unknown));
        for bad in [
            "not a fen",
            "7k/8/6K1/8/8/8/8/1R6 b - - 0 1",
            "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
            "7k/7p/6K1/8/8/8/8/1R6 w - - 0 1",
            "8/8/6K1/8/8/8/8/1R6 w - - 0 1",
            "7k/8/6K1/8/8/8/8/1RRR4 w - - 0 1",
        ] {
            assert!(probe_fen(&table, bad, None).is_err(), "{bad}");
        }
        // The king next to White's king is impossible with White to move: an empty set.
        assert!(matches!(
            probe_fen(&table, "8/8/6K1/6k1/8/8/8/1R6 w - - 0 1", None),
            Err(TableError::Probe(_))
        ));
    }

    #[test]
    fn white_view_of_a_set_up_game() {
        let table = krk(3);
        let rules = *RuleSetId::Wild16.rules();
        let mut game = Game::from_fen(rules, "7k/8/6K1/8/8/8/8/1R6 w - - 0 1").unwrap();
        // From the set-up start White knows only that the king is alone, not where.
        let start = probe_white_view(&table, game.record(), 0).unwrap();
        assert!(start.exact);
        assert!(start.probe.set.count_ones() > 1);
        game.submit(Command::Attempt(Attempt::from_uci("b1b8").unwrap()));
        // After the mate there is no White turn to probe.
        assert!(probe_white_view(&table, game.record(), 1).is_err());
        let english = Game::from_fen(
            *RuleSetId::English.rules(),
            "7k/8/6K1/8/8/8/8/1R6 w - - 0 1",
        )
        .unwrap();
        assert!(probe_white_view(&table, english.record(), 0).is_err());
    }
}
