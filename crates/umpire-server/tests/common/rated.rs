//! Helpers for rated games between accounts.

use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Rating, glicko2};
use umpire_client::client::Client;

use super::{Server, ask, socket};

/// A new registered account (its session kept).
pub async fn account(server: &Server, name: &str) -> Client {
    let mut c = server.client();
    c.register(name, "password123").await.unwrap();
    c
}

/// `white` creates a game (`spec` plus White's seat), `black` joins; returns the game id.
pub async fn game_between(white: &Client, black: &Client, spec: Value) -> String {
    let mut spec = spec;
    spec["color"] = json!("white");
    let g = white.create_game(&spec).await.unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    black.join(&id).await.unwrap();
    id
}

/// `loser` resigns game `id`.
pub async fn resign(loser: &Client, id: &str) {
    let (mut s, _) = socket(loser, id).await;
    let u = ask(&mut s, json!({"type":"resign"}), 1).await;
    assert!(u["result"]["score"].is_string(), "{u}");
}

/// A rated game of the default time control (rapid) that `winner`, White, wins by
/// resignation.
pub async fn rated_win(winner: &Client, loser: &Client) -> String {
    let id = game_between(winner, loser, json!({"rated": true})).await;
    resign(loser, &id).await;
    id
}

/// White offers a draw at its first turn and Black accepts.
pub async fn agree_draw(white: &Client, black: &Client, id: &str) {
    let (mut w, _) = socket(white, id).await;
    let (mut b, _) = socket(black, id).await;
    ask(&mut w, json!({"type":"draw","action":"offer"}), 1).await;
    let u = ask(&mut b, json!({"type":"draw","action":"accept"}), 2).await;
    assert_eq!(u["result"]["score"], "1/2-1/2", "{u}");
}

/// `GET PATH` answered with 2xx.
pub async fn get(server: &Server, path: &str) -> Value {
    server
        .client()
        .request("GET", path, None)
        .await
        .unwrap()
        .ok()
        .unwrap()
}

/// The refusal code of `GET PATH`.
pub async fn get_code(server: &Server, path: &str) -> String {
    let a = server.client().request("GET", path, None).await.unwrap();
    assert!(a.status >= 400, "{path}: {a:?}");
    a.code().unwrap_or_default().to_owned()
}

/// A player's ratings as answered by `GET /api/players/NAME`.
pub async fn ratings(server: &Server, name: &str) -> Vec<Value> {
    get(server, &format!("/api/players/{name}")).await["ratings"]
        .as_array()
        .unwrap()
        .clone()
}

/// A rating as the API shows it, in the crate's type.
pub fn glicko(v: &Value) -> Glicko2Rating {
    Glicko2Rating {
        rating: v["rating"].as_f64().unwrap(),
        deviation: v["deviation"].as_f64().unwrap(),
        volatility: v["volatility"].as_f64().unwrap(),
    }
}

/// Asserts that a shown rating is `expected`.
pub fn assert_rating(shown: &Value, expected: Glicko2Rating) {
    let got = glicko(shown);
    assert!(
        (got.rating - expected.rating).abs() < 1e-9
            && (got.deviation - expected.deviation).abs() < 1e-9
            && (got.volatility - expected.volatility).abs() < 1e-12,
        "shown {got:?}, expected {expected:?}"
    );
}

/// Both players' ratings after one game, computed by `skillratings` itself.
pub fn expected(
    white: Glicko2Rating,
    black: Glicko2Rating,
    outcome: Outcomes,
) -> (Glicko2Rating, Glicko2Rating) {
    glicko2(&white, &black, &outcome, &Default::default())
}

/// Six rated games of Ann end at the same moment (each opponent resigns at once); every
/// rating update must start from the one before it.
pub async fn ends_at_once_keep_every_update(server: &Server) {
    let ann = account(server, "ann").await;
    let mut opponents = Vec::new();
    let mut games = Vec::new();
    for i in 0..6 {
        let o = account(server, &format!("opp{i}")).await;
        games.push(game_between(&ann, &o, json!({"rated": true})).await);
        opponents.push(o);
    }
    // Every opponent resigns at the same time: six ends of Ann's games race each other.
    let mut sockets = Vec::new();
    for (o, id) in opponents.iter().zip(&games) {
        sockets.push(socket(o, id).await.0);
    }
    let resigns = sockets
        .iter_mut()
        .map(|s| ask(s, json!({"type":"resign"}), 1));
    for u in futures_util::future::join_all(resigns).await {
        assert_eq!(u["result"]["score"], "1-0", "{u}");
    }
    let a = ratings(server, "ann").await;
    assert_eq!(
        (a[0]["games"].clone(), a[0]["wins"].clone()),
        (json!(6), json!(6))
    );
    // Each update started from the one before: the history is one unbroken chain from 1500,
    // and replaying it through skillratings gives the stored rating.
    let h = get(server, "/api/players/ann/history").await["history"].clone();
    let mut h = h.as_array().unwrap().clone();
    h.reverse();
    assert_eq!(h.len(), 6);
    let mut now = Glicko2Rating::new();
    for (n, row) in h.iter().enumerate() {
        assert_eq!(row["games"], n + 1);
        assert_rating(&row["before"], now);
        let them = Glicko2Rating::new();
        now = expected(now, them, Outcomes::WIN).0;
        assert_rating(&row["after"], now);
    }
    assert_rating(&a[0], now);
}
