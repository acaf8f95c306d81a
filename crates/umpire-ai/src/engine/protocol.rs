//! The messages of the engine protocol `umpire-engine/1` (docs/ENGINE.md): a [`Request`]
//! built from one player's view alone, and the engine's [`Response`].

use serde::{Deserialize, Serialize};
use umpire_rules::shakmaty::{Board, CastlingSide, Color};
use umpire_rules::wire::{AnnouncementJson, color_name, parse_color};
use umpire_rules::{
    AttemptList, Command, EnemyCount, Observation, OwnBoard, OwnCommand, RuleSetId, Verdict,
};
use umpire_view::PlayerView;

use crate::{Analysis, Budget};

/// The protocol name and version every request and response carries.
pub const PROTOCOL: &str = "umpire-engine/1";

/// What the engine is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    /// Its player is to move (or to try again after a rejection): answer with a command.
    Choose,
    /// The opponent offered a draw: answer `draw accept` or `draw decline`.
    Draw,
}

/// The start of the game as the player is told it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartJson {
    /// Whether the game starts from the standard position (then the player also knows where
    /// the enemy's men stand).
    pub standard: bool,
    /// The player's own men: the piece-placement field of a FEN holding only them.
    pub own: String,
    /// Castling rights of the player: king side, queen side.
    pub castling: [bool; 2],
    /// Who moves first: `"white"` or `"black"`.
    pub first_turn: String,
    /// What the player is told of the enemy's men: how many, how many pawns.
    pub enemy: EnemyJson,
}

/// The enemy count a player is told at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyJson {
    /// Enemy men, king included.
    pub men: u8,
    /// Enemy pawns.
    pub pawns: u8,
}

/// One observation of the player's, as in its filtered JSON record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObservationJson {
    /// Who gave the command.
    pub actor: String,
    /// The command, when the player gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Its verdict, when the player gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Why it was refused, when the verdict is `invalid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
    /// Whether a move was played (the turn passed).
    pub moved: bool,
    /// What the player heard, in order.
    pub announcements: Vec<AnnouncementJson>,
}

/// The thinking budget of one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum BudgetJson {
    /// At most this many search nodes.
    Nodes(u64),
    /// At most this many milliseconds.
    MovetimeMs(u64),
}

impl From<Budget> for BudgetJson {
    fn from(budget: Budget) -> BudgetJson {
        match budget {
            Budget::Nodes(n) => BudgetJson::Nodes(n),
            Budget::Time(t) => {
                BudgetJson::MovetimeMs(u64::try_from(t.as_millis()).unwrap_or(u64::MAX))
            }
        }
    }
}

impl From<BudgetJson> for Budget {
    fn from(budget: BudgetJson) -> Budget {
        match budget {
            BudgetJson::Nodes(n) => Budget::Nodes(n),
            BudgetJson::MovetimeMs(ms) => Budget::Time(std::time::Duration::from_millis(ms)),
        }
    }
}

/// One request to an engine: everything its player knows, and nothing else.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Always [`PROTOCOL`].
    pub protocol: String,
    /// What is asked.
    pub request: RequestKind,
    /// The rule set's id (`wild16`, …).
    pub rules: String,
    /// The engine's side.
    pub side: String,
    /// The start as the player is told it.
    pub start: StartJson,
    /// The announcements heard before the first command.
    pub opening: Vec<AnnouncementJson>,
    /// Every observation of the player's so far, in order.
    pub observations: Vec<ObservationJson>,
    /// For `choose`: the attempts the player may still make on its own board (rejected ones
    /// excluded, pawn captures only while an "Any?" obliges), in UCI; derived from the above.
    pub options: Vec<String>,
    /// For `choose`: whether "Any?" may be asked now; derived from the above.
    pub may_ask_any: bool,
    /// The thinking budget.
    pub budget: BudgetJson,
    /// The seed of the engine's own random choices for this game (chosen by the runner,
    /// independent of the game).
    pub seed: u64,
}

/// An engine's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// [`PROTOCOL`] (optional in a response; checked when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The command: an attempt in UCI, `any`, `draw offer`, `draw accept`, `draw decline`,
    /// `resign`. Absent only with `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The engine's value estimate in [-1, 1] for its player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The principal line, commands as above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
    /// Search nodes spent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Set instead of `command` when the engine could not use the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a player is told of the start, taken from its view before the first command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartFacts {
    rules: RuleSetId,
    standard: bool,
    own: OwnBoard,
    first_turn: Color,
    enemy: EnemyCount,
}

