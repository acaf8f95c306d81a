//! The accounts' handlers: a guest (`POST /api/guest`), registering, logging in and out, who
//! am I (`GET /api/me`) and bot accounts with their API tokens (`POST /api/bots`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use umpire_protocol::http::account::{
    Credentials, MeBody, NewBotBody, NewBotRequest, OkBody, SessionBody, UserJson,
};

use crate::accounts::auth;
use crate::error::ApiError;
use crate::http::caller::Caller;
use crate::http::json_body::body;
use crate::http::peer::Peer;
use crate::http::state::AppState;
use crate::store::UserRow;

fn user_json(u: &UserRow) -> UserJson {
    UserJson {
        id: u.id.clone(),
        name: u.name.clone(),
        kind: u.kind.clone(),
    }
}

fn with_session(st: &AppState, user: &UserRow, token: &str) -> Response {
    (
        [(
            SET_COOKIE,
            auth::session_cookie(token, st.options.secure_cookies),
        )],
        Json(SessionBody {
            user: user_json(user),
            session: token.to_owned(),
        }),
    )
        .into_response()
}

/// `POST /api/guest`: a guest account and its session, no registration. Guests are minted
/// per address at most as fast as [`crate::http::rate_limit::guest_account_limiter`] allows
/// (loopback addresses only with [`crate::Options::limit_loopback_guests`]); past that,
/// `rate_limited` (429) and nothing is created.
pub async fn guest(State(st): State<AppState>, peer: Peer) -> Result<Response, ApiError> {
    if let Some(ip) = peer.0
        && (st.options.limit_loopback_guests || !ip.is_loopback())
        && !st
            .guest_accounts
            .take(&ip.to_string(), std::time::Instant::now())
    {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many new guests from this address: wait a little and try again, or log in",
        ));
    }
    let name = format!("guest-{}", &auth::new_id()[..6]);
    let user = auth::create_user(&st.store, &name, "guest", None, None).await?;
    let token = auth::open_session(&st.store, &user).await?;
    Ok(with_session(&st, &user, &token))
}

/// Takes one of the accounts and bots `peer` may make
/// ([`crate::http::rate_limit::new_account_limiter`]); `rate_limited` (429) past that.
fn may_make_account(st: &AppState, peer: Peer) -> Result<(), ApiError> {
    let address = peer.0.map(|ip| ip.to_string()).unwrap_or_default();
    if st.new_accounts.take(&address, std::time::Instant::now()) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many new accounts and bots from this address: try again in a minute",
        ))
    }
}

/// `POST /api/register {"name","password"}`: an account (argon2 hash) and its session. At
/// most [`crate::http::rate_limit::new_account_limiter`] per address.
pub async fn register(
    State(st): State<AppState>,
    peer: Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let c: Credentials = body(&headers, &bytes)?;
    may_make_account(&st, peer)?;
    auth::check_chosen_name(&c.name)?;
    let address = peer.0.map(|ip| ip.to_string()).unwrap_or_default();
    let hash = auth::hash_password(&address, c.password).await?;
    let user = auth::create_user(&st.store, &c.name, "account", Some(hash), None).await?;
    let token = auth::open_session(&st.store, &user).await?;
    Ok(with_session(&st, &user, &token))
}

/// `POST /api/login {"name","password"}`. Tries are limited per address
/// ([`crate::http::rate_limit::login_limiter`]) and wrong passwords back off per address and
/// account ([`crate::http::backoff`]); either gives `rate_limited` (429).
pub async fn login(
    State(st): State<AppState>,
    peer: Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let c: Credentials = body(&headers, &bytes)?;
    let now = std::time::Instant::now();
    let address = peer.0.map(|ip| ip.to_string()).unwrap_or_default();
    if !st.logins.take(&address, now) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many log-in tries from this address: wait a minute",
        ));
    }
    // The account as names are compared: `ANN` and `ann` are one account, so one count.
    let pair = crate::http::backoff::key(&address, &crate::store::name_key(&c.name));
    if let Err(wait) = st.login_failures.check(&pair, now) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!(
                "too many wrong passwords for this name from this address: wait {} s",
                wait.as_secs().max(1)
            ),
        ));
    }
    let refused = || ApiError::unauthorized("wrong name or password");
    let failed = || {
        st.login_failures.failed(&pair, std::time::Instant::now());
        refused()
    };
    let user = st.store.user_by_name(&c.name).await?.ok_or_else(failed)?;
    let hash = user.password_hash.clone().ok_or_else(failed)?;
    if !auth::verify_password(&address, c.password, hash).await? {
        return Err(failed());
    }
    st.login_failures.succeeded(&pair);
    let token = auth::open_session(&st.store, &user).await?;
    Ok(with_session(&st, &user, &token))
}

/// `POST /api/logout`: ends the session of the request.
pub async fn logout(
    State(st): State<AppState>,
    req: axum::extract::Request,
) -> Result<Response, ApiError> {
    let (parts, _) = req.into_parts();
    if let Some(token) = crate::http::caller::request_token(&parts) {
        st.store.delete_session(&auth::token_hash(&token)).await?;
    }
    Ok((
        [(SET_COOKIE, auth::expired_cookie(st.options.secure_cookies))],
        Json(OkBody { ok: true }),
    )
        .into_response())
}

/// `GET /api/me`.
pub async fn me(Caller(user): Caller) -> Json<MeBody> {
    Json(MeBody {
        user: user_json(&user),
    })
}

/// `POST /api/bots {"name"}`: a bot account owned by a registered account; answers its API
/// token (shown once). At most [`crate::http::rate_limit::new_account_limiter`] per address.
pub async fn new_bot(
    State(st): State<AppState>,
    Caller(owner): Caller,
    peer: Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<NewBotBody>, ApiError> {
    if owner.kind != "account" {
        return Err(ApiError::forbidden(
            "account_required",
            "only registered accounts create bots",
        ));
    }
    let b: NewBotRequest = body(&headers, &bytes)?;
    may_make_account(&st, peer)?;
    auth::check_chosen_name(&b.name)?;
    if st.store.bots_of(&owner.id).await? >= auth::MAX_BOTS_PER_OWNER {
        return Err(ApiError::forbidden(
            "too_many_bots",
            format!("an account makes at most {} bots", auth::MAX_BOTS_PER_OWNER),
        ));
    }
    let bot = auth::create_user(&st.store, &b.name, "bot", None, Some(owner.id.clone())).await?;
    let token = auth::new_token();
    st.store
        .insert_credential(
            crate::store::Credential::ApiToken,
            &auth::token_hash(&token),
            &bot.id,
        )
        .await?;
    Ok(Json(NewBotBody {
        user: user_json(&bot),
        token,
    }))
}
