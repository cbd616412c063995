//! Checkpoints: one file holding the network's weights and its metadata (variant@version,
//! options, network shape, config, step, wall time, games, positions), written atomically
//! (temporary file, then rename), with a readable copy of the metadata next to it (`.json`).
//!
//! Loading refuses a file that is not a checkpoint, a damaged one, and one trained for another
//! variant, version or observation size, each with its own error.

use crate::config::TrainConfig;
#[cfg(feature = "torch")]
use crate::net::Net;
use crate::net::NetShape;
use ayo_env::{Rules, Variant};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
#[cfg(feature = "torch")]
use tch::{Device, Kind, Tensor};

/// Format version of the checkpoint file.
pub const FORMAT: u32 = 1;
/// Name of the tensor holding the metadata JSON.
#[cfg(feature = "torch")]
const META: &str = "__metadata__";

/// What a checkpoint says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMeta {
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
    /// The metadata of the checkpoint read by [`crate::net::CpuNet`].
    pub fn of_cpu_net(
        net: &crate::net::CpuNet,
        path: &Path,
    ) -> Result<CheckpointMeta, CheckpointError> {
        let meta: CheckpointMeta =
            serde_json::from_str(&net.meta_json).map_err(|e| CheckpointError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("metadata: {e}"),
            })?;
        if meta.format != FORMAT {
            return Err(CheckpointError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("format {} (this build reads {FORMAT})", meta.format),
            });
        }
        Ok(meta)
    }

    /// The variant this checkpoint plays, with its options.
    pub fn rules(&self) -> Result<Variant, ayo_env::ParseError> {
        Variant::new(&self.variant, &self.options)
    }
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
    let meta: CheckpointMeta =
        serde_json::from_slice(&bytes).map_err(|e| corrupt(format!("metadata: {e}")))?;
    if meta.format != FORMAT {
        return Err(corrupt(format!(
            "format {} (this build reads {FORMAT})",
            meta.format
        )));
    }
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
    fn a_network_with_lookahead_features_loads_and_plays_on_either_cpu_path() {
        use ayo_env::Agent;
        let rules: Variant = "yao".parse().unwrap();
        let shape = NetShape {
            inputs: ayo_env::input::input_len(&rules, 2),
            actions: rules.num_actions(),
            width: 8,
            blocks: 1,
            levels: 2,
            lookahead: 2,
        };
        assert_eq!(
            shape.inputs,
            40 + 3 * 34,
            "yao: observation, gains, threats, exchanges"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ot");
        save(
            &Net::new(shape, Device::Cpu),
            &meta_for(&rules, shape),
            &path,
        )
        .unwrap();
        let (_, meta) = load_for(&path, &rules, Device::Cpu).unwrap();
        assert_eq!(meta.shape.lookahead, 2);
        let start = rules.start(ayo_env::Player::South);
        let mut torch = crate::agent::NetAgent::load(&path, 8, 1).unwrap();
        let mut cpu = crate::agent::NetAgent::load_cpu(&path, 8, 1).unwrap();
        let (a, b) = (torch.choose(&rules, &start).0, cpu.choose(&rules, &start).0);
        assert!(rules.legal_mask(&start).contains(a));
        assert_eq!(a, b, "both networks see the same input");
        // Without the flag the same weights expect another input length.
        let plain = CheckpointMeta {
            shape: NetShape {
                lookahead: 0,
                ..shape
            },
            ..meta
        };
        assert!(matches!(
            check_rules(&plain, &rules, &path),
            Err(CheckpointError::ShapeMismatch { .. })
        ));
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
