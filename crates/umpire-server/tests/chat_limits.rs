//! Chat under attack (issue 31, items 13 and 17): control and text-direction characters are
//! refused, a player's chat is rate-limited, a game's chat is capped, a `state` frame carries
//! only the most recent lines, and the players (only they) page back through the rest.

mod common;

use common::{Server, ask, fresh_dir, socket, two_player_game};
use serde_json::json;
use umpire_server::Store;
use umpire_server::game::round::chat::{
    CHAT_BURST, CHAT_PAGE_LINES, MAX_CHAT_LINES, STATE_CHAT_LINES,
};
use umpire_server::store::ChatRow;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn control_and_direction_characters_are_refused() {
    let server = Server::start(fresh_dir("chat-controls")).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    for (i, text) in [
        "\u{1b}[2J\rUmpire: White resigns",
        "\u{202e}4e2e",
        "a\u{2066}b",
        "bell\u{7}",
    ]
    .iter()
    .enumerate()
    {
        let answer = ask(&mut w, json!({"type": "msg", "text": text}), i as u64 + 1).await;
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(answer["code"], "bad_message", "{answer}");
    }
    // A clean line still passes, and it is the first the opponent hears.
    w.send(&json!({"type": "msg", "text": "good luck ♞"}))
        .await
        .unwrap();
    let line = b.until("chat", common::T).await.unwrap();
    assert_eq!(line["text"], "good luck ♞");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_chat_is_rate_limited() {
    let server = Server::start(fresh_dir("chat-rate")).await;
    let (white, _black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    // The burst passes (each line answered by its echo, none by an error)…
    for i in 0..CHAT_BURST {
        w.send(&json!({"type": "msg", "text": format!("line {i}"), "id": 100 + i}))
            .await
            .unwrap();
        let echo = w.until("chat", common::T).await.unwrap();
        assert_eq!(echo["text"], format!("line {i}"));
    }
    // …the next is refused (the refill is seconds; this follows at once).
    let answer = ask(&mut w, json!({"type": "msg", "text": "one more"}), 1).await;
    assert_eq!(answer["code"], "chat_rate", "{answer}");
    server.stop().await;
}

/// Writes `n` chat lines of a game straight into storage (as a long chat would have left).
async fn fill_chat(dir: &std::path::Path, id: &str, n: usize) {
    let store = Store::open_dir(dir).await.unwrap();
    for i in 0..n {
        let line = ChatRow {
            side: if i % 2 == 0 { "white" } else { "black" }.to_owned(),
            text: format!("line {i}"),
            at_ms: 0,
        };
        store.append_chat(id, i as i64, &line).await.unwrap();
    }
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_carries_recent_chat_and_players_page_back() {
    let dir = fresh_dir("chat-pages");
    let server = Server::start(dir.clone()).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    server.stop().await;
    let total = STATE_CHAT_LINES + CHAT_PAGE_LINES + 20;
    fill_chat(&dir, &id, total).await;
    let server = Server::start(dir).await;
    let white = server.client().with_token(white.token().unwrap());
    let black = server.client().with_token(black.token().unwrap());
    let (_w, state) = socket(&white, &id).await;
    let chat = state["chat"].as_array().unwrap();
    assert_eq!(chat.len(), STATE_CHAT_LINES);
    let first = total - STATE_CHAT_LINES;
    assert_eq!(state["chat_from"], first);
    assert_eq!(chat[0]["text"], format!("line {first}"));
    assert_eq!(
        chat[STATE_CHAT_LINES - 1]["text"],
        format!("line {}", total - 1)
    );
    // Paging back from `chat_from`: a full page, then the rest.
    let page = black
        .request("GET", &format!("/api/games/{id}/chat?before={first}"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let lines = page["lines"].as_array().unwrap();
    assert_eq!(lines.len(), CHAT_PAGE_LINES);
    assert_eq!(page["from"], first - CHAT_PAGE_LINES);
    assert_eq!(
        lines[CHAT_PAGE_LINES - 1]["text"],
        format!("line {}", first - 1)
    );
    let rest = black
        .request(
            "GET",
            &format!("/api/games/{id}/chat?before={}", first - CHAT_PAGE_LINES),
            None,
        )
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(rest["from"], 0);
    assert_eq!(rest["lines"].as_array().unwrap().len(), 20);
    // Nobody else reads it: not a spectator, not an anonymous client.
    let other = server.guest().await;
    let refused = other
        .request("GET", &format!("/api/games/{id}/chat"), None)
        .await
        .unwrap();
    assert_eq!(refused.status, 403);
    let anonymous = server
        .client()
        .request("GET", &format!("/api/games/{id}/chat"), None)
        .await
        .unwrap();
    assert_eq!(anonymous.status, 401);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_chat_is_capped() {
    let dir = fresh_dir("chat-full");
    let server = Server::start(dir.clone()).await;
    let (white, _black, id) = two_player_game(&server, json!({})).await;
    server.stop().await;
    fill_chat(&dir, &id, MAX_CHAT_LINES).await;
    let server = Server::start(dir).await;
    let white = server.client().with_token(white.token().unwrap());
    let (mut w, _) = socket(&white, &id).await;
    let answer = ask(&mut w, json!({"type": "msg", "text": "one too many"}), 1).await;
    assert_eq!(answer["code"], "chat_full", "{answer}");
    server.stop().await;
}
