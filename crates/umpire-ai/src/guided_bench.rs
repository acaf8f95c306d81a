//! Measurements of the guided action space under guided-random play: how many attempts each
//! filter preset saves, and what computing the space costs per decision.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::Serialize;
use umpire_rules::shakmaty::Color;
use umpire_rules::{AttemptList, RuleSet, Umpire};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterId, FilterSet, GuidedSpace};

use crate::audit::agent_seed;
use crate::{Agent, GuidedRandomAgent, MatchStats, Watcher, play_match};

/// How many presets [`presets`] compares (every per-preset array has this length).
pub const PRESETS: usize = 4;

/// The filter presets compared, with the names used in tables.
///
/// (a) is the own board with rejected attempts not repeated (A1): what OpenSpiel offers, and
/// what [`RandomAgent`](crate::RandomAgent) picks from.
pub fn presets() -> [(&'static str, FilterSet); PRESETS] {
    [
        (
            "(a) own board",
            FilterSet::own_board_only().with(FilterId::A1, true),
        ),
        ("(b) seed 000 implemented", FilterSet::seed000_implemented()),
        ("(c) all sound", FilterSet::all_sound()),
        ("(d) all", FilterSet::all()),
    ]
}

/// Play figures for one preset.
#[derive(Clone, Debug, Serialize)]
pub struct PresetFigures {
    /// The preset's name.
    pub preset: &'static str,
    /// The filters in it.
    pub filters: String,
    /// Games played.
    pub games: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Games per second.
    pub games_per_sec: f64,
    /// Mean attempts (commands) per game.
    pub attempts_per_game: f64,
    /// Mean moves per game.
    pub plies_per_game: f64,
    /// Share of attempts rejected (illegal, impossible or repeated).
    pub rejected_share: f64,
    /// Decisions at which the filters hid everything and the agent fell back to its own board.
    pub fallbacks: u64,
}

/// Running totals for one preset.
#[derive(Clone, Copy, Default)]
struct Tally {
    stats: MatchStats,
    fallbacks: u64,
    time: Duration,
}

/// Plays one guided-random game (game `index` of the run seeded `seed`) into `tally`.
fn play_one(
    rules: RuleSet,
    filters: FilterSet,
    seed: u64,
    index: u64,
    max_plies: u32,
    tally: &mut Tally,
) {
    let start = Instant::now();
    let [mut white, mut black] = [Color::White, Color::Black].map(|side| {
        GuidedRandomAgent::new(
            PlayerView::standard(rules, side),
            agent_seed(seed, index, u64::from(side.is_black())),
            filters,
        )
    });
    let mut umpire = Umpire::new(rules);
    let game = play_match(&mut umpire, [&mut white, &mut black], max_plies, &mut ())
        .expect("the umpire's own observations fit the views");
    tally.stats.add(game);
    tally.fallbacks += white.fallbacks() + black.fallbacks();
    tally.time += start.elapsed();
}

/// Plays guided-random games under `rules` for every preset of [`presets`], interleaved (ten
/// rounds, each preset in turn, so that a change of machine load hits all alike): about
/// `seconds` per preset, or exactly `games` games per preset. Game `i` of every preset uses
/// the same seeds.
pub fn compare_presets(
    rules: RuleSet,
    seconds: f64,
    games: Option<u64>,
    seed: u64,
    max_plies: u32,
) -> Vec<PresetFigures> {
    let presets = presets();
    let mut tallies = [Tally::default(); PRESETS];
    let rounds = if games.is_some() { 1 } else { 10 };
    let slice =
        Duration::try_from_secs_f64(seconds.max(0.0) / f64::from(rounds)).unwrap_or(Duration::MAX);
    for round in 1..=rounds {
        for (i, (_, filters)) in presets.iter().enumerate() {
            let tally = &mut tallies[i];
            let start = Instant::now();
            loop {
                let done = match games {
                    Some(n) => tally.stats.games >= n,
                    None => start.elapsed() >= slice || tally.time >= slice.saturating_mul(round),
                };
                if done {
                    break;
                }
                let index = tally.stats.games;
                play_one(rules, *filters, seed, index, max_plies, tally);
            }
        }
    }
    presets
        .iter()
        .zip(tallies)
        .map(|((name, filters), t)| {
            let secs = t.time.as_secs_f64();
            let n = t.stats.games.max(1) as f64;
            PresetFigures {
                preset: name,
                filters: format!("{filters:?}"),
                games: t.stats.games,
                seconds: secs,
                games_per_sec: t.stats.games as f64 / secs,
                attempts_per_game: t.stats.attempts as f64 / n,
                plies_per_game: t.stats.plies as f64 / n,
                rejected_share: t.stats.rejected as f64 / t.stats.attempts.max(1) as f64,
                fallbacks: t.fallbacks,
            }
        })
        .collect()
}

/// The cost of one decision's offer list, per way of computing it.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionCost {
    /// Decisions sampled (views taken from guided-random games).
    pub decisions: u64,
    /// Times each sample was computed.
    pub passes: u64,
    /// Nanoseconds per decision for the own-board offer list (`PlayerView::options`), median
    /// over the passes.
    pub own_board_ns: f64,
    /// Nanoseconds per decision for the guided space (`GuidedSpace::new` and `options`), per
    /// preset, in [`presets`] order, median over the passes.
    pub guided_ns: Vec<(&'static str, f64)>,
}

struct Sampler {
    views: Vec<PlayerView>,
    every: u64,
    seen: u64,
    max: usize,
}

impl Watcher<Umpire> for Sampler {
    fn before(&mut self, _table: &Umpire, mover: &dyn Agent) {
        self.seen += 1;
        if self.seen.is_multiple_of(self.every) && self.views.len() < self.max {
            self.views.push(mover.view().clone());
        }
    }

    fn stop(&self) -> bool {
        self.views.len() >= self.max
    }
}

/// Samples `decisions` decisions (every 7th of guided-random games under every sound
/// filter) and times computing the offer list for each, `passes` times over, per preset.
/// All the ways are timed in the same run, interleaved chunk by chunk.
pub fn decision_cost(rules: RuleSet, seed: u64, decisions: usize, passes: u64) -> DecisionCost {
    let mut sampler = Sampler {
        views: Vec::with_capacity(decisions),
        every: 7,
        seen: 0,
        max: decisions,
    };
    let mut index = 0;
    while sampler.views.len() < decisions && index < 100_000 {
        let [mut white, mut black] = [Color::White, Color::Black].map(|side| {
            GuidedRandomAgent::new(
                PlayerView::standard(rules, side),
                agent_seed(seed, index, u64::from(side.is_black())),
                FilterSet::all_sound(),
            )
        });
        let mut umpire = Umpire::new(rules);
        play_match(&mut umpire, [&mut white, &mut black], 400, &mut sampler)
            .expect("the umpire's own observations fit the views");
        index += 1;
    }
    let views = sampler.views;
    let presets = presets();
    let mut list = AttemptList::new();
    // Per pass, the ways are timed in turn over chunks of 64 decisions, so that a burst of
    // load on the shared machine hits them alike; the median pass is reported.
    let mut own_passes = Vec::with_capacity(passes as usize);
    let mut guided_passes: [Vec<f64>; PRESETS] = Default::default();
    for _ in 0..passes {
        let mut own_time = Duration::ZERO;
        let mut guided_time = [Duration::ZERO; PRESETS];
        for chunk in views.chunks(64) {
            let t = Instant::now();
            for view in chunk {
                list.clear();
                black_box(view.options(&mut list));
                black_box(&list);
            }
            own_time += t.elapsed();
            for (i, (_, filters)) in presets.iter().enumerate() {
                let t = Instant::now();
                for view in chunk {
                    list.clear();
                    black_box(GuidedSpace::new(view, *filters).options(&mut list));
                    black_box(&list);
                }
                guided_time[i] += t.elapsed();
            }
        }
        let per = |d: Duration| d.as_secs_f64() * 1e9 / views.len().max(1) as f64;
        own_passes.push(per(own_time));
        for (i, d) in guided_time.into_iter().enumerate() {
            guided_passes[i].push(per(d));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    DecisionCost {
        decisions: views.len() as u64,
        passes,
        own_board_ns: median(own_passes),
        guided_ns: presets
            .iter()
            .zip(guided_passes)
            .map(|((name, _), v)| (*name, median(v)))
            .collect(),
    }
}

/// Play figures for the belief filter (guided space, every sound rule filter on, narrowed by
/// the belief's legal union), with the heuristic filter's errors counted against the truth.
#[derive(Clone, Debug, Serialize)]
pub struct BeliefFigures {
    /// The same figures as for a preset.
    pub figures: PresetFigures,
    /// The bound on the exact set.
    pub bound: usize,
    /// Decisions taken.
    pub decisions: u64,
    /// Decisions at which the belief was a sample (the filter a heuristic).
    pub sampled_decisions: u64,
    /// Attempts the sampled filter hid (offered by the guided space, hidden by the belief).
    pub sampled_hidden: u64,
    /// Of those, attempts legal in the true position: false hides.
    pub false_hides: u64,
    /// Attempts the exact filter hid that were legal in the true position (must be 0).
    pub exact_false_hides: u64,
}

/// Plays guided-random games with the belief filter under `rules` (bound `bound`): about
/// `seconds`, or exactly `games` games, with the seeds of [`compare_presets`].
pub fn belief_row(
    rules: RuleSet,
    seconds: f64,
    games: Option<u64>,
    seed: u64,
    max_plies: u32,
    bound: usize,
) -> BeliefFigures {
    use crate::BeliefGuidedAgent;
    use umpire_belief::LegalUnion;
    use umpire_rules::shakmaty::Chess;
    use umpire_rules::{Attempt, Verdict};

    let filters = FilterSet::all_sound();
    let mut tally = Tally::default();
    let (mut decisions, mut sampled, mut hidden, mut false_hides, mut exact_false) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let budget = Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX);
    let mut guided = AttemptList::new();
    loop {
        let done = match games {
            Some(n) => tally.stats.games >= n,
            None => tally.time >= budget,
        };
        if done {
            break;
        }
        let index = tally.stats.games;
        let start = Instant::now();
        let mut agents = [Color::White, Color::Black].map(|side| {
            BeliefGuidedAgent::new(
                PlayerView::standard(rules, side),
                agent_seed(seed, index, u64::from(side.is_black())),
                filters,
                Some(Chess::default()),
                bound,
            )
        });
        let mut umpire = Umpire::new(rules);
        let mut stats = MatchStats {
            games: 1,
            ..MatchStats::default()
        };
        while !umpire.is_over() && umpire.plies() < max_plies {
            let mover = usize::from(umpire.turn().is_black());
            let agent = &agents[mover];
            if let Some(belief) = agent.belief().filter(|b| b.held() > 0) {
                guided.clear();
                GuidedSpace::new(agent.view(), filters).options(&mut guided);
                let union = LegalUnion::covering(belief, &guided);
                let legal: Vec<Attempt> = umpire
                    .legal_moves()
                    .iter()
                    .filter_map(Attempt::from_move)
                    .collect();
                for a in guided.iter().filter(|a| !union.may_be_legal(**a)) {
                    let wrong = legal.contains(a);
                    if belief.is_exact() {
                        exact_false += u64::from(wrong);
                    } else {
                        hidden += 1;
                        false_hides += u64::from(wrong);
                    }
                }
                if !belief.is_exact() {
                    sampled += 1;
                }
            }
            decisions += 1;
            let command = agents[mover].choose();
            let outcome = umpire.submit(command);
            stats.attempts += 1;
            match outcome.verdict {
                Verdict::Accepted => stats.plies += 1,
                Verdict::Illegal | Verdict::Impossible | Verdict::Repeat => stats.rejected += 1,
                _ => {}
            }
            for (agent, side) in agents.iter_mut().zip([Color::White, Color::Black]) {
                crate::play_observations(agent, side, command, &outcome)
                    .expect("the umpire's own observations fit the views");
            }
            if matches!(outcome.verdict, Verdict::Invalid(_) | Verdict::GameOver) {
                break;
            }
        }
        tally.stats.add(stats);
        tally.fallbacks += agents[0].fallbacks() + agents[1].fallbacks();
        tally.time += start.elapsed();
    }
    let secs = tally.time.as_secs_f64();
    let n = tally.stats.games.max(1) as f64;
    BeliefFigures {
        figures: PresetFigures {
            preset: "(e) belief filter",
            filters: format!("{filters:?} + belief (bound {bound})"),
            games: tally.stats.games,
            seconds: secs,
            games_per_sec: tally.stats.games as f64 / secs,
            attempts_per_game: tally.stats.attempts as f64 / n,
            plies_per_game: tally.stats.plies as f64 / n,
            rejected_share: tally.stats.rejected as f64 / tally.stats.attempts.max(1) as f64,
            fallbacks: tally.fallbacks,
        },
        bound,
        decisions,
        sampled_decisions: sampled,
        sampled_hidden: hidden,
        false_hides,
        exact_false_hides: exact_false,
    }
}
