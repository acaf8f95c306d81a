//! Games between two agents, judged by an umpire (plain or recording).

use umpire_rules::record::Game;
use umpire_rules::shakmaty::Color;
use umpire_rules::wire::color_name;
use umpire_rules::{Command, EnemyCount, Outcome, Umpire, Verdict};

use crate::{Agent, DecisionTimes};

/// Something that judges commands: a plain [`Umpire`] or a recording [`Game`].
pub trait Table {
    /// The umpire (read only).
    fn umpire(&self) -> &Umpire;
    /// Judges `command`.
    fn submit(&mut self, command: Command) -> Outcome;
}

impl Table for Umpire {
    fn umpire(&self) -> &Umpire {
        self
    }

    fn submit(&mut self, command: Command) -> Outcome {
        Umpire::submit(self, command)
    }
}

impl Table for Game {
    fn umpire(&self) -> &Umpire {
        Game::umpire(self)
    }

    fn submit(&mut self, command: Command) -> Outcome {
        Game::submit(self, command)
    }
}

/// Counts from games between agents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchStats {
    /// Games played.
    pub games: u64,
    /// Commands judged (attempts and "Any?" questions).
    pub attempts: u64,
    /// Attempts rejected (illegal, impossible or repeated).
    pub rejected: u64,
    /// Moves played.
    pub plies: u64,
    /// Decisions made, by seat (White, Black).
    pub decisions: [u64; 2],
    /// Search nodes the agents reported spending ([`Agent::analysis`]), by seat.
    pub nodes: [u64; 2],
    /// Wall-clock time the agents took to decide, in microseconds, by seat (a measurement:
    /// it depends on the machine and its load, unlike everything else here). A decision's time
    /// is its [`Agent::choose`] plus the agent's [`Agent::observe`] calls since its previous
    /// decision (belief updates and repairs included): what a clock would charge it.
    pub think_us: [u64; 2],
    /// The same decision times as histograms, by seat: percentiles and the maximum.
    pub times: [DecisionTimes; 2],
    /// The CPU time of the same decisions (the game's thread's, [`crate::cpu_clock`]), by
    /// seat: what a decision costs apart from the machine's load (empty where the platform has
    /// no thread clock).
    pub cpu_times: [DecisionTimes; 2],
    /// Games a seat forfeited by giving more than [`MAX_COMMANDS_PER_TURN`] commands in one
    /// turn without a move (the harness resigned for it), by seat.
    pub forfeits: [u64; 2],
}

/// The most commands an agent may give in one turn without making a move: the harness then
/// resigns for it ([`MatchStats::forfeits`]), so that an agent repeating a rejected command
/// can never hang a game. An honest agent needs at most one command per attempt possible on
/// its own board ([`umpire_rules::MAX_ATTEMPTS`], 448), one "Any?" and one draw offer.
pub const MAX_COMMANDS_PER_TURN: u32 = 1_000;

impl MatchStats {
    /// Adds another count.
    pub fn add(&mut self, other: MatchStats) {
        self.games += other.games;
        self.attempts += other.attempts;
        self.rejected += other.rejected;
        self.plies += other.plies;
        for seat in 0..2 {
            self.decisions[seat] += other.decisions[seat];
            self.nodes[seat] += other.nodes[seat];
            self.think_us[seat] += other.think_us[seat];
            self.times[seat].add(&other.times[seat]);
            self.cpu_times[seat].add(&other.cpu_times[seat]);
            self.forfeits[seat] += other.forfeits[seat];
        }
    }
}

/// Errors of a game between agents.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// An agent was told something that does not fit its view.
    #[error("an observation did not fit the {side} agent's view: {error}")]
    View {
        /// The agent's side ("white" or "black").
        side: &'static str,
        /// What was wrong.
        error: umpire_view::ViewError,
    },
    /// An agent's view claims a side other than the seat the harness gave it.
    #[error("the agent seated as {seat} claims to play {claimed}")]
    WrongSeat {
        /// The seat ("white" or "black").
        seat: &'static str,
        /// The side the agent's view claims.
        claimed: &'static str,
    },
}

/// Watches a game between agents.
pub trait Watcher<T> {
    /// Called before the agent to move (`mover`) chooses its command.
    fn before(&mut self, _table: &T, _mover: &dyn Agent) {}
    /// Called after each command with its outcome (the agents have already heard it).
    fn after(&mut self, _table: &T, _command: Command, _outcome: &Outcome) {}
    /// Whether to stop the game now (checked before each decision).
    fn stop(&self) -> bool {
        false
    }
}

/// Watches nothing.
impl<T> Watcher<T> for () {}

