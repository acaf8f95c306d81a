//! [`PlayerView`]: what one player heard, and its Kriegspiel PGN, built only from that
//! player's observations.

use shakmaty::{Board, CastlingSide, Color, File, Piece, Rank, Role, Square};

use crate::record::movetext::{Movetext, tag_line};
use crate::record::notation::{announcement_token, command_token, verdict_token};
use crate::record::pgn_export::{ExportError, common_tags, side_letter, start_position};
use crate::record::{Record, STANDARD_FEN, Tags};
use crate::wire::color_name;
use crate::{Announcement, Attempt, Command, GameResult, Observation, OwnBoard, RuleSetId};

/// Everything one player knows of a game: the public facts (rule set, tags, who moves first),
/// the player's own men at the start, and the player's observations in order. It holds
/// nothing else, so its PGN cannot show anything the player did not hear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// Whose view this is.
    pub player: Color,
    /// The rule set.
    pub rules: RuleSetId,
    /// The descriptive tags (public).
    pub tags: Tags,
    /// The player's own men and castling rights at the start.
    pub own_start: OwnBoard,
    /// The side that moves first.
    pub first_turn: Color,
    /// The move number of the first move.
    pub fullmove: u32,
    /// The opening announcements the player heard.
    pub opening: Vec<Announcement>,
    /// What the player learnt from each command, in order (commands the player learnt nothing
    /// from are absent).
    pub observations: Vec<Observation>,
}

impl Record {
    /// The view of `player`: the record filtered through [`crate::Outcome::observation`].
    pub fn player_view(&self, player: Color) -> Result<PlayerView, ExportError> {
        let pos = start_position(self)?;
        let first_turn = shakmaty::Position::turn(&pos);
        Ok(PlayerView {
            player,
            rules: self.rules,
            tags: self.tags.clone(),
            own_start: OwnBoard::of(&pos, player),
            first_turn,
            fullmove: shakmaty::Position::fullmoves(&pos).get(),
            opening: self
                .opening
                .iter()
                .filter(|h| h.audience.includes(first_turn, player))
                .map(|h| h.announcement)
                .collect(),
            observations: self
                .entries
                .iter()
                .filter_map(|e| e.outcome().observation(e.command, player))
                .collect(),
        })
    }

    /// The Kriegspiel PGN of `player`'s view (see [`PlayerView::to_pgn`]).
    pub fn player_pgn(&self, player: Color) -> Result<String, ExportError> {
        Ok(self.player_view(player)?.to_pgn())
    }
}

fn tokens(list: &[Announcement]) -> Vec<String> {
    list.iter().map(|a| announcement_token(*a)).collect()
}

