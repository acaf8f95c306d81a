//! What one player sees on their own board: their men and castling rights, nothing of the
//! opponent's. [`OwnBoard`] decides which attempts are possible there and parses SAN.

use arrayvec::ArrayVec;
use shakmaty::{
    Bitboard, Board, ByColor, CastlingSide, Color, Position, Rank, Role, Square, attacks, san::San,
};

use crate::{Attempt, Command};

/// Enough room for every attempt possible on one side's own board (at most 16 men with at
/// most 27 destinations each).
pub const MAX_ATTEMPTS: usize = 448;

/// The pieces a pawn may promote to, queen first.
pub const PROMOTION_PIECES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A list of attempts that never allocates.
pub type AttemptList = ArrayVec<Attempt, MAX_ATTEMPTS>;

/// One side's men and castling rights: everything a player sees of the board.
///
/// It holds no enemy man by construction: [`OwnBoard::new`] drops them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OwnBoard {
    side: Color,
    board: Board,
    castling: [bool; 2],
}

const KING_SIDE: usize = 0;
const QUEEN_SIDE: usize = 1;

const fn side_index(side: CastlingSide) -> usize {
    match side {
        CastlingSide::KingSide => KING_SIDE,
        CastlingSide::QueenSide => QUEEN_SIDE,
    }
}

/// Text that does not name an attempt the player could make on their own board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandParseError {
    /// Neither a keyword, nor UCI, nor SAN.
    #[error(
        "{0:?} is not a command: type a move in UCI (e2e4, e7e8q, e1g1) or SAN (Nf3, exd5, O-O), or any, draw, accept, decline, resign"
    )]
    NotACommand(String),
    /// Castling SAN (`O-O`, `O-O-O`) when castling is not possible on the player's own board,
    /// or a king's two-square step written as a plain king move (`Kg1`).
    #[error("{text:?}: you cannot castle {side} now: {reason}")]
    CannotCastle {
        /// The input.
        text: String,
        /// `"king side"` or `"queen side"`.
        side: &'static str,
        /// Why not, in words.
        reason: &'static str,
    },
    /// SAN that no man of the player's can play on their own board.
    #[error("{0:?}: no man of yours can make that move")]
    NoSuchMove(String),
    /// SAN that more than one of the player's men could play.
    #[error("{text:?} is ambiguous: it could be {candidates}; name the square the man comes from")]
    Ambiguous {
        /// The input.
        text: String,
        /// The attempts it could mean, in UCI, comma-separated.
        candidates: String,
    },
}

/// `"king side"` or `"queen side"`.
const fn castling_side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "king side",
        CastlingSide::QueenSide => "queen side",
    }
}

impl OwnBoard {
    /// The own board of `side` taken from a full board: the enemy men are dropped.
    /// `castling` is `[king side, queen side]`: whether the right is still held.
    pub fn new(side: Color, board: &Board, castling: [bool; 2]) -> OwnBoard {
        let (by_role, by_color) = board.clone().into_bitboards();
        let mine = by_color[side];
        let by_role = by_role.map(|bb| bb & mine);
        let mut colors = ByColor::new_with(|_| Bitboard::EMPTY);
        colors[side] = mine;
        let board = Board::try_from_bitboards(by_role, colors)
            .expect("masking a consistent board by one colour keeps it consistent");
        OwnBoard {
            side,
            board,
            castling,
        }
    }

    /// The own board of `side` in a position.
    pub fn of<P: Position>(pos: &P, side: Color) -> OwnBoard {
        let castles = pos.castles();
        OwnBoard::new(
            side,
            pos.board(),
            [
                castles.has(side, CastlingSide::KingSide),
                castles.has(side, CastlingSide::QueenSide),
            ],
        )
    }

    /// Whose board this is.
    pub fn side(&self) -> Color {
        self.side
    }

