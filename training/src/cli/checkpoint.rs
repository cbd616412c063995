//! `ayo checkpoint`: shows a checkpoint's metadata, or writes a copy of it (the same weights)
//! that plays with other search settings at its root.

use anyhow::{bail, Result};
use ayo_train::checkpoint;
use ayo_train::config::Given;
use std::path::PathBuf;

/// The play settings are those of `ayo train` (`TrainConfig`'s `eval_*`, [`ayo_train::config::PLAY`]):
/// how the network's search picks its move in evaluation games, tournaments, `play`, `engine`
/// and `serve`. Every other setting describes how the network was trained.
#[derive(clap::Args)]
pub struct Args {
    /// The checkpoint (`.ot`).
    path: PathBuf,
    /// Write a copy here with the play settings given (its metadata also as `.json`);
    /// without it, print the checkpoint's metadata as JSON.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Scale of the root Gumbel noise (0: the search's best move).
    #[arg(long)]
    eval_gumbel_scale: Option<f32>,
    /// `c_scale` of the sigma transform (0: as in self-play).
    #[arg(long)]
    eval_c_scale: Option<f32>,
    /// Min-max rescale the search's action values per node (`true`/`false`).
    #[arg(long)]
    eval_rescale: Option<bool>,
}

pub fn run(a: Args) -> Result<()> {
    let (net, mut meta) = checkpoint::load(&a.path, tch::Device::Cpu)?;
    let mut given = Given::new();
    let mut set = |key: &str, value: Option<serde_json::Value>| {
        if let Some(v) = value {
            given.insert(key.to_string(), v);
        }
    };
    set("eval_gumbel_scale", a.eval_gumbel_scale.map(Into::into));
    set("eval_c_scale", a.eval_c_scale.map(Into::into));
    set("eval_rescale", a.eval_rescale.map(Into::into));
    let Some(out) = a.out else {
        if !given.is_empty() {
            bail!("play settings are written into a copy: give --out FILE");
        }
        println!("{}", serde_json::to_string_pretty(&meta)?);
        return Ok(());
    };
    if given.is_empty() {
        bail!("no play setting given to write into {}", out.display());
    }
    meta.config = meta.config.with_play(&given)?;
    checkpoint::save(&net, &meta, &out)?;
    let changes: Vec<String> = given.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    println!(
        "wrote {} (the weights of {}, playing with {})",
        out.display(),
        a.path.display(),
        changes.join(", ")
    );
    Ok(())
}
