//! `umpire tablebase build|probe|stats`: Kriegspiel endgame tables (see the `umpire-tablebase`
//! crate).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use umpire_rules::shakmaty::fen::Fen;
use umpire_rules::shakmaty::{Color, Role, Square};
use umpire_rules::{Record, record::STANDARD_FEN};
use umpire_tablebase::{
    BuildOptions, Ending, IllegalRule, Layout, Tablebase, Variant, depth_profile, white_knowledge,
};

use crate::console::stdout::say;

/// What to do with endgame tables.
#[derive(Subcommand)]
pub enum TablebaseAction {
    /// Build a table by retrograde analysis and write it to a file.
    Build {
        /// The ending: krk, kqk, kbbk (opposite-coloured bishops) or kbnk.
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
    /// squares where the black king may be: given directly, or derived from a game record.
    Probe {
        /// A table written by `umpire tablebase build`.
        #[arg(long, value_name = "FILE")]
        table: PathBuf,
        /// The white king's square (e.g. g6).
        #[arg(long, required_unless_present = "record")]
        king: Option<Square>,
        /// A white queen's square.
        #[arg(long)]
        queen: Option<Square>,
        /// A white rook's square.
        #[arg(long)]
        rook: Option<Square>,
        /// White bishops' squares (one or two).
        #[arg(long, num_args = 1..=2, value_delimiter = ',')]
        bishop: Vec<Square>,
        /// A white knight's square.
        #[arg(long)]
        knight: Option<Square>,
        /// The squares where the black king may be (e.g. g8 h8, or g8,h8).
        #[arg(long, num_args = 1.., value_delimiter = ',', required_unless_present = "record")]
        black: Vec<Square>,
        /// A game record (JSON): White's men and the set come from White's view of it.
        #[arg(long, value_name = "GAME.json", conflicts_with_all = ["king", "black", "queen", "rook", "bishop", "knight"])]
        record: Option<PathBuf>,
        /// With --record: the number of plies played (White to move after them).
        #[arg(long, requires = "record")]
        ply: Option<usize>,
    },
    /// An experiment: the longest mate and the sets per depth when illegal attempts are counted
    /// another way (no table is written).
    Profile {
        /// The ending: krk, kqk, kbbk or kbnk.
        ending: Ending,
        /// free (the tables: no move, White learns), costs-a-move, or never-tried.
        #[arg(long, default_value = "free")]
        illegal: IllegalArg,
        /// With --illegal free: stop the same-depth fixpoint for illegal answers after this
        /// many rounds (1 is the same as costs-a-move).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
        rounds: Option<u8>,
        /// White hears only "check", not its kind.
        #[arg(long)]
        no_check_kinds: bool,
        /// A protected man next to a possible black-king square counts as lost (unless mate).
        #[arg(long)]
        cautious: bool,
        /// Worker threads.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Figures of a table: sets per depth, longest mate, share of certain wins.
    Stats {
        /// A table written by `umpire tablebase build`.
        #[arg(long, value_name = "FILE")]
        table: PathBuf,
    },
}

/// How illegal attempts are counted, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IllegalArg {
    /// No move is spent; White learns from the answer (the tables).
    Free,
    /// An illegal attempt costs a move.
    CostsAMove,
    /// White never makes an attempt that may be illegal.
    NeverTried,
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
            queen,
            rook,
            bishop,
            knight,
            black,
            record,
            ply,
        } => {
            let table = load(&table)?;
            match record {
                Some(path) => probe_record(&table, &path, ply.unwrap_or(0)),
                None => {
                    let mut men: Vec<(Role, Square)> = Vec::new();
                    men.extend(queen.map(|s| (Role::Queen, s)));
                    men.extend(rook.map(|s| (Role::Rook, s)));
                    men.extend(bishop.iter().map(|&s| (Role::Bishop, s)));
                    men.extend(knight.map(|s| (Role::Knight, s)));
                    let king = king.ok_or("--king is required without --record")?;
                    let layout = Layout::new(king, &men).map_err(|e| e.to_string())?;
                    let set = black
                        .iter()
                        .fold(0u64, |acc, &sq| acc | (1u64 << u32::from(sq)));
                    probe(&table, layout, set)
                }
            }
        }
        TablebaseAction::Stats { table } => stats(&load(&table)?),
        TablebaseAction::Profile {
            ending,
            illegal,
            rounds,
            no_check_kinds,
            cautious,
            threads,
        } => {
            let rule = match illegal {
                IllegalArg::Free => rounds.map_or(IllegalRule::Free, IllegalRule::Rounds),
                _ if rounds.is_some() => {
                    return Err("--rounds applies only with --illegal free".to_owned());
                }
                IllegalArg::CostsAMove => IllegalRule::CostsAMove,
                IllegalArg::NeverTried => IllegalRule::NeverTried,
            };
            let start = Instant::now();
            let options = BuildOptions {
                max_depth: u8::MAX,
                threads: threads as usize,
            };
            let variant = Variant {
                illegal: rule,
                check_kinds: !no_check_kinds,
                protected_next_to_king: !cautious,
            };
            let counts = depth_profile(ending, options, variant, &mut |_| {});
            say!(
                "{ending}, illegal attempts {rule:?}, check kinds heard: {}, protected men next to the king: {}: longest mate {}, {} sets, {:.2} s",
                !no_check_kinds,
                !cautious,
                counts.len().saturating_sub(1),
                counts.iter().sum::<usize>(),
                start.elapsed().as_secs_f64()
            );
            for (depth, count) in counts.iter().enumerate().skip(1) {
                say!("  depth {depth:>2}: {count:>8} sets");
            }
            Ok(())
        }
    }
}

