//! What `umpire connect` shows a spectator: each frame of the game in plain words.

use serde_json::Value;
use umpire_protocol::chat::printable;
use umpire_protocol::game::presence::{Presence, SeatPresence};
use umpire_protocol::game::relist::RelistFrame;
use umpire_protocol::man::OwnMan;

use crate::console::stdout::say;

/// The men a `relist` frame lists, as `man square` joined by commas (the umpire's RELIST,
/// said to a player or shown to a spectator).
pub fn men_listed(men: &[OwnMan]) -> String {
    let men: Vec<String> = men
        .iter()
        .map(|m| format!("{} {}", m.man, m.square))
        .collect();
    men.join(", ")
}

/// A `presence` frame in plain words, for a spectator: who is connected, and the countdown
/// until the side that is away is out of the game.
pub fn presence_words(p: &Presence) -> String {
    let word = |s: SeatPresence| match s {
        SeatPresence::Connected => "connected",
        SeatPresence::Gone => "away",
    };
    let mut out = format!("white {}, black {}", word(p.white), word(p.black));
    if let Some(ms) = p.abandon_in_ms {
        out.push_str(&format!(
            "; the side away is out of the game in {} s unless it comes back (it loses by abandonment, or the game is aborted with no result if both sides have not moved yet)",
            ms.div_ceil(1000)
        ));
    }
    out
}

/// Prints a frame in plain words (a spectator's view in `umpire connect`).
pub fn show(frame: &Value) {
    let heard = |o: &Value| -> String {
        o["heard"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|h| h["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_default()
    };
    match frame["type"].as_str().unwrap_or_default() {
        "state" => {
            say!(
                "game {} ({}): white {} v black {}; you are {}; status {}",
                frame["game"].as_str().unwrap_or_default(),
                frame["rules"].as_str().unwrap_or_default(),
                frame["players"]["white"].as_str().unwrap_or_default(),
                frame["players"]["black"].as_str().unwrap_or_default(),
                frame["you"].as_str().unwrap_or_default(),
                frame["status"].as_str().unwrap_or_default()
            );
            for o in frame["transcript"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                say!("  {} {}", o["actor"].as_str().unwrap_or_default(), heard(o));
            }
        }
        "update" => {
            let o = &frame["observation"];
            let own = o["own"]["command"]
                .as_str()
                .map(|c| format!("{c}: {} ", o["own"]["verdict"].as_str().unwrap_or_default()))
                .unwrap_or_default();
            let moved = if o["moved"] == true { "(moved) " } else { "" };
            say!(
                "{} {own}{moved}{}",
                o["actor"].as_str().unwrap_or_default(),
                heard(o)
            );
        }
        "chat" => say!(
            "MSG from {}: {}",
            printable(frame["from"].as_str().unwrap_or_default()),
            printable(frame["text"].as_str().unwrap_or_default())
        ),
        "relist" => match serde_json::from_value::<RelistFrame>(frame.clone()) {
            Ok(relist) => say!("your men: {}", men_listed(&relist.men)),
            Err(e) => say!("unreadable relist frame: {e}"),
        },
        "error" => say!(
            "refused ({}): {}",
            printable(frame["code"].as_str().unwrap_or_default()),
            printable(frame["message"].as_str().unwrap_or_default())
        ),
        "game_over" => {}
        _ => say!("{frame}"),
    }
    if let Some(r) = frame["result"].as_object() {
        let score = r.get("score").and_then(Value::as_str).unwrap_or_default();
        let reason = r.get("reason").and_then(Value::as_str).unwrap_or_default();
        if reason == "aborted" {
            say!(
                "game over: {}",
                crate::presence_line::result_words(score, reason)
            );
        } else {
            say!("game over: {score} by {reason}");
        }
    } else if (frame["type"] == "update" || frame["type"] == "state")
        && frame["to_move"] == frame["you"]
    {
        let n = frame["options"].as_array().map_or(0, Vec::len);
        say!(
            "your move ({n} attempts possible; clocks white {} s, black {} s)",
            frame["clocks"]["white_ms"].as_i64().unwrap_or(0) / 1000,
            frame["clocks"]["black_ms"].as_i64().unwrap_or(0) / 1000
        );
    }
}