/// The castling rights of an own board in FEN letters (`KQ`, `k`, `-`).
fn own_castling(own: &OwnBoard) -> String {
    let mut s = String::new();
    for (side, letter) in [
        (CastlingSide::KingSide, 'k'),
        (CastlingSide::QueenSide, 'q'),
    ] {
        if own.can_castle(side) {
            s.push(if own.side() == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if s.is_empty() { "-".to_owned() } else { s }
}

/// The move of an own accepted attempt in long algebraic notation from the player's own
/// knowledge (`Ng1-f3`, `e4xd5`, `e7-e8=Q`, `O-O`), updating the own men.
fn own_move(men: &mut Board, side: Color, a: Attempt, captured: bool) -> String {
    let role = men.role_at(a.from);
    let castle =
        role == Some(Role::King) && a.from.rank() == a.to.rank() && a.from.distance(a.to) == 2;
    if castle {
        let king_side = a.to.file() > a.from.file();
        let (rook_from, rook_to) = if king_side {
            (File::H, File::F)
        } else {
            (File::A, File::D)
        };
        let rank = a.from.rank();
        men.discard_piece_at(a.from);
        men.set_piece_at(
            a.to,
            Piece {
                color: side,
                role: Role::King,
            },
        );
        if men.role_at(Square::from_coords(rook_from, rank)) == Some(Role::Rook) {
            men.discard_piece_at(Square::from_coords(rook_from, rank));
            men.set_piece_at(
                Square::from_coords(rook_to, rank),
                Piece {
                    color: side,
                    role: Role::Rook,
                },
            );
        }
        return if king_side {
            "O-O".to_owned()
        } else {
            "O-O-O".to_owned()
        };
    }
    let last = side.fold_wb(Rank::Eighth, Rank::First);
    let promotion = match (role, a.promotion) {
        (_, Some(p)) => Some(p),
        (Some(Role::Pawn), None) if a.to.rank() == last => Some(Role::Queen),
        _ => None,
    };
    let mut s = String::new();
    if let Some(r) = role.filter(|r| *r != Role::Pawn) {
        s.push(r.upper_char());
    }
    s.push_str(&a.from.to_string());
    s.push(if captured { 'x' } else { '-' });
    s.push_str(&a.to.to_string());
    if let Some(p) = promotion {
        s.push('=');
        s.push(p.upper_char());
    }
    men.discard_piece_at(a.from);
    if let Some(r) = promotion.or(role) {
        men.set_piece_at(
            a.to,
            Piece {
                color: side,
                role: r,
            },
        );
    }
    s
}

fn heard_result(observations: &[Observation], opening: &[Announcement]) -> Option<GameResult> {
    opening
        .iter()
        .chain(observations.iter().flat_map(|o| o.announcements.iter()))
        .find_map(|a| match a {
            Announcement::GameOver(r) => Some(*r),
            _ => None,
        })
}

impl PlayerView {
    /// The result, as the player heard it announced.
    pub fn result(&self) -> Option<GameResult> {
        heard_result(&self.observations, &self.opening)
    }

    /// The player's Kriegspiel PGN: own moves in long algebraic notation written from the
    /// player's own knowledge (`x` only when the player heard a capture; no check marks),
    /// the opponent's moves as `??`, and in comments the player's other commands with their
    /// verdicts and everything the player heard. See `docs/RECORDS.md`.
    pub fn to_pgn(&self) -> String {
        let result = self.result();
        let mut out = String::new();
        common_tags(&mut out, &self.tags, self.rules.as_str(), result);
        tag_line(&mut out, "KriegspielView", color_name(self.player));
        let own_start = format!(
            "{} {} {} {}",
            self.own_start.board(),
            self.first_turn.fold_wb("w", "b"),
            own_castling(&self.own_start),
            self.fullmove
        );
        let standard = STANDARD_FEN
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| {
                let pos: shakmaty::Chess =
                    f.into_position(shakmaty::CastlingMode::Standard).ok()?;
                Some(OwnBoard::of(&pos, self.player))
            });
        let is_standard = standard.as_ref() == Some(&self.own_start)
            && self.first_turn == Color::White
            && self.fullmove == 1;
        if !is_standard {
            tag_line(&mut out, "KriegspielOwnStart", &own_start);
        }
        out.push('\n');

        let mut text = Movetext::new(self.first_turn, self.fullmove);
        if !self.opening.is_empty() {
            text.clause(format!("start {}", tokens(&self.opening).join(" ")));
        }
        let mut men = self.own_start.board().clone();
        for obs in &self.observations {
            let heard = tokens(&obs.announcements);
            let captured = obs
                .announcements
                .iter()
                .any(|a| matches!(a, Announcement::Capture { .. }));
            match (obs.own, obs.moved) {
                (Some(own), true) => {
                    let text_move = match own.command {
                        Command::Attempt(a) => own_move(&mut men, self.player, a, captured),
                        other => command_token(other),
                    };
                    text.mv(&text_move);
                    text.clause(heard.join(" "));
                }
                (Some(own), false) => {
                    let mut words = vec![
                        side_letter(self.player).to_owned(),
                        command_token(own.command),
                        verdict_token(own.verdict),
                    ];
                    words.extend(heard);
                    text.clause(words.join(" "));
                }
                (None, true) => {
                    for a in &obs.announcements {
                        if let Announcement::Capture { square, .. } = a {
                            men.discard_piece_at(*square);
                        }
                    }
                    text.mv("??");
                    text.clause(heard.join(" "));
                }
                (None, false) => {
                    let mut words = vec![side_letter(obs.actor).to_owned(), "??".to_owned()];
                    words.extend(heard);
                    text.clause(words.join(" "));
                }
            }
        }
        out.push_str(&text.finish(result.map_or("*", |r| r.score())));
        out
    }
}
