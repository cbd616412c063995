//! `ayo train` from the command line: resuming keeps the run's own settings and refuses flags
//! that would change the run.

use std::path::{Path, PathBuf};
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

/// A new temporary folder with `config` written in it as `tiny.toml`: the folder (removed when
/// dropped), the config file and the run's folder to be.
fn tiny_folder(config: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("tiny.toml");
    std::fs::write(&file, config).unwrap();
    let run = tmp.path().join("run");
    (tmp, file, run)
}

/// The configuration saved with the run's newest checkpoint.
fn saved_config(dir: &Path) -> serde_json::Value {
    let meta = std::fs::read_to_string(dir.join("checkpoints/latest.json")).expect("metadata");
    serde_json::from_str::<serde_json::Value>(&meta).expect("JSON")["config"].clone()
}

#[test]
fn resume_keeps_the_saved_settings_and_refuses_changes() {
    let (_tmp, config, run) = tiny_folder(TINY);
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

/// `ayo train --variant V` without `--config` trains with V's tuned config
/// (`experiments/V.toml`), the flags given still winning: every key of the file (read here
/// from disk) is the run's saved setting unless a flag set it.
#[test]
fn a_new_run_without_config_trains_with_its_variants_tuned_config() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let out = ayo(&[
        "train",
        "--variant",
        "ncho",
        "--games",
        "2",
        "--width",
        "16",
        "--blocks",
        "1",
        "--out",
        run.to_str().unwrap(),
        "--iterations",
        "2",
    ]);
    let printed = text(&out);
    assert!(out.status.success(), "{printed}");
    assert!(printed.contains("experiments/ncho.toml"), "{printed}");
    // The saved config and the file, both as the config type reads them (`lookahead = true`
    // is 1 plies; a float is compared at the config's own precision).
    use ayo_train::config::TrainConfig;
    let saved: TrainConfig = serde_json::from_value(saved_config(&run)).unwrap();
    let saved = serde_json::to_value(saved).unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments/ncho.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let tuned: toml::Table = toml::from_str(&text).unwrap();
    // The file's values as the config reads them (`lookahead = true` is 1 plies).
    let read =
        serde_json::to_value(ayo_train::config::TrainConfig::from_toml(&text).unwrap()).unwrap();
    for key in tuned.keys() {
        let want = match key.as_str() {
            "games" => serde_json::json!(2),
            "width" => serde_json::json!(16),
            "blocks" => serde_json::json!(1),
            _ => read[key].clone(),
        };
        assert_eq!(saved[key], want, "{key}");
    }
    assert_eq!(saved["options"], serde_json::json!("episode=match"));
}

