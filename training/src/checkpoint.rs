//! Checkpoints: one file holding the network's weights and its metadata (variant@version,
//! options, network shape, config, step, wall time, games, positions), written atomically
//! (temporary file, then rename), with a readable copy of the metadata next to it (`.json`).
//!
//! A checkpoint is read in one place per network: [`read`] gives the network to play with and
//! its metadata (an agent is built from them), [`load`] libtorch's network to train on or save
//! again, [`read_cpu`] the network without libtorch; each parses the metadata the same way.
//! Loading refuses a file that is not a checkpoint, a damaged one, and one trained for another
//! variant, version or observation size, each with its own error.

use crate::config::TrainConfig;
#[cfg(feature = "torch")]
use crate::net::Net;
use crate::net::{CpuNet, NetShape, Network};
use ayo_env::{Rules, Variant};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
#[cfg(feature = "torch")]
use tch::{Device, Kind, Tensor};

/// Format version of the checkpoint file. Its metadata's `config` is of the configuration
/// format of the same number ([`crate::config::FORMAT`]): format 1 left keys out, which read as
/// their format-1 defaults; format 2 writes every key. Both are read.
pub const FORMAT: u32 = 2;
/// Name of the tensor holding the metadata JSON.
#[cfg(feature = "torch")]
const META: &str = "__metadata__";

/// What a checkpoint says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMeta {
    /// [`FORMAT`]: a checkpoint of an older format reads as one of this build's.
    pub format: u32,
    /// `name@version` of the variant.
    pub variant: String,
    /// The variant's non-default options.
    pub options: Vec<(String, String)>,
    pub shape: NetShape,
    pub config: TrainConfig,
    /// Training steps (minibatches) taken.
    pub step: u64,
    /// Wall-clock seconds of training, over every session of the run.
    pub wall_time_s: f64,
    /// Self-play games finished.
    pub games: u64,
    /// Self-play positions searched.
    pub positions: u64,
    /// Training samples consumed.
    pub samples: u64,
}

/// Why a checkpoint cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("cannot write checkpoint {path}: {reason}")]
    Write { path: PathBuf, reason: String },
    #[error("{path} is not a readable checkpoint (damaged or not a checkpoint): {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error("{path} was trained for {found}, expected {expected}")]
    VariantMismatch {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{path}: {source}")]
    Config {
        path: PathBuf,
        source: crate::config::ConfigError,
    },
    #[error("{path} has an observation of {found} floats and {found_actions} actions, expected {expected} and {expected_actions}")]
    ShapeMismatch {
        path: PathBuf,
        found: usize,
        expected: usize,
        found_actions: usize,
        expected_actions: usize,
    },
}

impl CheckpointMeta {
    /// The variant this checkpoint plays, with its options.
    pub fn rules(&self) -> Result<Variant, ayo_env::ParseError> {
        Variant::new(&self.variant, &self.options)
    }
}

/// The metadata stored in the checkpoint at `path` (its JSON bytes), of format 1 or 2
/// ([`FORMAT`]), as this build's: its config read as its format says
/// ([`TrainConfig::from_stored`]). Every reader of a checkpoint goes through here.
fn parse_meta(json: &[u8], path: &Path) -> Result<CheckpointMeta, CheckpointError> {
    let corrupt = |reason: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let mut stored: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| corrupt(format!("metadata: {e}")))?;
    let format = stored["format"].as_u64().unwrap_or(0);
    if !(1..=FORMAT as u64).contains(&format) {
        return Err(corrupt(format!(
            "format {} (this build reads 1 to {FORMAT})",
            stored["format"]
        )));
    }
    let config =
        TrainConfig::from_stored(stored["config"].take(), format as u32).map_err(|source| {
            CheckpointError::Config {
                path: path.to_path_buf(),
                source,
            }
        })?;
    stored["config"] = serde_json::to_value(config).expect("config serialises");
    stored["format"] = FORMAT.into();
    serde_json::from_value(stored).map_err(|e| corrupt(format!("metadata: {e}")))
}

/// Reads the checkpoint at `path` — its metadata and its network — to play: with libtorch
/// (the `torch` feature) as [`Net`] on the best device found, without it as [`CpuNet`].
pub fn read(path: &Path) -> Result<(Box<dyn Network>, CheckpointMeta), CheckpointError> {
    #[cfg(feature = "torch")]
    let (net, meta) = load(path, crate::device::best_device())?;
    #[cfg(not(feature = "torch"))]
    let (net, meta) = read_cpu(path)?;
    Ok((Box::new(net), meta))
}

/// Reads the checkpoint at `path` without libtorch: its metadata and its network as a
/// [`CpuNet`].
pub fn read_cpu(path: &Path) -> Result<(CpuNet, CheckpointMeta), CheckpointError> {
    let net = CpuNet::load(path).map_err(|e| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        reason: e.reason,
    })?;
    let meta = parse_meta(net.meta_json.as_bytes(), path)?;
    Ok((net, meta))
}

