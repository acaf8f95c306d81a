//! `umpire loadtest`: concurrent games of remote random agents against a running server, and
//! the figures (latency, throughput, errors) of `umpire_client::load`.

use umpire_client::client::Client;

use super::bot::runtime;
use crate::console::stdout::say;

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

/// Runs `umpire loadtest`; prints the figures even if the server fails under it. The load
/// generator holds two sockets a game, as the server does: it lifts its own open-files limit
/// to the hard one first, and says on stderr when even that leaves too few for the games
/// asked (the server would then be measured against a client that cannot open its sockets).
pub fn loadtest(args: LoadtestArgs) -> Result<(), String> {
    Client::new(&args.server)?;
    if let Ok(limit) = umpire_server::http::descriptors::raise_limit()
        && limit.games() < args.games as u64
    {
        eprintln!(
            "umpire loadtest: {} games need about {} descriptors here, and this process may \
             open {} (ulimit -n): run several load generators, each with part of the games",
            args.games,
            args.games as u64 * 2 + umpire_server::http::descriptors::RESERVED,
            limit.soft
        );
    }
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
        say!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
    } else {
        say!(
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
