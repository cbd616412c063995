//! The network-plus-search agent, and the evaluator that feeds the search from the network.

use crate::checkpoint::{self, CheckpointError, CheckpointMeta};
use crate::net::Net;
use crate::search::{gumbel_search, Evaluator, SearchParams};
use ayo_env::{Action, Agent, Analysis, Rules, Variant, VariantState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Evaluates search leaves with a network: observes every state into one buffer and runs one
/// forward pass for the whole batch.
pub struct NetEvaluator<'a> {
    net: &'a Net,
    rules: &'a Variant,
    obs: Vec<f32>,
    /// Positions evaluated so far.
    pub evaluations: u64,
    /// Forward passes so far.
    pub batches: u64,
}

impl<'a> NetEvaluator<'a> {
    pub fn new(net: &'a Net, rules: &'a Variant) -> Self {
        NetEvaluator {
            net,
            rules,
            obs: Vec::new(),
            evaluations: 0,
            batches: 0,
        }
    }
}

impl Evaluator<VariantState> for NetEvaluator<'_> {
    fn evaluate(&mut self, states: &[&VariantState], logits: &mut [f32], values: &mut [f32]) {
        let len = self.rules.observation_len();
        self.obs.resize(states.len() * len, 0.0);
        for (i, s) in states.iter().enumerate() {
            self.rules.observe(s, &mut self.obs[i * len..(i + 1) * len]);
        }
        self.net.evaluate(&self.obs, states.len(), logits, values);
        self.evaluations += states.len() as u64;
        self.batches += 1;
    }
}

/// A trained network playing with a Gumbel search of `simulations` per move. All the games of
/// a `choose_batch` call are searched together, their leaves evaluated in one forward pass.
pub struct NetAgent {
    net: Net,
    /// The checkpoint's metadata, when loaded from one.
    pub meta: Option<CheckpointMeta>,
    pub simulations: u32,
    pub params: SearchParams,
    rng: ChaCha8Rng,
    label: String,
}

impl NetAgent {
    /// Loads the checkpoint at `path` to play with `simulations` per move and the root noise of
    /// its run's evaluations (`eval_gumbel_scale`, 0 = the search's best move); `seed` seeds
    /// the search's Gumbel noise.
    pub fn load(path: &Path, simulations: u32, seed: u64) -> Result<NetAgent, CheckpointError> {
        let (net, meta) = checkpoint::load(path, crate::device::best_device())?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut agent = NetAgent::from_net(net, simulations, seed);
        agent.params = meta.config.eval_search_params();
        agent.label = format!("net:{stem}@{simulations}");
        agent.meta = Some(meta);
        Ok(agent)
    }

    /// An agent playing `net` (default search parameters).
    pub fn from_net(net: Net, simulations: u32, seed: u64) -> NetAgent {
        NetAgent {
            net,
            meta: None,
            simulations,
            params: SearchParams::default(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            label: format!("net@{simulations}"),
        }
    }

    /// Checks that the agent was trained for `rules`.
    pub fn check_rules(&self, rules: &Variant) -> Result<(), CheckpointError> {
        match &self.meta {
            Some(m) => checkpoint::check_rules(m, rules, Path::new(&self.label)),
            None => Ok(()),
        }
    }

    pub fn net(&self) -> &Net {
        &self.net
    }
}

impl Agent for NetAgent {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, rules: &Variant, state: &VariantState) -> (Action, Analysis) {
        self.choose_batch(rules, &[state])
            .pop()
            .expect("one choice per game")
    }

    fn choose_batch(
        &mut self,
        rules: &Variant,
        states: &[&VariantState],
    ) -> Vec<(Action, Analysis)> {
        assert_eq!(
            rules.observation_len(),
            self.net.shape.inputs,
            "{} was trained for another observation size than {}'s",
            self.label,
            rules.id()
        );
        let sims = vec![self.simulations; states.len()];
        let mut evaluator = NetEvaluator::new(&self.net, rules);
        let results = gumbel_search(
            rules,
            states,
            &sims,
            &self.params,
            &mut evaluator,
            &mut self.rng,
        );
        results
            .into_iter()
            .map(|r| {
                (
                    r.action,
                    Analysis {
                        value: Some(r.value),
                        work: r.simulations as u64,
                    },
                )
            })
            .collect()
    }
}

/// Help text for player arguments.
pub const PLAYER_SPECS: &str =
    "random, greedy, alphabeta:D, mcts:N, or a checkpoint file with its simulations PATH[:SIMS]";

/// A player that cannot be made from its spec.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error("{baseline}; nor is {spec:?} a checkpoint file ({PLAYER_SPECS})")]
    Unknown {
        spec: String,
        baseline: ayo_env::arena::agents::AgentSpecError,
    },
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// A checkpoint path and its search budget, when `spec` names an existing file (`PATH` or
/// `PATH:SIMS`; `default_sims` without `:SIMS`).
pub fn checkpoint_spec(spec: &str, default_sims: u32) -> Option<(&Path, u32)> {
    if Path::new(spec).is_file() {
        return Some((Path::new(spec), default_sims));
    }
    let (path, sims) = spec.rsplit_once(':')?;
    let sims = sims.parse().ok()?;
    Path::new(path).is_file().then(|| (Path::new(path), sims))
}

/// The player named by `spec` for games of `rules`: a baseline agent of `ayo_env::arena::agents` or a
/// checkpoint (checked to be trained for `rules`) searching `default_sims` simulations per move
/// unless its spec says `:SIMS` (0: the network's policy alone). Used by tournaments, the engine,
/// `ayo play` and the evaluation during training alike.
pub fn load_player(
    spec: &str,
    rules: &Variant,
    default_sims: u32,
    seed: u64,
) -> Result<Box<dyn Agent>, PlayerError> {
    match ayo_env::arena::agents::parse(spec, seed) {
        Ok(agent) => Ok(agent),
        Err(baseline) => match checkpoint_spec(spec, default_sims) {
            Some((path, sims)) => {
                let agent = NetAgent::load(path, sims, seed)?;
                agent.check_rules(rules)?;
                Ok(Box::new(agent))
            }
            None => Err(PlayerError::Unknown {
                spec: spec.to_string(),
                baseline,
            }),
        },
    }
}
