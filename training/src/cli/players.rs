//! Players named on the command line, shared by `ayo tournament`, `ayo engine` and `ayo play`:
//! a baseline agent spec (`random`, `greedy`, `alphabeta:D`, `mcts:N`) or a checkpoint path with
//! an optional search budget (`path/to/step-0001000.ot[:sims]`).

use anyhow::{bail, Context, Result};
use ayo_env::{agents, Agent, Variant};
use ayo_train::agent::NetAgent;
use std::path::Path;

/// Help text for player arguments.
pub const PLAYER_SPECS: &str =
    "random, greedy, alphabeta:D, mcts:N, or a checkpoint file with its simulations PATH[:SIMS]";

/// A checkpoint path and its search budget, when `spec` names an existing file.
pub fn checkpoint_spec(spec: &str, default_sims: u32) -> Option<(&Path, u32)> {
    if Path::new(spec).is_file() {
        return Some((Path::new(spec), default_sims));
    }
    let (path, sims) = spec.rsplit_once(':')?;
    let sims = sims.parse().ok()?;
    Path::new(path).is_file().then(|| (Path::new(path), sims))
}

/// The agent named by `spec` for games of `rules`; a checkpoint without `:SIMS` searches
/// `default_sims` simulations per move (0: the network's policy alone).
pub fn load(spec: &str, rules: &Variant, default_sims: u32, seed: u64) -> Result<Box<dyn Agent>> {
    match agents::parse(spec, seed) {
        Ok(agent) => Ok(agent),
        Err(baseline_error) => match checkpoint_spec(spec, default_sims) {
            Some((path, sims)) => load_checkpoint(path, sims, rules, seed),
            None => bail!("{baseline_error}; nor is {spec:?} a checkpoint file ({PLAYER_SPECS})"),
        },
    }
}

fn load_checkpoint(path: &Path, sims: u32, rules: &Variant, seed: u64) -> Result<Box<dyn Agent>> {
    let agent = NetAgent::load(path, sims, seed)
        .with_context(|| format!("cannot load checkpoint {}", path.display()))?;
    agent.check_rules(rules)?;
    Ok(Box::new(agent))
}
