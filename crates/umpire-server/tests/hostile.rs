//! The server under attack, as hostile clients try it over real sockets on 127.0.0.1: one
//! player's frame budget however many sockets it opens, sockets opened from another site's
//! page, log-in lock-outs, floods of accounts, of frames and of unread answers, connections
//! that never finish a request or are too many from one address, forwarded addresses, bodies
//! that are not exactly JSON. Each test fails without the limit it checks
//! (`docs/SECURITY.md`).
//!
//! Different client addresses are real: the loopback network is 127.0.0.0/8, so a test binds
//! its client sockets to 127.0.0.2, 127.0.0.3, … as it needs.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{Server, T, ask, fresh_dir, socket, two_player_game};
use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use umpire_server::http::frame_limit::REFUSAL_EVERY;
use umpire_server::{Database, Options};

fn server_addr(server: &Server) -> SocketAddr {
    server.url.trim_start_matches("http://").parse().unwrap()
}

/// A TCP connection to `server` from the local address `from` (e.g. `127.0.0.2`).
async fn connect_from(server: &Server, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(server_addr(server)).await.unwrap()
}

/// One HTTP/1.1 request from `from`; the status and the JSON body (`Null` if none).
async fn http_from(
    server: &Server,
    from: &str,
    head: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> (u16, Value) {
    let mut stream = connect_from(server, from).await;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!(
        "{head} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        server_addr(server),
        body.len()
    );
    if !body.is_empty() {
        request.push_str("Content-Type: application/json\r\n");
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(T, stream.read_to_string(&mut answer))
        .await
        .expect("an answer in time")
        .unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let json = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .and_then(|b| {
            let start = b.find('{')?;
            let end = b.rfind('}')?;
            serde_json::from_str(&b[start..=end]).ok()
        })
        .unwrap_or(Value::Null);
    (status, json)
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or_default()
}

/// Item 5: a player's frames are counted per player and game, not per socket: four sockets
/// get one burst between them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_has_one_frame_budget_however_many_sockets_it_opens() {
    let server = Server::start(fresh_dir("hostile-sockets")).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let mut sockets = Vec::new();
    for _ in 0..4 {
        sockets.push(socket(&white, &id).await.0);
    }
    let per_socket = 300;
    for s in &mut sockets {
        for _ in 0..per_socket {
            s.send(&json!({"type":"relist"})).await.unwrap();
        }
    }
    // A last frame on each socket says where its answers end.
    for s in &mut sockets {
        s.send(&json!({"type":"relist","id": 999})).await.unwrap();
    }
    let mut answered = 0;
    for s in &mut sockets {
        // Read until the marker's answer or until the socket goes quiet (the marker may be
        // dropped with the flood).
        while let Ok(f) = s.next_within(Duration::from_secs(3)).await {
            if f["type"] == "relist" {
                if f["reply_to"] == json!(999) {
                    break;
                }
                answered += 1;
            }
        }
    }
    // One burst (200) and what refills meanwhile, not four bursts (800).
    assert!(
        answered < 2 * 200,
        "{answered} of {} frames answered: the limit is per socket",
        4 * per_socket
    );
    server.stop().await;
}

/// Item 10, "don't answer floods": a flood of bad frames is not answered frame by frame; its
/// refusals are coalesced in time, at most one `rate_limited` answer per 250 ms
/// (`REFUSAL_EVERY`), so at most `1 + d / 250 ms` for a flood the server reads over `d`
/// (bounded here by the whole time the test took); once the bucket refills the player is heard
/// again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_not_answered_frame_by_frame() {
    let server = Server::start(fresh_dir("hostile-flood")).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let flood = 1000;
    let (mut w, _) = socket(&white, &id).await;
    let began = std::time::Instant::now();
    for _ in 0..flood {
        w.send_text("{\"x\":1}").await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    w.send(&json!({"type":"sync","id":7})).await.unwrap();
    let (mut errors, mut limited) = (0, 0);
    loop {
        let f = w.next_within(T).await.unwrap();
        if f["reply_to"] == json!(7) && f["type"] == "state" {
            break;
        }
        if f["type"] == "error" {
            errors += 1;
            if f["code"] == "rate_limited" {
                limited += 1;
            }
        }
    }
    let bound = 1 + began.elapsed().as_millis() / REFUSAL_EVERY.as_millis();
    assert!(
        errors < flood / 2,
        "{errors} answers to a flood of {flood} bad frames"
    );
    assert!(limited >= 1, "the flood is told that it is limited");
    assert!(
        limited <= bound,
        "{limited} rate_limited answers to one flood, more than {bound}"
    );
    server.stop().await;
}

/// Item 5's limit and a polite client: one that waits for the answer to each frame and, told
/// `rate_limited`, sends it again at once is always answered (within 250 ms), however long it
/// keeps over the limit. Before refusals were coalesced in time only the first refusal of a run
/// was answered, and this client waited for ever on the second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_waits_for_each_answer_always_hears_one() {
    let server = Server::start(fresh_dir("hostile-polite")).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let (mut passed, mut limited, mut frame_id) = (0, 0, 0);
    // Past the burst of 200: the client must keep going through refusals.
    while passed < 320 {
        frame_id += 1;
        let answer = ask(&mut w, json!({"type":"relist"}), frame_id).await;
        match answer["type"].as_str() {
            Some("relist") => passed += 1,
            _ if answer["code"] == "rate_limited" => {
                limited += 1;
            }
            _ => panic!("unexpected answer {answer}"),
        }
    }
    assert!(
        limited >= 2,
        "the client went over the limit more than once ({limited} refusals)"
    );
    server.stop().await;
}

