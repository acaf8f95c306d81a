//! [`Screen`]: what `umpire play` shows a player, as a pure function of that player's own
//! observations, view and inputs.
//!
//! The screen never sees the umpire or the true position: the game loop hands it the
//! player's [`PlayerView`] and each [`Observation`] the player receives, and it returns the
//! text to print. Two games in which a player receives the same observations therefore give
//! that player the same screen, byte for byte (the non-interference suite compares it, and the
//! terminal client of the server, `umpire connect`, uses it too). The one exception is [`end_screen`], shown
//! only once the game is over: it is the referee's view of the whole game.

use std::fmt::Write as _;
use std::path::Path;

use umpire_rules::record::Record;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Position, Square, fen::Fen, san::San};
use umpire_rules::{
    Announcement, Attempt, Command, EndReason, GameResult, Observation, RuleSet, Verdict,
};
use umpire_view::PlayerView;

use crate::console::board::draw;
use crate::console::options::{options_text, why_text};
use crate::console::wording::{check_name, collapse, man_name, role_name, sentences};
use crate::console::words::{GAME_COMMANDS, refusal};

/// The words `umpire play` takes besides moves and the game commands.
pub const PLAY_COMMANDS: &str = "options (the attempts that could still be legal), why <move> \
(why a move is not among the options), history, status, board, help, quit (leave; the game is \
saved unfinished)";

/// The words of [`PLAY_COMMANDS`] alone, as errors list them.
pub const PLAY_WORDS: &str = "options, why <move>, history, status, board, help, quit";

/// The `help` text of `umpire play`.
pub fn help() -> String {
    format!(
        "Commands: a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e1g1, e7e8q); {GAME_COMMANDS}; {PLAY_COMMANDS}."
    )
}

/// One player's screen: its side and rule set, what it has heard so far (for `history`) and
/// the last capture square (marked on the board).
#[derive(Clone, Debug)]
pub struct Screen {
    side: Color,
    rules: RuleSet,
    colour: bool,
    history: Vec<String>,
    last_capture: Option<Square>,
    /// Whether the player's last move was typed in SAN (`options` answers in kind).
    san: std::cell::Cell<bool>,
}

impl Screen {
    /// The screen of the player of `view`; `colour` shades the board for a terminal.
    pub fn new(view: &PlayerView, colour: bool) -> Screen {
        Screen {
            side: view.side(),
            rules: *view.rules(),
            colour,
            history: Vec::new(),
            last_capture: None,
            san: std::cell::Cell::new(false),
        }
    }

    /// Notes how the player wrote a move (`text`): `options` lists moves the same way, in SAN
    /// after a move typed in SAN, in UCI after one typed in UCI (at first).
    pub fn noted(&self, text: &str) {
        self.san
            .set(umpire_rules::Command::parse_keyword_or_uci(text.trim()).is_none());
    }

