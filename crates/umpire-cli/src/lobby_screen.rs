//! The lobby of `umpire connect --lobby`: the open challenges listed live from the server's
//! lobby feed (`GET /api/lobby/ws`), each with a number that stays its own while the list
//! changes, and the words to join, decline or cancel one, challenge a named player or open a
//! challenge to anyone. Choosing a game ends the lobby; the game is then played as usual.

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use umpire_client::client::{Client, GameSocket};
use umpire_protocol::clock::TimeControl;
use umpire_protocol::lobby::LobbyFrame;
use umpire_protocol::lobby::challenge::ChallengeJson;

use crate::console::input::Line;
use crate::console::input_feed::Input;
use crate::console::stdout::say;

/// The words of the lobby.
pub const LOBBY_WORDS: &str = "join N, decline N, cancel N, challenge NAME, open, list, help, quit";

/// A challenge shown, with its number.
struct Shown {
    number: u32,
    challenge: ChallengeJson,
}

/// The lobby's state: what is shown, and who the player is.
struct Lobby {
    you: String,
    shown: Vec<Shown>,
    next: u32,
}

/// `10+5`, `90s+0`, `3d`: a time control as players write it.
fn time_control(tc: &TimeControl) -> String {
    let initial = tc.initial_ms;
    let increment = tc.increment_ms / 1000;
    if initial >= 86_400_000 && initial % 86_400_000 == 0 {
        return format!("{}d+{increment}", initial / 86_400_000);
    }
    if initial % 60_000 == 0 {
        format!("{}+{increment}", initial / 60_000)
    } else {
        format!("{}s+{increment}", initial / 1000)
    }
}

impl Lobby {
    fn line(&self, s: &Shown) -> String {
        let c = &s.challenge;
        let creator = c.creator.as_str();
        let colour = c.creator_color.as_str();
        let what = format!(
            "{} {} {} ({})",
            c.rules,
            time_control(&c.time_control),
            if c.rated { "rated" } else { "casual" },
            c.class,
        );
        let to = c.opponent.as_deref();
        if creator == self.you {
            let whom = to.map_or_else(|| "anyone".to_owned(), str::to_owned);
            format!(
                "{:>3}. you ({colour}) challenge {whom}: {what}  [cancel {}]",
                s.number, s.number
            )
        } else if to == Some(self.you.as_str()) {
            format!(
                "{:>3}. {creator} ({colour}) challenges YOU: {what}  [join {} / decline {}]",
                s.number, s.number, s.number
            )
        } else {
            format!(
                "{:>3}. {creator} ({colour}): {what}  [join {}]",
                s.number, s.number
            )
        }
    }

    fn add(&mut self, challenge: ChallengeJson) {
        self.next += 1;
        self.shown.push(Shown {
            number: self.next,
            challenge,
        });
    }

    fn list(&self) {
        if self.shown.is_empty() {
            say!(
                "No open challenges. `challenge NAME` challenges a player, `open` opens one to anyone."
            );
            return;
        }
        say!("Open challenges:");
        for s in &self.shown {
            say!("{}", self.line(s));
        }
    }

    /// Takes a feed frame; says what changed (a frame that does not read is passed over).
    fn take(&mut self, frame: &Value) {
        let Ok(frame) = LobbyFrame::deserialize(frame) else {
            return;
        };
        match frame {
            LobbyFrame::Lobby(snapshot) => {
                self.you = snapshot.you.unwrap_or_default();
                self.shown.clear();
                for c in snapshot.challenges {
                    self.add(c);
                }
                self.list();
            }
            LobbyFrame::Added(added) => {
                self.add(added.challenge);
                if let Some(s) = self.shown.last() {
                    say!("New: {}", self.line(s).trim_start());
                }
            }
            LobbyFrame::Removed(removed) => {
                if let Some(i) = self
                    .shown
                    .iter()
                    .position(|s| s.challenge.id == removed.game)
                {
                    let s = self.shown.remove(i);
                    say!(
                        "Gone: {}. {} ({}).",
                        s.number,
                        s.challenge.creator,
                        removed.reason
                    );
                }
            }
            LobbyFrame::Error(e) => say!("The lobby feed: {} ({})", e.message, e.code),
        }
    }

    /// The game id of `N` (a number shown) or of an id typed as is.
    fn find(&self, word: &str) -> Result<String, String> {
        let word = word.trim();
        if word.is_empty() {
            return Err("say which: a number from the list (`list` shows it)".to_owned());
        }
        if let Ok(n) = word.parse::<u32>() {
            return self
                .shown
                .iter()
                .find(|s| s.number == n)
                .map(|s| s.challenge.id.clone())
                .ok_or_else(|| format!("no challenge number {n} is open (`list` shows them)"));
        }
        Ok(word.to_owned())
    }
}

/// What one line of input asks.
enum Ask {
    Nothing,
    Play(String),
    Quit,
}

