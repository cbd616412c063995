//! The policy/value network: a residual MLP without batch norm over the variant's observation.
//!
//! ```text
//! observation ─ [levels] ─ linear ─ relu ─┬─ [block: h + W2·relu(W1·h), relu] × blocks ─┬─ policy logits (num_actions)
//!                              │                                               ├─ value  tanh (mover's view)
//!                              │                                               └─ score  tanh (final seed difference, scaled)
//! ```
//! No batch norm: leaf values must not depend on the rest of the batch, and BN is slow on a CPU.
//!
//! `levels` (optional, [`NetShape::levels`]) appends to the observation a thermometer code of
//! every entry: `clamp(4·x − k, 0, 1)` for `k = 0..levels`. The 2 × 6 and fours variants observe
//! a pit's seeds as `seeds / 4`, so for a pit these are the indicators "more than k seeds" (yao
//! observes `seeds / 8`: steps of two seeds). Captures turn on exact counts (a pit of 1 or 2
//! seeds, a pit whose seeds reach a given distance), which a small MLP finds hard to carve out
//! of one scalar per pit: on oware, 12 levels took the one-hour agent from 86.5 % to over 90 %
//! wins against `mcts:1000` (the run `oware-1h-levels`, experiments/RUNS.md).

//!
//! [`NetShape`] (sizes only) is here without libtorch, so that the configuration reader builds
//! without it (the crate's `torch` feature, on by default, brings the network itself).

use ayo_env::{Variant, VariantState};
use serde::{Deserialize, Serialize};

mod cpu;
mod kernel;
#[cfg(feature = "torch")]
mod model;
pub use cpu::{CpuNet, CpuNetError};
#[cfg(feature = "torch")]
pub use model::{Net, NetOutput};

/// The sizes of a network: its input and output sizes (from the variant) and its trunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    /// Input length: the observation (`Rules::observation_len`) and, with `lookahead`, the
    /// look-ahead features ([`ayo_env::input::input_len`]).
    pub inputs: usize,
    /// Action-space size (`Rules::num_actions`).
    pub actions: usize,
    /// Width of the residual trunk.
    pub width: usize,
    /// Number of residual blocks.
    pub blocks: usize,
    /// Thermometer levels appended per observation entry (0 = the raw observation only).
    #[serde(default)]
    pub levels: usize,
    /// Plies of look-ahead features at the end of the input ([`ayo_env::input`]; 0 none);
    /// `inputs` counts them too. Checkpoints from before the second ply say `true` for 1.
    #[serde(default, deserialize_with = "ayo_env::input::deserialize_lookahead")]
    pub lookahead: u8,
}

/// A policy/value network that evaluates batches of observations: libtorch's [`Net`] (CPU or
/// GPU) or [`CpuNet`] (no libtorch), each implementing it beside its forward pass. The search,
/// the agent and the evaluator take either.
pub trait Network: Send {
    fn shape(&self) -> NetShape;
    /// `n` observations (`n × inputs`) into policy logits (`n × actions`) and values (tanh,
    /// the mover's view), and when `scores` is given the score head's outputs (tanh, the final
    /// seed difference over half the seeds, the mover's view: [`crate::search::final_score`]).
    fn evaluate(
        &self,
        obs: &[f32],
        n: usize,
        logits: &mut [f32],
        values: &mut [f32],
        scores: Option<&mut [f32]>,
    );
}

impl NetShape {
    /// Writes the network input of `s` into `out` (`inputs` long): the observation, then the
    /// look-ahead features when the shape has them ([`ayo_env::input::encode`]).
    pub fn encode(&self, rules: &Variant, s: &VariantState, out: &mut [f32]) {
        ayo_env::input::encode(rules, s, self.lookahead, out)
    }
    /// Width of the first layer's input: the observation and its thermometer code.
    pub fn input_features(&self) -> usize {
        self.inputs * (1 + self.levels)
    }
}
