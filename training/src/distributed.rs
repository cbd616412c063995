//! Self-play workers and a learner that share nothing but storage ([`crate::storage`]), as
//! KataGo, Leela Chess Zero and minigo grow beyond one machine.
//!
//! * The **learner** (`ayo train --run URL --learner`) writes the run's `config.toml` and its
//!   first network, then reads every new shard into its replay buffer ([`crate::run::Run::learn`]:
//!   the replay ratio caps training steps per new position), publishes a network every
//!   `publish_every_steps` training steps (`models/<step>.ot` and its `.json`, then the
//!   `models/latest` pointer), and keeps its exact-resume state, logs and evaluations in its
//!   own folder (`--out`) as `ayo train` does. The shards it has consumed are part of that state.
//! * A **worker** (`ayo selfplay --run URL`) takes its configuration from the run, plays
//!   batches of self-play games with the newest network (`games` at once, batched leaves, the
//!   GPU when libtorch has one), writes each batch of `shard_positions` positions as one
//!   immutable shard (one atomic put), and reloads the network when a newer one is published.
//!
//! A worker killed while writing leaves no shard under its final name (the put is atomic), and a
//! shard that is truncated or corrupted anyway is refused by its checksum ([`crate::shard`]).

use crate::checkpoint::{self, CheckpointMeta};
use crate::config::TrainConfig;
use crate::net::Net;
use crate::run::helper_of;
use crate::selfplay::SelfPlay;
use crate::shard::Shard;
use crate::storage::Storage;
use anyhow::{bail, Context, Result};
use ayo_env::{Rules, Variant};
use std::time::{Duration, Instant};

/// The run's configuration in storage.
pub const CONFIG: &str = "config.toml";
/// The pointer to the newest published network (its training step, as text).
pub const LATEST: &str = "models/latest";
/// Where the shards are.
pub const SHARDS: &str = "shards";

/// The key of the network published at training step `step`.
pub fn model_key(step: u64) -> String {
    format!("models/{step:09}.ot")
}

/// Publishes `net` (with `meta`) as the newest network: the network and its metadata first,
/// then the pointer, so that a worker never follows the pointer to a missing network.
pub fn publish(store: &Storage, net: &Net, meta: &CheckpointMeta) -> Result<()> {
    let dir = tempfile::tempdir().context("temporary folder for publishing")?;
    let path = dir.path().join("net.ot");
    checkpoint::save(net, meta, &path)?;
    let key = model_key(meta.step);
    store.put(&key, std::fs::read(&path)?)?;
    store.put(
        &key.replace(".ot", ".json"),
        std::fs::read(path.with_extension("json"))?,
    )?;
    store.put(LATEST, meta.step.to_string().into_bytes())?;
    // Keep the newest few: a worker still loading an older one has time to finish.
    let models: Vec<String> = store
        .list("models")?
        .into_iter()
        .filter(|k| k.ends_with(".ot") && *k != key)
        .collect();
    for old in models.iter().rev().skip(KEEP_MODELS - 1) {
        store.delete(old)?;
        store.delete(&old.replace(".ot", ".json"))?;
    }
    Ok(())
}

/// Published networks kept in storage.
pub const KEEP_MODELS: usize = 4;

/// The step of the newest published network, if any.
pub fn latest_step(store: &Storage) -> Result<Option<u64>> {
    let Some(bytes) = store.get(LATEST)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&bytes);
    let step = text.trim().parse().with_context(|| {
        format!(
            "{}/{LATEST} holds {text:?}, expected a training step",
            store.url()
        )
    })?;
    Ok(Some(step))
}

/// The network published at `step`, checked to be trained for `rules`.
pub fn load_model(store: &Storage, step: u64, rules: &Variant) -> Result<Net> {
    let key = model_key(step);
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("net.ot");
    let bytes = store.get(&key)?.with_context(|| {
        format!(
            "{}/{LATEST} names step {step}, but {key} is missing",
            store.url()
        )
    })?;
    std::fs::write(&path, bytes)?;
    if let Some(meta) = store.get(&key.replace(".ot", ".json"))? {
        std::fs::write(path.with_extension("json"), meta)?;
    }
    let (net, _) = checkpoint::load_for(&path, rules, crate::device::best_device())?;
    Ok(net)
}

