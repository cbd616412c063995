//! Every shipped model (`models/<variant>/*.ot`): there is one for every variant, each loads,
//! was trained for the variant of its folder, and plays through the library's match driver,
//! `ayo engine` and `ayo play`.

use ayo_env::arena::tournament::MatchConfig;
use ayo_env::{arena::agents, Rules, VARIANT_NAMES};
use ayo_train::agent::NetAgent;
use ayo_train::eval::play_match;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../models")
}

/// The `.ot` files of `models/<variant>/`.
fn shipped(variant: &str) -> Vec<PathBuf> {
    let dir = models().join(variant);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "ot"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[test]
fn every_variant_ships_a_model_that_loads_and_beats_random() {
    // models/shipped.json names each variant's shipped model and the run that trained it.
    let list = ayo_train::shipped::read(&models()).expect("models/shipped.json");
    for variant in VARIANT_NAMES {
        let files = shipped(variant);
        let entry = list
            .get(*variant)
            .unwrap_or_else(|| panic!("models/shipped.json has no entry for {variant}"));
        let model = models().join(&entry.model);
        assert!(
            files.contains(&model),
            "models/shipped.json names {entry:?} for {variant}, not one of {files:?}"
        );
        let run = models().join("..").join(&entry.run);
        assert!(
            run.join("RESULTS.md").is_file(),
            "{variant}: {run:?} has no RESULTS.md"
        );
        for path in files {
            let agent = NetAgent::load(&path, 32, 1)
                .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()));
            let meta = agent.meta.clone().unwrap();
            let rules = meta.rules().unwrap();
            assert_eq!(
                rules.name(),
                *variant,
                "{} was trained for {}",
                path.display(),
                rules
            );
            agent.check_rules(&rules).unwrap();
            let config = MatchConfig {
                max_plies: 2000,
                ..Default::default()
            };
            let r = play_match(
                &rules,
                Box::new(agent),
                agents::parse("random", 2).unwrap(),
                20,
                &config,
            )
            .unwrap();
            // At 32 simulations, the budget of its figures, a shipped network wins every one of
            // 20 games (whole matches in the fours games) against `random`.
            assert_eq!(r.games(), 20);
            assert_eq!(r.wins, 20, "{} against random: {r:?}", path.display());
        }
    }
}

/// `ayo train --variant V` starts from V's tuned config (`experiments/V.toml`, built into the
/// binary), said to be the settings V's shipped network was trained with: every key of it, the
/// seed included, equals the config in the shipped checkpoint's metadata. A config changed
/// without shipping a network from it (or the reverse) fails here.
#[test]
fn every_tuned_config_is_the_one_its_shipped_network_was_trained_with() {
    use ayo_train::config::{tuned, TrainConfig};
    let list = ayo_train::shipped::read(&models()).expect("models/shipped.json");
    for variant in VARIANT_NAMES {
        let text = tuned(variant).unwrap_or_else(|| panic!("{variant} has no tuned config"));
        let config = TrainConfig::from_toml(text)
            .unwrap_or_else(|e| panic!("experiments/{variant}.toml: {e}"));
        let model = models().join(&list[*variant].model);
        let meta = NetAgent::load(&model, 8, 1)
            .unwrap_or_else(|e| panic!("{} does not load: {e}", model.display()))
            .meta
            .unwrap();
        assert_eq!(
            config,
            meta.config,
            "experiments/{variant}.toml is not the config {} was trained with",
            model.display()
        );
    }
}

/// `ayo engine` and `ayo play` load every shipped model.
#[test]
fn engine_and_play_load_every_shipped_model() {
    for (variant, path) in VARIANT_NAMES
        .iter()
        .flat_map(|v| shipped(v).into_iter().map(move |p| (*v, p)))
    {
        let spec = format!("{}:4", path.display());
        let mut engine = Command::new(env!("CARGO_BIN_EXE_ayo"))
            .args(["engine", "--variant", variant, "--agent", &spec])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        engine
            .stdin
            .take()
            .unwrap()
            .write_all(b"position startpos\ngo\nquit\n")
            .unwrap();
        let out = engine.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("bestmove"),
            "engine with {spec}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut play = Command::new(env!("CARGO_BIN_EXE_ayo"))
            .args([
                "play",
                "--variant",
                variant,
                "--agent",
                &spec,
                "--seat",
                "north",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        play.stdin.take().unwrap().write_all(b"quit\n").unwrap();
        let out = play.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains(" plays "),
            "play with {spec}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
