//! `umpire belief`: what one player of a recorded game may believe about the hidden men.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use umpire_belief::history::sample_record;
use umpire_belief::{Belief, BeliefConfig, Marginals, Metaposition, SizeEstimate, heatmap_svg};
use umpire_rules::Observation;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, Square};

use crate::stdout::say;

/// The options of `umpire belief`.
pub struct BeliefArgs<'a> {
    /// The record.
    pub file: &'a Path,
    /// Whose belief.
    pub side: Color,
    /// Stop after this many moves (default: the whole record).
    pub ply: Option<u32>,
    /// Positions to sample for `--samples-out`.
    pub samples: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// The bound on the exact set.
    pub bound: usize,
    /// Print JSON.
    pub json: bool,
    /// Write the SVG heatmap here.
    pub svg: Option<&'a Path>,
    /// Write sampled hidden histories here (JSON lines of records).
    pub samples_out: Option<&'a Path>,
    /// Past this many seconds, start again with the sampling bound [`CAPPED_BOUND`].
    pub max_seconds: Option<f64>,
    /// Print one line per ply to standard error.
    pub progress: bool,
}

/// The bound of the restart when `--max-seconds` is passed.
pub const CAPPED_BOUND: usize = 20_000;

#[derive(Serialize)]
struct Summary<'a> {
    side: &'static str,
    /// Plies (moves of either side) taken in.
    plies: u32,
    exact: bool,
    /// The exact size, or the estimate rounded (see `size_estimate`).
    size: u64,
    /// "exact" or "estimate".
    size_kind: &'static str,
    size_estimate: SizeEstimate,
    /// Positions held (the exact set, or the sample).
    held: usize,
    /// The bound in force at the end (smaller than asked if the time cap restarted it).
    bound: usize,
    /// Why the set is sampled, when it is: "bound" or "time cap".
    sampled_because: Option<&'static str>,
    millis: f64,
    marginals: serde_json::Value,
    metaposition: Option<&'a Metaposition>,
}

/// The observations of `side` up to and including the `ply`-th move, and the number of record
/// entries they cover.
fn cut(
    record: &Record,
    side: Color,
    ply: Option<u32>,
) -> Result<(Vec<Observation>, usize, u32), String> {
    let total = record.plies() as u32;
    let want = ply.unwrap_or(total);
    if want > total {
        return Err(format!(
            "the game has only {total} plies; --ply {want} is beyond it"
        ));
    }
    let mut observations = Vec::new();
    let mut moves = 0;
    let mut entries = 0;
    for entry in &record.entries {
        if moves == want && ply.is_some() {
            break;
        }
        entries += 1;
        let outcome = entry.outcome();
        if let Some(obs) = outcome.observation(entry.command, side) {
            observations.push(obs);
        }
        if outcome.is_accepted() {
            moves += 1;
        }
    }
    Ok((observations, entries, moves))
}

