//! [`explain`]: why a filter hides an attempt, in a sentence a player understands, naming the
//! squares and men of this position.

use umpire_rules::Attempt;
use umpire_rules::shakmaty::{Bitboard, Role};

use super::{FilterId, GuidedSpace};

fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

fn squares(bb: Bitboard) -> String {
    let names: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
    match names.len() {
        0 => "a square".to_owned(),
        1 => names[0].clone(),
        _ => {
            let (last, rest) = names.split_last().unwrap_or((&names[0], &[]));
            format!("{} or {last}", rest.join(", "))
        }
    }
}

/// Why `filter` hides `attempt` in `space`, in one plain sentence (without the filter's id,
/// which callers show in brackets). The sentence names the man, the squares and what the
/// player heard; it says nothing the player does not know.
pub fn explain(space: &GuidedSpace<'_>, filter: FilterId, attempt: Attempt) -> String {
    let view = space.view();
    let inf = space.inference();
    let man = view
        .own_board()
        .board()
        .role_at(attempt.from)
        .map_or("man", role_name);
    let site = inf.attacker_site();
    let site_name = site.map_or("the square of the last capture".to_owned(), |s| {
        s.to_string()
    });
    let (from, to) = (attempt.from, attempt.to);
    let pawn_capture = view.own_board().is_pawn_capture(attempt);
    match filter {
        FilterId::A1 => format!("you already tried {attempt} this turn and the umpire refused it"),
        FilterId::A2 => format!(
            "a shorter move of your {man} from {from} in the same direction was refused this turn, \
             so something blocks that line (an enemy man in the way, or a pin) and {to} is blocked too"
        ),
        FilterId::A3 if pawn_capture => format!(
            "a refused pawn step shows an enemy man on {}, and the announced pawn tries are all \
             captures onto it, so no other pawn capture can be legal",
            squares(inf.sonar())
        ),
        FilterId::A3 => format!(
            "a refused step of one of your pawns shows an enemy man on {}, so your {man} cannot \
             pass or land there",
            squares(inf.sonar())
        ),
        FilterId::A3_2 => format!(
            "a refused pawn step onto the check line shows the checking man is not beyond it, \
             so {to} does not block or capture the checker"
        ),
        FilterId::A4_1 => format!(
            "your {man} on {from} is probably pinned to your king (one of its moves was refused), \
             so it may only move along the line to the king"
        ),
        FilterId::A4_1_1 => {
            let pinners = inf.pinner_sites();
            if pawn_capture && !inf.certain_pins().contains(from) {
                format!(
                    "the enemy man pinning one of your men stands on {}, and the announced pawn \
                     tries are all captures onto it, so no other pawn capture can be legal",
                    squares(pinners)
                )
            } else if inf.certain_pins().contains(from) {
                format!(
                    "your {man} on {from} is pinned to your king (a move of it that nothing could \
                     block was refused), so it can move only along the line to the king"
                )
            } else {
                format!(
                    "the enemy man pinning one of your men stands on {}, so your {man} cannot \
                     pass or land there",
                    squares(pinners)
                )
            }
        }
        FilterId::A4_2 => format!(
            "your pawn on {from} is pinned to your king: its capture onto a square known to hold \
             an enemy man was refused, so it can move only along the line to the king"
        ),
        FilterId::B1 if man == "man" => format!("you have no man on {from}"),
        FilterId::B1 => format!("your {man} does not move like that"),
        FilterId::B2 => format!("one of your own men stands on {to} or in the way"),
        FilterId::B3 => "castling needs the right, your king and that rook on their start squares \
                         and none of your men between them"
            .to_owned(),
        FilterId::B4 => format!(
            "no enemy man can have reached {to} in the moves the enemy has made, so your pawn \
             has nothing to capture there"
        ),
        FilterId::C1 => {
            let turn = view.turn();
            if turn.any_answer == Some(false) {
                "the umpire answered \"no\" to Any?: you have no pawn capture".to_owned()
            } else if turn.try_squares.is_some() {
                format!(
                    "the umpire did not name your pawn on {from} among the pawns that can capture"
                )
            } else {
                "the umpire's announcement says you have no pawn capture".to_owned()
            }
        }
        FilterId::C2 => format!(
            "the enemy man that captured on {site_name} stands there, so your {man} cannot pass \
             through {site_name}"
        ),
        FilterId::C3 => format!(
            "the enemy man that captured on {site_name} stands there, so your pawn cannot \
             advance onto or through it"
        ),
        FilterId::C4 => format!(
            "the announced pawn tries are all captures onto {site_name}, so no other pawn \
             capture can be legal"
        ),
        FilterId::C5 => format!(
            "{to} was just emptied when your pawn there was taken en passant, so there is nothing \
             to capture on it"
        ),
        FilterId::C6 => {
            if man == "king" {
                "you are in check, and castling out of check is not allowed".to_owned()
            } else {
                format!(
                    "you are in check, and {to} neither blocks the check line nor holds the \
                     checking man"
                )
            }
        }
        FilterId::C6_1 => "you are in double check: only a king move can answer it".to_owned(),
        FilterId::C7 => format!(
            "you are in check, and a pawn step onto {to}, the far end of the check line you can \
             see, cannot help: either the checker stands there or the square does not block"
        ),
        FilterId::C8 => format!(
            "the man that captured on {site_name} is giving check along this line, so your king \
             would still be in check on {to}"
        ),
        FilterId::C9 => format!(
            "the man that captured on {site_name} is giving check, so only a move between your \
             king and {site_name}, or onto it, answers the check"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlayerView;
    use crate::guided::FilterSet;
    use umpire_rules::RuleSet;
    use umpire_rules::shakmaty::Color;

    #[test]
    fn every_filter_has_a_sentence_without_its_id() {
        let view = PlayerView::standard(RuleSet::WILD16, Color::White);
        let space = GuidedSpace::new(&view, FilterSet::all_sound());
        let a: Attempt = "e2d3".parse().unwrap();
        for id in FilterId::ALL {
            let text = explain(&space, id, a);
            assert!(text.len() > 20, "{id}: {text}");
            assert!(!text.contains(id.as_str()), "{id}: {text}");
        }
        assert_eq!(
            explain(&space, FilterId::B4, a),
            "no enemy man can have reached d3 in the moves the enemy has made, so your pawn \
             has nothing to capture there"
        );
    }
}
