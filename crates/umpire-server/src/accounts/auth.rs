//! Players: guests, accounts (argon2 password hashes), bot accounts with API tokens, session
//! cookies. The HTTP layer's extractors (`http/caller.rs`) tell who sent a request from these
//! tokens.
//!
//! Tokens are 256 random bits shown once; only their SHA-256 is stored. CSRF: the API takes
//! JSON bodies only (a cross-site form cannot send `application/json`) and the session cookie
//! is `SameSite=Lax`, so a cross-site form post carries no session.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngExt;
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::store::{Credential, Store, UserRow};

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "umpire_session";

/// A new random token: 64 hex digits.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex(&bytes)
}

/// A new random id: 10 characters from `[0-9a-z]`.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// How long a session lasts unused: 30 days. Each use slides the expiry (the server records
/// the use at most once per [`SESSION_TOUCH`]); an expired session is refused (and deleted) on
/// the server, whatever the cookie's own `Max-Age`.
pub const SESSION_IDLE: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// How often a session's last use is written: once an hour at most (a request does not cost a
/// write each time).
pub const SESSION_TOUCH: std::time::Duration = std::time::Duration::from_secs(3600);

/// The most bot accounts one account may make: 5.
pub const MAX_BOTS_PER_OWNER: i64 = 5;

/// The prefix of guests' names; no account or bot name may take it (in any case).
pub const GUEST_PREFIX: &str = "guest-";

/// Checks a name an account or bot chooses: [`check_name`], and not starting with
/// [`GUEST_PREFIX`] once compared as names are ([`crate::store::name_key`]).
pub fn check_chosen_name(name: &str) -> Result<(), ApiError> {
    check_name(name)?;
    if crate::store::name_key(name).starts_with(GUEST_PREFIX) {
        return Err(ApiError::bad_request(
            "bad_name",
            "names starting guest- are for guests",
        ));
    }
    Ok(())
}

/// The user of a session or API token at `now_ms`: a session unused for [`SESSION_IDLE`] is
/// expired (deleted, and `None`); a live one is marked used when its last use is older than
/// [`SESSION_TOUCH`].
pub async fn bearer_user(
    store: &Store,
    token: &str,
    now_ms: i64,
) -> Result<Option<UserRow>, ApiError> {
    let hash = token_hash(token);
    if let Some((user, last_ms)) = store.user_by_credential(Credential::Session, &hash).await? {
        let idle = i64::try_from(SESSION_IDLE.as_millis()).unwrap_or(i64::MAX);
        let touch = i64::try_from(SESSION_TOUCH.as_millis()).unwrap_or(i64::MAX);
        let unused = now_ms.saturating_sub(last_ms);
        if unused >= idle {
            store.delete_session(&hash).await?;
            return Ok(None);
        }
        if unused >= touch {
            store.touch_session(&hash, now_ms).await?;
        }
        return Ok(Some(user));
    }
    Ok(store
        .user_by_credential(Credential::ApiToken, &hash)
        .await?
        .map(|(user, _)| user))
}

/// Checks a user name: 3 to 24 characters from letters, digits, `-` and `_`.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=24).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "bad_name",
            "a name has 3 to 24 letters, digits, '-' or '_'",
        ))
    }
}

/// Hashes a password with argon2id, on the hashing pool ([`crate::accounts::hashing`]), for a
/// request from `address`.
pub async fn hash_password(address: &str, password: String) -> Result<String, ApiError> {
    if !(8..=256).contains(&password.len()) {
        return Err(ApiError::bad_request(
            "bad_password",
            "a password has 8 to 256 bytes",
        ));
    }
    crate::accounts::hashing::run(address, move || {
        let salt_bytes: [u8; 16] = rand::rng().random();
        let salt = SaltString::encode_b64(&salt_bytes).map_err(|e| e.to_string())?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await?
    .map_err(ApiError::storage)
}

/// Checks a password against a stored argon2 hash, on the hashing pool; `busy` when the pool's
/// queue, or `address`'s share of it, is full.
pub async fn verify_password(
    address: &str,
    password: String,
    hash: String,
) -> Result<bool, ApiError> {
    crate::accounts::hashing::run(address, move || {
        PasswordHash::new(&hash)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
}

/// Creates a user (a bot with its `owner`); `name_taken` if the name is in use, compared as
/// names are ([`crate::store::name_key`]: `ALICE` is taken when `alice` is).
pub async fn create_user(
    store: &Store,
    name: &str,
    kind: &str,
    password_hash: Option<String>,
    owner: Option<String>,
) -> Result<UserRow, ApiError> {
    if store.user_by_name(name).await?.is_some() {
        return Err(ApiError::conflict(
            "name_taken",
            format!("the name {name:?} is taken"),
        ));
    }
    let user = UserRow {
        id: new_id(),
        name: name.to_owned(),
        kind: kind.to_owned(),
        password_hash,
        owner,
    };
    store.insert_user(&user).await.map_err(|e| {
        if e.to_string().to_ascii_lowercase().contains("unique") {
            ApiError::conflict("name_taken", format!("the name {name:?} is taken"))
        } else {
            ApiError::storage(e)
        }
    })?;
    Ok(user)
}

/// Opens a session for `user`; returns the token (for the cookie). Sessions expired by
/// [`SESSION_IDLE`] are deleted meanwhile (so unused ones do not pile up).
pub async fn open_session(store: &Store, user: &UserRow) -> Result<String, ApiError> {
    let idle = i64::try_from(SESSION_IDLE.as_millis()).unwrap_or(i64::MAX);
    store
        .delete_sessions_unused_since(store.now_ms().saturating_sub(idle))
        .await?;
    let token = new_token();
    store
        .insert_credential(Credential::Session, &token_hash(&token), &user.id)
        .await?;
    Ok(token)
}

/// The `Set-Cookie` value for a session token: `HttpOnly`, `SameSite=Lax`, and `Secure` when
/// the server is reached over TLS (`secure`).
pub fn session_cookie(token: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        SESSION_IDLE.as_secs()
    )
}

/// The `Set-Cookie` value that ends a session.
pub fn expired_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}")
}
