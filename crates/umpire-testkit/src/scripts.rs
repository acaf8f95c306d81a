//! Paired histories as timed scripts, to be played through a real server (or any other
//! channel that runs in time): two games in which an audience (one player, or the spectators)
//! is entitled by the [`Oracle`](crate::oracle::Oracle) to the same things at the same
//! moments, while the opponent gives a different number of commands that audience hears
//! nothing of, at different moments.
//!
//! The commands the audience hears of come at the same moment in both games (the moment of a
//! command one hears is itself heard); each silent command comes at its own random moment
//! between two heard ones, and each game has its own number of them (often none in one game
//! and several in the other).

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::shakmaty::Color;
use umpire_rules::{AttemptList, Command, Umpire};

use crate::driver::random_command;
use crate::pairing::{Exercised, PairConfig, Side, match_in};

/// One command of a script: who gives it, what, and when (microseconds from the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Who gives it.
    pub by: Color,
    /// The command.
    pub command: Command,
    /// When, in microseconds from the game's start.
    pub at_us: u64,
    /// Whether it was inserted as a command the audience hears nothing of.
    pub silent: bool,
}

/// Who must not tell the two games apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// One player (`PairConfig::observer`): the opponent's heard commands may differ too, as
    /// long as they give this player the same entitlement.
    Player,
    /// The spectators, who hear what both players hear: the heard commands are the same in
    /// both games, and the games differ only in the silent commands of the side that is not
    /// `PairConfig::observer` (which neither the observer nor so the spectators hear of).
    Spectators,
}

/// Which commands a script may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commands {
    /// Any command a client can send (`driver::random_command`): attempts from the own board
    /// or not, garbage squares, "Any?", draw offers and answers, commands out of turn.
    Any,
    /// Only what an engine (docs/ENGINE.md) may answer to a `choose` request: an attempt among
    /// the mover's options (`Umpire::mover_options`, less what the mover heard rules out:
    /// `Umpire::rules_out`, as the player's view does) or "Any?" where it may be asked; so a
    /// script can be played by programs through `umpire match` and `umpire selfplay`.
    EngineChoices,
}

impl Commands {
    /// Whether a script of this kind may hold `command` given by `by` in `umpire`'s game.
    pub fn allows(self, umpire: &Umpire, by: Color, command: Command) -> bool {
        if !sendable(command) {
            return false;
        }
        match self {
            Commands::Any => true,
            Commands::EngineChoices => {
                if by != umpire.turn() || umpire.is_over() {
                    return false;
                }
                let mut options = AttemptList::new();
                let may_ask = umpire.mover_options(&mut options);
                match command {
                    Command::Attempt(a) => options.contains(&a) && !umpire.rules_out(a),
                    Command::AskAny => may_ask,
                    _ => false,
                }
            }
        }
    }
}

/// A random command of the kind `kinds`: for [`Commands::Any`] the driver's
/// (`driver::random_command`); for [`Commands::EngineChoices`] one of the mover's options
/// ("Any?" among them where it may be asked).
fn draw(kinds: Commands, umpire: &Umpire, rng: &mut Xoshiro256PlusPlus) -> (Color, Command) {
    match kinds {
        Commands::Any => random_command(umpire, rng),
        Commands::EngineChoices => {
            let mut options = AttemptList::new();
            let may_ask = umpire.mover_options(&mut options);
            options.retain(|a| !umpire.rules_out(*a));
            let n = options.len() + usize::from(may_ask);
            if n == 0 {
                return (umpire.turn(), Command::Resign);
            }
            let i = rng.random_range(0..n);
            let command = options
                .get(i)
                .map_or(Command::AskAny, |a| Command::Attempt(*a));
            (umpire.turn(), command)
        }
    }
}

/// Two scripts and what they exercised.
#[derive(Clone, Debug)]
pub struct PairedScripts {
    /// The first game's commands, in order.
    pub first: Vec<Step>,
    /// The second game's commands, in order.
    pub second: Vec<Step>,
    /// What the pair exercised (the silent commands inserted not counted).
    pub exercised: Exercised,
}

/// Whether a client can send `command` at all: an attempt from a square to itself is no move
/// (a server refuses the text before the umpire judges it, so the script and the game played
/// would part).
fn sendable(command: Command) -> bool {
    !matches!(command, Command::Attempt(a) if a.from == a.to)
}

/// Inserts up to `n` commands of `opponent` that `me` hears nothing of into `side`, at random
/// moments in `(from_us, to_us)`.
#[allow(clippy::too_many_arguments)]
fn insert_silent(
    side: &mut Side,
    steps: &mut Vec<Step>,
    opponent: Color,
    me: Color,
    n: u32,
    (from_us, to_us): (u64, u64),
    kinds: Commands,
    rng: &mut Xoshiro256PlusPlus,
) {
    let mut times: Vec<u64> = (0..n)
        .map(|_| rng.random_range(from_us + 1..to_us))
        .collect();
    times.sort_unstable();
    for at_us in times {
        for _ in 0..24 {
            if side.game.umpire().is_over() {
                return;
            }
            let (by, command) = draw(kinds, side.game.umpire(), rng);
            if by != opponent
                || !matches!(command, Command::Attempt(_))
                || !kinds.allows(side.game.umpire(), by, command)
            {
                continue;
            }
            let (ent, next) = side.trial(by, command, me);
            if !ent.is_silent() || next.position() != side.game.umpire().position() {
                continue;
            }
            let given = side.give(by, command, me);
            assert!(given.is_silent());
            steps.push(Step {
                by,
                command,
                at_us,
                silent: true,
            });
            break;
        }
    }
}