/// Opens `count` sockets on a new game of `server`, White's (`as_player`) or an anonymous
/// spectator's, floods them with `per_socket` bad frames each, then on each socket asks a last frame (`id` 9999, sent again after each
/// refusal) and reads up to its answer; fails unless the `rate_limited` answers on all the
/// sockets together were at least one and at most `1 + d / 250 ms` over the `d` the whole
/// took.
async fn one_answer_budget(server: &Server, as_player: bool, count: usize, per_socket: usize) {
    let (white, _black, id) = two_player_game(server, json!({"initial_ms": 3_600_000})).await;
    let who = if as_player { white } else { server.client() };
    let mut sockets = Vec::new();
    for _ in 0..count {
        sockets.push(socket(&who, &id).await.0);
    }
    let began = std::time::Instant::now();
    // Each socket's frames back to back, so that they outrun the refill whatever the load
    // (the answers, a few hundred small frames a socket, wait in the kernel's buffers).
    for s in &mut sockets {
        for _ in 0..per_socket {
            s.send_text("{\"x\":1}").await.unwrap();
        }
    }
    let mut limited = 0;
    for s in &mut sockets {
        s.send(&json!({"type":"sync","id":9999})).await.unwrap();
        loop {
            let f = s.next_within(T).await.unwrap();
            if f["code"] == "rate_limited" {
                limited += 1;
                if f["reply_to"] == json!(9999) {
                    tokio::time::sleep(REFUSAL_EVERY + Duration::from_millis(50)).await;
                    s.send(&json!({"type":"sync","id":9999})).await.unwrap();
                }
                continue;
            }
            if f["reply_to"] == json!(9999) {
                break;
            }
        }
    }
    let took = began.elapsed();
    let bound = 1 + took.as_millis() / REFUSAL_EVERY.as_millis();
    assert!(limited >= 1, "the flood is told that it is limited");
    assert!(
        limited <= bound,
        "{limited} rate_limited answers to {count} sockets (player: {as_player}) in {took:?}, more than {bound}"
    );
}

/// Item 1 of the last round: refusals are answered per player and game, not per socket. One
/// player's 24 sockets flooding at once get at most `1 + d / 250 ms` `rate_limited` answers
/// between them over the `d` the whole took (counted per socket, each socket's first refusal
/// alone made 24). 24 x 50 = 1,200 frames: the burst of 200 passes (each a bad_message
/// answer), the rest are refused, on every socket past the fourth.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_flooding_from_many_sockets_gets_one_answer_budget() {
    let server = Server::start(fresh_dir("hostile-refusals-player")).await;
    one_answer_budget(&server, true, 24, 50).await;
    server.stop().await;
}

