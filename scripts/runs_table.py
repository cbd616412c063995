"""Every training run of one variant in one table: what each run changed against the shipped
run's config, how long it trained on how many positions, and how its network played against
`mcts:1000` and `alphabeta:6` — for the fours games (ncho, adi, jerin) in whole matches
(match.csv and match-seed2.csv pooled, as the models table does), for the others in games
(final.csv and final-seed2.csv) — best first. It is the record of what was tried for a variant,
read off the run folders themselves rather than retold.

    python3 scripts/runs_table.py jerin                      # one variant's table, markdown on stdout
    python3 scripts/runs_table.py > experiments/RUNS.md      # every variant's, under a heading each

A run folder is a folder experiments/<variant>-* whose config.toml names the variant; one
without evaluate-run.sh's measurements (stopped, measured otherwise before that script, or not
yet evaluated) is listed last, its cells dashed: its RESULTS.md says what became of it. Keys the run's
config lacks were not yet keys when it was trained (the run behaved as their default then).
Figures are those measured when the run was evaluated: the date column is the commit that
added its measurements (the baselines changed on 2026-11-25, see experiments/HISTORY.md).
"""

import math
import pathlib
import statistics
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


def measured(run, variant):
    """The run's network against each agent, pooled over both sets of openings: whole matches
    for the fours games, games for the others."""
    stem = "match" if variant in MATCH_VARIANTS else "final"
    return pooled(rows(run / f"{stem}.csv"), rows(run / f"{stem}-seed2.csv"))


def commit_date(run, variant):
    """The day of the commit that last changed the run's measurements ("—" outside git)."""
    stem = "match" if variant in MATCH_VARIANTS else "final"
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs", "--", f"{stem}.csv"], cwd=run,
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        out = ""
    return out or "—"


def cell(r):
    """W-D-L, % wins and the number of games of one agent's pooled row; "—" if not measured."""
    if not r:
        return "—"
    return f"{r['wins']}-{r['draws']}-{r['losses']} ({pct(r['wins'] / r['games'])} % of {r['games']})"


def spread(variant, experiments=None):
    """How far the runs' figures against `mcts:1000` spread, next to the noise of one
    measurement: over the runs measured on the most common number of games (at least three
    runs), their mean share of wins, its standard deviation, and the binomial standard error of
    one measurement of that many games at that mean. A spread no wider than that error says no
    run's change moved the figure beyond what measuring it again would. None with fewer runs."""
    experiments = experiments or ROOT / "experiments"
    measured_runs = [m for run in experiments.glob(f"{variant}-*") if config(run).get("variant") == variant
                     and (m := measured(run, variant).get("mcts:1000"))]
    if not measured_runs:
        return None
    games = statistics.mode(m["games"] for m in measured_runs)
    wins = [m["wins"] / games for m in measured_runs if m["games"] == games]
    if len(wins) < 3:
        return None
    mean = statistics.mean(wins)
    return (f"The {len(wins)} runs measured on {games} against `mcts:1000`: mean {pct(mean)} % wins, standard "
            f"deviation {100 * statistics.stdev(wins):.1f} points, best {pct(max(wins))} %, worst {pct(min(wins))} %; "
            f"one measurement of {games} at {pct(mean)} % has a binomial standard error of "
            f"{100 * math.sqrt(mean * (1 - mean) / games):.1f} points.")


def run_rows(variant, experiments=None):
    """One (sort key, markdown row) per run folder of the variant."""
    experiments = experiments or ROOT / "experiments"
    shipped_run = SHIPPED[variant][1]
    base = config(experiments / shipped_run)
    out = []
    for run in sorted(experiments.glob(f"{variant}-*")):
        cfg = config(run)
        if cfg.get("variant") != variant:
            continue
        by_agent = measured(run, variant)
        m, a = by_agent.get("mcts:1000"), by_agent.get("alphabeta:6")
        first = next((r for r in rows(run / ("match.csv" if variant in MATCH_VARIANTS else "final.csv")).values()), None)
        minutes = f"{float(first['wall_time_s']) / 60:.0f}" if first else "—"
        positions = f"{int(first['positions']) / 1e6:.1f} M" if first else "—"
        name = f"[`{run.name}`]({run.name}/)"
        if run.name == shipped_run:
            name += " **(shipped)**"
            what = "the shipped config"
        else:
            what = changes(cfg, base)
        key = (m is None, -(m["wins"] / m["games"]) if m else 0, run.name)
        date = commit_date(run, variant) if by_agent else "— (see its RESULTS.md)"
        row = f"| {name} | {what} | {minutes} | {positions} | {cell(m)} | {cell(a)} | {date} |"
        out.append((key, row))
    return sorted(out)


def table(variant):
    """The markdown table of one variant's runs."""
    games = "whole matches" if variant in MATCH_VARIANTS else "games"
    lines = [f"| run | changed against the shipped run | minutes | positions | {games} vs `mcts:1000` | {games} vs `alphabeta:6` | measured |",
             "|---|---|---|---|---|---|---|"]
    summary = spread(variant)
    return "\n".join(lines + [row for _, row in run_rows(variant)] + ([f"\n{summary}"] if summary else []))


PREAMBLE = """# Every training run, variant by variant

Made by `python3 scripts/runs_table.py > experiments/RUNS.md` from the run folders themselves:
for each run, what its config changed against the shipped run's (`before` lists keys that did
not exist yet when it was trained), its minutes and positions, and its network at 32 simulations
against the two baselines, best first: whole matches for the fours games (both sets of 200
openings where measured), games for the others. A figure is what was measured when the run was
evaluated (the `measured` column: the commit that added it); the baselines were mended on
2026-11-25 and alpha-beta's table key on 2026-11-29 (experiments/HISTORY.md), so older rows
were measured against slightly different opponents. The narrative is in HISTORY.md and each
`experiments/<variant>.toml`."""


def main(argv):
    variants = argv[1:]
    unknown = [v for v in variants if v not in SHIPPED]
    if unknown:
        print(f"runs_table.py: unknown variant {unknown[0]!r}; expected one of {', '.join(SHIPPED)}", file=sys.stderr)
        return 2
    if variants:
        print("\n\n".join(table(v) for v in variants))
    else:
        print(PREAMBLE)
        for v in SHIPPED:
            print(f"\n## {v}\n\n{table(v)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
