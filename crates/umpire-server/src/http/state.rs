//! [`AppState`]: what every handler shares.

use std::sync::Arc;

use crate::Options;
use tokio::sync::Semaphore;

use crate::game::belief_cache::BeliefCache;
use crate::game::belief_stream::BeliefStreams;
use crate::game::hub::Hub;
use crate::http::backoff::Backoff;
use crate::http::rate_limit::Limiter;
use crate::store::Store;

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Storage.
    pub store: Store,
    /// The running games.
    pub hub: Arc<Hub>,
    /// Server options.
    pub options: Options,
    /// Log-in tries per address.
    pub logins: Arc<Limiter>,
    /// Wrong passwords per (address, account), with back-off.
    pub login_failures: Arc<Backoff>,
    /// Accounts and bots made per address.
    pub new_accounts: Arc<Limiter>,
    /// Game sockets opened on finished games per address.
    pub finished_sockets: Arc<Limiter>,
    /// Frames per player and game (all its sockets).
    pub player_frames: Arc<Limiter>,
    /// `rate_limited` answers per key (a player in a game, a spectator's address), shared by
    /// the key's sockets.
    pub refusals: Arc<crate::http::refusal_budget::RefusalBudget>,
    /// Games created (challenges, games against agents, rematches) per account.
    pub creations: Arc<Limiter>,
    /// Games created by guests per IP address (a guest costs nothing to make).
    pub guest_creations: Arc<Limiter>,
    /// Guest accounts minted per IP address.
    pub guest_accounts: Arc<Limiter>,
    /// Beliefs computed lately (the overlay), bounded.
    pub beliefs: Arc<BeliefCache>,
    /// Beliefs followed along games, so the next point costs its new observations only
    /// (at most [`crate::game::belief_stream::BELIEF_STREAMS`]).
    pub belief_streams: Arc<BeliefStreams>,
    /// Beliefs that may be computed at once ([`crate::http::belief::BELIEF_AT_ONCE`]).
    pub belief_permits: Arc<Semaphore>,
    /// Beliefs computed at once per address
    /// ([`crate::http::belief::BELIEF_AT_ONCE_PER_ADDRESS`]).
    pub belief_share: Arc<crate::http::address_share::AddressShare>,
}
