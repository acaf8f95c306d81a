//! The embedded web site: the app's pages answer its `index.html` (not cached without asking),
//! its hashed assets are immutable and sent compressed as the client asks, every page carries
//! the security headers, unknown API paths stay JSON 404s, the service worker is served to be
//! revalidated and names this build, and the page knows the levels the server does.

mod common;

use std::path::Path;

use common::raw_http::{Answer, raw};
use common::{Server, fresh_dir};
use serde_json::Value;

/// One GET with these extra header lines (each ending in CRLF).
async fn get(server: &Server, path: &str, extra: &str) -> Answer {
    let head = format!("GET {path} HTTP/1.1\r\n{extra}");
    raw(server, head.trim_end_matches("\r\n"), b"").await
}

fn dist(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/dist")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn secured(a: &Answer) {
    let csp = a.header("content-security-policy").expect("a CSP");
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("connect-src 'self' ws: wss:"), "{csp}");
    assert_eq!(a.header("x-content-type-options"), Some("nosniff"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_of_the_app_is_its_index_html_revalidated() {
    let server = Server::start(fresh_dir("site-pages")).await;
    let index = dist("index.html");
    for path in [
        "/",
        "/lobby",
        "/play/k3x9",
        "/game/k3x9",
        "/review/k3x9",
        "/@/ann",
        "/leaderboard",
    ] {
        let a = get(&server, path, "").await;
        assert_eq!(a.status, 200, "{path}");
        assert_eq!(
            a.header("content-type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        assert_eq!(a.header("cache-control"), Some("no-cache"), "{path}");
        assert_eq!(a.body, index, "{path}");
        secured(&a);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assets_are_immutable_and_sent_compressed_as_asked() {
    let server = Server::start(fresh_dir("site-assets")).await;
    let index = String::from_utf8(dist("index.html")).unwrap();
    let script = index
        .split("src=\"/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("index.html names its script")
        .to_owned();
    assert!(
        script.starts_with("assets/main-") && script.ends_with(".js"),
        "{script}"
    );
    let path = format!("/{script}");

    let plain = get(&server, &path, "").await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.body, dist(&script));
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(
        plain.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(
        plain.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(plain.header("vary"), Some("Accept-Encoding"));
    secured(&plain);

    let br = get(&server, &path, "Accept-Encoding: gzip, deflate, br\r\n").await;
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert_eq!(br.body, dist(&format!("{script}.br")));
    assert!(br.body.len() < plain.body.len() / 2);

    let gz = get(&server, &path, "Accept-Encoding: gzip\r\n").await;
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert_eq!(gz.body, dist(&format!("{script}.gz")));

    let refused = get(&server, &path, "Accept-Encoding: gzip;q=0, br;q=0\r\n").await;
    assert_eq!(refused.header("content-encoding"), None);
    assert_eq!(refused.body, dist(&script));

    let licence = get(&server, "/assets/LICENSE.txt", "").await;
    assert_eq!(licence.status, 200);
    assert!(String::from_utf8_lossy(&licence.body).contains("GNU GENERAL PUBLIC LICENSE"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_paths_stay_json_404s() {
    let server = Server::start(fresh_dir("site-404")).await;
    let index = String::from_utf8(dist("index.html")).unwrap();
    let script = index
        .split("src=\"/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_owned();
    for path in [
        "/api/nope".to_owned(),
        "/api/games/x/y/z".to_owned(),
        "/assets/nope.js".to_owned(),
        format!("/{script}.gz"),
        "/play".to_owned(),
        "/nothing-here".to_owned(),
    ] {
        let a = get(&server, &path, "").await;
        assert_eq!(a.status, 404, "{path}");
        let v: Value = serde_json::from_slice(&a.body).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(v["error"]["code"], "not_found", "{path}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_worker_is_served_revalidated_and_names_this_bundle() {
    let server = Server::start(fresh_dir("site-sw")).await;
    let index = String::from_utf8(dist("index.html")).unwrap();
    let script = index
        .split("src=\"/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("index.html names its script")
        .to_owned();
    let styles = index
        .split("href=\"/")
        .find_map(|s| s.split('"').next().filter(|n| n.ends_with(".css")))
        .expect("index.html names its styles")
        .to_owned();

    let a = get(&server, "/sw.js", "").await;
    assert_eq!(a.status, 200);
    assert_eq!(
        a.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(a.header("cache-control"), Some("no-cache"));
    // At the root its scope is the whole site already.
    assert_eq!(a.header("service-worker-allowed"), None);
    secured(&a);
    assert_eq!(a.body, dist("sw.js"));
    let text = String::from_utf8(a.body.clone()).expect("the worker is text");
    // The shell of this build, by the bundle's hashed names: a new build is a new worker.
    assert!(
        text.contains(&format!("\"/{script}\"")),
        "{script} in sw.js"
    );
    assert!(
        text.contains(&format!("\"/{styles}\"")),
        "{styles} in sw.js"
    );
    // Nothing of the API among what it keeps.
    assert!(
        !text.contains("\"/api/"),
        "no API path in the worker's shell"
    );

    let br = get(&server, "/sw.js", "Accept-Encoding: br\r\n").await;
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert_eq!(br.header("cache-control"), Some("no-cache"));
    server.stop().await;
}

/// The page names a bot's level from its seat (`agent:mcts/nodes=4000` is level 4) with its own
/// copy of the server's table of nodes per level: the two must agree.
#[test]
fn the_pages_levels_are_the_servers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/logic/text.ts");
    let text = std::fs::read_to_string(&path).expect("web/src/logic/text.ts");
    let grouped = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push('_');
            }
            out.push(c);
        }
        out
    };
    let table = umpire_server::game::strength::LEVEL_NODES
        .iter()
        .map(|&n| grouped(n))
        .collect::<Vec<_>>()
        .join(", ");
    let want = format!("export const LEVEL_NODES = [{table}];");
    assert!(text.contains(&want), "{want} in text.ts");
}