/// Plays one pair of scripts for `cfg.observer` (or the spectators). Every random choice
/// comes from `cfg.seed`; `max_silent` bounds the silent commands inserted before each heard
/// one in each game.
pub fn paired_scripts(cfg: &PairConfig, audience: Audience, max_silent: u32) -> PairedScripts {
    paired_scripts_of(cfg, audience, max_silent, Commands::Any)
}

/// [`paired_scripts`] holding only commands of the kind `kinds` (in both games).
pub fn paired_scripts_of(
    cfg: &PairConfig,
    audience: Audience,
    max_silent: u32,
    kinds: Commands,
) -> PairedScripts {
    let me = cfg.observer;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let mut a = Side::new(cfg, rng.random());
    let mut b = Side::new(cfg, rng.random());
    let mut ex = Exercised::default();
    let (mut first, mut second) = (Vec::new(), Vec::new());
    let mut t_us: u64 = 0;
    while ex.commands < u64::from(cfg.max_commands) && !a.game.umpire().is_over() {
        // The next heard command's moment, the same in both games; sub-millisecond parts on
        // purpose (a clock that rounds at silent commands shows them).
        let next_us = t_us + rng.random_range(2_000..400_000);
        if a.game.umpire().turn() != me && max_silent > 0 {
            let na = rng.random_range(0..=max_silent);
            let nb = rng.random_range(0..=max_silent);
            let span = (t_us, next_us);
            insert_silent(&mut a, &mut first, !me, me, na, span, kinds, &mut rng);
            insert_silent(&mut b, &mut second, !me, me, nb, span, kinds, &mut rng);
        }
        t_us = next_us;
        let mut chosen: Option<((Color, Command), (Color, Command))> = None;
        // (Engine choices are fewer: more tries before the pair is given up.)
        let tries = if kinds == Commands::Any { 24 } else { 240 };
        for _ in 0..tries {
            let (by, c) = draw(kinds, a.game.umpire(), &mut rng);
            if !kinds.allows(a.game.umpire(), by, c) || !kinds.allows(b.game.umpire(), by, c) {
                continue;
            }
            let same = |x: Color| a.trial(by, c, x).0 == b.trial(by, c, x).0;
            let fits = match audience {
                Audience::Spectators => same(Color::White) && same(Color::Black),
                Audience::Player => by == me && same(me),
            };
            if fits {
                chosen = Some(((by, c), (by, c)));
                break;
            }
            if audience == Audience::Player
                && by != me
                && let Some(c2) = match_in(&b, &a, by, c, me, &mut rng)
                && kinds.allows(b.game.umpire(), c2.0, c2.1)
            {
                chosen = Some(((by, c), c2));
                break;
            }
        }
        let Some(((by_a, command_a), (by_b, command_b))) = chosen else {
            ex.broke = true;
            break;
        };
        let ent_a = a.give(by_a, command_a, me);
        let ent_b = b.give(by_b, command_b, me);
        assert_eq!(ent_a, ent_b, "paired entitlements");
        ex.commands += 1;
        if ent_a.moved {
            ex.plies += 1;
        }
        if by_a != me && ent_a.is_silent() {
            ex.unheard += 1;
        }
        first.push(Step {
            by: by_a,
            command: command_a,
            at_us: t_us,
            silent: false,
        });
        second.push(Step {
            by: by_b,
            command: command_b,
            at_us: t_us,
            silent: false,
        });
    }
    PairedScripts {
        first,
        second,
        exercised: ex,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSetId;

    #[test]
    fn scripts_differ_in_how_many_silent_commands_and_when() {
        let mut differ_in_count = 0;
        for seed in 0..20 {
            let cfg = PairConfig {
                rules: *RuleSetId::Wild16.rules(),
                fen: None,
                observer: Color::White,
                seed,
                max_commands: 60,
            };
            let s = paired_scripts(&cfg, Audience::Player, 3);
            let silent = |v: &[Step]| v.iter().filter(|s| s.silent).count();
            differ_in_count += usize::from(silent(&s.first) != silent(&s.second));
            let heard = |v: &[Step]| {
                v.iter()
                    .filter(|s| !s.silent)
                    .map(|s| s.at_us)
                    .collect::<Vec<_>>()
            };
            assert_eq!(heard(&s.first), heard(&s.second));
            for v in [&s.first, &s.second] {
                assert!(v.windows(2).all(|w| w[0].at_us <= w[1].at_us));
            }
        }
        assert!(differ_in_count >= 10, "{differ_in_count}");
    }

    #[test]
    fn engine_scripts_hold_only_what_an_engine_may_answer() {
        let (mut commands, mut silent) = (0, 0);
        for (seed, rules) in RuleSetId::ALL.into_iter().enumerate() {
            let cfg = PairConfig {
                rules: *rules.rules(),
                fen: None,
                observer: if seed % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                seed: seed as u64,
                max_commands: 40,
            };
            let s = paired_scripts_of(&cfg, Audience::Player, 3, Commands::EngineChoices);
            for script in [&s.first, &s.second] {
                let mut umpire = Umpire::new(cfg.rules);
                for step in script {
                    assert!(
                        Commands::EngineChoices.allows(&umpire, step.by, step.command),
                        "{rules:?}: {step:?}"
                    );
                    umpire.submit_as(step.by, step.command);
                    commands += 1;
                    silent += usize::from(step.silent);
                }
            }
        }
        // The scripts are not cut short by the narrower choice, and hold silent commands.
        assert!(commands > 7 * 2 * 30, "{commands}");
        assert!(silent > 0);
    }
}
