//! [`run_match`]: many games between two agents on several threads, deterministic whatever
//! the number of threads; [`run_round_robin`] for several agents.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::{EndReason, Record, RuleSetId};
use umpire_view::PlayerView;

use super::material::MaterialAccount;
use super::seeds::RunKey;
use super::stats::{Sprt, SprtDecision, Tally, bradley_terry};
use crate::engine::fault_of;
use crate::gauntlet::TrueBoard;
use crate::{
    AgentConfig, AgentSpec, DecisionTimes, MAX_COMMANDS_PER_TURN, MatchStats, Watcher, play_match,
    spec::engine_timeout,
};

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The rule set.
    pub rules: RuleSetId,
    /// Games to play (fewer if the SPRT stops early).
    pub games: u64,
    /// Filters and budget of every agent.
    pub agent: AgentConfig,
    /// Games played at once, each on its own thread (at least 1).
    pub concurrency: usize,
    /// The run's secret: game `i`'s White plays with [`RunKey::seat_seed`]`(i, White)`, its
    /// Black with `(i, Black)`; no seat's seed says anything of another's.
    pub key: RunKey,
    /// A game still going after this many moves is stopped and scored a draw (`ply_cap`).
    pub max_plies: u32,
    /// Stop early when this test decides (evaluated on games in index order).
    pub sprt: Option<Sprt>,
    /// How long an outside program may take per answer (default: [`engine_timeout`]).
    pub engine_timeout: Option<Duration>,
}

/// A game's result from the first agent's (A's) side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Points {
    /// A won.
    Win,
    /// A draw.
    Draw,
    /// A lost.
    Loss,
}

/// Why a game ended, for the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The umpire ended it.
    End(EndReason),
    /// Still going at the ply cap: scored a draw.
    PlyCap,
    /// An outside program broke (timeout, exit, garbage): a loss for its side.
    EngineFailure,
}

impl Termination {
    /// `checkmate`, `stalemate`, … (as [`EndReason::as_str`]), `ply_cap`, `engine_failure`.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::End(r) => r.as_str(),
            Termination::PlyCap => "ply_cap",
            Termination::EngineFailure => "engine_failure",
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its index (0-based).
    pub index: u64,
    /// The seats' seeds, White's and Black's ([`RunKey::seats`] of the index; also in the
    /// record's `WhiteSeed` and `BlackSeed` tags, which no player's view carries).
    pub seeds: [u64; 2],
    /// Whether A played White (even indices).
    pub a_white: bool,
    /// The result from A's side.
    pub points: Points,
    /// Why it ended.
    pub termination: Termination,
    /// Moves played.
    pub plies: u32,
    /// What broke, when an outside program did.
    pub fault: Option<String>,
    /// The game's counts, seats as played (White, Black): decisions, nodes, thinking time.
    pub stats: MatchStats,
    /// The umpire's record of the game.
    pub record: Record,
}

/// An agent's name as a tag value: control characters as spaces, at most 1024 bytes.
fn tag_value(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().map(|c| if c.is_control() { ' ' } else { c }) {
        if out.len() + c.len_utf8() > 1024 {
            break;
        }
        out.push(c);
    }
    out
}

/// Puts the true position in a cheating agent's [`TrueBoard`] before each decision.
struct TruthFeed(Option<TrueBoard>);

impl Watcher<Game> for TruthFeed {
    fn before(&mut self, table: &Game, _mover: &dyn crate::Agent) {
        if let Some(truth) = &self.0 {
            truth.set(table.umpire().position());
        }
    }
}

