//! # What a learner sees of a position
//!
//! The observation ([`Rules::observe`]) and, when asked for, the look-ahead features after it
//! ([`Rules::tactics`]: one ply of search by the baselines' heuristic). A network trained with
//! `lookahead`, the [`VecEnv`](crate::VecEnv) configured with it and the Python environments
//! built with it all encode a position here, so they agree entry for entry.

use crate::player::Player;
use crate::rules::{tactics_bound, Rules};

/// Length of [`encode`]'s output: the observation, then the look-ahead features when
/// `lookahead`.
pub fn input_len<R: Rules>(rules: &R, lookahead: bool) -> usize {
    rules.observation_len() + if lookahead { rules.tactics_len() } else { 0 }
}

/// Writes the input of `s` into `out` (`input_len(rules, lookahead)` long): the observation
/// from the view of the player to move, then the look-ahead features when `lookahead`.
pub fn encode<R: Rules>(rules: &R, s: &R::State, lookahead: bool, out: &mut [f32]) {
    let n = rules.observation_len();
    rules.observe(s, &mut out[..n]);
    if lookahead {
        rules.tactics(s, &mut out[n..]);
    }
}

/// `(low, high)` bounds of every entry of [`encode`]'s output: an observation entry lies
/// within `0..=` the pieces in play, a look-ahead feature within ±[`tactics_bound`].
pub fn input_bounds<R: Rules>(rules: &R, lookahead: bool) -> (f32, f32) {
    let pieces = rules.snapshot(&rules.start(Player::South)).total() as f32;
    if lookahead {
        let t = tactics_bound(rules);
        (-t, pieces.max(t))
    } else {
        (0.0, pieces)
    }
}
