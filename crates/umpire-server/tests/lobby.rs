//! The live lobby feed (`GET /api/lobby/ws`), direct challenges to a named player, cancelling
//! and declining, the tombstones of withdrawn challenges and the limit on creating games:
//! every action and every refusal. Each test runs on SQLite, and on PostgreSQL with
//! `--ignored` where `UMPIRE_TEST_POSTGRES` names a server (`.ci/run` starts one).

mod common;

use std::time::Duration;

use common::postgres::both;
use common::{Server, T, socket};
use serde_json::{Value, json};
use umpire_client::client::{Client, GameSocket};
use umpire_server::store::{GameRow, WITHDRAWN_KEEP_MS};
use umpire_server::{Database, Options, Store};

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

both!(an_open_challenge_is_listed_live_then_removed_when_joined);
async fn an_open_challenge_is_listed_live_then_removed_when_joined(db: Database) {
    let server = Server::start_db(db).await;
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

both!(a_direct_challenge_reaches_only_its_two_players);
async fn a_direct_challenge_reaches_only_its_two_players(db: Database) {
    let server = Server::start_db(db).await;
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

both!(a_direct_challenge_can_be_declined_by_its_addressee_only);
async fn a_direct_challenge_can_be_declined_by_its_addressee_only(db: Database) {
    let server = Server::start_db(db).await;
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
    assert_eq!(a.code(), Some("challenge_declined"));
    for c in [&bob, &zed] {
        let a = c
            .request("POST", &format!("/api/games/{id}/join"), None)
            .await
            .unwrap();
        assert_eq!(a.code(), Some("challenge_declined"));
    }
    let a = bob
        .request("POST", &format!("/api/games/{id}/decline"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("challenge_declined"));
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

both!(only_the_creator_cancels_and_only_while_open);
async fn only_the_creator_cancels_and_only_while_open(db: Database) {
    let server = Server::start_db(db).await;
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
    assert_eq!(a.code(), Some("challenge_cancelled"));
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

both!(refused_challenges_have_stable_codes);
async fn refused_challenges_have_stable_codes(db: Database) {
    let server = Server::start_db(db).await;
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

both!(a_challenge_whose_creator_is_gone_leaves_the_lobby);
async fn a_challenge_whose_creator_is_gone_leaves_the_lobby(db: Database) {
    // Issue 29, item 6: an abandoned challenge stayed in the lobby, and whoever joined it
    // waited two minutes for an abort.
    let options = Options {
        creator_gone: Duration::from_millis(300),
        ..Default::default()
    };
    let server = Server::start_options(db, options).await;
    let ann = account(&server, "ann").await;
    let cat = account(&server, "cat").await;
    let bob = account(&server, "bob").await;
    let (mut f, _) = feed(&bob).await;
    // Cat's challenge is made over HTTP and its socket never opened: it keeps the expiry.
    let kept = cat.create_game(&json!({})).await.unwrap();
    let kept = kept["id"].as_str().unwrap();
    assert_eq!(f.next_within(T).await.unwrap()["type"], "added");
    // Ann opens the socket on hers, closes it, opens it again in time, then closes it for good.
    let g = ann.create_game(&json!({})).await.unwrap();
    let id = g["id"].as_str().unwrap();
    assert_eq!(f.next_within(T).await.unwrap()["type"], "added");
    let (ws, _) = socket(&ann, id).await;
    ws.close().await;
    let (ws, _) = socket(&ann, id).await;
    ws.close().await;
    let v = f.next_within(T).await.unwrap();
    assert_eq!(
        v,
        json!({"type": "removed", "game": id, "reason": "abandoned"})
    );
    let a = bob
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("challenge_abandoned"));
    // Cat's is still open, long after Ann's went.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let open = bob
        .request("GET", "/api/games?status=open", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let ids: Vec<&str> = open
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, [kept]);
    bob.join(kept).await.unwrap();
    server.stop().await;
}

both!(an_unjoined_challenge_expires);
async fn an_unjoined_challenge_expires(db: Database) {
    let options = Options {
        challenge_expiry: Duration::from_millis(400),
        ..Default::default()
    };
    let server = Server::start_options(db, options).await;
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
    assert_eq!(a.code(), Some("challenge_expired"));
    // A joined game does not expire.
    let g = ann.create_game(&json!({})).await.unwrap();
    let live = g["id"].as_str().unwrap();
    bob.join(live).await.unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (_, state) = socket(&ann, live).await;
    assert_eq!(state["status"], "live");
    server.stop().await;
}

both!(a_rematch_is_a_direct_challenge_to_the_old_opponent);
async fn a_rematch_is_a_direct_challenge_to_the_old_opponent(db: Database) {
    let server = Server::start_db(db).await;
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

/// What a late client hears about the withdrawn challenge `id`: a `GET`, a join and a game
/// socket each give the reason (`code` over HTTP, `reason` in the socket's `withdrawn` frame).
async fn hears_withdrawn(server: &Server, late: &Client, id: &str, reason: &str) {
    let code = format!("challenge_{reason}");
    let a = late
        .request("GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(a.status, 410, "{:?}", a.body);
    assert_eq!(a.code(), Some(code.as_str()));
    let a = late
        .request("POST", &format!("/api/games/{id}/join"), None)
        .await
        .unwrap();
    assert_eq!(a.status, 410, "{:?}", a.body);
    assert_eq!(a.code(), Some(code.as_str()));
    for c in [late, &server.client()] {
        let mut ws = c.socket(id).await.unwrap();
        let v = ws.next_within(T).await.unwrap();
        assert_eq!(
            v,
            json!({"type": "withdrawn", "game": id, "reason": reason})
        );
        assert!(ws.next_within(T).await.is_err(), "the socket closes");
    }
}

both!(a_late_client_hears_why_a_challenge_was_withdrawn);
async fn a_late_client_hears_why_a_challenge_was_withdrawn(db: Database) {
    let options = Options {
        challenge_expiry: Duration::from_millis(600),
        ..Default::default()
    };
    let server = Server::start_options(db.clone(), options).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    // Declined by its addressee.
    let g = ann.create_game(&json!({"opponent": "bob"})).await.unwrap();
    let declined = g["id"].as_str().unwrap().to_owned();
    bob.decline(&declined).await.unwrap();
    hears_withdrawn(&server, &bob, &declined, "declined").await;
    // Cancelled by its creator.
    let g = ann.create_game(&json!({})).await.unwrap();
    let cancelled = g["id"].as_str().unwrap().to_owned();
    ann.cancel(&cancelled).await.unwrap();
    hears_withdrawn(&server, &bob, &cancelled, "cancelled").await;
    // Expired, with nobody listening.
    let g = ann.create_game(&json!({})).await.unwrap();
    let expired = g["id"].as_str().unwrap().to_owned();
    let mut f = feed(&bob).await.0;
    let v = f.until("removed", T).await.unwrap();
    assert_eq!(v["game"], expired.as_str());
    hears_withdrawn(&server, &bob, &expired, "expired").await;
    // Withdrawing it again is refused with the same reason; an id never used is not found.
    let a = ann
        .request("DELETE", &format!("/api/games/{declined}"), None)
        .await
        .unwrap();
    assert_eq!(a.code(), Some("challenge_declined"));
    let a = bob
        .request("GET", "/api/games/nosuchgame", None)
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (404, Some("not_found")));
    let a = bob.socket("nosuchgame").await;
    assert!(a.is_err(), "no socket on a game that never was");
    // The tombstones are durable: a restarted server still knows why.
    server.stop().await;
    let server = Server::start_db(db).await;
    let bob = server.client().with_token(bob.token().unwrap());
    hears_withdrawn(&server, &bob, &declined, "declined").await;
    hears_withdrawn(&server, &bob, &expired, "expired").await;
    server.stop().await;
}

both!(tombstones_are_kept_a_day_then_dropped);
async fn tombstones_are_kept_a_day_then_dropped(db: Database) {
    let store = match &db {
        Database::Dir(d) => Store::open_dir(d).await.unwrap(),
        Database::Url(u) => Store::connect(u).await.unwrap(),
    };
    let open = |id: &str| GameRow {
        id: id.into(),
        rules: "wild16".into(),
        fen: umpire_rules::record::STANDARD_FEN.into(),
        users: [None, None],
        agents: [None, None],
        agent_seed: 1,
        initial_ms: 60_000,
        increment_ms: 0,
        status: "open".into(),
        result: None,
        reason: None,
        created_ms: 0,
        rated: false,
        practice: false,
        opponent: None,
    };
    let day = WITHDRAWN_KEEP_MS;
    let t0 = 1_000_000_000_000;
    store.insert_game(&open("old")).await.unwrap();
    assert!(
        store
            .withdraw_open_game("old", "expired", t0)
            .await
            .unwrap()
    );
    assert!(store.game("old").await.unwrap().is_none());
    // Only an open game is withdrawn, once.
    assert!(
        !store
            .withdraw_open_game("old", "cancelled", t0)
            .await
            .unwrap()
    );
    let kept = store.withdrawn("old", t0 + day - 1).await.unwrap().unwrap();
    assert_eq!((kept.reason.as_str(), kept.at_ms), ("expired", t0));
    // Past a day it is not shown.
    assert_eq!(store.withdrawn("old", t0 + day + 1).await.unwrap(), None);
    // Still stored until a later withdrawal drops it.
    assert!(store.withdrawn("old", t0).await.unwrap().is_some());
    store.insert_game(&open("new")).await.unwrap();
    assert!(
        store
            .withdraw_open_game("new", "declined", t0 + day + 1)
            .await
            .unwrap()
    );
    assert_eq!(store.withdrawn("old", t0).await.unwrap(), None);
    let new = store.withdrawn("new", t0 + day + 1).await.unwrap().unwrap();
    assert_eq!(new.reason, "declined");
    store.close().await;
}

both!(creating_games_is_rate_limited_per_player);
async fn creating_games_is_rate_limited_per_player(db: Database) {
    let server = Server::start_db(db).await;
    let ann = account(&server, "ann").await;
    let bob = account(&server, "bob").await;
    let (mut f, _) = feed(&server.client()).await;
    let burst = 30;
    let mut made = 0;
    let refused = loop {
        let a = ann
            .request("POST", "/api/games", Some(&json!({})))
            .await
            .unwrap();
        if a.status != 200 {
            break a;
        }
        made += 1;
        assert!(made <= burst, "more than {burst} games at once");
        assert_eq!(f.next_within(T).await.unwrap()["type"], "added");
    };
    // The burst, then a stable refusal; nothing was created or announced.
    assert_eq!(made, burst);
    assert_eq!(refused.status, 429);
    assert_eq!(refused.code(), Some("rate_limited"));
    quiet(&mut f).await;
    // A game against an agent counts too.
    let a = ann
        .request("POST", "/api/games", Some(&json!({"agent": "random"})))
        .await
        .unwrap();
    assert_eq!(a.code(), Some("rate_limited"));
    // Another player is not held back.
    bob.create_game(&json!({})).await.unwrap();
    assert_eq!(f.next_within(T).await.unwrap()["type"], "added");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_share_a_limit_per_address() {
    let options = Options {
        limit_loopback_guests: true,
        ..Default::default()
    };
    let server =
        Server::start_options(Database::Dir(common::fresh_dir("guest-limit")), options).await;
    let per_address = 60;
    let mut made = 0;
    let refused = loop {
        // A new guest each time: only the address is common.
        let a = server
            .guest()
            .await
            .request("POST", "/api/games", Some(&json!({})))
            .await
            .unwrap();
        if a.status != 200 {
            break a;
        }
        made += 1;
        assert!(
            made <= per_address,
            "more than {per_address} guest games at once"
        );
    };
    assert_eq!(made, per_address);
    assert_eq!(refused.code(), Some("rate_limited"));
    // An account at the same address is limited on its own.
    let ann = account(&server, "ann").await;
    ann.create_game(&json!({})).await.unwrap();
    server.stop().await;
    // By default guests on a loopback address are counted only each on its own (a local load
    // test starts thousands of guest games).
    let server = Server::start(common::fresh_dir("guest-loopback")).await;
    for _ in 0..per_address + 5 {
        server.guest().await.create_game(&json!({})).await.unwrap();
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_tombstones_is_migrated() {
    use sqlx::Connection;

    let dir = common::fresh_dir("pre-tombstones");
    let server = Server::start(dir.clone()).await;
    let ann = account(&server, "ann").await;
    let g = ann.create_game(&json!({})).await.unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    server.stop().await;
    // What a server of schema version 4 left: no table `withdrawn`, migration 5 not run.
    let url = format!("sqlite://{}", dir.join("umpire.sqlite3").display());
    let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::raw_sql("DROP TABLE withdrawn; DELETE FROM _sqlx_migrations WHERE version = 5")
        .execute(&mut db)
        .await
        .unwrap();
    db.close().await.unwrap();
    // The challenge open then is still open, and its cancellation leaves a tombstone.
    let server = Server::start(dir).await;
    let ann = server.client().with_token(ann.token().unwrap());
    ann.cancel(&id).await.unwrap();
    let a = ann
        .request("GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!((a.status, a.code()), (410, Some("challenge_cancelled")));
    server.stop().await;
}

/// A feed whose reader is slow: a TCP receive buffer of a few KiB, and nothing read after the
/// snapshot until the test says so.
async fn slow_feed(server: &Server) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    use futures_util::StreamExt;
    let addr: std::net::SocketAddr = server.url.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/api/lobby/ws"), stream)
        .await
        .unwrap();
    let first = ws.next().await.unwrap().unwrap();
    let first: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(first["type"], "lobby", "{first}");
    ws
}

/// How many challenges the lag test opens and cancels while the slow feed does not read: each
/// gives two frames, more than the feed may send unread.
const LAG_ROUNDS: usize = 600;

/// A feed that does not read falls behind: past `MAX_UNREAD` frames it has not confirmed
/// (by answering the server's pings) the server sends `lagged` and closes it. Once it reads
/// again it gets what was buffered, then the `lagged` error frame, then the close; connecting
/// again gives a fresh snapshot with the challenges open now. A feed that reads is not
/// disturbed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lagging_feed_hears_lagged_is_closed_and_resubscribes_to_a_fresh_list() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;

    let server = Server::start(common::fresh_dir("lagged")).await;
    let mut slow = slow_feed(&server).await;
    // A feed that reads as the frames come is never closed.
    let (mut fast, _) = feed(&server.client()).await;
    let reading = tokio::spawn(async move {
        let mut n = 0usize;
        while n < 2 * LAG_ROUNDS + 1 {
            let v = fast.next_within(T).await.unwrap();
            assert!(v["type"] == "added" || v["type"] == "removed", "{v}");
            n += 1;
        }
        n
    });
    // Creators: a new guest every 25 games (each account may open 30 at once).
    let mut creator = server.guest().await;
    for round in 0..LAG_ROUNDS {
        if round % 25 == 24 {
            creator = server.guest().await;
        }
        let g = creator.create_game(&json!({})).await.unwrap();
        creator.cancel(g["id"].as_str().unwrap()).await.unwrap();
    }
    let kept = creator.create_game(&json!({})).await.unwrap();
    let kept = kept["id"].as_str().unwrap().to_owned();
    // The slow feed reads again: events, then `lagged`, then the close.
    let mut events = 0usize;
    let lagged = loop {
        let msg = tokio::time::timeout(T, slow.next())
            .await
            .unwrap_or_else(|_| panic!("no lagged frame after {events} events"))
            .expect("the feed ends with an error frame first")
            .unwrap();
        let text = match msg {
            Message::Text(text) => text,
            // The server's pings, which this client (reading only now) answers too late.
            Message::Ping(_) => continue,
            other => panic!("unexpected {other:?} before the lagged frame"),
        };
        let v: Value = serde_json::from_str(&text).unwrap();
        match v["type"].as_str().unwrap() {
            "added" | "removed" => events += 1,
            "error" => break v,
            other => panic!("unexpected frame {v} ({other})"),
        }
    };
    assert_eq!(lagged["code"], "lagged", "{lagged}");
    assert!(
        lagged["message"]
            .as_str()
            .unwrap()
            .contains("connect again"),
        "{lagged}"
    );
    // The frames it may send unread and the one past the bound: the client never answered a
    // ping.
    assert_eq!(
        events as u64,
        umpire_server::http::lobby_socket::MAX_UNREAD + 1
    );
    assert_eq!(reading.await.unwrap(), 2 * LAG_ROUNDS + 1);
    match tokio::time::timeout(T, slow.next())
        .await
        .expect("the close")
    {
        Some(Ok(Message::Close(_)) | Err(_)) | None => {}
        Some(Ok(m)) => panic!("a frame after lagged: {m:?}"),
    }
    // Connecting again: a fresh snapshot of what is open now.
    let (_, first) = feed(&server.client()).await;
    assert_eq!(ids(&first), [kept]);
    server.stop().await;
}
