//! An [`Observation`] as it travels in a player's frames: who acted, the player's own command
//! and verdict (if the player acted), whether a move was played, and what the player heard,
//! each announcement with the rule set's words. [`crate::decode`] reads it back.

use serde::Serialize;
use serde_json::Value;
use umpire_rules::wire::{AnnouncementJson, color_name};
use umpire_rules::{Announcement, Observation, RuleSet};

/// One announcement as sent: the JSON of `docs/JSON.md` plus the rule set's words.
#[derive(Serialize)]
pub struct HeardJson {
    #[serde(flatten)]
    announcement: AnnouncementJson,
    text: String,
}

/// One announcement of `rules` as sent.
pub fn heard(rules: &RuleSet, a: Announcement) -> HeardJson {
    HeardJson {
        announcement: AnnouncementJson::new(a, None),
        text: rules.phrase(a),
    }
}

/// An observation as JSON: who acted, the player's own command and verdict (if the player
/// acted), whether a move was played, and what the player heard.
pub fn observation_json(rules: &RuleSet, obs: &Observation) -> Value {
    let own = obs.own.map(|own| {
        let mut m = serde_json::json!({
            "command": own.command.to_text(),
            "verdict": own.verdict.as_str(),
        });
        if let umpire_rules::Verdict::Invalid(why) = own.verdict {
            m["reason"] = why.as_str().into();
            m["message"] = why.message().into();
        }
        m
    });
    let heard: Vec<HeardJson> = obs.announcements.iter().map(|&a| heard(rules, a)).collect();
    serde_json::json!({
        "actor": color_name(obs.actor),
        "own": own,
        "moved": obs.moved,
        "heard": heard,
    })
}
