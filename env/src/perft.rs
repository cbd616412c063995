//! Perft: the number of legal action sequences of exactly `depth` plies.

use crate::rules::Rules;

/// Counts the action sequences of exactly `depth` plies from `state` (a game that ends earlier
/// contributes nothing; passes are automatic and never counted).
pub fn perft<R: Rules>(rules: &R, state: &R::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mask = rules.legal_mask(state);
    if depth == 1 {
        return mask.count() as u64;
    }
    mask.iter()
        .map(|a| {
            let mut child = state.clone();
            rules.play_unchecked(&mut child, a);
            perft(rules, &child, depth - 1)
        })
        .sum()
}
