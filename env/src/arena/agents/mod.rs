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
//! | `alphabeta@TIME` | the same, deepening until TIME per move is spent (`500ms`, `1s`)        |
//! | `mcts:N`      | UCT with random rollouts, N simulations per move                            |
//!
//! A searching agent's spec may end in `+tb=DIR` (or `+tb`, the table in `$AYO_TABLEBASE`):
//! its search then ends a line where that endgame table (`oware`, `ayoayo`) knows the result
//! ([`Oracle`](crate::tablebase::Oracle)): `alphabeta:10+tb=tables/oware`. Any spec may end
//! in `+book=FILE` (after `+tb`): the agent plays that [book of moves](crate::arena::book)'s
//! move where the position is in it.
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

pub use alphabeta::{
    score_to_value, AlphaBeta, Heuristic, Leaf, MAX_SEARCH_DEPTH, POLL_NODES, WIN,
};
pub use greedy::Greedy;
pub use mcts::Mcts;
pub use random::Random;

use crate::agent::Agent;
use crate::arena::book::{Book, Booked};
use crate::tablebase::{open_shared, Tablebase};
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// The agent specs [`parse`] understands, for help texts.
pub const AGENT_SPECS: &str =
    "random, greedy, alphabeta:D (D plies, 1-64), alphabeta@TIME (deepening for TIME per move: \
    500ms, 1s), mcts:N (N simulations); \
    a searching agent +tb=DIR (or +tb: $AYO_TABLEBASE) ends lines at an endgame table (oware, ayoayo); \
    any agent +book=FILE (last) plays a book of moves where it has one";

/// The environment variable naming the endgame table of a spec's bare `+tb`.
pub const TABLEBASE_VAR: &str = "AYO_TABLEBASE";

/// Splits a spec's endgame table off: `SPEC+tb=DIR` gives (`SPEC`, `DIR`), `SPEC+tb` the
/// folder in `$AYO_TABLEBASE`, a spec without `+tb` itself and `None`.
pub fn split_table(spec: &str) -> Result<(&str, Option<PathBuf>), AgentSpecError> {
    let spec = spec.trim();
    let Some((base, rest)) = spec.rsplit_once("+tb") else {
        return Ok((spec, None));
    };
    let bad = |reason: String| AgentSpecError {
        spec: spec.to_string(),
        reason,
    };
    let dir = match rest.strip_prefix('=') {
        Some("") => return Err(bad("`+tb=` needs a folder, as `+tb=DIR`".into())),
        Some(dir) => PathBuf::from(dir),
        None if rest.is_empty() => match std::env::var_os(TABLEBASE_VAR) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => {
                return Err(bad(format!(
                    "`+tb` names no table: write `+tb=DIR` or set {TABLEBASE_VAR}"
                )))
            }
        },
        None => {
            return Err(bad(format!(
                "{rest:?} after `+tb`: expected `+tb` or `+tb=DIR`"
            )))
        }
    };
    Ok((base.trim(), Some(dir)))
}

/// The end of a spec that names a book of moves: `SPEC+book=FILE`.
pub const BOOK_SUFFIX: &str = "+book=";

/// Splits a spec's book of moves off: `SPEC+book=FILE` gives (`SPEC`, `FILE`), a spec
/// without it itself and `None`.
pub fn split_book(spec: &str) -> Result<(&str, Option<PathBuf>), AgentSpecError> {
    let spec = spec.trim();
    match spec.rsplit_once(BOOK_SUFFIX) {
        None => Ok((spec, None)),
        Some((_, "")) => Err(AgentSpecError {
            spec: spec.to_string(),
            reason: "`+book=` needs a file, as `+book=FILE`".into(),
        }),
        Some((base, file)) => Ok((base.trim(), Some(PathBuf::from(file.trim())))),
    }
}