impl StartFacts {
    /// The start facts of `view`, which must be a view before any observation (as an agent is
    /// built with). The enemy count is the view's enemy material, which at the start is
    /// exactly what the player is told.
    pub fn of(view: &PlayerView) -> StartFacts {
        let enemy = view.enemy();
        StartFacts {
            rules: rules_id(view),
            standard: view.standard_start(),
            own: view.own_board().clone(),
            first_turn: view.to_move(),
            enemy: EnemyCount {
                men: enemy.men,
                pawns: enemy.pawns_at_most,
            },
        }
    }

    /// The fresh view of the player with these facts (opening not yet heard).
    pub fn view(&self) -> PlayerView {
        let rules = *self.rules.rules();
        if self.standard {
            PlayerView::standard(rules, self.own.side())
        } else {
            PlayerView::new(rules, self.own.clone(), self.first_turn, self.enemy.into())
        }
    }

    fn json(&self) -> StartJson {
        let own = self.own.board();
        StartJson {
            standard: self.standard,
            own: own.board_fen().to_string(),
            castling: [
                self.own.can_castle(CastlingSide::KingSide),
                self.own.can_castle(CastlingSide::QueenSide),
            ],
            first_turn: color_name(self.first_turn).to_owned(),
            enemy: EnemyJson {
                men: self.enemy.men,
                pawns: self.enemy.pawns,
            },
        }
    }
}

/// The rule set id of a view (the view holds the rule set itself; ids are matched by value).
fn rules_id(view: &PlayerView) -> RuleSetId {
    RuleSetId::ALL
        .into_iter()
        .find(|id| id.rules() == view.rules())
        .unwrap_or(RuleSetId::Wild16)
}

fn observation_json(o: &Observation) -> ObservationJson {
    ObservationJson {
        actor: color_name(o.actor).to_owned(),
        command: o.own.map(|own| own.command.to_text()),
        verdict: o.own.map(|own| own.verdict.as_str().to_owned()),
        invalid: o.own.and_then(|own| match own.verdict {
            Verdict::Invalid(why) => Some(why.as_str().to_owned()),
            _ => None,
        }),
        moved: o.moved,
        announcements: o
            .announcements
            .iter()
            .map(|a| AnnouncementJson::new(*a, None))
            .collect(),
    }
}

impl Request {
    /// The request for the player of `view`, whose start was `start`: built from the view
    /// alone (its opening, transcript and options).
    pub fn new(
        start: &StartFacts,
        view: &PlayerView,
        kind: RequestKind,
        budget: Budget,
        seed: u64,
    ) -> Request {
        let mut options = AttemptList::new();
        let may_ask_any = kind == RequestKind::Choose && view.options(&mut options);
        let options = if kind == RequestKind::Choose {
            options.iter().map(|a| a.to_string()).collect()
        } else {
            Vec::new()
        };
        Request {
            protocol: PROTOCOL.to_owned(),
            request: kind,
            rules: start.rules.as_str().to_owned(),
            side: color_name(view.side()).to_owned(),
            start: start.json(),
            opening: view
                .opening()
                .iter()
                .map(|a| AnnouncementJson::new(*a, None))
                .collect(),
            observations: view.transcript().iter().map(observation_json).collect(),
            options,
            may_ask_any,
            budget: budget.into(),
            seed,
        }
    }

    /// The request as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The start facts this request states, checked.
    pub fn start_facts(&self) -> Result<StartFacts, String> {
        if self.protocol != PROTOCOL {
            return Err(format!("protocol {:?} is not {PROTOCOL:?}", self.protocol));
        }
        let rules: RuleSetId = self.rules.parse().map_err(|e| format!("rules: {e}"))?;
        let side = parse_color(&self.side).ok_or_else(|| format!("side {:?}", self.side))?;
        let first_turn = parse_color(&self.start.first_turn)
            .ok_or_else(|| format!("start.first_turn {:?}", self.start.first_turn))?;
        let board = Board::from_ascii_board_fen(self.start.own.as_bytes())
            .map_err(|e| format!("start.own {:?}: {e}", self.start.own))?;
        if board.by_color(!side).any() {
            return Err("start.own holds enemy men".to_owned());
        }
        if board.king_of(side).is_none() {
            return Err("start.own has no king".to_owned());
        }
        Ok(StartFacts {
            rules,
            standard: self.start.standard,
            own: OwnBoard::new(side, &board, self.start.castling),
            first_turn,
            enemy: EnemyCount {
                men: self.start.enemy.men,
                pawns: self.start.enemy.pawns,
            },
        })
    }