/// Plays game `index` of `a` against `b`.
///
/// The endgame tables the agents play are loaded before the first decision
/// ([`crate::endgame::prepare_tables`]; once per process), so that no decision pays for a load
/// or a build (issue 28 goal 3: a level-4 decision of 4.3 s CPU was the KBNK table built at its
/// first need).
pub fn play_game(
    a: &AgentSpec,
    b: &AgentSpec,
    cfg: &MatchConfig,
    index: u64,
) -> Result<GameReport, String> {
    // Tables are played under wild16 only.
    if cfg.rules == RuleSetId::Wild16 && (a.uses_tables() || b.uses_tables()) {
        crate::endgame::prepare_tables(crate::endgame::EndgameConfig::default());
    }
    let seeds = cfg.key.seats(index);
    let a_white = index.is_multiple_of(2);
    let (white, black) = if a_white { (a, b) } else { (b, a) };
    let rules = *cfg.rules.rules();
    let mut game = Game::new(rules);
    for (tag, value) in [
        ("Event", "umpire match".to_owned()),
        ("White", white.to_string()),
        ("Black", black.to_string()),
        ("Round", (index + 1).to_string()),
        ("WhiteSeed", seeds[0].to_string()),
        ("BlackSeed", seeds[1].to_string()),
    ] {
        game.set_tag(tag, &tag_value(&value))
            .map_err(|e| e.to_string())?;
    }
    let timeout = cfg
        .engine_timeout
        .unwrap_or_else(|| engine_timeout(cfg.agent.budget));
    // Only a cheating agent holds the true board, and only when one plays is it filled.
    let truth = TrueBoard::new();
    let (mut w, w_fault) = white.build_seeing(
        PlayerView::standard(rules, Color::White),
        seeds[0],
        &cfg.agent,
        timeout,
        &truth,
    );
    let (mut bl, b_fault) = black.build_seeing(
        PlayerView::standard(rules, Color::Black),
        seeds[1],
        &cfg.agent,
        timeout,
        &truth,
    );
    let mut feed = TruthFeed((white.is_cheating() || black.is_cheating()).then_some(truth));
    let stats = play_match(&mut game, [&mut *w, &mut *bl], cfg.max_plies, &mut feed)
        .map_err(|e| format!("game {}: {e}", index + 1))?;
    drop((w, bl));
    let engine_faults = [w_fault, b_fault].map(|f| f.as_ref().and_then(fault_of));
    let names = [white.to_string(), black.to_string()];
    // A seat past the harness's limit of commands per turn forfeits, with the reason.
    let faults: [Option<String>; 2] = std::array::from_fn(|i| {
        engine_faults[i].clone().or_else(|| {
            (stats.forfeits[i] > 0).then(|| {
                format!(
                    "{}: gave more than {MAX_COMMANDS_PER_TURN} commands in one turn without a move; forfeited",
                    names[i]
                )
            })
        })
    });
    let a_side = if a_white { 0 } else { 1 };
    let broken = usize::from(faults[0].is_none());
    let (points, termination, fault) = match faults {
        [Some(wf), Some(bf)] => (
            Points::Draw,
            Termination::EngineFailure,
            Some(format!("{wf}; {bf}")),
        ),
        [Some(f), None] | [None, Some(f)] => {
            let points = if broken == a_side {
                Points::Loss
            } else {
                Points::Win
            };
            (points, Termination::EngineFailure, Some(f))
        }
        [None, None] => match game.result() {
            Some(r) => {
                let points = match r.winner {
                    None => Points::Draw,
                    Some(c) if c.is_white() == a_white => Points::Win,
                    Some(_) => Points::Loss,
                };
                (points, Termination::End(r.reason), None)
            }
            None => (Points::Draw, Termination::PlyCap, None),
        },
    };
    Ok(GameReport {
        index,
        seeds,
        a_white,
        points,
        termination,
        plies: u32::try_from(stats.plies).unwrap_or(u32::MAX),
        fault,
        stats,
        record: game.into_record(),
    })
}

