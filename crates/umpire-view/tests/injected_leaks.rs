//! The suite must bite (issue 10): two leaks are injected into a copy of the workspace, and the
//! entitlement suite (`tests/entitlement.rs`) must fail under each.
//!
//! - `opponent_hears_illegal_attempts`: under wild16 the opponent hears every illegal attempt
//!   (the rebuff's audience becomes both players);
//! - `one_bit_of_the_position`: after each move the side to move is sent one bit of the true
//!   position (whether the mover has a man on e4, as an extra "pawn captures" announcement).
//!
//! Slow (it builds the copied workspace once, then the changed crate per leak): run with
//! `cargo test --profile ci -p umpire-view --test injected_leaks -- --ignored`. The copies
//! and their build live under the system temp directory (`tests/support/leak_injection.rs`).

#[path = "../../../tests/support/leak_injection.rs"]
mod leak_injection;

use leak_injection::Suite;

/// The entitlement suite, which every leak below must turn red.
const SUITE: Suite = Suite {
    package: "umpire-view",
    test: "entitlement",
};

const UMPIRE: &str = "crates/umpire-rules/src/umpire.rs";

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn opponent_hears_illegal_attempts() {
    SUITE.bites(
        "illegal",
        &[(
            UMPIRE,
            "                self.rules.illegal.audience,\n                self.rebuff_word(self.rules.illegal.said_as_impossible),",
            "                Audience::Both,\n                self.rebuff_word(self.rules.illegal.said_as_impossible),",
        )],
        &["observations_are_exactly_entitlements"],
    );
}

#[test]
#[ignore = "slow: builds a patched copy of the workspace"]
fn one_bit_of_the_position() {
    SUITE.bites(
        "bit",
        &[(
            UMPIRE,
            "        self.announce_checks(list);\n        match self.automatic_end() {",
            "        if self.pos.board().by_color(mover).contains(Square::E4) {\n            push(list, Audience::Opponent, Announcement::PawnCaptures);\n        }\n        self.announce_checks(list);\n        match self.automatic_end() {",
        )],
        &["observations_are_exactly_entitlements"],
    );
}

#[test]
#[ignore = "slow: builds a copy of the workspace"]
fn the_unpatched_copy_passes() {
    SUITE.passes_unpatched();
}