    /// The player's men (the board holds no other).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plays one of the player's own attempts that the umpire accepted: moves the man (and the
    /// rook when castling), promotes, and drops the castling rights the move gives up.
    /// Does nothing for an attempt without an own man on its `from` square.
    pub fn play(&mut self, attempt: Attempt) {
        let Some(role) = self.board.role_at(attempt.from) else {
            return;
        };
        let home = self.home_rank();
        self.board.discard_piece_at(attempt.from);
        let landed = attempt
            .promotion
            .filter(|_| role == Role::Pawn)
            .unwrap_or(role);
        self.board.set_piece_at(attempt.to, landed.of(self.side));
        match role {
            Role::King => {
                if attempt.from.distance(attempt.to) == 2
                    && attempt.from.rank() == attempt.to.rank()
                {
                    let side =
                        CastlingSide::from_king_side(attempt.to.file() > attempt.from.file());
                    let rook_file = if side.is_king_side() {
                        shakmaty::File::H
                    } else {
                        shakmaty::File::A
                    };
                    let rook = Square::from_coords(rook_file, home);
                    self.board.discard_piece_at(rook);
                    self.board
                        .set_piece_at(side.rook_to(self.side), Role::Rook.of(self.side));
                }
                self.castling = [false, false];
            }
            Role::Rook => self.drop_right_of_corner(attempt.from),
            _ => {}
        }
    }

    /// Removes the man the opponent captured on `square` (dropping the castling right of a rook
    /// taken on its corner); returns what it was.
    pub fn lose_man(&mut self, square: Square) -> Option<Role> {
        let role = self.board.remove_piece_at(square)?.role;
        if role == Role::Rook {
            self.drop_right_of_corner(square);
        }
        Some(role)
    }

    fn drop_right_of_corner(&mut self, square: Square) {
        if square.rank() == self.home_rank() {
            match square.file() {
                shakmaty::File::H => self.castling[KING_SIDE] = false,
                shakmaty::File::A => self.castling[QUEEN_SIDE] = false,
                _ => {}
            }
        }
    }

    /// Whether the player still holds the castling right on `side`.
    pub fn can_castle(&self, side: CastlingSide) -> bool {
        self.castling[side_index(side)]
    }

    fn king(&self) -> Option<Square> {
        self.board.kings().first()
    }

    fn home_rank(&self) -> Rank {
        self.side.fold_wb(Rank::First, Rank::Eighth)
    }

    fn last_rank(&self) -> Rank {
        self.side.fold_wb(Rank::Eighth, Rank::First)
    }

    /// The castling attempt (king's two-square move) on `side`, if the right is held, the
    /// king and rook stand on their original squares and no own man stands in the way.
    fn castling_attempt(&self, side: CastlingSide) -> Option<Attempt> {
        if !self.can_castle(side) {
            return None;
        }
        let king = self.king()?;
        let home = self.home_rank();
        if king != Square::from_coords(shakmaty::File::E, home) {
            return None;
        }
        let rook_file = match side {
            CastlingSide::KingSide => shakmaty::File::H,
            CastlingSide::QueenSide => shakmaty::File::A,
        };
        let rook = Square::from_coords(rook_file, home);
        if !(self.board.rooks()).contains(rook) {
            return None;
        }
        let king_to = side.king_to(self.side);
        let rook_to = side.rook_to(self.side);
        let path =
            (attacks::between(king, rook) | Bitboard::from(king_to) | Bitboard::from(rook_to))
                .without(king)
                .without(rook);
        if (path & self.board.occupied()).any() {
            return None;
        }
        Some(Attempt::new(king, king_to))
    }

