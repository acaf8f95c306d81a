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
        "{0:?} is not a command: type a move in UCI (e2e4, e7e8q, e1g1) or SAN (Nf3, exd5, O-O), or any, draw offer, draw accept, draw decline, resign"
    )]
    NotACommand(String),
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
    /// this board (`Nf3`, `exd5`, `e8=Q`, `O-O`). A pawn move to the last rank without a
    /// promotion piece promotes to a queen.
    pub fn parse_command(&self, text: &str) -> Result<Command, CommandParseError> {
        let trimmed = text.trim();
        if let Some(cmd) = Command::parse_keyword_or_uci(trimmed) {
            return Ok(match cmd {
                Command::Attempt(a) => Command::Attempt(self.default_promotion(a)),
                other => other,
            });
        }
        let san = San::from_ascii(trimmed.as_bytes())
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
            San::Castle(side) => {
                let king = self
                    .king()
                    .ok_or_else(|| CommandParseError::NoSuchMove(text.to_owned()))?;
                let to = side.king_to(self.side);
                Ok(Attempt::new(king, to))
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
}
