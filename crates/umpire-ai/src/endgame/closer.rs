//! [`NetCloser`]: the mating method beyond the tables (`darkboard`'s net, see
//! `darkboard/net.rs`) for an agent that has none of its own.
//!
//! It keeps what the method needs from the player's observations alone — the metaposition, the
//! enemy king's squares as the net keeps them, and the player's own moves for the terms against
//! repetition and for progress — and, while the enemy is down to its king and at most two men
//! that may all be pawns and the player has mating material, chooses the attempt the net scores
//! best. Elsewhere it says nothing and the wrapped agent decides.

use umpire_belief::Metaposition;
use umpire_rules::{Attempt, AttemptList, Command, Observation, Verdict};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

use super::stalemate_guard::StalemateGuard;
use crate::Analysis;
use crate::darkboard::capture_tries::{add_capture_tries, lone_heavy};

/// The player's count of the fifty-move clock from which [`NetCloser::hands_over`] leaves a lone
/// heavy piece's ending against pawns to the wrapped agent's search.
pub const HAND_OVER_AT: u32 = 60;
use crate::darkboard::net_worlds::KingWorlds;
use crate::darkboard::root_terms::OwnHistory;
use crate::darkboard::{metaposition_of, net};

/// The net's state for one player (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct NetCloser {
    meta: Metaposition,
    kings: KingWorlds,
    history: OwnHistory,
    options: AttemptList,
    bonus: Vec<f32>,
    scores: Vec<net::Scored>,
    /// The king squares counted soundly past possible pawns, for the stalemate shares (`None`:
    /// the net as before the guard).
    guard: Option<StalemateGuard>,
    /// Per option, the larger of the guard's stalemate share and the wrapped agent's.
    risks: Vec<f32>,
    /// Whether tries onto squares where an enemy pawn may stand earn a bonus as the fifty-move
    /// clock runs (`darkboard/capture_tries.rs`).
    tries: bool,
}

impl NetCloser {
    /// The closer of the player of `view` (at the start of its game, or of the standard start
    /// with observations taken in).
    pub fn new(view: &PlayerView) -> NetCloser {
        NetCloser {
            meta: metaposition_of(view),
            kings: KingWorlds::default(),
            history: OwnHistory::default(),
            options: AttemptList::new(),
            bonus: Vec::new(),
            scores: Vec::new(),
            guard: Some(StalemateGuard::default()),
            risks: Vec::new(),
            tries: true,
        }
    }

    /// This closer with the stalemate guard (`guarded`, as [`NetCloser::new`] builds it) or
    /// without it (the net as the yardsticks' `raider` had it when it was set).
    pub fn guarded(mut self, guarded: bool) -> NetCloser {
        if !guarded {
            self.guard = None;
        }
        self
    }

    /// This closer with the capture tries' term as the clock runs (`tries`, as
    /// [`NetCloser::new`] builds it) or without it (the net as the yardsticks' `raider` had it
    /// when it was set).
    pub fn trying(mut self, tries: bool) -> NetCloser {
        self.tries = tries;
        self
    }

    /// Whether the net should leave the decision to the wrapped agent's search as the
    /// fifty-move clock runs out: with the capture tries on, a lone rook or queen (at most one
    /// minor piece beside it, [`lone_heavy`]) against enemy men that may be pawns and the
    /// player's count at `plies` of [`HAND_OVER_AT`] or more. The net's terms look one move
    /// ahead; taking a blocked pawn takes two or more (session 10: game 27 of the `mcts@4000`
    /// against `raider` row, seed 29, KRP against KPP, drawn 4 ahead while the net shuffled).
    pub fn hands_over(&self, plies: u32) -> bool {
        self.tries && plies >= HAND_OVER_AT && self.meta.pawns().1 > 0 && lone_heavy(&self.meta)
    }

    /// The opening announcements were heard (`view` has taken them in).
    pub fn hear_opening(&mut self, view: &PlayerView) {
        if view.transcript().is_empty() {
            self.meta = Metaposition::start(view);
        }
    }

