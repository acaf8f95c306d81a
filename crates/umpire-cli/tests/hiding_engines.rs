//! Non-interference through real engine processes and the files the runners write (issue 31,
//! item 3): paired histories (`umpire_testkit::scripts`, paired by the independent oracle,
//! holding only what an engine may answer) are played by a scripted spy engine — a program
//! that answers each request with its side's next scripted command and logs every request
//! byte it receives — through `umpire match` (both seats `cmd:`) and `umpire selfplay --agent
//! cmd: --out --player-views` (from the standard start and from set-up positions). The two
//! games of a pair differ in how many attempts the opponent makes that the observer hears
//! nothing of (and, for the opponent's heard commands, in anything that tells the observer the
//! same). Every request byte the observer's engine receives, and every byte of the observer's
//! view files written, must be identical. The same spy also plays as `umpire bot --agent cmd:`
//! against a real `umpire serve`, its opponent a client giving the other side's script over
//! the game's socket.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use umpire_client::client::{Client, GameSocket};
use umpire_client::command_frame::command_frame;
use umpire_server::Store;
use umpire_server::accounts::auth::{new_token, token_hash};
use umpire_server::store::{Credential, GameRow, UserRow};

use common::Reaped;

use umpire_rules::RuleSetId;
use umpire_rules::shakmaty::Color;
use umpire_testkit::pairing::PairConfig;
use umpire_testkit::scripts::{Audience, Commands, Step, paired_scripts_of};

const BIN: &str = env!("CARGO_BIN_EXE_umpire");

/// The spy engine: `python3 spy.py DIR` logs every request line to `DIR/<side>.requests` and
/// answers a `choose` with the next line of `DIR/<side>.script` (then resigns), a `draw` with
/// a refusal.
const SPY: &str = "import json, sys\n\
d = sys.argv[1]\n\
log = None\n\
script = []\n\
for line in sys.stdin:\n    \
    r = json.loads(line)\n    \
    if log is None:\n        \
        log = open(d + '/' + r['side'] + '.requests', 'a')\n        \
        script = [c for c in open(d + '/' + r['side'] + '.script').read().split('\\n') if c]\n    \
    log.write(line); log.flush()\n    \
    if r['request'] == 'draw':\n        \
        c = 'draw decline'\n    \
    elif script:\n        \
        c = script.pop(0)\n    \
    else:\n        \
        c = 'resign'\n    \
    print(json.dumps({'command': c}), flush=True)\n";

/// Set-up starts for `umpire selfplay --fen`.
const SETUPS: [&str; 2] = [
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PpPP1PPP/R3K2R w KQkq e6 0 12",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn side_name(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

/// The spy set up for `steps`: a fresh directory holding the spy and each side's script, and
/// the engine spec that runs it (`cmd:python3 DIR/spy.py DIR`).
fn spy(name: &str, steps: &[Step]) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!(
        "umpire-hiding-engines-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch directory");
    fs::write(dir.join("spy.py"), SPY).expect("the spy");
    for side in [Color::White, Color::Black] {
        let lines: String = steps
            .iter()
            .filter(|s| s.by == side)
            .map(|s| format!("{}\n", s.command))
            .collect();
        fs::write(dir.join(format!("{}.script", side_name(side))), lines).expect("a script");
    }
    let engine = format!(
        "cmd:python3 {} {}",
        dir.join("spy.py").display(),
        dir.display()
    );
    (dir, engine)
}

fn run_ok(args: &[&str]) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("the umpire binary runs");
    assert!(
        out.status.success(),
        "umpire {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("fault"), "umpire {args:?}: {stderr}");
}

