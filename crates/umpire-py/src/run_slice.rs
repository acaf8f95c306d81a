//! Slices of runs: games `[start, end)` of an `umpire match` or an `umpire selfplay` run, each
//! a function of the run's key and its index alone (`umpire_ai::tournament::play_game`,
//! `selfplay_game`), so that batches played anywhere (Ray tasks on other machines, in any
//! order) give exactly the games of the single-machine run with the same seed or run key.
//! The Python module `umpire.distributed` fans the slices out; see `docs/PYTHON.md`.

use std::time::Duration;

use umpire_ai::tournament::stats::Tally;
use umpire_ai::tournament::{
    GameReport, MatchConfig, Points, RunKey, SelfplayConfig, play_game, selfplay_game,
};
use umpire_ai::{AgentConfig, AgentSpec, Budget};
use umpire_rules::shakmaty::Color;
use umpire_rules::{Record, RuleSetId};

/// The most games one slice plays (each slice holds its records in memory until it returns).
pub const MAX_SLICE: u64 = 100_000;

/// The key of a run: from the seed the user chose (`--seed`), else from a run key's 64
/// hexadecimal digits (`--run-key`); one of them is required (a secret key is drawn by the
/// caller, who must hand the same one to every slice).
pub fn run_key(seed: Option<u64>, key: Option<&str>) -> Result<RunKey, String> {
    match (seed, key) {
        (Some(_), Some(_)) => Err("give a seed or a run key, not both".into()),
        (Some(seed), None) => Ok(RunKey::from_seed(seed)),
        (None, Some(hex)) => hex
            .parse()
            .map_err(|e: umpire_ai::tournament::BadRunKey| e.to_string()),
        (None, None) => Err("a slice needs the run's seed or run key".into()),
    }
}

/// The budget of the searching agents, as `umpire match` reads `--nodes` and `--movetime`.
pub fn budget(movetime_ms: Option<u64>, nodes: Option<u64>) -> Result<Budget, String> {
    match (nodes, movetime_ms) {
        (Some(_), Some(_)) => Err("give movetime or nodes, not both".into()),
        (Some(n), None) => Ok(Budget::Nodes(n)),
        (None, Some(ms)) => Ok(Budget::Time(Duration::from_millis(ms))),
        (None, None) => Ok(Budget::default()),
    }
}

/// A budget as `umpire match --json` writes it (`"400 nodes"`, `"100 ms"`).
pub fn budget_text(b: Budget) -> String {
    match b {
        Budget::Nodes(n) => format!("{n} nodes"),
        Budget::Time(t) => format!("{} ms", t.as_millis()),
    }
}

fn check_slice(start: u64, end: u64) -> Result<(), String> {
    if start > end {
        return Err(format!("the slice [{start}, {end}) is reversed"));
    }
    if end - start > MAX_SLICE {
        return Err(format!(
            "a slice plays at most {MAX_SLICE} games ({} asked): use more batches",
            end - start
        ));
    }
    Ok(())
}

/// One row of a dataset of games (`umpire.datasets`' schema): the record and both players'
/// filtered views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The rule-set id.
    pub rules: &'static str,
    /// The start position (FEN).
    pub fen: String,
    /// The result (`"1-0"`, …), if the game ended.
    pub result: Option<&'static str>,
    /// The lossless JSON record (the true history).
    pub record: String,
    /// White's filtered record (JSON).
    pub white_view: String,
    /// Black's filtered record (JSON).
    pub black_view: String,
}

impl GameRow {
    /// The row of a record.
    pub fn of(record: &Record) -> Result<GameRow, String> {
        let view = |side| record.player_json(side).map_err(|e| e.to_string());
        Ok(GameRow {
            rules: record.rules.as_str(),
            fen: record.fen.clone(),
            result: record.result.map(|r| r.score()),
            record: record.to_json(),
            white_view: view(Color::White)?,
            black_view: view(Color::Black)?,
        })
    }
}

/// What one game of a match gives, from the first agent's (A's) side, counts in A, B order.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// The game's index in the run (0-based).
    pub index: u64,
    /// The seats' seeds (White's, Black's).
    pub seeds: [u64; 2],
    /// Whether A played White.
    pub a_white: bool,
    /// `"win"`, `"draw"` or `"loss"` for A.
    pub points: &'static str,
    /// Why it ended (`checkmate`, …, `ply_cap`, `engine_failure`).
    pub termination: &'static str,
    /// Moves played.
    pub plies: u32,
    /// What broke, when an outside program did.
    pub fault: Option<String>,
    /// Decisions of A and of B.
    pub decisions: [u64; 2],
    /// Search nodes A and B reported.
    pub nodes: [u64; 2],
    /// Thinking time of A and of B, in microseconds (a measurement, not reproducible).
    pub think_us: [u64; 2],
    /// The dataset row of the game.
    pub row: GameRow,
}

