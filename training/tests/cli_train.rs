//! `ayo train` from the command line: resuming keeps the run's own settings and refuses flags
//! that would change the run.

use std::path::Path;
use std::process::{Command, Output};

fn ayo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ayo"))
        .args(args)
        .output()
        .expect("ayo runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A tiny run's config, with settings that differ from every default.
const TINY: &str = r#"
variant = "ayo"
width = 16
blocks = 1
simulations = 4
fast_simulations = 2
max_considered = 4
games = 8
min_buffer = 16
batch_size = 16
buffer_size = 1000
max_plies = 40
lr = 0.003
checkpoint_every_s = 1000.0
eval_every_s = 1000.0
eval_agent = "greedy"
eval_games = 6
eval_simulations = 3
eval_opening_plies = 2
selfplay_threads = 1
train_threads = 1
seed = 5
"#;

/// The configuration saved with the run's newest checkpoint.
fn saved_config(dir: &Path) -> serde_json::Value {
    let meta = std::fs::read_to_string(dir.join("checkpoints/latest.json")).expect("metadata");
    serde_json::from_str::<serde_json::Value>(&meta).expect("JSON")["config"].clone()
}

#[test]
fn resume_keeps_the_saved_settings_and_refuses_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("tiny.toml");
    std::fs::write(&config, TINY).unwrap();
    let run = tmp.path().join("run");
    let run_s = run.to_str().unwrap();

    let first = ayo(&[
        "train",
        "--config",
        config.to_str().unwrap(),
        "--out",
        run_s,
        "--iterations",
        "30",
    ]);
    assert!(first.status.success(), "{}", text(&first));
    let before = saved_config(&run);

    // Without --config: the saved settings, not the defaults.
    let resumed = ayo(&["train", "--out", run_s, "--resume", "--iterations", "5"]);
    assert!(resumed.status.success(), "{}", text(&resumed));
    let after = saved_config(&run);
    assert_eq!(
        before, after,
        "resuming without --config changed the run's settings"
    );
    for (key, want) in [
        ("eval_agent", serde_json::json!("greedy")),
        ("eval_games", serde_json::json!(6)),
        ("checkpoint_every_s", serde_json::json!(1000.0)),
        ("selfplay_threads", serde_json::json!(1)),
        ("lr", serde_json::json!(0.003)),
    ] {
        assert_eq!(after[key], want, "{key} after resume");
    }

    // A setting that may change when resuming: taken.
    let watched = ayo(&[
        "train",
        "--out",
        run_s,
        "--resume",
        "--iterations",
        "1",
        "--eval-games",
        "4",
    ]);
    assert!(watched.status.success(), "{}", text(&watched));
    assert_eq!(saved_config(&run)["eval_games"], serde_json::json!(4));

    // A setting that changes the run: refused, naming the flag, and nothing written.
    let changed = ayo(&[
        "train",
        "--out",
        run_s,
        "--resume",
        "--iterations",
        "1",
        "--lr",
        "0.01",
    ]);
    assert!(!changed.status.success(), "--lr with --resume was accepted");
    let message = text(&changed);
    assert!(
        message.contains("lr = 0.01") && message.contains("lr = 0.003"),
        "the refusal should name the flag and both values: {message}"
    );
    assert_eq!(saved_config(&run)["lr"], serde_json::json!(0.003));
}

#[test]
fn tournament_of_a_run_uses_the_runs_variant_options() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("tiny.toml");
    let tiny = TINY
        .replace(
            "variant = \"ayo\"",
            "variant = \"ncho\"\noptions = \"episode=match\"",
        )
        .replace("max_plies = 40", "max_plies = 60");
    std::fs::write(&config, tiny).unwrap();
    let run = tmp.path().join("run");
    let run_s = run.to_str().unwrap();
    let trained = ayo(&[
        "train",
        "--config",
        config.to_str().unwrap(),
        "--out",
        run_s,
        "--iterations",
        "20",
    ]);
    assert!(trained.status.success(), "{}", text(&trained));
    let rated = ayo(&[
        "tournament",
        "--run",
        run_s,
        "--players",
        "random",
        "--games",
        "2",
        "--sims",
        "2",
        "--max-plies",
        "60",
    ]);
    let out = text(&rated);
    assert!(rated.status.success(), "{out}");
    assert!(
        out.contains("episode=match"),
        "the tournament should play the run's options: {out}"
    );
}
