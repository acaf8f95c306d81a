//! CSRF protection for state-changing requests. Two layers: every body is JSON sent as
//! `Content-Type: application/json` (which a cross-site HTML form cannot send, see
//! [`crate::http::json_body`]), and this check: a `POST` that carries an `Origin` header must
//! come from the server's own host (`Origin`'s host and port equal `Host`), else it is
//! refused with 403 `bad_origin`. Requests without `Origin` (command-line clients, bots) are
//! not browsers' cross-site requests and pass. The session cookie is also `SameSite=Lax`.

use axum::extract::Request;
use axum::http::Method;
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Whether `origin` (`scheme://host[:port]`) names `host` (`host[:port]`).
pub fn same_origin(origin: &str, host: &str) -> bool {
    let Some((_, rest)) = origin.split_once("://") else {
        return false;
    };
    rest.trim_end_matches('/').eq_ignore_ascii_case(host)
}

/// The middleware: refuses a cross-origin `POST`.
pub async fn check(request: Request, next: Next) -> Response {
    if request.method() == Method::POST
        && let Some(origin) = request.headers().get(ORIGIN)
    {
        let host = request
            .headers()
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        let ok = origin.to_str().is_ok_and(|o| same_origin(o, host));
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
