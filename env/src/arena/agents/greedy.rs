//! `greedy`: the best immediate capture.

use crate::action::Action;
use crate::agent::{Agent, Analysis};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::variant::{Variant, VariantState};

/// Plays the action after which the mover's score minus the opponent's is largest (the best
/// immediate capture; at the end of a game the collected rows count too), ties broken at random.
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Greedy {
            rng: Rng::stream(seed, &[0x6772_6565_6479]),
        }
    }

    /// The greedy action of the live game `s` and its score difference after the move.
    pub fn choose_in<R: Rules>(&mut self, rules: &R, s: &R::State) -> (Action, i32) {
        let mover = rules
            .to_play(s)
            .expect("greedy chooses in a live game")
            .index();
        let mut best = (0, i32::MIN);
        let mut ties = 0;
        for a in rules.legal_mask(s).iter() {
            let mut child = s.clone();
            rules.play_unchecked(&mut child, a);
            let scores = rules.scores(&child);
            let diff = scores[mover] - scores[1 - mover];
            if diff > best.1 {
                best = (a, diff);
                ties = 1;
            } else if diff == best.1 {
                // Reservoir sampling: each of the tied actions is kept with equal chance.
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best.0 = a;
                }
            }
        }
        best
    }
}

impl Agent for Greedy {
    fn random_state(&self) -> Option<u64> {
        Some(self.rng.state())
    }
    fn set_random_state(&mut self, state: u64) {
        self.rng = Rng::from_state(state);
    }
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
        let (a, _) = self.choose_in(rules, s);
        let work = rules.legal_mask(s).count() as u64;
        (
            a,
            Analysis {
                value: None,
                work,
                ..Analysis::default()
            },
        )
    }
}
