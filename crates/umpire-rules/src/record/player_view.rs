//! [`PlayerView`]: what one player heard, and its Kriegspiel PGN, built only from that
//! player's observations.

use shakmaty::{Board, CastlingSide, Color, File, Piece, Rank, Role, Square};

use crate::record::game_record::VERSION;
use crate::record::movetext::{Movetext, tag_line};
use crate::record::notation::{announcement_token, command_token, verdict_token};
use crate::record::pgn_export::{ExportError, common_tags, side_letter, start_position};
use crate::record::{Record, STANDARD_FEN, Tags};
use crate::wire::{AnnouncementJson, color_name};
use crate::{
    Announcement, Attempt, Command, EnemyCount, GameResult, Observation, OwnBoard, RuleSetId,
    Verdict,
};

/// The descriptive tags a player's view carries: the roster tags (the players' names, the
/// event, site, date and round are public). Every other tag of the record (a `Seed`, an
/// annotator's note, anything a program adds) is left out, for a tag may say something about
/// the game the player did not hear: a seed lets anyone replay the game and read the moves.
pub const PLAYER_VIEW_TAGS: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// The `format` of a player's view in JSON.
pub const PLAYER_VIEW_FORMAT: &str = "umpire-kriegspiel-player-view";

/// Everything one player knows of a game: the public facts (rule set, tags, who moves first),
/// the player's own men at the start, and the player's observations in order. It holds
/// nothing else, so its PGN cannot show anything the player did not hear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// Whose view this is.
    pub player: Color,
    /// The rule set.
    pub rules: RuleSetId,
    /// The descriptive tags the player may know: only those of [`PLAYER_VIEW_TAGS`].
    pub tags: Tags,
    /// The player's own men and castling rights at the start.
    pub own_start: OwnBoard,
    /// What the player is told of the enemy's men at the start.
    pub enemy_start: EnemyCount,
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
            tags: public_tags(&self.tags),
            own_start: OwnBoard::of(&pos, player),
            enemy_start: EnemyCount::told(&pos, player),
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

    /// What `player` heard in the game's first `plies` moves (the whole game with `None`):
    /// its observations of every command up to and including the `plies`-th accepted move, and
    /// how many moves they cover (fewer than `plies` when the game is shorter). What a belief
    /// or a player's screen at that point of the game is built from.
    pub fn observations_until(&self, player: Color, plies: Option<u32>) -> (Vec<Observation>, u32) {
        let mut observations = Vec::new();
        let mut moves = 0;
        for entry in &self.entries {
            if plies == Some(moves) {
                break;
            }
            let outcome = entry.outcome();
            if let Some(seen) = outcome.observation(entry.command, player) {
                observations.push(seen);
            }
            if outcome.is_accepted() {
                moves += 1;
            }
        }
        (observations, moves)
    }

    /// The Kriegspiel PGN of `player`'s view (see [`PlayerView::to_pgn`]).
    pub fn player_pgn(&self, player: Color) -> Result<String, ExportError> {
        Ok(self.player_view(player)?.to_pgn())
    }

    /// The JSON of `player`'s view (see [`PlayerView::to_json`]).
    pub fn player_json(&self, player: Color) -> Result<String, ExportError> {
        Ok(self.player_view(player)?.to_json())
    }
}

