//! Fuzzing the frames a client can send: generated text (arbitrary strings, JSON of every
//! shape, near-misses of real frames) sent to a live game. Every malformed frame gets an
//! `error` frame with a known stable code, the connection stays open, and the game is
//! unharmed: nothing was played, and a real move is still accepted afterwards.

mod common;

use common::{Server, T, ask, fresh_dir, socket, two_player_game};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Value, json};
use umpire_protocol::client_message as protocol;

/// JSON values of every shape, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(".{0,8}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Frames close to real ones: a known or unknown type with arbitrary extra fields.
fn near_miss() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just("attempt"),
        Just("any"),
        Just("draw"),
        Just("msg"),
        Just("relist"),
        Just("sync"),
        Just("castle"),
        Just("Resign"),
    ];
    (
        kind,
        prop::collection::btree_map(
            prop_oneof![
                Just("move"),
                Just("action"),
                Just("text"),
                Just("id"),
                Just("x")
            ],
            any_json(),
            0..3,
        ),
    )
        .prop_map(|(kind, fields)| {
            let mut m = serde_json::Map::new();
            m.insert("type".into(), kind.into());
            for (k, v) in fields {
                m.insert(k.into(), v);
            }
            Value::Object(m)
        })
}

fn any_frame() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,64}",
        any_json().prop_map(|v| v.to_string()),
        near_miss().prop_map(|v| v.to_string()),
    ]
}

const CODES: [&str; 5] = [
    "bad_json",
    "unknown_command",
    "bad_message",
    "bad_move",
    "frame_too_large",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzed_frames_get_clear_errors_and_leave_the_game_unharmed() {
    let server = Server::start(fresh_dir("fuzz")).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let mut runner = TestRunner::deterministic();
    let frames = prop::collection::vec(any_frame(), 150)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let mut refused = 0;
    for text in frames {
        // Frames that are valid commands are not the subject here (one could resign).
        let Err(expected) = protocol::parse(&text) else {
            continue;
        };
        w.send_text(&text).await.unwrap();
        let e = w.until("error", T).await.unwrap();
        assert_eq!(e["code"], expected.code, "{text:?} -> {e}");
        assert!(CODES.contains(&expected.code), "{text:?}");
        refused += 1;
    }
    assert!(refused > 100, "{refused}");
    // The game is unharmed: nothing was played, and a move is still accepted.
    let s = ask(&mut w, json!({"type":"sync"}), 1).await;
    assert_eq!(
        (s["plies"].as_u64(), s["status"].as_str()),
        (Some(0), Some("live"))
    );
    assert_eq!(s["transcript"], json!([]));
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 2).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    server.stop().await;
}
