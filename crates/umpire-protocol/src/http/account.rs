//! The bodies of the account requests: `POST /api/guest`, `/api/register`, `/api/login`,
//! `/api/logout`, `GET /api/me`, `POST /api/bots`.

use serde::{Deserialize, Serialize};

/// A user as the API shows it: `{"id","name","kind"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UserJson {
    /// The user's id.
    pub id: String,
    /// The display name.
    pub name: String,
    /// `guest`, `account` or `bot`.
    pub kind: String,
}

/// The request of `POST /api/register` and `POST /api/login`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The account's name.
    pub name: String,
    /// The password.
    pub password: String,
}

/// The answer of `POST /api/guest`, `/api/register` and `/api/login`: the user and its session
/// token (also set as the cookie `umpire_session`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SessionBody {
    /// Who is logged in.
    pub user: UserJson,
    /// The session token.
    pub session: String,
}

/// The answer of `GET /api/me`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MeBody {
    /// The caller.
    pub user: UserJson,
}

/// The answer of `POST /api/logout`: `{"ok":true}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OkBody {
    /// Always true.
    pub ok: bool,
}

/// The request of `POST /api/bots`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct NewBotRequest {
    /// The bot account's name.
    pub name: String,
}

/// The answer of `POST /api/bots`: the bot account and its API token, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NewBotBody {
    /// The bot account.
    pub user: UserJson,
    /// Its API token.
    pub token: String,
}
