//! [`GuidedSpace`]: the attempts offered to a player once the switched-on filters have hidden
//! what cannot (or, for heuristic filters, probably cannot) be legal.

use umpire_rules::shakmaty::{Bitboard, File, Role, Square, attacks};
use umpire_rules::{Attempt, AttemptList, CheckKind, PawnCaptureInfo};

use super::own_board::own_board_rule;
use super::pins::pin_free;
use super::{FilterId, FilterSet, Inference};
use crate::PlayerView;

/// The guided action space of one player on its turn: the view, the filters switched on and
/// what the player can deduce this turn, worked out once.
#[derive(Clone, Debug)]
pub struct GuidedSpace<'v> {
    view: &'v PlayerView,
    filters: FilterSet,
    inference: Inference,
    reach: Option<Bitboard>,
}

impl<'v> GuidedSpace<'v> {
    /// The guided space of `view` with the `filters` switched on.
    pub fn new(view: &'v PlayerView, filters: FilterSet) -> GuidedSpace<'v> {
        let reach = if filters.contains(FilterId::B4) {
            view.enemy_reach()
        } else {
            None
        };
        GuidedSpace {
            view,
            filters,
            inference: Inference::of(view),
            reach,
        }
    }

    /// The player's view.
    pub fn view(&self) -> &'v PlayerView {
        self.view
    }

    /// What the player can deduce this turn.
    pub fn inference(&self) -> &Inference {
        &self.inference
    }

    /// The filters switched on.
    pub fn filters(&self) -> FilterSet {
        self.filters
    }