/// The same for spectators: the sockets of one address (here 127.0.0.1, anonymous, each with
/// a frame bucket of its own, so each floods past its own burst of 200) share one answer
/// budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_of_one_address_get_one_answer_budget() {
    let server = Server::start(fresh_dir("hostile-refusals-spectators")).await;
    one_answer_budget(&server, false, 32, 400).await;
    server.stop().await;
}

/// Item 10: an anonymous spectator that sends bad frames and never reads is disconnected once
/// its outbox is full, instead of making the server hold every answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_disconnected() {
    let server = Server::start(fresh_dir("hostile-unread")).await;
    let (_white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server_addr(&server)).await.unwrap();
    let url = format!("ws://{}/api/games/{id}/ws", server_addr(&server));
    let (mut ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    // Send and never read, until the server hangs up (the sends fail) or time runs out.
    let cut = tokio::time::timeout(Duration::from_secs(90), async {
        loop {
            if ws.send(Message::Text("{\"x\":1}".into())).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
    assert!(
        cut.is_ok(),
        "a spectator that never reads was kept for 90 s: its answers pile up"
    );
    // The server is fine and the game goes on.
    let c = server.client();
    assert_eq!(
        c.request("GET", &format!("/api/games/{id}"), None)
            .await
            .unwrap()
            .status,
        200
    );
    server.stop().await;
}

/// Item 6: a page of another site cannot open a player's sockets with the player's cookie;
/// the server's own pages, clients without `Origin`, and configured origins can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_opened_from_another_site_are_refused() {
    let options = Options {
        allowed_origins: vec!["https://play.example".into()],
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("hostile-origin")), options).await;
    let minted = server
        .client()
        .request("POST", "/api/guest", None)
        .await
        .unwrap()
        .ok()
        .unwrap();
    let session = minted["session"].as_str().unwrap().to_owned();
    let white = server.client().with_token(&session);
    let g = white
        .create_game(&json!({"agent":"random","color":"white"}))
        .await
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let addr = server_addr(&server);
    let open = |path: String, origin: Option<&'static str>| {
        let session = session.clone();
        async move {
            let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
            req.headers_mut().insert(
                "cookie",
                format!("umpire_session={session}").parse().unwrap(),
            );
            if let Some(o) = origin {
                req.headers_mut().insert("origin", o.parse().unwrap());
            }
            match tokio_tungstenite::connect_async(req).await {
                Ok(_) => 101,
                Err(tokio_tungstenite::tungstenite::Error::Http(r)) => r.status().as_u16(),
                Err(e) => panic!("{e}"),
            }
        }
    };
    let own: &'static str = Box::leak(format!("http://{addr}").into_boxed_str());
    for path in [format!("/api/games/{id}/ws"), "/api/lobby/ws".to_owned()] {
        assert_eq!(
            open(path.clone(), Some("http://evil.example")).await,
            403,
            "{path}"
        );
        assert_eq!(open(path.clone(), Some("null")).await, 403, "{path}");
        assert_eq!(open(path.clone(), Some(own)).await, 101, "{path}");
        assert_eq!(
            open(path.clone(), Some("https://play.example")).await,
            101,
            "{path}"
        );
        assert_eq!(open(path.clone(), None).await, 101, "{path}");
    }
    server.stop().await;
}

