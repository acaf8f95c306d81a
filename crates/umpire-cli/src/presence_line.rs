//! What `umpire connect` says of the players' presence (`presence` frames): one line when the
//! opponent goes, with the abandonment countdown when one runs, one when the countdown starts
//! against an opponent already gone, one when the opponent comes back; and the words of a
//! result (an aborted game has none).

use umpire_protocol::game::presence::{Presence, SeatPresence};
use umpire_rules::shakmaty::Color;

fn seat(p: &Presence, side: Color) -> SeatPresence {
    side.fold_wb(p.white, p.black)
}

/// The countdown in words, when one runs: `both_moved` tells a loss from an abort.
fn countdown(p: &Presence, who: &str, both_moved: bool) -> String {
    let Some(ms) = p.abandon_in_ms else {
        return String::new();
    };
    let s = ms.div_ceil(1000);
    if both_moved {
        format!(" Unless {who} come back within {s} s, {who} lose by abandonment.")
    } else {
        format!(" Unless {who} come back within {s} s, the game is aborted (no result).")
    }
}

/// What to say to the player of `me` when presence goes from `before` (`None`: the first
/// news of it, which says nothing by itself: an opponent who has just joined over HTTP opens
/// its socket a moment later) to `now`; `None` when nothing worth a line changed. `told_away`
/// is whether the player was last told that the opponent is away (kept across calls, so that
/// "back" follows only "away"). `both_moved`: whether both sides have moved (else an
/// abandoned game is aborted).
pub fn presence_line(
    me: Color,
    before: Option<&Presence>,
    now: &Presence,
    both_moved: bool,
    told_away: &mut bool,
) -> Option<String> {
    let before = before?;
    let them = !me;
    let countdown_started = before.abandon_in_ms.is_none() && now.abandon_in_ms.is_some();
    let line = match (seat(before, them), seat(now, them)) {
        (SeatPresence::Connected, SeatPresence::Gone) => format!(
            "Your opponent has disconnected.{}",
            countdown(now, "they", both_moved)
        ),
        (SeatPresence::Gone, SeatPresence::Gone) if countdown_started => format!(
            "Your opponent {}.{}",
            if *told_away {
                "is still away"
            } else {
                "is not connected"
            },
            countdown(now, "they", both_moved)
        ),
        (SeatPresence::Gone, SeatPresence::Connected) if *told_away => {
            *told_away = false;
            return Some("Your opponent is back.".to_owned());
        }
        _ => return None,
    };
    *told_away = true;
    Some(line)
}

/// The result of a game in words: an aborted game (`*`) has no result (it is not a draw).
pub fn result_words(score: &str, reason: &str) -> String {
    if reason == "aborted" || score == "*" {
        "aborted (nobody moved in time); no result".to_owned()
    } else {
        format!("{score} ({reason})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn p(white: SeatPresence, black: SeatPresence, abandon_in_ms: Option<u64>) -> Presence {
        Presence {
            white,
            black,
            abandon_in_ms,
        }
    }
    use SeatPresence::{Connected as C, Gone as G};

    #[test]
    fn the_opponent_going_and_coming_back_is_one_line_each() {
        let both = p(C, C, None);
        let gone = p(C, G, Some(119_200));
        let mut away = false;
        assert_eq!(
            presence_line(Color::White, Some(&both), &gone, true, &mut away).unwrap(),
            "Your opponent has disconnected. Unless they come back within 120 s, they lose by abandonment."
        );
        assert!(away);
        assert_eq!(
            presence_line(Color::White, Some(&gone), &both, true, &mut away).unwrap(),
            "Your opponent is back."
        );
        assert!(!away);
        // Before both sides moved, the game would be aborted.
        assert!(
            presence_line(Color::White, Some(&both), &gone, false, &mut away)
                .unwrap()
                .ends_with("the game is aborted (no result).")
        );
    }

    #[test]
    fn the_countdown_gets_its_own_line_when_it_starts_later() {
        // Gone off turn: no countdown yet; it starts when the turn passes to them.
        let both = p(C, C, None);
        let off_turn = p(C, G, None);
        let on_turn = p(C, G, Some(60_000));
        let mut away = false;
        assert_eq!(
            presence_line(Color::White, Some(&both), &off_turn, true, &mut away).unwrap(),
            "Your opponent has disconnected."
        );
        assert_eq!(
            presence_line(Color::White, Some(&off_turn), &on_turn, true, &mut away).unwrap(),
            "Your opponent is still away. Unless they come back within 60 s, they lose by abandonment."
        );
        // An opponent never seen connected: said once its countdown starts.
        let mut away = false;
        assert!(
            presence_line(Color::White, Some(&off_turn), &on_turn, true, &mut away)
                .unwrap()
                .starts_with("Your opponent is not connected. Unless")
        );
    }

    #[test]
    fn arriving_and_the_player_s_own_presence_are_not_news() {
        let both = p(C, C, None);
        let mut away = false;
        // The first news, and an opponent arriving who was never said to be away.
        assert_eq!(
            presence_line(Color::White, None, &p(C, G, Some(1)), true, &mut away),
            None
        );
        assert_eq!(
            presence_line(
                Color::White,
                Some(&p(C, G, Some(1))),
                &both,
                true,
                &mut away
            ),
            None
        );
        assert_eq!(
            presence_line(Color::White, Some(&both), &p(G, C, None), true, &mut away),
            None
        );
        assert_eq!(
            presence_line(Color::Black, Some(&both), &p(C, G, None), true, &mut away),
            None
        );
        assert_eq!(
            presence_line(Color::White, Some(&both), &both, true, &mut away),
            None
        );
        assert!(!away);
    }

    #[test]
    fn an_aborted_game_is_not_a_draw() {
        assert_eq!(
            result_words("*", "aborted"),
            "aborted (nobody moved in time); no result"
        );
        assert_eq!(result_words("0-1", "resignation"), "0-1 (resignation)");
    }
}
