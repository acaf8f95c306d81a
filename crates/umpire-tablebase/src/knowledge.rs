//! [`Knowledge`]: what White knows at some ply of a game, computed from White's view alone —
//! its own men and the set of squares where the black king may be.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};
use umpire_rules::record::PlayerView;
use umpire_rules::{Announcement, Attempt, Command, OwnBoard, RuleSetId, Verdict};

use crate::bits::king_spread;
use crate::{Answer, Layout, Split};

/// White's knowledge at the start of its turn after some number of plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// White's men.
    pub layout: Layout,
    /// Every square where the black king may stand, as far as White can tell.
    pub set: u64,
    /// Whether White knew from the start that the black king was alone, so that every
    /// observation was used exactly; otherwise the set is a conservative superset (see
    /// [`white_knowledge`]).
    pub exact: bool,
}

/// Why White's knowledge cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnowledgeError {
    /// The game is not played under `wild16`, the rules the tables are built for.
    #[error("the game is played under {0}; the tables are built for wild16 only")]
    Rules(RuleSetId),
    /// The view is not White's.
    #[error("the view is Black's; White's knowledge comes from White's view")]
    NotWhite,
    /// The game has fewer plies.
    #[error("the game has only {plies} plies, not {wanted}")]
    NoSuchPly {
        /// Plies in the game.
        plies: usize,
        /// The ply asked for.
        wanted: usize,
    },
    /// Black is to move at that ply.
    #[error("after ply {0} it is Black's turn; tables are for White to move")]
    BlackToMove(usize),
    /// White's men at that ply are not a table ending.
    #[error("after ply {ply} White has {men}; tables need the king and one or two of Q, R, B, N")]
    NotAnEnding {
        /// The ply.
        ply: usize,
        /// White's men, as FEN letters.
        men: String,
    },
    /// White cannot know that the black king is alone.
    #[error(
        "after ply {ply} White cannot know that Black has only its king ({left} black men unaccounted for)"
    )]
    BlackNotAlone {
        /// The ply.
        ply: usize,
        /// Black men besides the king White has not captured.
        left: u32,
    },
}

/// Every square a white man attacks, Black's men ignored: exact when the black king is alone.
fn white_attacks(board: &Board) -> u64 {
    let occupied = board.occupied();
    let mut out = 0;
    for (sq, piece) in board.clone() {
        if piece.color == Color::White {
            out |= attacks::attacks(sq, piece, occupied).0;
        }
    }
    out
}

/// Squares attacked by White's king, knights and pawns: attacks no black man can block, so the
/// black king never ends its move on one.
fn unblockable_attacks(board: &Board) -> u64 {
    let mut out = 0;
    for (sq, piece) in board.clone() {
        if piece.color == Color::White
            && matches!(piece.role, Role::King | Role::Knight | Role::Pawn)
        {
            out |= attacks::attacks(sq, piece, board.occupied()).0;
        }
    }
    out
}

/// The table layout of White's men, if they are the king and one or two of Q, R, B, N.
fn layout_of(board: &Board) -> Option<Layout> {
    let king = board.king_of(Color::White)?;
    let mut men = Vec::new();
    for (sq, piece) in board.clone() {
        if piece.color == Color::White && piece.role != Role::King {
            men.push((piece.role, sq));
        }
    }
    Layout::new(king, &men).ok()
}

fn men_text(board: &Board) -> String {
    board
        .clone()
        .into_iter()
        .filter(|(_, p)| p.color == Color::White)
        .map(|(_, p)| p.role.upper_char())
        .collect()
}

/// White's knowledge after `ply` plies (accepted moves) of the game seen by `view`, in White's
/// turn: what it learnt up to that ply and from the attempts rejected in that turn so far.
///
/// Only `wild16` games are read (the rules the tables are built for; others give
/// [`KnowledgeError::Rules`]), and only White's view: White's own men and White's observations. `black_men` is the
/// number of black men besides the king at the start — public material, as in a set-up
/// ending (15 for the standard start); where the black king is is not.
///
/// The set starts as e8 for the standard start and otherwise as every square the black king
/// could stand on. While Black may still have other men (White has not captured them all), the
/// update is conservative: after a Black move the king may be where it was, one step away or
/// castled, on a square not attacked by White's king, knights or pawns; White's own answers are
/// not used. Once White knows the king is alone, every observation is used as the table does: an
/// illegal king step puts the black king next to its destination; the answer to a legal move
/// (silent, each check, double check) keeps the squares that would give it (the squares from
/// which Black could take a man are kept too: a superset); the king's reply spreads the set over
/// the squares it can legally reach (a capture on a square puts it there).
pub fn white_knowledge(
    view: &PlayerView,
    black_men: u32,
    standard_start: bool,
    ply: usize,
) -> Result<Knowledge, KnowledgeError> {
    if view.rules != RuleSetId::Wild16 {
        return Err(KnowledgeError::Rules(view.rules));
    }
    let t = track(view, black_men, standard_start, ply)?;
    if t.turn != Color::White {
        return Err(KnowledgeError::BlackToMove(ply));
    }
    let board = t.own.board();
    let layout = layout_of(board).ok_or_else(|| KnowledgeError::NotAnEnding {
        ply,
        men: men_text(board),
    })?;
    if t.left > 0 {
        return Err(KnowledgeError::BlackNotAlone { ply, left: t.left });
    }
    Ok(Knowledge {
        layout,
        set: t.set & layout.domain(),
        exact: t.exact,
    })
}

