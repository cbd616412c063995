//! Target 4: the training configuration reader (`ayo_train::config::TrainConfig::from_toml`),
//! its validation (`validate`, `rules`, `net_shape`) and the merge of given settings that
//! `TrainConfig::resolve`/`resumed` do (the file's keys over the defaults, then validated).
//!
//! Input: the TOML text (lossy UTF-8). A config that reads must write back to the same TOML;
//! a valid one must give its variant, network shape and search parameters.
#![no_main]

use ayo_train::config::{Given, TrainConfig};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// The defaults (parsed by clap, slow enough to matter per input), made once.
fn defaults() -> &'static TrainConfig {
    static DEFAULTS: OnceLock<TrainConfig> = OnceLock::new();
    DEFAULTS.get_or_init(TrainConfig::default)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(config) = TrainConfig::from_toml(&text) else {
        return;
    };
    let toml = config.to_toml();
    let back = TrainConfig::from_toml(&toml).expect("a config's own TOML reads back");
    assert_eq!(back.to_toml(), toml, "TOML round trip");
    if config.validate().is_ok() {
        let rules = config.rules().expect("a valid config has a variant");
        let shape = config
            .net_shape()
            .expect("a valid config has a network shape");
        assert_eq!(shape.actions, ayo_env::Rules::num_actions(&rules));
        let _ = (config.search_params(), config.eval_search_params());
        let _ = config.eval_match_config();
    }
    // What `TrainConfig::given_text` makes of a config file, merged as `resolve` and
    // `resumed` do.
    let given: Given = TrainConfig::given_text(Some(&text), defaults(), |_| false)
        .expect("a config that reads gives its settings");
    let merged = defaults().with(&given);
    assert_eq!(
        merged.is_ok(),
        config.validate().is_ok(),
        "merge and validate agree"
    );
    if let Ok(merged) = merged {
        assert_eq!(merged.to_toml(), toml, "the merge gives the file's config");
        let _ = merged
            .resumed(&given)
            .expect("a run resumes with its own settings");
    }
});
