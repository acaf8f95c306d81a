//! The `umpire` command: a thin layer over the Umpire libraries.

mod commands;
mod console;
mod lobby_screen;
mod play_screen;
mod presence_line;
mod spectator_screen;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use umpire_ai::AgentSpec;
use umpire_rules::RuleSetId;

use commands::game::{connect, play, referee, schroedinger};
use commands::research::{
    audit, belief, bench, engine_cmd, match_cmd, record_cmd, run_secret, selfplay, tablebase,
};
use commands::server::{bot, loadtest, serve};
use console::side::Side;
use console::stdout::say_raw;

/// Umpire: a Kriegspiel referee. Kriegspiel is chess in which you never see your opponent's
/// men; the umpire, who sees everything, accepts or rejects each attempted move and announces
/// captures, checks and pawn tries.
#[derive(Parser)]
#[command(
    name = "umpire",
    version,
    about = "Umpire: a Kriegspiel referee. Kriegspiel is chess in which you never see your opponent's men; \
             the umpire, who sees everything, accepts or rejects each attempted move and announces captures, \
             checks and pawn tries.",
    after_help = "Start with `umpire play` to play a game in this terminal against a built-in opponent,\n\
                  or `umpire serve` to run a server to play on with others (then open its address in a\n\
                  browser, or `umpire connect URL`). `umpire rules` shows the rule sets."
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the Kriegspiel server: accounts and guests, lobby, live games over WebSocket,
    /// built-in agents, games stored as records (docs/SERVER.md, docs/PROTOCOL.md).
    Serve(serve::ServeArgs),
    /// Play server games with a built-in agent as a remote bot (its API token from --token,
    /// UMPIRE_BOT_TOKEN or --token-file, or a bot account made with --register NAME --owner
    /// ACCOUNT).
    Bot(bot::BotArgs),
    /// Play a server game from this terminal with the display and commands of `umpire play`,
    /// plus MSG and RELIST; reconnects and resumes (docs/SERVER.md).
    Connect(connect::ConnectArgs),
    /// Drive N concurrent games of remote random agents against a server and report figures.
    Loadtest(loadtest::LoadtestArgs),
    /// The umpire operator's console (it shows both sides' moves: not for the players' eyes):
    /// read one command per line from stdin for the side to move (a move in SAN like Nf3 or
    /// UCI like e2e4, or: any, draw, accept, decline, resign, status, help) and answer each
    /// line. Lines over 4096 bytes are refused.
    Referee {
        /// Rule set: wild16 (default), berkeley, berkeley-any, cincinnati, english, rand, umpire1965.
        #[arg(long, default_value = "wild16")]
        rules: RuleSetId,
        /// Start from this position (FEN) instead of the standard start.
        #[arg(long)]
        fen: Option<String>,
        /// Answer each line with exactly one JSON object (schema: docs/JSON.md). The extra
        /// command `status` answers with the side to move and, before the first move, the
        /// opening announcements of a set-up position.
        #[arg(long)]
        json: bool,
        /// Keep the game here, rewritten after every command (JSON record, or PGN if the name
        /// ends in .pgn); checked before anything is read.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Play random games (each side picks uniformly among the attempts it could still make on
    /// its own board, rejected attempts included) and write them as records.
    Selfplay {
        /// Rule set: wild16 (default), berkeley, berkeley-any, cincinnati, english, rand, umpire1965.
        #[arg(long, default_value = "wild16")]
        rules: RuleSetId,
        /// Number of games.
        #[arg(long, default_value_t = 10)]
        games: u64,
        /// Make the run reproducible: the same seed plays the same games. Every player's seed
        /// is derived from it, so anyone who knows or guesses it (an engine program included)
        /// can compute them all. Default: a secret run key drawn from the system, printed at
        /// the end.
        #[arg(long)]
        seed: Option<u64>,
        /// Replay a run from the key it printed (64 hexadecimal digits).
        #[arg(long, value_name = "HEX", conflicts_with = "seed")]
        run_key: Option<umpire_ai::tournament::RunKey>,
        /// Start every game from this position (FEN).
        #[arg(long)]
        fen: Option<String>,
        /// Stop a game unfinished after this many moves (plies).
        #[arg(long, default_value_t = 2000)]
        max_plies: u32,
        /// Write game-0001.json (lossless record) and game-0001.pgn (referee's PGN) here.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// With --out, also write each player's filtered view (game-0001.white.pgn, .white.json, …).
        #[arg(long)]
        player_views: bool,
        // The help lists the built-in agents.
        #[arg(long, value_name = "NAME", default_value = "random", help = commands::agent_help::agent_help(
            "Who plays both sides, a built-in agent:",
            "or cmd:PROGRAM ARGS, an engine-protocol program (docs/ENGINE.md)."))]
        agent: AgentSpec,
    },
    /// Play games between two agents (built-in or `cmd:PROGRAM`), several at once: W/D/L by
    /// termination, score and Elo difference with 95 % intervals, optional SPRT, records;
    /// or a round robin with a ratings table.
    Match(match_cmd::MatchArgs),
    /// Serve a built-in agent over the engine protocol (JSON lines on stdin/stdout,
    /// docs/ENGINE.md), for `umpire match cmd:…` or any other program.
    Engine(engine_cmd::EngineArgs),
    /// Print the rule sets and how they differ: one block per rule set, 80 columns wide.
    Rules {
        /// One Markdown table instead (a row per rule set, about 230 columns).
        #[arg(long)]
        wide: bool,
    },
    /// Check or convert game records (JSON or Kriegspiel PGN).
    Record {
        #[command(subcommand)]
        action: RecordAction,
    },
    /// Play a game of Kriegspiel at the terminal against a built-in opponent: you see only
    /// your own men and what the umpire tells you. The record is kept up to date as you play.
    Play(play::PlayOptions),
    /// Measure single-thread random-playout throughput (games/s, attempts/s) per rule set.
    Bench(bench::BenchOptions),
    /// Audit the guided action space: play games and check, before every decision, which
    /// moves legal in the true position each filter would hide.
    Audit {
        #[command(subcommand)]
        what: audit::AuditWhat,
    },
    /// Kriegspiel endgame tables: build one, or probe one for the distance to mate and the best
    /// attempts.
    Tablebase {
        #[command(subcommand)]
        action: tablebase::TablebaseAction,
    },
    /// What one player of a recorded game may believe: the positions of the enemy men it
    /// cannot rule out (exact while at most --bound, sampled beyond), how long that took, and
    /// per square the probability of each enemy man.
    Belief {
        /// A JSON record or a referee PGN.
        file: PathBuf,
        /// Whose belief.
        #[arg(long, value_enum)]
        side: Side,
        /// After this many plies (moves of either side; default: the whole record).
        #[arg(long)]
        ply: Option<u32>,
        /// How many positions to draw uniformly from those held. With --samples-out: the hidden
        /// histories written there (default 10). Without it: the positions themselves, as FEN
        /// lines after the summary (with --json a "samples" array of FEN strings); none are
        /// drawn when --samples is not given.
        #[arg(long)]
        samples: Option<usize>,
        /// Seed of every random choice (sampling beyond the bound, the samples written).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Most positions kept exactly; beyond, a uniform sample of at most --particles.
        #[arg(long, default_value_t = belief::DEFAULT_BOUND, value_parser = clap::value_parser!(u64).range(1..))]
        bound: u64,
        /// Print one JSON object (exactness, size, time, marginals, metaposition).
        #[arg(long)]
        json: bool,
        /// Write an SVG heatmap of the marginals here.
        #[arg(long, value_name = "OUT")]
        svg: Option<PathBuf>,
        /// Write sampled hidden histories here: JSON lines, each a whole game record (up to
        /// --ply) whose view for --side is the real game's.
        #[arg(long, value_name = "FILE")]
        samples_out: Option<PathBuf>,
        /// Past this many seconds (checked after each observation), start again with a sample
        /// of at most 20,000 positions, and say so.
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
        max_seconds: Option<f64>,
        /// One line per ply on standard error: the size so far and the time taken.
        #[arg(long)]
        progress: bool,
        /// Once the set is sampled, keep at most this many positions (default: the smaller of
        /// 10,000 and --bound; more is slower and closer to uniform, see docs/BELIEF.md).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        particles: Option<u64>,
        /// Threads one update may use.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
        /// Print the belief after every ply (up to --ply), one line each as it is computed
        /// (with --json one JSON object a line); not with --svg, --samples-out or --max-seconds.
        #[arg(long, conflicts_with_all = ["svg", "samples_out", "max_seconds"])]
        all_plies: bool,
        /// Expand each opponent turn blind, without looking ahead to the side's next commands
        /// in the record (the answer then equals the --all-plies line of that ply; see
        /// docs/BELIEF.md, "Lookahead").
        #[arg(long)]
        no_lookahead: bool,
    },
    /// Haft Schrödinger chess: the back-rank men's natures are unknown and a move is legal
    /// when some assignment of natures makes the whole game legal (decided by SAT solving).
    Schroedinger {
        #[command(subcommand)]
        action: schroedinger::SchroedingerAction,
    },
}

