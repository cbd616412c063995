#!/usr/bin/env python3
"""Where a network's whole matches of a fours game are won and lost.

Reads the game records an `ayo tournament --out DIR` of one network (a `net:` player) against
one baseline wrote under DIR/games/, and prints per seat of the network (or of the player named by
`--player NAME`, e.g. `--player alphabeta:12`; "network" below means that player):
  * the first round's result (houses the network owns when round 2 begins; a match that ends in
    its first round counts 12 or 0) against the match's result;
  * the group difference the shared random opening left (the network's groups minus the
    opponent's when the first counted move is due) against the match's result.

Usage: python3 analyse.py [--player NAME] DIR [DIR ...]
"""
import argparse
import collections
import glob
import json


def games(folder, player=None):
    for path in sorted(glob.glob(folder + "/games/*.json")):
        with open(path) as f:
            g = json.load(f)
        if player is None:
            net = next(i for i, s in enumerate(g["seats"]) if s.startswith("net:"))
        else:
            net = g["seats"].index(player)
        yield net, g


def first_round_houses(net, g):
    """Houses the network owns when the second round begins (12 or 0 if there is none)."""
    start_owners = g["start"].split("|")[3].strip()
    owners0 = [int(c) for c in start_owners]
    for board in g["boards"]:
        if board["owners"] != owners0:
            return sum(1 for o in board["owners"] if o == net)
    return 12 if g["outcome"]["returns"][net] > 0 else 0


def opening_difference(net, g):
    groups = [int(x) for x in g["start"].split("|")[1].split()]
    return groups[net] - groups[1 - net]


def report(folder, player=None):
    by_round = collections.Counter()
    by_opening = collections.Counter()
    seats = collections.Counter()
    for net, g in games(folder, player):
        seat = "South" if net == 0 else "North"
        won = g["outcome"]["returns"][net] > 0
        houses = first_round_houses(net, g)
        r1 = "won" if houses > 6 else ("drawn" if houses == 6 else "lost")
        by_round[(seat, r1, won)] += 1
        d = max(-3, min(3, opening_difference(net, g)))
        by_opening[(seat, d, won)] += 1
        seats[(seat, won)] += 1
    print(f"## {folder}\n")
    for seat in ("South", "North"):
        n = seats[(seat, True)] + seats[(seat, False)]
        print(f"{seat}: {seats[(seat, True)]} of {n} matches won")
    print("\n| seat | first round | matches won | matches lost |\n|---|---|---|---|")
    for seat in ("South", "North"):
        for r1 in ("won", "drawn", "lost"):
            w, l = by_round[(seat, r1, True)], by_round[(seat, r1, False)]
            if w + l:
                print(f"| {seat} | {r1} | {w} | {l} |")
    print("\n| seat | groups after the opening (network − opponent, clamped to ±3) | won | lost |")
    print("|---|---|---|---|")
    for seat in ("South", "North"):
        for d in range(-3, 4):
            w, l = by_opening[(seat, d, True)], by_opening[(seat, d, False)]
            if w + l:
                print(f"| {seat} | {d:+d} | {w} | {l} |")
    print()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", help="the player analysed (default: the `net:` player)")
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args()
    for folder in args.folders:
        report(folder, args.player)
