//! One owner per live game across nodes (`docs/CLUSTER.md`), at the store level on PostgreSQL:
//! several nodes' lock connections racing for one game under random kill/restart schedules
//! never both own it (and a free game is taken, at once or, after its owner was killed, soon),
//! and a stale owner's late command is refused by the stored commands' key.
//! Needs a server: `UMPIRE_TEST_POSTGRES=postgres://… cargo test --profile ci -p umpire-server
//! --test cluster_locks -- --ignored` (`scripts/test.sh` runs it when CI gives one).

mod common;

use common::postgres::{ONE_AT_A_TIME, fresh_database};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::time::Instant;
use umpire_server::Database;

use umpire_server::cluster::{Cluster, GameLocks, Lease, MIN_HOLD, NodeOptions};
use umpire_server::store::{CommandRow, GameRow, Store};

/// What a node does next in a schedule.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Tries to take the game.
    Take(usize),
    /// Gives the game back (if it holds it).
    Give(usize),
    /// Dies (its lock connection closes, as when the process is killed) and restarts (the
    /// next take opens a new connection).
    Kill(usize),
}

const NODES: usize = 3;

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0..NODES).prop_map(Step::Take),
        1 => (0..NODES).prop_map(Step::Give),
        1 => (0..NODES).prop_map(Step::Kill),
    ]
}

fn url() -> String {
    std::env::var("UMPIRE_TEST_POSTGRES").expect("set UMPIRE_TEST_POSTGRES")
}

/// Runs one schedule: after every step, at most one node holds the game, and a take succeeds
/// exactly when no live node holds it.
async fn run_schedule(game: &str, steps: &[Step]) -> Result<(), String> {
    let url = url();
    let nodes: Vec<GameLocks> = (0..NODES)
        .map(|i| GameLocks::new(&url, &format!("umpire:race{i}")).unwrap())
        .collect();
    let mut held: Vec<Option<Lease>> = (0..NODES).map(|_| None).collect();
    for (k, step) in steps.iter().enumerate() {
        match *step {
            Step::Take(i) => {
                let other_holds = held.iter().enumerate().any(|(j, h)| j != i && h.is_some());
                let got = nodes[i].try_own(game).await.map_err(|e| e.to_string())?;
                match (got, held[i].is_some()) {
                    (Some(lease), false) => {
                        if other_holds {
                            return Err(format!("step {k}: node {i} took a game held by another"));
                        }
                        held[i] = Some(lease);
                    }
                    // Taken again by its holder: session locks count; give the extra back.
                    (Some(again), true) => nodes[i].release(again).await,
                    (None, true) => return Err(format!("step {k}: node {i} lost its own lock")),
                    (None, false) => {
                        if !other_holds {
                            // Free but for a killed node whose session the server has not
                            // ended yet (closing a connection, like killing a process, ends
                            // the session a moment later): it must be taken soon.
                            held[i] = Some(take_soon(&nodes[i], game).await.ok_or_else(|| {
                                format!("step {k}: node {i} never took a free game")
                            })?);
                        }
                    }
                }
            }
            Step::Give(i) => {
                if let Some(lease) = held[i].take() {
                    nodes[i].release(lease).await;
                }
            }
            Step::Kill(i) => {
                nodes[i].close().await;
                // Its lease is of a dead connection: giving it back is a no-op.
                if let Some(lease) = held[i].take() {
                    nodes[i].release(lease).await;
                }
            }
        }
        let holders = held.iter().filter(|h| h.is_some()).count();
        if holders > 1 {
            return Err(format!("step {k}: {holders} owners"));
        }
    }
    for node in &nodes {
        node.close().await;
    }
    Ok(())
}

