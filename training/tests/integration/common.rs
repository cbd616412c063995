//! Helpers shared by the integration tests.

use ayo_env::arena::agents;
use ayo_env::arena::tournament::{self, Control, MatchConfig};
use ayo_env::{GameRecord, Variant};
use std::process::{Command, Output};

/// The `ayo` binary built with these tests.
pub fn ayo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ayo"))
}

/// Asserts that a command ran to success, showing its stderr when it did not.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A finished game of `variant` from the start between `greedy` (South) and `random`, as the
/// match driver records it (with every single drop when `detail`; cut at 400 plies).
pub fn greedy_vs_random(variant: &str, seed: u64, detail: bool) -> GameRecord {
    let rules: Variant = variant.parse().unwrap();
    let mut players = vec![
        agents::parse("greedy", seed).unwrap(),
        agents::parse("random", seed).unwrap(),
    ];
    let config = MatchConfig {
        opening_plies: 0,
        max_plies: 400,
        seed,
        detail,
        ..MatchConfig::default()
    };
    let pairs = tournament::play(&rules, &mut players, &[(0, 1)], &config, |_| {
        Control::Continue
    })
    .unwrap();
    let [record, _] = pairs.into_iter().next().unwrap().records;
    assert_eq!(record.seats, ["greedy", "random"]);
    record
}
