//! A rating ladder's **rungs as players** (`ayo_env::arena::ladder::Ladder`): baselines by
//! their spec, networks found beside the ladder file and checked against the SHA-256 the ladder
//! was measured with. `ayo rate`, `ayo ladder` and Python's `ayo.rate` load rungs here, so a
//! changed network is refused the same way everywhere. Without libtorch (the Python package)
//! the networks run on the CPU through [`CpuNet`](crate::net::CpuNet).

use crate::agent::{checkpoint_spec, load_player, PlayerError};
use ayo_env::arena::ladder::Ladder;
use ayo_env::{Agent, Variant};
use std::path::{Path, PathBuf};

/// A rung that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum RungError {
    #[error("the ladder's network rung {spec:?} is not a file (network rungs are named from the ladder's folder)")]
    Missing { spec: String },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} has SHA-256 {found}, the ladder v{version} was measured with {expected}: the network \
         changed, so the ladder must be measured again",
        path.display()
    )]
    Changed {
        path: PathBuf,
        found: String,
        expected: String,
        version: u32,
    },
    #[error("rung {spec:?}: {source}")]
    Player {
        spec: String,
        source: Box<PlayerError>,
    },
}

/// SHA-256 of the file at `path`, in hex.
pub fn sha256(path: &Path) -> Result<String, RungError> {
    use sha2::Digest;
    let bytes = std::fs::read(path).map_err(|source| RungError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The ladder's rungs as agents for games of `rules`, in the ladder's order: network rungs
/// named from `folder` (the ladder file's) and checked by their hash; rung `i` seeded with
/// `seed + 1 + i`.
pub fn load(
    ladder: &Ladder,
    folder: &Path,
    rules: &Variant,
    seed: u64,
) -> Result<Vec<Box<dyn Agent>>, RungError> {
    let mut rungs = Vec::new();
    for (i, rung) in ladder.rungs.iter().enumerate() {
        let spec = match &rung.sha256 {
            None => rung.spec.clone(),
            Some(expected) => {
                let spec = folder.join(&rung.spec).display().to_string();
                let Some((path, _)) = checkpoint_spec(&spec, 0) else {
                    return Err(RungError::Missing { spec });
                };
                let found = sha256(path)?;
                if &found != expected {
                    return Err(RungError::Changed {
                        path: path.to_path_buf(),
                        found,
                        expected: expected.clone(),
                        version: ladder.version,
                    });
                }
                spec
            }
        };
        let seed = seed.wrapping_add(1 + i as u64);
        let agent = load_player(&spec, rules, 0, seed).map_err(|source| RungError::Player {
            spec,
            source: Box::new(source),
        })?;
        rungs.push(agent);
    }
    Ok(rungs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn models() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")
    }

    /// Every committed ladder's rungs load, its networks matching their hashes.
    #[test]
    fn every_committed_ladder_loads_its_rungs() {
        let mut found = 0;
        for entry in std::fs::read_dir(models()).unwrap() {
            let path = entry.unwrap().path().join("ladder.json");
            if !path.is_file() {
                continue;
            }
            found += 1;
            let ladder = Ladder::load(&path).unwrap();
            let options = Variant::parse_options(&ladder.options).unwrap();
            let rules = Variant::new(&ladder.variant, &options).unwrap();
            let rungs = load(&ladder, path.parent().unwrap(), &rules, 0).unwrap();
            assert_eq!(rungs.len(), ladder.rungs.len());
            assert!(ladder.rungs.iter().any(|r| r.sha256.is_some()), "{path:?}");
        }
        assert!(found >= 3, "oware, ayo and ayoayo at least");
    }

    /// A network rung whose file is missing or changed is refused, naming it.
    #[test]
    fn a_missing_or_changed_network_is_refused() {
        let path = models().join("oware/ladder.json");
        let ladder = Ladder::load(&path).unwrap();
        let rules: Variant = "oware".parse().unwrap();
        let dir = tempfile::tempdir().unwrap();
        match load(&ladder, dir.path(), &rules, 0) {
            Err(RungError::Missing { spec }) => assert!(spec.ends_with("oware-levels-1h.ot:1")),
            other => panic!("{:?}", other.map(|r| r.len())),
        }
        let mut bytes = std::fs::read(models().join("oware/oware-levels-1h.ot")).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(dir.path().join("oware-levels-1h.ot"), bytes).unwrap();
        let error = load(&ladder, dir.path(), &rules, 0)
            .map(|r| r.len())
            .unwrap_err();
        assert!(
            matches!(error, RungError::Changed { version, .. } if version == ladder.version),
            "{error}"
        );
        assert!(error.to_string().contains("the network changed"), "{error}");
    }
}