/// Item 7: a stranger's wrong passwords make only the stranger's address wait (longer and
/// longer); the owner logs in from another address at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_cannot_lock_the_owner_out() {
    let server = Server::start(fresh_dir("hostile-lockout")).await;
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    let wrong = json!({"name":"ann","password":"guess-guess"});
    let mut codes = Vec::new();
    for _ in 0..12 {
        let (status, body) =
            http_from(&server, "127.0.0.2", "POST /api/login", &[], Some(&wrong)).await;
        codes.push((status, code(&body).to_owned()));
    }
    let refused = codes.iter().filter(|(s, _)| *s == 429).count();
    assert!(refused >= 5, "the stranger is held back: {codes:?}");
    assert!(
        codes[..5]
            .iter()
            .all(|(s, c)| *s == 401 && c == "unauthorized"),
        "{codes:?}"
    );
    // The stranger's address waits even with the right password …
    let right = json!({"name":"ann","password":"password123"});
    let (status, body) =
        http_from(&server, "127.0.0.2", "POST /api/login", &[], Some(&right)).await;
    assert_eq!((status, code(&body)), (429, "rate_limited"));
    // … the owner, from another address, does not.
    let (status, body) =
        http_from(&server, "127.0.0.3", "POST /api/login", &[], Some(&right)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["session"].is_string());
    // Nor does the owner's address lose anything to the stranger trying on.
    for _ in 0..3 {
        http_from(&server, "127.0.0.2", "POST /api/login", &[], Some(&wrong)).await;
    }
    let (status, _) = http_from(&server, "127.0.0.3", "POST /api/login", &[], Some(&right)).await;
    assert_eq!(status, 200);
    // One address guessing at many accounts is limited per address too.
    let mut last = 0;
    for n in 0..40 {
        let other = json!({"name": format!("user{n}"), "password":"guess-guess"});
        last = http_from(&server, "127.0.0.4", "POST /api/login", &[], Some(&other))
            .await
            .0;
        if last == 429 {
            break;
        }
    }
    assert_eq!(last, 429, "an address guessing at 40 accounts is limited");
    server.stop().await;
}

/// Item 7 with item 9's names: the tries at one account count together however its name is
/// spelt (full-width `ａｎｎ` is `ann`, as names are compared), so another spelling buys no more
/// guesses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_spelling_of_a_name_buys_no_more_guesses() {
    let server = Server::start(fresh_dir("hostile-lockout-case")).await;
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    let mut statuses = Vec::new();
    for name in [
        "ann",
        "\u{ff41}nn",
        "a\u{ff4e}n",
        "an\u{ff4e}",
        "\u{ff41}\u{ff4e}n",
        "a\u{ff4e}\u{ff4e}",
        "\u{ff41}n\u{ff4e}",
        "\u{ff41}\u{ff4e}\u{ff4e}",
    ] {
        let wrong = json!({"name": name, "password":"guess-guess"});
        let (status, _) =
            http_from(&server, "127.0.0.2", "POST /api/login", &[], Some(&wrong)).await;
        statuses.push(status);
    }
    assert!(
        statuses.contains(&429),
        "eight wrong tries at one account, in eight spellings, are held back: {statuses:?}"
    );
    server.stop().await;
}

/// Item 11: registrations and bots are limited per address (each costs a hash or a token and
/// a row kept forever); another address is not held back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_floods_are_limited_per_address() {
    let server = Server::start(fresh_dir("hostile-register")).await;
    let mut made = 0;
    let mut session = String::new();
    let refused = loop {
        let who = json!({"name": format!("flood{made}"), "password":"password123"});
        let (status, body) =
            http_from(&server, "127.0.0.2", "POST /api/register", &[], Some(&who)).await;
        if status != 200 {
            break (status, code(&body).to_owned());
        }
        if session.is_empty() {
            session = body["session"].as_str().unwrap().to_owned();
        }
        made += 1;
        assert!(made <= 20, "more than 20 accounts from one address at once");
    };
    assert_eq!(made, 20);
    assert_eq!(refused, (429, "rate_limited".to_owned()));
    // Bots count with them.
    let auth = format!("Bearer {session}");
    let (status, body) = http_from(
        &server,
        "127.0.0.2",
        "POST /api/bots",
        &[("Authorization", &auth)],
        Some(&json!({"name":"floodbot"})),
    )
    .await;
    assert_eq!((status, code(&body)), (429, "rate_limited"));
    // Another address registers.
    let who = json!({"name":"honest","password":"password123"});
    let (status, _) = http_from(&server, "127.0.0.3", "POST /api/register", &[], Some(&who)).await;
    assert_eq!(status, 200);
    server.stop().await;
}

