//! `umpire bot` and `umpire loadtest` (and the spectator display of `umpire connect`):
//! clients of a running `umpire serve`.

use serde_json::Value;
use umpire_ai::AgentSpec;
use umpire_client::client::Client;

fn runtime() -> Result<tokio::runtime::Runtime, String> {
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
    /// The agent: any built-in agent's name, or `cmd:PROGRAM ARGS` for an engine-protocol
    /// program (docs/ENGINE.md).
    #[arg(long, default_value = "guided-random")]
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
    if let Some(p) = crate::connect::hidden_password(owner)? {
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
    let source = crate::bot_token::TokenSource {
        token: args.token.clone(),
        token_file: args.token_file.clone(),
        register: args.register.clone(),
        owner: args.owner.clone(),
    };
    let runtime = runtime()?;
    let token = match (&source.register, &source.owner) {
        (Some(name), Some(owner)) => {
            let path = crate::bot_token::check_token_file(&source, name)?;
            let password = owner_password(owner)?;
            runtime.block_on(crate::bot_token::register(
                &args.server,
                name,
                owner,
                &password,
                &path,
            ))?
        }
        _ => crate::bot_token::given_token(&source)?.ok_or_else(|| {
            format!(
                "umpire bot needs the bot's API token: --token T, the environment variable {}, \
                 --token-file FILE, or --register NAME --owner ACCOUNT to make a bot account",
                crate::bot_token::TOKEN_ENV
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
        println!(
            "{id} {} {}",
            result["score"].as_str().unwrap_or("*"),
            result["reason"].as_str().unwrap_or("unfinished")
        );
    }))?;
    Ok(())
}

/// Arguments of `umpire loadtest`.
#[derive(clap::Args)]
pub struct LoadtestArgs {
    /// The server, as http://HOST:PORT.
    #[arg(long)]
    server: String,
    /// Concurrent games.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Seconds of play, counted once every game is created.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Commands per second over all games, spread evenly (each game sends one every
    /// games/rate seconds); without it every agent sends as fast as the server answers.
    #[arg(long)]
    rate: Option<f64>,
    /// Seed of the agents.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `umpire loadtest`; prints the figures even if the server fails under it.
pub fn loadtest(args: LoadtestArgs) -> Result<(), String> {
    Client::new(&args.server)?;
    let report = runtime()?.block_on(umpire_client::load::run_plan(
        &umpire_client::load::LoadPlan {
            url: args.server.clone(),
            games: args.games,
            seconds: args.seconds,
            rate: args.rate,
            seed: args.seed,
        },
    ));
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
    } else {
        println!(
            "games {} for {} s (set-up {:.1} s, rate {}): games_started {} games_finished {} attempts {} acknowledged {} ({:.0}/s) p50_ms {:.2} p99_ms {:.2} max_ms {:.2} errors {} lost {} in_flight {}",
            report.games,
            report.seconds,
            report.setup_seconds,
            report
                .rate
                .map_or("unpaced".to_owned(), |r| format!("{r}/s")),
            report.games_started,
            report.games_finished,
            report.attempts,
            report.acknowledged,
            report.attempts_per_second,
            report.p50_ms,
            report.p99_ms,
            report.max_ms,
            report.errors,
            report.lost,
            report.in_flight
        );
    }
    Ok(())
}

/// Prints a frame in plain words (a spectator's view in `umpire connect`).
pub(crate) fn show(frame: &Value) {
    let heard = |o: &Value| -> String {
        o["heard"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|h| h["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_default()
    };
    match frame["type"].as_str().unwrap_or_default() {
        "state" => {
            println!(
                "game {} ({}): white {} v black {}; you are {}; status {}",
                frame["game"].as_str().unwrap_or_default(),
                frame["rules"].as_str().unwrap_or_default(),
                frame["players"]["white"].as_str().unwrap_or_default(),
                frame["players"]["black"].as_str().unwrap_or_default(),
                frame["you"].as_str().unwrap_or_default(),
                frame["status"].as_str().unwrap_or_default()
            );
            for o in frame["transcript"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                println!("  {} {}", o["actor"].as_str().unwrap_or_default(), heard(o));
            }
        }
        "update" => {
            let o = &frame["observation"];
            let own = o["own"]["command"]
                .as_str()
                .map(|c| format!("{c}: {} ", o["own"]["verdict"].as_str().unwrap_or_default()))
                .unwrap_or_default();
            let moved = if o["moved"] == true { "(moved) " } else { "" };
            println!(
                "{} {own}{moved}{}",
                o["actor"].as_str().unwrap_or_default(),
                heard(o)
            );
        }
        "chat" => println!(
            "MSG from {}: {}",
            frame["from"].as_str().unwrap_or_default(),
            frame["text"].as_str().unwrap_or_default()
        ),
        "relist" => {
            let men: Vec<String> = frame["men"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|m| {
                    format!(
                        "{} {}",
                        m["man"].as_str().unwrap_or_default(),
                        m["square"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            println!("your men: {}", men.join(", "));
        }
        "error" => println!(
            "refused ({}): {}",
            frame["code"].as_str().unwrap_or_default(),
            frame["message"].as_str().unwrap_or_default()
        ),
        "game_over" => {}
        _ => println!("{frame}"),
    }
    if let Some(r) = frame["result"].as_object() {
        println!(
            "game over: {} by {}",
            r.get("score").and_then(Value::as_str).unwrap_or_default(),
            r.get("reason").and_then(Value::as_str).unwrap_or_default()
        );
    } else if (frame["type"] == "update" || frame["type"] == "state")
        && frame["to_move"] == frame["you"]
    {
        let n = frame["options"].as_array().map_or(0, Vec::len);
        println!(
            "your move ({n} attempts possible; clocks white {} s, black {} s)",
            frame["clocks"]["white_ms"].as_i64().unwrap_or(0) / 1000,
            frame["clocks"]["black_ms"].as_i64().unwrap_or(0) / 1000
        );
    }
}
