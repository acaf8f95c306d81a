//! Two built-in agents play each other through the server as remote bots (API tokens, the
//! game WebSocket), and the stored record replays exactly; the game is rated, and both bot
//! accounts' ratings move by Glicko-2.

mod common;

use common::rated::{assert_rating, expected, ratings};
use common::*;
use serde_json::json;
use skillratings::Outcomes;
use skillratings::glicko2::Glicko2Rating;
use umpire_ai::AgentKind;
use umpire_client::bot::{BotPlan, run_bot};
use umpire_client::client::Client;
use umpire_client::remote::{PlayStats, play};
use umpire_rules::Verdict;

/// A bot taking challenges: `games` games, `parallel` at once.
fn plan(games: usize, parallel: usize) -> BotPlan {
    BotPlan {
        agent: AgentKind::GuidedRandom.into(),
        games,
        parallel,
        create: None,
        rated: false,
        seed: 7,
    }
}

/// A bot account named `name` owned by a new account; its client.
async fn bot_account(server: &Server, name: &str) -> Client {
    let mut owner = server.client();
    owner
        .register(&format!("{name}-owner"), "password123")
        .await
        .unwrap();
    let b = owner
        .request("POST", "/api/bots", Some(&json!({"name": name})))
        .await
        .unwrap()
        .ok()
        .unwrap();
    server.client().with_token(b["token"].as_str().unwrap())
}