/// Item 12: a connection that never finishes its request is closed after the header timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_are_closed() {
    let server = Server::start(fresh_dir("hostile-slow")).await;
    let mut stream = TcpStream::connect(server_addr(&server)).await.unwrap();
    stream
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let closed = tokio::time::timeout(
        umpire_server::http::connections::HEADER_TIMEOUT + Duration::from_secs(20),
        stream.read_to_end(&mut buf),
    )
    .await;
    assert!(closed.is_ok(), "a half-sent request was kept open");
    // A request whose body never comes is answered 408.
    let mut stream = TcpStream::connect(server_addr(&server)).await.unwrap();
    stream
        .write_all(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        .await
        .unwrap();
    let mut answer = String::new();
    tokio::time::timeout(
        umpire_server::http::request_body::BODY_TIMEOUT + Duration::from_secs(20),
        stream.read_to_string(&mut answer),
    )
    .await
    .expect("a request without its body is not kept")
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    server.stop().await;
}

/// Item 12: one address may hold only so many connections; the others are served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_per_address() {
    let options = Options {
        max_connections_per_address: 4,
        limit_loopback_guests: true,
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("hostile-cap")), options).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from(&server, "127.0.0.2").await);
    }
    // Let the server accept them all.
    let (status, _) = http_from(&server, "127.0.0.3", "GET /api/games", &[], None).await;
    assert_eq!(status, 200);
    // The fifth from that address is closed at once, unanswered.
    let mut fifth = connect_from(&server, "127.0.0.2").await;
    let _ = fifth
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(T, fifth.read_to_end(&mut answer)).await;
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));
    // Another address is served; and once one is closed, the first address is again.
    let (status, _) = http_from(&server, "127.0.0.3", "GET /api/games", &[], None).await;
    assert_eq!(status, 200);
    drop(held.pop());
    let mut status = 0;
    for _ in 0..50 {
        status = http_from(&server, "127.0.0.2", "GET /api/games", &[], None)
            .await
            .0;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 200);
    server.stop().await;
}

/// Item 16: behind a trusted proxy the client's address is the one the proxy forwards, so
/// that per-address limits count clients, not the proxy; from anyone else the header is
/// ignored (a client cannot pick its address).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let proxy = "127.0.0.2";
    let options = Options {
        trusted_proxies: vec![proxy.parse().unwrap()],
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("hostile-proxy")), options).await;
    let register = |n: usize| json!({"name": format!("proxied{n}"), "password":"password123"});
    // Twenty accounts for the client at 203.0.113.1, then that client waits …
    let mut n = 0;
    let xff = [("X-Forwarded-For", "203.0.113.1")];
    loop {
        let (status, _) = http_from(
            &server,
            proxy,
            "POST /api/register",
            &xff,
            Some(&register(n)),
        )
        .await;
        n += 1;
        if status != 200 {
            assert_eq!(status, 429);
            break;
        }
        assert!(n <= 21);
    }
    assert_eq!(n, 21);
    // … and another client behind the same proxy does not.
    let fwd = [("Forwarded", "for=203.0.113.2;proto=https")];
    let (status, _) = http_from(
        &server,
        proxy,
        "POST /api/register",
        &fwd,
        Some(&register(100)),
    )
    .await;
    assert_eq!(status, 200);
    // A client that is not a trusted proxy cannot escape its limit by forwarding headers.
    let mut refused = false;
    for k in 0..25 {
        let spoof = format!("198.51.100.{k}");
        let h = [("X-Forwarded-For", spoof.as_str())];
        let (status, _) = http_from(
            &server,
            "127.0.0.3",
            "POST /api/register",
            &h,
            Some(&register(200 + k)),
        )
        .await;
        if status == 429 {
            refused = true;
            break;
        }
    }
    assert!(
        refused,
        "a forged X-Forwarded-For escaped the limit per address"
    );
    server.stop().await;
}

