//! [`ApiError`]: every refusal as a JSON error with a stable code.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A refusal: an HTTP status, a stable snake-case code and a sentence for people.
///
/// Sent over HTTP as `{"error":{"code":"…","message":"…"}}` and over WebSocket as a frame
/// `{"type":"error","code":"…","message":"…"}` (see `docs/PROTOCOL.md`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The stable code clients may match on.
    pub code: &'static str,
    /// What went wrong, in words.
    pub message: String,
}

impl ApiError {
    /// A refusal with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 403 `guest_unrated`: the refusal of a rated game to a guest.
    pub fn guest_unrated() -> ApiError {
        ApiError::forbidden(
            "guest_unrated",
            "guests play casual games only: register (or use a bot account) to play rated games",
        )
    }

    /// 400: the request is malformed.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 401: the caller is not known.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 404 with its own stable code: the thing named does not exist.
    pub fn not_found_code(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, code, message)
    }

    /// 409: the request conflicts with the state of things.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 500: storage failed; the message is logged, not shown.
    pub fn storage(error: impl std::fmt::Display) -> ApiError {
        tracing::error!("storage: {error}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            "the server could not store or read data; nothing was changed",
        )
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody<'_> {
        ErrorBody {
            error: ErrorFields {
                code: self.code,
                message: &self.message,
            },
        }
    }
}

/// The JSON body of an HTTP refusal.
#[derive(Serialize)]
pub struct ErrorBody<'a> {
    /// The refusal.
    pub error: ErrorFields<'a>,
}

/// Code and message.
#[derive(Serialize)]
pub struct ErrorFields<'a> {
    /// Stable code.
    pub code: &'a str,
    /// Sentence.
    pub message: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        ApiError::storage(e)
    }
}

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
