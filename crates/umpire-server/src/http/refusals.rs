//! [`json_refusals`]: the framework's own refusals rewritten as JSON [`ApiError`]s.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Turns every refusal the framework writes as plain text (an oversized body, a wrong
/// method, a malformed path or query, a failed WebSocket upgrade) into the JSON refusal with
/// a stable code, so that a client never has to read anything but JSON errors.
pub async fn json_refusals(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "body_too_large",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "json_required",
        StatusCode::UNPROCESSABLE_ENTITY => "bad_json",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::UPGRADE_REQUIRED => "upgrade_required",
        StatusCode::TOO_MANY_REQUESTS => "rate_limited",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    };
    let text = axum::body::to_bytes(response.into_body(), 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let message = if text.trim().is_empty() {
        status.canonical_reason().unwrap_or("refused").to_owned()
    } else {
        text.trim().to_owned()
    };
    ApiError::new(status, code, message).into_response()
}
