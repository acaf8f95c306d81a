//! The web site, embedded in the binary: the single-page app's `index.html` on each of its
//! pages, and its assets under `/assets/` with content-hashed names. Every text file is embedded
//! with its gzip and brotli copies (made once by `npm run build`), sent by `Accept-Encoding`, so
//! nothing is compressed while serving; and the service worker at `/sw.js`. See `docs/WEB.md`.

use axum::extract::Path;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_ENCODING, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderName,
    HeaderValue, REFERRER_POLICY, VARY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/site_files.rs"));
}

/// The Content-Security-Policy of every page: scripts, styles and connections only from this
/// origin (WebSockets to it included), images from it or inline data (the pieces), no framing.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// How assets with hashed names are cached: for a year, never revalidated.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// An embedded file's bytes, by its path in `web/dist`.
fn file(name: &str) -> Option<&'static [u8]> {
    embedded::FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}

/// Whether the site was built into this binary.
pub fn embedded() -> bool {
    file("index.html").is_some()
}

/// The content encodings the client takes, from `Accept-Encoding` (`q=0` refuses one).
fn accepts(headers: &HeaderMap, encoding: &str) -> bool {
    headers
        .get_all(axum::http::header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                let p = p.trim().replace(' ', "");
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            name.eq_ignore_ascii_case(encoding) && !refused
        })
}

/// The media type for a file name.
fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

/// The headers every page and asset carries.
fn security_headers(headers: &mut HeaderMap) {
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY_VALUE),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
}

/// A file with the best encoding the client takes, or `None` if it is not embedded.
fn send(name: &str, request: &HeaderMap, cache: &'static str) -> Option<Response> {
    let plain = file(name)?;
    let (body, encoding) =
        if let Some(br) = file(&format!("{name}.br")).filter(|_| accepts(request, "br")) {
            (br, Some("br"))
        } else if let Some(gz) = file(&format!("{name}.gz")).filter(|_| accepts(request, "gzip")) {
            (gz, Some("gzip"))
        } else {
            (plain, None)
        };
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type(name)));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Some(e) = encoding {
        headers.insert(CONTENT_ENCODING, HeaderValue::from_static(e));
    }
    security_headers(headers);
    Some(response)
}

/// A page of the app (`/`, `/lobby`, `/play/{id}`, …): its `index.html`, never cached without
/// asking again, so a new build is picked up at once.
pub async fn page(request: HeaderMap) -> Response {
    send("index.html", &request, "no-cache").unwrap_or_else(|| {
        ApiError::not_found("the web site was not built into this server (web/dist missing)")
            .into_response()
    })
}

/// The service worker, `/sw.js`: at a stable address (its scope is the whole site, so no
/// `Service-Worker-Allowed` is needed), never cached without asking again, so that a new build's
/// worker (naming the new bundle's hash) replaces the old one at the next visit. It keeps a copy
/// of the app shell only, for a page opened while the server is down (`web/src/sw/worker.ts`).
pub async fn service_worker(request: HeaderMap) -> Response {
    send("sw.js", &request, "no-cache").unwrap_or_else(|| {
        ApiError::not_found("the web site was not built into this server (web/dist missing)")
            .into_response()
    })
}

/// An asset, `/assets/{name}`: only names the build made (a hashed name never changes content).
pub async fn asset(Path(name): Path<String>, request: HeaderMap) -> Response {
    let compressed = name.ends_with(".gz") || name.ends_with(".br");
    let found = (!compressed && !name.contains('/'))
        .then(|| send(&format!("assets/{name}"), &request, IMMUTABLE))
        .flatten();
    found.unwrap_or_else(|| ApiError::not_found("no such asset").into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            axum::http::header::ACCEPT_ENCODING,
            HeaderValue::from_str(accept).unwrap(),
        );
        h
    }

    #[test]
    fn accept_encoding_is_read_with_q_values() {
        assert!(accepts(&with("gzip, deflate, br"), "br"));
        assert!(accepts(&with("gzip;q=0.5"), "gzip"));
        assert!(!accepts(&with("gzip;q=0, br"), "gzip"));
        assert!(!accepts(&with("identity"), "gzip"));
        assert!(!accepts(&HeaderMap::new(), "br"));
    }

    #[test]
    fn media_types_by_extension() {
        assert_eq!(
            content_type("a/main-X.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("odd"), "application/octet-stream");
    }

    #[test]
    fn the_built_site_is_embedded_with_compressed_copies() {
        assert!(embedded(), "web/dist/index.html is embedded");
        for (name, _) in embedded::FILES {
            if name.ends_with(".gz") || name.ends_with(".br") {
                continue;
            }
            assert!(file(&format!("{name}.gz")).is_some(), "{name}.gz");
            assert!(file(&format!("{name}.br")).is_some(), "{name}.br");
        }
    }
}
