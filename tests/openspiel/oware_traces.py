#!/usr/bin/env python3
"""Random games of OpenSpiel's `oware`, traced move by move, for the differential test.

Plays seeded uniformly random games with pyspiel (PyPI `open_spiel`) and writes one JSON object per
game and line:

    {"variant": "oware@1", "options": {...}, "seed": 7, "start": STEP, "steps": [STEP, ...]}

where the start STEP describes the initial state and each later STEP the state after one action:

    {"action": 2,                 # the action just played (absent in "start")
     "board": [12 ints],          # seeds per house, houses 0..11 in sowing order
     "scores": [s0, s1],
     "to_move": 0 | 1 | null,     # null once the game is over
     "legal": [actions],          # legal actions of the player to move ([] when over)
     "terminal": bool,
     "returns": [r0, r1]}

Game `i` uses `random.Random(first_seed + i)`. The Rust test `tests/tests/openspiel_oware.rs`
replays every game through `ayo_env` and compares after every move.

`--seeds N` plays `oware(num_seeds_per_house=N)`, which is `oware@1` with option `seeds=N`.

Usage: oware_traces.py --games 1000 [--first-seed 0] [--seeds 4] [--out traces.jsonl]
"""

import argparse
import json
import random
import sys

import pyspiel

# OpenSpiel's oware aborts when a game passes its kMaxGameLength (1000 plies).
MAX_PLIES = 1000


def step(state, action=None):
    # observation_string: "<player> | <score0> <score1> | <seeds 0..11>"
    fields = [f.split() for f in state.observation_string(0).split("|")]
    scores = [int(x) for x in fields[1]]
    board = [int(x) for x in fields[2]]
    terminal = state.is_terminal()
    out = {} if action is None else {"action": action}
    out.update(
        board=board,
        scores=scores,
        to_move=None if terminal else state.current_player(),
        legal=[] if terminal else list(state.legal_actions()),
        terminal=terminal,
        returns=[int(r) for r in state.returns()],
    )
    return out


def play(game, options, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = {
        "variant": "oware@1",
        "options": options,
        "seed": seed,
        "start": step(state),
        "steps": [],
    }
    while not state.is_terminal() and len(record["steps"]) < MAX_PLIES - 1:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        record["steps"].append(step(state, action))
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=4, help="seeds per pit at the start")
    parser.add_argument("--out", default="-", help="output file (default: stdout)")
    args = parser.parse_args()
    game = pyspiel.load_game("oware", {"num_seeds_per_house": args.seeds})
    options = {} if args.seeds == 4 else {"seeds": str(args.seeds)}
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    with out:
        for i in range(args.games):
            record = play(game, options, args.first_seed + i)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