/// The summary of a match, from A's side.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Wins, draws, losses.
    pub tally: Tally,
    /// Games A won by checkmate.
    pub checkmates: u64,
    /// Per termination ([`Termination::as_str`]): A's wins, draws, losses.
    pub by_reason: BTreeMap<&'static str, Tally>,
    /// Moves played in all games.
    pub plies: u64,
    /// Moves played in the games A won by checkmate.
    pub mate_plies: u64,
    /// The SPRT's decision, if it stopped the match.
    pub sprt: Option<SprtDecision>,
    /// The faults of outside programs, by game (1-based).
    pub faults: Vec<(u64, String)>,
    /// Decisions made by A and by B.
    pub decisions: [u64; 2],
    /// Search nodes A and B reported spending on them.
    pub nodes: [u64; 2],
    /// Wall-clock time A and B took to decide, in microseconds.
    pub think_us: [u64; 2],
    /// A's and B's decision times ([`MatchStats::times`]): percentiles and maximum.
    pub times: [DecisionTimes; 2],
    /// A's and B's decision CPU times ([`MatchStats::cpu_times`]).
    pub cpu_times: [DecisionTimes; 2],
    /// The material A and B lost, summed over the games whose record replays
    /// ([`MaterialAccount`]).
    pub material_lost: [f64; 2],
    /// The games counted in [`MatchSummary::material_lost`].
    pub accounted: u64,
    /// Games drawn by threefold repetition while A (first) or B (second) was ahead in
    /// material.
    pub threefold_ahead: [u64; 2],
}

impl MatchSummary {
    /// Counts one game.
    pub fn add(&mut self, report: &GameReport) {
        let entry = self
            .by_reason
            .entry(report.termination.as_str())
            .or_default();
        for t in [&mut self.tally, entry] {
            match report.points {
                Points::Win => t.wins += 1,
                Points::Draw => t.draws += 1,
                Points::Loss => t.losses += 1,
            }
        }
        self.plies += u64::from(report.plies);
        if report.points == Points::Win
            && report.termination == Termination::End(EndReason::Checkmate)
        {
            self.checkmates += 1;
            self.mate_plies += u64::from(report.plies);
        }
        if let Some(f) = &report.fault {
            self.faults.push((report.index + 1, f.clone()));
        }
        if let Some(account) = MaterialAccount::of(&report.record) {
            let a_side = if report.a_white {
                Color::White
            } else {
                Color::Black
            };
            self.material_lost[0] += account.lost_by(a_side);
            self.material_lost[1] += account.lost_by(!a_side);
            self.accounted += 1;
            if report.termination == Termination::End(EndReason::ThreefoldRepetition) {
                let lead = account.lead_of(a_side);
                if lead > 0.0 {
                    self.threefold_ahead[0] += 1;
                } else if lead < 0.0 {
                    self.threefold_ahead[1] += 1;
                }
            }
        }
        let seats = if report.a_white { [0, 1] } else { [1, 0] };
        for (side, seat) in seats.into_iter().enumerate() {
            self.decisions[side] += report.stats.decisions[seat];
            self.nodes[side] += report.stats.nodes[seat];
            self.think_us[side] += report.stats.think_us[seat];
            self.times[side].add(&report.stats.times[seat]);
            self.cpu_times[side].add(&report.stats.cpu_times[seat]);
        }
    }

    /// Mean search nodes per decision of A and of B (`None` before any decision).
    pub fn nodes_per_decision(&self) -> [Option<f64>; 2] {
        [0, 1].map(|i| {
            (self.decisions[i] > 0 && self.nodes[i] > 0)
                .then(|| self.nodes[i] as f64 / self.decisions[i] as f64)
        })
    }

    /// Mean thinking time per decision of A and of B, in milliseconds.
    pub fn ms_per_decision(&self) -> [Option<f64>; 2] {
        [0, 1].map(|i| {
            (self.decisions[i] > 0)
                .then(|| self.think_us[i] as f64 / 1000.0 / self.decisions[i] as f64)
        })
    }

    /// Mean material lost per game by A and by B (`None` before any game is accounted).
    pub fn material_lost_per_game(&self) -> [Option<f64>; 2] {
        self.material_lost
            .map(|m| (self.accounted > 0).then(|| m / self.accounted as f64))
    }

    /// Mean moves per game.
    pub fn mean_plies(&self) -> Option<f64> {
        let n = self.tally.games();
        (n > 0).then(|| self.plies as f64 / n as f64)
    }

    /// Mean moves of the games A won by checkmate.
    pub fn mean_plies_to_mate(&self) -> Option<f64> {
        (self.checkmates > 0).then(|| self.mate_plies as f64 / self.checkmates as f64)
    }
}