#[cfg(feature = "torch")]
/// Writes `tensors` to `path` atomically: a temporary file in the same folder, then a rename.
pub fn save_tensors_atomic(
    tensors: &[(String, Tensor)],
    path: &Path,
) -> Result<(), CheckpointError> {
    let err = |reason: String| CheckpointError::Write {
        path: path.to_path_buf(),
        reason,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
    }
    let tmp = path.with_extension("tmp");
    let named: Vec<(&str, &Tensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    Tensor::save_multi(&named, &tmp).map_err(|e| err(e.to_string()))?;
    std::fs::rename(&tmp, path).map_err(|e| err(e.to_string()))
}

/// Writes `text` to `path` atomically.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(tmp, path)
}

#[cfg(feature = "torch")]
/// The network's variables by name, the metadata as a byte tensor.
pub fn net_tensors(net: &Net, meta: &CheckpointMeta) -> Vec<(String, Tensor)> {
    let mut vars: Vec<(String, Tensor)> = net
        .vs
        .variables()
        .into_iter()
        .map(|(n, t)| (format!("net.{n}"), t.detach().to_device(Device::Cpu)))
        .collect();
    vars.sort_by(|a, b| a.0.cmp(&b.0));
    let json = serde_json::to_vec(meta).expect("metadata serialises");
    vars.push((META.to_string(), Tensor::from_slice(&json)));
    vars
}

