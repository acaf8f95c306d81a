//! Histories paired by entitlement: two true games in which one player (the observer) is
//! entitled, by the [`Oracle`], to exactly the same things step by step, while the opponent's
//! commands, and so the true positions, differ.
//!
//! Everything the observer receives through any channel must then be byte-identical in both
//! games. A channel is one function from the observer's filtered record
//! ([`umpire_rules::record::PlayerView`], which holds only its observations and the public
//! facts) to bytes; see [`Channel`] and [`paired_game`].

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_rules::record::{Game, PlayerView, Record};
use umpire_rules::shakmaty::{Color, Position};
use umpire_rules::{Announcement, Attempt, Command, RuleSet, Umpire};

use crate::driver::random_command;
use crate::oracle::{Entitlement, Oracle};

/// One way a player receives the game, as bytes: the player's filtered record in, what the
/// player would be sent out. Two histories paired by entitlement must give equal bytes.
pub type Channel<'a> = (&'a str, &'a dyn Fn(&PlayerView) -> Vec<u8>);

/// What to pair.
#[derive(Clone, Debug)]
pub struct PairConfig {
    /// The rule set.
    pub rules: RuleSet,
    /// A set-up start position, or the standard one.
    pub fen: Option<String>,
    /// The player whose entitlements are kept equal.
    pub observer: Color,
    /// The seed of every random choice.
    pub seed: u64,
    /// Stop after this many commands.
    pub max_commands: u32,
}

/// What a paired game exercised, counted over the steps where the true positions differed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exercised {
    /// Commands judged in each game.
    pub commands: u64,
    /// Moves played while the true positions differed.
    pub plies_apart: u64,
    /// Moves played in all.
    pub plies: u64,
    /// Captures the observer heard while apart.
    pub captures: u64,
    /// Check announcements the observer heard while apart.
    pub checks: u64,
    /// Promotions played (in either game) while apart.
    pub promotions: u64,
    /// En-passant captures played (in either game) while apart.
    pub en_passant: u64,
    /// Castlings played (in either game) while apart.
    pub castling: u64,
    /// "Any?" answers the observer heard while apart.
    pub any: u64,
    /// Draw offers, answers and lapses the observer heard while apart.
    pub draws: u64,
    /// Opponent commands the observer heard nothing of, while apart.
    pub unheard: u64,
    /// Whether the pairing ended because no command kept the entitlements equal (rather than
    /// the game ending or the command limit).
    pub broke: bool,
}

impl Exercised {
    /// Adds another count (`broke` is or-ed).
    pub fn add(&mut self, o: &Exercised) {
        self.commands += o.commands;
        self.plies_apart += o.plies_apart;
        self.plies += o.plies;
        self.captures += o.captures;
        self.checks += o.checks;
        self.promotions += o.promotions;
        self.en_passant += o.en_passant;
        self.castling += o.castling;
        self.any += o.any;
        self.draws += o.draws;
        self.unheard += o.unheard;
        self.broke |= o.broke;
    }
}

/// One side of a pair: the recording game and the oracle following it.
#[derive(Clone)]
pub(crate) struct Side {
    pub(crate) game: Game,
    pub(crate) oracle: Oracle,
}

impl Side {
    pub(crate) fn new(cfg: &PairConfig, seed_tag: u64) -> Side {
        let mut game = match &cfg.fen {
            Some(fen) => Game::from_fen(cfg.rules, fen).expect("valid set-up position"),
            None => Game::new(cfg.rules),
        };
        // Private tags differ between the two games: a player's view must not carry them.
        game.set_tag("Seed", &seed_tag.to_string())
            .expect("valid tag");
        game.set_tag("White", "paired").expect("valid tag");
        let oracle = Oracle::new(cfg.rules, game.umpire().position().clone());
        Side { game, oracle }
    }

    /// What `player` is entitled to of `command` given by `by`, judged on copies.
    pub(crate) fn trial(
        &self,
        by: Color,
        command: Command,
        player: Color,
    ) -> (Entitlement, Umpire) {
        let mut umpire = self.game.umpire().clone();
        let outcome = umpire.submit_as(by, command);
        let mut oracle = self.oracle.clone();
        let ents = oracle.judge(outcome.side, command, outcome.verdict);
        (ents[usize::from(player.is_black())].clone(), umpire)
    }

    /// Gives the command for real; returns the observer's entitlement.
    pub(crate) fn give(&mut self, by: Color, command: Command, player: Color) -> Entitlement {
        let outcome = self.game.submit_as(by, command);
        let ents = self.oracle.judge(outcome.side, command, outcome.verdict);
        ents[usize::from(player.is_black())].clone()
    }
}