/// Waits until the game `id` is live for `client` (it plays it) and returns its socket.
async fn live(client: &Client, id: &str) -> umpire_client::client::GameSocket {
    let (mut s, state) = socket(client, id).await;
    if state["status"] == "open" {
        let state = s.until("state", T).await.unwrap();
        assert_eq!(state["status"], "live", "{state}");
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_play_a_whole_game_and_the_record_replays() {
    let server = Server::start(fresh_dir("bots")).await;
    let mut tokens = Vec::new();
    // Two owners: a game between bots of one owner is never rated (rating farming).
    for name in ["bot-one", "bot-two"] {
        let mut owner = server.client();
        owner
            .register(&format!("owner-of-{name}"), "password123")
            .await
            .unwrap();
        let b = owner
            .request("POST", "/api/bots", Some(&json!({"name": name})))
            .await
            .unwrap()
            .ok()
            .unwrap();
        tokens.push(b["token"].as_str().unwrap().to_owned());
    }
    let one = server.client().with_token(&tokens[0]);
    let two = server.client().with_token(&tokens[1]);
    let g = one
        .create_game(&json!({"color":"white","rules":"berkeley-any","rated":true}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    two.join(&id).await.unwrap();
    let (mut s1, mut s2) = (PlayStats::default(), PlayStats::default());
    let (random, guided) = (AgentKind::Random.into(), AgentKind::GuidedRandom.into());
    let (a, b) = tokio::join!(
        play(&one, &id, &random, 1, None, &mut s1),
        play(&two, &id, &guided, 2, None, &mut s2),
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.result, b.result);
    assert!(!a.result.is_null());
    assert_eq!(s1.sent, s1.acknowledged);
    assert_eq!(s2.sent, s2.acknowledged);
    assert_eq!((s1.errors, s2.errors), (0, 0));

    let record = stored_record(&server.client(), &id).await;
    let game = record.replay().unwrap();
    let result = game.result().unwrap();
    assert_eq!(a.result["score"], result.score());
    assert_eq!(a.result["reason"], result.reason.as_str());
    assert_eq!(record.entries.len() as u64, s1.sent + s2.sent);
    assert_eq!(record.tags.get("White"), Some("bot-one"));

    // Rated: both bots start at 1500/350 and move by the result, whatever it was.
    let outcome = match result.score() {
        "1-0" => Outcomes::WIN,
        "0-1" => Outcomes::LOSS,
        "1/2-1/2" => Outcomes::DRAW,
        other => panic!("the umpire ended the game with {other:?}"),
    };
    let (w, b) = expected(Glicko2Rating::new(), Glicko2Rating::new(), outcome);
    let one = ratings(&server, "bot-one").await;
    let two = ratings(&server, "bot-two").await;
    assert_eq!(one[0]["rules"], "berkeley-any");
    assert_rating(&one[0], w);
    assert_rating(&two[0], b);
    server.stop().await;
}

/// A person challenges a bot account by name; `umpire bot`'s loop accepts that challenge
/// before an older open one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_accepts_a_challenge_addressed_to_it_first() {
    let server = Server::start(fresh_dir("bot-challenge")).await;
    let mut owner = server.client();
    owner.register("owner", "password123").await.unwrap();
    let b = owner
        .request("POST", "/api/bots", Some(&json!({"name": "botty"})))
        .await
        .unwrap()
        .ok()
        .unwrap();
    let bot = server.client().with_token(b["token"].as_str().unwrap());
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    let zed = server.guest().await;
    // An older challenge to anyone, then Ann's to the bot by name.
    zed.create_game(&json!({})).await.unwrap();
    let g = ann
        .create_game(&json!({"opponent": "botty", "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let running = tokio::spawn(async move { run_bot(&bot, &plan(1, 1), |_, _| {}).await });
    // Ann waits until her game starts, then resigns.
    let (mut s, state) = socket(&ann, &id).await;
    if state["status"] == "open" {
        let state = s.until("state", T).await.unwrap();
        assert_eq!(state["players"]["black"], "botty");
    }
    let v = ask(&mut s, json!({"type": "resign"}), 1).await;
    assert_eq!(v["result"]["score"], "0-1", "{v}");
    let done = tokio::time::timeout(T, running)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].0, id);
    assert_eq!(done[0].1["score"], "0-1");
    server.stop().await;
}

/// The bot takes challenges as the lobby feed announces them, several at once: two games are
/// live together, and a third waits until a slot is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_challenges_from_the_feed_several_at_once() {
    let server = Server::start(fresh_dir("bot-parallel")).await;
    let bot = bot_account(&server, "botty").await;
    // Each game is told as it ends (`umpire bot` prints it then).
    let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let told = heard.clone();
    let running = tokio::spawn(async move {
        run_bot(&bot, &plan(3, 2), move |id, _| {
            told.lock().unwrap().push(id.to_owned())
        })
        .await
    });
    // Challenges made after the bot is listening (no polling: the feed tells it).
    let mut players = Vec::new();
    for name in ["ann", "bob", "cat"] {
        let mut c = server.client();
        c.register(name, "password123").await.unwrap();
        let g = c
            .create_game(&json!({"opponent": "botty", "color": "white"}))
            .await
            .unwrap();
        players.push((c, g["id"].as_str().unwrap().to_owned()));
    }
    let mut a = live(&players[0].0, &players[0].1).await;
    let mut b = live(&players[1].0, &players[1].1).await;
    // Both are live at once; the third is still open while two are in play.
    let (_, third) = socket(&players[2].0, &players[2].1).await;
    assert_eq!(third["status"], "open");
    assert_eq!(
        ask(&mut a, json!({"type": "resign"}), 1).await["result"]["score"],
        "0-1"
    );
    // A slot is free: the bot takes the third.
    let mut c = live(&players[2].0, &players[2].1).await;
    assert_eq!(
        ask(&mut b, json!({"type": "resign"}), 1).await["result"]["score"],
        "0-1"
    );
    assert_eq!(
        ask(&mut c, json!({"type": "resign"}), 1).await["result"]["score"],
        "0-1"
    );
    let done = tokio::time::timeout(T, running)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let in_order: Vec<String> = done.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(*heard.lock().unwrap(), in_order);
    let mut ids: Vec<&str> = done.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort_unstable();
    let mut want: Vec<&str> = players.iter().map(|(_, id)| id.as_str()).collect();
    want.sort_unstable();
    assert_eq!(ids, want);
    assert!(done.iter().all(|(_, r)| r["score"] == "0-1"));
    server.stop().await;
}

/// The feed drops when the server stops; the bot connects again (with a pause) to the server
/// started anew on the same address and takes a challenge made there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_connects_the_feed_again_after_the_server_restarts() {
    let dir = fresh_dir("bot-restart");
    let server = Server::start(dir.clone()).await;
    let addr = server.url.trim_start_matches("http://").to_owned();
    let bot = bot_account(&server, "botty").await;
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    let running = tokio::spawn(async move { run_bot(&bot, &plan(1, 1), |_, _| {}).await });
    // Let the bot open its feed, then stop the server under it.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    server.stop().await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let server = Server::start_at(dir, &addr).await;
    let ann = server.client().with_token(ann.token().unwrap());
    let g = ann
        .create_game(&json!({"opponent": "botty", "color": "white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let mut s = live(&ann, &id).await;
    assert_eq!(
        ask(&mut s, json!({"type": "resign"}), 1).await["result"]["score"],
        "0-1"
    );
    let done = tokio::time::timeout(T, running)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].0, id);
    assert_eq!(done[0].1["score"], "0-1");
    assert_eq!(done[0].1["reason"], "resignation");
    server.stop().await;
}

/// A bot whose game socket drops mid-game (a proxy between it and the server cuts every
/// connection) opens it again and plays the game to its end: both players report the same
/// result, the stored record replays, and the bot gave commands after the cut.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_whose_game_socket_drops_reconnects_and_finishes_the_game() {
    let server = Server::start(fresh_dir("bot-drop")).await;
    let proxy = common::proxy::Proxy::start(&server.url).await;
    let bot = bot_account(&server, "botty").await;
    let token = bot.token().unwrap().to_owned();
    // The bot talks to the server only through the proxy; it creates the game and waits.
    let through_proxy = Client::new(&proxy.url).unwrap().with_token(&token);
    let creating = BotPlan {
        create: Some("wild16".to_owned()),
        ..plan(1, 1)
    };
    let (mut feed, _) = socket_feed(&server).await;
    let running = tokio::spawn(async move { run_bot(&through_proxy, &creating, |_, _| {}).await });
    let added = feed.until("added", T).await.unwrap();
    let id = added["challenge"]["id"].as_str().unwrap().to_owned();
    let ann = server.guest().await;
    ann.join(&id).await.unwrap();
    // A spectator follows the plies; Ann plays directly against the server.
    let watcher = server.guest().await;
    let (mut watch, _) = socket(&watcher, &id).await;
    let guided = AgentKind::GuidedRandom.into();
    let game = id.clone();
    let ann_plays = tokio::spawn(async move {
        let mut stats = PlayStats::default();
        play(&ann, &game, &guided, 3, None, &mut stats).await
    });
    let cut_at = loop {
        let u = watch.next_within(T).await.unwrap();
        assert!(u["result"].is_null(), "the game ended before the cut: {u}");
        if u["plies"].as_u64().unwrap_or(0) >= 6 {
            break u["plies"].as_u64().unwrap();
        }
    };
    let before = proxy.accepted();
    proxy.cut();
    let done = tokio::time::timeout(std::time::Duration::from_secs(120), running)
        .await
        .expect("the bot finished")
        .unwrap()
        .unwrap();
    let ann_ended = ann_plays.await.unwrap().unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].0, id);
    assert!(!done[0].1.is_null(), "the bot played the game out");
    assert_eq!(done[0].1, ann_ended.result);
    assert!(proxy.accepted() > before, "the bot opened its socket again");
    // The record replays, and the bot (Ann's opponent) gave commands after the cut.
    let record = stored_record(&server.client(), &id).await;
    let game = record.replay().unwrap();
    assert_eq!(game.result().unwrap().score(), done[0].1["score"]);
    let bot_side = !ann_ended.side;
    let plies_after = record
        .entries
        .iter()
        .scan(0u64, |plies, e| {
            let at = *plies;
            *plies += u64::from(e.verdict == Verdict::Accepted);
            Some((at, e))
        })
        .filter(|(at, e)| *at >= cut_at && e.side == bot_side)
        .count();
    assert!(plies_after > 0, "the bot played on after the cut");
    server.stop().await;
}

/// The lobby feed of an anonymous listener, its snapshot read.
async fn socket_feed(server: &Server) -> (umpire_client::client::GameSocket, serde_json::Value) {
    let mut f = server.client().lobby().await.unwrap();
    let first = f.next_within(T).await.unwrap();
    assert_eq!(first["type"], "lobby", "{first}");
    (f, first)
}
