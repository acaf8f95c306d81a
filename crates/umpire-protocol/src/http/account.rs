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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::example::check;
    use serde_json::json;

    fn ann() -> UserJson {
        UserJson {
            id: "u1".into(),
            name: "ann".into(),
            kind: "account".into(),
        }
    }

    #[test]
    fn the_account_bodies_are_as_documented() {
        let user = json!({"id": "u1", "name": "ann", "kind": "account"});
        check(
            &SessionBody {
                user: ann(),
                session: "TOKEN".into(),
            },
            json!({"user": user, "session": "TOKEN"}),
        );
        check(&MeBody { user: ann() }, json!({"user": user}));
        check(&OkBody { ok: true }, json!({"ok": true}));
        check(
            &NewBotBody {
                user: ann(),
                token: "API".into(),
            },
            json!({"user": user, "token": "API"}),
        );
    }

    #[test]
    fn the_account_requests_are_as_documented_and_strict() {
        let c = Credentials {
            name: "ann".into(),
            password: "secret".into(),
        };
        check(&c, json!({"name": "ann", "password": "secret"}));
        check(
            &NewBotRequest {
                name: "bot1".into(),
            },
            json!({"name": "bot1"}),
        );
        let extra = json!({"name": "ann", "password": "x", "admin": true});
        assert!(serde_json::from_value::<Credentials>(extra).is_err());
    }
}
