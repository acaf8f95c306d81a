//! Adoption: a node of a cluster (`crate::cluster`) runs the unfinished games nobody owns.

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::cluster::{Cluster, registry};
use crate::game::hub::Hub;

/// How often a node looks for unowned unfinished games to adopt.
pub const ADOPT_EVERY: Duration = Duration::from_secs(2);

/// Adopts, every [`ADOPT_EVERY`], the unfinished games nobody owns (their node died or drained
/// and none of their clients came back yet: their clocks and timers need a node). Ends with
/// the hub.
pub fn spawn_adoption(hub: Weak<Hub>, cluster: Arc<Cluster>) {
    tokio::spawn(async move {
        loop {
            if !cluster.draining() {
                match registry::orphans(&cluster).await {
                    Ok(ids) => {
                        let Some(hub) = hub.upgrade() else { break };
                        for id in ids {
                            if let Err(e) = hub.round(&id).await
                                && e.code != "game_elsewhere"
                            {
                                tracing::warn!("game {id}: not adopted: {e}");
                            }
                        }
                    }
                    Err(e) => tracing::warn!("adoption: {e}"),
                }
            }
            tokio::time::sleep(ADOPT_EVERY).await;
            if hub.strong_count() == 0 {
                break;
            }
        }
    });
}