/// The tags of `tags` a player may know ([`PLAYER_VIEW_TAGS`]): what any record handed to a
/// player (its view, or a sampled hypothetical game) may carry.
pub fn public_tags(tags: &Tags) -> Tags {
    let mut public = Tags::new();
    for (name, value) in tags.iter() {
        if PLAYER_VIEW_TAGS.contains(&name) {
            // Names and values come from valid tags.
            let _ = public.set(name, value);
        }
    }
    public
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
        let tags = public_tags(&self.tags);
        common_tags(&mut out, &tags, self.rules.as_str(), result);
        tag_line(&mut out, "KriegspielView", color_name(self.player));
        if !self.is_standard_start() {
            tag_line(&mut out, "KriegspielOwnStart", &self.own_start_text());
            tag_line(&mut out, "KriegspielEnemyStart", &self.enemy_start_text());
        }
        out.push('\n');
        self.movetext(&mut out, result);
        out
    }

    /// The player's own men at the start: `"PLACEMENT TURN CASTLING MOVE"`.
    fn own_start_text(&self) -> String {
        format!(
            "{} {} {} {}",
            self.own_start.board(),
            self.first_turn.fold_wb("w", "b"),
            own_castling(&self.own_start),
            self.fullmove
        )
    }

    /// What the player is told of the enemy's men: `"MEN PAWNS"`.
    fn enemy_start_text(&self) -> String {
        format!("{} {}", self.enemy_start.men, self.enemy_start.pawns)
    }

    /// Whether the game starts from the standard position, as far as the player can tell
    /// (its own men, the first turn and move number, the enemy count).
    fn is_standard_start(&self) -> bool {
        let standard = STANDARD_FEN
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| {
                let pos: shakmaty::Chess =
                    f.into_position(shakmaty::CastlingMode::Standard).ok()?;
                Some(OwnBoard::of(&pos, self.player))
            });
        standard.as_ref() == Some(&self.own_start)
            && self.first_turn == Color::White
            && self.fullmove == 1
            && self.enemy_start == EnemyCount { men: 16, pawns: 8 }
    }

    /// The player's view as JSON (indented): the same facts as [`PlayerView::to_pgn`], with the
    /// same tags (see `docs/RECORDS.md`). Written, not read back.
    pub fn to_json(&self) -> String {
        let observations: Vec<ObservationJson> = self
            .observations
            .iter()
            .map(|o| ObservationJson {
                actor: color_name(o.actor),
                command: o.own.map(|own| own.command.to_text()),
                verdict: o.own.map(|own| own.verdict.as_str()),
                invalid: o.own.and_then(|own| match own.verdict {
                    Verdict::Invalid(why) => Some(why.as_str()),
                    _ => None,
                }),
                moved: o.moved,
                announcements: heard_json(&o.announcements),
            })
            .collect();
        let standard = self.is_standard_start();
        let shape = PlayerViewJson {
            format: PLAYER_VIEW_FORMAT,
            version: VERSION,
            player: color_name(self.player),
            rules: self.rules.as_str(),
            tags: public_tags(&self.tags),
            own_start: (!standard).then(|| self.own_start_text()),
            enemy_start: (!standard).then_some(EnemyStartJson {
                men: self.enemy_start.men,
                pawns: self.enemy_start.pawns,
            }),
            opening: heard_json(&self.opening),
            observations,
            result: self.result().map(|r| ResultJson {
                score: r.score(),
                reason: r.reason.as_str(),
            }),
        };
        serde_json::to_string_pretty(&shape).unwrap_or_default()
    }

    fn movetext(&self, out: &mut String, result: Option<GameResult>) {
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
    }
}

fn heard_json(list: &[Announcement]) -> Vec<AnnouncementJson> {
    list.iter()
        .map(|a| AnnouncementJson::new(*a, None))
        .collect()
}

#[derive(serde::Serialize)]
struct PlayerViewJson {
    format: &'static str,
    version: u32,
    player: &'static str,
    rules: &'static str,
    tags: Tags,
    #[serde(skip_serializing_if = "Option::is_none")]
    own_start: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    enemy_start: Option<EnemyStartJson>,
    opening: Vec<AnnouncementJson>,
    observations: Vec<ObservationJson>,
    result: Option<ResultJson>,
}

#[derive(serde::Serialize)]
struct EnemyStartJson {
    men: u8,
    pawns: u8,
}

#[derive(serde::Serialize)]
struct ObservationJson {
    actor: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invalid: Option<&'static str>,
    moved: bool,
    announcements: Vec<AnnouncementJson>,
}

#[derive(serde::Serialize)]
struct ResultJson {
    score: &'static str,
    reason: &'static str,
}
