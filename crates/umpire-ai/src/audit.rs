//! The soundness audit of the guided action space: agents play games, and before each
//! decision the auditor, who sees the true position, checks which legal moves each filter
//! would hide from the player to move. The filters themselves see only the player's view.

use serde::Serialize;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{EnPassantMode, Role};
use umpire_rules::{Attempt, AttemptList, Command, Outcome, RuleSet, Umpire};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterId, FilterSet, GuidedSpace};

use crate::{Agent, AgentKind, MatchError, Watcher, play_match};

/// At most this many violations are kept with their position (all are counted).
pub const MAX_LISTED_VIOLATIONS: usize = 100;

/// What to audit.
#[derive(Clone, Copy, Debug)]
pub struct AuditConfig {
    /// Rule set.
    pub rules: RuleSet,
    /// Games to play (fewer if `max_decisions` is reached first).
    pub games: u64,
    /// Base seed; game `i`'s agents are seeded from it and `i`.
    pub seed: u64,
    /// Who plays both sides.
    pub agent: AgentKind,
    /// The filters the guided agent is offered attempts through (the audit always checks
    /// every filter).
    pub agent_filters: FilterSet,
    /// Stop a game unfinished after this many moves.
    pub max_plies: u32,
    /// Stop the audit after this many decisions, if given.
    pub max_decisions: Option<u64>,
}

impl AuditConfig {
    /// `games` games under `rules` between two agents of kind `agent`, from `seed`; the guided
    /// agent uses every sound filter, games stop after 400 moves.
    pub fn new(rules: RuleSet, games: u64, seed: u64, agent: AgentKind) -> AuditConfig {
        AuditConfig {
            rules,
            games,
            seed,
            agent,
            agent_filters: FilterSet::all_sound(),
            max_plies: 400,
            max_decisions: None,
        }
    }
}

/// What one filter did over the audit.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FilterAudit {
    /// The filter's id (`"C6.1"`).
    pub id: &'static str,
    /// `"sound"` or `"heuristic"`.
    pub soundness: &'static str,
    /// Decisions at which it hid at least one attempt possible on the own board.
    pub decisions_fired: u64,
    /// Own-board attempts it hid, summed over decisions.
    pub attempts_hidden: u64,
    /// Of those, attempts legal in the true position (for a sound filter: violations).
    pub legal_hidden: u64,
    /// `legal_hidden / attempts_hidden` (0 if it never hid anything).
    pub false_hide_rate: f64,
}

/// A legal move that a sound filter hid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Index of the game (0-based).
    pub game: u64,
    /// Index of the command in the game (0-based).
    pub command: u64,
    /// The true position (FEN).
    pub fen: String,
    /// The legal attempt hidden, in UCI.
    pub attempt: String,
    /// The sound filter that hid it.
    pub filter: &'static str,
}

/// The audit's findings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditReport {
    /// Rule-set identifier.
    pub rules: String,
    /// The agent that played both sides.
    pub agent: &'static str,
    /// Games played (the last one possibly cut short by the decision budget).
    pub games: u64,
    /// Decisions audited (each command chosen on a player's turn).
    pub decisions: u64,
    /// Legal attempts checked against every filter.
    pub legal_checked: u64,
    /// Legal attempts hidden by sound filters, in total (should be 0).
    pub soundness_violations: u64,
    /// Per filter, in seed order.
    pub filters: Vec<FilterAudit>,
    /// The first violations (at most [`MAX_LISTED_VIOLATIONS`]).
    pub violations: Vec<Violation>,
}

impl AuditReport {
    fn empty(config: &AuditConfig) -> AuditReport {
        AuditReport {
            rules: config.rules.id.to_string(),
            agent: config.agent.as_str(),
            games: 0,
            decisions: 0,
            legal_checked: 0,
            soundness_violations: 0,
            filters: FilterId::ALL
                .into_iter()
                .map(|id| FilterAudit {
                    id: id.as_str(),
                    soundness: id.filter().soundness.as_str(),
                    ..FilterAudit::default()
                })
                .collect(),
            violations: Vec::new(),
        }
    }

    /// Adds another report's counts (of the same agent; the rules name becomes a list).
    pub fn merge(&mut self, other: &AuditReport) {
        if self.rules != other.rules {
            self.rules = format!("{},{}", self.rules, other.rules);
        }
        self.games += other.games;
        self.decisions += other.decisions;
        self.legal_checked += other.legal_checked;
        self.soundness_violations += other.soundness_violations;
        for (mine, theirs) in self.filters.iter_mut().zip(&other.filters) {
            mine.decisions_fired += theirs.decisions_fired;
            mine.attempts_hidden += theirs.attempts_hidden;
            mine.legal_hidden += theirs.legal_hidden;
        }
        self.finish();
        let room = MAX_LISTED_VIOLATIONS.saturating_sub(self.violations.len());
        self.violations
            .extend(other.violations.iter().take(room).cloned());
    }

