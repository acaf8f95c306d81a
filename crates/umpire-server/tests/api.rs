//! The HTTP API and the game WebSocket: every action and every refusal.

mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_sessions_and_bot_tokens() {
    let server = Server::start(fresh_dir("accounts")).await;
    let mut ann = server.client();
    let user = ann.register("ann", "correct horse").await.unwrap();
    assert_eq!(user["kind"], "account");
    let me = ann
        .request("GET", "/api/me", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(me["user"]["name"], "ann");

    // Name taken, wrong password, bad name, short password, no body type: each a stable code.
    let mut other = server.client();
    let a = other
        .request(
            "POST",
            "/api/register",
            Some(&json!({"name":"ann","password":"whatever1"})),
        )
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (409, Some("name_taken")));
    let a = other
        .request(
            "POST",
            "/api/login",
            Some(&json!({"name":"ann","password":"wrong password"})),
        )
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (401, Some("unauthorized")));
    let a = other
        .request(
            "POST",
            "/api/register",
            Some(&json!({"name":"a b","password":"whatever1"})),
        )
        .await
        .unwrap();
    assert_eq!(a.code(), Some("bad_name"));
    let a = other
        .request(
            "POST",
            "/api/register",
            Some(&json!({"name":"bob","password":"short"})),
        )
        .await
        .unwrap();
    assert_eq!(a.code(), Some("bad_password"));
    let a = other
        .request(
            "POST",
            "/api/register",
            Some(&json!({"name":"bob","password":"longenough","x":1})),
        )
        .await
        .unwrap();
    assert_eq!(a.code(), Some("bad_json"));
    other.login("ann", "correct horse").await.unwrap();

    // A guest may not create bots; an account may, and the token authenticates the bot.
    let guest = server.guest().await;
    let a = guest
        .request("POST", "/api/bots", Some(&json!({"name":"botty"})))
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (403, Some("account_required")));
    let bot = ann
        .request("POST", "/api/bots", Some(&json!({"name":"botty"})))
        .await
        .unwrap()
        .ok()
        .unwrap();
    let token = bot["token"].as_str().unwrap();
    let as_bot = server.client().with_token(token);
    let me = as_bot
        .request("GET", "/api/me", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(me["user"]["name"], "botty");
    assert_eq!(me["user"]["kind"], "bot");
    let nobody = server.client().with_token("0123");
    let a = nobody.request("GET", "/api/me", None).await.unwrap();
    assert_eq!((a.status, a.code()), (401, Some("unauthorized")));

    // Logging out ends the session.
    ann.request("POST", "/api/logout", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let a = ann.request("GET", "/api/me", None).await.unwrap();
    assert_eq!(a.code(), Some("unauthorized"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_create_list_join_and_refusals() {
    let server = Server::start(fresh_dir("lobby")).await;
    let white = server.guest().await;
    for (spec, code) in [
        (json!({"rules":"chess960"}), "bad_rules"),
        (json!({"initial_ms": 10}), "bad_time_control"),
        (json!({"increment_ms": -5}), "bad_time_control"),
        (json!({"color":"green"}), "bad_color"),
        (json!({"agent":"deep-blue"}), "bad_agent"),
        (json!({"colour":"white"}), "bad_json"),
    ] {
        let a = white
            .request("POST", "/api/games", Some(&spec))
            .await
            .unwrap();
        assert_eq!((a.status, a.code()), (400, Some(code)), "{spec}");
    }
    let a = server
        .client()
        .request("POST", "/api/games", Some(&json!({})))
        .await
        .unwrap();
    assert_eq!(a.code(), Some("unauthorized"));

    let g = white
        .create_game(
            &json!({"rules":"berkeley","initial_ms":300000,"increment_ms":2000,"color":"black"}),
        )
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["you"], "black");
    let open = server
        .client()
        .request("GET", "/api/games?status=open", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let listed = open.as_array().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id);
    assert_eq!(listed[0]["rules"], "berkeley");
    assert_eq!(listed[0]["time_control"]["increment_ms"], 2000);
    let a = server
        .client()
        .request("GET", "/api/games?status=maybe", None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("bad_status"));

    let a = white
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (409, Some("own_game")));
    let a = white
        .request("POST", "/api/games/nosuchgame/join", None)
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (404, Some("not_found")));
    let joiner = server.guest().await;
    let j = joiner.join(id).await.unwrap();
    assert_eq!(j["you"], "white");
    let third = server.guest().await;
    let a = third
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("game_not_open"));
    let live = server
        .client()
        .request("GET", "/api/games?status=live", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(live[0]["id"], id);
    assert_eq!(
        server
            .client()
            .request("GET", "/api/games?status=open", None)
            .await
            .unwrap()
            .body,
        json!([])
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_websocket_action_and_refusal() {
    let server = Server::start(fresh_dir("ws")).await;
    let (white, black, id) = two_player_game(&server, json!({"rules":"wild16"})).await;
    let (mut w, state) = socket(&white, &id).await;
    assert_eq!(state["you"], "white");
    assert_eq!(state["protocol"], 1);
    assert_eq!(state["men"].as_array().unwrap().len(), 16);
    assert_eq!(state["options"].as_array().unwrap().len(), 20);
    let (mut b, state) = socket(&black, &id).await;
    assert_eq!(state["you"], "black");
    assert_eq!(state["options"], json!([]));

    // Refusals: each a clear error and the game unharmed.
    let e = ask(&mut b, json!({"type":"attempt","move":"e7e5"}), 1).await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("not_your_turn"))
    );
    for (text, code) in [
        ("{oops".to_owned(), "bad_json"),
        (
            format!(r#"{{"type":"msg","text":"{}"}}"#, "x".repeat(5000)),
            "frame_too_large",
        ),
        (r#"{"type":"castle"}"#.to_owned(), "unknown_command"),
        (r#"{"type":"attempt"}"#.to_owned(), "bad_message"),
        (
            r#"{"type":"draw","action":"maybe"}"#.to_owned(),
            "bad_message",
        ),
    ] {
        w.send_text(&text).await.unwrap();
        let e = w.until("error", T).await.unwrap();
        assert_eq!(e["code"], code, "{text}");
    }
    let e = ask(&mut w, json!({"type":"attempt","move":"zz"}), 3).await;
    assert_eq!(e["code"], "bad_move");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("is not a move: type it in SAN")),
        "{e}"
    );
    // SAN no man of White's can play: why, in words, from White's own men.
    let e = ask(&mut w, json!({"type":"attempt","move":"Ke2"}), 33).await;
    assert_eq!(e["code"], "bad_move");
    assert_eq!(
        e["message"],
        "\"Ke2\": you have no king that can reach e2 (your king on e1 cannot go to e2: your pawn \
         stands there)",
        "{e}"
    );
    let e = ask(&mut w, json!({"type":"draw","action":"accept"}), 4).await;
    assert_eq!(e["type"], "update");
    assert_eq!(e["observation"]["own"]["verdict"], "invalid");

    // An impossible attempt is judged and heard; a legal one is played.
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e5"}), 5).await;
    assert_eq!(u["observation"]["own"]["verdict"], "impossible");
    assert_eq!(u["plies"], 0);
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 6).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    assert_eq!(u["to_move"], "black");
    assert_eq!(u["options"], json!([]));
    let bu = b.until("update", T).await.unwrap();
    assert_eq!(bu["observation"]["own"], serde_json::Value::Null);
    assert_eq!(bu["observation"]["moved"], true);
    assert_eq!(bu["options"].as_array().unwrap().len(), 20);

    // Chat (MSG) reaches the opponent; RELIST lists one's own men.
    b.send(&json!({"type":"msg","text":"good luck"}))
        .await
        .unwrap();
    let c = w.until("chat", T).await.unwrap();
    assert_eq!(
        (c["from"].as_str(), c["text"].as_str()),
        (Some("black"), Some("good luck"))
    );
    let r = ask(&mut w, json!({"type":"relist"}), 7).await;
    assert_eq!(r["type"], "relist");
    let men = r["men"].as_array().unwrap();
    assert!(
        men.iter()
            .any(|m| m["square"] == "e4" && m["man"] == "pawn")
    );
    assert!(!men.iter().any(|m| m["square"] == "e2"));

    // A spectator watches but cannot act.
    let spectator = server.guest().await;
    let (mut s, state) = socket(&spectator, &id).await;
    assert_eq!(state["you"], "spectator");
    assert_eq!(state["plies"], 1);
    assert!(state.get("men").is_none() && state.get("options").is_none());
    let e = ask(&mut s, json!({"type":"resign"}), 8).await;
    assert_eq!(e["code"], "not_a_player");

    // Draw offer and decline; then resignation ends the game; then everything is "game over".
    let u = ask(&mut b, json!({"type":"draw","action":"offer"}), 9).await;
    assert_eq!(u["observation"]["own"]["verdict"], "answered");
    let heard = w.until("update", T).await.unwrap();
    assert_eq!(heard["observation"]["heard"][0]["kind"], "draw_offered");
    let u = ask(&mut w, json!({"type":"draw","action":"decline"}), 10).await;
    assert_eq!(u["observation"]["heard"][0]["kind"], "draw_declined");
    let u = ask(&mut b, json!({"type":"resign"}), 11).await;
    assert_eq!(u["result"]["score"], "1-0");
    assert_eq!(u["result"]["reason"], "resignation");
    let e = ask(&mut w, json!({"type":"attempt","move":"d2d4"}), 12).await;
    assert_eq!(e["code"], "game_over");
    let e = ask(&mut b, json!({"type":"any"}), 13).await;
    assert_eq!(e["code"], "game_over");

    // The record: the referee view now, and each player's view.
    let record = stored_record(&server.client(), &id).await;
    record.replay().unwrap();
    assert_eq!(record.plies(), 1);
    assert_eq!(
        record.tags.get("White"),
        Some(state["players"]["white"].as_str().unwrap())
    );
    let pgn = server
        .client()
        .request("GET", &format!("/games/{id}.pgn"), None)
        .await
        .unwrap();
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.as_str().unwrap().contains("1-0"));
    let view = server
        .client()
        .request("GET", &format!("/games/{id}/black.pgn"), None)
        .await
        .unwrap();
    assert_eq!(view.status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_and_views_stay_private_until_the_end() {
    let server = Server::start(fresh_dir("private")).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    ask(&mut w, json!({"type":"attempt","move":"d2d4"}), 1).await;
    for path in [format!("/games/{id}.json"), format!("/games/{id}.pgn")] {
        let a = white.request("GET", &path, None).await.unwrap();
        assert_eq!((a.status, a.code()), (403, Some("game_not_over")), "{path}");
    }
    let a = black
        .request("GET", &format!("/games/{id}/white.pgn"), None)
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (403, Some("not_your_view")));
    let a = server
        .client()
        .request("GET", &format!("/games/{id}/white.pgn"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_your_view"));
    let own = white
        .request("GET", &format!("/games/{id}/white.pgn"), None)
        .await
        .unwrap();
    assert_eq!(own.status, 200);
    assert!(own.body.as_str().unwrap().contains("d4"));
    let theirs = black
        .request("GET", &format!("/games/{id}/black.pgn"), None)
        .await
        .unwrap();
    // The movetext only: the tags hold the players' names, and a guest's random name may
    // contain "d4".
    let movetext: String = theirs
        .body
        .as_str()
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('['))
        .collect();
    assert!(!movetext.contains("d4"), "{}", theirs.body);
    let a = server
        .client()
        .request("GET", "/games/nosuch.json", None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_found"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_resumes_with_the_whole_transcript() {
    let server = Server::start(fresh_dir("reconnect")).await;
    let (white, black, id) = two_player_game(&server, json!({})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    let mut seen = Vec::new();
    for (i, (side, mv)) in [("w", "e2e4"), ("b", "d7d5"), ("w", "e4d5"), ("b", "d8d5")]
        .iter()
        .enumerate()
    {
        let s = if *side == "w" { &mut w } else { &mut b };
        let u = ask(s, json!({"type":"attempt","move":mv}), i as u64).await;
        assert_eq!(u["observation"]["own"]["verdict"], "accepted", "{mv}: {u}");
        if *side == "w" {
            seen.push(u["observation"].clone());
        } else {
            seen.push(w.until("update", T).await.unwrap()["observation"].clone());
        }
    }
    w.close().await;
    let (_, state) = socket(&white, &id).await;
    assert_eq!(state["transcript"], serde_json::Value::Array(seen));
    assert_eq!(state["plies"], 4);
    assert!(
        state["men"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["square"] != "d5")
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_when_time_runs_out() {
    let server = Server::start(fresh_dir("flag")).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 1000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let over = w.until("game_over", T).await.unwrap();
    assert_eq!(over["result"]["score"], "0-1");
    assert_eq!(over["result"]["reason"], "time_forfeit");
    assert_eq!(over["clocks"]["white_ms"], 0);
    let e = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
    assert_eq!(e["code"], "game_over");
    let g = white
        .request("GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(
        (g["status"].as_str(), g["reason"].as_str()),
        (Some("over"), Some("time_forfeit"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instant_game_against_a_built_in_agent() {
    let server = Server::start(fresh_dir("agent")).await;
    let me = server.guest().await;
    let g = me
        .create_game(&json!({"agent":"guided-random","color":"black"}))
        .await
        .unwrap();
    assert_eq!(g["status"], "live");
    assert_eq!(g["players"]["white"], "agent:guided-random");
    let id = g["id"].as_str().unwrap();
    let (mut s, state) = socket(&me, id).await;
    // The agent (White) has moved already, or its move arrives now.
    if state["to_move"] != "black" {
        s.until("update", T).await.unwrap();
    }
    let u = ask(&mut s, json!({"type":"resign"}), 1).await;
    assert_eq!(u["result"]["score"], "1-0");
    let record = stored_record(&me, id).await;
    record.replay().unwrap();
    assert!(record.plies() >= 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_resumes_every_game_exactly() {
    let dir = fresh_dir("restart");
    let server = Server::start(dir.clone()).await;
    let (white, black, id) =
        two_player_game(&server, json!({"initial_ms": 600000, "increment_ms": 5000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut b, _) = socket(&black, &id).await;
    ask(&mut w, json!({"type":"attempt","move":"g1f3"}), 1).await;
    ask(&mut b, json!({"type":"attempt","move":"e7e5"}), 2).await;
    ask(&mut w, json!({"type":"attempt","move":"f3e5"}), 3).await;
    b.send(&json!({"type":"msg","text":"ouch"})).await.unwrap();
    w.until("chat", T).await.unwrap();
    let (_, before) = socket(&black, &id).await;
    drop((w, b));
    server.stop().await;

    let server = Server::start(dir).await;
    let black = server.client().with_token(black.token().unwrap());
    let (_, after) = socket(&black, &id).await;
    for key in [
        "transcript",
        "men",
        "options",
        "plies",
        "to_move",
        "chat",
        "opening",
        "players",
    ] {
        assert_eq!(before[key], after[key], "{key}");
    }
    // White's clock got its increments and no time while the server was down.
    let white_ms = after["clocks"]["white_ms"].as_i64().unwrap();
    assert!(white_ms > 600_000, "white has {white_ms} ms");
    server.stop().await;
}