/// Plays `cfg.games` games of `a` against `b` (A White in even games), `cfg.concurrency` at
/// once, and calls `on_game` with each report **in index order** (so records and counts do
/// not depend on the number of threads). With an SPRT, the match stops after the first
/// prefix of games on which the test decides; games beyond it still running are dropped.
/// Each game loads its tables before its first decision ([`play_game`]).
pub fn run_match(
    a: &AgentSpec,
    b: &AgentSpec,
    cfg: &MatchConfig,
    mut on_game: impl FnMut(&GameReport),
) -> Result<MatchSummary, String> {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let mut summary = MatchSummary::default();
    let mut failure: Option<String> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= cfg.games || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let report = play_game(a, b, cfg, index);
                    let failed = report.is_err();
                    if tx.send((index, report)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting: BTreeMap<u64, GameReport> = BTreeMap::new();
        let mut emitted = 0u64;
        for (index, report) in rx {
            if stop.load(Ordering::SeqCst) {
                continue;
            }
            match report {
                Err(e) => {
                    failure = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
                Ok(report) => {
                    waiting.insert(index, report);
                }
            }
            while let Some(report) = waiting.remove(&emitted) {
                emitted += 1;
                summary.add(&report);
                on_game(&report);
                if let Some(decision) = cfg.sprt.and_then(|s| s.decision(&summary.tally)) {
                    summary.sprt = Some(decision);
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// One agent's line in a round robin's table.
#[derive(Clone, Debug)]
pub struct Standing {
    /// The agent.
    pub agent: String,
    /// Its Bradley–Terry rating (Elo scale, average 0).
    pub rating: f64,
    /// Its wins, draws and losses over all its games.
    pub tally: Tally,
}

/// A round robin's result: every pairing's summary and the ratings table (best first).
#[derive(Clone, Debug)]
pub struct RoundRobin {
    /// `(i, j, summary of i against j)` for every pair `i < j`.
    pub pairings: Vec<(usize, usize, MatchSummary)>,
    /// The table, best rating first.
    pub table: Vec<Standing>,
}

/// Plays `cfg.games` games between every pair of `agents` (pairing `p` under the key
/// [`RunKey::pairing`]`(p)` of `cfg.key`; no SPRT) and rates them by Bradley–Terry with one virtual
/// draw per pair. `on_game` gets each pairing's reports in order, with the pair.
pub fn run_round_robin(
    agents: &[AgentSpec],
    cfg: &MatchConfig,
    mut on_game: impl FnMut(usize, usize, &GameReport),
) -> Result<RoundRobin, String> {
    let mut pairings = Vec::new();
    let mut pair = 0u64;
    for i in 0..agents.len() {
        for j in i + 1..agents.len() {
            let pair_cfg = MatchConfig {
                key: cfg.key.pairing(pair),
                sprt: None,
                ..cfg.clone()
            };
            pair += 1;
            let summary = run_match(&agents[i], &agents[j], &pair_cfg, |r| on_game(i, j, r))?;
            pairings.push((i, j, summary));
        }
    }
    let results: Vec<(usize, usize, Tally)> =
        pairings.iter().map(|(i, j, s)| (*i, *j, s.tally)).collect();
    let ratings = bradley_terry(agents.len(), &results, 1.0);
    let mut table: Vec<Standing> = agents
        .iter()
        .enumerate()
        .map(|(k, spec)| {
            let mut tally = Tally::default();
            for &(i, j, t) in &results {
                if i == k {
                    tally.wins += t.wins;
                    tally.draws += t.draws;
                    tally.losses += t.losses;
                } else if j == k {
                    tally.wins += t.losses;
                    tally.draws += t.draws;
                    tally.losses += t.wins;
                }
            }
            Standing {
                agent: spec.to_string(),
                rating: ratings[k],
                tally,
            }
        })
        .collect();
    table.sort_by(|x, y| y.rating.total_cmp(&x.rating));
    Ok(RoundRobin { pairings, table })
}
