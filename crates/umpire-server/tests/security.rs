//! Security: session cookie flags, CSRF (cross-origin posts and HTML-form bodies refused),
//! rate limits on log-in and on the frames of a game connection (the hostile clients of
//! `docs/SECURITY.md` are `hostile.rs`); each refusal a JSON error with
//! a stable code, and the game unharmed.

mod common;

use std::time::Duration;

use common::raw_http::{Answer, raw};
use common::{Server, ask, fresh_dir, socket, two_player_game};
use serde_json::{Value, json};
use umpire_server::{Database, Options};

fn cookie(headers: &[(String, String)]) -> &str {
    headers
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.as_str())
        .expect("a Set-Cookie header")
}

fn code(body: &[u8]) -> String {
    let body = String::from_utf8_lossy(body);
    // The body may be chunked: take the JSON object in it.
    let start = body.find('{').unwrap_or(0);
    let end = body.rfind('}').map_or(body.len(), |i| i + 1);
    let v: Value = serde_json::from_str(&body[start..end]).unwrap_or_default();
    v["error"]["code"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_cookies_are_http_only_lax_and_secure_when_asked() {
    let server = Server::start(fresh_dir("cookie")).await;
    let Answer {
        status, headers, ..
    } = raw(&server, "POST /api/guest HTTP/1.1", b"").await;
    assert_eq!(status, 200);
    let c = cookie(&headers);
    assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax"), "{c}");
    assert!(!c.contains("Secure"), "{c}");
    server.stop().await;
    let options = Options {
        secure_cookies: true,
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("cookie-tls")), options).await;
    let Answer { headers, .. } = raw(&server, "POST /api/guest HTTP/1.1", b"").await;
    let c = cookie(&headers);
    assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && c.contains("; Secure"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_site_posts_and_form_bodies_are_refused() {
    let server = Server::start(fresh_dir("csrf")).await;
    let Answer { status, body, .. } = raw(
        &server,
        "POST /api/guest HTTP/1.1\r\nOrigin: http://evil.example",
        b"",
    )
    .await;
    assert_eq!(
        (status, code(&body).as_str()),
        (403, "bad_origin"),
        "{}",
        String::from_utf8_lossy(&body)
    );
    // The same request from the server's own origin passes.
    let own = format!("Origin: {}", server.url);
    let Answer { status, .. } =
        raw(&server, &format!("POST /api/guest HTTP/1.1\r\n{own}"), b"").await;
    assert_eq!(status, 200);
    // An HTML form's body (urlencoded) is refused even without an Origin.
    let Answer { status, body, .. } = raw(
        &server,
        "POST /api/register HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded",
        b"name=mallory&password=password123",
    )
    .await;
    assert_eq!((status, code(&body).as_str()), (415, "json_required"));
    // Nothing was created by the refused requests.
    let a = server
        .client()
        .request(
            "POST",
            "/api/login",
            Some(&json!({"name":"mallory","password":"password123"})),
        )
        .await
        .unwrap();
    assert_eq!(a.code(), Some("unauthorized"));
    server.stop().await;
}

/// `POST /api/guest` mints guests per address at most 100 at once (then one every 10 s):
/// past that a stable 429 refusal, no session, and an account at the same address still logs
/// in. Loopback is counted only when the server is told to (a local load test makes thousands).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn minting_guests_is_rate_limited_per_address() {
    let options = Options {
        limit_loopback_guests: true,
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("guest-mint")), options).await;
    let burst = 100;
    let c = server.client();
    let mut made = 0;
    let refused = loop {
        let a = c.request("POST", "/api/guest", None).await.unwrap();
        if a.status != 200 {
            break a;
        }
        assert!(a.body["session"].is_string(), "{a:?}");
        made += 1;
        assert!(made <= burst, "more than {burst} guests at once");
    };
    assert_eq!(made, burst);
    assert_eq!(refused.status, 429);
    assert_eq!(refused.code(), Some("rate_limited"));
    assert!(refused.body.get("session").is_none(), "{refused:?}");
    assert!(refused.body.get("user").is_none(), "{refused:?}");
    let Answer {
        status, headers, ..
    } = raw(&server, "POST /api/guest HTTP/1.1", b"").await;
    assert_eq!(status, 429);
    assert!(
        !headers.iter().any(|(k, _)| k == "set-cookie"),
        "no session cookie for a refused guest: {headers:?}"
    );
    // A registered account at the same address is not held back.
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    ann.create_game(&json!({})).await.unwrap();
    server.stop().await;
    // By default loopback guests are not counted per address.
    let server = Server::start(fresh_dir("guest-mint-loopback")).await;
    let c = server.client();
    for _ in 0..burst + 5 {
        c.request("POST", "/api/guest", None)
            .await
            .unwrap()
            .ok()
            .unwrap();
    }
    server.stop().await;
}

/// Wrong passwords back off per address and name: five free, then `rate_limited` (even for
/// the right password, from that address); another name is not affected. That the owner
/// from another address is not held back is `hostile.rs`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_back_off_per_address_and_name() {
    let server = Server::start(fresh_dir("login-limit")).await;
    let mut ann = server.client();
    ann.register("ann", "password123").await.unwrap();
    let c = server.client();
    let wrong = json!({"name":"ann","password":"guess"});
    let mut codes = Vec::new();
    for _ in 0..8 {
        let a = c.request("POST", "/api/login", Some(&wrong)).await.unwrap();
        codes.push((a.status, a.code().unwrap_or_default().to_owned()));
    }
    assert!(
        codes[..5]
            .iter()
            .all(|(s, c)| *s == 401 && c == "unauthorized"),
        "{codes:?}"
    );
    assert!(
        codes[6..]
            .iter()
            .all(|(s, c)| *s == 429 && c == "rate_limited"),
        "{codes:?}"
    );
    let right = json!({"name":"ann","password":"password123"});
    let a = c.request("POST", "/api/login", Some(&right)).await.unwrap();
    assert_eq!(a.code(), Some("rate_limited"));
    let other = json!({"name":"bob","password":"guess"});
    let a = c.request("POST", "/api/login", Some(&other)).await.unwrap();
    assert_eq!(a.code(), Some("unauthorized"));
    server.stop().await;
}

