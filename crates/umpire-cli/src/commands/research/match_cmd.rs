//! `umpire match`: games between two agents (or a round robin), on several threads, with
//! W/D/L by termination, score and Elo with 95 % intervals, an optional SPRT, and records.

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use umpire_ai::tournament::stats::{Sprt, Tally};
use umpire_ai::tournament::{
    GameReport, MatchConfig, MatchSummary, RunKey, run_match, run_round_robin,
};
use umpire_ai::{AgentConfig, AgentSpec, Budget};
use umpire_rules::RuleSetId;

use super::run_secret::RunSecret;
use crate::console::stdout::say;

/// `umpire match` arguments.
#[derive(clap::Args)]
pub struct MatchArgs {
    // The help lists the built-in agents.
    #[arg(required = true, num_args = 2.., help = crate::commands::agent_help::agent_help(
        "The agents: two (A B), or with --round-robin two or more. A name is a built-in agent:",
        "or `cmd:PROGRAM ARGS` (quoted as one argument), a program speaking the engine protocol \
         (docs/ENGINE.md). A built-in agent may carry its own budget, overriding \
         --nodes/--movetime for it: `mcts@4000` (4,000 nodes per decision), `mcts@500ms` \
         (500 ms); `mcts` also its belief, `mcts@16000/repair=R/bound=B` (repair work per \
         observation, belief bound); `mcts@level3` is the server's house level 3 (1 to 5). \
         E.g. `umpire match mcts@4000 mcts@400`, `umpire match --round-robin mcts@level1 \
         mcts@level2 mcts@level3 mcts@level4 mcts@level5`."))]
    agents: Vec<String>,
    /// Games to play (per pairing in a round robin). A plays White in odd-numbered games.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// Rule set: wild16 (default), berkeley, berkeley-any, cincinnati, english, rand, umpire1965.
    #[arg(long, default_value = "wild16")]
    rules: RuleSetId,
    /// Thinking time per decision, in milliseconds (searching agents; default 100).
    #[arg(long, value_name = "MS", conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Search nodes per decision instead of time: with seeds, the games are reproducible.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Games played at once, each on its own thread (default: the available cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..1025))]
    concurrency: Option<u64>,
    /// Make the run reproducible: every player's seed is derived from this one (game i's from
    /// it, i and the side, whatever the concurrency). Anyone who knows or guesses it can
    /// compute every seed, an engine included: leave it out of matches between programs you
    /// do not trust. Default: a secret run key drawn from the system, printed at the end.
    #[arg(long)]
    seed: Option<u64>,
    /// Replay a run from the key it printed (64 hexadecimal digits).
    #[arg(long, value_name = "HEX", conflicts_with = "seed")]
    run_key: Option<RunKey>,
    /// Write each game's record here (game-0001.json, …; in a round robin
    /// 1-2-game-0001.json for agents 1 and 2); check them with `umpire record verify`. These
    /// are the referee's records (both sides' moves, attempts and seeds); what one player
    /// heard comes from `umpire record convert --to white-json` (or black-json, white-pgn,
    /// black-pgn).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print one JSON object (the summary; for a round robin, the pairings and the table).
    #[arg(long)]
    json: bool,
    /// A game still going after this many moves is stopped and scored a draw (ply_cap).
    #[arg(long, default_value_t = 2000)]
    max_plies: u32,
    /// Stop early when a sequential probability ratio test of Elo = ELO0 against
    /// Elo = ELO1 decides (α = β = 0.05; formula in docs/ENGINE.md).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Play every pair of the agents and print a ratings table (Bradley–Terry, Elo scale).
    #[arg(long)]
    round_robin: bool,
    /// How long an engine program may take per answer, in milliseconds (default: twice
    /// --movetime plus 5 s, or 60 s under --nodes).
    #[arg(long, value_name = "MS")]
    engine_timeout: Option<u64>,
    /// Also accept the cheating yardstick `peek`, which sees the true board (docs/ENGINE.md,
    /// "Gauntlet"): for measuring how safely an agent plays, never a fair opponent.
    #[arg(long)]
    allow_cheating_agents: bool,
}

fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let bad = || format!("{text:?}: expected ELO0,ELO1 (e.g. 0,50)");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
    let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
    if !elo0.is_finite() || !elo1.is_finite() || elo0 == elo1 {
        return Err(format!("{text:?}: two different finite Elo values"));
    }
    Ok(Sprt::new(elo0, elo1))
}

fn budget(args: &MatchArgs) -> Budget {
    match (args.nodes, args.movetime) {
        (Some(n), _) => Budget::Nodes(n),
        (None, Some(ms)) => Budget::Time(Duration::from_millis(ms)),
        (None, None) => Budget::default(),
    }
}

fn budget_text(b: Budget) -> String {
    match b {
        Budget::Nodes(n) => format!("{n} nodes"),
        Budget::Time(t) => format!("{} ms", t.as_millis()),
    }
}

/// The run's budget (`--nodes`/`--movetime`, 100 ms by default) as `--json`'s `"budget"`: null
/// when every agent carries its own (`mcts@4000`, `mcts@level5`), so that it names no budget
/// nobody played under; each agent's own is in `"budgets"`.
fn run_budget_json(specs: &[&AgentSpec], run: Budget) -> Value {
    if specs.iter().all(|s| s.has_own_budget()) {
        Value::Null
    } else {
        json!(budget_text(run))
    }
}

/// Each agent's budget per decision, as `--json`'s `"budgets"` (in the agents' order).
fn budgets_json(specs: &[&AgentSpec], run: Budget) -> Value {
    json!(
        specs
            .iter()
            .map(|s| budget_text(s.budget(run)))
            .collect::<Vec<_>>()
    )
}

