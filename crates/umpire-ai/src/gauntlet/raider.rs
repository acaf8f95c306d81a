//! [`RaiderAgent`]: an aggressive club player that hears only its own announcements.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use umpire_belief::Belief;
use umpire_rules::shakmaty::{Chess, Color, Position, Role};
use umpire_rules::{Announcement, AttemptList, Command, Observation};
use umpire_view::guided::{FilterSet, GuidedSpace};
use umpire_view::{PlayerView, ViewError};

use crate::darkboard::mate::answers_to;
use crate::eval::material_value;
use crate::{Agent, Budget};

/// The bound of the raider's belief (a few milliseconds a move).
pub const RAIDER_BELIEF_BOUND: usize = 256;

/// The belief positions the raider weighs each decision over.
pub const RAIDER_WORLDS: usize = 24;

/// Below this share of its worlds a check is not "likely" and earns nothing.
pub const LIKELY_CHECK: f64 = 0.3;

/// Moves before which the queen and rooks are brought out (the raid's opening).
pub const RAID_OPENING_PLIES: u32 = 30;

/// What one attempt promises over the worlds the raider weighs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Promise {
    /// Worlds in which it is legal.
    legal: f64,
    /// Material it takes, summed over the worlds (pawns).
    taken: f64,
    /// Worlds in which it checks.
    checks: f64,
    /// Worlds in which it mates.
    mates: f64,
}

/// Plays like an aggressive club player, from what it heard only (its [`Belief`], fed only its
/// observations, like every fair agent's):
///
/// 1. recaptures on the square just announced ([`umpire_view::TurnKnowledge::capture_at`])
///    with its cheapest man that reaches it;
/// 2. otherwise takes what its tries and belief promise: each attempt is scored by the material
///    it takes on average over up to [`RAIDER_WORLDS`] positions of the belief, a mate above
///    all, a check where at least [`LIKELY_CHECK`] of them say it checks;
/// 3. in the first [`RAID_OPENING_PLIES`] moves prefers queen and rook moves towards the enemy;
/// 4. asks "Any?" whenever it may (it wants every pawn capture there is).
///
/// It never weighs what it leaves hanging: that is what it punishes in others. Seeded; it
/// ignores node budgets, and its belief's repairs stay within a time budget
/// ([`crate::time_bound`]).
#[derive(Clone, Debug)]
pub struct RaiderAgent {
    view: PlayerView,
    belief: Option<Belief>,
    rng: Xoshiro256PlusPlus,
    options: AttemptList,
    worlds: Vec<Chess>,
    promises: Vec<Promise>,
    /// Positions drawn from the belief when the raider's turn began, to restart it from.
    guesses: Vec<Chess>,
    budget: Budget,
    seed: u64,
}