#[test]
fn tournament_of_a_run_uses_the_runs_variant_options() {
    let tiny = TINY
        .replace(
            "variant = \"ayo\"",
            "variant = \"ncho\"\noptions = \"episode=match\"",
        )
        .replace("max_plies = 40", "max_plies = 60");
    let (_tmp, config, run) = tiny_folder(&tiny);
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

/// Training killed with SIGKILL at random moments (while it plays, trains or writes a
/// checkpoint) always resumes from its last complete checkpoint: the step never goes back, the
/// checkpoint and the resume state load, and no temporary file is taken for a checkpoint.
#[test]
fn sigkill_at_random_moments_always_resumes() {
    use rand::{Rng, SeedableRng};
    let tiny = TINY.replace("checkpoint_every_s = 1000.0", "checkpoint_every_s = 0.05");
    let (_tmp, config, run) = tiny_folder(&tiny);
    let run_s = run.to_str().unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut last_step = 0u64;
    let mut resumed = 0;
    for round in 0..6 {
        let resume = run.join("resume.ot").exists();
        let mut args = vec!["train", "--out", run_s];
        if resume {
            args.push("--resume");
        } else {
            args.extend(["--config", config.to_str().unwrap()]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_ayo"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("ayo runs");
        let wait = rng.gen_range(300..1500);
        std::thread::sleep(std::time::Duration::from_millis(wait));
        child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
        child.wait().unwrap();
        if !run.join("resume.ot").exists() {
            assert!(!resume, "round {round}: the resume state vanished");
            continue;
        }
        // The state left behind loads and continues.
        let out = ayo(&["train", "--out", run_s, "--resume", "--iterations", "2"]);
        assert!(
            out.status.success(),
            "round {round}, killed after {wait} ms: {}",
            text(&out)
        );
        resumed += 1;
        let meta: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(run.join("checkpoints/latest.json")).unwrap(),
        )
        .unwrap();
        let step = meta["step"].as_u64().unwrap();
        assert!(
            step >= last_step,
            "round {round}: step went back from {last_step} to {step}"
        );
        last_step = step;
        let checkpoint = run.join("checkpoints/latest.ot");
        let play = ayo(&[
            "tournament",
            "--variant",
            "ayo",
            "--players",
            &format!("{}:2", checkpoint.display()),
            "random",
            "--games",
            "2",
        ]);
        assert!(play.status.success(), "round {round}: {}", text(&play));
    }
    assert!(
        resumed >= 3,
        "only {resumed} of 6 kills came after a checkpoint"
    );
    assert!(last_step > 0);
}

/// SIGINT ends training cleanly — the step finished, the run saved for `--resume`, exit status
/// 0 — even when the parent started `ayo` with SIGINT blocked: a Ray actor's thread does, the
/// blocked set outlives `exec`, and `python/ayo/ray_train.py`'s processes then ignored the
/// interrupt until they were killed a minute later.
#[test]
fn an_interrupt_saves_and_ends_training_even_when_the_parent_blocked_it() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};
    let (_tmp, config, run) = tiny_folder(TINY);
    let mut command = Command::new(env!("CARGO_BIN_EXE_ayo"));
    command
        .args(["train", "--config", config.to_str().unwrap()])
        .args(["--out", run.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            Ok(())
        });
    }
    let mut child = command.spawn().expect("ayo runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // The line that opens the training loop comes once the interrupt is handled.
    let mut log = String::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        log += &line;
        log.push('\n');
        if line.starts_with("training ") {
            break;
        }
    }
    assert!(log.contains("training "), "{log}");
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("ayo train still ran 60 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let log = log + &rest.join().unwrap().join("\n");
    assert!(status.success(), "{status}: {log}");
    assert!(
        log.contains("interrupted: finishing the step and saving"),
        "{log}"
    );
    let out = ayo(&[
        "train",
        "--out",
        run.to_str().unwrap(),
        "--resume",
        "--iterations",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out));
}

/// A tiny run trained for `iterations` in a new temporary folder: the folder (removed when
/// dropped), the config file and the run's newest checkpoint.
fn tiny_run(iterations: u32) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (tmp, config, run) = tiny_folder(TINY);
    let trained = ayo(&[
        "train",
        "--config",
        config.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--iterations",
        &iterations.to_string(),
    ]);
    assert!(trained.status.success(), "{}", text(&trained));
    (tmp, config, run.join("checkpoints/latest.ot"))
}

#[test]
fn evaluate_prints_a_table_writes_a_csv_line_per_agent_and_its_progress_on_stderr() {
    let (tmp, _, checkpoint) = tiny_run(30);
    let csv = tmp.path().join("curve.csv");
    let out = ayo(&[
        "evaluate",
        checkpoint.to_str().unwrap(),
        "--against",
        "random,greedy",
        "--eval-games",
        "6",
        "--eval-simulations",
        "3",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert!(lines[0].starts_with("checkpoint,step,"), "{written}");
    assert_eq!(lines.len(), 3, "a header and one line per agent: {written}");
    for (line, agent) in lines[1..].iter().zip(["random", "greedy"]) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[4], agent, "{line}");
        let (games, w, d, l) = (cells[6], cells[7], cells[8], cells[9]);
        assert_eq!(games, "6", "{line}");
        assert_eq!(cells.len(), lines[0].split(',').count(), "{line}");
        let pairs: u32 = cells[13..16]
            .iter()
            .map(|c| c.parse::<u32>().unwrap())
            .sum();
        assert_eq!(
            pairs, 3,
            "each of the 3 pairs won both, split or lost both: {line}"
        );
        let by_seat: u32 = cells[16..18]
            .iter()
            .map(|c| c.parse::<u32>().unwrap())
            .sum();
        assert_eq!(
            by_seat.to_string(),
            w,
            "the wins as South and as North are the wins: {line}"
        );
        // The match's last progress line on stderr carries the same W-D-L as its CSV line.
        let last = format!(
            "{} vs {agent}: {w}-{d}-{l} after 3 of 3 pairs, ",
            checkpoint.display()
        );
        assert!(
            stderr.lines().any(|s| s.starts_with(&last)),
            "no line `{last}` in stderr:\n{stderr}"
        );
        // The table on stdout has the same match: its games, W-D-L and score, and an Elo
        // inside its interval.
        let row = stdout
            .lines()
            .find(|r| r.starts_with(cells[0]) && r.contains(&format!(" {agent} ")))
            .unwrap_or_else(|| panic!("no row for {agent} in the table:\n{stdout}"));
        let cols: Vec<&str> = row
            .split(|c: char| c.is_whitespace() || c == '[' || c == ']' || c == ',')
            .filter(|c| !c.is_empty())
            .collect();
        let score = format!("{:.1}%", 100.0 * cells[10].parse::<f64>().unwrap());
        assert_eq!(
            cols[..5],
            [cells[0], agent, "6", &format!("{w}-{d}-{l}"), &score[..]],
            "{row}"
        );
        let elo: Vec<f64> = cols[5..8].iter().map(|c| c.parse().unwrap()).collect();
        assert!(elo[1] <= elo[0] && elo[0] <= elo[2], "{row}");
    }
    assert!(stdout.lines().any(|l| l.starts_with("Agent ")), "{stdout}");
    // `ayo train` no longer evaluates.
    let old = ayo(&["train", "--evaluate", checkpoint.to_str().unwrap()]);
    assert!(!old.status.success(), "{}", text(&old));
}

