//! The agents' hiding suite must bite (issue 31, item 3): the leak below is injected into a
//! copy of the workspace, and `tests/engine_entitlement.rs` must fail under it.
//!
//! - `empty_observation_per_unheard_command`: `play_observations` hands the agent (so, through
//!   the engine seat, an engine process's requests) an empty observation for each opponent
//!   command the agent hears nothing of, which tells it how many such commands were given.
//!
//! Slow (it builds the copied workspace, then the changed crate): run with
//! `cargo test --profile ci -p umpire-ai --test injected_leaks -- --ignored --nocapture`.
//! The copy and its build live under the system temp directory
//! (`tests/support/leak_injection.rs`).

#[path = "../../../tests/support/leak_injection.rs"]
mod leak_injection;

use leak_injection::Suite;

/// The agents' end-to-end hiding suite, which the leak below must turn red.
const SUITE: Suite = Suite {
    package: "umpire-ai",
    test: "engine_entitlement",
};

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn empty_observation_per_unheard_command() {
    SUITE.bites(
        "empty_observation_per_unheard_command",
        &[(
            "crates/umpire-ai/src/agent.rs",
            "        None => Ok(()),",
            "        None => agent.observe(&Observation {
            player: side,
            actor: outcome.side,
            own: None,
            moved: false,
            announcements: Default::default(),
        }),",
        )],
        &["agents_and_engines_are_handed_nothing_of_unheard_commands"],
    );
}

#[test]
#[ignore = "slow: builds a copy of the workspace"]
fn the_unpatched_copy_passes() {
    SUITE.passes_unpatched();
}