impl RaiderAgent {
    /// A raider with this view, seeded; `start` is the public start position (`None`: no
    /// belief, and it plays from its own board and the announcements alone); `budget` bounds its
    /// belief's repairs.
    pub fn new(view: PlayerView, seed: u64, start: Option<Chess>, budget: Budget) -> RaiderAgent {
        let config = crate::time_bound::belief_config(RAIDER_BELIEF_BOUND, seed, budget);
        let belief = start.and_then(|s| Belief::new(*view.rules(), s, view.side(), config).ok());
        RaiderAgent {
            view,
            belief,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x7261_6964),
            options: AttemptList::new(),
            worlds: Vec::new(),
            promises: Vec::new(),
            guesses: Vec::new(),
            budget,
            seed,
        }
    }

    /// The belief, while it holds.
    pub fn belief(&self) -> Option<&Belief> {
        self.belief.as_ref()
    }

    /// Weighs each option over the worlds into `self.promises`.
    fn weigh(&mut self) {
        self.worlds.clear();
        if let Some(belief) = &self.belief {
            crate::darkboard::mate::belief_worlds(belief, &mut self.rng, &mut self.worlds);
            self.worlds.truncate(RAIDER_WORLDS);
        }
        self.promises.clear();
        self.promises.resize(self.options.len(), Promise::default());
        for pos in &self.worlds {
            for m in pos.legal_moves() {
                let Some(i) = self.options.iter().position(|&a| answers_to(&m, a)) else {
                    continue;
                };
                let p = &mut self.promises[i];
                p.legal += 1.0;
                p.taken += m.capture().map_or(0.0, material_value);
                let mut after = pos.clone();
                after.play_unchecked(m);
                if after.is_check() {
                    p.checks += 1.0;
                    if after.is_checkmate() {
                        p.mates += 1.0;
                    }
                }
            }
        }
    }

    /// The raid's score of option `i`.
    fn score(&self, i: usize, salt: u64) -> f64 {
        let a = self.options[i];
        let own = self.view.own_board();
        let side = self.view.side();
        let role = own.board().role_at(a.from);
        let mut score = 0.0;
        // The recapture on the announced square, the cheaper the man the better.
        if self.view.turn().capture_at == Some(a.to) {
            score += 30.0 - role.map_or(0.0, material_value);
        }
        let n = self.worlds.len() as f64;
        if n > 0.0 {
            let p = self.promises[i];
            score += 3.0 * p.taken / n;
            score += 200.0 * p.mates / n;
            let checks = p.checks / n;
            if checks >= LIKELY_CHECK {
                score += 4.0 * checks;
            }
            if p.legal == 0.0 {
                score -= 5.0;
            }
        } else if own.is_pawn_capture(a) {
            // No belief: the tries say a pawn capture may be there.
            score += 6.0;
        }
        if self.view.plies() < RAID_OPENING_PLIES && matches!(role, Some(Role::Queen | Role::Rook))
        {
            let forward = match side {
                Color::White => i32::from(a.to.rank() as u8) - i32::from(a.from.rank() as u8),
                Color::Black => i32::from(a.from.rank() as u8) - i32::from(a.to.rank() as u8),
            };
            score += 1.0 + 0.3 * f64::from(forward.max(0));
        }
        score + noise(salt, i)
    }
}

/// A tie-breaker in [0, 0.5) for option `i`, from the decision's `salt`.
fn noise(salt: u64, i: usize) -> f64 {
    let mut h = salt ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    (h % 1000) as f64 / 2000.0
}

impl Agent for RaiderAgent {
    fn name(&self) -> &str {
        "raider"
    }

    fn view(&self) -> &PlayerView {
        &self.view
    }

    fn hear_opening(&mut self, announcements: &[Announcement]) {
        self.view.hear_opening(announcements.iter().copied());
    }

    fn observe(&mut self, observation: &Observation) -> Result<(), ViewError> {
        self.view.observe(observation)?;
        let turn_begins = observation.actor != self.view.side() && observation.moved;
        let dead = match &mut self.belief {
            Some(belief) => belief.observe(observation).is_err() || belief.held() == 0,
            None => turn_begins && !self.guesses.is_empty(),
        };
        if dead {
            self.seed = self.seed.wrapping_add(1);
            let config =
                crate::time_bound::belief_config(RAIDER_BELIEF_BOUND, self.seed, self.budget);
            // The yardstick's restart, unchanged by the agents' (`restart_plain`).
            self.belief = crate::restart::restart_plain(&self.view, &self.guesses, config);
        } else if let Some(belief) = &self.belief
            && turn_begins
        {
            self.guesses.clear();
            self.guesses.extend(
                belief
                    .sample(crate::mcts::RESEED_GUESSES, &mut self.rng)
                    .into_iter()
                    .filter(|p| p.turn() == self.view.side()),
            );
        }
        Ok(())
    }

    fn choose(&mut self) -> Command {
        self.options.clear();
        let mut may_ask =
            GuidedSpace::new(&self.view, FilterSet::all_sound()).options(&mut self.options);
        if self.options.is_empty() && !may_ask {
            may_ask = self.view.options(&mut self.options);
        }
        if may_ask {
            return Command::AskAny;
        }
        if self.options.is_empty() {
            // Never in a legal position; resigning keeps a corrupt game well-formed.
            return Command::Resign;
        }
        let salt: u64 = self.rng.random();
        self.weigh();
        let best = (0..self.options.len())
            .map(|i| (i, self.score(i, salt)))
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(i, _)| i);
        match best {
            Some(i) => Command::Attempt(self.options[i]),
            None => Command::Resign,
        }
    }
}

