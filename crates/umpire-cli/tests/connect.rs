//! `umpire connect` as a child process against `umpire serve`: the screen and commands of
//! `umpire play` (SAN on the own board, refusal reasons, options, why, RELIST), a server
//! killed with SIGKILL and restarted under the client (it reconnects and the game goes on
//! exactly), a guest's seat resumed with `--session`, and the record downloaded at the end.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use common::terminal::Terminal;
use common::{Reaped, alive};

fn fresh_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("umpire-cli-connect-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `umpire serve` on `listen`; returns the child (killed when dropped) and its URL.
fn serve(dir: &Path, listen: &str) -> (Reaped, String) {
    serve_with(dir, listen, &[])
}

/// [`serve`] with more options.
fn serve_with(dir: &Path, listen: &str, options: &[&str]) -> (Reaped, String) {
    let mut args: Vec<&OsStr> = vec![
        OsStr::new("--listen"),
        OsStr::new(listen),
        OsStr::new("--data"),
    ];
    args.push(dir.as_os_str());
    args.extend(options.iter().map(OsStr::new));
    common::serve(&args)
}

#[test]
fn connect_plays_like_umpire_play_and_survives_a_server_restart() {
    let data = fresh_dir("data");
    let cwd = fresh_dir("cwd");
    let (mut server, url) = serve(&data, "127.0.0.1:0");
    let port = url.rsplit(':').next().unwrap().to_owned();
    let mut t = Terminal::start(
        &cwd,
        &[
            &url,
            "--agent",
            "guided-random",
            "--color",
            "white",
            "--clock",
            "3600",
        ],
    );
    t.wait_for("You play White against agent:guided-random");
    t.wait_for("White, move 1> ");
    // SAN read on the own board, then the opponent's move and the prompt.
    t.type_line("e4");
    t.wait_for("Your move e2e4 was played.");
    t.wait_for("White, move 2> ");
    // A move no man of ours can make: refused locally, with the reason.
    t.type_line("Qxh7");
    t.wait_for("no man of yours can make that move");
    t.type_line("why e4e6");
    t.wait_for("e4e6 cannot be legal");
    t.type_line("options");
    t.wait_for("still possible:");
    t.type_line("relist");
    let listed = t.wait_for("pawn e4");
    assert!(listed.contains("The umpire lists your men"), "{listed}");
    assert!(!listed.contains("pawn e2"), "{listed}");
    t.type_line("msg good luck");
    t.wait_for("MSG sent: good luck");
    t.type_line("status");
    t.wait_for("Move 2, your turn.");

    // SIGKILL the server under the client, restart it on the same port: the client reconnects
    // and the game goes on from where it was.
    server.kill().unwrap();
    server.wait().unwrap();
    t.wait_for("Connection lost");
    let (mut server, _) = serve(&data, &format!("127.0.0.1:{port}"));
    // One line for the drop, one for the reconnection, none per retry between them.
    let between = t.wait_for("Reconnected to the server.");
    assert!(between.matches("Cannot reach").count() <= 1, "{between}");
    assert!(!between.contains("trying again in"), "{between}");
    t.type_line("Nf3");
    // No full stop: a pawn try for the opponent may follow ("…; 1 try (for your opponent).")
    // when the house agent, seeded at random per game, answered 1.e4 with d5 or f5.
    t.wait_for("Your move g1f3 was played");
    t.wait_for("White, move 3> ");

    // Leave, then resume the guest's seat with the session file named (the token itself is
    // never printed: only the file, mode 0600, holds it).
    t.type_line("quit");
    let out = t.all();
    assert!(t.child.wait().unwrap().success());
    let resume = out
        .lines()
        .find_map(|l| l.split("umpire connect ").nth(1))
        .filter(|l| l.contains("--session-file"))
        .unwrap_or_else(|| panic!("no resume line in:\n{out}"))
        .to_owned();
    let file = resume.split_whitespace().last().unwrap();
    let token = std::fs::read_to_string(cwd.join(file)).unwrap();
    let token = token.trim();
    assert_eq!(token.len(), 64, "{token}");
    assert!(
        !out.contains(token),
        "the session token was printed:\n{out}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(cwd.join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let args: Vec<&str> = resume.split_whitespace().collect();
    let mut t = Terminal::start(&cwd, &args);
    t.wait_for("Resuming as guest-");
    // The game's state first (a line typed before it is answered "not started yet").
    t.wait_for("You play White against");
    t.type_line("history");
    let history = t.wait_for("2. Your move g1f3 was played");
    assert!(
        history.contains("1. Your move e2e4 was played."),
        "{history}"
    );
    t.type_line("resign");
    t.wait_for("You resign.");
    t.wait_for("The record is saved in ");
    assert!(t.child.wait().unwrap().success());
    let text = common::downloaded_record(&cwd);
    assert!(text.contains("e2e4") && text.contains("g1f3"), "{text}");
    server.kill().unwrap();
    let _ = server.wait();
}

#[test]
fn connect_shows_both_ratings_and_the_change_at_the_end() {
    let data = fresh_dir("rated-data");
    let cwd = fresh_dir("rated-cwd");
    let (mut server, url) = serve(&data, "127.0.0.1:0");
    let mut ann = Terminal::start(
        &cwd,
        &[
            &url,
            "--as",
            "ann",
            "--register",
            "--rated",
            "--color",
            "white",
        ],
    );
    ann.type_line("password123");
    let head = ann.wait_for("Waiting for an opponent");
    let id = head
        .split("Game ")
        .nth(1)
        .and_then(|s| s.split('.').next())
        .unwrap_or_else(|| panic!("no game id in:\n{head}"))
        .to_owned();
    // Before anyone joined, only Ann's seat has a rating: a new player's.
    assert!(
        head.contains("Ratings: ann 1500 ±350 provisional.\n"),
        "{head}"
    );
    let mut bob = Terminal::start(&cwd, &[&url, "--as", "bob", "--register", "--game", &id]);
    bob.type_line("password123");
    let both = "Ratings: ann 1500 ±350 provisional, bob 1500 ±350 provisional.";
    bob.wait_for(both);
    ann.wait_for("bob joined: the game starts.");
    ann.wait_for(both);
    // Bob resigns on White's turn; both see the change (Glicko-2 from 1500/350 each:
    // 1662.3/290.3 for the winner, 1337.7/290.3 for the loser).
    bob.type_line("resign");
    let change = "Ratings after the game: ann 1500 → 1662 ±290 provisional (+162), \
                  bob 1500 → 1338 ±290 provisional (-162).";
    bob.wait_for(change);
    ann.wait_for(change);
    assert!(bob.child.wait().unwrap().success());
    assert!(ann.child.wait().unwrap().success());
    server.kill().unwrap();
    let _ = server.wait();
}

#[test]
fn connect_lists_the_lobby_live_and_challenges_a_named_player() {
    let data = fresh_dir("lobby-data");
    let cwd = fresh_dir("lobby-cwd");
    let (mut server, url) = serve(&data, "127.0.0.1:0");
    // Bob waits in the lobby.
    let mut bob = Terminal::start(&cwd, &[&url, "--as", "bob", "--register", "--lobby"]);
    bob.type_line("bob's password");
    bob.wait_for("No open challenges.");
    // Wrong input gets a clear message, and the lobby goes on.
    bob.type_line("join 9");
    bob.wait_for("no challenge number 9 is open");
    bob.type_line("frobnicate");
    bob.wait_for("unknown word \"frobnicate\"");
    bob.type_line("challenge");
    bob.wait_for("challenge whom?");
    bob.type_line("challenge nobody");
    bob.wait_for("Refused (unknown_opponent)");
    // Cat challenges Bob, who declines: Cat hears it and is done.
    let mut cat = Terminal::start(
        &cwd,
        &[&url, "--as", "cat", "--register", "--challenge", "bob"],
    );
    cat.type_line("cat's password");
    cat.wait_for("Challenged bob");
    bob.wait_for("New: 1. cat (");
    bob.wait_for("challenges YOU");
    bob.type_line("decline 1");
    bob.wait_for("Gone: 1. cat (declined).");
    cat.wait_for("Your challenge was declined");
    assert!(cat.child.wait().unwrap().success());
    // A challenge to nobody known, or to oneself, is refused with the server's reason.
    let mut zed = Terminal::start(
        &cwd,
        &[&url, "--as", "zed", "--register", "--challenge", "zed"],
    );
    zed.type_line("zed's password");
    let status = zed.child.wait().unwrap();
    assert!(!status.success());
    // Ann challenges Bob as White; Bob accepts by number and they play.
    let mut ann = Terminal::start(
        &cwd,
        &[
            &url,
            "--as",
            "ann",
            "--register",
            "--challenge",
            "bob",
            "--color",
            "white",
        ],
    );
    ann.type_line("ann's password");
    ann.wait_for("Challenged bob");
    bob.wait_for("New: 2. ann (white) challenges YOU");
    bob.type_line("2");
    bob.wait_for("You play Black against ann");
    ann.wait_for("bob joined: the game starts.");
    ann.wait_for("White, move 1> ");
    ann.type_line("e4");
    ann.wait_for("Your move e2e4 was played.");
    bob.wait_for("Black, move 1> ");
    ann.type_line("msg hello bob");
    ann.wait_for("MSG sent: hello bob");
    bob.wait_for("MSG from your opponent: hello bob");
    bob.type_line("resign");
    bob.wait_for("You resign.");
    ann.wait_for("The record is saved in ");
    assert!(bob.child.wait().unwrap().success());
    assert!(ann.child.wait().unwrap().success());
    server.kill().unwrap();
    let _ = server.wait();
}

#[test]
fn connect_says_why_a_withdrawn_challenge_is_gone() {
    let data = fresh_dir("withdrawn-data");
    let cwd = fresh_dir("withdrawn-cwd");
    let (mut server, url) = serve(&data, "127.0.0.1:0");
    let mut bob = Terminal::start(&cwd, &[&url, "--as", "bob", "--register", "--lobby"]);
    bob.type_line("bob's password");
    bob.wait_for("No open challenges.");
    let game_of = |t: &mut Terminal| {
        let head = t.wait_for("Challenged bob");
        let rest = t.wait_for(")");
        assert!(head.ends_with("Challenged bob"), "{head}");
        rest.trim_start_matches(" (game ")
            .trim_end_matches(')')
            .to_owned()
    };
    // Declined: the challenger hears it at once, and a late visitor hears it too.
    let mut cat = Terminal::start(
        &cwd,
        &[&url, "--as", "cat", "--register", "--challenge", "bob"],
    );
    cat.type_line("cat's password");
    let declined = game_of(&mut cat);
    bob.wait_for("New: 1. cat (");
    bob.type_line("decline 1");
    bob.wait_for("Gone: 1. cat (declined).");
    cat.wait_for("Your challenge was declined");
    assert!(cat.child.wait().unwrap().success());
    let mut late = Terminal::start(&cwd, &[&url, "--as", "bob", "--game", &declined]);
    late.type_line("bob's password");
    late.wait_for(&format!(
        "Game {declined} is gone: the challenge was declined."
    ));
    assert!(late.child.wait().unwrap().success());
    // Cancelled by its creator: the addressee coming late hears that.
    let mut ann = Terminal::start(
        &cwd,
        &[&url, "--as", "ann", "--register", "--challenge", "bob"],
    );
    ann.type_line("ann's password");
    let cancelled = game_of(&mut ann);
    bob.wait_for("New: 2. ann (");
    // The seat is printed from the first `state` frame: wait for it before cancelling, so
    // that the frame is not lost to the cancellation (a race under load).
    ann.wait_for("once the game starts.");
    ann.type_line("cancel");
    ann.wait_for("The challenge was cancelled.");
    assert!(ann.child.wait().unwrap().success());
    bob.wait_for("(cancelled).");
    let mut late = Terminal::start(&cwd, &[&url, "--as", "bob", "--game", &cancelled]);
    late.type_line("bob's password");
    late.wait_for(&format!(
        "Game {cancelled} is gone: the challenge was cancelled."
    ));
    assert!(late.child.wait().unwrap().success());
    // Before the game starts no help is printed; the seat is.
    let all = ann.all();
    assert!(all.contains("You will play"), "{all}");
    assert!(!all.contains("You see only your own men"), "{all}");
    bob.child.kill().unwrap();
    let _ = bob.child.wait();
    server.kill().unwrap();
    let _ = server.wait();
}

#[test]
fn connect_says_when_a_challenge_expired() {
    let data = fresh_dir("expired-data");
    let cwd = fresh_dir("expired-cwd");
    let (mut server, url) = serve_with(&data, "127.0.0.1:0", &["--challenge-expiry-seconds", "1"]);
    let mut ann = Terminal::start(&cwd, &[&url, "--as", "ann", "--register"]);
    ann.type_line("ann's password");
    let head = ann.wait_for("Waiting for an opponent");
    let id = head
        .split("Created game ")
        .nth(1)
        .and_then(|s| s.split('.').next())
        .unwrap_or_else(|| panic!("no game id in:\n{head}"))
        .to_owned();
    // The friend's way in, on a line of its own that can be pasted as it is.
    assert!(
        head.contains(&format!("\n  umpire connect {url} --game {id}\n")),
        "{head}"
    );
    ann.wait_for("Nobody took the challenge in time: it expired.");
    assert!(ann.child.wait().unwrap().success());
    let mut late = Terminal::start(&cwd, &[&url, "--game", &id]);
    late.wait_for(&format!(
        "Game {id} is gone: nobody took the challenge in time: it expired."
    ));
    assert!(late.child.wait().unwrap().success());
    server.kill().unwrap();
    let _ = server.wait();
}

#[test]
fn a_friend_game_gives_the_line_to_paste_and_tells_black_to_wait_for_white() {
    let data = fresh_dir("friend-data");
    let cwd = fresh_dir("friend-cwd");
    let (mut server, url) = serve(&data, "127.0.0.1:0");
    let mut ann = Terminal::start(&cwd, &[&url, "--color", "black"]);
    let head = ann.wait_for("Waiting for an opponent");
    let paste = head
        .lines()
        .find_map(|l| l.strip_prefix("  umpire connect "))
        .unwrap_or_else(|| panic!("no line to paste in:\n{head}"))
        .to_owned();
    let args: Vec<&str> = paste.split_whitespace().collect();
    let mut bob = Terminal::start(&cwd, &args);
    bob.wait_for("White, move 1> ");
    ann.wait_for("joined: the game starts.");
    ann.wait_for("Waiting for White's first move.");
    bob.type_line("e4");
    bob.wait_for("Your move e2e4 was played.");
    ann.wait_for("Black, move 1> ");
    assert_eq!(
        ann.all().matches("Waiting for White's first move.").count(),
        1
    );
    ann.type_line("quit");
    bob.type_line("quit");
    assert!(ann.child.wait().unwrap().success());
    assert!(bob.child.wait().unwrap().success());
    server.kill().unwrap();
    let _ = server.wait();
}

/// Issue 29, item 6: a player hears when the opponent goes (with the countdown once it runs)
/// and comes back, and an aborted game is worded as having no result (not a draw).
#[test]
fn connect_tells_when_the_opponent_goes_and_words_an_abort() {
    let data = fresh_dir("presence-data");
    let cwd = fresh_dir("presence-cwd");
    let (mut server, url) = serve_with(&data, "127.0.0.1:0", &["--abandon-seconds", "3"]);
    let mut ann = Terminal::start(
        &cwd,
        &[&url, "--as", "ann", "--register", "--color", "black"],
    );
    ann.type_line("ann's password");
    let head = ann.wait_for("Waiting for an opponent");
    let id = head
        .split("Created game ")
        .nth(1)
        .and_then(|s| s.split('.').next())
        .unwrap_or_else(|| panic!("no game id in:\n{head}"))
        .to_owned();
    let mut bob = Terminal::start(&cwd, &[&url, "--as", "bob", "--register", "--game", &id]);
    bob.type_line("bob's password");
    ann.wait_for("bob joined: the game starts.");
    // Bob (White, to move) leaves: Ann hears it with the countdown to an abort.
    bob.type_line("quit");
    assert!(bob.child.wait().unwrap().success());
    let line = ann.wait_for("(no result).");
    assert!(
        line.contains("Your opponent has disconnected. Unless they come back within"),
        "{line}"
    );
    // Bob's arrival (the join, then his socket a moment later) was no news.
    assert!(!line.contains("not connected"), "{line}");
    assert!(!line.contains("is back"), "{line}");
    // Bob stays away: the game is aborted, with no result.
    ann.wait_for("Game over: aborted (nobody moved in time); no result.");
    assert!(!ann.all().contains("A draw"), "{}", ann.all());
    assert!(ann.child.wait().unwrap().success());
    server.kill().unwrap();
    let _ = server.wait();
}

/// Issue 14, point 6: a test that fails (panics) while its `umpire serve` and `umpire connect`
/// run leaves neither running: the guards kill them as the panic unwinds.
#[test]
fn a_failing_test_leaves_no_server_or_client_running() {
    let data = fresh_dir("guard-data");
    let cwd = fresh_dir("guard-cwd");
    let pids = Arc::new(Mutex::new(Vec::new()));
    let seen = pids.clone();
    let failed = std::panic::catch_unwind(move || {
        let (server, url) = serve(&data, "127.0.0.1:0");
        seen.lock().unwrap().push(server.id());
        let mut t = Terminal::start(&cwd, &[&url, "--agent", "random"]);
        seen.lock().unwrap().push(t.child.id());
        t.wait_for("move 1> ");
        panic!("a test failing mid-game");
    });
    assert!(failed.is_err());
    let pids = pids.lock().unwrap().clone();
    assert_eq!(pids.len(), 2);
    for pid in pids {
        assert!(!alive(pid), "process {pid} outlived its failed test");
    }
}