    /// `observation` was heard (`view` has taken it in).
    pub fn observe(&mut self, view: &PlayerView, observation: &Observation) {
        self.meta.observe(observation);
        if observation.actor != view.side() && observation.moved {
            self.kings.opponent_moved(&self.meta);
            if let Some(guard) = &mut self.guard {
                guard.opponent_moved(&self.meta);
            }
            if view.turn().capture_at.is_some() {
                self.history.taken(view.own_board());
            }
        }
        if let Some(own) = observation.own
            && let (Command::Attempt(a), Verdict::Accepted) = (own.command, own.verdict)
        {
            self.history.moved(a, view.own_board());
        }
    }

    /// The attempts the net chooses among for `view`, when the method applies and the player
    /// has attempts to choose from (while "Any?" may find an enemy pawn to take, the wrapped
    /// agent decides whether to ask); then [`NetCloser::pick`] chooses.
    pub fn options(&mut self, view: &PlayerView) -> Option<&[Attempt]> {
        if !net::applies(&self.meta) {
            self.kings.forget();
            if let Some(guard) = &mut self.guard {
                guard.forget();
            }
            return None;
        }
        self.options.clear();
        let may_ask = GuidedSpace::new(view, FilterSet::all_sound()).options(&mut self.options);
        // Asking "Any?" pays only where an enemy pawn may stand; then the wrapped agent decides.
        if (may_ask && self.meta.pawns().1 > 0) || self.options.is_empty() {
            return None;
        }
        self.options.sort();
        let clock = self.meta.halfmoves().map_or(0, |(_, hi)| hi);
        self.history
            .bonus(view.own_board(), clock, &self.options, &mut self.bonus);
        if self.tries {
            add_capture_tries(&self.meta, clock, &self.options, &mut self.bonus);
        }
        Some(&self.options)
    }

    /// The net's attempt among the last [`NetCloser::options`], and its analysis; `stalemates`,
    /// if given, is per option the share of the wrapped agent's positions in which it
    /// stalemates (charged like the net's own stalemates: the metaposition may have lost track
    /// of a pawn that the agent's belief still knows). Each option is charged the larger of that
    /// share and the stalemate guard's (`stalemate_guard.rs`: counted where the net's squares
    /// may have dropped the king's true one), unless the closer is [unguarded](NetCloser::guarded).
    pub fn pick(&mut self, stalemates: Option<&[f32]>) -> (Attempt, Analysis) {
        let kings = self.kings.worlds(&self.meta);
        match &mut self.guard {
            Some(guard) => guard.shares(&self.meta, &self.options, &mut self.risks),
            None => {
                self.risks.clear();
                self.risks.resize(self.options.len(), 0.0);
            }
        }
        if let Some(given) = stalemates {
            for (risk, &s) in self.risks.iter_mut().zip(given) {
                *risk = risk.max(s);
            }
        }
        net::choose(
            &self.meta,
            kings,
            &self.options,
            &self.bonus,
            Some(&self.risks),
            &mut self.scores,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::Color;

    fn closer(fen: &str) -> NetCloser {
        let start = umpire_testkit::pos(fen);
        NetCloser::new(&crate::setup_view(RuleSet::WILD16, &start, Color::White))
    }

    #[test]
    fn a_lone_rook_against_pawns_goes_to_the_search_as_the_clock_runs_out() {
        let rook = closer("8/8/8/3p4/3P4/8/8/R3K2k w - - 0 1");
        assert!(!rook.hands_over(HAND_OVER_AT - 1));
        assert!(rook.hands_over(HAND_OVER_AT));
        // Without the capture tries (`raider`'s net), or with more men, the net keeps it.
        assert!(!rook.trying(false).hands_over(99));
        assert!(!closer("8/8/8/3p4/3P4/8/8/R2RK2k w - - 0 1").hands_over(99));
        // Against a lone king there is no pawn to take.
        assert!(!closer("8/8/8/8/3P4/8/8/R3K2k w - - 0 1").hands_over(99));
    }
}