/// Takes `game`, trying for up to 5 s.
async fn take_soon(node: &GameLocks, game: &str) -> Option<Lease> {
    for _ in 0..250 {
        if let Ok(Some(lease)) = node.try_own(game).await {
            return Some(lease);
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    None
}

#[test]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
fn nodes_racing_for_a_game_never_both_own_it() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Another test of this file empties the schema (`fresh_database`); a lock query racing with
    // it fails with "schema with OID … does not exist".
    let _one = rt.block_on(ONE_AT_A_TIME.lock());
    let mut runner = TestRunner::new(Config {
        cases: 24,
        ..Config::default()
    });
    let case = std::sync::atomic::AtomicU32::new(0);
    runner
        .run(&proptest::collection::vec(step(), 1..40), |steps| {
            let n = case.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            // A game of its own per case: no lock left over from an earlier case counts.
            let game = format!("race-{}-{n}", std::process::id());
            rt.block_on(run_schedule(&game, &steps))
                .map_err(TestCaseError::fail)
        })
        .unwrap();
}

/// A kill really releases: a lock held by a node whose connection closed is free for another
/// node at once (this is what lets a game move on kill -9).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn a_dead_owners_game_is_taken_over_at_once() {
    // Another test of this file empties the schema; a query racing with it fails.
    let _one = ONE_AT_A_TIME.lock().await;
    let url = url();
    let game = format!("dead-{}", std::process::id());
    let a = GameLocks::new(&url, "umpire:a").unwrap();
    let b = GameLocks::new(&url, "umpire:b").unwrap();
    let lease = a
        .try_own(&game)
        .await
        .unwrap()
        .expect("a takes the free game");
    assert!(b.try_own(&game).await.unwrap().is_none(), "b took a's game");
    a.close().await;
    // The server ends a closed session a moment after: within 5 s.
    let taken = take_soon(&b, &game).await;
    assert!(taken.is_some(), "b cannot take the dead a's game");
    // a's old lease, given back after a restarted a reconnected, must not free b's lock.
    assert!(a.try_own("other").await.unwrap().is_some());
    a.release(lease).await;
    let c = GameLocks::new(&url, "umpire:c").unwrap();
    assert!(
        c.try_own(&game).await.unwrap().is_none(),
        "a's stale give-back freed b's lock"
    );
    for n in [a, b, c] {
        n.close().await;
    }
}

/// A game taken free (created on this node, adopted, its owner dead) is handed over at the
/// first request, so a game created on a node its id does not hash to moves without a wait;
/// one this node was handed over is kept [`MIN_HOLD`] against requests to hand it over
/// again (no ping-pong between nodes whose clients disagree).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn a_free_game_is_handed_over_at_once_and_a_handed_one_is_kept_a_while() {
    let _one = ONE_AT_A_TIME.lock().await;
    let url = url();
    let pid = std::process::id();
    let node = Cluster::connect(
        &url,
        NodeOptions::new("hold", "http://127.0.0.1:1").unwrap(),
    )
    .await
    .unwrap();
    let free = format!("free-{pid}");
    let ownership = node.own(&free, false).await.unwrap().expect("a free game");
    assert!(node.hand_over(&free), "a game taken free was kept");
    node.disown(ownership).await;
    let handed = format!("handed-{pid}");
    let took = Instant::now();
    let ownership = node.own(&handed, true).await.unwrap().expect("a free game");
    let refused = !node.hand_over(&handed);
    if took.elapsed() < MIN_HOLD {
        assert!(
            refused,
            "a game handed over to this node was handed on at once"
        );
    }
    node.disown(ownership).await;
    assert!(!node.hand_over(&handed), "a game given back is still held");
    node.close().await;
}

fn game_row(id: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        rules: "berkeley".to_owned(),
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned(),
        users: [None, None],
        agents: [Some("random".to_owned()), Some("random".to_owned())],
        agent_seed: 1,
        initial_ms: 60_000,
        increment_ms: 0,
        status: "live".to_owned(),
        result: None,
        reason: None,
        created_ms: 0,
        rated: false,
        practice: false,
        opponent: None,
    }
}

fn command(seq: i64, text: &str) -> CommandRow {
    CommandRow {
        seq,
        side: "white".to_owned(),
        command: text.to_owned(),
        clock_ms: 60_000,
        at_ms: 0,
    }
}

/// Two nodes' stores write the same game's next command: the second (the stale owner's)
/// fails as a unique violation and the game keeps the first, so it never forks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a PostgreSQL server: set UMPIRE_TEST_POSTGRES and pass --ignored"]
async fn a_stale_owners_late_command_is_refused() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Database::Url(url) = fresh_database().await else {
        unreachable!()
    };
    let new_owner = Store::connect(&url).await.unwrap();
    let stale = Store::connect(&url).await.unwrap();
    new_owner.insert_game(&game_row("g")).await.unwrap();
    new_owner
        .append_command("g", &command(0, "e2e4"), None)
        .await
        .unwrap();
    let late = stale
        .append_command("g", &command(0, "d2d4"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&late, sqlx::Error::Database(d) if d.is_unique_violation()),
        "{late}"
    );
    let kept = new_owner.commands("g").await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].command, "e2e4");
    new_owner.close().await;
    stale.close().await;
}
