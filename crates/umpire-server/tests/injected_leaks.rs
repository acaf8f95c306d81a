//! The end-to-end hiding suite must bite (issue 31, item 3): each leak below is injected into
//! a copy of the workspace, and `tests/hiding_end_to_end.rs` must fail under it.
//!
//! - `clock_rounding`: the clock leak: whole milliseconds charged at every rejected attempt
//!   (the old rounding), so the mover gets its sub-millisecond remainder back once per silent
//!   attempt;
//! - `spectators_hear_one_player`: spectators hear what only White hears;
//! - `clock_refresh_to_players`: a clock refresh frame to the players for every command they
//!   hear nothing of;
//! - `last_activity_in_summary`: `GET /api/games/ID` tells when the last command was stored
//!   (in its `reason`, while the game has none);
//! - `spectator_plies_from_commands`: a spectator's `state` counts the commands stored rather
//!   than the moves.
//!
//! Slow (it builds the copied workspace once, then the changed crate per leak): run with
//! `cargo test --profile ci -p umpire-server --test injected_leaks -- --ignored`. The copies
//! and their build live under the system temp directory.

#[path = "../../../tests/support/leak_injection.rs"]
mod leak_injection;

use leak_injection::{Patch, Suite};

/// The end-to-end hiding suite, which every leak below must turn red.
const SUITE: Suite = Suite {
    package: "umpire-server",
    test: "hiding_end_to_end",
};

fn bites(name: &str, patches: &[Patch<'_>], must_fail: &[&str]) {
    SUITE.bites(name, patches, must_fail);
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn clock_rounding() {
    bites(
        "clock_rounding",
        &[
            (
                "crates/umpire-server/src/game/clock.rs",
                r#"let spent = now.saturating_duration_since(self.since).as_nanos();"#,
                r#"let spent = now.saturating_duration_since(self.since).as_millis() * 1_000_000;"#,
            ),
            (
                "crates/umpire-server/src/game/round/commands.rs",
                r#"        if outcome.is_accepted() {
            self.clocks.moved(side, now);
        }"#,
                r#"        if outcome.is_accepted() {
            self.clocks.moved(side, now);
        } else {
            self.clocks.charge(now);
        }"#,
            ),
        ],
        &[
            "a_player_receives_the_same_bytes_whatever_the_opponent_does_unheard",
            "spectators_receive_the_same_bytes_whatever_either_player_does_unheard",
        ],
    );
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn spectators_hear_one_player() {
    bites(
        "spectators_hear_one_player",
        &[(
            "crates/umpire-server/src/game/projection.rs",
            r#"        if outcome.heard_by(Color::Black).any(|b| b == a) {"#,
            r#"        if outcome.heard_by(Color::Black).any(|b| b == a) || outcome.side == Color::White {"#,
        )],
        &["spectators_receive_the_same_bytes_whatever_either_player_does_unheard"],
    );
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn clock_refresh_to_players() {
    bites(
        "clock_refresh_to_players",
        &[(
            "crates/umpire-server/src/game/round/frames.rs",
            r#"                None => !s.tx.is_closed(),"#,
            r#"                None => match s.seat {
                    Seat::Player(_) => s
                        .tx
                        .send(format!("{{\"type\":\"clock\",\"white_ms\":{}}}", public.clocks.white_ms))
                        .is_ok(),
                    Seat::Spectator => !s.tx.is_closed(),
                },"#,
        )],
        &["a_player_receives_the_same_bytes_whatever_the_opponent_does_unheard"],
    );
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn last_activity_in_summary() {
    bites(
        "last_activity_in_summary",
        &[(
            "crates/umpire-server/src/http/games.rs",
            r#"    let row = game_row(&st, &id).await?;
    Ok(Json(summary(&st, &row).await?))"#,
            r#"    let row = game_row(&st, &id).await?;
    let mut s = summary(&st, &row).await?;
    if s.reason.is_none() {
        let last = st.store.commands(&row.id).await?.last().map(|c| c.at_ms);
        s.reason = last.map(|ms| format!("last activity {ms}"));
    }
    Ok(Json(s))"#,
        )],
        &[
            "a_player_receives_the_same_bytes_whatever_the_opponent_does_unheard",
            "spectators_receive_the_same_bytes_whatever_either_player_does_unheard",
        ],
    );
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn spectator_plies_from_commands() {
    bites(
        "spectator_plies_from_commands",
        &[(
            "crates/umpire-server/src/game/round/frames.rs",
            r#"                &self.spectators,
                self.game.umpire().plies(),"#,
            r#"                &self.spectators,
                self.seq as u32,"#,
        )],
        &["spectators_receive_the_same_bytes_whatever_either_player_does_unheard"],
    );
}

#[test]
#[ignore = "slow: builds a copy of the workspace"]
fn the_unpatched_copy_passes() {
    SUITE.passes_unpatched();
}
