#!/usr/bin/env python3
"""Keeps a run folder lean before it is committed: of its numbered checkpoints, the last one and
the two nearest 10 and 30 minutes of training; `latest.*` (a copy of the last) and the rest are
removed (the learning curve CSV keeps what was measured of them). Tracked files are removed with
`git rm`, untracked ones deleted. A run with no numbered checkpoint is left as it is: its
`latest.*`, if any, is then its only copy of the weights.

    python3 scripts/prune_checkpoints.py experiments/runs/ncho-1h [more run folders...]
"""
import json
import subprocess
import sys
from pathlib import Path


def keep(run: Path) -> set:
    steps = sorted(run.glob("checkpoints/step-*.ot"))
    if not steps:
        return set()
    wall = {p: json.loads(p.with_suffix(".json").read_text())["wall_time_s"] for p in steps}
    kept = {steps[-1]}
    for minutes in (10, 30):
        kept.add(min(steps, key=lambda p: abs(wall[p] - 60 * minutes)))
    return kept


def main() -> None:
    for arg in sys.argv[1:]:
        run = Path(arg)
        kept = keep(run)
        if not kept:
            print(f"{run}: no numbered checkpoint; nothing removed")
            continue
        gone = [
            p
            for p in sorted(run.glob("checkpoints/*.ot")) + sorted(run.glob("checkpoints/*.json"))
            if p.with_suffix(".ot") not in kept
        ]
        for p in gone:
            tracked = subprocess.run(
                ["git", "ls-files", "--error-unmatch", str(p)], capture_output=True
            ).returncode == 0
            if tracked:
                subprocess.run(["git", "rm", "-q", str(p)], check=True)
            else:
                p.unlink()
        print(f"{run}: kept {', '.join(p.name for p in sorted(kept))}; removed {len(gone)} files")


if __name__ == "__main__":
    main()
