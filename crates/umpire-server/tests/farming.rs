//! Rating farming (issue 31, item 8): an account's games against its own bots, games between
//! bots of one owner and the same pair's games past the daily allowance change no rating, and
//! an account makes a bounded number of bots.

mod common;

use common::rated::{account, game_between, get, ratings, resign};
use common::{Server, fresh_dir};
use serde_json::json;
use umpire_server::accounts::auth::MAX_BOTS_PER_OWNER;
use umpire_server::ratings::farming::MAX_RATED_PAIR_GAMES;

/// A bot of `owner` named `name`, as a client with its token.
async fn bot(
    server: &Server,
    owner: &umpire_client::client::Client,
    name: &str,
) -> umpire_client::client::Client {
    let b = owner
        .request("POST", "/api/bots", Some(&json!({"name": name})))
        .await
        .unwrap()
        .ok()
        .unwrap();
    server.client().with_token(b["token"].as_str().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_ones_own_bots_are_unrated() {
    let server = Server::start(fresh_dir("farm-own-bot")).await;
    let farmer = account(&server, "farmer").await;
    let puppet = bot(&server, &farmer, "puppet").await;
    let sibling = bot(&server, &farmer, "sibling").await;
    // The owner beats its bot, White or Black, and its bots beat each other.
    let id = game_between(&farmer, &puppet, json!({"rated": true})).await;
    resign(&puppet, &id).await;
    let id = game_between(&puppet, &farmer, json!({"rated": true})).await;
    resign(&puppet, &id).await;
    let id = game_between(&sibling, &puppet, json!({"rated": true})).await;
    resign(&puppet, &id).await;
    for name in ["farmer", "puppet", "sibling"] {
        assert!(ratings(&server, name).await.is_empty(), "{name} was rated");
    }
    // The game is stored as casual.
    let g = get(&server, &format!("/api/games/{id}")).await;
    assert_eq!(g["rated"], false, "{g}");
    // Against someone else's account the same bot is rated.
    let other = account(&server, "other").await;
    let id = game_between(&other, &puppet, json!({"rated": true})).await;
    resign(&puppet, &id).await;
    assert_eq!(ratings(&server, "other").await.len(), 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_pair_is_rated_a_few_times_a_day() {
    let server = Server::start(fresh_dir("farm-pair")).await;
    let ann = account(&server, "ann").await;
    let friend = account(&server, "friend").await;
    for _ in 0..MAX_RATED_PAIR_GAMES + 2 {
        let id = game_between(&ann, &friend, json!({"rated": true})).await;
        resign(&friend, &id).await;
    }
    let a = ratings(&server, "ann").await;
    assert_eq!(a[0]["games"], MAX_RATED_PAIR_GAMES, "{a:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_makes_a_bounded_number_of_bots() {
    let server = Server::start(fresh_dir("farm-bots")).await;
    let owner = account(&server, "owner").await;
    for i in 0..MAX_BOTS_PER_OWNER {
        bot(&server, &owner, &format!("bot{i}")).await;
    }
    let refused = owner
        .request("POST", "/api/bots", Some(&json!({"name": "onemore"})))
        .await
        .unwrap();
    assert_eq!(refused.status, 403);
    assert_eq!(refused.code(), Some("too_many_bots"));
    server.stop().await;
}
