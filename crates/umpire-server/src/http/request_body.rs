//! [`read_body`]: a request's body, read whole within [`BODY_TIMEOUT`] and at most
//! [`MAX_BODY_BYTES`], before any handler sees the request: a client that sends its headers
//! and then its body a byte a minute holds nothing for long.

use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The largest request body accepted, in bytes; a larger one is refused with 413
/// `body_too_large`.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// How long a request may take to send its body; then 408 `timeout`.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The middleware that reads a request's body within [`BODY_TIMEOUT`] (and at most
/// [`MAX_BODY_BYTES`]); 408 `timeout` if it is not all
/// there by then.
pub async fn read_body(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let limit = MAX_BODY_BYTES;
    let bytes = match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                format!("a request body has at most {limit} bytes"),
            )
            .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "timeout",
                format!(
                    "the request's body did not arrive within {} s",
                    BODY_TIMEOUT.as_secs()
                ),
            )
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
