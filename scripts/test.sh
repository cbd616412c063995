#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what it needs (the project
# virtualenv with torch==2.13.0 for libtorch, numpy, pytest, gymnasium, pettingzoo, open_spiel;
# cargo-fuzz for the fuzz targets), checks formatting, lints and docs, then runs the Rust
# workspace's tests (rules, perft, conformance, OpenSpiel differential, env, agents, training,
# tournaments, CLI, `ayo serve` in a headless browser — chromium and chromedriver installed by
# apt when missing) in the release profile — the main job's, so the workspace compiles once for
# both — a short run of every fuzz target, the result scripts' tests (scripts/tests) and the
# Python package's tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The headless browser of the end-to-end test of `ayo serve`: training/tests/serve_browser.rs
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
# cargo-fuzz, for the fuzz targets' short run at the end, builds in the background too.
fuzz_log="$(mktemp)"
(cargo fuzz --version > /dev/null 2>&1 || cargo install cargo-fuzz --locked) > "$fuzz_log" 2>&1 &
cargo_fuzz=$!

# Waits for the background install PID, shows its LOG, and stops the run if it failed.
await_install() {
    local pid="$1" log="$2" what="$3"
    if ! wait "$pid"; then
        cat "$log"
        echo "test.sh: installing $what failed" >&2
        exit 1
    fi
    cat "$log"
}

bash scripts/setup-venv.sh
source scripts/env.sh

echo "== cargo fmt --check =="
cargo fmt --all --check

echo "== cargo clippy (warnings are errors) =="
cargo clippy --release --workspace --all-targets -- -D warnings

echo "== cargo doc (warnings are errors) =="
RUSTDOCFLAGS="-D warnings" cargo doc --release --workspace --no-deps --quiet

echo "== headless browser for the end-to-end test of ayo serve =="
await_install "$browser" "$browser_log" "chromium and chromium-driver"

echo "== cargo test (workspace, release profile) =="
cargo test --release --workspace --no-fail-fast

echo "== cargo test: the training library without libtorch (what the Python package links) =="
cargo test --release -p ayo-train --no-default-features --lib

await_install "$cargo_fuzz" "$fuzz_log" "cargo-fuzz"
if [ -f scripts/fuzz.sh ]; then
    echo "== fuzz targets, short run =="
    bash scripts/fuzz.sh short
fi

echo "== result scripts' tests (scripts/tests) =="
# ship_run, prune_checkpoints, models_table, tournament_table and runs_table on hand-made run folders in a
# temporary copy of the repository's layout.
VENV_PY="${AYO_VENV:-$PWD/.venv}/bin/python"
"$VENV_PY" -m pytest -q scripts/tests

echo "== python package tests =="
bash scripts/test-python.sh
