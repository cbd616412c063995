#!/usr/bin/env bash
# The main job on defaults: installs what it needs, builds the `ayo` binary, and (until the
# trainer lands) demonstrates the rules engine: a perft count and a replayed game.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup-venv.sh
source scripts/env.sh
cargo build --release -p ayo-train
AYO=target/release/ayo

$AYO rules oware
echo "perft oware depth 7:"; $AYO perft --variant oware --depth 7