/// Every byte the observer received in one game: its engine's requests through `umpire
/// match`, and through `umpire selfplay` its engine's requests and its view files.
fn received(
    name: &str,
    rules: RuleSetId,
    fen: Option<&str>,
    steps: &[Step],
    observer: Color,
) -> Vec<(String, Vec<u8>)> {
    let side = side_name(observer);
    // One game of `rules`, seeded, for both runners.
    let one_game = ["--games", "1", "--rules", rules.as_str(), "--seed", "7"];
    let mut out = Vec::new();
    if fen.is_none() {
        let (dir, engine) = spy(&format!("{name}-match"), steps);
        let mut args = vec!["match", &engine, &engine];
        args.extend(one_game);
        args.extend(["--nodes", "1", "--concurrency", "1", "--json"]);
        run_ok(&args);
        out.push((
            "match requests".to_owned(),
            read(&dir.join(format!("{side}.requests"))),
        ));
        let _ = fs::remove_dir_all(&dir);
    }
    let (dir, engine) = spy(&format!("{name}-selfplay"), steps);
    let records = dir.join("out");
    let records_arg = records.display().to_string();
    let mut args = vec!["selfplay", "--agent", &engine];
    args.extend(one_game);
    args.extend(["--out", &records_arg, "--player-views"]);
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    run_ok(&args);
    out.push((
        "selfplay requests".to_owned(),
        read(&dir.join(format!("{side}.requests"))),
    ));
    for ext in ["pgn", "json"] {
        let file = format!("game-0001.{side}.{ext}");
        out.push((file.clone(), read(&records.join(&file))));
    }
    let _ = fs::remove_dir_all(&dir);
    out
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Plays a pair per rule set (observers alternating) from `fen`; fails on the first
/// difference.
fn pairs(fen: Option<&'static str>, seed: u64) {
    let mut silent_differ = 0;
    for (r, rules) in RuleSetId::ALL.into_iter().enumerate() {
        let observer = if r % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let cfg = PairConfig {
            rules: *rules.rules(),
            fen: fen.map(str::to_owned),
            observer,
            seed: seed + r as u64,
            max_commands: 40,
        };
        let s = paired_scripts_of(&cfg, Audience::Player, 3, Commands::EngineChoices);
        let silent = |v: &[Step]| v.iter().filter(|x| x.silent).count();
        silent_differ += usize::from(silent(&s.first) != silent(&s.second));
        let name = format!("{seed}-{r}");
        // (One directory for both games: the agent's name, in the records' tags, holds it.)
        let a = received(&name, rules, fen, &s.first, observer);
        let b = received(&name, rules, fen, &s.second, observer);
        assert_eq!(a.len(), b.len());
        for ((what, x), (_, y)) in a.iter().zip(&b) {
            assert!(!x.is_empty(), "{rules:?} {what}: nothing received");
            assert!(
                x == y,
                "{rules:?} seed {} {observer:?}: {what} differs:\n{}\n---\n{}",
                cfg.seed,
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
        }
    }
    assert!(
        silent_differ > 0,
        "the pairs differ in how many silent attempts"
    );
}

#[test]
fn engines_and_view_files_receive_the_same_bytes_whatever_the_opponent_does_unheard() {
    pairs(None, 0x0e2e_0000);
}

#[test]
fn from_set_up_starts_too() {
    pairs(Some(SETUPS[0]), 0x0e2e_1000);
    pairs(Some(SETUPS[1]), 0x0e2e_2000);
}

/// How long a socket read may take before the test gives up.
const T: Duration = Duration::from_secs(30);

/// Reads `s` until a frame satisfies `done`; returns it.
async fn read_until(s: &mut GameSocket, done: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(T, async {
        loop {
            let v = s.next().await.expect("a frame");
            if done(&v) {
                return v;
            }
        }
    })
    .await
    .expect("the frame waited for")
}

/// Writes to a fresh store in `data` the scripted player (White, a session) and the bot (an
/// API token), and White's open challenge addressed to the bot; returns their tokens.
async fn seated(data: &Path, rules: RuleSetId) -> (String, String) {
    let store = Store::open_dir(data).await.expect("a store");
    let (white, bot) = (new_token(), new_token());
    for (id, kind) in [("scripted", "account"), ("spybot", "bot")] {
        let user = UserRow {
            id: id.to_owned(),
            name: id.to_owned(),
            kind: kind.to_owned(),
            password_hash: None,
            owner: None,
        };
        store.insert_user(&user).await.expect("a user");
    }
    store
        .insert_credential(Credential::Session, &token_hash(&white), "scripted")
        .await
        .expect("a session");
    store
        .insert_credential(Credential::ApiToken, &token_hash(&bot), "spybot")
        .await
        .expect("a token");
    store
        .insert_game(&GameRow {
            id: "botgame".to_owned(),
            rules: rules.as_str().to_owned(),
            fen: umpire_rules::record::STANDARD_FEN.to_owned(),
            users: [Some("scripted".to_owned()), None],
            agents: [None, None],
            agent_seed: 1,
            initial_ms: 3_600_000,
            increment_ms: 0,
            status: "open".to_owned(),
            result: None,
            reason: None,
            created_ms: store.now_ms(),
            rated: false,
            practice: false,
            opponent: Some("spybot".to_owned()),
        })
        .await
        .expect("a challenge");
    store.close().await;
    (white, bot)
}

/// Plays `steps` against `umpire bot --agent cmd:SPY` (Black, the observer) on a real server:
/// White's commands are sent over its socket, each after the bot's reply to the one before;
/// returns every request byte the bot's engine received.
fn bot_requests(name: &str, rules: RuleSetId, steps: &[Step]) -> Vec<u8> {
    let (dir, engine) = spy(&format!("{name}-bot"), steps);
    let data = dir.join("data");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let (white_token, bot_token) = rt.block_on(seated(&data, rules));
    let (_server, url) = common::serve(&[
        "--listen".as_ref(),
        "127.0.0.1:0".as_ref(),
        "--data".as_ref(),
        data.as_os_str(),
    ]);
    let mut bot = Reaped(
        Command::new(common::UMPIRE)
            .args([
                "bot", "--server", &url, "--token", &bot_token, "--agent", &engine,
            ])
            .args(["--games", "1"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("umpire bot starts"),
    );
    rt.block_on(async {
        let white = Client::new(&url)
            .expect("a client")
            .with_token(&white_token);
        let mut s = white.socket("botgame").await.expect("a socket");
        let mut last = read_until(&mut s, |v| v["type"] == "state").await;
        if last["status"] != "live" {
            // The bot takes the challenge.
            last = read_until(&mut s, |v| v["status"] == "live").await;
        }
        let _ = last;
        let mut id = 0;
        for step in steps.iter().filter(|s| s.by == Color::White) {
            id += 1;
            let frame = command_frame(step.command, Some(id)).expect("a frame");
            s.send_text(&frame.to_text()).await.expect("sent");
            let reply = read_until(&mut s, |v| v["reply_to"] == json!(id)).await;
            if reply["status"] == "over" {
                break;
            }
            if reply["observation"]["moved"] == true {
                let v = read_until(&mut s, |v| {
                    v["status"] == "over" || (v["type"] == "update" && v["to_move"] == "white")
                })
                .await;
                if v["status"] == "over" {
                    break;
                }
            }
        }
        let frame = command_frame(umpire_rules::Command::Resign, Some(0)).expect("a frame");
        let _ = s.send_text(&frame.to_text()).await;
        let _ = read_until(&mut s, |v| {
            v["reply_to"] == json!(0) || v["type"] == "game_over"
        })
        .await;
    });
    // The bot leaves after its one game.
    for _ in 0..300 {
        if bot.try_wait().expect("waits").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let requests = read(&dir.join("black.requests"));
    let _ = fs::remove_dir_all(&dir);
    requests
}

#[test]
fn a_remote_bots_engine_receives_the_same_bytes_whatever_the_opponent_does_unheard() {
    let mut silent_differ = 0;
    for (r, rules) in RuleSetId::ALL.into_iter().enumerate() {
        let cfg = PairConfig {
            rules: *rules.rules(),
            fen: None,
            observer: Color::Black,
            seed: 0x0b07_0000 + r as u64,
            max_commands: 30,
        };
        let s = paired_scripts_of(&cfg, Audience::Player, 3, Commands::EngineChoices);
        let silent = |v: &[Step]| v.iter().filter(|x| x.silent).count();
        silent_differ += usize::from(silent(&s.first) != silent(&s.second));
        let a = bot_requests(&format!("bot-{r}"), rules, &s.first);
        let b = bot_requests(&format!("bot-{r}"), rules, &s.second);
        assert!(
            !a.is_empty(),
            "{rules:?}: the bot's engine was asked nothing"
        );
        assert!(
            a == b,
            "{rules:?} seed {}: the bot's engine requests differ:\n{}\n---\n{}",
            cfg.seed,
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b)
        );
    }
    assert!(
        silent_differ > 0,
        "the pairs differ in how many silent attempts"
    );
}