/// Plays a game between `agents` (white first) on `table` (fresh, before its first command)
/// until it ends or `max_plies` moves have been played, telling `watcher` about each
/// decision. Both agents hear the opening announcements first. Agents never offer draws, so
/// no draw offer needs an answer. An agent that gives more than [`MAX_COMMANDS_PER_TURN`]
/// commands in one turn without a move is resigned for ([`MatchStats::forfeits`]).
///
/// The harness seats the agents itself: `agents[0]` plays White and `agents[1]` Black, and
/// each hears only what its seat hears. An agent whose view claims the other side is refused
/// before the first command ([`MatchError::WrongSeat`]).
pub fn play_match<T: Table>(
    table: &mut T,
    agents: [&mut dyn Agent; 2],
    max_plies: u32,
    watcher: &mut impl Watcher<T>,
) -> Result<MatchStats, MatchError> {
    let [white, black] = agents;
    let mut agents = [white, black];
    const SEATS: [Color; 2] = [Color::White, Color::Black];
    for (agent, seat) in agents.iter().zip(SEATS) {
        let claimed = agent.view().side();
        if claimed != seat {
            return Err(MatchError::WrongSeat {
                seat: color_name(seat),
                claimed: color_name(claimed),
            });
        }
    }
    let opening = crate::opening_heard(table.umpire());
    for agent in agents.iter_mut() {
        agent.hear_opening(&opening);
    }
    let mut stats = MatchStats {
        games: 1,
        ..MatchStats::default()
    };
    // Time each agent spent taking in observations since its last decision, in microseconds.
    let mut pending = [0u64; 2];
    let mut pending_cpu = [0u64; 2];
    let cpu = crate::cpu_clock::thread_cpu_us;
    let cpu_since = |t: Option<u64>| t.zip(cpu()).map_or(0, |(a, b)| b.saturating_sub(a));
    let micros = |d: std::time::Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    // Commands given since the last move (by the side to move).
    let mut this_turn = 0u32;
    while !table.umpire().is_over() && table.umpire().plies() < max_plies && !watcher.stop() {
        let mover = usize::from(table.umpire().turn().is_black());
        let command = if this_turn >= MAX_COMMANDS_PER_TURN {
            // Past the limit: the mover forfeits, it is not asked again.
            stats.forfeits[mover] += 1;
            Command::Resign
        } else {
            watcher.before(table, &*agents[mover]);
            let started = std::time::Instant::now();
            let started_cpu = cpu();
            let command = agents[mover].choose();
            let took =
                micros(started.elapsed()).saturating_add(std::mem::take(&mut pending[mover]));
            let took_cpu =
                cpu_since(started_cpu).saturating_add(std::mem::take(&mut pending_cpu[mover]));
            stats.think_us[mover] = stats.think_us[mover].saturating_add(took);
            stats.times[mover].record(took);
            if started_cpu.is_some() {
                stats.cpu_times[mover].record(took_cpu);
            }
            stats.decisions[mover] += 1;
            stats.nodes[mover] += agents[mover].analysis().map_or(0, |a| a.nodes);
            command
        };
        let outcome = table.submit(command);
        stats.attempts += 1;
        match outcome.verdict {
            Verdict::Accepted => stats.plies += 1,
            Verdict::Illegal | Verdict::Impossible | Verdict::Repeat => stats.rejected += 1,
            _ => {}
        }
        this_turn = if outcome.verdict == Verdict::Accepted {
            0
        } else {
            this_turn + 1
        };
        for (i, agent) in agents.iter_mut().enumerate() {
            let started = std::time::Instant::now();
            let started_cpu = cpu();
            let heard = crate::play_observations(&mut **agent, SEATS[i], command, &outcome);
            pending[i] = pending[i].saturating_add(micros(started.elapsed()));
            pending_cpu[i] = pending_cpu[i].saturating_add(cpu_since(started_cpu));
            heard.map_err(|error| MatchError::View {
                side: color_name(SEATS[i]),
                error,
            })?;
        }
        watcher.after(table, command, &outcome);
        if matches!(outcome.verdict, Verdict::Invalid(_) | Verdict::GameOver) {
            // An agent that says something refused would repeat it forever.
            break;
        }
    }
    Ok(stats)
}

/// The view `side` starts with in a game set up from `position`: its own men and castling
/// rights, who moves first, and what [`EnemyCount::told`] says a player is told of the enemy
/// (the number of enemy men and of enemy pawns, not where they stand) — the same facts as the
/// player's filtered record (`KriegspielOwnStart`, `KriegspielEnemyStart`). For the standard
/// start use [`PlayerView::standard`](umpire_view::PlayerView::standard), which also knows
/// where the enemy's men start.
pub fn setup_view(
    rules: umpire_rules::RuleSet,
    position: &umpire_rules::shakmaty::Chess,
    side: Color,
) -> umpire_view::PlayerView {
    use umpire_rules::shakmaty::Position;
    umpire_view::PlayerView::new(
        rules,
        umpire_rules::OwnBoard::of(position, side),
        position.turn(),
        EnemyCount::told(position, side).into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Color;
    use umpire_rules::{Announcement, Observation, RuleSetId};
    use umpire_view::{PlayerView, ViewError};

    /// An agent that says the same command for ever (White's `e2e5`: impossible on its own
    /// board, so it is never accepted).
    struct Stubborn(PlayerView);

    impl Agent for Stubborn {
        fn name(&self) -> &str {
            "stubborn"
        }
        fn view(&self) -> &PlayerView {
            &self.0
        }
        fn hear_opening(&mut self, announcements: &[Announcement]) {
            self.0.hear_opening(announcements.iter().copied());
        }
        fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
            self.0.observe(observation)
        }
        fn choose(&mut self) -> Command {
            Command::Attempt("e2e5".parse().expect("uci"))
        }
    }

    /// An agent repeating a rejected command does not hang the game: past
    /// [`MAX_COMMANDS_PER_TURN`] commands in a turn the harness resigns for it.
    #[test]
    fn an_agent_that_repeats_itself_forfeits_instead_of_hanging_the_game() {
        let rules = *RuleSetId::Wild16.rules();
        let mut umpire = Umpire::new(rules);
        let mut white = Stubborn(PlayerView::standard(rules, Color::White));
        let mut black = Stubborn(PlayerView::standard(rules, Color::Black));
        let stats = play_match(&mut umpire, [&mut white, &mut black], 100, &mut ()).unwrap();
        assert_eq!(stats.forfeits, [1, 0]);
        assert_eq!(stats.plies, 0);
        assert_eq!(stats.attempts, u64::from(MAX_COMMANDS_PER_TURN) + 1);
        let result = umpire.result().expect("the game ended");
        assert_eq!(result.winner, Some(Color::Black));
    }
}
