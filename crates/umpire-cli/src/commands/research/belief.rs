//! `umpire belief`: what one player of a recorded game may believe about the hidden men.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use umpire_belief::history::sample_record;
use umpire_belief::review::PlyStream;
use umpire_belief::{Belief, BeliefConfig, Marginals, Metaposition, SizeEstimate, heatmap_svg};
use umpire_rules::Observation;
use umpire_rules::record::Record;
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Square};

use crate::console::stdout::say;

/// The options of `umpire belief`.
pub struct BeliefArgs<'a> {
    /// The record.
    pub file: &'a Path,
    /// Whose belief.
    pub side: Color,
    /// Stop after this many moves (default: the whole record).
    pub ply: Option<u32>,
    /// Positions to sample: hidden histories for `--samples-out`, else FEN lines printed.
    pub samples: usize,
    /// Print `samples` positions drawn from the belief (as FEN) with the summary: `--samples`
    /// without `--samples-out`.
    pub print_samples: bool,
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
    /// Positions kept once the set is sampled (`None`: the smaller of
    /// [`umpire_belief::FAST_PARTICLES`] and the bound).
    pub particles: Option<usize>,
    /// Threads one update may use.
    pub threads: usize,
    /// Print the belief after every ply up to `ply`, one line each, as it is computed.
    pub all_plies: bool,
    /// Expand opponent turns with a lookahead to the side's next commands, known from the
    /// record up to `ply` ([`Belief::observe_known`]); not with `all_plies`.
    pub lookahead: bool,
}

impl BeliefArgs<'_> {
    /// The particles asked for, or the default: the smaller of the fast path's and the bound.
    fn particles(&self, bound: usize) -> usize {
        self.particles
            .unwrap_or(umpire_belief::FAST_PARTICLES.min(bound))
    }

    /// The belief's configuration under `bound`.
    fn config(&self, bound: usize) -> BeliefConfig {
        BeliefConfig {
            bound,
            particles: Some(self.particles(bound)),
            seed: self.seed,
            threads: self.threads.max(1),
            parallel_from: umpire_belief::PARALLEL_FROM,
            repair_budget: umpire_belief::REPAIR_BUDGET,
        }
    }
}

/// The bound of the restart when `--max-seconds` is passed.
pub const CAPPED_BOUND: usize = 20_000;

#[derive(Serialize)]
struct Summary<'a> {
    side: &'static str,
    /// Plies (moves of either side) taken in.
    plies: u32,
    exact: bool,
    /// The exact size, or the estimate rounded (see `size_estimate`); `null` for an estimate
    /// beyond 2^64 − 1 positions (long games of many hidden men), which `size_estimate.value`
    /// still gives as a floating-point number.
    size: Option<u64>,
    /// "exact" or "estimate".
    size_kind: &'static str,
    size_estimate: SizeEstimate,
    /// Positions held (the exact set, or the sample).
    held: usize,
    /// The bound in force at the end (smaller than asked if the time cap restarted it).
    bound: usize,
    /// The most positions kept once sampled.
    particles: usize,
    /// Why the set is sampled, when it is: "bound" or "time cap".
    sampled_because: Option<&'static str>,
    millis: f64,
    marginals: serde_json::Value,
    metaposition: Option<&'a Metaposition>,
    /// `--samples N` without `--samples-out`: N held positions drawn uniformly, as FEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    samples: Option<Vec<String>>,
}

