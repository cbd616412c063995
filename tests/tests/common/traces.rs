//! Replaying move-by-move traces written by a reference implementation (OpenSpiel's `oware`,
//! `tests/reference/two_row.py`) and finding the Python that writes them.

use ayo_env::{Player, Rules, Variant};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Agreement figures of one comparison run.
#[derive(Debug, Default)]
pub struct Agreement {
    pub games: usize,
    pub moves: usize,
    pub terminal_games: usize,
}

fn as_ints(v: &Value, what: &str) -> Vec<i64> {
    v.as_array()
        .unwrap_or_else(|| panic!("trace field {what} is not an array: {v}"))
        .iter()
        .map(|x| {
            x.as_i64()
                .unwrap_or_else(|| panic!("{what}: {x} is not an integer"))
        })
        .collect()
}

/// Compares our state with one trace step; `Err` describes every field that differs.
fn compare_step(v: &Variant, s: &<Variant as Rules>::State, step: &Value) -> Result<(), String> {
    let mut diffs = Vec::new();
    let board: Vec<i64> = v.snapshot(s).pits.iter().map(|&x| x as i64).collect();
    if board != as_ints(&step["board"], "board") {
        diffs.push(format!("board {:?} vs reference {}", board, step["board"]));
    }
    let scores: Vec<i64> = v.scores(s).iter().map(|&x| x as i64).collect();
    if scores != as_ints(&step["scores"], "scores") {
        diffs.push(format!(
            "scores {:?} vs reference {}",
            scores, step["scores"]
        ));
    }
    let to_move = v.to_play(s).map(|p| p.index() as i64);
    if to_move != step["to_move"].as_i64() {
        diffs.push(format!(
            "to move {:?} vs reference {}",
            to_move, step["to_move"]
        ));
    }
    let legal: Vec<i64> = v.legal_actions(s).iter().map(|&a| a as i64).collect();
    if legal != as_ints(&step["legal"], "legal") {
        diffs.push(format!("legal {:?} vs reference {}", legal, step["legal"]));
    }
    if Some(v.is_terminal(s)) != step["terminal"].as_bool() {
        diffs.push(format!(
            "terminal {} vs reference {}",
            v.is_terminal(s),
            step["terminal"]
        ));
    }
    let returns: Vec<i64> = v.returns(s).iter().map(|&r| r as i64).collect();
    if returns != as_ints(&step["returns"], "returns") {
        diffs.push(format!(
            "returns {:?} vs reference {}",
            returns, step["returns"]
        ));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

/// The variant of a trace line: its `variant` and `options` fields, else `default`.
fn variant_of(game: &Value, default: &str) -> Variant {
    let spec = game["variant"].as_str().unwrap_or(default);
    let options: Vec<(String, String)> = game["options"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    Variant::new(spec, &options).unwrap_or_else(|e| panic!("trace names {spec} {options:?}: {e}"))
}

/// Replays every game of a JSON-lines trace (South first) and compares after every move; panics
/// at the first disagreement, naming the game's seed, the ply and the moves that led there.
pub fn replay_traces(default_variant: &str, text: &str) -> Agreement {
    let mut agreement = Agreement::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let game: Value = serde_json::from_str(line).expect("a trace line is one JSON object");
        let v = variant_of(&game, default_variant);
        let seed = &game["seed"];
        let label = format!("{} {:?} game seed {seed}", v.id(), v.options());
        let mut s = v.start(Player::South);
        let mut actions = Vec::new();
        if let Err(d) = compare_step(&v, &s, &game["start"]) {
            panic!("{label}: start position differs: {d}");
        }
        let steps = game["steps"].as_array().expect("steps is an array");
        for (ply, step) in steps.iter().enumerate() {
            let action = step["action"].as_u64().expect("a step names its action") as u8;
            v.play(&mut s, action).unwrap_or_else(|e| {
                panic!("{label}: the reference's move {} (action {action}) after {actions:?} is refused: {e}", ply + 1)
            });
            actions.push(action);
            if let Err(d) = compare_step(&v, &s, step) {
                panic!(
                    "{label}: after move {} (actions {actions:?}): {d}\nour position: {}",
                    ply + 1,
                    v.notation(&s)
                );
            }
            agreement.moves += 1;
        }
        agreement.games += 1;
        agreement.terminal_games += v.is_terminal(&s) as usize;
    }
    agreement
}

/// The project's Python, if one is found: `$AYO_PYTHON`, else `$VIRTUAL_ENV/bin/python` (set by
/// `scripts/env.sh`), else `.venv/bin/python` at the repository root or, in a git worktree, at
/// the main checkout's root.
pub fn project_python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("AYO_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let candidates = [
        std::env::var_os("VIRTUAL_ENV").map(|v| PathBuf::from(v).join("bin/python")),
        Some(root.join(".venv/bin/python")),
        main_checkout(root).map(|main| main.join(".venv/bin/python")),
    ];
    candidates.into_iter().flatten().find(|p| p.exists())
}

/// In a `git worktree`, `.git` is a file `gitdir: <main>/.git/worktrees/<name>`.
fn main_checkout(root: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(root.join(".git")).ok()?;
    let gitdir = PathBuf::from(text.strip_prefix("gitdir:")?.trim());
    Some(gitdir.ancestors().nth(3)?.to_path_buf())
}

/// `python` if it runs and imports `module` (e.g. `"json"`, `"pyspiel"`), else why not.
pub fn python_importing(python: Option<PathBuf>, module: &str) -> Result<PathBuf, String> {
    let py = python.ok_or_else(|| {
        "no Python found (set AYO_PYTHON, source scripts/env.sh, or run scripts/setup-venv.sh)"
            .to_string()
    })?;
    let ok = Command::new(&py)
        .args(["-c", &format!("import {module}")])
        .output()
        .map_err(|e| format!("{} cannot be run: {e}", py.display()))?;
    if !ok.status.success() {
        return Err(format!(
            "{} cannot import {module}: {}",
            py.display(),
            String::from_utf8_lossy(&ok.stderr).trim()
        ));
    }
    Ok(py)
}

/// Fails a test that cannot run (no skipping: `scripts/test.sh` installs what every test
/// needs, `scripts/setup-venv.sh` the Python with `open_spiel`).
pub fn cannot_run(what: &str, why: &str) -> ! {
    panic!("{what} cannot run: {why} (run scripts/setup-venv.sh, or set AYO_PYTHON)");
}

/// Runs a trace-writing script with `args` and returns what it wrote to `out_name` (a file in
/// the test's scratch directory).
pub fn run_trace_script(py: &Path, script: &str, args: &[&str], out_name: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(script);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(out_name);
    let status = Command::new(py)
        .arg(&script)
        .args(args)
        .arg("--out")
        .arg(&out)
        .status()
        .expect("the trace script runs");
    assert!(
        status.success(),
        "{} {args:?} failed: {status}",
        script.display()
    );
    std::fs::read_to_string(&out).expect("the trace script wrote its output")
}
