//! The guided action space in the players' words, for `umpire play` and `umpire connect`:
//! `options` (the attempts that could still be legal given what the player knows), `why
//! <move>` (which rules hide a move) and the count said after an illegal attempt.

use umpire_rules::shakmaty::{Role, Square};
use umpire_rules::{Attempt, AttemptList, Command, OwnBoard};
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

/// `attempt` in SAN as the player would type it on the own board (`Nf3`, `Nbd2`, `exd5`,
/// `e8=Q`, `O-O`): no `x` for a piece, since whether it captures is not known.
pub fn own_san(board: &OwnBoard, attempt: Attempt) -> String {
    let men = board.board();
    let Some(role) = men.role_at(attempt.from) else {
        return attempt.to_string();
    };
    let (from, to) = (attempt.from, attempt.to);
    match role {
        Role::King if from.distance(to) == 2 => {
            return if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_owned();
        }
        Role::Pawn => {
            let mut text = if from.file() == to.file() {
                to.to_string()
            } else {
                format!("{}x{to}", from.file().char())
            };
            if let Some(p) = attempt.promotion {
                text.push('=');
                text.push(p.upper_char());
            }
            return text;
        }
        _ => {}
    }
    let rivals: Vec<Square> = men
        .by_role(role)
        .into_iter()
        .filter(|&sq| sq != from && board.destinations(sq).contains(to))
        .collect();
    let which = if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|sq| sq.file() != from.file()) {
        from.file().char().to_string()
    } else if rivals.iter().all(|sq| sq.rank() != from.rank()) {
        from.rank().char().to_string()
    } else {
        from.to_string()
    };
    format!("{}{which}{to}", role.upper_char())
}

/// The attempts the guided action space (every sound filter) offers, and how many the own
/// board would allow: in SAN when `san`, in UCI otherwise.
pub fn options_text(me: &PlayerView, san: bool) -> String {
    if !me.is_my_turn() {
        return "It is not your turn.".to_owned();
    }
    let mut own = AttemptList::new();
    me.options(&mut own);
    let mut list = AttemptList::new();
    let may_ask = GuidedSpace::new(me, FilterSet::all_sound()).options(&mut list);
    let mut names: Vec<String> = list
        .iter()
        .map(|&a| {
            if san {
                own_san(me.own_board(), a)
            } else {
                a.to_string()
            }
        })
        .collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::Color;

    #[test]
    fn options_in_san_read_back_as_the_same_attempts() {
        let me = PlayerView::standard(RuleSet::WILD16, Color::White);
        let text = options_text(&me, true);
        assert!(text.starts_with("20 still possible:"), "{text}");
        assert!(text.contains(" Nf3 ") && text.contains(" e4 "), "{text}");
        assert!(!text.contains("g1f3"), "{text}");
        let uci = options_text(&me, false);
        assert!(uci.contains("g1f3"), "{uci}");
        // Every SAN name parses back, on the own board, to the attempt it names.
        let mut list = AttemptList::new();
        me.options(&mut list);
        for &a in list.iter() {
            let san = own_san(me.own_board(), a);
            assert_eq!(
                me.own_board().parse_command(&san),
                Ok(Command::Attempt(a)),
                "{san}"
            );
        }
    }
}
