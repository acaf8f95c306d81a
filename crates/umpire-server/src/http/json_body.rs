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
        .is_some_and(|v| v.starts_with("application/json"));
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "json_required",
            "send the body as Content-Type: application/json",
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request("bad_json", e.to_string()))
}
