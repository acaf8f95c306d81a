//! `umpire engine`: a built-in agent served over the engine protocol on stdin/stdout.

use std::time::Duration;

use umpire_ai::engine::{ServeOptions, serve};
use umpire_ai::{AgentConfig, AgentSpec, Budget};

/// `umpire engine` arguments.
#[derive(clap::Args)]
pub struct EngineArgs {
    // The help lists the built-in agents.
    #[arg(long, value_name = "NAME", default_value = "random", help = crate::commands::agent_help::agent_help(
        "The built-in agent to serve:",
        "optionally with its own budget (`mcts@4000`: 4,000 nodes per decision; `mcts@500ms`: \
         500 ms), which then replaces --movetime/--nodes."))]
    agent: AgentSpec,
    /// Think this many milliseconds per decision, whatever the requests say.
    #[arg(long, value_name = "MS", conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Search this many nodes per decision, whatever the requests say.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Use this seed, whatever the requests say.
    #[arg(long)]
    seed: Option<u64>,
    /// When an agent that plays the endgame tables (mcts, darkboard, raider) loads them:
    /// `eager` at start on a thread of their own, so that no decision pays for a load; `lazy`
    /// at the first decision that needs each. Default: $UMPIRE_TABLES, else eager.
    #[arg(long, value_name = "eager|lazy")]
    tables: Option<umpire_ai::endgame::TableLoading>,
}

/// Runs `umpire engine` until the end of its input.
pub fn run(args: EngineArgs) -> Result<(), String> {
    let flag_budget = match (args.nodes, args.movetime) {
        (Some(n), _) => Some(Budget::Nodes(n)),
        (None, Some(ms)) => Some(Budget::Time(Duration::from_millis(ms))),
        (None, None) => None,
    };
    let (kind, budget) = match args.agent {
        AgentSpec::Builtin(kind) => (kind, flag_budget),
        AgentSpec::Budgeted(kind, own) => {
            if flag_budget.is_some() {
                return Err(format!(
                    "engine: --agent {} carries its own budget; drop --movetime/--nodes or the @ part",
                    args.agent
                ));
            }
            (kind, Some(own))
        }
        AgentSpec::Tuned(..) => {
            return Err(format!(
                "engine: --agent {} tunes its belief; `umpire engine` serves an agent with a budget only",
                args.agent
            ));
        }
        AgentSpec::Command(_) => {
            return Err(format!(
                "engine: --agent {} is an outside program; `umpire engine` serves built-in agents only",
                args.agent
            ));
        }
    };
    let tables = umpire_ai::endgame::TableLoading::from_option_or_env(args.tables)
        .map_err(|e| format!("engine: {e}"))?;
    if kind.uses_tables() {
        // Loaded while the engine waits for its first request; a decision that needs a
        // table before it is in waits for it (the same moves either way).
        let _ = tables.start(umpire_ai::endgame::EndgameConfig::default());
    }
    let options = ServeOptions {
        kind,
        config: AgentConfig::default(),
        budget,
        seed: args.seed,
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    serve(options, stdin, stdout).map_err(|e| format!("engine: {e}"))
}