fn track(
    view: &PlayerView,
    black_men: u32,
    standard_start: bool,
    ply: usize,
) -> Result<Tracked, KnowledgeError> {
    if view.player != Color::White {
        return Err(KnowledgeError::NotWhite);
    }
    let mut own: OwnBoard = view.own_start.clone();
    let mut left = black_men;
    let alone_from_start = left == 0;
    let mut turn = view.first_turn;
    let mut set: u64 = if standard_start {
        Bitboard::from_square(Square::E8).0
    } else {
        let board = own.board();
        let mut s = !board.occupied().0 & !unblockable_attacks(board);
        if alone_from_start && turn == Color::White {
            s &= !white_attacks(board);
        }
        s
    };
    let mut done = 0usize;
    for obs in &view.observations {
        // At the ply asked for, only White's rejected attempts of that turn are still used.
        let rejected = obs
            .own
            .is_some_and(|o| matches!(o.verdict, Verdict::Illegal | Verdict::Impossible));
        if done == ply && !rejected {
            break;
        }
        let alone = left == 0;
        match obs.own {
            Some(own_command) => {
                let Command::Attempt(attempt) = own_command.command else {
                    continue;
                };
                let layout = layout_of(own.board());
                match own_command.verdict {
                    Verdict::Illegal if alone => {
                        // Only the black king can make a king step illegal (next to it) or a
                        // slider's move (standing in its way).
                        match own.board().role_at(attempt.from) {
                            Some(Role::King) => set &= attacks::king_attacks(attempt.to).0,
                            Some(Role::Queen | Role::Rook | Role::Bishop) => {
                                set &= attacks::between(attempt.from, attempt.to).0;
                            }
                            _ => {}
                        }
                    }
                    Verdict::Accepted => {
                        let captured = obs
                            .announcements
                            .iter()
                            .any(|a| matches!(a, Announcement::Capture { .. }));
                        if captured {
                            left = left.saturating_sub(1);
                            set &= !Bitboard::from_square(attempt.to).0;
                        }
                        if alone {
                            set = after_own_move(set, layout, attempt, obs.announcements.iter());
                        }
                        own.play(attempt);
                        done += 1;
                        turn = Color::Black;
                    }
                    _ => {}
                }
            }
            None if obs.moved => {
                let capture = obs.announcements.iter().find_map(|a| match a {
                    Announcement::Capture { square, .. } => Some(*square),
                    _ => None,
                });
                if let Some(sq) = capture {
                    own.lose_man(sq);
                }
                let board = own.board();
                let spread = if left == 0 {
                    king_spread(set) & !board.occupied().0 & !white_attacks(board)
                } else {
                    // Castling: from e8 the king may land on g8 or c8.
                    let castled = if set & Bitboard::from_square(Square::E8).0 != 0 {
                        Bitboard::from_square(Square::G8).0 | Bitboard::from_square(Square::C8).0
                    } else {
                        0
                    };
                    (set | king_spread(set) | castled)
                        & !board.occupied().0
                        & !unblockable_attacks(board)
                };
                set = match capture {
                    // Only the king can have taken, if it is alone; otherwise any man could.
                    Some(sq) if left == 0 => Bitboard::from_square(sq).0,
                    Some(sq) => spread | Bitboard::from_square(sq).0,
                    None => spread,
                };
                done += 1;
                turn = Color::White;
            }
            None => {}
        }
    }
    if done < ply {
        return Err(KnowledgeError::NoSuchPly {
            plies: done,
            wanted: ply,
        });
    }
    Ok(Tracked {
        own,
        set,
        left,
        turn,
        exact: alone_from_start,
    })
}

/// The state of the tracking after some plies.
struct Tracked {
    own: OwnBoard,
    set: u64,
    left: u32,
    turn: Color,
    exact: bool,
}

/// The squares where the black king may be after `ply` plies, as far as White can tell from
/// its own view, whatever the material (see [`white_knowledge`] for the method). After a White
/// move it is the set before Black's reply.
pub fn possible_black_king_squares(
    view: &PlayerView,
    black_men: u32,
    standard_start: bool,
    ply: usize,
) -> Result<u64, KnowledgeError> {
    track(view, black_men, standard_start, ply).map(|t| t.set)
}

/// The set after White's accepted `attempt` and what White heard, the black king alone.
fn after_own_move<'a>(
    set: u64,
    layout: Option<Layout>,
    attempt: Attempt,
    heard: impl Iterator<Item = &'a Announcement>,
) -> u64 {
    let mut checks = Vec::new();
    let mut over = false;
    for a in heard {
        match a {
            Announcement::Check(kind) => checks.push(*kind),
            Announcement::GameOver(_) => over = true,
            _ => {}
        }
    }
    // White has men a table does not model, or the game is over: nothing more is used.
    let Some(layout) = layout.filter(|l| !over && l.attempts().contains(&attempt)) else {
        return set;
    };
    let split = Split::new(&layout, attempt);
    let heard = Answer::of_checks(&checks);
    let mut kept = set & split.lost;
    for sq in Bitboard(set & !split.lost) {
        if split.answer(sq) == Some(heard) {
            kept |= Bitboard::from_square(sq).0;
        }
    }
    kept
}