    /// Why [`OwnBoard::castling_attempt`] gives nothing on `side`, in words.
    fn why_no_castling(&self, side: CastlingSide) -> &'static str {
        let home = self.home_rank();
        let rook_file = match side {
            CastlingSide::KingSide => shakmaty::File::H,
            CastlingSide::QueenSide => shakmaty::File::A,
        };
        if self.king() != Some(Square::from_coords(shakmaty::File::E, home)) {
            "your king is not on its start square"
        } else if !self.can_castle(side) {
            "you no longer have the right (the king or that rook has moved, or the rook was taken)"
        } else if !self
            .board
            .rooks()
            .contains(Square::from_coords(rook_file, home))
        {
            "your rook is not on its start square"
        } else {
            "your own men stand between the king and the rook"
        }
    }

    /// The destinations possible on the own board for the man on `from` (empty if none).
    /// Pawn diagonals are included: a pawn may always try to capture.
    pub fn destinations(&self, from: Square) -> Bitboard {
        match self.board.role_at(from) {
            Some(role) => self.destinations_of(from, role),
            None => Bitboard::EMPTY,
        }
    }

    /// The destinations of an own man of kind `role` on `from`.
    fn destinations_of(&self, from: Square, role: Role) -> Bitboard {
        let own = self.board.occupied();
        let targets = match role {
            Role::Pawn => self.pawn_destinations(from),
            Role::King => {
                let mut bb = attacks::king_attacks(from);
                for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                    if let Some(a) = self.castling_attempt(side).filter(|a| a.from == from) {
                        bb.add(a.to);
                    }
                }
                bb
            }
            role => attacks::attacks(from, role.of(self.side), own),
        };
        targets & !own
    }

    /// The destinations of a pawn on `from`: one or two steps forward, and both diagonals.
    fn pawn_destinations(&self, from: Square) -> Bitboard {
        let own = self.board.occupied();
        let mut bb = attacks::pawn_attacks(self.side, from);
        let step = self.side.fold_wb(8, -8);
        if let Some(one) = from.offset(step).filter(|one| !own.contains(*one)) {
            bb.add(one);
            let start = self.side.fold_wb(Rank::Second, Rank::Seventh);
            if let Some(two) = one.offset(step).filter(|_| from.rank() == start) {
                bb.add(two);
            }
        }
        bb & !own
    }

    /// Whether `attempt` is possible on this board: an own man on `from` can go to `to` by
    /// its movement pattern without passing or landing on an own man (castling: right held,
    /// path free of own men), with a promotion piece exactly when a pawn reaches the last rank.
    ///
    /// With `queen_only`, the only promotion piece is the queen.
    pub fn is_possible(&self, attempt: Attempt, queen_only: bool) -> bool {
        let Some(role) = self.board.role_at(attempt.from) else {
            return false;
        };
        if !self
            .destinations_of(attempt.from, role)
            .contains(attempt.to)
        {
            return false;
        }
        let promotes = role == Role::Pawn && attempt.to.rank() == self.last_rank();
        match attempt.promotion {
            None => !promotes,
            Some(Role::Queen) => promotes,
            Some(Role::Rook | Role::Bishop | Role::Knight) => promotes && !queen_only,
            Some(Role::Pawn | Role::King) => false,
        }
    }

    /// Calls `f(from, role, destinations)` for every own man with at least one destination
    /// possible on this board (see [`OwnBoard::destinations`]).
    pub fn for_each_man(&self, mut f: impl FnMut(Square, Role, Bitboard)) {
        let own = self.board.occupied();
        let board = &self.board;
        let mut emit = |from: Square, role: Role, targets: Bitboard| {
            if targets.any() {
                f(from, role, targets);
            }
        };
        for from in board.knights() {
            emit(from, Role::Knight, attacks::knight_attacks(from) & !own);
        }
        for from in board.bishops() {
            emit(
                from,
                Role::Bishop,
                attacks::bishop_attacks(from, own) & !own,
            );
        }
        for from in board.rooks() {
            emit(from, Role::Rook, attacks::rook_attacks(from, own) & !own);
        }
        for from in board.queens() {
            emit(from, Role::Queen, attacks::queen_attacks(from, own) & !own);
        }
        for from in board.kings() {
            emit(from, Role::King, self.destinations(from));
        }
        for from in board.pawns() {
            emit(from, Role::Pawn, self.pawn_destinations(from));
        }
    }

    /// Whether a pawn on `from` promotes when it moves.
    pub fn promotes_from(&self, from: Square) -> bool {
        from.rank() == self.side.fold_wb(Rank::Seventh, Rank::Second)
    }

    /// Appends every attempt possible on this board to `out` (promotions once per piece;
    /// with `queen_only`, to a queen only).
    pub fn attempts(&self, queen_only: bool, out: &mut AttemptList) {
        self.for_each_man(|from, role, targets| {
            if role == Role::Pawn && self.promotes_from(from) {
                for to in targets {
                    if queen_only {
                        out.push(Attempt::promoting(from, to, Role::Queen));
                    } else {
                        for piece in PROMOTION_PIECES {
                            out.push(Attempt::promoting(from, to, piece));
                        }
                    }
                }
            } else {
                for to in targets {
                    out.push(Attempt::new(from, to));
                }
            }
        });
    }

    /// Whether `attempt` is a pawn capture attempt (a pawn moving one step diagonally forward).
    pub fn is_pawn_capture(&self, attempt: Attempt) -> bool {
        self.board.pawns().contains(attempt.from)
            && attacks::pawn_attacks(self.side, attempt.from).contains(attempt.to)
    }

    /// Parses a command: a keyword (`any`, `draw offer`, …), UCI, or SAN resolved against
    /// this board (`Nf3`, `exd5`, `e8=Q`, `O-O` or `0-0`). A pawn move to the last rank without a
    /// promotion piece promotes to a queen. Castling SAN means castling: it is refused, with the
    /// reason, unless the king and rook stand at home, the right is held and no own man stands
    /// between them; a king's two-square step written as a king move (`Kg1`) is refused too.
    pub fn parse_command(&self, text: &str) -> Result<Command, CommandParseError> {
        let trimmed = text.trim();
        if let Some(cmd) = Command::parse_keyword_or_uci(trimmed) {
            return Ok(match cmd {
                Command::Attempt(a) => Command::Attempt(self.default_promotion(a)),
                other => other,
            });
        }
        // Castling is often typed with zeros (`0-0`); SAN writes the letter O.
        let mut bytes = [0u8; 8];
        let ascii = if trimmed.starts_with("0-0") && trimmed.len() <= bytes.len() {
            for (b, c) in bytes.iter_mut().zip(trimmed.bytes()) {
                *b = if c == b'0' { b'O' } else { c };
            }
            &bytes[..trimmed.len()]
        } else {
            trimmed.as_bytes()
        };
        let san = San::from_ascii(ascii)
            .map_err(|_| CommandParseError::NotACommand(trimmed.to_owned()))?;
        self.resolve_san(trimmed, &san).map(Command::Attempt)
    }

    fn default_promotion(&self, a: Attempt) -> Attempt {
        let pawn = self.board.pawns().contains(a.from);
        if pawn && a.promotion.is_none() && a.to.rank() == self.last_rank() {
            Attempt {
                promotion: Some(Role::Queen),
                ..a
            }
        } else {
            a
        }
    }

    fn resolve_san(&self, text: &str, san: &San) -> Result<Attempt, CommandParseError> {
        match *san {
            // Castling SAN means castling, never a plain king step.
            San::Castle(side) => {
                self.castling_attempt(side)
                    .ok_or_else(|| CommandParseError::CannotCastle {
                        text: text.to_owned(),
                        side: castling_side_name(side),
                        reason: self.why_no_castling(side),
                    })
            }
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut found: ArrayVec<Attempt, 16> = ArrayVec::new();
                for from in self.board.by_role(role) {
                    if file.is_some_and(|f| f != from.file())
                        || rank.is_some_and(|r| r != from.rank())
                    {
                        continue;
                    }
                    if !self.destinations(from).contains(to) {
                        continue;
                    }
                    // A king's two-square step is castling, which SAN writes `O-O`/`O-O-O`.
                    if role == Role::King && from.distance(to) == 2 {
                        let side = CastlingSide::from_king_side(to.file() > from.file());
                        return Err(CommandParseError::CannotCastle {
                            text: text.to_owned(),
                            side: castling_side_name(side),
                            reason: "castling is written O-O or O-O-O (or as the king's move in UCI, e.g. e1g1)",
                        });
                    }
                    // A pawn moves straight unless it captures.
                    if role == Role::Pawn && capture == (from.file() == to.file()) {
                        continue;
                    }
                    let _ = found.try_push(self.default_promotion(Attempt {
                        from,
                        to,
                        promotion,
                    }));
                }
                match found.len() {
                    0 => Err(CommandParseError::NoSuchMove(text.to_owned())),
                    1 => Ok(found[0]),
                    _ => Err(CommandParseError::Ambiguous {
                        text: text.to_owned(),
                        candidates: found
                            .iter()
                            .map(Attempt::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                    }),
                }
            }
            San::Put { .. } | San::Null => Err(CommandParseError::NotACommand(text.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    #[test]
    fn start_position_has_twenty_two_pawn_attempts_and_knights() {
        let own = OwnBoard::of(&Chess::default(), Color::White);
        let mut list = AttemptList::new();
        own.attempts(false, &mut list);
        // 16 pawn pushes, 14 pawn diagonals, 4 knight moves.
        assert_eq!(list.len(), 16 + 14 + 4);
        assert!(own.is_possible(Attempt::from_uci("e2e4").unwrap(), false));
        assert!(own.is_possible(Attempt::from_uci("e2d3").unwrap(), false));
        assert!(!own.is_possible(Attempt::from_uci("f1c4").unwrap(), false));
        assert!(!own.is_possible(Attempt::from_uci("e1g1").unwrap(), false));
    }

    #[test]
    fn san_resolution() {
        let own = OwnBoard::of(&Chess::default(), Color::White);
        assert_eq!(
            own.parse_command("Nf3").unwrap(),
            Command::Attempt(Attempt::from_uci("g1f3").unwrap())
        );
        assert_eq!(
            own.parse_command("exd3").unwrap(),
            Command::Attempt(Attempt::from_uci("e2d3").unwrap())
        );
        assert!(matches!(
            own.parse_command("Nf6"),
            Err(CommandParseError::NoSuchMove(_))
        ));
        assert!(matches!(
            own.parse_command("hello"),
            Err(CommandParseError::NotACommand(_))
        ));
    }

    fn own(fen: &str, side: Color) -> OwnBoard {
        let setup: shakmaty::fen::Fen = fen.parse().unwrap();
        let pos: Chess = setup
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        OwnBoard::of(&pos, side)
    }

    fn castle_refusal(own: &OwnBoard, text: &str) -> &'static str {
        match own.parse_command(text) {
            Err(CommandParseError::CannotCastle { reason, .. }) => reason,
            other => panic!("{text}: expected a castling refusal, got {other:?}"),
        }
    }

    #[test]
    fn castling_san_means_castling_or_a_refusal() {
        // The king away from its start square: O-O is never a king step (issue 11).
        for (fen, text) in [
            ("r3k3/8/8/8/8/8/6K1/8 w - - 0 1", "O-O"),
            ("r3k3/8/8/8/8/8/8/5K2 w - - 0 1", "O-O"),
            ("r3k3/8/8/8/8/8/8/3K4 w - - 0 1", "O-O-O"),
            ("4k3/8/8/8/8/8/8/3K4 w - - 0 1", "0-0-0"),
        ] {
            let board = own(fen, Color::White);
            assert_eq!(
                castle_refusal(&board, text),
                "your king is not on its start square",
                "{fen} {text}"
            );
        }
        // Right lost, rook gone, path blocked.
        let board = own("4k3/8/8/8/8/8/8/R3K2R w K - 0 1", Color::White);
        assert!(castle_refusal(&board, "O-O-O").starts_with("you no longer have the right"));
        assert_eq!(
            board.parse_command("O-O").unwrap(),
            Command::Attempt(Attempt::new(Square::E1, Square::G1))
        );
        let setup: shakmaty::fen::Fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse().unwrap();
        let board = OwnBoard::new(Color::White, &setup.as_setup().board, [true, true]);
        assert_eq!(
            castle_refusal(&board, "O-O-O"),
            "your rook is not on its start square"
        );
        let board = own("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1", Color::White);
        assert_eq!(
            castle_refusal(&board, "O-O"),
            "your own men stand between the king and the rook"
        );
        assert_eq!(
            castle_refusal(&board, "O-O-O"),
            "your own men stand between the king and the rook"
        );
        // Black castles on its own rank.
        let board = own("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", Color::Black);
        assert_eq!(
            board.parse_command("O-O-O").unwrap(),
            Command::Attempt(Attempt::new(Square::E8, Square::C8))
        );
        // A king's two-square step in SAN is not castling by another name.
        let board = own("4k3/8/8/8/8/8/8/4K2R w K - 0 1", Color::White);
        assert!(castle_refusal(&board, "Kg1").starts_with("castling is written O-O"));
        assert_eq!(
            board.parse_command("Kf1").unwrap(),
            Command::Attempt(Attempt::new(Square::E1, Square::F1))
        );
    }
}
