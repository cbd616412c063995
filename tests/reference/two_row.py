#!/usr/bin/env python3
"""An independent reference of `ayo@1` and `ayoayo@1`, written from docs/rules.md sections 3, 4 and 9
alone (not from the Rust code), for the differential test `tests/tests/reference_two_row.rs`.

Plays seeded uniformly random games and writes one JSON object per game and line, in the format
of `tests/openspiel/oware_traces.py`:

    {"variant": "ayoayo@1", "options": {...}, "seed": 7, "start": STEP, "steps": [STEP, ...]}
    STEP = {"action": a (absent in "start"), "board": [12], "scores": [2],
            "to_move": 0 | 1 | null, "legal": [...], "terminal": bool, "returns": [2]}

Board: pits 0..11 in sowing order, South (player 0) owns 0-5, North 6-11; action k < 6 is the
mover's k-th pit from his own left (pit 6*mover + k); ayoayo's actions 6..10 are the odu from own
pit k-6 into the next own pit. Standard library only.

Usage: two_row.py --variant ayo|ayoayo [--option key=value] --games N [--first-seed S] [--out F]
"""

import argparse
import json
import random
import sys

PITS = 12


def own(p):
    return range(6 * p, 6 * p + 6)


def row_sum(board, p):
    return sum(board[i] for i in own(p))


def sow(board, origin):
    """Single lap, counter-clockwise, never into the pit the seeds came from; returns the last pit."""
    hand = board[origin]
    board[origin] = 0
    pos = origin
    while hand:
        pos = (pos + 1) % PITS
        if pos == origin:
            continue
        board[pos] += 1
        hand -= 1
    return pos


def capture(board, last, mover, max_pits):
    """Takes the last pit and the pits before it in the opponent's row while they hold 2 or 3."""
    victim = 1 - mover
    if last not in own(victim):
        return 0
    taken, pits, k = 0, 0, last
    while k in own(victim) and board[k] in (2, 3) and (max_pits is None or pits < max_pits):
        taken += board[k]
        board[k] = 0
        pits += 1
        k -= 1
    return taken


def result(scores):
    d = (scores[0] > scores[1]) - (scores[0] < scores[1])
    return [d, -d]


class Ayo:
    """docs/rules.md 3 and 9 (`ayo@1`); option end=either|both."""

    name = "ayo@1"

    def __init__(self, end="either"):
        assert end in ("either", "both")
        self.end = end
        self.board = [4] * PITS
        self.scores = [0, 0]
        self.to_move = 0
        self.over = False
        self.history = {self.key()}

    def key(self):
        return (tuple(self.board), self.to_move)

    def reached(self, scores):
        if self.end == "either":
            return scores[0] >= 25 or scores[1] >= 25
        return scores[0] + scores[1] >= 25

    def outcome(self, k):
        """The board and scores after the mover sows his pit k, or None if he may not."""
        p = self.to_move
        origin = 6 * p + k
        if self.board[origin] == 0:
            return None
        board = list(self.board)
        last = sow(board, origin)
        scores = list(self.scores)
        scores[p] += capture(board, last, p, None)
        # Illegal to leave the opponent without seeds, unless the move reaches 25.
        if row_sum(board, 1 - p) == 0 and not self.reached(scores):
            return None
        return board, scores

    def legal(self):
        if self.over:
            return []
        return [k for k in range(6) if self.outcome(k) is not None]

    def collect(self):
        for p in (0, 1):
            for i in own(p):
                self.scores[p] += self.board[i]
                self.board[i] = 0
        self.over = True

    def play(self, k):
        assert k in self.legal()
        board, scores = self.outcome(k)
        captured = scores != self.scores
        self.board, self.scores = board, scores
        self.to_move = 1 - self.to_move
        # Check order (docs/rules.md 9): 25 reached, then no legal move, then repetition.
        if self.reached(self.scores):
            self.over = True
            return
        if not self.legal():
            self.collect()
            return
        if captured:
            self.history = {self.key()}
        elif self.key() in self.history:
            self.collect()
        else:
            self.history.add(self.key())


class Ayoayo:
    """docs/rules.md 4 and 9 (`ayoayo@1`); option max_chain_pits=5|none|1..6."""

    name = "ayoayo@1"

    def __init__(self, max_chain_pits="5"):
        self.max_pits = None if max_chain_pits == "none" else int(max_chain_pits)
        self.board = [4] * PITS
        self.scores = [0, 0]
        self.to_move = 0
        self.odu_used = [False, False]
        self.over = False
        self.history = {self.key()}

    def key(self):
        return (tuple(self.board), self.to_move, tuple(self.odu_used))

    def legal(self):
        if self.over:
            return []
        p = self.to_move
        sows = [k for k in range(6) if self.board[6 * p + k] > 0]
        odus = [] if self.odu_used[p] else [6 + k for k in range(5) if self.board[6 * p + k] > 0]
        return sows + odus

    def collect(self):
        for p in (0, 1):
            for i in own(p):
                self.scores[p] += self.board[i]
                self.board[i] = 0
        self.over = True

    def play(self, a):
        assert a in self.legal()
        p = self.to_move
        captured = 0
        if a < 6:
            last = sow(self.board, 6 * p + a)
            captured = capture(self.board, last, p, self.max_pits)
            self.scores[p] += captured
        else:
            src = 6 * p + a - 6
            self.board[src + 1] += self.board[src]
            self.board[src] = 0
            self.odu_used[p] = True
        self.to_move = 1 - p
        q = self.to_move
        # Retaliation, then exhaustion, then repetition (docs/rules.md 4 and 9).
        if row_sum(self.board, q) == 0:
            self.scores[q] += sum(self.board)
            self.board = [0] * PITS
            self.over = True
        elif row_sum(self.board, 0) <= 2 and row_sum(self.board, 1) <= 2:
            self.collect()
        elif captured:
            self.history = {self.key()}
        elif self.key() in self.history:
            self.collect()
        else:
            self.history.add(self.key())


VARIANTS = {"ayo": Ayo, "ayoayo": Ayoayo}


def step(game, action=None):
    out = {} if action is None else {"action": action}
    out.update(
        board=list(game.board),
        scores=list(game.scores),
        to_move=None if game.over else game.to_move,
        legal=game.legal(),
        terminal=game.over,
        returns=result(game.scores) if game.over else [0, 0],
    )
    return out


def play(variant, options, seed, max_plies=1000):
    rng = random.Random(seed)
    game = VARIANTS[variant](**options)
    record = {
        "variant": game.name,
        "options": options,
        "seed": seed,
        "start": step(game),
        "steps": [],
    }
    while not game.over and len(record["steps"]) < max_plies:
        action = rng.choice(game.legal())
        game.play(action)
        record["steps"].append(step(game, action))
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), required=True)
    parser.add_argument("--option", action="append", default=[], help="key=value")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    with out:
        for i in range(args.games):
            record = play(args.variant, options, args.first_seed + i)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
