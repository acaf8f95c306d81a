//! A house agent's seed is the game's, the same at every load (review of issue 31, item 15):
//! a game reloaded after its first move gets the reply the uninterrupted game got.

mod common;

use common::{Server, T, ask, fresh_dir, socket};
use serde_json::json;
use umpire_server::Store;
use umpire_server::accounts::auth::{new_token, token_hash};
use umpire_server::store::{CommandRow, Credential, GameRow, UserRow, now_ms};

/// A live game of `user` (White) against the house agent `random` (Black), with this seed.
fn row(id: &str, user: &str, seed: i64) -> GameRow {
    GameRow {
        id: id.to_owned(),
        rules: "wild16".to_owned(),
        fen: umpire_rules::record::STANDARD_FEN.to_owned(),
        users: [Some(user.to_owned()), None],
        agents: [None, Some("random".to_owned())],
        agent_seed: seed,
        initial_ms: 600_000,
        increment_ms: 0,
        status: "live".to_owned(),
        result: None,
        reason: None,
        created_ms: now_ms(),
        rated: false,
        practice: false,
        opponent: None,
    }
}

/// Waits until game `id` holds `n` commands; returns them.
async fn commands(store: &Store, id: &str, n: usize) -> Vec<CommandRow> {
    tokio::time::timeout(T, async {
        loop {
            let c = store.commands(id).await.unwrap();
            if c.len() >= n {
                return c;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the agent answered")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reloaded_house_agent_replies_as_the_uninterrupted_one() {
    let dir = fresh_dir("agent-replay");
    let store = Store::open_dir(&dir).await.unwrap();
    let user = UserRow {
        id: "human".to_owned(),
        name: "human".to_owned(),
        kind: "account".to_owned(),
        password_hash: None,
        owner: None,
    };
    store.insert_user(&user).await.unwrap();
    let token = new_token();
    store
        .insert_credential(Credential::Session, &token_hash(&token), "human")
        .await
        .unwrap();
    let mut replies = Vec::new();
    for seed in [11, 2024, 777_777] {
        // Uninterrupted: the agent is loaded before White's first move, then hears it.
        store
            .insert_game(&row(&format!("a{seed}"), "human", seed))
            .await
            .unwrap();
        // Reloaded: the same game stored with White's first move already made, loaded after.
        store
            .insert_game(&row(&format!("b{seed}"), "human", seed))
            .await
            .unwrap();
        let first = CommandRow {
            seq: 0,
            side: "white".to_owned(),
            command: "e2e4".to_owned(),
            clock_ms: 600_000,
            at_ms: now_ms(),
        };
        store
            .append_command(&format!("b{seed}"), &first, None)
            .await
            .unwrap();
        replies.push(seed);
    }
    store.close().await;
    let server = Server::start(dir.clone()).await;
    let human = server.client().with_token(&token);
    for seed in &replies {
        let (mut s, _) = socket(&human, &format!("a{seed}")).await;
        ask(&mut s, json!({"type": "attempt", "move": "e2e4"}), 1).await;
    }
    let store = Store::open_dir(&dir).await.unwrap();
    for seed in &replies {
        let a = commands(&store, &format!("a{seed}"), 2).await;
        let b = commands(&store, &format!("b{seed}"), 2).await;
        assert_eq!(a[0].command, "e2e4");
        assert_eq!(
            a[1].command, b[1].command,
            "seed {seed}: the reloaded agent replied otherwise"
        );
    }
    store.close().await;
    server.stop().await;
}