    fn finish(&mut self) {
        for f in &mut self.filters {
            f.false_hide_rate = if f.attempts_hidden == 0 {
                0.0
            } else {
                f.legal_hidden as f64 / f.attempts_hidden as f64
            };
        }
    }

    /// The entry of filter `id`.
    pub fn filter(&self, id: FilterId) -> &FilterAudit {
        &self.filters[id as usize]
    }
}

/// Counts per decision, without allocation.
struct Auditor {
    report: AuditReport,
    game: u64,
    command: u64,
    own: AttemptList,
}

impl Auditor {
    /// Checks the decision the player of `view` faces in the true position of `umpire`.
    fn check(&mut self, umpire: &Umpire, view: &PlayerView) {
        if !view.is_my_turn() {
            return;
        }
        self.report.decisions += 1;
        // The filters see the view only.
        let space = GuidedSpace::new(view, FilterSet::all());
        let own = view.own_board();
        let queen_only = view.rules().promotion_always_queen;
        self.own.clear();
        own.attempts(queen_only, &mut self.own);
        let mut fired = FilterSet::EMPTY;
        for &a in &self.own {
            let hidden = space.hidden_by(a);
            for id in hidden.iter() {
                self.report.filters[id as usize].attempts_hidden += 1;
            }
            fired = fired.union(hidden);
        }
        for id in fired.iter() {
            self.report.filters[id as usize].decisions_fired += 1;
        }
        // The auditor sees the truth.
        let obliged = view.turn().must_try_pawn_capture;
        for m in umpire.legal_moves() {
            let Some(a) = Attempt::from_move(&m) else {
                continue;
            };
            if queen_only && a.promotion.is_some_and(|r| r != Role::Queen) {
                continue;
            }
            if obliged && !own.is_pawn_capture(a) {
                continue;
            }
            self.report.legal_checked += 1;
            for id in space.hidden_by(a).iter() {
                self.report.filters[id as usize].legal_hidden += 1;
                if id.is_sound() {
                    self.report.soundness_violations += 1;
                    if self.report.violations.len() < MAX_LISTED_VIOLATIONS {
                        self.report.violations.push(Violation {
                            game: self.game,
                            command: self.command,
                            fen: Fen::from_position(umpire.position(), EnPassantMode::Legal)
                                .to_string(),
                            attempt: a.to_string(),
                            filter: id.as_str(),
                        });
                    }
                }
            }
        }
    }

    fn budget_left(&self, config: &AuditConfig) -> bool {
        config
            .max_decisions
            .is_none_or(|max| self.report.decisions < max)
    }
}

struct Watch<'a> {
    auditor: &'a mut Auditor,
    config: &'a AuditConfig,
}

impl Watcher<Umpire> for Watch<'_> {
    fn before(&mut self, table: &Umpire, mover: &dyn Agent) {
        self.auditor.check(table, mover.view());
    }

    fn stop(&self) -> bool {
        !self.auditor.budget_left(self.config)
    }

    fn after(&mut self, _table: &Umpire, _command: Command, _outcome: &Outcome) {
        self.auditor.command += 1;
    }
}

/// The seed of player `side` (0 white, 1 black) in game `index` of a run seeded `seed`
/// (SplitMix64 of the triple).
pub fn agent_seed(seed: u64, index: u64, side: u64) -> u64 {
    let mut z = seed
        ^ (2 * index + side)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays the games of `config` and audits every decision; `progress` is called after each
/// game with the report so far.
pub fn audit_guided(
    config: &AuditConfig,
    mut progress: impl FnMut(&AuditReport),
) -> Result<AuditReport, MatchError> {
    let mut auditor = Auditor {
        report: AuditReport::empty(config),
        game: 0,
        command: 0,
        own: AttemptList::new(),
    };
    for game in 0..config.games {
        if !auditor.budget_left(config) {
            break;
        }
        auditor.game = game;
        auditor.command = 0;
        let rules = config.rules;
        let mut agents = [0u64, 1].map(|side| {
            let color = if side == 0 {
                umpire_rules::shakmaty::Color::White
            } else {
                umpire_rules::shakmaty::Color::Black
            };
            config.agent.build(
                PlayerView::standard(rules, color),
                agent_seed(config.seed, game, side),
                &crate::AgentConfig::with_filters(config.agent_filters),
            )
        });
        let [white, black] = &mut agents;
        let mut umpire = Umpire::new(rules);
        let mut watch = Watch {
            auditor: &mut auditor,
            config,
        };
        play_match(
            &mut umpire,
            [&mut **white, &mut **black],
            config.max_plies,
            &mut watch,
        )?;
        auditor.report.games += 1;
        auditor.report.finish();
        progress(&auditor.report);
    }
    auditor.report.finish();
    Ok(auditor.report)
}
