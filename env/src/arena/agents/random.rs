//! `random`: a uniformly random legal action.

use crate::action::Action;
use crate::agent::{Agent, Analysis};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::variant::{Variant, VariantState};

/// Plays a uniformly random legal action.
#[derive(Clone, Debug)]
pub struct Random {
    rng: Rng,
}

impl Random {
    pub fn new(seed: u64) -> Self {
        Random {
            rng: Rng::stream(seed, &[0x7261_6e64]),
        }
    }

    /// A uniformly random legal action of the live game `s`.
    pub fn choose_in<R: Rules>(&mut self, rules: &R, s: &R::State) -> Action {
        self.rng.pick(rules.legal_mask(s))
    }
}

impl Agent for Random {
    fn random_state(&self) -> Option<u64> {
        Some(self.rng.state())
    }
    fn set_random_state(&mut self, state: u64) {
        self.rng = Rng::from_state(state);
    }
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
        (self.choose_in(rules, s), Analysis::default())
    }
}
