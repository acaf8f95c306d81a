//! `umpire engine`: a built-in agent served over the engine protocol on stdin/stdout.

use std::time::Duration;

use umpire_ai::engine::{ServeOptions, serve};
use umpire_ai::{AgentConfig, AgentKind, Budget};

/// `umpire engine` arguments.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// The built-in agent to serve.
    #[arg(long, default_value = "random")]
    agent: AgentKind,
    /// Think this many milliseconds per decision, whatever the requests say.
    #[arg(long, value_name = "MS", conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Search this many nodes per decision, whatever the requests say.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Use this seed, whatever the requests say.
    #[arg(long)]
    seed: Option<u64>,
}

/// Runs `umpire engine` until the end of its input.
pub fn run(args: EngineArgs) -> Result<(), String> {
    let budget = match (args.nodes, args.movetime) {
        (Some(n), _) => Some(Budget::Nodes(n)),
        (None, Some(ms)) => Some(Budget::Time(Duration::from_millis(ms))),
        (None, None) => None,
    };
    let options = ServeOptions {
        kind: args.agent,
        config: AgentConfig::default(),
        budget,
        seed: args.seed,
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    serve(options, stdin, stdout).map_err(|e| format!("engine: {e}"))
}
