#!/usr/bin/env python3
"""Prints the table of the per-variant tournaments (scripts/tournament-models.sh):
Elo of each baseline relative to the variant's network (the anchor, 0), with 95 % intervals,
and each player's score. A `<variant>-match` folder (a network trained on whole matches, in a
tournament of whole matches) adds a row "<variant> (whole matches)".

    python3 scripts/tournament_table.py [experiments/studies/tournaments]
"""
import csv
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from models_table import VARIANTS  # noqa: E402
BASELINES = ["alphabeta:6", "mcts:1000", "greedy"]


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "experiments/studies/tournaments")
    out = ["| variant | network (score) | " + " | ".join(f"`{b}`: Elo [95 %], score" for b in BASELINES) + " | games |",
           "|---|---|" + "---|" * len(BASELINES) + "---|"]
    for v, folder in ((v, f) for v in VARIANTS for f in (v, f"{v}-match")):
        path = root / folder / "ratings.csv"
        if not path.is_file():
            if folder == v:
                out.append(f"| `{v}` | — |" + " — |" * len(BASELINES) + " — |")
            continue
        label = f"`{v}`" if folder == v else f"`{v}` (whole matches)"
        rows = {r["name"]: r for r in csv.DictReader(path.open())}
        net = next(r for n, r in rows.items() if n.startswith("net:"))
        base = float(net["elo"])

        def cell(r):
            e, lo, hi = (float(r[k]) - base for k in ("elo", "low", "high"))
            return f"{e:+.0f} [{lo:+.0f}, {hi:+.0f}], {100 * float(r['score']):.0f} %"

        games = sum(int(r["games"]) for r in rows.values()) // 2
        out.append(f"| {label} | `{net['name']}` ({100 * float(net['score']):.0f} %) | "
                   + " | ".join(cell(rows[b]) if b in rows else "—" for b in BASELINES) + f" | {games} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