/// The run's configuration, waiting up to `wait` for the learner to write it.
pub fn read_config(store: &Storage, wait: Duration) -> Result<TrainConfig> {
    let start = Instant::now();
    loop {
        if let Some(bytes) = store.get(CONFIG)? {
            let text = String::from_utf8(bytes).context("config.toml is not UTF-8")?;
            let cfg = TrainConfig::from_run_toml(&text)
                .with_context(|| format!("{}/{CONFIG}", store.url()))?;
            cfg.validate()?;
            return Ok(cfg);
        }
        if start.elapsed() > wait {
            bail!("{} has no {CONFIG} after {wait:?}: start the learner (ayo train --run URL --learner) first", store.url());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The shards in storage that are not in `consumed`, oldest name first.
pub fn new_shards(
    store: &Storage,
    consumed: &std::collections::BTreeSet<String>,
) -> Result<Vec<String>> {
    Ok(store
        .list(SHARDS)?
        .into_iter()
        .filter(|k| k.ends_with(".shard") && !consumed.contains(k))
        .collect())
}

/// A self-play worker of a run.
pub struct Worker {
    pub store: Storage,
    pub cfg: TrainConfig,
    pub rules: Variant,
    pub selfplay: SelfPlay,
    net: Net,
    helper: Option<Net>,
    /// The training step of the network it plays with.
    pub model_step: u64,
    name: String,
    seq: u64,
}

impl Worker {
    /// Joins the run at `url` as `name` (waiting up to `wait` for its config and first network).
    /// `nonce` makes this session's games and shard names its own (a restarted worker plays
    /// other games and never overwrites a shard).
    pub fn join(url: &str, name: &str, nonce: u64, wait: Duration) -> Result<Worker> {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            bail!("worker name {name:?}: expected letters, digits, '_' or '.'");
        }
        let store = Storage::open(url)?;
        let cfg = read_config(&store, wait)?;
        let rules = cfg.rules()?;
        let start = Instant::now();
        let model_step = loop {
            if let Some(step) = latest_step(&store)? {
                break step;
            }
            if start.elapsed() > wait {
                bail!("{} has published no network after {wait:?}", store.url());
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        let net = load_model(&store, model_step, &rules)?;
        let helper = helper_of(&net, &cfg)?;
        let seed = cfg.seed ^ nonce.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let selfplay = SelfPlay::new(
            &rules,
            cfg.games,
            seed,
            cfg.varied_starts,
            cfg.opening_plies,
        );
        Ok(Worker {
            store,
            cfg,
            rules,
            selfplay,
            net,
            helper,
            model_step,
            name: format!("{name}-{nonce:016x}"),
            seq: 0,
        })
    }

    /// Plays until `shard_positions` positions are ready and writes them as one shard; returns
    /// its key and the number of positions.
    pub fn play_shard(&mut self) -> Result<(String, usize)> {
        let mut shard = Shard {
            model_step: self.model_step,
            games: 0,
            samples: Vec::new(),
        };
        while shard.samples.len() < self.cfg.shard_positions {
            let report =
                self.selfplay
                    .step(&self.rules, &self.net, self.helper.as_mut(), &self.cfg);
            shard.games += report.game_lengths.len() as u32;
            shard.samples.extend(report.samples);
        }
        let key = format!("{SHARDS}/{}-{:06}.shard", self.name, self.seq);
        self.seq += 1;
        let bytes = shard.encode(self.net.shape.inputs, self.rules.num_actions());
        self.store.put(&key, bytes)?;
        Ok((key, shard.samples.len()))
    }

    /// Takes the published network if it is not the one playing (newer, or older after the
    /// learner resumed from its last saved state); says whether.
    pub fn refresh(&mut self) -> Result<bool> {
        match latest_step(&self.store)? {
            Some(step) if step != self.model_step => {
                let net = load_model(&self.store, step, &self.rules)?;
                self.net.copy_from(&net)?;
                if let Some(h) = &mut self.helper {
                    h.copy_from(&net)?;
                }
                self.model_step = step;
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}
