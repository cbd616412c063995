//! `models/shipped.json`: for each variant, which checkpoint of the models folder is its shipped
//! network and which run folder trained it. `ayo serve` lists the shipped models first; the
//! tests check that every variant has one and that it loads.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One variant's entry: `{"model": "ncho/ncho-….ot", "run": "experiments/runs/ncho-…"}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shipped {
    /// The checkpoint, relative to the models folder.
    pub model: String,
    /// The run folder that trained it, relative to the repository root.
    pub run: String,
}

/// Why `shipped.json` cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ShippedError {
    #[error("cannot read {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("{path} is not a map of variant to {{\"model\": …, \"run\": …}}: {reason}")]
    Format { path: PathBuf, reason: String },
}

/// The list in `<models>/shipped.json`, by variant name.
pub fn read(models: &Path) -> Result<BTreeMap<String, Shipped>, ShippedError> {
    let path = models.join("shipped.json");
    let text = std::fs::read_to_string(&path).map_err(|e| ShippedError::Read {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    serde_json::from_str(&text).map_err(|e| ShippedError::Format {
        path,
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_list_is_refused_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("shipped.json"), r#"{"ncho": {"model": 3}}"#).unwrap();
        let err = read(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("shipped.json") && err.contains("model"),
            "{err}"
        );
        std::fs::remove_file(dir.path().join("shipped.json")).unwrap();
        let err = read(dir.path()).unwrap_err().to_string();
        assert!(err.starts_with("cannot read"), "{err}");
    }
}
