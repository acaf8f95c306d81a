//! The named filters of the guided action space ([`FilterId`]) and what each claims
//! ([`Filter`], [`Soundness`]).

use std::fmt;

/// Whether a filter can hide a move that is legal in the true position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Soundness {
    /// Never hides a legal move: follows from the rules and what the player heard.
    Sound,
    /// May hide a legal move: a guess that is usually right; its error rate is measured.
    Heuristic,
}

impl Soundness {
    /// `sound` or `heuristic`, as the docs, the audit and its JSON write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Soundness::Sound => "sound",
            Soundness::Heuristic => "heuristic",
        }
    }
}

/// A filter of seed 000's rule list, by its id there (`C6.1` is [`FilterId::C6_1`]).
///
/// Each variant documents why the filter is sound, or when it can hide a legal move. "Out of
/// check" and "in check" are known to the player: every rule set announces checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FilterId {
    /// An attempt rejected this turn is not offered again, nor the same pawn move with another
    /// promotion piece. Sound: the position does not change within a turn, and whether a
    /// move is legal does not depend on the piece a pawn promotes to.
    A1,
    /// Out of check, a man stops short of a destination rejected this turn: a bishop, rook or
    /// queen does not go farther along the same ray, a pawn whose single step was rejected
    /// does not try the double step. Sound: out of check, a move of a man other than the king
    /// is illegal only if an enemy man stands in its path before the destination (then it
    /// also stands in the path of every farther square), or if the man is pinned and the
    /// destination is off the pin line (then so is every farther square of the same ray,
    /// since the ray from the man leaves the pin line at the man). In check the first
    /// rejection may only mean "does not answer the check", so the filter is off.
    A2,
    /// Sonar (A3.1): out of check, a rejected single step of a pawn that cannot be pinned
    /// off its file means an enemy man stands on the step's square; sliders and castling do
    /// not pass it, pawns do not advance onto or through it. Sound: out of check, a pawn
    /// step fails only if its square is occupied (by an enemy man: the own board rules out
    /// own men) or the pawn is pinned along a line other than its file; the pawn cannot be
    /// pinned if it is not aligned with its king, if an own man stands between them, or if
    /// no square lies beyond it on that line before an own man or the edge. As seed 000 marks
    /// the square an AttackerSite (C2–C4), C4 applies to it too: when the announced tries equal
    /// the certainly legal pawn captures onto it and the AttackerSite, no other capture is
    /// offered (sound for the reason given at C4).
    A3,
    /// Sonar under check (A3.2, tightened): in a single line check, a rejected single step of
    /// a pawn that cannot be pinned off its move, onto a CheckSite, shows that the checker is
    /// not beyond that square in that direction; the CheckSites beyond it are dropped (moves
    /// other than the king's onto them are hidden). Sound: the square is on the visible line,
    /// so if the checker stood farther along that direction the square would lie between it
    /// and the king, empty, and the step would interpose, which is legal for an unpinned pawn;
    /// so the checker is on that square, nearer, or on the other side, and in each case no
    /// move onto a square beyond answers the check. (Seed 000's wording, "the destination is
    /// adjacent to the terminal CheckSite on the attacker side, mark it as AttackerSite", is
    /// not sound as written: the rejection proves only "here or nearer or the other side", not
    /// that the checker stands on the destination.)
    A3_2,
    /// Pin guess (A4.1): a bishop, rook or queen whose move was rejected out of check, and
    /// which stands pinnable (on a line from its king with no own man between and room for
    /// an enemy slider beyond) with the rejected destination off that line, is taken to be
    /// pinned: only its moves along the pin line are offered. Heuristic: the rejection may
    /// instead be due to an enemy man in the path, and then moves off the line can be legal.
    A4_1,
    /// Certain pin and its pinner (A4.1.1, tightened): out of check, a rejected move of a
    /// bishop, rook or queen to a square next to it off its line to the king, or any rejected
    /// knight move, proves the man pinned: it moves only along that line (a knight not at
    /// all). If only one square is visible beyond it along the pin line, the pinner stands
    /// there: bishops, rooks and queens do not pass it, pawns do not advance onto it, castling
    /// does not cross it, and C4 applies to it as at A3. Sound: out of check, such a move has no square
    /// between its ends, so only a pin can make it illegal (a capture is legal, and an enemy
    /// king cannot stand where the man attacks it); the pinner is an enemy slider on that line
    /// beyond the man, before the first own man. (Seed 000 applies this to A4.1's guess, which
    /// is heuristic; the guess-based form is not sound.)
    A4_1_1,
    /// Pinned pawn (A4.2, tightened): out of check, a rejected pawn capture onto a square known
    /// to hold an enemy man (the AttackerSite, a sonar square, a pinner's square) proves the
    /// pawn pinned: its moves off its line to the king are hidden. Sound: a capture onto an
    /// occupied square out of check is illegal only if it exposes the king. (Seed 000 asks for
    /// this when C4 applies; our C4 counts only captures that cannot be pinned, so the rule
    /// rests on the occupied square instead, which is what makes the conclusion certain.)
    A4_2,
    /// A man moves by its movement pattern (with a promotion piece exactly when a pawn reaches
    /// the last rank, and only the queen where promotion is always to a queen). Sound: the
    /// rules of chess.
    B1,
    /// A man does not pass or land on an own man. Sound: the rules of chess; the player sees
    /// its own men.
    B2,
    /// Castling needs the right (king and that rook never moved, the rook not captured), king
    /// and rook on their squares, and no own man between them. Sound: the rules of chess.
    B3,
    /// Early game (seed B4, derived from reachability as issue 3 asks): a pawn capture is
    /// offered only if some enemy man can have reached the destination (or, for en passant,
    /// the square of the pawn taken) in the moves the enemy has made. Sound: the bound counts,
    /// for each enemy man from its start square, its own moves plus one move of every other
    /// enemy man that started on a square it passes or lands on (that man must have moved away
    /// first, and distinct men need distinct moves), ignoring the player's men (which only
    /// makes paths cheaper) and dropping squares where the player captured (a man taken at
    /// home left without moving). Only with the standard start (where the enemy's men are
    /// known) and while no promotion can have happened (at most four enemy moves).
    B4,
    /// A pawn capture is offered only when the pawn-capture announcement of this turn allows
    /// one: "N tries" with N > 0, the pawn among the announced try squares, "pawn captures"
    /// heard, "Any?" not answered "no". Sound: the announcements count legal pawn captures,
    /// en passant included; under rule sets that say nothing (Berkeley) it never applies.
    C1,
    /// Bishops, rooks and queens do not pass the AttackerSite, the square where the enemy just
    /// captured one of the player's men and now stands (for a capture en passant, the square
    /// behind the pawn taken), and castling does not cross it. Sound: an enemy man stands
    /// there. Where the rule set does not say whether a capture was en passant and it could
    /// have been (the man taken was the pawn the player just moved two squares), the site
    /// is unknown and the filter does not apply.
    C2,
    /// Pawns do not advance onto or through the AttackerSite. Sound: an enemy man stands there.
    C3,
    /// When the announced number of tries equals the number of pawn captures onto the
    /// AttackerSite that are certainly legal, no other pawn capture is offered. A capture onto
    /// the site is certainly legal out of check by a pawn that cannot be pinned off the
    /// capture's line. Sound: then those captures are all the tries. (Seed 000's literal
    /// rule, "Tries equals the number of pawns that can reach the AttackerSite", is not: a
    /// pinned pawn's capture onto the site is no try, and another pawn's capture makes up the
    /// count; so is a capture while in check.)
    C4,
    /// No pawn capture onto the VacatedSite: the square of the player's pawn the enemy has
    /// just taken en passant. Sound: the square was emptied by the enemy's last move, so
    /// nothing stands there to be captured, and en passant needs an enemy pawn that has just
    /// moved two squares, which the enemy's last move was not. (A square emptied by the
    /// player's own capture en passant may be entered by the enemy's reply, so it is not used.)
    C5,
    /// In check, a man other than the king must land on a CheckSite: a square of the announced
    /// check's line (both directions) from the king up to the first own man, or a knight
    /// square not held by an own man; a pawn may also capture en passant a pawn standing on
    /// such a square. No castling. Sound: a legal answer to a single check captures the checker
    /// or interposes between it and the king, both on the visible part of the line.
    C6,
    /// Double check (two checks announced): only king moves. Sound: no single move other than
    /// the king's captures or blocks two checkers on different lines.
    C6_1,
    /// In check, a pawn does not advance onto a terminal CheckSite (the farthest visible
    /// square of each direction of the check line; every square of a knight check). Sound:
    /// either the checker stands there (the square is occupied) or the checker is nearer to
    /// the king or on the other side, and the square does not interpose.
    C7,
    /// Check by the man that has just captured on the AttackerSite, along a line from two or
    /// more squares away: the king does not step along that line (toward the checker or away
    /// from it). Sound: the checker is then certainly on the AttackerSite (a capture that is
    /// not en passant changes only the mover's two squares; a discovered check cannot run
    /// along the line the mover lands on), it is a slider, and it keeps attacking the whole
    /// line through the king's square. Seed 000 only forbids the step toward the checker.
    C8,
    /// Check by the man that has just captured on the AttackerSite: the CheckSites are only the
    /// squares from the king to it (the site itself for a knight), not the other direction.
    /// Sound: as for C8, the checker is known to stand on the AttackerSite.
    C9,
}