#[cfg(feature = "torch")]
/// Saves `net` with `meta` to `path` (and the metadata to `path` with extension `.json`).
pub fn save(net: &Net, meta: &CheckpointMeta, path: &Path) -> Result<(), CheckpointError> {
    save_tensors_atomic(&net_tensors(net, meta), path)?;
    let json = serde_json::to_string_pretty(meta).expect("metadata serialises");
    write_atomic(&path.with_extension("json"), &json).map_err(|e| CheckpointError::Write {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

#[cfg(feature = "torch")]
/// Reads every tensor of a file written by [`save_tensors_atomic`].
pub fn load_tensors(path: &Path) -> Result<Vec<(String, Tensor)>, CheckpointError> {
    if !path.is_file() {
        return Err(CheckpointError::Corrupt {
            path: path.to_path_buf(),
            reason: "no such file".into(),
        });
    }
    Tensor::load_multi(path).map_err(|e| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        reason: e.to_string().lines().next().unwrap_or("").to_string(),
    })
}

#[cfg(feature = "torch")]
/// The network and metadata in `tensors` (as read from `path`).
pub fn net_from_tensors(
    tensors: &[(String, Tensor)],
    path: &Path,
    device: Device,
) -> Result<(Net, CheckpointMeta), CheckpointError> {
    let corrupt = |reason: String| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let meta_t = tensors
        .iter()
        .find(|(n, _)| n == META)
        .ok_or_else(|| corrupt("no metadata".into()))?;
    let bytes =
        Vec::<u8>::try_from(meta_t.1.to_kind(Kind::Uint8)).map_err(|e| corrupt(e.to_string()))?;
    let meta = parse_meta(&bytes, path)?;
    let net = Net::new(meta.shape, device);
    let mut vars = net.vs.variables();
    for (name, var) in vars.iter_mut() {
        let key = format!("net.{name}");
        let t = tensors
            .iter()
            .find(|(n, _)| *n == key)
            .ok_or_else(|| corrupt(format!("missing {key}")))?;
        if t.1.size() != var.size() {
            return Err(corrupt(format!(
                "{key} has shape {:?}, expected {:?}",
                t.1.size(),
                var.size()
            )));
        }
        tch::no_grad(|| var.copy_(&t.1));
    }
    Ok((net, meta))
}

#[cfg(feature = "torch")]
/// Loads a checkpoint saved by [`save`].
pub fn load(path: &Path, device: Device) -> Result<(Net, CheckpointMeta), CheckpointError> {
    net_from_tensors(&load_tensors(path)?, path, device)
}

#[cfg(feature = "torch")]
/// Loads a checkpoint and checks that it was trained for `rules` (same name, version and
/// options, same observation and action sizes).
pub fn load_for(
    path: &Path,
    rules: &Variant,
    device: Device,
) -> Result<(Net, CheckpointMeta), CheckpointError> {
    let (net, meta) = load(path, device)?;
    check_rules(&meta, rules, path)?;
    Ok((net, meta))
}

/// Refuses `meta` if it was not trained for `rules`.
pub fn check_rules(
    meta: &CheckpointMeta,
    rules: &Variant,
    path: &Path,
) -> Result<(), CheckpointError> {
    // The episode option only says where an episode ends (a round or the whole match): a
    // network trained on rounds plays matches round by round.
    let positional = |o: &[(String, String)]| -> Vec<(String, String)> {
        o.iter().filter(|(k, _)| k != "episode").cloned().collect()
    };
    if meta.variant != rules.id() || positional(&meta.options) != positional(&rules.options()) {
        let show = |id: &str, o: &[(String, String)]| {
            let opts: Vec<String> = o.iter().map(|(k, v)| format!("{k}={v}")).collect();
            if opts.is_empty() {
                id.to_string()
            } else {
                format!("{id} ({})", opts.join(","))
            }
        };
        return Err(CheckpointError::VariantMismatch {
            path: path.to_path_buf(),
            found: show(&meta.variant, &meta.options),
            expected: show(&rules.id(), &rules.options()),
        });
    }
    let inputs = ayo_env::input::input_len(rules, meta.shape.lookahead);
    if meta.shape.inputs != inputs || meta.shape.actions != rules.num_actions() {
        return Err(CheckpointError::ShapeMismatch {
            path: path.to_path_buf(),
            found: meta.shape.inputs,
            expected: inputs,
            found_actions: meta.shape.actions,
            expected_actions: rules.num_actions(),
        });
    }
    Ok(())
}

#[cfg(all(test, feature = "torch"))]
mod tests {
    use super::*;

    fn meta_for(rules: &Variant, shape: NetShape) -> CheckpointMeta {
        CheckpointMeta {
            format: FORMAT,
            variant: rules.id(),
            options: rules.options(),
            shape,
            config: TrainConfig::default(),
            step: 7,
            wall_time_s: 1.5,
            games: 2,
            positions: 3,
            samples: 4,
        }
    }

    #[test]
    fn round_trip_gives_identical_outputs() {
        let rules: Variant = "oware".parse().unwrap();
        let shape = NetShape {
            inputs: rules.observation_len(),
            actions: rules.num_actions(),
            width: 24,
            blocks: 2,
            levels: 3,
            lookahead: 0,
        };
        let net = Net::new(shape, Device::Cpu);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ot");
        let meta = meta_for(&rules, shape);
        save(&net, &meta, &path).unwrap();
        let (back, m) = load_for(&path, &rules, Device::Cpu).unwrap();
        assert_eq!(m, meta);
        let x = Tensor::rand([9, shape.inputs as i64], (Kind::Float, Device::Cpu));
        let (a, b) = (net.forward(&x), back.forward(&x));
        assert!(a.logits.equal(&b.logits) && a.value.equal(&b.value) && a.score.equal(&b.score));
    }

    #[test]
    fn corrupt_and_mismatched_checkpoints_are_refused() {
        let rules: Variant = "oware".parse().unwrap();
        let shape = NetShape {
            inputs: rules.observation_len(),
            actions: rules.num_actions(),
            width: 8,
            blocks: 1,
            levels: 0,
            lookahead: 0,
        };
        let net = Net::new(shape, Device::Cpu);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ot");
        save(&net, &meta_for(&rules, shape), &path).unwrap();

        // Another variant.
        let ayo: Variant = "ayo".parse().unwrap();
        let e = load_for(&path, &ayo, Device::Cpu).err().unwrap();
        assert!(matches!(e, CheckpointError::VariantMismatch { .. }), "{e}");
        assert!(
            e.to_string().contains("oware@1") && e.to_string().contains("ayo@1"),
            "{e}"
        );

        // Another version of the same variant.
        let mut old = meta_for(&rules, shape);
        old.variant = "oware@0".into();
        let p2 = dir.path().join("old.ot");
        save(&net, &old, &p2).unwrap();
        let e = load_for(&p2, &rules, Device::Cpu).err().unwrap();
        assert!(matches!(e, CheckpointError::VariantMismatch { .. }), "{e}");

        // Other options of the same variant.
        let three = Variant::new("oware", &[("seeds".into(), "3".into())]).unwrap();
        assert!(matches!(
            load_for(&path, &three, Device::Cpu),
            Err(CheckpointError::VariantMismatch { .. })
        ));

        // Truncated file.
        let bytes = std::fs::read(&path).unwrap();
        let p3 = dir.path().join("cut.ot");
        std::fs::write(&p3, &bytes[..bytes.len() / 2]).unwrap();
        assert!(matches!(
            load(&p3, Device::Cpu),
            Err(CheckpointError::Corrupt { .. })
        ));

        // Not a checkpoint at all.
        let p4 = dir.path().join("text.ot");
        std::fs::write(&p4, "hello").unwrap();
        assert!(matches!(
            load(&p4, Device::Cpu),
            Err(CheckpointError::Corrupt { .. })
        ));
    }
}