/// A command of `by` in `b` that gives `me` the entitlement `(by, command)` gives it in `a`,
/// preferring one that leaves the true positions apart.
pub(crate) fn match_in(
    b: &Side,
    a: &Side,
    by: Color,
    command: Command,
    me: Color,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<(Color, Command)> {
    let (want, next_a) = a.trial(by, command, me);
    let mut candidates: Vec<(Color, Command)> = b
        .game
        .umpire()
        .position()
        .legal_moves()
        .iter()
        .filter_map(Attempt::from_move)
        .map(|x| (by, Command::Attempt(x)))
        .collect();
    for _ in 0..16 {
        let (x, c) = random_command(b.game.umpire(), rng);
        if x == by {
            candidates.push((x, c));
        }
    }
    candidates.push((by, command));
    candidates.shuffle(rng);
    let mut fallback = None;
    for (x, c) in candidates {
        let (got, next_b) = b.trial(x, c, me);
        if got == want {
            if next_b.position() != next_a.position() {
                return Some((x, c));
            }
            fallback.get_or_insert((x, c));
        }
    }
    fallback
}

fn count_special(before: &umpire_rules::shakmaty::Chess, command: Command, ex: &mut Exercised) {
    let Command::Attempt(a) = command else {
        return;
    };
    for m in before.legal_moves() {
        if Attempt::from_move(&m).is_some_and(|b| b.from == a.from && b.to == a.to) {
            ex.castling += u64::from(m.is_castle());
            ex.en_passant += u64::from(m.is_en_passant());
            ex.promotions += u64::from(m.is_promotion());
            return;
        }
    }
}

/// Plays one pair of games for `cfg.observer` and calls `check` with the observer's filtered
/// record of each game after every command (and once at the start). Returns what the pair
/// exercised. Every random choice comes from `cfg.seed`.
///
/// The observer's commands are chosen at random among those that give it equal entitlements
/// in both games; the opponent's command in the first game is random, and in the second any
/// command (preferring one that leaves the true positions apart) that gives the observer the
/// same entitlement. The pair ends when the games end, at `cfg.max_commands`, or when no
/// command keeps the entitlements equal.
pub fn paired_game(
    cfg: &PairConfig,
    check: impl FnMut(&PlayerView, &PlayerView, &str),
) -> Exercised {
    play_pair(cfg, check).0
}

/// The two true games of the pair [`paired_game`] plays for `cfg` (the same choices), for a
/// suite that replays them through another interface (the Python bindings' tests): command
/// `i` of one record is paired with command `i` of the other, and after each pair of commands
/// the observer is entitled to the same in both.
pub fn paired_records(cfg: &PairConfig) -> (Record, Record, Exercised) {
    let (ex, a, b) = play_pair(cfg, |_, _, _| {});
    (a, b, ex)
}

fn play_pair(
    cfg: &PairConfig,
    mut check: impl FnMut(&PlayerView, &PlayerView, &str),
) -> (Exercised, Record, Record) {
    let me = cfg.observer;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let mut a = Side::new(cfg, rng.random());
    let mut b = Side::new(cfg, rng.random());
    let mut ex = Exercised::default();
    let view = |s: &Side| s.game.record().player_view(me).expect("a player view");
    check(&view(&a), &view(&b), "start");
    assert_eq!(a.oracle.opening(), b.oracle.opening());
    while ex.commands < u64::from(cfg.max_commands) && !a.game.umpire().is_over() {
        let apart = a.game.umpire().position() != b.game.umpire().position();
        let before_a = a.game.umpire().position().clone();
        let before_b = b.game.umpire().position().clone();
        // Draw answers and resignations may come from either side; the observer's own
        // commands are any command given by the observer.
        let (by, command) = random_command(a.game.umpire(), &mut rng);
        let mut chosen_a: Option<(Color, Command)> = None;
        let chosen_b: Option<(Color, Command)> = if by == me {
            // The observer must act alike in both games: try its command, then others.
            let mut found = None;
            for attempt in 0..24 {
                let (by2, c) = if attempt == 0 {
                    (by, command)
                } else {
                    let (x, c) = random_command(a.game.umpire(), &mut rng);
                    if x != me {
                        continue;
                    }
                    (x, c)
                };
                if a.trial(by2, c, me).0 == b.trial(by2, c, me).0 {
                    found = Some((by2, c));
                    break;
                }
            }
            found
        } else {
            // The opponent is free in both games: try a few of its commands in the first game,
            // each against every legal move and some random commands in the second.
            let mut found = None;
            for round in 0..6 {
                let (by1, c1) = if round == 0 {
                    (by, command)
                } else {
                    random_command(a.game.umpire(), &mut rng)
                };
                if by1 == me {
                    continue;
                }
                if let Some(c2) = match_in(&b, &a, by1, c1, me, &mut rng) {
                    found = Some(((by1, c1), c2));
                    break;
                }
            }
            found.map(|(first, second)| {
                chosen_a = Some(first);
                second
            })
        };
        let Some((by_b, command_b)) = chosen_b else {
            ex.broke = true;
            break;
        };
        let (by_a, command_a) = chosen_a.unwrap_or((by_b, command_b));
        let ent_a = a.give(by_a, command_a, me);
        let ent_b = b.give(by_b, command_b, me);
        assert_eq!(ent_a, ent_b, "paired entitlements");
        ex.commands += 1;
        if ent_a.moved {
            ex.plies += 1;
        }
        if apart || a.game.umpire().position() != b.game.umpire().position() {
            if ent_a.moved {
                ex.plies_apart += 1;
            }
            count_special(&before_a, command_a, &mut ex);
            if command_b != command_a {
                count_special(&before_b, command_b, &mut ex);
            }
            for x in ent_a.announcements() {
                match x {
                    Announcement::Capture { .. } => ex.captures += 1,
                    Announcement::Check(_) => ex.checks += 1,
                    Announcement::AnyAnswer(_) => ex.any += 1,
                    Announcement::DrawOffered(_)
                    | Announcement::DrawDeclined(_)
                    | Announcement::DrawAccepted(_) => ex.draws += 1,
                    _ => {}
                }
            }
            if by_a != me && ent_a.is_silent() {
                ex.unheard += 1;
            }
        }
        check(
            &view(&a),
            &view(&b),
            &format!(
                "command {} ({by_a:?} {command_a:?} / {command_b:?})",
                ex.commands
            ),
        );
    }
    (ex, a.game.record().clone(), b.game.record().clone())
}
