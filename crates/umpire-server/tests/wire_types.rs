//! What the server sends, read as the types of `umpire-protocol`: every HTTP answer as its body
//! type and every frame as its frame type, written back to the same JSON (so no field the
//! server sends is missing from a type, and none is added).

mod common;

use common::rated::{account, get, rated_win};
use common::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use umpire_protocol::game::GameFrame;
use umpire_protocol::http::account::{MeBody, NewBotBody, OkBody, SessionBody};
use umpire_protocol::http::error::ErrorBody;
use umpire_protocol::http::game::{GameSummary, RemovedBody};
use umpire_protocol::http::metrics::MetricsBody;
use umpire_protocol::http::ratings::{HistoryBody, LeaderboardBody, PlayerBody};
use umpire_protocol::lobby::LobbyFrame;

/// `v` reads as a `T` that writes back as `v`.
fn typed<T: DeserializeOwned + Serialize>(v: &Value) -> T {
    let t: T = serde_json::from_value(v.clone())
        .unwrap_or_else(|e| panic!("{e}: {} as {}", v, std::any::type_name::<T>()));
    assert_eq!(
        &serde_json::to_value(&t).unwrap(),
        v,
        "{}",
        std::any::type_name::<T>()
    );
    t
}

fn frame(v: &Value) -> GameFrame {
    typed(v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_and_frame_reads_as_its_type() {
    let options = umpire_server::Options {
        metrics: true,
        ..Default::default()
    };
    let server = Server::start_options(
        umpire_server::Database::Dir(fresh_dir("wire-types")),
        options,
    )
    .await;
    let c = server.client();
    typed::<SessionBody>(
        &c.request("POST", "/api/guest", None)
            .await
            .unwrap()
            .ok()
            .unwrap(),
    );
    let register = json!({"name": "ann", "password": "correct horse"});
    let a = c
        .request("POST", "/api/register", Some(&register))
        .await
        .unwrap();
    typed::<SessionBody>(&a.body);
    let login = c
        .request("POST", "/api/login", Some(&register))
        .await
        .unwrap();
    let session: SessionBody = typed(&login.body);
    let ann = server.client().with_token(&session.session);
    typed::<MeBody>(&ann.request("GET", "/api/me", None).await.unwrap().body);
    let bot = ann
        .request("POST", "/api/bots", Some(&json!({"name": "botty"})))
        .await
        .unwrap();
    typed::<NewBotBody>(&bot.body);
    let refused = ann
        .request("POST", "/api/bots", Some(&json!({"name": "botty"})))
        .await
        .unwrap();
    assert_eq!(refused.code(), Some("name_taken"));
    typed::<ErrorBody>(&refused.body);

    // Games: created, listed, shown, cancelled, declined, joined, rematched.
    let bob = account(&server, "bob").await;
    let open = ann.create_game(&json!({"color": "white"})).await.unwrap();
    let open: GameSummary = typed(&open);
    typed::<Vec<GameSummary>>(&get(&server, "/api/games").await);
    typed::<GameSummary>(&get(&server, &format!("/api/games/{}", open.id)).await);
    typed::<RemovedBody>(&ann.cancel(&open.id).await.unwrap());
    let direct = ann.create_game(&json!({"opponent": "bob"})).await.unwrap();
    let direct: GameSummary = typed(&direct);
    typed::<RemovedBody>(&bob.decline(&direct.id).await.unwrap());
    let mut lobby = bob.lobby().await.unwrap();
    typed::<LobbyFrame>(&lobby.next_within(T).await.unwrap());
    let g = ann
        .create_game(&json!({"color": "white", "rated": true}))
        .await
        .unwrap();
    let g: GameSummary = typed(&g);
    typed::<LobbyFrame>(&lobby.until("added", T).await.unwrap());
    typed::<GameSummary>(&bob.join(&g.id).await.unwrap());
    typed::<LobbyFrame>(&lobby.until("removed", T).await.unwrap());
    lobby.send(&json!({"type": "any"})).await.unwrap();
    typed::<LobbyFrame>(&lobby.until("error", T).await.unwrap());

    // The game socket: state, update, relist, chat, error, sync; then the end and a rematch.
    let (mut w, state) = socket(&ann, &g.id).await;
    frame(&state);
    let (mut b, _) = socket(&bob, &g.id).await;
    let mut watcher = server.client().socket(&g.id).await.unwrap();
    frame(&watcher.next_within(T).await.unwrap());
    frame(&ask(&mut w, json!({"type": "attempt", "move": "e2e4"}), 1).await);
    frame(&watcher.until("update", T).await.unwrap());
    frame(&ask(&mut w, json!({"type": "relist"}), 2).await);
    frame(&ask(&mut w, json!({"type": "attempt", "move": "e7e5"}), 3).await);
    frame(&ask(&mut w, json!({"type": "sync"}), 4).await);
    b.send(&json!({"type": "msg", "text": "good luck"}))
        .await
        .unwrap();
    frame(&w.until("chat", T).await.unwrap());
    let end = frame(&ask(&mut b, json!({"type": "resign"}), 5).await);
    assert!(
        matches!(&end, GameFrame::Update(umpire_protocol::game::update::UpdateFrame::Player(u)) if u.result.is_some() && u.ratings.is_some()),
        "{end:?}"
    );
    let rematch = ann
        .request("POST", &format!("/api/games/{}/rematch", g.id), None)
        .await
        .unwrap();
    let rematch: GameSummary = typed(&rematch.body);
    assert_eq!(rematch.rematch_of.as_deref(), Some(g.id.as_str()));
    frame(&b.until("rematch", T).await.unwrap());

    // Ratings: the leaderboard, a player, a history, after a rated game between accounts.
    let cid = account(&server, "cid").await;
    rated_win(&bob, &cid).await;
    typed::<LeaderboardBody>(&get(&server, "/api/leaderboard?provisional=true").await);
    typed::<PlayerBody>(&get(&server, "/api/players/bob").await);
    typed::<HistoryBody>(&get(&server, "/api/players/bob/history").await);
    typed::<MetricsBody>(&get(&server, "/api/metrics").await);
    let out = cid.request("POST", "/api/logout", None).await.unwrap();
    typed::<OkBody>(&out.ok().unwrap());
    server.stop().await;
}