impl MatchGame {
    fn of(report: &GameReport) -> Result<MatchGame, String> {
        let seats = if report.a_white { [0, 1] } else { [1, 0] };
        let by_agent = |by_seat: [u64; 2]| seats.map(|seat| by_seat[seat]);
        Ok(MatchGame {
            index: report.index,
            seeds: report.seeds,
            a_white: report.a_white,
            points: match report.points {
                Points::Win => "win",
                Points::Draw => "draw",
                Points::Loss => "loss",
            },
            termination: report.termination.as_str(),
            plies: report.plies,
            fault: report.fault.clone(),
            decisions: by_agent(report.stats.decisions),
            nodes: by_agent(report.stats.nodes),
            think_us: by_agent(report.stats.think_us),
            row: GameRow::of(&report.record)?,
        })
    }
}

/// A match as `umpire match A B` plays it (two agents, no SPRT, no round robin).
#[derive(Clone, Debug)]
pub struct MatchRun {
    a: AgentSpec,
    b: AgentSpec,
    cfg: MatchConfig,
}

impl MatchRun {
    /// The match of agents `a` and `b` (built-in names, `mcts@4000`, or `cmd:PROGRAM`; never a
    /// cheating one) under `rules`, `budget`, the run's `key` and the ply cap.
    pub fn new(
        a: &str,
        b: &str,
        rules: &str,
        budget: Budget,
        key: RunKey,
        max_plies: u32,
    ) -> Result<MatchRun, String> {
        let a: AgentSpec = a.parse().map_err(|e| format!("{e}"))?;
        let b: AgentSpec = b.parse().map_err(|e| format!("{e}"))?;
        let rules: RuleSetId = rules.parse().map_err(|e| format!("{e}"))?;
        Ok(MatchRun {
            a,
            b,
            cfg: MatchConfig {
                rules,
                games: 0,
                agent: AgentConfig {
                    budget,
                    ..AgentConfig::default()
                },
                concurrency: 1,
                key,
                max_plies,
                sprt: None,
                engine_timeout: None,
            },
        })
    }

    /// The agents' names as `umpire match --json` gives them.
    pub fn names(&self) -> [String; 2] {
        [self.a.to_string(), self.b.to_string()]
    }

    /// Each agent's own budget (`mcts@4000` overrides the run's), as text.
    pub fn budgets(&self) -> [String; 2] {
        let run = self.cfg.agent.budget;
        [
            budget_text(self.a.budget(run)),
            budget_text(self.b.budget(run)),
        ]
    }

    /// The run's budget as `umpire match --json`'s `"budget"` gives it: `None` (null) when both
    /// agents carry their own, so that it names no budget nobody played under.
    pub fn run_budget(&self) -> Option<String> {
        (!(self.a.has_own_budget() && self.b.has_own_budget()))
            .then(|| budget_text(self.cfg.agent.budget))
    }

    /// Plays games `[start, end)` in order.
    pub fn play(&self, start: u64, end: u64) -> Result<Vec<MatchGame>, String> {
        check_slice(start, end)?;
        (start..end)
            .map(|i| MatchGame::of(&play_game(&self.a, &self.b, &self.cfg, i)?))
            .collect()
    }
}

/// What one self-play game gives.
#[derive(Clone, Debug)]
pub struct SelfplayResult {
    /// The game's index in the run (0-based).
    pub index: u64,
    /// `umpire selfplay`'s line for it: `"1-0 checkmate"`, `"* unfinished after N plies"`.
    pub outcome: String,
    /// Commands judged.
    pub attempts: u64,
    /// Moves played.
    pub plies: u64,
    /// The dataset row of the game.
    pub row: GameRow,
}

/// A self-play run as `umpire selfplay` plays it.
#[derive(Clone, Debug)]
pub struct SelfplayRun {
    cfg: SelfplayConfig,
}

impl SelfplayRun {
    /// The run of `agent` against itself under `rules`, from `fen` (or the standard start).
    pub fn new(
        agent: &str,
        rules: &str,
        fen: Option<String>,
        key: RunKey,
        max_plies: u32,
    ) -> Result<SelfplayRun, String> {
        let agent: AgentSpec = agent.parse().map_err(|e| format!("{e}"))?;
        let rules: RuleSetId = rules.parse().map_err(|e| format!("{e}"))?;
        Ok(SelfplayRun {
            cfg: SelfplayConfig::new(rules, fen, agent, key, max_plies)?,
        })
    }

    /// Plays games `[start, end)` in order.
    pub fn play(&self, start: u64, end: u64) -> Result<Vec<SelfplayResult>, String> {
        check_slice(start, end)?;
        (start..end)
            .map(|index| {
                let played = selfplay_game(&self.cfg, index)?;
                let outcome = match played.game.result() {
                    Some(r) => format!("{} {}", r.score(), r.reason.as_str()),
                    None => format!("* unfinished after {} plies", self.cfg.max_plies),
                };
                Ok(SelfplayResult {
                    index,
                    outcome,
                    attempts: played.attempts,
                    plies: played.plies,
                    row: GameRow::of(&played.game.into_record())?,
                })
            })
            .collect()
    }
}

