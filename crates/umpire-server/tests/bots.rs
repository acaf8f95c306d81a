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
use umpire_server::remote::{PlayStats, play};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_play_a_whole_game_and_the_record_replays() {
    let server = Server::start(fresh_dir("bots")).await;
    let mut owner = server.client();
    owner.register("owner", "password123").await.unwrap();
    let mut tokens = Vec::new();
    for name in ["bot-one", "bot-two"] {
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
    let guided = AgentKind::GuidedRandom.into();
    let running = tokio::spawn(async move {
        umpire_server::remote::run_bot(&bot, &guided, 1, None, false, 7).await
    });
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