async fn answer(lobby: &Lobby, client: &Client, spec: &Value, text: &str) -> Result<Ask, String> {
    let text = text.trim();
    // A number alone joins that challenge.
    let (word, rest) = match text.parse::<u32>() {
        Ok(_) => ("join", text),
        Err(_) => text.split_once(' ').unwrap_or((text, "")),
    };
    let rest = rest.trim();
    let refused = |a: umpire_client::client::Answer| {
        format!(
            "Refused ({}): {}",
            a.code().unwrap_or("?"),
            a.body["error"]["message"].as_str().unwrap_or_default()
        )
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Ok(Ask::Nothing),
        "quit" | "exit" => Ok(Ask::Quit),
        "list" => {
            lobby.list();
            Ok(Ask::Nothing)
        }
        "help" | "?" => {
            say!("The lobby: {LOBBY_WORDS}. A number alone joins that challenge.");
            Ok(Ask::Nothing)
        }
        "join" => {
            let id = lobby.find(rest)?;
            let a = client
                .request("POST", &format!("/api/games/{id}/join"), None)
                .await?;
            if a.code().is_some() {
                return Err(refused(a));
            }
            Ok(Ask::Play(id))
        }
        "decline" | "cancel" => {
            let id = lobby.find(rest)?;
            let a = if word.eq_ignore_ascii_case("decline") {
                client
                    .request("POST", &format!("/api/games/{id}/decline"), None)
                    .await?
            } else {
                client
                    .request("DELETE", &format!("/api/games/{id}"), None)
                    .await?
            };
            if a.code().is_some() {
                return Err(refused(a));
            }
            Ok(Ask::Nothing)
        }
        "challenge" | "open" => {
            let mut spec = spec.clone();
            if word.eq_ignore_ascii_case("challenge") {
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err("challenge whom? `challenge NAME` (one account name)".to_owned());
                }
                spec["opponent"] = json!(rest);
            }
            let a = client.request("POST", "/api/games", Some(&spec)).await?;
            if a.code().is_some() {
                return Err(refused(a));
            }
            let id = a.body["id"].as_str().ok_or("no game id")?.to_owned();
            match rest {
                "" => say!("Opened game {id} to anyone; waiting for an opponent."),
                name => say!("Challenged {name} (game {id}); waiting for them to accept."),
            }
            Ok(Ask::Play(id))
        }
        _ => Err(format!("unknown word {word:?} here: {LOBBY_WORDS}")),
    }
}

/// Shows the lobby until the player joins or creates a game (its id) or leaves (`None`).
/// `spec` is the new-game request the options of `umpire connect` describe.
pub async fn pick(
    client: &Client,
    spec: &Value,
    input: &mut mpsc::Receiver<Input>,
) -> Result<Option<String>, String> {
    let mut lobby = Lobby {
        you: String::new(),
        shown: Vec::new(),
        next: 0,
    };
    say!("The lobby ({LOBBY_WORDS}).");
    let mut feed: GameSocket = client.lobby().await?;
    loop {
        tokio::select! {
            frame = feed.next() => match frame {
                Ok(frame) => lobby.take(&frame),
                Err(e) => {
                    say!("The lobby feed closed ({e}); reconnecting.");
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    feed = client.lobby().await?;
                }
            },
            line = input.recv() => match line {
                None | Some(Input::End) => return Ok(None),
                Some(Input::TooLong(start)) => say!("{}", Line::too_long_answer(&start)),
                Some(Input::Text(text)) => match answer(&lobby, client, spec, &text).await {
                    Ok(Ask::Nothing) => {}
                    Ok(Ask::Play(id)) => {
                        feed.close().await;
                        return Ok(Some(id));
                    }
                    Ok(Ask::Quit) => return Ok(None),
                    Err(e) => say!("{e}"),
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_players_write_them() {
        let tc = |initial_ms: i64, increment_ms: i64| TimeControl {
            initial_ms,
            increment_ms,
        };
        assert_eq!(time_control(&tc(600_000, 5_000)), "10+5");
        assert_eq!(time_control(&tc(90_000, 0)), "90s+0");
        assert_eq!(time_control(&tc(3 * 86_400_000, 0)), "3d+0");
    }

    #[test]
    fn numbers_stay_with_their_challenge() {
        let mut lobby = Lobby {
            you: String::new(),
            shown: Vec::new(),
            next: 0,
        };
        let ch = |id: &str, creator: &str, to: Value| {
            json!({"id": id, "creator": creator, "creator_color": "white", "opponent": to,
                   "rules": "wild16", "time_control": {"initial_ms": 600_000, "increment_ms": 0},
                   "rated": false, "class": "rapid"})
        };
        lobby.take(&json!({"type": "lobby", "protocol": 1, "you": "bob",
            "challenges": [ch("g1", "ann", Value::Null), ch("g2", "cat", json!("bob"))]}));
        lobby.take(&json!({"type": "removed", "game": "g1", "reason": "joined"}));
        lobby.take(&json!({"type": "added", "challenge": ch("g3", "bob", json!("ann"))}));
        assert_eq!(lobby.find("2").unwrap(), "g2");
        assert_eq!(lobby.find("3").unwrap(), "g3");
        assert!(
            lobby
                .find("1")
                .unwrap_err()
                .contains("no challenge number 1")
        );
        assert!(lobby.line(&lobby.shown[0]).contains("challenges YOU"));
        assert!(
            lobby
                .line(&lobby.shown[1])
                .contains("you (white) challenge ann")
        );
    }
}
