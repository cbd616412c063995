//! Differential test of `oware@1` against OpenSpiel's `oware` (docs/rules.md 2: move-for-move
//! identical). `tests/openspiel/oware_traces.py` plays seeded random games with pyspiel and
//! writes the board, scores, player to move, legal actions, terminal flag and returns after every
//! move; each game is replayed here through `ayo_env` and compared after every move.
//!
//! * `committed_openspiel_traces_agree` replays `tests/data/openspiel/oware_traces.jsonl` (50 games
//!   generated once with open_spiel 2.0.2, seeds 0..50) and always runs.
//! * `fresh_openspiel_traces_agree_over_1000_random_games` runs the script itself with the
//!   project's Python (see `common::traces::project_python`). Without a Python that imports
//!   `pyspiel` it fails (`scripts/test.sh` installs `open_spiel`).
//! * `fresh_openspiel_traces_agree_with_3_and_5_seeds_per_pit` does the same for the `seeds`
//!   option (OpenSpiel's `num_seeds_per_house`).

mod common;
use common::traces::*;

/// Games the fresh run must cover (the acceptance criterion).
const FRESH_GAMES: usize = 1000;

#[test]
fn committed_openspiel_traces_agree() {
    let a = replay_traces(
        "oware@1",
        include_str!("../data/openspiel/oware_traces.jsonl"),
    );
    eprintln!("committed OpenSpiel traces: {a:?} agree after every move");
    assert_eq!(a.games, 50);
    assert_eq!(a.terminal_games, a.games);
}

/// Plays `games` fresh OpenSpiel games with `seeds` per pit and compares them.
fn fresh_games(games: usize, seeds: u8) {
    let py = match python_importing(project_python(), "pyspiel") {
        Ok(py) => py,
        Err(why) => cannot_run(
            "the differential test against OpenSpiel",
            &format!("{why} (pip install open_spiel; scripts/setup-venv.sh does)"),
        ),
    };
    // Seeds 1000.. so that the fresh games differ from the committed ones (seeds 0..50).
    let (n, s) = (games.to_string(), seeds.to_string());
    let text = run_trace_script(
        &py,
        "openspiel/oware_traces.py",
        &["--games", &n, "--first-seed", "1000", "--seeds", &s],
        &format!("openspiel_oware_traces_{seeds}.jsonl"),
    );
    let a = replay_traces("oware@1", &text);
    eprintln!("fresh OpenSpiel traces, {seeds} seeds per pit: {a:?} agree after every move");
    assert_eq!(a.games, games);
    assert_eq!(a.terminal_games, a.games);
}

#[test]
fn fresh_openspiel_traces_agree_over_1000_random_games() {
    fresh_games(FRESH_GAMES, 4);
}

#[test]
fn fresh_openspiel_traces_agree_with_3_and_5_seeds_per_pit() {
    fresh_games(200, 3);
    fresh_games(200, 5);
}
