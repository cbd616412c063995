//! Smoke test of `ayo bench` with a tiny budget.

use std::process::Command;

#[test]
fn bench_prints_every_figure() {
    let out = Command::new(env!("CARGO_BIN_EXE_ayo"))
        .args([
            "bench",
            "--variant",
            "oware",
            "--envs",
            "16",
            "--threads",
            "1",
        ])
        .args(["--seconds", "0.05"])
        .output()
        .expect("ayo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "scalar engine, random self-play",
        "VecEnv, random actions, observations + masks, 16 games, 1 threads",
        "bytes per game: state ",
        "alphabeta:8 from the start position",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
}
