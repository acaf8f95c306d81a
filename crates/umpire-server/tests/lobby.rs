//! The live lobby feed (`GET /api/lobby/ws`), direct challenges to a named player, cancelling
//! and declining: every action and every refusal.

mod common;

use std::time::Duration;

use common::{Server, T, fresh_dir, socket};
use serde_json::{Value, json};
use umpire_server::client::{Client, GameSocket};
use umpire_server::{Database, Options};

/// A registered account's client.
async fn account(server: &Server, name: &str) -> Client {
    let mut c = server.client();
    c.register(name, "correct horse battery").await.unwrap();
    c
}

/// Opens a feed and returns it with its snapshot frame.
async fn feed(client: &Client) -> (GameSocket, Value) {
    let mut f = client.lobby().await.unwrap();
    let first = f.next_within(T).await.unwrap();
    assert_eq!(first["type"], "lobby", "{first}");
    assert_eq!(first["protocol"], 1);
    (f, first)
}

/// Asserts that no frame comes within a short while.
async fn quiet(f: &mut GameSocket) {
    if let Ok(v) = f.next_within(Duration::from_millis(300)).await {
        panic!("unexpected frame {v}");
    }
}

fn ids(snapshot: &Value) -> Vec<String> {
    snapshot["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn an_open_challenge_is_listed_live_then_removed_when_joined() {
    let server = Server::start(fresh_dir("lobby-open")).await;
    let ann = account(&server, "ann").await;
    let old = ann
        .create_game(&json!({"color": "white", "initial_ms": 300_000, "increment_ms": 3_000}))
        .await
        .unwrap();
    let old_id = old["id"].as_str().unwrap();
    // Anyone may listen, logged in or not; the snapshot has the challenge already open.
    let anonymous = server.client();
    let (mut af, first) = feed(&anonymous).await;
    assert_eq!(first["you"], Value::Null);
    assert_eq!(ids(&first), [old_id]);
    let c = &first["challenges"][0];
    assert_eq!(c["creator"], "ann");
    assert_eq!(c["creator_color"], "white");
    assert_eq!(c["opponent"], Value::Null);
    assert_eq!(c["rules"], "wild16");
    assert_eq!(c["time_control"]["initial_ms"], 300_000);
    assert_eq!(c["rated"], false);
    assert_eq!(c["class"], "blitz");
    let bob = account(&server, "bob").await;
    let (mut bf, first) = feed(&bob).await;
    assert_eq!(first["you"], "bob");
    // A new challenge is added to every feed.
    let g = ann
        .create_game(&json!({"rules": "berkeley-any", "color": "black", "rated": true}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap();
    for f in [&mut af, &mut bf] {
        let v = f.next_within(T).await.unwrap();
        assert_eq!(v["type"], "added", "{v}");
        assert_eq!(v["challenge"]["id"], id);
        assert_eq!(v["challenge"]["rules"], "berkeley-any");
        assert_eq!(v["challenge"]["creator_color"], "black");
        assert_eq!(v["challenge"]["rated"], true);
    }
    // A game against a built-in agent starts at once: it is never a challenge.
    bob.create_game(&json!({"agent": "random"})).await.unwrap();
    quiet(&mut af).await;
    // Joined: removed from every feed, with the reason.
    bob.join(id).await.unwrap();
    for f in [&mut af, &mut bf] {
        let v = f.next_within(T).await.unwrap();
        assert_eq!(
            v,
            json!({"type": "removed", "game": id, "reason": "joined"})
        );
    }
    // A later feed lists only what is still open.
    let (_, first) = feed(&server.client()).await;
    assert_eq!(ids(&first), [old_id]);
    // The feed takes no commands.
    af.send_text(r#"{"type":"attempt","move":"e2e4"}"#)
        .await
        .unwrap();
    let v = af.next_within(T).await.unwrap();
    assert_eq!(v["type"], "error");
    assert_eq!(v["code"], "unknown_command");
    server.stop().await;
}

#[tokio::test]
async fn a_direct_challenge_reaches_only_its_two_players() {
    let server = Server::start(fresh_dir("lobby-direct")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let zed = account(&server, "zed").await;
    let (mut annf, _) = feed(&ann).await;
    let (mut bobf, _) = feed(&bob).await;
    let (mut zedf, _) = feed(&zed).await;
    let (mut anyf, _) = feed(&server.client()).await;
    let g = ann
        .create_game(&json!({"opponent": "bob", "color": "white", "rated": true}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["status"], "open");
    assert_eq!(g["opponent"], "bob");
    for f in [&mut annf, &mut bobf] {
        let v = f.next_within(T).await.unwrap();
        assert_eq!(v["type"], "added", "{v}");
        assert_eq!(v["challenge"]["id"], id);
        assert_eq!(v["challenge"]["creator"], "ann");
        assert_eq!(v["challenge"]["opponent"], "bob");
    }
    quiet(&mut zedf).await;
    quiet(&mut anyf).await;
    // Snapshots and the HTTP listing agree.
    assert_eq!(ids(&feed(&bob).await.1), [id]);
    assert_eq!(ids(&feed(&ann).await.1), [id]);
    assert!(ids(&feed(&zed).await.1).is_empty());
    assert!(ids(&feed(&server.client()).await.1).is_empty());
    let listed = |c: Client| async move {
        let v = c
            .request("GET", "/api/games?status=open", None)
            .await
            .unwrap()
            .ok()
            .unwrap();
        v.as_array().unwrap().len()
    };
    assert_eq!(listed(bob.clone()).await, 1);
    assert_eq!(listed(ann.clone()).await, 1);
    assert_eq!(listed(zed.clone()).await, 0);
    assert_eq!(listed(server.client()).await, 0);
    // Someone else may not take the seat; the challenge stays.
    let a = zed
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.status, 403);
    assert_eq!(a.code(), Some("not_your_challenge"));
    let a = server
        .guest()
        .await
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_your_challenge"));
    // The challenger may not join its own.
    let a = ann
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("own_game"));
    // The addressee accepts: both play.
    let j = bob.join(id).await.unwrap();
    assert_eq!(j["you"], "black");
    assert_eq!(j["status"], "live");
    for f in [&mut annf, &mut bobf] {
        let v = f.next_within(T).await.unwrap();
        assert_eq!(v["type"], "removed");
        assert_eq!(v["reason"], "joined");
    }
    quiet(&mut zedf).await;
    let (_, state) = socket(&ann, id).await;
    assert_eq!(state["players"], json!({"white": "ann", "black": "bob"}));
    server.stop().await;
}

#[tokio::test]
async fn a_direct_challenge_can_be_declined_by_its_addressee_only() {
    let server = Server::start(fresh_dir("lobby-decline")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let zed = account(&server, "zed").await;
    let g = ann.create_game(&json!({"opponent": "bob"})).await.unwrap();
    let id = g["id"].as_str().unwrap();
    let (mut annf, _) = feed(&ann).await;
    let (mut ws, state) = socket(&ann, id).await;
    assert_eq!(state["status"], "open");
    for (who, c) in [("zed", &zed), ("ann", &ann)] {
        let a = c
            .request("POST", &format!("/api/games/{id}/decline"), None)
            .await
            .unwrap();
        assert_eq!(a.status, 403, "{who}");
        assert_eq!(a.code(), Some("not_your_challenge"), "{who}");
    }
    let a = server
        .client()
        .request("POST", &format!("/api/games/{id}/decline"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("unauthorized"));
    quiet(&mut annf).await;
    let v = bob.decline(id).await.unwrap();
    assert_eq!(v, json!({"id": id, "removed": "declined"}));
    let v = annf.next_within(T).await.unwrap();
    assert_eq!(
        v,
        json!({"type": "removed", "game": id, "reason": "declined"})
    );
    // The waiting creator's game connection hears it.
    let v = ws.until("withdrawn", T).await.unwrap();
    assert_eq!(v["reason"], "declined");
    // The game is gone.
    let a = server
        .client()
        .request("GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_found"));
    for c in [&bob, &zed] {
        let a = c
            .request("POST", &format!("/api/games/{id}/join"), None)
            .await
            .unwrap();
        assert_eq!(a.code(), Some("not_found"));
    }
    let a = bob
        .request("POST", &format!("/api/games/{id}/decline"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_found"));
    // An open challenge (to nobody in particular) cannot be declined: only not joined.
    let open = ann.create_game(&json!({})).await.unwrap();
    let a = bob
        .request(
            "POST",
            &format!("/api/games/{}/decline", open["id"].as_str().unwrap()),
            None,
        )
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_your_challenge"));
    server.stop().await;
}

#[tokio::test]
async fn only_the_creator_cancels_and_only_while_open() {
    let server = Server::start(fresh_dir("lobby-cancel")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let (mut bobf, _) = feed(&bob).await;
    let g = ann.create_game(&json!({})).await.unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    assert_eq!(bobf.next_within(T).await.unwrap()["type"], "added");
    let a = bob
        .request("DELETE", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(a.status, 403);
    assert_eq!(a.code(), Some("not_your_challenge"));
    quiet(&mut bobf).await;
    let v = ann.cancel(&id).await.unwrap();
    assert_eq!(v["removed"], "cancelled");
    let v = bobf.next_within(T).await.unwrap();
    assert_eq!(
        v,
        json!({"type": "removed", "game": id, "reason": "cancelled"})
    );
    let a = bob
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_found"));
    // A direct challenge is cancelled the same way.
    let g = ann.create_game(&json!({"opponent": "bob"})).await.unwrap();
    let direct = g["id"].as_str().unwrap();
    assert_eq!(bobf.next_within(T).await.unwrap()["type"], "added");
    ann.cancel(direct).await.unwrap();
    assert_eq!(bobf.next_within(T).await.unwrap()["reason"], "cancelled");
    // A started game is no challenge any more.
    let g = ann.create_game(&json!({})).await.unwrap();
    let live = g["id"].as_str().unwrap();
    bob.join(live).await.unwrap();
    let a = ann
        .request("DELETE", &format!("/api/games/{live}"), None)
        .await
        .unwrap();
    assert_eq!(a.status, 409);
    assert_eq!(a.code(), Some("game_not_open"));
    let (_, state) = socket(&ann, live).await;
    assert_eq!(state["status"], "live");
    // An unknown game.
    let a = ann
        .request("DELETE", "/api/games/nosuchgame", None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_found"));
    server.stop().await;
}

#[tokio::test]
async fn refused_challenges_have_stable_codes() {
    let server = Server::start(fresh_dir("lobby-refusals")).await;
    let ann = account(&server, "ann").await;
    account(&server, "bob").await;
    let guest = server.guest().await;
    let guest_name = guest.request("GET", "/api/me", None).await.unwrap().body["user"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let (mut anyf, _) = feed(&server.client()).await;
    let cases = [
        (json!({"opponent": "nobody"}), 404, "unknown_opponent"),
        (json!({"opponent": "ann"}), 400, "own_challenge"),
        (
            json!({"opponent": "bob", "agent": "random"}),
            400,
            "opponent_and_agent",
        ),
        (
            json!({"opponent": guest_name, "rated": true}),
            403,
            "guest_unrated",
        ),
        (json!({"opponent": 5}), 400, "bad_json"),
        (
            json!({"opponent": "bob", "colour": "white"}),
            400,
            "bad_json",
        ),
    ];
    for (spec, status, code) in cases {
        let a = ann
            .request("POST", "/api/games", Some(&spec))
            .await
            .unwrap();
        assert_eq!(a.status, status, "{spec}: {:?}", a.body);
        assert_eq!(a.code(), Some(code), "{spec}");
    }
    // Not JSON at all.
    let a = ann
        .request("POST", "/api/games", Some(&json!("{")))
        .await
        .unwrap();
    assert_eq!(a.code(), Some("bad_json"));
    // Nothing was created.
    quiet(&mut anyf).await;
    let open = ann
        .request("GET", "/api/games?status=open", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    assert_eq!(open, json!([]));
    // A casual challenge to a guest is fine.
    let g = ann
        .create_game(&json!({"opponent": guest_name}))
        .await
        .unwrap();
    guest.join(g["id"].as_str().unwrap()).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn an_unjoined_challenge_expires() {
    let options = Options {
        challenge_expiry: Duration::from_millis(400),
        ..Default::default()
    };
    let dir = fresh_dir("lobby-expiry");
    let server = Server::start_options(Database::Dir(dir.clone()), options).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let (mut f, _) = feed(&bob).await;
    let g = ann.create_game(&json!({})).await.unwrap();
    let id = g["id"].as_str().unwrap();
    let (mut ws, _) = socket(&ann, id).await;
    assert_eq!(f.next_within(T).await.unwrap()["type"], "added");
    let v = f.next_within(T).await.unwrap();
    assert_eq!(
        v,
        json!({"type": "removed", "game": id, "reason": "expired"})
    );
    assert_eq!(ws.until("withdrawn", T).await.unwrap()["reason"], "expired");
    let a = bob
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_found"));
    // A joined game does not expire.
    let g = ann.create_game(&json!({})).await.unwrap();
    let live = g["id"].as_str().unwrap();
    bob.join(live).await.unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (_, state) = socket(&ann, live).await;
    assert_eq!(state["status"], "live");
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_is_a_direct_challenge_to_the_old_opponent() {
    let server = Server::start(fresh_dir("lobby-rematch")).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let zed = account(&server, "zed").await;
    let g = ann
        .create_game(&json!({"opponent": "bob", "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap();
    bob.join(id).await.unwrap();
    let (mut ws, _) = socket(&ann, id).await;
    let v = common::ask(&mut ws, json!({"type": "resign"}), 1).await;
    assert_eq!(v["result"]["score"], "0-1", "{v}");
    let (mut bobf, _) = feed(&bob).await;
    let (mut zedf, _) = feed(&zed).await;
    let r = ann
        .request("POST", &format!("/api/games/{id}/rematch"), None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let new = r["id"].as_str().unwrap();
    assert_eq!(r["opponent"], "bob");
    let v = bobf.next_within(T).await.unwrap();
    assert_eq!(v["challenge"]["id"], new);
    assert_eq!(v["challenge"]["creator_color"], "black");
    quiet(&mut zedf).await;
    let a = zed
        .request("POST", &format!("/api/games/{new}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("not_your_challenge"));
    assert_eq!(bob.join(new).await.unwrap()["you"], "white");
    server.stop().await;
}