/// An IPv6 client is counted by its /64 network: taking a fresh address of its network for
/// each request (a host commonly has a whole /64) buys no fresh share of a per-address limit.
/// Here the guests minted per address (a burst of 100), through a trusted proxy that forwards
/// a different address of one /64 each time; another /64 is not held back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ipv6_network_is_one_address_for_the_limits() {
    let proxy = "127.0.0.2";
    let options = Options {
        trusted_proxies: vec![proxy.parse().unwrap()],
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("hostile-ipv6")), options).await;
    let mut refused = None;
    for k in 1..=150u32 {
        let from = format!("2001:db8:5:6:{k:x}::{k:x}");
        let h = [("X-Forwarded-For", from.as_str())];
        let (status, _) = http_from(&server, proxy, "POST /api/guest", &h, None).await;
        if status == 429 {
            refused = Some(k);
            break;
        }
        assert_eq!(status, 200);
    }
    // The burst, and what refills meanwhile (one every 10 s).
    assert!(
        refused.is_some_and(|k| (101..=110).contains(&k)),
        "fresh addresses of one /64 escaped the limit per address ({refused:?})"
    );
    let h = [("X-Forwarded-For", "2001:db8:5:7::1")];
    let (status, _) = http_from(&server, proxy, "POST /api/guest", &h, None).await;
    assert_eq!(status, 200, "another network is not held back");
    server.stop().await;
}

/// Sockets on finished games are limited per address: each may wake the game's task from
/// storage (a replay, and the game kept in memory a minute after its last socket), so an
/// anonymous client opening and closing sockets on old games as fast as it can would fill
/// the memory with finished games. Past the burst (30) a socket on a finished game is refused
/// 429 `rate_limited`; another address is not held back, and a live game's sockets are not
/// counted. (Loopback addresses only with `--limit-loopback-guests`, like the guest limits.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waking_finished_games_is_limited_per_address() {
    // Loopback counted, as for guests (the default leaves it to local load tests).
    let options = Options {
        limit_loopback_guests: true,
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("hostile-finished")), options).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (_live_white, _black2, live) =
        two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    let over = ask(&mut w, json!({"type": "resign"}), 1).await;
    assert_eq!(over["result"]["score"], "0-1", "{over}");
    w.close().await;
    let open = |from: &'static str, game: String| {
        let server = &server;
        async move {
            let stream = connect_from(server, from).await;
            let url = format!("ws://{}/api/games/{game}/ws", server_addr(server));
            match tokio_tungstenite::client_async(url, stream).await {
                Ok((mut ws, _)) => {
                    let _ = ws.close(None).await;
                    101
                }
                Err(tokio_tungstenite::tungstenite::Error::Http(r)) => r.status().as_u16(),
                Err(e) => panic!("{e}"),
            }
        }
    };
    // A live game's sockets are not counted.
    for _ in 0..40 {
        assert_eq!(open("127.0.0.2", live.clone()).await, 101);
    }
    let mut refused = None;
    for k in 1..=60 {
        let status = open("127.0.0.2", id.clone()).await;
        if status == 429 {
            refused = Some(k);
            break;
        }
        assert_eq!(status, 101);
    }
    // The burst, and what refills meanwhile (one every 2 s).
    assert!(
        refused.is_some_and(|k| (31..=45).contains(&k)),
        "sockets on a finished game from one address were not limited ({refused:?})"
    );
    assert_eq!(open("127.0.0.3", id.clone()).await, 101, "another address");
    server.stop().await;
}

/// Item 9 (`Content-Type`): a body is JSON only under the exact media type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_exact_json_media_type_is_json() {
    let server = Server::start(fresh_dir("hostile-ctype")).await;
    let body = r#"{"name":"mallory","password":"password123"}"#;
    for (ctype, want) in [
        ("application/jsonp", 415),
        ("application/json-seq", 415),
        ("application/json; charset=utf-8", 200),
    ] {
        let mut stream = TcpStream::connect(server_addr(&server)).await.unwrap();
        let req = format!(
            "POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(req.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        let status: u16 = answer.split(' ').nth(1).unwrap().parse().unwrap();
        assert_eq!(status, want, "{ctype}: {answer}");
    }
    server.stop().await;
}
