//! [`Caller`] and [`MaybeCaller`]: the extractors that say who sent a request (a session
//! cookie or an API token, looked up in storage).

use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;

use crate::accounts::auth::SESSION_COOKIE;
use crate::error::ApiError;
use crate::http::state::AppState;
use crate::store::{Store, UserRow};

/// The bearer token of a request: `Authorization: Bearer T` or the session cookie.
pub fn request_token(parts: &Parts) -> Option<String> {
    if let Some(v) = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        && let Some(t) = v.strip_prefix("Bearer ")
    {
        return Some(t.trim().to_owned());
    }
    for v in parts.headers.get_all(COOKIE) {
        let Ok(v) = v.to_str() else { continue };
        for pair in v.split(';') {
            if let Some((k, val)) = pair.trim().split_once('=')
                && k == SESSION_COOKIE
                && !val.is_empty()
            {
                return Some(val.to_owned());
            }
        }
    }
    None
}

/// The user who sent a request (a session or an API token); `unauthorized` otherwise.
#[derive(Clone, Debug)]
pub struct Caller(pub UserRow);

/// The user who sent a request, if any.
#[derive(Clone, Debug)]
pub struct MaybeCaller(pub Option<UserRow>);

async fn lookup(parts: &Parts, store: &Store) -> Result<Option<UserRow>, ApiError> {
    let Some(token) = request_token(parts) else {
        return Ok(None);
    };
    // The store's time, which wrote the session's times (a server on an injected clock
    // measures a session's idle time on that clock, not the wall's).
    crate::accounts::auth::bearer_user(store, &token, store.now_ms()).await
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Caller, ApiError> {
        lookup(parts, &state.store)
            .await?
            .map(Caller)
            .ok_or_else(|| ApiError::unauthorized("log in, play as a guest, or send a bot token"))
    }
}

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<MaybeCaller, ApiError> {
        Ok(MaybeCaller(lookup(parts, &state.store).await?))
    }
}
