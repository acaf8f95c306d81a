//! [`ApiError`]: every refusal as a JSON error with a stable code.
//!
//! Below every folder: a game's task, the lobby and the accounts refuse with it as the HTTP
//! handlers do (a refusal reaches a socket as an `error` frame with the same code), so it uses
//! nothing of the crate.

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
