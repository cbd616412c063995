//! The one agent abstraction: given games, choose actions. Random, greedy, alpha-beta,
//! rollout MCTS and network-plus-search all implement it; tournaments, `ayo engine`,
//! `ayo play`, evaluation during training and Python's agents all use it.

use crate::action::Action;
use crate::variant::{Variant, VariantState};

/// What an agent says about its choice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// The chosen action's value estimate from the mover's view, in [-1, 1], if the agent has one.
    pub value: Option<f32>,
    /// Simulations, nodes or evaluations spent.
    pub work: u64,
}

/// An agent chooses an action in each of a batch of live games (the player to move is the one
/// the agent plays for). Agents that think about one game at a time implement [`Agent::choose`];
/// agents that can batch (the network) override [`Agent::choose_batch`] too and get the whole
/// batch at once.
pub trait Agent: Send {
    /// A name for tables and records, e.g. `alphabeta:6`.
    fn name(&self) -> String;
    /// One legal action in one live game.
    fn choose(&mut self, rules: &Variant, state: &VariantState) -> (Action, Analysis);
    /// One legal action per game in `states` (none of them over); by default one game after
    /// another.
    fn choose_batch(
        &mut self,
        rules: &Variant,
        states: &[&VariantState],
    ) -> Vec<(Action, Analysis)> {
        states.iter().map(|s| self.choose(rules, s)).collect()
    }
}
