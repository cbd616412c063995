//! One module per `ayo` subcommand: its clap arguments (`Args`) and `run`.

pub mod bench;
pub mod engine;
pub mod perft;
pub mod play;
pub mod plot;
pub mod replay;
pub mod rules;
pub mod selfplay;
pub mod serve;
pub mod tournament;
pub mod train;

use anyhow::{Context, Result};
use ayo_env::Variant;

/// `--variant NAME [--options K=V,…]`, shared by the subcommands that play one variant.
#[derive(clap::Args)]
pub struct VariantArgs {
    /// Variant name, e.g. `oware` (or `oware@1`).
    #[arg(long)]
    pub variant: String,
    /// Options as `key=value,key=value`.
    #[arg(long)]
    pub options: Option<String>,
}

impl VariantArgs {
    /// The variant with its options.
    pub fn rules(&self) -> Result<Variant> {
        variant(&self.variant, self.options.as_deref())
    }
}

/// `--agent SPEC [--sims N] [--seed S]`, shared by the subcommands that put one agent in a game.
#[derive(clap::Args)]
pub struct AgentArgs {
    /// The agent: random, greedy, alphabeta:D, mcts:N, or a checkpoint file PATH, PATH:SIMS or
    /// PATH@TIME (a time per move: 1s, 0.5s, 250ms).
    #[arg(long)]
    pub agent: String,
    /// Simulations per move of a checkpoint given without `:SIMS` (0: network policy alone).
    #[arg(long, default_value_t = 0)]
    pub sims: u32,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl AgentArgs {
    /// The agent, for games of `rules`.
    pub fn load(&self, rules: &Variant) -> Result<Box<dyn ayo_env::Agent>> {
        Ok(ayo_train::agent::load_player(
            &self.agent,
            rules,
            self.sims,
            self.seed,
        )?)
    }
}

/// The variant named on the command line (`name` or `name@version`) with `key=value,…` options.
pub fn variant(spec: &str, options: Option<&str>) -> Result<Variant> {
    let opts = Variant::parse_options(options.unwrap_or(""))?;
    Variant::new(spec, &opts).with_context(|| format!("cannot load variant {spec:?}"))
}
