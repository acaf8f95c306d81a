//! The running games of one node of a cluster (`crate::cluster`): a game's task runs only
//! while the node owns the game ([`run_owned`]); a node asked for a game another node owns
//! asks for it to be handed over and refuses for now ([`elsewhere`]); unowned unfinished games
//! are adopted ([`spawn_adoption`]).

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::mpsc;

use crate::cluster::relay::HANDOVER_CHANNEL;
use crate::cluster::{Cluster, Ownership, registry};
use crate::error::ApiError;
use crate::game::round::{Round, RoundMsg};

/// Runs a game's task while this node owns the game: it stops at once when the ownership
/// must end (the lock connection died, the game is handed over, the node drains), dropping
/// the task (a command in hand was either committed, and is in storage for the next owner,
/// or not acknowledged), and the lock is given back.
pub async fn run_owned(
    round: Box<Round>,
    rx: mpsc::Receiver<RoundMsg>,
    owned: Option<(Arc<Cluster>, Ownership)>,
) {
    let Some((cluster, ownership)) = owned else {
        round.run(rx).await;
        return;
    };
    let stop = ownership.stop.clone();
    tokio::select! {
        () = round.run(rx) => {}
        () = stop.notified() => {}
    }
    cluster.disown(ownership).await;
}

/// Takes `game` for this node: at once if nobody owns it; else asks its owner to hand it over
/// (the load balancer sends the game's clients here), every [`ASK_EVERY`], for up to
/// [`HANDOVER_WAIT`]; then refuses ([`elsewhere`]: the client asks again).
pub async fn acquire(cluster: &Cluster, game: &str) -> Result<Ownership, ApiError> {
    let began = std::time::Instant::now();
    let mut asked: Option<std::time::Instant> = None;
    loop {
        let handed = asked.is_some();
        if let Some(ownership) = cluster.own(game, handed).await.map_err(ApiError::storage)? {
            return Ok(ownership);
        }
        if cluster.draining() || began.elapsed() >= HANDOVER_WAIT {
            return Err(elsewhere(cluster, game).await);
        }
        if asked.is_none_or(|t| t.elapsed() >= ASK_EVERY) {
            asked = Some(std::time::Instant::now());
            let payload = format!("{} {game}", cluster.node().id);
            if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)")
                .bind(HANDOVER_CHANNEL)
                .bind(payload)
                .execute(cluster.pool())
                .await
            {
                tracing::warn!("game {game}: cannot ask for it: {e}");
            }
        }
        tokio::time::sleep(TRY_EVERY).await;
    }
}

/// How long a request waits for another node to hand its game over.
pub const HANDOVER_WAIT: Duration = Duration::from_secs(3);

/// How often the hand-over is asked for again while waiting.
pub const ASK_EVERY: Duration = Duration::from_millis(500);

/// How often the lock is tried while waiting.
pub const TRY_EVERY: Duration = Duration::from_millis(50);

/// The refusal of a request for `game`, which another node owns and did not hand over in
/// time (or this node drains): the client asks again.
pub async fn elsewhere(cluster: &Cluster, game: &str) -> ApiError {
    let owner = registry::owner_of(cluster, game).await.ok().flatten();
    let who = owner.map_or_else(|| "another node".to_owned(), |n| format!("node {n}"));
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "game_elsewhere",
        format!("this game runs on {who} and is being handed over: ask again in a moment"),
    )
}