    fn side_name(&self) -> &'static str {
        self.side.fold_wb("White", "Black")
    }

    /// The first lines: the rule set, the sides, the opponent's name and the commands.
    pub fn welcome(&self, opponent: &str) -> String {
        format!(
            "Kriegspiel, {} rules ({}). You play {} against {opponent}. You see only your own \
             men; the umpire tells you what the rules let you hear.\n{}",
            self.rules.id,
            self.rules.name,
            self.side_name(),
            help()
        )
    }

    /// The player's own men, the last capture square in brackets.
    pub fn board(&self, view: &PlayerView) -> String {
        draw(
            view.own_board().board(),
            self.side,
            self.last_capture,
            self.colour,
        )
    }

    /// The move number of the next move, counted as chess counts it.
    fn move_number(view: &PlayerView) -> u32 {
        // Whether White made the first move: then White is to move after an even number.
        let white_first = (view.to_move() == Color::White) == view.plies().is_multiple_of(2);
        let plies = view.plies() + u32::from(!white_first);
        plies / 2 + 1
    }

    fn checks(view: &PlayerView) -> Option<String> {
        let checks = &view.turn().checks;
        if !view.is_my_turn() || checks.is_empty() {
            return None;
        }
        let kinds: Vec<&str> = checks.iter().map(|k| check_name(*k)).collect();
        Some(format!("you are in check ({})", kinds.join(" and ")))
    }

    /// One line: move number, check, enemy men left (and the bound on their pawns), the last
    /// capture square.
    pub fn status(&self, view: &PlayerView) -> String {
        let enemy = view.enemy();
        let mut text = format!("Move {}", Self::move_number(view));
        match view.result() {
            Some(result) => {
                let _ = write!(text, ", game over: {result}");
            }
            None if view.is_my_turn() => text.push_str(", your turn"),
            None => text.push_str(", your opponent's turn"),
        }
        if let Some(check) = Self::checks(view) {
            let _ = write!(text, "; {check}");
        }
        let _ = write!(
            text,
            ". Enemy men left: {} (pawns: at most {}).",
            enemy.men, enemy.pawns_at_most
        );
        if let Some(sq) = self.last_capture {
            let _ = write!(text, " Last capture: {sq} (marked [ ] on the board).");
        }
        text
    }

    /// The prompt: side, move number and, while it holds, "you are in check".
    pub fn prompt(&self, view: &PlayerView) -> String {
        let mut text = format!("{}, move {}", self.side_name(), Self::move_number(view));
        if let Some(check) = Self::checks(view) {
            let _ = write!(text, ", {check}");
        }
        text.push_str("> ");
        text
    }

    /// The answer to one of the screen's own words, typed as `text`: `board`, `status`,
    /// `history`, `options` or `why <move>` (any case), as whole lines; `None` for any other
    /// line (a move, a game command or a console's own word).
    pub fn answer(&self, view: &PlayerView, text: &str) -> Option<String> {
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("why")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            return Some(format!("{}\n", why_text(view, text[3..].trim())));
        }
        let line = match lower.as_str() {
            // The board ends its last line itself.
            "board" => return Some(self.board(view)),
            "status" => self.status(view),
            "history" => self.history(),
            "options" => options_text(view, self.san.get()),
            _ => return None,
        };
        Some(format!("{line}\n"))
    }

    /// What the player's attempts and announcements were, move by move (the opponent's moves
    /// as `??`).
    pub fn history(&self) -> String {
        if self.history.is_empty() {
            return "Nothing has happened yet.".to_owned();
        }
        collapse(&self.history)
    }

    /// The announcements of `seen` that follow a move or answer, in words, from the player's
    /// side: `mine` says whether the player gave the command.
    fn heard(&self, before: &PlayerView, seen: &Observation, mine: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut checks: Vec<&str> = Vec::new();
        for a in &seen.announcements {
            match *a {
                Announcement::Illegal | Announcement::Impossible | Announcement::Repeat => {}
                Announcement::Capture {
                    square,
                    man,
                    en_passant,
                } => {
                    let ep = if en_passant { " en passant" } else { "" };
                    if mine {
                        out.push(format!("you captured {} on {square}{ep}", man_name(man)));
                    } else {
                        let role = before
                            .own_board()
                            .board()
                            .role_at(square)
                            .map_or("man", role_name);
                        out.push(format!("your {role} on {square} was captured{ep}"));
                    }
                }
                Announcement::Check(kind) => checks.push(check_name(kind)),
                Announcement::PawnTries(_)
                | Announcement::PawnTrySquares(_)
                | Announcement::PawnCaptures => {
                    // Announced after a move, about the side now to move.
                    let phrase = self.rules.phrase(*a);
                    out.push(if mine {
                        format!("{phrase} (for your opponent)")
                    } else {
                        phrase
                    });
                }
                Announcement::AnyAnswer(yes) => out.push(match (mine, yes) {
                    (true, true) => {
                        "Any? Yes: you have a pawn capture, and must try one".to_owned()
                    }
                    (true, false) => "Any? No: you have no pawn capture".to_owned(),
                    (false, true) => "your opponent asked Any?: yes".to_owned(),
                    (false, false) => "your opponent asked Any?: no".to_owned(),
                }),
                Announcement::Promotion(c) => out.push(if c == self.side {
                    "your pawn was promoted".to_owned()
                } else {
                    "your opponent promoted a pawn".to_owned()
                }),
                // The player's own draw commands and resignation are the head of its line.
                Announcement::DrawOffered(c)
                | Announcement::DrawDeclined(c)
                | Announcement::DrawAccepted(c)
                | Announcement::Resigned(c)
                    if mine && c == self.side => {}
                Announcement::DrawOffered(c) => out.push(if c == self.side {
                    "you offer a draw".to_owned()
                } else {
                    "your opponent offers a draw (accept or decline)".to_owned()
                }),
                Announcement::DrawDeclined(c) => out.push(if c == self.side {
                    "you decline the draw".to_owned()
                } else {
                    "your opponent declines the draw".to_owned()
                }),
                Announcement::DrawAccepted(c) => out.push(if c == self.side {
                    "you accept the draw".to_owned()
                } else {
                    "your opponent accepts the draw".to_owned()
                }),
                Announcement::Resigned(c) => out.push(if c == self.side {
                    "you resign".to_owned()
                } else {
                    "your opponent resigns".to_owned()
                }),
                // The end of the game has its own screen ([`end_screen`]).
                Announcement::GameOver(_) => {}
            }
        }
        if !checks.is_empty() {
            // Announced after a move, about the side now to move.
            let who = if mine { "your opponent is" } else { "you are" };
            out.push(format!("{who} in check ({})", checks.join(" and ")));
        }
        out
    }

    /// The rebuff the player hears for a rejected attempt, as the rule set words it.
    fn rebuff(&self, seen: &Observation) -> Option<String> {
        seen.announcements
            .iter()
            .find(|a| {
                matches!(
                    a,
                    Announcement::Illegal | Announcement::Impossible | Announcement::Repeat
                )
            })
            .map(|a| self.rules.phrase(*a))
    }

    /// The text for the player's own command and its answer.
    fn own_text(
        &self,
        before: &PlayerView,
        command: Command,
        verdict: Verdict,
        seen: &Observation,
    ) -> String {
        let said = self
            .rebuff(seen)
            .map_or(String::new(), |p| format!(" (the umpire: \"{p}\")"));
        let head = match (command, verdict) {
            (Command::Attempt(a), Verdict::Accepted) => format!("Your move {a} was played"),
            (Command::Attempt(a), Verdict::Illegal) => {
                format!("Your move {a} is illegal{said}")
            }
            (Command::Attempt(a), Verdict::Impossible) => impossible_text(before, a, &said),
            (Command::Attempt(a), Verdict::Repeat) => {
                format!("You already tried {a} this turn{said}")
            }
            (_, Verdict::Invalid(why)) => format!("{command} refused: {}", refusal(why)),
            (_, Verdict::GameOver) => "The game is over".to_owned(),
            (Command::AskAny, _) => "You ask Any?".to_owned(),
            (Command::OfferDraw, _) => "You offer a draw".to_owned(),
            (Command::AcceptDraw, _) => "You accept the draw".to_owned(),
            (Command::DeclineDraw, _) => "You decline the draw".to_owned(),
            (Command::Resign, _) => "You resign".to_owned(),
            (Command::FlagFall, _) => "Your flag fell".to_owned(),
            (Command::Abandon, _) => "You stayed away too long".to_owned(),
            (Command::Abort, _) => "The game is called off".to_owned(),
            (Command::Attempt(a), _) => format!("Your move {a}"),
        };
        let mut parts = vec![head];
        parts.extend(self.heard(before, seen, true));
        let mut text = parts.join("; ");
        text.push('.');
        text
    }

    /// The text for what the player hears of the opponent's command: its rebuff ("Opponent:
    /// No") where the rule set lets the player hear it, or "Opponent moved." and what
    /// followed.
    fn opponent_text(&self, before: &PlayerView, seen: &Observation) -> Option<String> {
        let mut parts = Vec::new();
        if seen.moved {
            parts.push("Opponent moved".to_owned());
        } else if let Some(rebuff) = self.rebuff(seen) {
            parts.push(format!("Opponent: {rebuff}"));
        }
        parts.extend(self.heard(before, seen, false));
        (!parts.is_empty()).then(|| sentences(&parts))
    }

    /// Takes in one observation of the player (`before`: its view before the observation)
    /// and returns what to print (empty if nothing). The line also goes into the history.
    pub fn hear(&mut self, before: &PlayerView, seen: &Observation) -> String {
        for a in &seen.announcements {
            if let Announcement::Capture { square, .. } = a {
                self.last_capture = Some(*square);
            }
        }
        let text = match seen.own {
            Some(own) => Some(self.own_text(before, own.command, own.verdict, seen)),
            None => self.opponent_text(before, seen),
        };
        let Some(text) = text else {
            return String::new();
        };
        let number = Self::move_number(before);
        let dots = if before.to_move() == Color::White {
            "."
        } else {
            "..."
        };
        let entry = match (seen.own, seen.moved) {
            (None, true) => format!("{number}{dots} ?? {text}"),
            _ => format!("{number}{dots} {text}"),
        };
        self.history.push(entry);
        text
    }
}

