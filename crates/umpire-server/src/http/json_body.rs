//! [`body`]: a request's JSON body, read only when the request says it is JSON.

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// Reads a JSON body; the request must say `Content-Type: application/json` (which a
/// cross-site HTML form cannot).
pub fn body<T: DeserializeOwned>(headers: &HeaderMap, bytes: &Bytes) -> Result<T, ApiError> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_json);
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "json_required",
            "send the body as Content-Type: application/json",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request("bad_json", e.to_string()))
}

/// Whether a `Content-Type` value names the media type `application/json` exactly (case
/// aside, RFC 9110 §8.3.1), with no parameter but an optional `charset` of UTF-8. A prefix is
/// not enough: `application/jsonp` or `application/json-seq` are other types.
pub fn is_json(content_type: &str) -> bool {
    let mut parts = content_type.split(';');
    let media = parts.next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return false;
    }
    parts.all(|p| {
        p.split_once('=').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("charset")
                && v.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::is_json;

    #[test]
    fn content_type_is_the_exact_media_type() {
        assert!(is_json("application/json"));
        assert!(is_json("Application/JSON"));
        assert!(is_json("application/json; charset=utf-8"));
        assert!(is_json("application/json;charset=\"UTF-8\""));
        assert!(!is_json("application/jsonp"));
        assert!(!is_json("application/json-seq"));
        assert!(!is_json("application/json, text/plain"));
        assert!(!is_json("application/json; charset=latin1"));
        assert!(!is_json("application/json; boundary=x"));
        assert!(!is_json("text/plain; application/json"));
        assert!(!is_json(""));
    }
}
