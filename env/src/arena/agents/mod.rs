//! The classic baseline agents, for every variant: [`Random`], [`Greedy`], [`AlphaBeta`] and
//! rollout [`Mcts`]. Each implements [`Agent`] on the runtime
//! [`Variant`](crate::Variant), and its search is generic over [`Rules`](crate::Rules), so it
//! also runs on a concrete variant type at full speed.
//!
//! Agents are named by a short spec, parsed by [`parse`]:
//!
//! | spec          | agent                                                                       |
//! |---------------|-----------------------------------------------------------------------------|
//! | `random`      | a uniformly random legal action                                             |
//! | `greedy`      | the best immediate score difference after the move, ties broken at random   |
//! | `alphabeta:D` | negamax alpha-beta to depth D plies (iterative deepening, TT, move ordering) |
//! | `mcts:N`      | UCT with random rollouts, N simulations per move                            |
//!
//! ```
//! use ayo_env::{arena::agents, Player, Rules, Variant};
//! let oware: Variant = "oware".parse().unwrap();
//! let mut agent = agents::parse("alphabeta:4", 7).unwrap();
//! let start = oware.start(Player::South);
//! let (action, analysis) = agent.choose(&oware, &start);
//! assert!(oware.legal_mask(&start).contains(action));
//! assert!(analysis.work > 0);
//! assert!(agents::parse("alphabeta:x", 7).is_err());
//! ```

mod alphabeta;
mod greedy;
mod mcts;
mod random;

pub use alphabeta::AlphaBeta;
pub use greedy::Greedy;
pub use mcts::Mcts;
pub use random::Random;

use crate::agent::Agent;
use thiserror::Error;

/// The agent specs [`parse`] understands, for help texts.
pub const AGENT_SPECS: &str = "random, greedy, alphabeta:D (D plies, 1-64), mcts:N (N simulations)";

/// An agent spec that [`parse`] cannot understand.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad agent spec {spec:?}: {reason} (expected one of: {AGENT_SPECS})")]
pub struct AgentSpecError {
    pub spec: String,
    pub reason: String,
}

/// The agent named by `spec` (see the [module table](self)), its random choices seeded by `seed`.
pub fn parse(spec: &str, seed: u64) -> Result<Box<dyn Agent>, AgentSpecError> {
    let bad = |reason: String| AgentSpecError {
        spec: spec.to_string(),
        reason,
    };
    let (kind, arg) = match spec.trim().split_once(':') {
        Some((k, a)) => (k.trim(), Some(a.trim())),
        None => (spec.trim(), None),
    };
    let number = |what: &str, lo: u64, hi: u64| -> Result<u64, AgentSpecError> {
        let text = arg.ok_or_else(|| bad(format!("{kind} needs {what}, as `{kind}:<n>`")))?;
        text.parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| bad(format!("{what} {text:?} is not a whole number {lo}..={hi}")))
    };
    let no_arg = || match arg {
        Some(a) => Err(bad(format!("{kind} takes no parameter, found {a:?}"))),
        None => Ok(()),
    };
    Ok(match kind {
        "random" => {
            no_arg()?;
            Box::new(Random::new(seed))
        }
        "greedy" => {
            no_arg()?;
            Box::new(Greedy::new(seed))
        }
        "alphabeta" => Box::new(AlphaBeta::new(number("the depth", 1, 64)? as u32, seed)),
        "mcts" => Box::new(Mcts::new(
            number("the number of simulations", 1, 100_000_000)? as u32,
            seed,
        )),
        other => return Err(bad(format!("unknown agent {other:?}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names_each_agent_as_its_spec() {
        for spec in ["random", "greedy", "alphabeta:6", "mcts:1000"] {
            assert_eq!(parse(spec, 1).unwrap().name(), spec);
        }
    }

    #[test]
    fn parse_errors_name_the_spec_and_the_problem() {
        let e = parse("alphabeta:0", 1).err().unwrap();
        assert!(e.to_string().contains("\"alphabeta:0\""), "{e}");
        assert!(e.to_string().contains("1..=64"), "{e}");
        assert!(parse("mcts", 1).err().unwrap().reason.contains("mcts:<n>"));
        assert!(parse("greedy:3", 1).is_err());
        assert!(parse("minimax:3", 1)
            .err()
            .unwrap()
            .reason
            .contains("unknown agent"));
    }
}
