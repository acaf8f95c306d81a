//! Writing PGN: tag pairs, and movetext with move numbers, comments and line wrapping.

use shakmaty::Color;

/// The widest movetext line written (the PGN standard's limit is 255; 79 reads well).
const WIDTH: usize = 79;

/// Writes one tag pair line, escaping `\` and `"`.
pub(crate) fn tag_line(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("\"]\n");
}

/// Movetext being written: words wrapped at [`WIDTH`] columns, move numbers where PGN
/// needs them, comments as `{ clause ; clause }`.
pub(crate) struct Movetext {
    text: String,
    line: usize,
    turn: Color,
    fullmove: u32,
    /// Whether the next Black move needs its number (`12...`): at the start or after a comment.
    need_number: bool,
    /// Clauses of the comment being gathered, written before the next move or at the end.
    clauses: Vec<String>,
}

impl Movetext {
    /// Empty movetext for a game whose first mover is `turn` at move `fullmove`.
    pub(crate) fn new(turn: Color, fullmove: u32) -> Movetext {
        Movetext {
            text: String::new(),
            line: 0,
            turn,
            fullmove: fullmove.max(1),
            need_number: true,
            clauses: Vec::new(),
        }
    }

    fn word(&mut self, word: &str) {
        if self.line > 0 && self.line + 1 + word.len() > WIDTH {
            self.text.push('\n');
            self.line = 0;
        } else if self.line > 0 {
            self.text.push(' ');
            self.line += 1;
        }
        self.text.push_str(word);
        self.line += word.len();
    }

    /// Adds a clause to the comment written before the next move.
    pub(crate) fn clause(&mut self, clause: String) {
        if !clause.is_empty() {
            self.clauses.push(clause);
        }
    }

    fn flush_comment(&mut self) {
        if self.clauses.is_empty() {
            return;
        }
        let clauses = std::mem::take(&mut self.clauses);
        self.word("{");
        for (i, clause) in clauses.iter().enumerate() {
            if i > 0 {
                self.word(";");
            }
            for w in clause.split(' ') {
                self.word(w);
            }
        }
        self.word("}");
        self.need_number = true;
    }

    /// Writes a move (SAN, long algebraic or `??`) of the side to move, with its number.
    pub(crate) fn mv(&mut self, text: &str) {
        self.flush_comment();
        match self.turn {
            Color::White => self.word(&format!("{}.", self.fullmove)),
            Color::Black if self.need_number => self.word(&format!("{}...", self.fullmove)),
            Color::Black => {}
        }
        self.word(text);
        self.need_number = false;
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.turn = !self.turn;
    }

    /// Ends the movetext with the termination marker; returns it with a final line break.
    pub(crate) fn finish(mut self, termination: &str) -> String {
        self.flush_comment();
        self.word(termination);
        self.text.push('\n');
        self.text
    }
}