impl FilterId {
    /// Every filter, in seed order.
    pub const ALL: [FilterId; 21] = [
        FilterId::A1,
        FilterId::A2,
        FilterId::A3,
        FilterId::A3_2,
        FilterId::A4_1,
        FilterId::A4_1_1,
        FilterId::A4_2,
        FilterId::B1,
        FilterId::B2,
        FilterId::B3,
        FilterId::B4,
        FilterId::C1,
        FilterId::C2,
        FilterId::C3,
        FilterId::C4,
        FilterId::C5,
        FilterId::C6,
        FilterId::C6_1,
        FilterId::C7,
        FilterId::C8,
        FilterId::C9,
    ];

    /// The id as seed 000 writes it (`"A1"`, `"C6.1"`).
    pub const fn as_str(self) -> &'static str {
        self.filter().code
    }

    /// The filter's description.
    pub const fn filter(self) -> Filter {
        let (code, summary, soundness) = match self {
            FilterId::A1 => (
                "A1",
                "attempts rejected this turn are not offered again",
                Soundness::Sound,
            ),
            FilterId::A2 => (
                "A2",
                "out of check, a man stops short of a destination rejected this turn",
                Soundness::Sound,
            ),
            FilterId::A3 => (
                "A3",
                "sonar: a rejected step of an unpinnable pawn marks an enemy man; men stop there",
                Soundness::Sound,
            ),
            FilterId::A3_2 => (
                "A3.2",
                "sonar in check: a rejected pawn step onto the check line drops the CheckSites beyond it",
                Soundness::Sound,
            ),
            FilterId::A4_1_1 => (
                "A4.1.1",
                "a certainly pinned man keeps to its pin line; a lone visible square beyond holds the pinner",
                Soundness::Sound,
            ),
            FilterId::A4_2 => (
                "A4.2",
                "a pawn whose capture onto a held square was rejected is pinned: moves on its pin line only",
                Soundness::Sound,
            ),
            FilterId::A4_1 => (
                "A4.1",
                "a pinnable slider with a move rejected is taken as pinned: moves on its pin line only",
                Soundness::Heuristic,
            ),
            FilterId::B1 => ("B1", "men follow their movement patterns", Soundness::Sound),
            FilterId::B2 => ("B2", "men do not pass or land on own men", Soundness::Sound),
            FilterId::B3 => (
                "B3",
                "castling needs the right, king and rook at home, no own man between",
                Soundness::Sound,
            ),
            FilterId::B4 => (
                "B4",
                "early game: pawn captures only onto squares enemy men can have reached",
                Soundness::Sound,
            ),
            FilterId::C1 => (
                "C1",
                "pawn captures only when the pawn-capture announcement allows them",
                Soundness::Sound,
            ),
            FilterId::C2 => (
                "C2",
                "sliders and castling stop at the AttackerSite",
                Soundness::Sound,
            ),
            FilterId::C3 => (
                "C3",
                "pawns cannot advance onto or through the AttackerSite",
                Soundness::Sound,
            ),
            FilterId::C4 => (
                "C4",
                "tries all accounted for by captures onto the AttackerSite: no other pawn capture",
                Soundness::Sound,
            ),
            FilterId::C5 => (
                "C5",
                "no pawn capture onto the VacatedSite",
                Soundness::Sound,
            ),
            FilterId::C6 => (
                "C6",
                "in check: king moves or moves onto CheckSites only, no castling",
                Soundness::Sound,
            ),
            FilterId::C6_1 => ("C6.1", "double check: king moves only", Soundness::Sound),
            FilterId::C7 => (
                "C7",
                "in check, pawns cannot advance onto terminal CheckSites",
                Soundness::Sound,
            ),
            FilterId::C8 => (
                "C8",
                "check by the capturing man from afar: the king does not step along its line",
                Soundness::Sound,
            ),
            FilterId::C9 => (
                "C9",
                "check by the capturing man: CheckSites only between the king and the AttackerSite",
                Soundness::Sound,
            ),
        };
        Filter {
            id: self,
            code,
            summary,
            soundness,
        }
    }

    /// Whether the filter is sound.
    pub const fn is_sound(self) -> bool {
        matches!(self.filter().soundness, Soundness::Sound)
    }

    /// Parses the id as seed 000 writes it (`"C6.1"`), case-insensitively.
    pub fn from_name(name: &str) -> Option<FilterId> {
        let name = name.trim();
        FilterId::ALL
            .into_iter()
            .find(|id| id.as_str().eq_ignore_ascii_case(name))
    }

    pub(crate) const fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

impl fmt::Display for FilterId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The description of one filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// Which filter.
    pub id: FilterId,
    /// The id as seed 000 writes it (`"C6.1"`).
    pub code: &'static str,
    /// One line saying what it hides.
    pub summary: &'static str,
    /// Whether it can hide a legal move.
    pub soundness: Soundness,
}

/// The table of every filter (id, tag, what it hides) in Markdown, as `docs/GUIDED.md` shows it.
pub fn markdown_table() -> String {
    let mut out = String::from("| id | tag | hides |\n|---|---|---|\n");
    for id in FilterId::ALL {
        let f = id.filter();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            f.code,
            f.soundness.as_str(),
            f.summary
        ));
    }
    out
}
