"""`oware` through `ayo.Game` against OpenSpiel's `oware` through `pyspiel`, move for move.

OpenSpiel is the independent reference (docs/rules.md section 2): after every move of random games
the board, the scores, the legal actions, the terminal flag and the returns must agree.
"""

import random

import pytest

import ayo

import pyspiel  # installed by scripts/setup-venv.sh: a missing pyspiel fails, never skips

GAMES = 1000


def openspiel_view(state):
    """(board, scores) from OpenSpiel's observation string `to_move | s0 s1 | p0 … p11`."""
    _, stores, pits = state.observation_string(0).split("|")
    return [int(x) for x in pits.split()], [int(x) for x in stores.split()]


def test_oware_agrees_with_openspiel_over_random_games():
    reference = pyspiel.load_game("oware")
    rng = random.Random(20261122)
    moves = 0
    for game_index in range(GAMES):
        ours = ayo.Game("oware")
        theirs = reference.new_initial_state()
        while True:
            where = f"game {game_index}, ply {ours.ply}, {ours.notation()}"
            board, scores = openspiel_view(theirs)
            assert ours.board == board, where
            assert list(ours.scores) == scores, where
            assert ours.is_terminal() == theirs.is_terminal(), where
            assert list(ours.returns()) == list(theirs.returns()), where
            if theirs.is_terminal():
                assert ours.to_play == -1 and ours.legal_actions() == [], where
                break
            assert ours.to_play == theirs.current_player(), where
            assert ours.legal_actions() == theirs.legal_actions(), where
            assert [i for i, m in enumerate(ours.action_mask()) if m] == theirs.legal_actions()
            action = rng.choice(theirs.legal_actions())
            ours.apply(action)
            theirs.apply_action(action)
            moves += 1
    assert moves > GAMES * 20
