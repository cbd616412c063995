"""Shared helpers of the result scripts' tests: a throwaway copy of the repository's layout.

The scripts find models/ and experiments/ from their own location (ROOT = the folder above
scripts/), so the tests that run them end to end copy them into tmp_path/scripts and build
tmp_path/models and tmp_path/experiments there: the scripts run end to end read only that copy,
and nothing under the real models/ or experiments/ is written (importing models_table for its
pure functions and VARIANTS reads the real models/shipped.json).
"""

import csv
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

SCRIPTS = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SCRIPTS))  # the pure functions are imported from the real scripts

from models_table import VARIANTS  # noqa: E402
CSV_FIELDS = ["checkpoint", "step", "wall_time_s", "positions", "agent", "simulations", "games", "wins",
              "draws", "losses", "score", "distinct", "truncated", "pairs_won_both", "pairs_split", "pairs_lost_both",
              "wins_south", "wins_north"]


@pytest.fixture
def repo(tmp_path):
    """tmp_path laid out as the repository: the result scripts in scripts/, a models/shipped.json
    naming `<variant>/<variant>-1h.ot` trained by experiments/runs/<variant>-1h for every variant."""
    (tmp_path / "scripts").mkdir()
    for name in ("ship_run.py", "models_table.py", "tournament_table.py", "runs_table.py"):
        shutil.copy(SCRIPTS / name, tmp_path / "scripts" / name)
    (tmp_path / "models").mkdir()
    shipped = {v: {"model": f"{v}/{v}-1h.ot", "run": f"experiments/runs/{v}-1h"} for v in VARIANTS}
    (tmp_path / "models" / "shipped.json").write_text(json.dumps(shipped))
    return tmp_path


def run_script(root, name, *args):
    """Runs root/scripts/<name> with the given arguments from root; returns its stdout."""
    done = subprocess.run([sys.executable, str(root / "scripts" / name), *map(str, args)], cwd=root,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def write_csv(path, rows, fields=CSV_FIELDS):
    """Writes dict rows (missing fields empty) as a CSV file with a header."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        w.writerows(rows)


def result(agent, games, wins, draws, losses, score, distinct=None, truncated=0, **extra):
    """One row of final.csv / match.csv / learning_curve.csv as `ayo evaluate` writes it."""
    return dict(agent=agent, simulations=32, games=games, wins=wins, draws=draws, losses=losses, score=score,
                distinct=games if distinct is None else distinct, truncated=truncated, **extra)


def write_checkpoints(run, minutes, meta=None):
    """checkpoints/step-*.ot (+ .json) of a run, one per wall time in `minutes` (steps 100, 200,
    ...), and latest.ot/.json as a copy of the last; returns the numbered .ot paths."""
    ckpt = run / "checkpoints"
    ckpt.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, m in enumerate(minutes):
        step = 100 * (i + 1)
        p = ckpt / f"step-{step:07d}.ot"
        p.write_bytes(b"weights %d" % step)
        p.with_suffix(".json").write_text(json.dumps({**(meta or {}), "step": step, "wall_time_s": 60.0 * m}))
        paths.append(p)
    if paths:
        shutil.copy(paths[-1], ckpt / "latest.ot")
        shutil.copy(paths[-1].with_suffix(".json"), ckpt / "latest.json")
    return paths
