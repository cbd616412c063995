//! Every shipped network keeps the settings it was trained with: its checkpoint's metadata (in
//! the `.ot` file and in its `.json` copy) resolves to exactly the configuration recorded in
//! `tests/data/shipped_settings.json`, a golden copy taken with the code that trained them. A
//! change of the defaults that a shipped network's metadata reads (see
//! [`ayo_train::config::FORMAT`]) fails here.

use ayo_train::checkpoint;
use ayo_train::config::TrainConfig;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")
}

/// The golden settings, by checkpoint path relative to the models folder.
fn golden() -> BTreeMap<String, TrainConfig> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/shipped_settings.json");
    let text = std::fs::read_to_string(&path).expect("the golden settings");
    serde_json::from_str(&text).expect("a map of checkpoint to configuration")
}

#[test]
fn every_shipped_network_resolves_to_its_golden_settings() {
    let golden = golden();
    let list = ayo_train::shipped::read(&models()).expect("models/shipped.json");
    for (variant, entry) in &list {
        let expected = golden
            .get(&entry.model)
            .unwrap_or_else(|| panic!("no golden settings for {variant}'s {}", entry.model));
        let path = models().join(&entry.model);
        let (_, meta) = checkpoint::read(&path)
            .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()));
        assert_eq!(&meta.config, expected, "{}", path.display());

        let copy = path.with_extension("json");
        let text = std::fs::read_to_string(&copy).expect("the metadata's copy");
        let mut stored: serde_json::Value = serde_json::from_str(&text).unwrap();
        let format = stored["format"].as_u64().unwrap() as u32;
        let config = TrainConfig::from_stored(stored["config"].take(), format)
            .unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
        assert_eq!(&config, expected, "{}", copy.display());
    }
}