/// Why an attempt was impossible, in words, following the umpire's reasons in order: tried
/// already this turn, impossible on the own board, ruled out by the answer to "Any?" or the
/// announced pawn tries, or unable to answer the announced check.
fn impossible_text(before: &PlayerView, a: Attempt, said: &str) -> String {
    let turn = before.turn();
    let own = before.own_board();
    let queen_only = before.rules().promotion_always_queen;
    let pawn_capture = own.is_pawn_capture(a);
    let why = if turn
        .rejected
        .iter()
        .any(|r| r.from == a.from && r.to == a.to)
    {
        "refused again: you already tried it this turn"
    } else if !own.is_possible(a, queen_only) {
        "impossible on your own board"
    } else if pawn_capture && turn.any_answer == Some(false) {
        "ruled out by the umpire's answer to Any?: no pawn captures"
    } else if pawn_capture
        && (turn.pawn_tries == Some(0)
            || turn.has_pawn_capture == Some(false)
            || turn.try_squares.is_some_and(|s| !s.contains(a.from)))
    {
        "ruled out by the umpire's announcement of pawn tries"
    } else {
        "ruled out: it cannot answer the check you were told of"
    };
    format!("Your move {a} is {why}{said}")
}

/// The end of the game, from the referee's record (shown only once the game is over, or
/// when the player leaves): the result and its reason, the final position with both sides'
/// men, the move list in SAN, and where the record was saved.
pub fn end_screen(record: &Record, side: Color, saved: &Path, colour: bool) -> String {
    let mut out = String::new();
    match record.result {
        // An aborted game has no result: not a draw.
        Some(result) if result.reason == EndReason::Aborted => {
            let _ = writeln!(
                out,
                "Game over: {}.",
                crate::presence_line::result_words(result.score(), result.reason.as_str())
            );
        }
        Some(result) => {
            let _ = writeln!(out, "Game over: {result}. {}", verdict_for(result, side));
        }
        None => {
            let _ = writeln!(out, "The game is unfinished.");
        }
    }
    let (position, moves) = replay_moves(record);
    let _ = writeln!(out, "The whole game, as the umpire saw it:");
    if let Some(pos) = &position {
        out.push_str(&draw(pos.board(), side, None, colour));
    }
    if moves.is_empty() {
        let _ = writeln!(out, "No moves were played.");
    } else {
        let _ = writeln!(out, "Moves: {}", moves.join(" "));
    }
    let _ = write!(
        out,
        "The record is saved in {} (`umpire record verify {}` checks it).",
        saved.display(),
        saved.display()
    );
    out
}

