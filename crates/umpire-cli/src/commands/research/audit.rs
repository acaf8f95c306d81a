//! `umpire audit guided`: the soundness audit of the guided action space (the logic lives in
//! `umpire_ai::audit`).

use crate::console::stdout::say;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use umpire_ai::AgentKind;
use umpire_ai::audit::{AuditConfig, AuditReport, audit_guided};
use umpire_rules::RuleSetId;

/// What to audit.
#[derive(Subcommand)]
pub enum AuditWhat {
    /// Play games and report, per filter of the guided action space, how often it fired, every
    /// soundness violation (a legal move hidden by a sound filter: position, move, filter) and
    /// each heuristic filter's false-hide rate. Exits with failure if a sound filter hid a
    /// legal move.
    Guided {
        /// Rule set, or `all` for every rule set in turn (the games are split evenly).
        #[arg(long, default_value = "wild16")]
        rules: String,
        /// Number of games (per rule set).
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Random seed; the same seed plays the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who plays both sides: random or guided-random (every sound filter on).
        #[arg(long, default_value = "guided-random")]
        agent: AgentKind,
        /// Stop after this many decisions (per rule set).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        decisions: Option<u64>,
        /// Stop a game unfinished after this many moves (plies).
        #[arg(long, default_value_t = 400)]
        max_plies: u32,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the audit and prints the report.
pub fn run(what: AuditWhat) -> Result<(), String> {
    let AuditWhat::Guided {
        rules,
        games,
        seed,
        agent,
        decisions,
        max_plies,
        json,
    } = what;
    let ids: Vec<RuleSetId> = if rules.trim().eq_ignore_ascii_case("all") {
        RuleSetId::ALL.to_vec()
    } else {
        vec![
            rules
                .parse::<RuleSetId>()
                .map_err(|e| format!("--rules: {e} (or `all`)"))?,
        ]
    };
    let bar = ProgressBar::new(games * ids.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let mut total: Option<AuditReport> = None;
    for id in ids {
        let mut config = AuditConfig::new(*id.rules(), games, seed, agent);
        config.max_decisions = decisions;
        config.max_plies = max_plies;
        let report = audit_guided(&config, |r| {
            bar.inc(1);
            bar.set_message(format!(
                "{id}: {} decisions, {} violations",
                r.decisions, r.soundness_violations
            ));
        })
        .map_err(|e| e.to_string())?;
        match &mut total {
            None => total = Some(report),
            Some(t) => t.merge(&report),
        }
    }
    bar.finish_and_clear();
    let report = total.expect("at least one rule set");
    if json {
        say!(
            "{}",
            serde_json::to_string(&report).expect("report serializes")
        );
    } else {
        print_table(&report);
    }
    if report.soundness_violations > 0 {
        return Err(format!(
            "{} soundness violations: a sound filter hid a legal move",
            report.soundness_violations
        ));
    }
    Ok(())
}

fn print_table(r: &AuditReport) {
    say!(
        "Audit of the guided action space under {} ({} agents): {} games, {} decisions, \
         {} legal attempts checked",
        r.rules,
        r.agent,
        r.games,
        r.decisions,
        r.legal_checked
    );
    say!(
        "{:<6} {:<10} {:>14} {:>14} {:>12} {:>10}",
        "filter",
        "tag",
        "fired (dec.)",
        "hid attempts",
        "hid legal",
        "false hide"
    );
    for f in &r.filters {
        say!(
            "{:<6} {:<10} {:>14} {:>14} {:>12} {:>9.2}%",
            f.id,
            f.soundness,
            f.decisions_fired,
            f.attempts_hidden,
            f.legal_hidden,
            100.0 * f.false_hide_rate
        );
    }
    say!("Soundness violations: {}", r.soundness_violations);
    for v in &r.violations {
        say!(
            "  game {} command {}: legal {} hidden by sound {} in {}",
            v.game,
            v.command,
            v.attempt,
            v.filter,
            v.fen
        );
    }
}