fn progress(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} games {msg} (eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn write_record(dir: &Path, prefix: &str, report: &GameReport) -> Result<(), String> {
    let path = dir.join(format!("{prefix}game-{:04}.json", report.index + 1));
    fs::write(&path, report.record.to_json_pretty()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `umpire match`.
pub fn run(args: MatchArgs) -> Result<(), String> {
    let specs = args
        .agents
        .iter()
        .map(|name| {
            // `mcts@level4`: the server's house level, as it seats it.
            if let Some(level) = umpire_server::game::strength::named_level(name) {
                return level;
            }
            if args.allow_cheating_agents {
                AgentSpec::parse_allowing_cheating(name)
            } else {
                name.parse::<AgentSpec>()
            }
            .map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !args.round_robin && specs.len() != 2 {
        return Err(format!(
            "a match is between two agents ({} given); use --round-robin for more",
            specs.len()
        ));
    }
    if args.round_robin && args.sprt.is_some() {
        return Err("--sprt applies to a match between two agents, not --round-robin".into());
    }
    if let Some(dir) = &args.out {
        fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    }
    let concurrency = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |k| usize::try_from(k).unwrap_or(1),
    );
    let secret = RunSecret::choose(args.seed, args.run_key)?;
    let cfg = MatchConfig {
        rules: args.rules,
        games: args.games,
        agent: AgentConfig {
            budget: budget(&args),
            ..AgentConfig::default()
        },
        concurrency,
        key: secret.key(),
        max_plies: args.max_plies,
        sprt: args.sprt,
        engine_timeout: args.engine_timeout.map(Duration::from_millis),
    };
    // Loaded (or, on a first run, built with a word of why) before the games; the runner's own
    // call is then instant.
    if cfg.rules == RuleSetId::Wild16 && specs.iter().any(AgentSpec::uses_tables) {
        crate::console::table_notice::prepare_with_notice("umpire match");
    }
    if args.round_robin {
        round_robin(&args, &specs, &cfg, secret)
    } else {
        two_agents(&args, &specs[0], &specs[1], &cfg, secret)
    }
}

fn two_agents(
    args: &MatchArgs,
    a: &AgentSpec,
    b: &AgentSpec,
    cfg: &MatchConfig,
    secret: RunSecret,
) -> Result<(), String> {
    let bar = progress(cfg.games);
    let mut write_error = None;
    let summary = run_match(a, b, cfg, |report| {
        if let Some(dir) = &args.out
            && let Err(e) = write_record(dir, "", report)
        {
            write_error.get_or_insert(e);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let summary = summary?;
    if let Some(e) = write_error {
        return Err(e);
    }
    for (game, fault) in &summary.faults {
        eprintln!("game {game}: engine failure: {fault}");
    }
    if args.json {
        let mut object = summary_json(&summary);
        if let Value::Object(map) = &mut object {
            map.insert("a".into(), json!(a.to_string()));
            map.insert("b".into(), json!(b.to_string()));
            map.insert("rules".into(), json!(cfg.rules.as_str()));
            map.insert("seed".into(), json!(secret.seed()));
            map.insert("run_key".into(), json!(cfg.key.to_hex()));
            map.insert("budget".into(), run_budget_json(&[a, b], cfg.agent.budget));
            map.insert("budgets".into(), budgets_json(&[a, b], cfg.agent.budget));
            map.insert(
                "sprt".into(),
                match cfg.sprt {
                    None => Value::Null,
                    Some(s) => json!({
                        "elo0": s.elo0,
                        "elo1": s.elo1,
                        "llr": s.llr(&summary.tally),
                        "bounds": [s.bounds().0, s.bounds().1],
                        "decision": summary.sprt.map(|d| d.as_str()),
                    }),
                },
            );
        }
        say!("{object}");
    } else {
        print_summary(a, b, cfg, secret, &summary);
    }
    if let Some(dir) = &args.out
        && !args.json
    {
        say!("records written to {}", dir.display());
    }
    Ok(())
}

fn interval_json(t: &Tally) -> (Value, Value, Value, Value) {
    let score = t.score().map_or(Value::Null, |s| json!(s));
    let score_interval = t
        .score_interval()
        .map_or(Value::Null, |(lo, hi)| json!([lo, hi]));
    let elo = t.elo().map_or(Value::Null, |e| json!(e));
    let elo_interval = t
        .elo_interval()
        .map_or(Value::Null, |(lo, hi)| json!([lo, hi]));
    (score, score_interval, elo, elo_interval)
}

fn summary_json(s: &MatchSummary) -> Value {
    let reasons: serde_json::Map<String, Value> = s
        .by_reason
        .iter()
        .map(|(reason, t)| {
            (
                (*reason).to_owned(),
                json!({"wins": t.wins, "draws": t.draws, "losses": t.losses}),
            )
        })
        .collect();
    let (score, score_interval, elo, elo_interval) = interval_json(&s.tally);
    json!({
        "games": s.tally.games(),
        "wins": s.tally.wins,
        "draws": s.tally.draws,
        "losses": s.tally.losses,
        "checkmates": s.checkmates,
        "reasons": reasons,
        "material_lost_per_game": s.material_lost_per_game(),
        "threefold_ahead": s.threefold_ahead,
        "score": score,
        "score_interval": score_interval,
        "elo": elo,
        "elo_interval": elo_interval,
        "mean_plies": s.mean_plies(),
        "mean_plies_to_mate": s.mean_plies_to_mate(),
        "decisions": s.decisions,
        "nodes_per_decision": s.nodes_per_decision(),
        "ms_per_decision": s.ms_per_decision(),
        "decision_ms": {
            "p50": s.times.map(|t| t.quantile_ms(0.5)),
            "p99": s.times.map(|t| t.quantile_ms(0.99)),
            "max": s.times.map(|t| t.max_ms()),
        },
        "decision_cpu_ms": {
            "p50": s.cpu_times.map(|t| t.quantile_ms(0.5)),
            "p99": s.cpu_times.map(|t| t.quantile_ms(0.99)),
            "max": s.cpu_times.map(|t| t.max_ms()),
        },
        "faults": s.faults.iter().map(|(g, e)| json!({"game": g, "error": e})).collect::<Vec<_>>(),
    })
}

fn signed(x: Option<f64>) -> String {
    // Rounded first, so that a tiny negative value prints as +0, not -0.
    x.map_or_else(|| "∞".to_owned(), |v| format!("{:+}", v.round() as i64))
}

fn print_summary(
    a: &AgentSpec,
    b: &AgentSpec,
    cfg: &MatchConfig,
    secret: RunSecret,
    s: &MatchSummary,
) {
    let t = &s.tally;
    let (budget_a, budget_b) = (a.budget(cfg.agent.budget), b.budget(cfg.agent.budget));
    let budgets = if budget_a == budget_b {
        budget_text(budget_a)
    } else {
        format!(
            "{a}: {}, {b}: {}",
            budget_text(budget_a),
            budget_text(budget_b)
        )
    };
    say!(
        "{a} vs {b}: {} games under {} ({budgets} per decision, {})",
        t.games(),
        cfg.rules,
        secret.describe()
    );
    say!(
        "{a}: {} wins ({} by checkmate), {} draws, {} losses",
        t.wins,
        s.checkmates,
        t.draws,
        t.losses
    );
    if let [Some(lost_a), Some(lost_b)] = s.material_lost_per_game() {
        say!(
            "material lost per game: {a} {lost_a:.2}, {b} {lost_b:.2}; threefold repetitions with {a} ahead in material: {}, with {b} ahead: {}",
            s.threefold_ahead[0],
            s.threefold_ahead[1]
        );
    }
    if let (Some(score), Some((lo, hi))) = (t.score(), t.score_interval()) {
        let (elo_lo, elo_hi) = t.elo_interval().unwrap_or((None, None));
        let elo = if t.elo_bounded() {
            format!(
                "Elo difference {} (95 %: {} to {})",
                signed(t.elo()),
                signed(elo_lo),
                signed(elo_hi)
            )
        } else {
            "Elo difference: too few games to bound it".to_owned()
        };
        say!("score {score:.3} (95 %: {lo:.3} to {hi:.3}), {elo}");
    }
    say!(
        "  {:<22} {:>6} {:>6} {:>6}",
        "termination",
        "wins",
        "draws",
        "losses"
    );
    for (reason, r) in &s.by_reason {
        say!(
            "  {reason:<22} {:>6} {:>6} {:>6}",
            r.wins,
            r.draws,
            r.losses
        );
    }
    if let Some(m) = s.mean_plies() {
        let mate = s.mean_plies_to_mate().map_or(String::new(), |p| {
            format!(", {p:.1} in the games {a} mated")
        });
        say!("mean plies {m:.1}{mate}");
    }
    let (nodes, ms) = (s.nodes_per_decision(), s.ms_per_decision());
    for (i, agent) in [a, b].into_iter().enumerate() {
        if let Some(ms) = ms[i] {
            let nodes = nodes[i].map_or(String::new(), |n| format!(", {n:.0} nodes"));
            let (t, c) = (&s.times[i], &s.cpu_times[i]);
            let q = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |v| format!("{v:.0}"));
            say!(
                "{agent}: {} decisions, {ms:.1} ms{nodes} per decision (p50 {} ms, p99 {} ms, max {} ms; CPU max {} ms)",
                s.decisions[i],
                q(t.quantile_ms(0.5)),
                q(t.quantile_ms(0.99)),
                q(t.max_ms()),
                q(c.max_ms())
            );
        }
    }
    if let (Some(sprt), Some(llr)) = (cfg.sprt, cfg.sprt.and_then(|x| x.llr(t))) {
        let (lo, hi) = sprt.bounds();
        let verdict = s.sprt.map_or("no decision", |d| d.as_str());
        say!(
            "SPRT Elo {} vs {}: LLR {llr:.3} (bounds {lo:.3}, {hi:.3}): {verdict}",
            sprt.elo0,
            sprt.elo1
        );
    }
}

fn round_robin(
    args: &MatchArgs,
    specs: &[AgentSpec],
    cfg: &MatchConfig,
    secret: RunSecret,
) -> Result<(), String> {
    let pairs = (specs.len() * (specs.len() - 1) / 2) as u64;
    let bar = progress(cfg.games * pairs);
    let mut write_error = None;
    let result = run_round_robin(specs, cfg, |i, j, report| {
        if let Some(dir) = &args.out
            && let Err(e) = write_record(dir, &format!("{}-{}-", i + 1, j + 1), report)
        {
            write_error.get_or_insert(e);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let rr = result?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if args.json {
        let pairings: Vec<Value> = rr
            .pairings
            .iter()
            .map(|(i, j, s)| {
                let mut o = summary_json(s);
                if let Value::Object(map) = &mut o {
                    let (a, b) = (&specs[*i], &specs[*j]);
                    map.insert("a".into(), json!(a.to_string()));
                    map.insert("b".into(), json!(b.to_string()));
                    map.insert("budgets".into(), budgets_json(&[a, b], cfg.agent.budget));
                }
                o
            })
            .collect();
        let table: Vec<Value> = rr
            .table
            .iter()
            .map(|st| {
                json!({"agent": st.agent, "rating": st.rating, "wins": st.tally.wins,
                       "draws": st.tally.draws, "losses": st.tally.losses,
                       "score": st.tally.score()})
            })
            .collect();
        let all: Vec<&AgentSpec> = specs.iter().collect();
        say!(
            "{}",
            json!({"rules": cfg.rules.as_str(), "seed": secret.seed(),
                   "run_key": cfg.key.to_hex(), "games_per_pairing": cfg.games,
                   "budget": run_budget_json(&all, cfg.agent.budget),
                   "budgets": budgets_json(&all, cfg.agent.budget),
                   "pairings": pairings, "table": table})
        );
        return Ok(());
    }
    let budget = if specs.iter().all(AgentSpec::has_own_budget) {
        "each agent's own budget".to_owned()
    } else if specs.iter().any(AgentSpec::has_own_budget) {
        format!("{} or the agent's own", budget_text(cfg.agent.budget))
    } else {
        budget_text(cfg.agent.budget)
    };
    say!(
        "round robin of {} agents under {}, {} games per pairing ({budget} per decision, {})",
        specs.len(),
        cfg.rules,
        cfg.games,
        secret.describe()
    );
    for (i, j, s) in &rr.pairings {
        say!(
            "  {} vs {}: +{} ={} -{}",
            specs[*i],
            specs[*j],
            s.tally.wins,
            s.tally.draws,
            s.tally.losses
        );
    }
    say!(
        "  {:<4} {:<40} {:>8} {:>6} {:>6} {:>6} {:>6}",
        "rank",
        "agent",
        "rating",
        "wins",
        "draws",
        "losses",
        "score"
    );
    for (rank, st) in rr.table.iter().enumerate() {
        say!(
            "  {:<4} {:<40} {:>+8.0} {:>6} {:>6} {:>6} {:>6.3}",
            rank + 1,
            st.agent,
            st.rating,
            st.tally.wins,
            st.tally.draws,
            st.tally.losses,
            st.tally.score().unwrap_or(0.0)
        );
    }
    say!(
        "ratings: Bradley–Terry maximum likelihood on the Elo scale, average 0, one virtual draw per pairing"
    );
    if let Some(dir) = &args.out {
        say!("records written to {}", dir.display());
    }
    Ok(())
}