/// The observations of `side` up to and including the `ply`-th move (the whole record without
/// `--ply`), and the number of moves they cover; a `--ply` beyond the game is refused.
fn cut(record: &Record, side: Color, ply: Option<u32>) -> Result<(Vec<Observation>, u32), String> {
    let total = record.plies() as u32;
    let want = ply.unwrap_or(total);
    if want > total {
        return Err(format!(
            "the game has only {total} plies; --ply {want} is beyond it"
        ));
    }
    Ok(record.observations_until(side, ply))
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
    let record = crate::console::record_file::load(args.file)?;
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
    let (observations, moves) = cut(&record, args.side, args.ply)?;
    let rules = *record.rules.rules();
    let clock = Instant::now();
    if args.all_plies {
        return all_plies(rules, start, observations, args, clock);
    }
    let (belief, capped) = follow(rules, &start, &observations, args, clock)?;
    let millis = clock.elapsed().as_secs_f64() * 1e3;
    let marginals = Marginals::of(&belief);
    let meta = Metaposition::of(&belief);
    if let Some(path) = args.svg {
        let own = belief.position(0);
        let caption = svg_caption(&belief, args.side, moves, rules.id.as_str());
        fs::write(path, heatmap_svg(&marginals, args.side, own, &caption))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = args.samples_out {
        write_samples(&belief, &record, args, path)?;
    }
    let side = side_name(args.side);
    let estimate = belief.size_estimate();
    let bound = if capped { CAPPED_BOUND } else { args.bound };
    if args.json {
        let line = summary_json(
            &belief,
            args,
            moves,
            capped,
            millis,
            &marginals,
            meta.as_ref(),
        )?;
        say!("{line}");
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
        say!(
            "sample: {} positions held (at most {} once sampled)",
            belief.held(),
            args.particles(bound)
        );
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
    if args.print_samples {
        let fens = sampled_fens(&belief, args);
        say!(
            "samples: {} positions drawn uniformly from the {} held (FEN, one a line):",
            fens.len(),
            belief.held()
        );
        for fen in fens {
            say!("{fen}");
        }
    }
    Ok(())
}

/// `--samples` held positions drawn uniformly (all of them if fewer are held), as FEN: the
/// enemy men of each a consistent guess, the side's own men where they are.
fn sampled_fens(belief: &Belief, args: &BeliefArgs<'_>) -> Vec<String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    belief
        .sample(args.samples, &mut rng)
        .into_iter()
        .map(|pos| Fen::from_position(&pos, EnPassantMode::Legal).to_string())
        .collect()
}

/// The heatmap's caption: whose belief, after how many plies, under which rules, exact or
/// sampled and how large the set is.
fn svg_caption(belief: &Belief, side: Color, plies: u32, rules: &str) -> String {
    let estimate = belief.size_estimate();
    let size = if estimate.exact {
        format!("exact, {} positions", belief.size())
    } else {
        format!(
            "sampled, {} held of about {:.2e} positions",
            belief.held(),
            estimate.value
        )
    };
    let whose = if side == Color::White {
        "White"
    } else {
        "Black"
    };
    format!("{whose}'s belief after {plies} plies ({rules}): {size}")
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
    let config = args.config(args.bound);
    let mut belief =
        Belief::new(rules, start.clone(), args.side, config).map_err(|e| e.to_string())?;
    let mut capped = false;
    let mut k = 0;
    while k < observations.len() {
        // The belief is read after the last observation only: every one up to it is known.
        let later = if args.lookahead {
            &observations[k + 1..]
        } else {
            &[]
        };
        belief
            .observe_known(&observations[k], later)
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
            let config = args.config(CAPPED_BOUND);
            belief =
                Belief::new(rules, start.clone(), args.side, config).map_err(|e| e.to_string())?;
            k = 0;
        }
    }
    Ok((belief, capped))
}

/// `"white"` or `"black"`.
fn side_name(side: Color) -> &'static str {
    if side == Color::White {
        "white"
    } else {
        "black"
    }
}

/// The JSON line of the belief after `moves` plies (`capped`: restarted by the time cap).
fn summary_json(
    belief: &Belief,
    args: &BeliefArgs<'_>,
    moves: u32,
    capped: bool,
    millis: f64,
    marginals: &Marginals,
    meta: Option<&Metaposition>,
) -> Result<String, String> {
    let estimate = belief.size_estimate();
    let bound = if capped { CAPPED_BOUND } else { args.bound };
    let summary = Summary {
        side: side_name(args.side),
        plies: moves,
        exact: belief.is_exact(),
        size: (estimate.exact || estimate.value < u64::MAX as f64).then(|| belief.size()),
        size_kind: if estimate.exact { "exact" } else { "estimate" },
        size_estimate: estimate,
        held: belief.held(),
        bound,
        particles: args.particles(bound),
        sampled_because: match (belief.is_exact(), capped) {
            (true, _) => None,
            (false, true) => Some("time cap"),
            (false, false) => Some("bound"),
        },
        millis,
        marginals: serde_json::from_str(&marginals.to_json()).map_err(|e| e.to_string())?,
        metaposition: meta,
        samples: args.print_samples.then(|| sampled_fens(belief, args)),
    };
    serde_json::to_string(&summary).map_err(|e| e.to_string())
}

/// `--all-plies`: the belief after every ply, one line each (JSON with `--json`), printed as
/// soon as it is computed; `millis` counts from the start.
fn all_plies(
    rules: umpire_rules::RuleSet,
    start: Chess,
    observations: Vec<Observation>,
    args: &BeliefArgs<'_>,
    clock: Instant,
) -> Result<(), String> {
    let mut stream = PlyStream::new(
        rules,
        start,
        args.side,
        observations,
        args.config(args.bound),
    )
    .map_err(|e| e.to_string())?;
    while let Some(step) = stream.next_ply() {
        let belief = step.map_err(|e| e.to_string())?;
        let millis = clock.elapsed().as_secs_f64() * 1e3;
        let marginals = Marginals::of(belief);
        if args.json {
            let meta = Metaposition::of(belief);
            let line = summary_json(
                belief,
                args,
                belief.plies(),
                false,
                millis,
                &marginals,
                meta.as_ref(),
            )?;
            say!("{line}");
        } else {
            let e = belief.size_estimate();
            say!(
                "ply {}: {} {:.0} positions, {} held, {millis:.1} ms",
                belief.plies(),
                if e.exact { "exactly" } else { "about" },
                e.value,
                belief.held()
            );
        }
    }
    Ok(())
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

/// How many hidden histories `--samples-out` writes when `--samples` is not given.
pub const DEFAULT_SAMPLES: usize = 10;

/// The default bound, for the help text.
pub const DEFAULT_BOUND: u64 = umpire_belief::DEFAULT_BOUND as u64;
