//! One module per `ayo` subcommand: its clap arguments (`Args`) and `run`.

pub mod bench;
pub mod engine;
pub mod perft;
pub mod play;
pub mod plot;
pub mod replay;
pub mod rules;
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

/// The variant named on the command line (`name` or `name@version`) with `key=value,…` options.
pub fn variant(spec: &str, options: Option<&str>) -> Result<Variant> {
    let opts = Variant::parse_options(options.unwrap_or(""))?;
    Variant::new(spec, &opts).with_context(|| format!("cannot load variant {spec:?}"))
}
