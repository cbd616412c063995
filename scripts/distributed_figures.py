#!/usr/bin/env python3
"""Throughput figures of scripts/distributed-compare.sh: for each run folder under
experiments/studies/distributed/, the positions played per second and the learner's training samples
per second, from the run's final `saved ...` line (positions, steps, seconds) and its config's
batch size. Prints a Markdown table."""

import pathlib
import re
import sys
import tomllib

BASE = pathlib.Path(__file__).resolve().parents[1] / "experiments" / "studies" / "distributed"
SAVED = re.compile(r"saved \S+ \(step (\d+), (\d+) games, (\d+) positions, (\d+) s of training\)")


def figures(name: str) -> tuple[int, int, int, int, float, float]:
    log = (BASE / f"{name}.log").read_text()
    step, games, positions, seconds = map(int, SAVED.findall(log)[-1])
    batch = tomllib.loads((BASE / name / "config.toml").read_text())["batch_size"]
    return step, games, positions, seconds, positions / seconds, step * batch / seconds


def main(names: list[str]) -> None:
    print("| run | seconds | games | positions | positions/s | training samples/s |")
    print("|---|---|---|---|---|---|")
    for name in names:
        step, games, positions, seconds, pps, sps = figures(name)
        print(f"| {name} | {seconds} | {games:,} | {positions:,} | {pps:,.0f} | {sps:,.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["throughput-inprocess", "throughput-1worker", "throughput-2workers"])