/// The score of a tally and its 95 % interval, and the Elo difference and its interval, as
/// `umpire match --json` computes them (`None` where it writes null).
pub type Figures = (
    Option<f64>,
    Option<(f64, f64)>,
    Option<f64>,
    Option<(Option<f64>, Option<f64>)>,
);

/// [`Figures`] of `wins`, `draws`, `losses`.
pub fn figures(wins: u64, draws: u64, losses: u64) -> Figures {
    let t = Tally {
        wins,
        draws,
        losses,
    };
    (t.score(), t.score_interval(), t.elo(), t.elo_interval())
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_ai::tournament::MatchSummary;

    #[test]
    fn slices_give_the_games_of_the_whole_run() {
        let key = RunKey::from_seed(11);
        let run = MatchRun::new(
            "guided-random",
            "random",
            "wild16",
            Budget::Nodes(10),
            key,
            200,
        )
        .unwrap();
        let whole = run.play(0, 5).unwrap();
        let mut pieces = run.play(3, 5).unwrap();
        pieces.splice(0..0, run.play(0, 3).unwrap());
        assert_eq!(whole.len(), 5);
        for (w, p) in whole.iter().zip(&pieces) {
            assert_eq!(w.index, p.index);
            assert_eq!(w.row, p.row);
            assert_eq!((w.points, w.termination), (p.points, p.termination));
        }
        // Colours alternate: A is White in even games.
        assert!(whole[0].a_white && !whole[1].a_white);
        assert_eq!(whole[1].seeds, key.seats(1));
    }

    #[test]
    fn a_slice_matches_the_threaded_runner() {
        let key = RunKey::from_seed(2);
        let run = MatchRun::new(
            "random",
            "guided-random",
            "berkeley",
            Budget::Nodes(10),
            key,
            150,
        )
        .unwrap();
        let cfg = MatchConfig {
            games: 4,
            concurrency: 2,
            ..run.cfg.clone()
        };
        let mut records = Vec::new();
        let summary: MatchSummary = umpire_ai::tournament::run_match(&run.a, &run.b, &cfg, |r| {
            records.push(r.record.to_json());
        })
        .unwrap();
        let games = run.play(0, 4).unwrap();
        let rows: Vec<String> = games.iter().map(|g| g.row.record.clone()).collect();
        assert_eq!(rows, records);
        let count = |p| games.iter().filter(|g| g.points == p).count() as u64;
        assert_eq!(
            (count("win"), count("draw"), count("loss")),
            (
                summary.tally.wins,
                summary.tally.draws,
                summary.tally.losses
            )
        );
    }

    #[test]
    fn selfplay_slices_agree_and_views_hide_the_seeds() {
        let run = SelfplayRun::new("random", "wild16", None, RunKey::from_seed(5), 100).unwrap();
        let whole = run.play(0, 3).unwrap();
        let last = run.play(2, 3).unwrap();
        assert_eq!(whole[2].row, last[0].row);
        assert!(whole[2].row.record.contains("\"Seed\""));
        for g in &whole {
            assert!(!g.row.white_view.contains("Seed"));
            assert!(!g.row.black_view.contains("Seed"));
        }
        assert!(whole.iter().all(|g| g.plies <= 100));
    }

    #[test]
    fn bad_arguments_are_errors() {
        let key = RunKey::from_seed(0);
        assert!(MatchRun::new("nobody", "random", "wild16", Budget::Nodes(1), key, 10).is_err());
        assert!(MatchRun::new("random", "random", "chess960", Budget::Nodes(1), key, 10).is_err());
        assert!(MatchRun::new("peek", "random", "wild16", Budget::Nodes(1), key, 10).is_err());
        let run = MatchRun::new("random", "random", "wild16", Budget::Nodes(1), key, 10).unwrap();
        assert!(run.play(3, 2).is_err());
        assert!(run.play(0, MAX_SLICE + 1).is_err());
        assert!(run_key(None, None).is_err());
        assert!(run_key(Some(1), Some(&key.to_hex())).is_err());
        assert!(run_key(None, Some("zz")).is_err());
        assert_eq!(run_key(None, Some(&key.to_hex())), Ok(key));
        assert!(budget(Some(1), Some(1)).is_err());
        assert_eq!(budget(None, Some(7)), Ok(Budget::Nodes(7)));
        assert!(SelfplayRun::new("random", "wild16", Some("x".into()), key, 10).is_err());
    }

    #[test]
    fn figures_are_the_tallys() {
        let (score, interval, _, _) = figures(3, 2, 1);
        assert_eq!(score, Some(4.0 / 6.0));
        assert!(interval.is_some());
        assert_eq!(figures(0, 0, 0).0, None);
    }
}
