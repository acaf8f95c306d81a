//! `umpire tablebase build|probe`: Kriegspiel endgame tables (see the `umpire-tablebase` crate).

use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use umpire_rules::shakmaty::Square;
use umpire_tablebase::{BuildOptions, Ending, Layout, Tablebase};

use crate::stdout::say;

/// What to do with endgame tables.
#[derive(Subcommand)]
pub enum TablebaseAction {
    /// Build a table by retrograde analysis and write it to a file.
    Build {
        /// The ending: krk (kqk, kbbk and kbnk are not built yet).
        ending: Ending,
        /// Write the table here.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Stop after this depth (a partial table; default: until complete).
        #[arg(long, default_value_t = 255, value_parser = clap::value_parser!(u8).range(1..))]
        max_depth: u8,
        /// Worker threads (the table does not depend on it).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Distance to mate and best attempts for White to move, knowing its own men and the set of
    /// squares where the black king may be.
    Probe {
        /// A table written by `umpire tablebase build`.
        #[arg(long, value_name = "FILE")]
        table: PathBuf,
        /// The white king's square (e.g. g6).
        #[arg(long)]
        king: Square,
        /// The white rook's square (e.g. b1).
        #[arg(long)]
        rook: Square,
        /// The squares where the black king may be (e.g. g8 h8, or g8,h8).
        #[arg(long, num_args = 1.., value_delimiter = ',', required = true)]
        black: Vec<Square>,
    },
}

/// Runs one `umpire tablebase` action.
pub fn run(action: TablebaseAction) -> Result<(), String> {
    match action {
        TablebaseAction::Build {
            ending,
            out,
            max_depth,
            threads,
        } => build(ending, &out, max_depth, threads as usize),
        TablebaseAction::Probe {
            table,
            king,
            rook,
            black,
        } => probe(&table, king, rook, &black),
    }
}

fn build(
    ending: Ending,
    out: &std::path::Path,
    max_depth: u8,
    threads: usize,
) -> Result<(), String> {
    let start = Instant::now();
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    let options = BuildOptions { max_depth, threads };
    let table = Tablebase::build(ending, options, |p| {
        bar.set_message(format!(
            "depth {}: {} new sets, {} maximal sets",
            p.depth, p.new_sets, p.maximal_sets
        ));
        bar.tick();
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    table
        .save(out)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    say!(
        "{ending}: {} sets, longest mate {}, {} in {seconds:.2} s, peak memory {}; written to {}",
        table.len(),
        table.longest_mate(),
        if table.is_complete() {
            "complete"
        } else {
            "depth-limited (partial)"
        },
        peak_memory(),
        out.display()
    );
    for (depth, count) in table.sets_per_depth().iter().enumerate().skip(1) {
        say!("  depth {depth:>2}: {count:>7} sets");
    }
    Ok(())
}

fn probe(
    path: &std::path::Path,
    king: Square,
    rook: Square,
    black: &[Square],
) -> Result<(), String> {
    let table =
        Tablebase::load(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let layout = Layout::new(king, rook).map_err(|e| e.to_string())?;
    let set = black
        .iter()
        .fold(0u64, |acc, &sq| acc | (1u64 << u32::from(sq)));
    let probe = table.probe(layout, set).map_err(|e| e.to_string())?;
    say!("{}", Tablebase::diagram(layout, probe.set));
    say!("{probe}");
    if probe.distance.is_none() {
        say!(
            "{}",
            if table.is_complete() {
                "(the table is complete: there is no forced mate)"
            } else {
                "(the table is depth-limited: a longer forced mate may exist)"
            }
        );
    }
    Ok(())
}

/// The peak resident memory of this process (Linux), or "unknown".
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}