    /// The opening announcements, checked.
    pub fn opening(&self) -> Result<Vec<umpire_rules::Announcement>, String> {
        self.opening
            .iter()
            .map(|a| a.announcement().map_err(|e| format!("opening: {e}")))
            .collect()
    }

    /// The observations, checked, as the player of `side` received them.
    pub fn observations(&self, side: Color) -> Result<Vec<Observation>, String> {
        self.observations
            .iter()
            .enumerate()
            .map(|(i, o)| parse_observation(o, side).map_err(|e| format!("observation {i}: {e}")))
            .collect()
    }
}

fn parse_verdict(verdict: &str, invalid: Option<&str>) -> Result<Verdict, String> {
    Ok(match verdict {
        "accepted" => Verdict::Accepted,
        "answered" => Verdict::Answered,
        "illegal" => Verdict::Illegal,
        "impossible" => Verdict::Impossible,
        "repeat" => Verdict::Repeat,
        "game_over" => Verdict::GameOver,
        "invalid" => {
            let why = invalid.ok_or("verdict invalid without its reason")?;
            Verdict::Invalid(
                umpire_rules::record::notation::ALL_INVALID
                    .into_iter()
                    .find(|i| i.as_str() == why)
                    .ok_or_else(|| format!("unknown invalid reason {why:?}"))?,
            )
        }
        other => return Err(format!("unknown verdict {other:?}")),
    })
}

fn parse_observation(o: &ObservationJson, player: Color) -> Result<Observation, String> {
    let actor = parse_color(&o.actor).ok_or_else(|| format!("actor {:?}", o.actor))?;
    let own = match (&o.command, &o.verdict) {
        (Some(command), Some(verdict)) => Some(OwnCommand {
            command: Command::parse_record_word(command)
                .ok_or_else(|| format!("command {command:?}"))?,
            verdict: parse_verdict(verdict, o.invalid.as_deref())?,
        }),
        (None, None) => None,
        _ => return Err("command and verdict go together".to_owned()),
    };
    let mut announcements = arrayvec::ArrayVec::new();
    for a in &o.announcements {
        let a = a.announcement().map_err(|e| e.to_string())?;
        announcements
            .try_push(a)
            .map_err(|_| "too many announcements".to_owned())?;
    }
    Ok(Observation {
        player,
        actor,
        own,
        moved: o.moved,
        announcements,
    })
}

impl Response {
    /// A response with `command` and the analysis, if any.
    pub fn command(command: Command, analysis: Option<&Analysis>) -> Response {
        Response {
            protocol: Some(PROTOCOL.to_owned()),
            command: Some(command.to_text()),
            value: analysis.map(|a| a.value),
            line: analysis.map(|a| a.line.iter().map(Command::to_text).collect()),
            nodes: analysis.map(|a| a.nodes),
            error: None,
        }
    }

    /// A response saying the request could not be used.
    pub fn error(message: String) -> Response {
        Response {
            protocol: Some(PROTOCOL.to_owned()),
            command: None,
            value: None,
            line: None,
            nodes: None,
            error: Some(message),
        }
    }

    /// The response as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a response line and checks it: its command, and its analysis if any (a value
    /// outside [-1, 1] or an unreadable line command is refused).
    pub fn parse(line: &str) -> Result<(Command, Option<Analysis>), String> {
        let shown: String = line.chars().take(80).collect();
        let r: Response =
            serde_json::from_str(line).map_err(|e| format!("not a response ({e}): {shown:?}"))?;
        if let Some(p) = &r.protocol
            && p != PROTOCOL
        {
            return Err(format!("protocol {p:?} is not {PROTOCOL:?}"));
        }
        if let Some(e) = r.error {
            return Err(format!("the engine reports an error: {e}"));
        }
        let text = r.command.ok_or("a response without a command")?;
        let command = Command::parse_keyword_or_uci(&text)
            .ok_or_else(|| format!("{text:?} is not a command"))?;
        let analysis = match r.value {
            None => None,
            Some(v) if (-1.0..=1.0).contains(&v) => {
                let line = r
                    .line
                    .unwrap_or_default()
                    .iter()
                    .map(|c| {
                        Command::parse_keyword_or_uci(c)
                            .ok_or_else(|| format!("line: {c:?} is not a command"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Some(Analysis {
                    value: v,
                    line,
                    nodes: r.nodes.unwrap_or(0),
                })
            }
            Some(v) => return Err(format!("value {v} is outside [-1, 1]")),
        };
        Ok((command, analysis))
    }
}