/// Runs `umpire belief`.
pub fn run(args: &BeliefArgs<'_>) -> Result<(), String> {
    let text =
        fs::read_to_string(args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    if text.contains(umpire_rules::record::PLAYER_VIEW_FORMAT) || text.contains("[KriegspielView ")
    {
        return Err(format!(
            "{}: a player's view, not a referee record: `umpire belief` reads referee records \
             (JSON or PGN) only; reading a player's own view is not implemented yet",
            args.file.display()
        ));
    }
    let record = crate::record_cmd::load(args.file)?;
    record
        .replay()
        .map_err(|e| format!("{}: {e}", args.file.display()))?;
    let fen: Fen = record
        .fen
        .parse()
        .map_err(|e| format!("{}: start position: {e}", args.file.display()))?;
    let start: Chess = fen
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("{}: start position: {e}", args.file.display()))?;
    let (observations, _, moves) = cut(&record, args.side, args.ply)?;
    let rules = *record.rules.rules();
    let clock = Instant::now();
    let (belief, capped) = follow(rules, &start, &observations, args, clock)?;
    let millis = clock.elapsed().as_secs_f64() * 1e3;
    let marginals = Marginals::of(&belief);
    let meta = Metaposition::of(&belief);
    if let Some(path) = args.svg {
        let own = belief.position(0);
        fs::write(path, heatmap_svg(&marginals, args.side, own))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = args.samples_out {
        write_samples(&belief, &record, args, path)?;
    }
    let side = if args.side == Color::White {
        "white"
    } else {
        "black"
    };
    let estimate = belief.size_estimate();
    let bound = if capped { CAPPED_BOUND } else { args.bound };
    let sampled_because = match (belief.is_exact(), capped) {
        (true, _) => None,
        (false, true) => Some("time cap"),
        (false, false) => Some("bound"),
    };
    if args.json {
        let summary = Summary {
            side,
            plies: moves,
            exact: belief.is_exact(),
            size: belief.size(),
            size_kind: if estimate.exact { "exact" } else { "estimate" },
            size_estimate: estimate,
            held: belief.held(),
            bound,
            sampled_because,
            millis,
            marginals: serde_json::from_str(&marginals.to_json()).map_err(|e| e.to_string())?,
            metaposition: meta.as_ref(),
        };
        say!(
            "{}",
            serde_json::to_string(&summary).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    say!("{side}'s belief after {moves} plies ({} rules)", rules.id);
    if estimate.exact {
        say!("exact: yes, {} positions", belief.size());
    } else {
        let why = if capped {
            format!(
                "the time cap of --max-seconds was reached: restarted with a sample of at most {CAPPED_BOUND}"
            )
        } else {
            format!("more than the bound of {bound} positions")
        };
        say!("exact: no ({why})");
        say!(
            "size: about {:.3e} positions (estimate: sampling noise {:.0}%, and it errs high, \
             see docs/BELIEF.md; at least {} certain; last exact: {} positions after {} plies)",
            estimate.value,
            estimate.relative_error * 100.0,
            estimate.lower_bound,
            estimate.last_exact,
            estimate.last_exact_plies
        );
        say!("sample: {} positions held", belief.held());
    }
    say!("time: {millis:.1} ms");
    say!("square  pawn knight bishop rook queen king  (probability of each enemy man, %)");
    for sq in Square::ALL {
        if marginals.occupied(sq) > 0.0 {
            let p = &marginals.p[usize::from(sq)];
            say!(
                "{sq:<6} {:5.1} {:6.1} {:6.1} {:4.1} {:5.1} {:4.1}",
                p[0] * 100.0,
                p[1] * 100.0,
                p[2] * 100.0,
                p[3] * 100.0,
                p[4] * 100.0,
                p[5] * 100.0
            );
        }
    }
    Ok(())
}

/// Feeds the observations to a belief; past `--max-seconds`, starts again with a sample of at
/// most [`CAPPED_BOUND`] (returns whether it did).
fn follow(
    rules: umpire_rules::RuleSet,
    start: &Chess,
    observations: &[Observation],
    args: &BeliefArgs<'_>,
    clock: Instant,
) -> Result<(Belief, bool), String> {
    let config = BeliefConfig {
        bound: args.bound,
        particles: None,
        seed: args.seed,
        threads: umpire_belief::DEFAULT_THREADS,
        parallel_from: umpire_belief::PARALLEL_FROM,
        repair_budget: umpire_belief::REPAIR_BUDGET,
    };
    let mut belief =
        Belief::new(rules, start.clone(), args.side, config).map_err(|e| e.to_string())?;
    let mut capped = false;
    let mut k = 0;
    while k < observations.len() {
        belief
            .observe(&observations[k])
            .map_err(|e| e.to_string())?;
        k += 1;
        let elapsed = clock.elapsed().as_secs_f64();
        if args.progress && observations[k - 1].moved {
            let e = belief.size_estimate();
            eprintln!(
                "ply {}: {} {:.0} positions, {:.1} s",
                belief.plies(),
                if e.exact { "exactly" } else { "about" },
                e.value,
                elapsed
            );
        }
        if !capped
            && args.bound > CAPPED_BOUND
            && args.max_seconds.is_some_and(|cap| elapsed > cap)
            && k < observations.len()
        {
            capped = true;
            if args.progress {
                eprintln!(
                    "time cap reached: starting again with a sample of at most {CAPPED_BOUND}"
                );
            }
            let config = BeliefConfig {
                bound: CAPPED_BOUND,
                particles: None,
                seed: args.seed,
                threads: umpire_belief::DEFAULT_THREADS,
                parallel_from: umpire_belief::PARALLEL_FROM,
                repair_budget: umpire_belief::REPAIR_BUDGET,
            };
            belief =
                Belief::new(rules, start.clone(), args.side, config).map_err(|e| e.to_string())?;
            k = 0;
        }
    }
    Ok((belief, capped))
}

/// Writes `--samples` hidden histories, one JSON record a line.
fn write_samples(
    belief: &Belief,
    record: &Record,
    args: &BeliefArgs<'_>,
    path: &Path,
) -> Result<(), String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    let picks = belief.sample_indices(args.samples, &mut rng);
    let mut out = String::new();
    for i in picks {
        let sample = sample_record(belief, i, &umpire_rules::record::public_tags(&record.tags))
            .map_err(|e| e.to_string())?;
        out.push_str(&sample.to_json());
        out.push('\n');
    }
    let mut file = fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(out.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The default bound, for the help text.
pub const DEFAULT_BOUND: u64 = umpire_belief::DEFAULT_BOUND as u64;
