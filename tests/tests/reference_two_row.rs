//! Differential test of `ayo@1` and `ayoayo@1` against `tests/reference/two_row.py`, a second
//! implementation written from docs/rules.md sections 3, 4 and 9 alone (no peer implements these rule
//! sets: OpenSpiel's `oware` differs in the grand slam, feeding, the end and the 5-pit limit).
//! The script plays seeded random games and writes the board, scores, player to move, legal
//! actions, terminal flag and returns after every move; each game is replayed through `ayo_env`.
//!
//! The script needs only Python's standard library: the project's Python, else `python3` on
//! `PATH`. Without one the test fails.

mod common;
use common::traces::*;
use std::path::PathBuf;

/// Random games per preset.
const GAMES: usize = 250;

fn check(variant: &str, options: &[&str], out_name: &str) {
    let python = project_python().or_else(|| Some(PathBuf::from("python3")));
    let py = match python_importing(python, "json") {
        Ok(py) => py,
        Err(why) => cannot_run("the differential test against two_row.py", &why),
    };
    let games = GAMES.to_string();
    let mut args = vec!["--variant", variant, "--games", &games];
    for o in options {
        args.extend(["--option", o]);
    }
    let text = run_trace_script(&py, "reference/two_row.py", &args, out_name);
    let a = replay_traces(variant, &text);
    eprintln!("{variant} {options:?}: {a:?} agree with two_row.py after every move");
    assert_eq!(a.games, GAMES);
    assert_eq!(a.terminal_games, a.games);
}

#[test]
fn ayo_agrees_with_the_reference_over_random_games() {
    check("ayo", &[], "reference_ayo.jsonl");
}

#[test]
fn ayo_end_both_agrees_with_the_reference_over_random_games() {
    check("ayo", &["end=both"], "reference_ayo_both.jsonl");
}

#[test]
fn ayoayo_agrees_with_the_reference_over_random_games() {
    check("ayoayo", &[], "reference_ayoayo.jsonl");
}

#[test]
fn ayoayo_unlimited_chain_agrees_with_the_reference_over_random_games() {
    check(
        "ayoayo",
        &["max_chain_pits=none"],
        "reference_ayoayo_unlimited.jsonl",
    );
}