#[derive(Subcommand)]
enum RecordAction {
    /// Replay a record and check that every announcement in it is what the umpire says.
    Verify {
        /// A JSON record or a referee PGN (a Haft Schrödinger JSON record is recognised too).
        file: PathBuf,
    },
    /// Print a record in another format (after checking it by replay).
    Convert {
        /// A JSON record or a referee PGN.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "pgn")]
        to: record_cmd::Format,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Referee {
            rules,
            fen,
            json,
            record,
        } => referee::run(*rules.rules(), fen.as_deref(), json, record.as_deref()),
        Cmd::Selfplay {
            rules,
            games,
            seed,
            run_key,
            fen,
            max_plies,
            out,
            player_views,
            agent,
        } => match run_secret::RunSecret::choose(seed, run_key) {
            Err(e) => Err(e),
            Ok(secret) => selfplay::run(&selfplay::SelfplayArgs {
                rules,
                games,
                secret,
                fen: fen.as_deref(),
                max_plies,
                out: out.as_deref(),
                player_views,
                agent,
            }),
        },
        Cmd::Play(options) => play::play(options),
        Cmd::Rules { wide } => {
            if wide {
                say_raw!("{}", umpire_rules::rule_table::markdown_table());
            } else {
                say_raw!("{}", umpire_rules::rule_table::text_blocks());
            }
            Ok(())
        }
        Cmd::Record {
            action: RecordAction::Verify { file },
        } => record_cmd::verify(&file),
        Cmd::Record {
            action: RecordAction::Convert { file, to },
        } => record_cmd::convert(&file, to),
        Cmd::Bench(options) => bench::bench(options),
        Cmd::Belief {
            file,
            side,
            ply,
            samples,
            seed,
            bound,
            json,
            svg,
            samples_out,
            max_seconds,
            progress,
            particles,
            threads,
            all_plies,
            no_lookahead,
        } => belief::run(&belief::BeliefArgs {
            file: &file,
            side: side.into(),
            ply,
            samples: samples.unwrap_or(belief::DEFAULT_SAMPLES),
            print_samples: samples.is_some() && samples_out.is_none(),
            seed,
            bound: usize::try_from(bound).unwrap_or(usize::MAX),
            json,
            svg: svg.as_deref(),
            samples_out: samples_out.as_deref(),
            max_seconds,
            progress,
            particles: particles.map(|p| usize::try_from(p).unwrap_or(usize::MAX)),
            threads: usize::try_from(threads).unwrap_or(1),
            all_plies,
            lookahead: !no_lookahead,
        }),
        Cmd::Match(args) => match_cmd::run(args),
        Cmd::Engine(args) => engine_cmd::run(args),
        Cmd::Serve(args) => serve::run(args),
        Cmd::Bot(args) => bot::bot(args),
        Cmd::Connect(args) => connect::connect(args),
        Cmd::Loadtest(args) => loadtest::loadtest(args),
        Cmd::Audit { what } => audit::run(what),
        Cmd::Tablebase { action } => tablebase::run(action),
        Cmd::Schroedinger { action } => schroedinger::run(action),
    };
    exit(result)
}

fn exit(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("umpire: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A time limit in seconds: a finite number above zero.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds above zero")),
    }
}
