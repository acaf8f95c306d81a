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

/// Stores the account `human` and a session for it; the session's token.
async fn human_with_session(store: &Store) -> String {
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
    token
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reloaded_house_agent_replies_as_the_uninterrupted_one() {
    let dir = fresh_dir("agent-replay");
    let store = Store::open_dir(&dir).await.unwrap();
    let token = human_with_session(&store).await;
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

/// Reads `s` until White is to move again or the game is over; returns the last frame read.
async fn until_white_or_over(s: &mut umpire_client::client::GameSocket) -> serde_json::Value {
    tokio::time::timeout(T, async {
        loop {
            let v = s.next().await.expect("a frame");
            if v["status"] == "over" || v["type"] == "game_over" {
                return v;
            }
            if v["type"] == "update" && v["to_move"] == "white" {
                return v;
            }
        }
    })
    .await
    .expect("the agent answered")
}

/// Plays White's side of game `id` for `moves` moves (or to the end): at each turn White tries
/// its options in a seeded order until one is taken, then waits for the agent's reply.
/// Returns the commands White gave, in order.
async fn white_plays(
    human: &umpire_client::client::Client,
    id: &str,
    moves: usize,
    seed: u64,
) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut s, mut last) = socket(human, id).await;
    let mut given = Vec::new();
    let mut n = 1;
    for _ in 0..moves {
        loop {
            if last["status"] == "over" || last["type"] == "game_over" {
                return given;
            }
            let options = last["options"].as_array().cloned().unwrap_or_default();
            let Some(option) =
                (!options.is_empty()).then(|| options[rng.random_range(0..options.len())].clone())
            else {
                return given;
            };
            let command = option.as_str().expect("UCI").to_owned();
            let reply = ask(&mut s, json!({"type": "attempt", "move": command}), n).await;
            n += 1;
            given.push(command);
            if reply["observation"]["moved"] == true {
                last = until_white_or_over(&mut s).await;
                break;
            }
            last = reply;
        }
    }
    given
}

/// Gives White's `commands` in game `id`, waiting for the agent's reply after each move.
async fn white_gives(human: &umpire_client::client::Client, id: &str, commands: &[String]) {
    let (mut s, _) = socket(human, id).await;
    for (n, command) in commands.iter().enumerate() {
        let reply = ask(
            &mut s,
            json!({"type": "attempt", "move": command}),
            n as u64 + 1,
        )
        .await;
        if reply["status"] == "over" {
            return;
        }
        if reply["observation"]["moved"] == true {
            let v = until_white_or_over(&mut s).await;
            if v["status"] == "over" || v["type"] == "game_over" {
                return;
            }
        }
    }
}

/// Issue 31: a game against a house agent replays exactly after the agent's first decisions.
/// Game `a` is played without a break; game `b`, with the same seed and White's same commands,
/// is broken off by a restart after several of the agent's decisions. The agent of `b` is
/// rebuilt from storage and must go on deciding as `a`'s did (it failed when the agent was
/// only told the transcript: its generator stood at its first decision again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_agent_reloaded_after_many_decisions_replays_exactly() {
    let dir = fresh_dir("agent-replay-many");
    let store = Store::open_dir(&dir).await.unwrap();
    let token = human_with_session(&store).await;
    let seeds = [5_u64, 99, 31_337];
    for seed in seeds {
        for g in ["a", "b"] {
            store
                .insert_game(&row(&format!("{g}{seed}"), "human", seed as i64))
                .await
                .unwrap();
        }
    }
    store.close().await;
    let server = Server::start(dir.clone()).await;
    let human = server.client().with_token(&token);
    let mut scripts = Vec::new();
    for seed in seeds {
        let given = white_plays(&human, &format!("a{seed}"), 16, seed).await;
        assert!(given.len() >= 8, "seed {seed}: a short game");
        // `b`: the first half of White's commands (the agent has decided several times).
        let cut = given.len() / 2;
        white_gives(&human, &format!("b{seed}"), &given[..cut]).await;
        scripts.push((seed, given, cut));
    }
    server.stop().await;
    let server = Server::start(dir.clone()).await;
    let human = server.client().with_token(&token);
    for (seed, given, cut) in &scripts {
        white_gives(&human, &format!("b{seed}"), &given[*cut..]).await;
    }
    let store = Store::open_dir(&dir).await.unwrap();
    for (seed, _, _) in &scripts {
        let a: Vec<_> = store
            .commands(&format!("a{seed}"))
            .await
            .unwrap()
            .into_iter()
            .map(|c| (c.side, c.command))
            .collect();
        let b: Vec<_> = store
            .commands(&format!("b{seed}"))
            .await
            .unwrap()
            .into_iter()
            .map(|c| (c.side, c.command))
            .collect();
        let agent = a.iter().filter(|(side, _)| side == "black").count();
        assert!(agent >= 8, "seed {seed}: the agent decided {agent} times");
        assert_eq!(a, b, "seed {seed}: the reloaded agent decided otherwise");
    }
    store.close().await;
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
