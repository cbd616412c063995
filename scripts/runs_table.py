"""Prints the experiments/RUNS.md row of each training run folder given, to add to its variant's
table there: what the run's config changed against the shipped run's config (the run folder
models/shipped.json names, under experiments/runs/), how long it trained on how many positions,
how its network played against `mcts:1000` and `alphabeta:6` — for the fours games (ncho, adi,
jerin) in whole matches (match.csv and match-seed2.csv pooled, as the models table does), for
the others in games (final.csv and final-seed2.csv) — the commit that added those measurements,
and where the folder is.

    python3 scripts/runs_table.py runs/jerin-try [more run folders...]

RUNS.md is a fixed table: a run that is not shipped leaves the tree once its row is written
there, and its row names the commit where its folder last lived. A run folder is one whose
config.toml names its variant; the measurements are those of scripts/evaluate-run.sh. Keys the
run's config lacks were not yet keys when it was trained (listed as `before`).
"""

import math
import pathlib
import subprocess
import sys
import tomllib

from models_table import ROOT, SHIPPED, pct, pooled, rows

# Variants measured in whole matches (their runs train and are judged on `episode = match`).
MATCH_VARIANTS = ("ncho", "adi", "jerin")


def config(run):
    """A run folder's config.toml as a dict ({} if it has none)."""
    path = run / "config.toml"
    return tomllib.loads(path.read_text()) if path.is_file() else {}


def value_text(v):
    """A config value as written in a table cell: floats to six significant digits (the
    config stores f32 values as doubles: 0.30000001192092896 reads 0.3)."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return f"{v:.6g}"
    return f'"{v}"' if isinstance(v, str) else str(v)


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-6)
    return a == b


def changes(cfg, base):
    """What `cfg` sets otherwise than `base`: `key = value` for each key whose value differs,
    and for each key `base` lacks (newer than the shipped run) that `cfg` turns on (a new lever's
    default is off: 0, false or empty); then the keys `cfg` lacks (a run older than them)."""
    changed = [f"`{k} = {value_text(v)}`" for k, v in cfg.items() if k in base and not same(v, base[k])]
    changed += [f"`{k} = {value_text(v)}`" for k, v in cfg.items() if k not in base and v]
    missing = [k for k in base if k not in cfg]
    if missing:
        changed.append("before " + ", ".join(f"`{k}`" for k in missing))
    return "; ".join(changed) or "—"


def stem(variant):
    """The measurements a run of `variant` is judged on: whole matches or games."""
    return "match" if variant in MATCH_VARIANTS else "final"


def last_commit(path, follow=False):
    """The short hash of the last commit that changed `path` ("—" if none, or outside git); with
    `follow`, of the last that wrote the file's content, through renames (a run folder moved to
    experiments/runs/ keeps the commit of its measurements)."""
    how = ["--follow", "--diff-filter=AM"] if follow else []
    try:
        out = subprocess.run(["git", "log", "-1", *how, "--format=%h", "--", path.name], cwd=path.parent,
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        out = ""
    return f"`{out}`" if out else "—"


def cell(r):
    """W-D-L, % wins and the number of games of one agent's pooled row; "—" if not measured."""
    if not r:
        return "—"
    return f"{r['wins']}-{r['draws']}-{r['losses']} ({pct(r['wins'] / r['games'])} % of {r['games']})"


def header(variant):
    """The header of a variant's table in RUNS.md."""
    games = "whole matches" if variant in MATCH_VARIANTS else "games"
    return (f"| run | changed against the shipped run | minutes | positions | {games} vs `mcts:1000` "
            f"| {games} vs `alphabeta:6` | measured at | folder |\n|---|---|---|---|---|---|---|---|")


def row(run):
    """The RUNS.md row of the run folder `run`, and its variant."""
    run = run.resolve()
    cfg = config(run)
    variant = cfg.get("variant")
    if variant not in SHIPPED:
        raise ValueError(f"{run}: its config.toml names variant {variant!r}; expected one of {', '.join(SHIPPED)}")
    shipped_run = ROOT / SHIPPED[variant][1]
    s = stem(variant)
    by_agent = pooled(rows(run / f"{s}.csv"), rows(run / f"{s}-seed2.csv"))
    m, a = by_agent.get("mcts:1000"), by_agent.get("alphabeta:6")
    first = next(iter(rows(run / f"{s}.csv").values()), None)
    minutes = f"{float(first['wall_time_s']) / 60:.0f}" if first else "—"
    positions = f"{int(first['positions']) / 1e6:.1f} M" if first else "—"
    measured = last_commit(run / f"{s}.csv", follow=True) if by_agent else "—"
    if run == shipped_run.resolve():
        name, what = f"`{run.name}` **(shipped)**", "the shipped config"
        folder = f"[`runs/{run.name}/`](runs/{run.name}/)"
    else:
        name, what = f"`{run.name}`", changes(cfg, config(shipped_run))
        folder = last_commit(run)
    return f"| {name} | {what} | {minutes} | {positions} | {cell(m)} | {cell(a)} | {measured} | {folder} |", variant


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        found = [row(pathlib.Path(arg)) for arg in argv[1:]]
    except ValueError as e:
        print(f"runs_table.py: {e}", file=sys.stderr)
        return 2
    for variant in dict.fromkeys(v for _, v in found):
        print(f"{variant}:\n\n{header(variant)}")
        print("\n".join(r for r, v in found if v == variant) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
