#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what it needs (the project
# virtualenv with torch==2.13.0 for libtorch, numpy, pytest, gymnasium, pettingzoo, open_spiel;
# cargo-fuzz for the fuzz targets), checks formatting, lints and docs, then runs the Rust
# workspace's tests (rules, perft, conformance, OpenSpiel differential, env, agents, training,
# tournaments, CLI, `ayo serve` in a headless browser — chromium and chromedriver installed by
# apt when missing) in the release profile — the main job's, so the workspace compiles once for
# both — a short run of every fuzz target, the result scripts' tests (scripts/tests) and the
# Python package's tests.
#
# On two cores the run is bound by the processor, so work that leaves a core idle runs beside
# other work: the fuzz targets build and run while the workspace's tests run (many of them wait
# on a process or hold one core). The training library without libtorch is what the Python
# package links: its build there compiles it, and its unit tests are the same as with libtorch.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Each stage's heading carries the seconds since the start, and the run ends with a table of
# them (docs/performance.md keeps the figures).
stage_names=() stage_starts=()
stage() {
    stage_names+=("$1") stage_starts+=("$SECONDS")
    echo "== [${SECONDS} s] $1 =="
}
stage_table() {
    local i next
    echo "== stages (seconds) =="
    for i in "${!stage_names[@]}"; do
        next="${stage_starts[$((i + 1))]:-$SECONDS}"
        printf '%6d  %s\n' "$((next - stage_starts[i]))" "${stage_names[i]}"
    done
    printf '%6d  whole run\n' "$SECONDS"
}

# The headless browser of the end-to-end test of `ayo serve`: training/tests/integration/serve_browser.rs
# drives Debian's chromium through chromedriver and fails (rather than skips) without them.
# apt installs them in the background while the virtualenv is set up and the code is linted.
install_browser() {
    if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
        echo "chromium and chromedriver present"
    else
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver
    fi
}
browser_log="$(mktemp)"
install_browser > "$browser_log" 2>&1 &
browser=$!
# cargo-fuzz, for the fuzz targets' short run beside the workspace's tests, builds in the
# background too.
fuzz_log="$(mktemp)"
(cargo fuzz --version > /dev/null 2>&1 || cargo install cargo-fuzz --locked) > "$fuzz_log" 2>&1 &
cargo_fuzz=$!

# cargo-nextest (on this machine's toolchain already; built when missing) runs the tests.
nextest_log="$(mktemp)"
(cargo nextest --version > /dev/null 2>&1 || cargo install cargo-nextest --locked) > "$nextest_log" 2>&1 &
nextest=$!

# Waits for the background job PID, shows its LOG, and stops the run if WHAT failed.
await_job() {
    local pid="$1" log="$2" what="$3"
    local status=0
    wait "$pid" || status=$?
    cat "$log"
    if [ "$status" -ne 0 ]; then
        echo "test.sh: $what failed (exit $status)" >&2
        exit 1
    fi
}

# Stops the background jobs still running when the run ends early (a failed step).
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

# The virtualenv (libtorch for torch-sys' build script) is set up while cargo fetches the crates
# and checks the formatting.
stage "virtualenv, with cargo fetch and cargo fmt --check beside it"
venv_log="$(mktemp)"
bash scripts/setup-venv.sh > "$venv_log" 2>&1 &
venv=$!
cargo fetch --quiet
cargo fmt --all --check
await_job "$venv" "$venv_log" "setting up the virtualenv"
source scripts/env.sh

stage "cargo clippy (warnings are errors)"
cargo clippy --release --workspace --all-targets -- -D warnings

stage "cargo doc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --release --workspace --no-deps --quiet

stage "headless browser for the end-to-end test of ayo serve"
await_job "$browser" "$browser_log" "installing chromium and chromium-driver"

stage "cargo test (workspace, release profile): build"
cargo test --release --workspace --no-run

await_job "$cargo_fuzz" "$fuzz_log" "installing cargo-fuzz"
stage "fuzz targets, short run: in the background while the tests run"
fuzz_run_log="$(mktemp)"
bash scripts/fuzz.sh short > "$fuzz_run_log" 2>&1 &
fuzz_run=$!

# cargo-nextest runs the tests of every test binary in one pool, so that a binary whose last
# long test holds one core does not keep the other idle; the doc tests run with cargo test.
stage "cargo nextest (workspace, release profile)"
await_job "$nextest" "$nextest_log" "installing cargo-nextest"
cargo nextest run --release --workspace --no-fail-fast
stage "doc tests"
cargo test --release --workspace --doc

stage "result scripts' tests (scripts/tests)"
# ship_run, models_table, tournament_table and runs_table on hand-made run folders in a temporary
# copy of the repository's layout.
VENV_PY="${AYO_VENV:-$PWD/.venv}/bin/python"
"$VENV_PY" -m pytest -q scripts/tests

stage "python package tests"
bash scripts/test-python.sh
stage "fuzz targets, short run (ran beside the workspace's tests)"
await_job "$fuzz_run" "$fuzz_run_log" "the fuzz targets' short run"
stage_table
