//! CSRF and cross-site WebSocket hijacking protection. Two layers: every body is JSON sent as
//! `Content-Type: application/json` (which a cross-site HTML form cannot send, see
//! [`crate::http::json_body`]), and this check: a request that changes something (any method
//! but `GET`, `HEAD` and `OPTIONS`) or opens a WebSocket (`Upgrade: websocket`, which browsers
//! send with the page's cookies and without any CORS check) and carries an `Origin` header
//! must come from the server's own host (`Origin`'s host and port equal `Host`) or from one of
//! [`crate::Options::allowed_origins`], else it is refused with 403 `bad_origin`. Requests
//! without `Origin` (command-line clients, bots) are not browsers' cross-site requests and
//! pass: a browser always sends `Origin` on these. The session cookie is also `SameSite=Lax`.

use axum::extract::{Request, State};
use axum::http::Method;
use axum::http::header::{HOST, ORIGIN, UPGRADE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::http::state::AppState;

/// Whether `origin` (`scheme://host[:port]`) names `host` (`host[:port]`).
pub fn same_origin(origin: &str, host: &str) -> bool {
    let Some((_, rest)) = origin.split_once("://") else {
        return false;
    };
    rest.trim_end_matches('/').eq_ignore_ascii_case(host)
}

/// Whether `request` is one the check applies to: it changes something, or opens a socket.
fn guarded(request: &Request) -> bool {
    let safe = [Method::GET, Method::HEAD, Method::OPTIONS].contains(request.method());
    let upgrade = request
        .headers()
        .get(UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    !safe || upgrade
}

/// The middleware: refuses a cross-origin request that changes something or opens a
/// WebSocket.
pub async fn check(State(st): State<AppState>, request: Request, next: Next) -> Response {
    if guarded(&request)
        && let Some(origin) = request.headers().get(ORIGIN)
    {
        let host = request
            .headers()
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        let ok = origin.to_str().is_ok_and(|o| {
            same_origin(o, host)
                || st.options.allowed_origins.iter().any(|a| {
                    a.trim_end_matches('/')
                        .eq_ignore_ascii_case(o.trim_end_matches('/'))
                })
        });
        if !ok {
            return ApiError::forbidden(
                "bad_origin",
                "cross-site request refused: the Origin is not this server",
            )
            .into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_match_host_and_port_only() {
        assert!(same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(same_origin("https://Umpire.example", "umpire.example"));
        assert!(!same_origin("http://evil.example", "umpire.example"));
        assert!(!same_origin("http://127.0.0.1:9090", "127.0.0.1:8080"));
        assert!(!same_origin("null", "127.0.0.1:8080"));
    }
}