/// A flood of frames: the burst is answered, the flood is told once that it is limited and
/// the rest dropped unanswered; once the bucket refills, the game is unharmed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_frames_is_rate_limited_and_the_game_goes_on() {
    let server = Server::start(fresh_dir("frame-limit")).await;
    let (white, _black, id) = two_player_game(&server, json!({"initial_ms": 3_600_000})).await;
    let (mut w, _) = socket(&white, &id).await;
    for _ in 0..600 {
        w.send(&json!({"type":"relist"})).await.unwrap();
    }
    let mut limited = 0;
    let mut relists = 0;
    while let Ok(f) = w.next_within(Duration::from_secs(2)).await {
        match f["type"].as_str() {
            Some("relist") => relists += 1,
            Some("error") => {
                assert_eq!(f["code"], "rate_limited", "{f}");
                limited += 1;
            }
            _ => {}
        }
    }
    assert!(
        limited > 0 && relists >= 200 && relists + limited < 600,
        "{limited} limited, {relists} answered"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let u = ask(&mut w, json!({"type":"attempt","move":"e2e4"}), 1).await;
    assert_eq!(u["observation"]["own"]["verdict"], "accepted");
    server.stop().await;
}

/// The metrics count every command of every game (a player on a quiet server could count the
/// opponent's rejected attempts): off unless the operator turns them on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_answer_only_when_turned_on() {
    let server = Server::start(fresh_dir("metrics-off")).await;
    let Answer { status, body, .. } = raw(&server, "GET /api/metrics HTTP/1.1", b"").await;
    assert_eq!(status, 404);
    assert_eq!(code(&body), "metrics_off");
    server.stop().await;
    let options = Options {
        metrics: true,
        ..Default::default()
    };
    let server = Server::start_options(Database::Dir(fresh_dir("metrics-on")), options).await;
    let answer = server
        .client()
        .request("GET", "/api/metrics", None)
        .await
        .unwrap();
    assert_eq!(answer.status, 200);
    assert!(answer.body["act"]["count"].is_u64(), "{}", answer.body);
    server.stop().await;
}