fn verdict_for(result: GameResult, side: Color) -> &'static str {
    match result.winner {
        None => "A draw.",
        Some(w) if w == side => "You win.",
        Some(_) => "You lose.",
    }
}

/// The final position and the moves of `record` in SAN with move numbers.
fn replay_moves(record: &Record) -> (Option<Chess>, Vec<String>) {
    let Ok(fen) = record.fen.parse::<Fen>() else {
        return (None, Vec::new());
    };
    let Ok(mut pos) = fen.into_position::<Chess>(CastlingMode::Standard) else {
        return (None, Vec::new());
    };
    let mut moves = Vec::new();
    for entry in &record.entries {
        let (Command::Attempt(a), Verdict::Accepted) = (entry.command, entry.verdict) else {
            continue;
        };
        let Some(m) = pos
            .legal_moves()
            .into_iter()
            .find(|m| Attempt::from_move(m) == Some(a))
        else {
            break;
        };
        let number = pos.fullmoves();
        let san = San::from_move(&pos, m);
        match pos.turn() {
            Color::White => moves.push(format!("{number}. {san}")),
            Color::Black if moves.is_empty() => moves.push(format!("{number}... {san}")),
            Color::Black => moves.push(san.to_string()),
        }
        pos.play_unchecked(m);
    }
    (Some(pos), moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::Game;

    /// Plays `commands` and returns what White's screen printed for each.
    fn white_screen(commands: &[&str]) -> (Vec<String>, Screen, PlayerView) {
        let rules = RuleSet::WILD16;
        let mut game = Game::new(rules);
        let mut view = PlayerView::standard(rules, Color::White);
        let mut screen = Screen::new(&view, false);
        let mut printed = Vec::new();
        for text in commands {
            let command = game.umpire().own_board().parse_command(text).unwrap();
            let outcome = game.submit(command);
            if let Some(seen) = outcome.observation(command, Color::White) {
                printed.push(screen.hear(&view, &seen));
                view.observe(&seen).unwrap();
            }
        }
        (printed, screen, view)
    }

    #[test]
    fn announcements_say_whom_they_concern() {
        let (printed, screen, view) = white_screen(&[
            "e4", "d5", "exd5", "Qxd5", "Nc3", "Qe5", "Qe2", "Qxe2", "Bxe2",
        ]);
        assert_eq!(printed[0], "Your move e2e4 was played.");
        assert_eq!(printed[1], "Opponent moved. 1 try.");
        assert_eq!(
            printed[2],
            "Your move e4d5 was played; you captured a pawn on d5."
        );
        assert_eq!(printed[3], "Opponent moved. Your pawn on d5 was captured.");
        assert_eq!(printed[5], "Opponent moved. You are in check (file).");
        assert_eq!(
            printed[7],
            "Opponent moved. Your queen on e2 was captured. You are in check (file)."
        );
        assert_eq!(
            printed[8],
            "Your move f1e2 was played; you captured a piece on e2."
        );
        assert_eq!(screen.prompt(&view), "White, move 5> ");
        assert!(screen.history().contains("1... ?? Opponent moved. 1 try."));
        assert!(screen.history().contains("4. Your move d1e2 was played."));
        // The last capture (Bxe2 took the queen on e2) is marked on the board.
        assert!(
            screen.board(&view).contains("[♗]"),
            "{}",
            screen.board(&view)
        );
        assert!(screen.status(&view).contains("Last capture: e2"));
        assert!(
            screen
                .status(&view)
                .contains("Enemy men left: 14 (pawns: at most 7)")
        );
    }

    /// Everything `umpire play` prints for the player of `v` (welcome, each observation as it
    /// is heard, then board, status, prompt and history), rebuilt from the player's filtered
    /// record alone.
    fn screen_bytes(v: &umpire_rules::record::PlayerView) -> Vec<u8> {
        let mut view = PlayerView::at_start_of(v);
        let mut screen = Screen::new(&view, true);
        let mut out = screen.welcome("random");
        for o in &v.observations {
            out.push_str(&screen.hear(&view, o));
            view.observe(o).expect("an observation that fits");
            out.push_str(&screen.prompt(&view));
        }
        out.push_str(&screen.board(&view));
        out.push_str(&screen.status(&view));
        out.push_str(&screen.history());
        out.into_bytes()
    }

    /// The play screen joins the non-interference suite: histories paired by the independent
    /// entitlement oracle (umpire-testkit) must print byte-identical screens.
    #[test]
    fn paired_histories_print_identical_screens() {
        use umpire_rules::RuleSetId;
        use umpire_testkit::pairing::{PairConfig, paired_game};
        let mut apart = 0;
        for id in RuleSetId::ALL {
            for observer in [Color::White, Color::Black] {
                for seed in 0..2 {
                    let cfg = PairConfig {
                        rules: *id.rules(),
                        fen: None,
                        observer,
                        seed,
                        max_commands: 300,
                    };
                    let ex = paired_game(&cfg, |a, b, ctx| {
                        let (sa, sb) = (screen_bytes(a), screen_bytes(b));
                        assert!(
                            sa == sb,
                            "{id} {observer:?} seed {seed} {ctx}: screens differ:\n{}\n----\n{}",
                            String::from_utf8_lossy(&sa),
                            String::from_utf8_lossy(&sb)
                        );
                    });
                    apart += ex.plies_apart;
                }
            }
        }
        assert!(apart > 0, "the paired games never parted");
    }

    #[test]
    fn the_screens_own_words_are_answered_and_nothing_else() {
        let (_, screen, view) = white_screen(&["e4", "e5"]);
        let status = screen
            .answer(&view, "Status")
            .expect("a word of the screen");
        assert_eq!(status, format!("{}\n", screen.status(&view)));
        assert_eq!(screen.answer(&view, "board"), Some(screen.board(&view)));
        let why = screen
            .answer(&view, "WHY e1e3")
            .expect("a word of the screen");
        assert!(why.starts_with("e1e3"), "{why}");
        for other in ["e2e4", "whyever", "quit", "help", "any", ""] {
            assert_eq!(screen.answer(&view, other), None, "{other}");
        }
    }

    #[test]
    fn the_screen_depends_only_on_the_players_observations() {
        // Two games in which Black plays differently but White hears the same thing.
        let (a, sa, va) = white_screen(&["e4", "e5", "Nf3", "Nc6"]);
        let (b, sb, vb) = white_screen(&["e4", "e6", "Nf3", "Nf6"]);
        assert_eq!(a, b);
        assert_eq!(sa.history(), sb.history());
        assert_eq!(sa.board(&va), sb.board(&vb));
        assert_eq!(sa.status(&va), sb.status(&vb));
        assert_eq!(sa.prompt(&va), sb.prompt(&vb));
    }
}
