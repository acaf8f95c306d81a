//! Reading a player's frames back into the umpire's types: the inverse of
//! [`PlayerObservation::new`], so that a terminal client can keep its own
//! [`PlayerView`](umpire_view::PlayerView) and show the same screen as `umpire play`. The JSON
//! is read as the typed frames of this crate, then converted. Every malformed frame is an error
//! in words, never a panic.

use serde::Deserialize;
use serde_json::Value;
use umpire_rules::shakmaty::Color;
use umpire_rules::{Announcement, Command, Observation, OwnCommand, Verdict};

use crate::announcement::HeardAnnouncement;
use crate::observation::{OwnJudgement, PlayerObservation};

/// One announcement as sent (`docs/JSON.md` plus the rule set's `text`).
pub fn announcement(v: &Value) -> Result<Announcement, String> {
    HeardAnnouncement::deserialize(v)
        .map_err(|e| format!("announcement: {e}"))?
        .announcement()
}

/// The announcements of a list (the `opening` of a `state` frame).
pub fn announcements(v: &Value) -> Result<Vec<Announcement>, String> {
    v.as_array()
        .ok_or("announcements: not a list")?
        .iter()
        .map(announcement)
        .collect()
}

/// The announcements of a typed list.
pub fn heard_announcements(list: &[HeardAnnouncement]) -> Result<Vec<Announcement>, String> {
    list.iter().map(HeardAnnouncement::announcement).collect()
}

fn verdict(own: &OwnJudgement) -> Result<Verdict, String> {
    Ok(match own.verdict.as_str() {
        "accepted" => Verdict::Accepted,
        "answered" => Verdict::Answered,
        "illegal" => Verdict::Illegal,
        "impossible" => Verdict::Impossible,
        "repeat" => Verdict::Repeat,
        "game_over" => Verdict::GameOver,
        "invalid" => {
            let reason = own.reason.as_deref().ok_or("invalid: no reason")?;
            let why = umpire_rules::record::notation::ALL_INVALID
                .into_iter()
                .find(|i| i.as_str() == reason)
                .ok_or_else(|| format!("unknown reason {reason:?}"))?;
            Verdict::Invalid(why)
        }
        other => return Err(format!("unknown verdict {other:?}")),
    })
}

/// One OBSERVATION of `player` (see `docs/PROTOCOL.md`).
pub fn observation(player: Color, v: &Value) -> Result<Observation, String> {
    let typed = PlayerObservation::deserialize(v).map_err(|e| format!("observation: {e}"))?;
    typed_observation(player, &typed)
}

/// One typed OBSERVATION of `player`.
pub fn typed_observation(player: Color, v: &PlayerObservation) -> Result<Observation, String> {
    let own = match &v.own {
        None => None,
        Some(own) => {
            let text = &own.command;
            let command = Command::parse_record_word(text)
                .ok_or_else(|| format!("own: unreadable command {text:?}"))?;
            Some(OwnCommand {
                command,
                verdict: verdict(own)?,
            })
        }
    };
    let mut obs = Observation {
        player,
        actor: v.actor.into(),
        own,
        moved: v.moved,
        announcements: Default::default(),
    };
    for a in &v.heard {
        obs.announcements
            .try_push(a.announcement()?)
            .map_err(|_| "observation: too many announcements")?;
    }
    Ok(obs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use umpire_rules::record::Game;
    use umpire_rules::{AttemptList, RuleSetId};

    /// Every observation of seeded random games reads back as itself.
    #[test]
    fn observations_read_back_exactly() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(14);
        let mut seen = 0;
        for id in RuleSetId::ALL {
            let rules = *id.rules();
            for _ in 0..4 {
                let mut game = Game::new(rules);
                for _ in 0..300 {
                    if game.result().is_some() {
                        break;
                    }
                    let side = game.umpire().turn();
                    let mut list = AttemptList::new();
                    let _ = side;
                    game.umpire().own_board().attempts(false, &mut list);
                    let command = match rng.random_range(0..20) {
                        0 => Command::AskAny,
                        1 => Command::OfferDraw,
                        2 => Command::DeclineDraw,
                        _ if list.is_empty() => Command::Resign,
                        _ => Command::Attempt(list[rng.random_range(0..list.len())]),
                    };
                    let outcome = game.submit(command);
                    for player in [Color::White, Color::Black] {
                        if let Some(obs) = outcome.observation(command, player) {
                            let json = crate::observation::observation_json(&rules, &obs);
                            let typed = crate::observation::PlayerObservation::new(&rules, &obs);
                            assert_eq!(typed_observation(player, &typed).unwrap(), obs);
                            assert_eq!(observation(player, &json).unwrap(), obs);
                            seen += 1;
                        }
                    }
                }
            }
        }
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn malformed_observations_are_errors() {
        for text in [
            r#"{}"#,
            r#"{"actor":"red","own":null,"moved":true,"heard":[]}"#,
            r#"{"actor":"white","own":{"command":"zz","verdict":"accepted"},"moved":true,"heard":[]}"#,
            r#"{"actor":"white","own":{"command":"any","verdict":"invalid","reason":"x"},"moved":false,"heard":[]}"#,
            r#"{"actor":"white","own":null,"moved":false,"heard":[{"kind":"nonsense"}]}"#,
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert!(observation(Color::White, &v).is_err(), "{text}");
        }
    }
}
