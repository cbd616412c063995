#!/usr/bin/env python3
"""An independent reference of the relay variants `ncho@1`, `adi@1`, `jerin@1` (with rounds and
matches) and `jodu@1`, written from docs/rules.md sections 1, 5, 6 and 9 alone (not from the Rust
code), for the differential test `tests/tests/reference_relay.rs`.

Plays seeded uniformly random games and writes one JSON object per game and line, in the format
of `two_row.py`:

    {"variant": "ncho@1", "options": {...}, "seed": 7, "start": STEP, "steps": [STEP, ...]}
    STEP = {"action": a (absent in "start"), "board": [12], "scores": [2],
            "to_move": 0 | 1 | null, "legal": [...], "terminal": bool, "returns": [2]}

Scores are the groups of four taken this round (fours variants) or the seeds taken (jodu).
Never-ending sowings are found with a set of the lift states of the turn (not Brent's method);
a game meeting a relay of more than LAP_LIMIT laps is left out of the output (J'odu has relays
that repeat only after millions of laps, too slow here). Standard library only.

Usage: relay.py --variant ncho|adi|jerin|jodu [--option episode=round|match] --games N
                [--first-seed S] [--out F]
"""

import argparse
import json
import random
import sys

PITS = 12
LAP_LIMIT = 20000
HOME = [0] * 6 + [1] * 6
# A player with g > 6 groups takes the opponent's houses 3,4,2,5,1,6 (from the opponent's left).
BUY = [2, 3, 1, 4, 0, 5]


class TooLong(Exception):
    pass


def sign(a, b):
    return (a > b) - (a < b)


class Fours:
    """docs/rules.md 5 and 9: ncho, adi, jerin; option episode=round|match."""

    def __init__(self, kind, episode="round"):
        assert kind in ("ncho", "adi", "jerin") and episode in ("round", "match")
        self.kind, self.episode = kind, episode
        self.name = kind + "@1"
        self.board = [4] * PITS
        self.owner = list(HOME)
        self.groups = [0, 0]
        self.starter = 0
        self.to_move = 0
        self.opening = kind == "jerin"
        self.over = False
        self.history = {self.key()}
        self.cache = None

    def key(self):
        return (tuple(self.board), self.to_move, self.opening)

    def sow(self, p, action):
        """The whole turn of p: (board, groups, round_over, pits sown into) or None if it never
        ends."""
        b, g, owner = list(self.board), list(self.groups), self.owner
        touched = set()
        if action >= 12:
            first = 6 * p + action - 12
            hand = b[first] + b[first + 1]
            b[first] = b[first + 1] = 0
            pos = first + 1
        else:
            pos = (6 * p + action) % PITS
            hand = b[pos]
            b[pos] = 0
        seen = set()
        while True:
            while hand > 0:
                pos = (pos + 1) % PITS
                b[pos] += 1
                hand -= 1
                touched.add(pos)
                in_play = sum(b) + hand
                if b[pos] != 4:
                    continue
                if self.kind == "jerin":
                    if in_play == 8:
                        if hand == 0:  # the last eight: all of it to the sower
                            g[p] += 2
                            return [0] * PITS, g, True, touched
                    elif owner[pos] == p:
                        b[pos] = 0
                        g[p] += 1
                        if hand == 0:
                            return b, g, False, touched
                    continue
                taker = owner[pos] if hand > 0 else p
                b[pos] = 0
                g[taker] += 1
                if g[0] + g[1] == 11:  # the 11th group takes the last
                    g[taker] += (sum(b) + hand) // 4
                    return [0] * PITS, g, True, touched
                if hand == 0:
                    return b, g, False, touched
            if b[pos] == 1:
                return b, g, False, touched
            state = (tuple(b), pos)
            if state in seen:
                return None
            seen.add(state)
            if len(seen) > LAP_LIMIT:
                raise TooLong()
            hand = b[pos]
            b[pos] = 0

    def legal_for(self, p):
        b, owner = self.board, self.owner
        if self.opening:
            ops = []
            for k in range(5):
                i = 6 * p + k
                if owner[i] == p and owner[i + 1] == p and b[i] and b[i + 1]:
                    if self.sow(p, 12 + k) is not None:
                        ops.append(12 + k)
            if ops:
                return ops
        moves, feeding = [], []
        theirs = [i for i in range(PITS) if owner[i] == 1 - p]
        starving = self.kind == "adi" and sum(b[i] for i in theirs) == 0
        for a in range(12):
            i = (6 * p + a) % PITS
            if owner[i] != p or b[i] == 0:
                continue
            r = self.sow(p, a)
            if r is None:
                continue
            moves.append(a)
            if starving and any(j in r[3] for j in theirs):
                feeding.append(a)
        return feeding if feeding else moves

    def legal(self):
        if self.over:
            return []
        if self.cache is None:
            self.cache = self.legal_for(self.to_move)
        return self.cache

    def share(self):
        """Cycle rule: groups from the seeds in each player's houses, the leftover group to the
        larger remainder (2-2: to the player who did not start the round)."""
        seeds = [sum(self.board[i] for i in range(PITS) if self.owner[i] == p) for p in (0, 1)]
        for p in (0, 1):
            self.groups[p] += seeds[p] // 4
        r = [s % 4 for s in seeds]
        if r[0] + r[1] == 4:
            taker = 0 if r[0] > r[1] else 1 if r[1] > r[0] else 1 - self.starter
            self.groups[taker] += 1
        self.board = [0] * PITS

    def end_round(self):
        self.cache = None
        if self.episode == "round":
            self.over = True
            return
        g = self.groups
        owner = list(HOME)
        for p in (0, 1):
            for k in BUY[: max(0, g[p] - 6)]:
                owner[6 * (1 - p) + k] = p
        self.owner = owner
        if 12 in g:
            self.over = True
            return
        if self.kind == "ncho":
            self.starter = 1 - self.starter
        else:
            d = sign(g[0], g[1])
            self.starter = 1 if d > 0 else 0 if d < 0 else 1 - self.starter
        self.board = [4] * PITS
        self.groups = [0, 0]
        self.opening = self.kind == "jerin"
        self.after(self.starter, True)

    def after(self, nxt, captured):
        """Passes, then the cycle rule."""
        self.cache = None
        if self.legal_for(nxt):
            self.to_move = nxt
        elif self.legal_for(1 - nxt):
            self.to_move = 1 - nxt
        else:
            self.share()
            return self.end_round()
        if captured:
            self.history = {self.key()}
        elif self.key() in self.history:
            self.share()
            self.end_round()
        else:
            self.history.add(self.key())

    def play(self, a):
        assert a in self.legal()
        p = self.to_move
        board, groups, round_over, _ = self.sow(p, a)
        captured = groups != self.groups
        self.board, self.groups = board, groups
        self.opening = False
        if round_over:
            return self.end_round()
        self.after(1 - p, captured)

    def scores(self):
        return list(self.groups)


