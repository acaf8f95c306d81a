//! Deposition: in a cluster (`crate::cluster`) a node that lost a game's lock without knowing
//! it yet (a stale owner) may still try to store a command; the stored commands' key (game,
//! index) refuses it when the new owner stored one at that index. The task then ends (its
//! sockets close and their clients reconnect, to the new owner) instead of forking the game.

/// Whether a failed write failed because the command's index is taken: another node stored
/// the game's next command, so it owns the game now.
pub fn index_taken(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(d) if d.is_unique_violation())
}
