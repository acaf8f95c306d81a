//! `umpire bot`: a built-in agent (or an engine program) plays server games as a remote bot,
//! through `umpire_client::bot`.

use umpire_ai::AgentSpec;
use umpire_client::client::Client;

use super::bot_token::{self, TokenSource};
use crate::console::password::hidden_password;
use crate::console::stdout::say;

/// The runtime of the server commands (`umpire bot`, `umpire loadtest`).
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

/// Arguments of `umpire bot`.
#[derive(clap::Args)]
pub struct BotArgs {
    /// The server, as http://HOST:PORT.
    #[arg(long)]
    server: String,
    /// The bot's API token (else the environment variable UMPIRE_BOT_TOKEN, else
    /// --token-file).
    #[arg(long, conflicts_with = "register")]
    token: Option<String>,
    /// A file holding the bot's API token; with --register, the new file the token is saved
    /// in (default umpire-bot-NAME.token; never overwritten; readable by its owner only).
    #[arg(long, value_name = "FILE")]
    token_file: Option<std::path::PathBuf>,
    /// Register a new bot account of this name first (owned by --owner), print its token
    /// once and save it in --token-file; then play.
    #[arg(long, value_name = "NAME", requires = "owner")]
    register: Option<String>,
    /// With --register: the registered account that owns the bot. Its password is asked for
    /// without echo at a terminal, or read from the first line of stdin; it is never printed.
    #[arg(long, value_name = "ACCOUNT", requires = "register")]
    owner: Option<String>,
    // The help lists the built-in agents.
    #[arg(long, value_name = "NAME", default_value = "guided-random", help = crate::commands::agent_help::agent_help(
        "The agent, a built-in one:",
        "or cmd:PROGRAM ARGS, an engine-protocol program (docs/ENGINE.md)."))]
    agent: AgentSpec,
    /// Games to play before exiting.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Games played at once: challenges taken (or games created) while others are in play.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..))]
    parallel: u16,
    /// Create each game (under this rule set) and wait for an opponent, instead of taking
    /// challenges from the lobby feed (those addressed to the bot first, then open ones).
    #[arg(long, value_name = "RULES")]
    create: Option<String>,
    /// With --create: make the games rated (bot accounts are rated like players).
    #[arg(long, requires = "create")]
    rated: bool,
    /// Seed of the agent.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The owner's password for `--register`: typed without echo at a terminal, else the first
/// line of stdin.
fn owner_password(owner: &str) -> Result<String, String> {
    if let Some(p) = hidden_password(owner)? {
        return Ok(p);
    }
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password of {owner} from stdin: {e}"))?;
    let password = line.trim_end_matches(['\r', '\n']);
    if password.is_empty() {
        return Err(format!(
            "--owner {owner}: give the password on the first line of stdin"
        ));
    }
    Ok(password.to_owned())
}

/// Runs `umpire bot`: prints one line per game as it ends: id, score, reason.
pub fn bot(args: BotArgs) -> Result<(), String> {
    Client::new(&args.server)?;
    let source = TokenSource {
        token: args.token.clone(),
        token_file: args.token_file.clone(),
        register: args.register.clone(),
        owner: args.owner.clone(),
    };
    let runtime = runtime()?;
    let token = match (&source.register, &source.owner) {
        (Some(name), Some(owner)) => {
            let path = bot_token::check_token_file(&source, name)?;
            let password = owner_password(owner)?;
            runtime.block_on(bot_token::register(
                &args.server,
                name,
                owner,
                &password,
                &path,
            ))?
        }
        _ => bot_token::given_token(&source)?.ok_or_else(|| {
            format!(
                "umpire bot needs the bot's API token: --token T, the environment variable {}, \
                 --token-file FILE, or --register NAME --owner ACCOUNT to make a bot account",
                bot_token::TOKEN_ENV
            )
        })?,
    };
    let client = Client::new(&args.server)?.with_token(&token);
    let plan = umpire_client::bot::BotPlan {
        agent: args.agent,
        games: args.games,
        parallel: usize::from(args.parallel),
        create: args.create,
        rated: args.rated,
        seed: args.seed,
    };
    runtime.block_on(umpire_client::bot::run_bot(&client, &plan, |id, result| {
        say!(
            "{id} {} {}",
            result["score"].as_str().unwrap_or("*"),
            result["reason"].as_str().unwrap_or("unfinished")
        );
    }))?;
    Ok(())
}