class Jodu:
    """docs/rules.md 6 and 9."""

    name = "jodu@1"

    def __init__(self):
        self.board = [4] * PITS
        self.stores = [0, 0]
        self.to_move = 0
        self.over = False
        self.cache = None

    def sow(self, p, k):
        b, st = list(self.board), list(self.stores)
        pos = 6 * p + k
        hand = b[pos]
        b[pos] = 0
        seen = set()
        while True:
            while hand:
                pos = (pos + 1) % PITS
                b[pos] += 1
                hand -= 1
            if b[pos] == 1:
                if pos // 6 == p:
                    st[p] += b[11 - pos]
                    b[11 - pos] = 0
                return b, st
            state = (tuple(b), pos)
            if state in seen:
                return None
            seen.add(state)
            if len(seen) > LAP_LIMIT:
                raise TooLong()
            hand = b[pos]
            b[pos] = 0

    def legal_for(self, p):
        ends, feeds = [], []
        for k in range(6):
            if self.board[6 * p + k] == 0:
                continue
            r = self.sow(p, k)
            if r is None:
                continue
            ends.append(k)
            if sum(r[0][6 * (1 - p) : 6 * (1 - p) + 6]) > 0:
                feeds.append(k)
        return feeds if feeds else ends

    def legal(self):
        if self.over:
            return []
        if self.cache is None:
            self.cache = self.legal_for(self.to_move)
        return self.cache

    def play(self, k):
        assert k in self.legal()
        p = self.to_move
        self.board, self.stores = self.sow(p, k)
        self.cache = None
        for q in (1 - p, p):
            self.to_move = q
            if sum(self.board[6 * q : 6 * q + 6]) == 0:
                break
            if self.legal_for(q):
                return
        for q in (0, 1):
            self.stores[q] += sum(self.board[6 * q : 6 * q + 6])
        self.board = [0] * PITS
        self.over = True

    def scores(self):
        return list(self.stores)


def make(variant, options):
    if variant == "jodu":
        return Jodu(**options)
    return Fours(variant, **options)


def step(game, action=None):
    out = {} if action is None else {"action": action}
    s = game.scores()
    out.update(
        board=list(game.board),
        scores=s,
        to_move=None if game.over else game.to_move,
        legal=game.legal(),
        terminal=game.over,
        returns=[sign(s[0], s[1]), -sign(s[0], s[1])] if game.over else [0, 0],
    )
    return out


def play(variant, options, seed, max_plies):
    rng = random.Random(seed)
    game = make(variant, options)
    record = {"variant": game.name, "options": options, "seed": seed, "start": step(game), "steps": []}
    while not game.over and len(record["steps"]) < max_plies:
        action = rng.choice(game.legal())
        game.play(action)
        record["steps"].append(step(game, action))
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=["ncho", "adi", "jerin", "jodu"], required=True)
    parser.add_argument("--option", action="append", default=[], help="key=value")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    with out:
        for i in range(args.games):
            try:
                record = play(args.variant, options, args.first_seed + i, args.max_plies)
            except TooLong:
                continue
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
