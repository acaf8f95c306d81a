//! The guided action space in the players' words, for `umpire play` and `umpire connect`:
//! `options` (the attempts that could still be legal given what the player knows), `why
//! <move>` (which rules hide a move) and the count said after an illegal attempt.

use umpire_rules::{AttemptList, Command};
use umpire_view::PlayerView;
use umpire_view::guided::{FilterSet, GuidedSpace};

/// The line said after an illegal attempt while the player is still to move: how many
/// attempts could still be legal (every sound filter).
pub fn still_legal_text(me: &PlayerView) -> String {
    let mut left = AttemptList::new();
    let may_ask = GuidedSpace::new(me, FilterSet::all_sound()).options(&mut left);
    let n = left.len() + usize::from(may_ask);
    format!("{n} attempts could still be legal (`options` lists them).")
}

/// The attempts the guided action space (every sound filter) offers, and how many the own
/// board would allow.
pub fn options_text(me: &PlayerView) -> String {
    if !me.is_my_turn() {
        return "It is not your turn.".to_owned();
    }
    let mut own = AttemptList::new();
    me.options(&mut own);
    let mut list = AttemptList::new();
    let may_ask = GuidedSpace::new(me, FilterSet::all_sound()).options(&mut list);
    let mut names: Vec<String> = list.iter().map(ToString::to_string).collect();
    names.sort();
    if may_ask {
        names.push("any".to_owned());
    }
    let hidden = own.len().saturating_sub(list.len());
    let mut text = format!("{} still possible: {}", names.len(), names.join(" "));
    if hidden > 0 {
        text.push_str(&format!(
            "\n({hidden} more on your board cannot be legal given what you know; `why <move>` says why)"
        ));
    }
    text
}

/// Why the guided action space hides `what` (a move in SAN or UCI), in plain sentences with
/// the filters' ids in brackets.
pub fn why_text(me: &PlayerView, what: &str) -> String {
    if what.is_empty() {
        return "why what? Type `why` and a move, e.g. `why e2e4` or `why Nf3`.".to_owned();
    }
    let attempt = match me.own_board().parse_command(what) {
        Ok(Command::Attempt(a)) => a,
        Ok(_) => return format!("`{what}` is not a move."),
        Err(e @ umpire_rules::CommandParseError::NoSuchMove(_)) => {
            return super::typed_command::no_such_move(me, what, &e);
        }
        Err(e) => return e.to_string(),
    };
    if !me.is_my_turn() {
        return "It is not your turn.".to_owned();
    }
    let space = GuidedSpace::new(me, FilterSet::all_sound());
    let rules = space.why_hidden(attempt);
    if rules.is_empty() {
        let obliged = me.turn().must_try_pawn_capture && !me.own_board().is_pawn_capture(attempt);
        return if obliged {
            format!("{attempt} is not offered: after \"yes\" to Any? you must try pawn captures.")
        } else {
            format!("{attempt} is offered: it could be legal.")
        };
    }
    let mut text = format!("{attempt} cannot be legal:");
    for id in rules {
        text.push_str(&format!(
            "\n  {} [{}]",
            umpire_view::guided::explain(&space, id, attempt),
            id.as_str()
        ));
    }
    text
}