/// The attempt of `options` that recaptures on `square` with the cheapest man, if any.
#[cfg(test)]
fn cheapest_to(
    options: &[umpire_rules::Attempt],
    view: &PlayerView,
    square: umpire_rules::shakmaty::Square,
) -> Option<umpire_rules::Attempt> {
    options
        .iter()
        .filter(|a| a.to == square)
        .min_by(|x, y| {
            let v = |a: &umpire_rules::Attempt| {
                view.own_board()
                    .board()
                    .role_at(a.from)
                    .map_or(0.0, material_value)
            };
            v(x).total_cmp(&v(y))
        })
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::shakmaty::Square;
    use umpire_rules::{Attempt, RuleSet, Umpire};

    /// Plays `moves` (UCI, all legal) in a fresh wild16 game, telling the raider (seated as
    /// `side`) what it hears.
    fn replay(side: Color, moves: &[&str], seed: u64) -> (RaiderAgent, Umpire) {
        let rules = RuleSet::WILD16;
        let mut umpire = Umpire::new(rules);
        let mut raider = RaiderAgent::new(
            PlayerView::standard(rules, side),
            seed,
            Some(Chess::default()),
            Budget::default(),
        );
        let opening = crate::opening_heard(&umpire);
        raider.hear_opening(&opening);
        for uci in moves {
            let command = Command::Attempt(Attempt::from_uci(uci).unwrap());
            let outcome = umpire.submit(command);
            assert_eq!(outcome.verdict, umpire_rules::Verdict::Accepted, "{uci}");
            crate::play_observations(&mut raider, side, command, &outcome).unwrap();
        }
        (raider, umpire)
    }

    #[test]
    fn the_raider_recaptures_on_the_announced_square() {
        // 1.e4 d5 2.exd5: Black hears a capture on d5 and recaptures with the queen (its only
        // man that reaches d5).
        for seed in 0..4 {
            let (mut raider, _) = replay(Color::Black, &["e2e4", "d7d5", "e4d5"], seed);
            assert_eq!(raider.view().turn().capture_at, Some(Square::D5));
            match raider.choose() {
                Command::Attempt(a) => assert_eq!((a.from, a.to), (Square::D8, Square::D5)),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_raider_recaptures_with_its_cheapest_man() {
        // 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.Bxf7+: the king, the only man that reaches f7, takes.
        // 1.d4 e5 2.dxe5 d6 3.exd6: the pawn c7 and the bishop f8 and the queen d8 reach d6;
        // the pawn takes.
        let (mut raider, _) = replay(Color::Black, &["d2d4", "e7e5", "d4e5", "d7d6", "e5d6"], 1);
        let mut options = AttemptList::new();
        raider.view().options(&mut options);
        assert_eq!(
            cheapest_to(&options, raider.view(), Square::D6).map(|a| a.from),
            Some(Square::C7)
        );
        match raider.choose() {
            Command::Attempt(a) => assert_eq!((a.from, a.to), (Square::C7, Square::D6)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_raider_mates_when_its_belief_says_it_mates() {
        // A set-up start is known exactly: Ra8 mates in every world.
        let start: Chess = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
            .parse::<umpire_rules::shakmaty::fen::Fen>()
            .unwrap()
            .into_position(umpire_rules::shakmaty::CastlingMode::Standard)
            .unwrap();
        for seed in 0..4 {
            let view = crate::setup_view(RuleSet::WILD16, &start, Color::White);
            let mut raider = RaiderAgent::new(view, seed, Some(start.clone()), Budget::default());
            match raider.choose() {
                Command::Attempt(a) => assert_eq!((a.from, a.to), (Square::A1, Square::A8)),
                other => panic!("{other:?}"),
            }
        }
    }
}