/// The book of moves a spec names ([`split_book`]), read and checked.
pub fn open_book(spec: &str, file: &std::path::Path) -> Result<Arc<Book>, AgentSpecError> {
    Book::load(file).map(Arc::new).map_err(|e| AgentSpecError {
        spec: spec.to_string(),
        reason: format!("its book of moves: {e}"),
    })
}

/// The table a spec names ([`split_table`]), opened (once per process).
pub fn open_table(spec: &str, dir: &std::path::Path) -> Result<Arc<Tablebase>, AgentSpecError> {
    open_shared(dir).map_err(|e| AgentSpecError {
        spec: spec.to_string(),
        reason: format!("its endgame table: {e}"),
    })
}

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
    if let (base, Some(file)) = split_book(spec)? {
        let inner = parse(base, seed)?;
        return Ok(Box::new(Booked::new(inner, open_book(spec, &file)?)));
    }
    let (base, table_dir) = split_table(spec)?;
    if let Some(time) = base.strip_prefix("alphabeta@") {
        let t = crate::agent::parse_movetime(time.trim()).ok_or_else(|| {
            bad(format!(
                "time per move {time:?} is not a time such as 500ms or 1s (at most a day)"
            ))
        })?;
        let agent = AlphaBeta::new(MAX_SEARCH_DEPTH, seed).with_movetime(t);
        return Ok(match table_dir.as_deref() {
            Some(d) => Box::new(agent.with_table(open_table(spec, d)?)),
            None => Box::new(agent),
        });
    }
    let (kind, arg) = match base.split_once(':') {
        Some((k, a)) => (k.trim(), Some(a.trim())),
        None => (base, None),
    };
    let number = |what: &str, lo: u64, hi: u64| -> Result<u64, AgentSpecError> {
        let text = arg.ok_or_else(|| bad(format!("{kind} needs {what}, as `{kind}:<n>`")))?;
        text.parse::<u64>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| bad(format!("{what} {text:?} is not a whole number {lo}..={hi}")))
    };
    let no_arg = || match (arg, &table_dir) {
        (Some(a), _) => Err(bad(format!("{kind} takes no parameter, found {a:?}"))),
        (None, Some(_)) => Err(bad(format!(
            "{kind} does not search: `+tb` goes with alphabeta, mcts or a network"
        ))),
        (None, None) => Ok(()),
    };
    let table = || {
        table_dir
            .as_deref()
            .map(|d| open_table(spec, d))
            .transpose()
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
        "alphabeta" => {
            let depth = number("the depth", 1, MAX_SEARCH_DEPTH as u64)?;
            let agent = AlphaBeta::new(depth as u32, seed);
            match table()? {
                Some(t) => Box::new(agent.with_table(t)),
                None => Box::new(agent),
            }
        }
        "mcts" => {
            let sims = number("the number of simulations", 1, 100_000_000)?;
            let agent = Mcts::new(sims as u32, seed);
            match table()? {
                Some(t) => Box::new(agent.with_table(t)),
                None => Box::new(agent),
            }
        }
        other => return Err(bad(format!("unknown agent {other:?}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names_each_agent_as_its_spec() {
        for spec in [
            "random",
            "greedy",
            "alphabeta:6",
            "alphabeta@250ms",
            "mcts:1000",
        ] {
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
        let e = parse("alphabeta@5", 1).err().unwrap();
        assert!(e.reason.contains("\"5\" is not a time"), "{e}");
        assert!(parse("minimax:3", 1)
            .err()
            .unwrap()
            .reason
            .contains("unknown agent"));
        assert!(parse("greedy+book=", 1)
            .err()
            .unwrap()
            .reason
            .contains("+book=FILE"));
        let e = parse("greedy+book=no/such.txt", 1).err().unwrap();
        assert!(
            e.reason
                .contains("cannot read the opening book no/such.txt"),
            "{e}"
        );
        let e = parse("minimax+book=no/such.txt", 1).err().unwrap();
        assert!(e.reason.contains("unknown agent"), "{e}");
    }
}