fn load(path: &Path) -> Result<Tablebase, String> {
    Tablebase::load(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn build(ending: Ending, out: &Path, max_depth: u8, threads: usize) -> Result<(), String> {
    // A bad --out is said before the build, not after it.
    crate::console::save_file::check_writable(out, "--out")?;
    let start = Instant::now();
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar.set_message(format!("{ending}: depth 1"));
    let options = BuildOptions { max_depth, threads };
    let table = Tablebase::build(ending, options, |p| {
        bar.set_message(format!(
            "{ending}: depth {} done: {} new sets, {} maximal sets; {}",
            p.depth,
            p.new_sets,
            p.maximal_sets,
            peak_memory()
        ));
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    table
        .save(out)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    say!(
        "{ending}: {} sets, longest mate {}, {} in {seconds:.2} s, {}; written to {}",
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
    print_depths(&table);
    Ok(())
}

fn print_depths(table: &Tablebase) {
    for (depth, count) in table.sets_per_depth().iter().enumerate().skip(1) {
        say!("  depth {depth:>2}: {count:>8} sets");
    }
}

fn stats(table: &Tablebase) -> Result<(), String> {
    let c = table.coverage();
    say!(
        "{}: {} canonical layouts, {} sets, longest mate {}, {}",
        table.ending(),
        table.layouts().len(),
        table.len(),
        table.longest_mate(),
        if table.is_complete() {
            "complete"
        } else {
            "depth-limited (shares are lower bounds)"
        }
    );
    say!(
        "certain wins: {} of {} (layout, black-king square) positions ({:.2}%); whole domain won for {} of {} layouts ({:.2}%)",
        c.won_positions,
        c.positions,
        100.0 * c.position_share(),
        c.won_blind,
        c.layouts,
        100.0 * c.blind_share()
    );
    print_depths(table);
    Ok(())
}

fn probe(table: &Tablebase, layout: Layout, set: u64) -> Result<(), String> {
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

fn probe_record(table: &Tablebase, path: &Path, ply: usize) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let record = Record::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let view = record
        .player_view(Color::White)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // Black's material at the start is public (a set-up ending says what is on the board);
    // where the black king stands is not, and only White's view is read for it.
    let fen: Fen = record
        .fen
        .parse()
        .map_err(|e| format!("{}: bad start FEN: {e}", path.display()))?;
    let black_men = (fen.as_setup().board.by_color(Color::Black).count() as u32).saturating_sub(1);
    let knowledge = white_knowledge(&view, black_men, record.fen == STANDARD_FEN, ply)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if table.index().find(&knowledge.layout).is_none() {
        return Err(format!(
            "after ply {ply} White has {}, not a position of this {} table",
            knowledge.layout,
            table.ending()
        ));
    }
    say!(
        "after ply {ply}, White's view ({}):",
        if knowledge.exact {
            "exact: the black king was alone from the start"
        } else {
            "a conservative superset"
        }
    );
    probe(table, knowledge.layout, knowledge.set)
}

/// The peak resident memory of this process (Linux), or "unknown".
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| format!("peak {}", l.trim_start_matches("VmHWM:").trim()))
        })
        .unwrap_or_else(|| "peak memory unknown".to_owned())
}