#[test]
fn a_checkpoint_copied_with_other_play_settings_keeps_its_weights_and_plays_with_them() {
    use ayo_train::agent::NetAgent;
    use ayo_train::checkpoint;
    let (tmp, config, original) = tiny_run(10);
    let copy = tmp.path().join("raw.ot");
    let (orig, copied) = (original.to_str().unwrap(), copy.to_str().unwrap());
    let out = ayo(&[
        "checkpoint",
        orig,
        "--eval-rescale",
        "false",
        "--eval-c-scale",
        "0.5",
        "--out",
        copied,
    ]);
    assert!(out.status.success(), "{}", text(&out));

    let (net_a, meta_a) = checkpoint::load(&original, tch::Device::Cpu).unwrap();
    let (net_b, meta_b) = checkpoint::load(&copy, tch::Device::Cpu).unwrap();
    let (vars_a, vars_b) = (net_a.vs.variables(), net_b.vs.variables());
    assert_eq!(vars_a.len(), vars_b.len());
    for (name, a) in &vars_a {
        assert!(a.equal(&vars_b[name]), "weights {name} differ");
    }
    assert_eq!(
        (meta_b.config.eval_rescale, meta_b.config.eval_c_scale),
        (Some(false), 0.5)
    );
    let mut only_play = meta_b.clone();
    only_play.config.eval_rescale = meta_a.config.eval_rescale;
    only_play.config.eval_c_scale = meta_a.config.eval_c_scale;
    assert_eq!(only_play, meta_a, "nothing but the play settings changed");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(copy.with_extension("json")).unwrap())
            .unwrap();
    assert_eq!(json["config"]["eval_rescale"], false, "{json}");

    // Every player loading the copy searches with its settings; the original as trained.
    let played = NetAgent::load(&copy, 4, 1).unwrap();
    assert!(!played.params.rescale && played.params.c_scale == 0.5);
    let as_trained = NetAgent::load(&original, 4, 1).unwrap();
    assert!(as_trained.params.rescale && as_trained.params.c_scale == meta_a.config.c_scale);

    // A training setting, settings without --out, no settings, a file that is no checkpoint:
    // refused, nothing written.
    let other = tmp.path().join("other.ot");
    let o = other.to_str().unwrap();
    for args in [
        vec!["checkpoint", orig, "--c-scale", "0.5", "--out", o],
        vec!["checkpoint", orig, "--eval-c-scale", "0.5"],
        vec!["checkpoint", orig, "--out", o],
        vec![
            "checkpoint",
            config.to_str().unwrap(),
            "--eval-c-scale",
            "0.5",
            "--out",
            o,
        ],
    ] {
        let out = ayo(&args);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(!other.exists(), "{args:?} wrote a file");
    }
    let shown = ayo(&["checkpoint", copied]);
    assert!(shown.status.success(), "{}", text(&shown));
    let meta: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(meta["config"]["eval_c_scale"], 0.5);
}

#[test]
fn a_flag_that_contradicts_another_setting_names_where_that_one_came_from() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let args = ["train", "--variant", "oware", "--simulations", "4", "--out"];
    let out = ayo(&[&args[..], &[run.to_str().unwrap()]].concat());
    assert!(!out.status.success(), "{}", text(&out));
    let expected = "simulations = 4 (--simulations) is below fast_simulations = 8 (the default): \
                    pass --fast-simulations 4 or less too";
    assert!(text(&out).contains(expected), "{}", text(&out));
    assert!(!run.exists(), "nothing written");
}