    /// Appends the offered attempts to `out`: every attempt possible on the player's own board
    /// (B1–B3 always shape this starting set), only pawn captures while a "yes" to "Any?"
    /// obliges the player, minus every attempt a switched-on filter hides. Returns whether
    /// "Any?" may be asked as well. Nothing is offered when it is not the player's turn.
    pub fn options(&self, out: &mut AttemptList) -> bool {
        if !self.view.is_my_turn() {
            return false;
        }
        let own = self.view.own_board();
        let start = out.len();
        own.attempts(self.view.rules().promotion_always_queen, out);
        let obliged = self.view.turn().must_try_pawn_capture;
        let mut i = start;
        while i < out.len() {
            let a = out[i];
            if (!obliged || own.is_pawn_capture(a)) && self.hidden_by(a).is_empty() {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
        self.view.rules().has_any_question() && self.view.turn().any_answer.is_none()
    }

    /// The switched-on filters that hide `attempt`, in seed order; empty if none does. An
    /// attempt impossible on the own board gets only the own-board rule it breaks (B1, B2 or
    /// B3). The obligation to try pawn captures after "Any?" is a rule, not a filter, and is
    /// not reported.
    pub fn why_hidden(&self, attempt: Attempt) -> Vec<FilterId> {
        self.hidden_by(attempt).iter().collect()
    }

    /// The switched-on filters that hide `attempt`, as a set (no allocation).
    pub fn hidden_by(&self, attempt: Attempt) -> FilterSet {
        self.all_hiding(attempt).intersect(self.filters)
    }

    /// Every filter that would hide `attempt`, switched on or not.
    fn all_hiding(&self, a: Attempt) -> FilterSet {
        let view = self.view;
        let own = view.own_board();
        let mut hide = FilterSet::EMPTY;
        if let Some(rule) = own_board_rule(own, a, view.rules().promotion_always_queen) {
            return hide.with(rule, true);
        }
        let Some(role) = own.board().role_at(a.from) else {
            return hide;
        };
        let inf = &self.inference;
        let turn = view.turn();
        let pawn_capture = own.is_pawn_capture(a);
        let push = role == Role::Pawn && !pawn_capture;
        let slider = matches!(role, Role::Bishop | Role::Rook | Role::Queen);
        let king_move = role == Role::King;
        let castling = king_move && a.from.distance(a.to) == 2;
        let path = attacks::between(a.from, a.to);
        // The squares that must be empty for castling: between king and rook.
        let castle_path = if castling {
            let rook_file = if a.to.file() > a.from.file() {
                File::H
            } else {
                File::A
            };
            let rook = Square::from_coords(rook_file, a.from.rank());
            attacks::between(a.from, rook)
        } else {
            Bitboard::EMPTY
        };
        // For a pawn capture: the square of the pawn an en-passant capture would take.
        let passed = Square::from_coords(a.to.file(), a.from.rank());

        if turn
            .rejected
            .iter()
            .any(|r| r.from == a.from && r.to == a.to)
        {
            hide.insert(FilterId::A1);
        }
        if !inf.in_check()
            && (slider || push)
            && turn
                .rejected
                .iter()
                .any(|r| r.from == a.from && path.contains(r.to))
        {
            hide.insert(FilterId::A2);
        }
        // Whether the attempt passes or lands on a square known to hold an enemy man.
        let crosses = |held: Bitboard| {
            (slider && (path & held).any())
                || (push && (path.with(a.to) & held).any())
                || (castle_path & held).any()
        };
        if crosses(inf.sonar()) {
            hide.insert(FilterId::A3);
        }
        if let Some(king) = inf.king() {
            let off_line = !attacks::aligned(king, a.from, a.to);
            if slider && inf.pin_guesses().contains(a.from) && off_line {
                hide.insert(FilterId::A4_1);
            }
            if !king_move && inf.certain_pins().contains(a.from) && off_line {
                hide.insert(FilterId::A4_1_1);
            }
            if role == Role::Pawn && inf.frozen_pawns().contains(a.from) && off_line {
                hide.insert(FilterId::A4_2);
            }
        }
        if crosses(inf.pinner_sites()) {
            hide.insert(FilterId::A4_1_1);
        }
        if pawn_capture
            && self
                .reach
                .is_some_and(|r| !r.contains(a.to) && !r.contains(passed))
        {
            hide.insert(FilterId::B4);
        }
        if pawn_capture && self.pawn_info_rules_out(a.from) {
            hide.insert(FilterId::C1);
        }
        if let Some(site) = inf.attacker_site() {
            if (slider && path.contains(site)) || castle_path.contains(site) {
                hide.insert(FilterId::C2);
            }
            if push && path.with(a.to).contains(site) {
                hide.insert(FilterId::C3);
            }
            if pawn_capture
                && inf
                    .sole_tries()
                    .is_some_and(|pawns| !(a.to == site && pawns.contains(a.from)))
            {
                hide.insert(FilterId::C4);
            }
        }
        if pawn_capture && let Some(king) = inf.king() {
            // A capture is among the certain tries if it lands on a held square and its pawn
            // cannot be pinned off its line.
            let men = own.board().occupied();
            let certain = |held: Bitboard| held.contains(a.to) && pin_free(men, king, a.from, a.to);
            if inf.sole_tries_sonar().is_some_and(|h| !certain(h)) {
                hide.insert(FilterId::A3);
            }
            if inf.sole_tries_pinners().is_some_and(|h| !certain(h)) {
                hide.insert(FilterId::A4_1_1);
            }
        }
        if pawn_capture && inf.vacated_site() == Some(a.to) {
            hide.insert(FilterId::C5);
        }
        if inf.in_check() {
            let sites = inf.check_sites();
            if castling
                || !(king_move || sites.contains(a.to) || (pawn_capture && sites.contains(passed)))
            {
                hide.insert(FilterId::C6);
            }
            let cut = inf.check_cut();
            if !king_move && cut.any() {
                let kept = sites & !cut;
                let on = |b: Bitboard| b.contains(a.to) || (pawn_capture && b.contains(passed));
                if on(sites) && !on(kept) {
                    hide.insert(FilterId::A3_2);
                }
            }
            if inf.double_check() && (!king_move || castling) {
                hide.insert(FilterId::C6_1);
            }
            if push && inf.terminal_check_sites().contains(a.to) {
                hide.insert(FilterId::C7);
            }
        }
        if let (Some(sites), Some(site), Some(king)) =
            (inf.checker_sites(), inf.attacker_site(), inf.king())
        {
            let line_check = CheckKind::classify(site, king) != CheckKind::Knight;
            if king_move
                && !castling
                && line_check
                && site.distance(king) > 1
                && attacks::ray(king, site).contains(a.to)
            {
                hide.insert(FilterId::C8);
            }
            if !king_move && !inf.double_check() && !sites.contains(a.to) {
                hide.insert(FilterId::C9);
            }
        }
        hide
    }

    /// Whether this turn's pawn-capture announcement rules out a capture by the pawn on `from`.
    fn pawn_info_rules_out(&self, from: Square) -> bool {
        let turn = self.view.turn();
        if turn.any_answer == Some(false) {
            return true;
        }
        match self.view.rules().pawn_captures {
            PawnCaptureInfo::Count => turn.pawn_tries == Some(0),
            PawnCaptureInfo::TrySquares => turn.try_squares.is_some_and(|s| !s.contains(from)),
            PawnCaptureInfo::YesNo => turn.has_pawn_capture == Some(false),
            PawnCaptureInfo::None | PawnCaptureInfo::AskAny(_) => false,
        }
    }
}

/// Appends the attempts offered to the player of `view` under `filters` to `out` and returns
/// whether "Any?" may be asked (see [`GuidedSpace::options`]).
pub fn guided_options(view: &PlayerView, filters: &FilterSet, out: &mut AttemptList) -> bool {
    GuidedSpace::new(view, *filters).options(out)
}

/// Every switched-on filter that hides `attempt` from the player of `view`; empty if offered
/// (see [`GuidedSpace::why_hidden`]).
pub fn why_hidden(view: &PlayerView, filters: &FilterSet, attempt: Attempt) -> Vec<FilterId> {
    GuidedSpace::new(view, *filters).why_hidden(attempt)
}
