//! The one agent abstraction: given games, choose actions. Random, greedy, alpha-beta,
//! rollout MCTS and network-plus-search all implement it; tournaments, `ayo engine`,
//! `ayo play`, evaluation during training and Python's agents all use it.

use crate::action::Action;
use crate::variant::{Variant, VariantState};
use std::time::Duration;

/// What an agent says about its choice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// The chosen action's value estimate from the mover's view, in [-1, 1], if the agent has one.
    pub value: Option<f32>,
    /// Simulations, nodes or evaluations spent.
    pub work: u64,
    /// Positions whose result the endgame table gave (a search with `+tb`).
    pub table_hits: u64,
}

/// How long an agent may think about one move ([`Agent::think`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// The agent's own setting (its simulations, depth or playouts).
    Own,
    /// This many simulations (agents that do not count simulations use their own setting).
    Nodes(u64),
    /// About this much time, never much more.
    Time(Duration),
    /// Until the progress callback says stop.
    Infinite,
}

/// How a search stands, reported while it goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The best action so far and the line it leads to (action numbers).
    pub pv: Vec<Action>,
    /// The value of the position for the player to move, if the agent has one.
    pub value: Option<f32>,
    /// Simulations, nodes or evaluations spent so far on this move.
    pub work: u64,
    pub elapsed: Duration,
    /// Positions whose result the endgame table gave so far.
    pub table_hits: u64,
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
    /// The state of the agent's random stream, where it has one: with the spec and the seed,
    /// all that is needed to rebuild an agent that goes on exactly as this one (Python's
    /// pickling of `ayo.Agent`).
    fn random_state(&self) -> Option<u64> {
        None
    }
    /// Puts the agent's random stream where [`Agent::random_state`] said it was.
    fn set_random_state(&mut self, _state: u64) {}
    /// One legal action per game in `states` (none of them over); by default one game after
    /// another.
    fn choose_batch(
        &mut self,
        rules: &Variant,
        states: &[&VariantState],
    ) -> Vec<(Action, Analysis)> {
        states.iter().map(|s| self.choose(rules, s)).collect()
    }
    /// One legal action in one live game within `budget`, telling `progress` how the search
    /// stands as it goes (the callback returns `false` to stop the search and take its best
    /// move so far: `ayo engine`'s `go infinite` … `stop`). Agents whose search is not
    /// anytime (the baselines) ignore the budget, choose as [`Agent::choose`] does and report
    /// once.
    fn think(
        &mut self,
        rules: &Variant,
        state: &VariantState,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> (Action, Analysis) {
        let _ = budget;
        let start = std::time::Instant::now();
        let (action, analysis) = self.choose(rules, state);
        progress(&Progress {
            pv: vec![action],
            value: analysis.value,
            work: analysis.work,
            elapsed: start.elapsed(),
            table_hits: analysis.table_hits,
        });
        (action, analysis)
    }
}

/// `1s`, `1.5s` or `250ms`.
pub fn format_movetime(t: Duration) -> String {
    if t.subsec_millis() == 0 {
        format!("{}s", t.as_secs())
    } else if t < Duration::from_secs(1) {
        format!("{}ms", t.as_millis())
    } else {
        format!("{}s", t.as_secs_f64())
    }
}

/// Parses a time per move: `1s`, `0.5s`, `250ms`.
pub fn parse_movetime(text: &str) -> Option<Duration> {
    let (number, unit) = match text.strip_suffix("ms") {
        Some(n) => (n, 1e-3),
        None => (text.strip_suffix('s')?, 1.0),
    };
    let secs = number.parse::<f64>().ok()? * unit;
    (secs.is_finite() && secs > 0.0 && secs <= 86_400.0).then(|| Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetimes_parse_and_print_back() {
        assert_eq!(parse_movetime("1s"), Some(Duration::from_secs(1)));
        assert_eq!(parse_movetime("0.1s"), Some(Duration::from_millis(100)));
        assert_eq!(parse_movetime("250ms"), Some(Duration::from_millis(250)));
        for bad in ["", "s", "1", "-1s", "0s", "1h", "nans", "1e9s"] {
            assert_eq!(parse_movetime(bad), None, "{bad:?}");
        }
        for text in ["1s", "250ms", "1.5s"] {
            assert_eq!(format_movetime(parse_movetime(text).unwrap()), text);
        }
    }
}
