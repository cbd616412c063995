"""Where a player's games are decided, from a tournament's game records (`ayo tournament --out
DIR`, records under DIR/games/): for the seed-capturing games (every variant but yao), each game
of PLAYER is sorted by who moved first after the shared opening and whether that first move took
at least THRESHOLD seeds (a "big first capture", made before the other side has moved), then
counted by PLAYER's result. For whole matches of the fours games it also prints how many of
PLAYER's lost matches were lost from their first round (PLAYER never held more houses than at
the start).

    python3 scripts/first_capture.py DIR [--player net] [--threshold 12]

PLAYER is matched as a prefix of the seat names (`net` matches `net:jerin-match-...@32`).
"""

import argparse
import collections
import json
import pathlib
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir", type=pathlib.Path)
    p.add_argument("--player", default="net")
    p.add_argument("--threshold", type=int, default=12)
    a = p.parse_args()
    games = sorted((a.dir / "games").glob("*.json"))
    if not games:
        sys.exit(f"no game records under {a.dir / 'games'} (ayo tournament --out DIR writes them)")
    table = collections.Counter()
    lost, lost_first_round, fours = 0, 0, False
    for path in games:
        g = json.loads(path.read_text())
        seats = [i for i, name in enumerate(g["seats"]) if name.startswith(a.player)]
        if len(seats) != 1:
            continue
        me = seats[0]
        boards = g["boards"]
        if not boards:
            continue  # the game ended in its opening: no first move to sort it by
        if "stores" not in boards[0]:
            sys.exit(f"{path}: no stores in its boards (yao captures men, not seeds)")
        # The start in the variant's notation, "pits | stores | ..."; absent for the usual start,
        # whose stores are empty.
        start_stores = [int(x) for x in g["start"].split("|")[1].split()] if g.get("start") else [0, 0]
        first = 0 if g["first"] == "South" else 1
        taken = boards[0]["stores"][first] - start_stores[first]
        result = g["outcome"]["returns"][me]
        table[(first == me, taken >= a.threshold, result)] += 1
        if "owners" in boards[0]:
            fours = True
            if result < 0:
                lost += 1
                start_houses = sum(1 for o in boards[0]["owners"] if o == me)
                if max(sum(1 for o in b["owners"] if o == me) for b in boards) <= start_houses:
                    lost_first_round += 1
    total = sum(table.values())
    print(f"{total} games of {a.player} in {a.dir}; big first capture: >= {a.threshold} seeds")
    print("| who moved first | first move | games | won | drawn | lost |")
    print("|---|---|---|---|---|---|")
    for mine in (True, False):
        for big in (True, False):
            row = [table[(mine, big, r)] for r in (1.0, 0.0, -1.0)]
            if sum(row):
                who = a.player if mine else "opponent"
                what = "big capture" if big else "quiet"
                print(f"| {who} | {what} | {sum(row)} | {row[0]} | {row[1]} | {row[2]} |")
    if fours:
        print(f"lost matches: {lost}, of them never above the starting houses: {lost_first_round}")


if __name__ == "__main__":
    main()
