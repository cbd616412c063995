//! Helpers of the rule-clause tests: set a position up from notation, play, compare notation.
#![allow(dead_code)]

use ayo_env::{Action, Rules, Variant, VariantState};

/// The preset `spec` with `key=value` options.
pub fn variant(spec: &str, options: &[(&str, &str)]) -> Variant {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Variant::new(spec, &options).unwrap_or_else(|e| panic!("{spec} {options:?}: {e}"))
}

/// The position written `notation` (the repetition history starts there).
pub fn setup(v: &Variant, notation: &str) -> VariantState {
    v.parse_notation(notation)
        .unwrap_or_else(|e| panic!("{}: {e}", v.id()))
}

/// The position after playing `actions` (each must be legal) from `notation`.
pub fn after(v: &Variant, notation: &str, actions: &[Action]) -> VariantState {
    let mut s = setup(v, notation);
    for (i, &a) in actions.iter().enumerate() {
        v.play(&mut s, a).unwrap_or_else(|e| {
            panic!(
                "{}: move {} ({a}) from {notation} refused in {}: {e}",
                v.id(),
                i + 1,
                v.notation(&s)
            )
        });
    }
    s
}

/// The legal actions of the player to move in `notation`.
pub fn legal(v: &Variant, notation: &str) -> Vec<Action> {
    v.legal_actions(&setup(v, notation))
}

pub mod traces;
