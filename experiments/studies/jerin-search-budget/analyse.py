#!/usr/bin/env python3
"""Where a network's whole matches of a fours game are won and lost.

Reads the game records an `ayo tournament --out DIR` of one network (a `net:` player) against
one baseline wrote under DIR/games/, and prints per seat of the network (or of the player named by
`--player NAME`, e.g. `--player alphabeta:12`; "network" below means that player):
  * the first round's result (houses the network owns when round 2 begins; a match that ends in
    its first round counts 12 or 0) against the match's result;
  * the group difference the shared random opening left (the network's groups minus the
    opponent's when the first counted move is due) against the match's result;
  * the group difference when the first round comes down to its last 8 seeds (J'erin's 8-seed
    rule: intermediate fours are taken by nobody, a last-seed four takes all 8), against the
    first round's result: whether a first round is lost in its middle game or its ending.

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


def start_groups(g):
    """The groups each player had taken when the first counted move was due (South, North)."""
    return [int(x) for x in g["start"].split("|")[1].split()]


def first_round(g):
    """The boards of the first round, then the board that begins the second (None if the match
    ends in its first round). A round begins with the groups reset to none, so the groups
    taken going down marks it (the house owners may stay as they were, after a 6-6 round)."""
    before = sum(start_groups(g))
    boards = []
    for board in g["boards"]:
        taken = sum(s // 4 for s in board["stores"])
        if taken < before:
            return boards, board
        before = taken
        boards.append(board)
    return boards, None


def first_round_houses(net, g, second):
    """Houses the network owns when the second round begins (`second`, from `first_round`; 12
    or 0 if there is none)."""
    if second is not None:
        return sum(1 for o in second["owners"] if o == net)
    return 12 if g["outcome"]["returns"][net] > 0 else 0


def opening_difference(net, g):
    groups = start_groups(g)
    return groups[net] - groups[1 - net]


def groups_at_eight(net, boards):
    """Groups (network − opponent) when at most 8 seeds are left on the board in the first
    round (its `boards`, from `first_round`; None if it never gets there)."""
    for board in boards:
        if sum(board["pits"]) <= 8:
            return board["stores"][net] // 4 - board["stores"][1 - net] // 4
    return None


def report(folder, player=None):
    by_round = collections.Counter()
    by_opening = collections.Counter()
    seats = collections.Counter()
    by_eight = collections.Counter()
    for net, g in games(folder, player):
        seat = "South" if net == 0 else "North"
        won = g["outcome"]["returns"][net] > 0
        boards, second = first_round(g)
        houses = first_round_houses(net, g, second)
        r1 = "won" if houses > 6 else ("drawn" if houses == 6 else "lost")
        by_round[(seat, r1, won)] += 1
        d = max(-3, min(3, opening_difference(net, g)))
        by_opening[(seat, d, won)] += 1
        seats[(seat, won)] += 1
        by_eight[(seat, groups_at_eight(net, boards), r1)] += 1
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
    print("\n| seat | groups at 8 seeds left (network − opponent) | first round won | drawn | lost |")
    print("|---|---|---|---|---|")
    for seat in ("South", "North"):
        keys = sorted({k[1] for k in by_eight if k[0] == seat}, key=lambda d: (d is None, d or 0))
        for d in keys:
            n = [by_eight[(seat, d, r)] for r in ("won", "drawn", "lost")]
            label = "never reached" if d is None else f"{d:+d}"
            print(f"| {seat} | {label} | {n[0]} | {n[1]} | {n[2]} |")
    print()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--player", help="the player analysed (default: the `net:` player)")
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args()
    for folder in args.folders:
        report(folder, args.player)
