"""PettingZoo: the AEC environment of every variant."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import ayo
from ayo.pettingzoo import env, raw_env

VARIANTS = ayo.variants()


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test_passes(variant):
    api_test(env(variant), num_cycles=1000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test_passes_unwrapped(variant):
    api_test(raw_env(variant, first=1), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test_passes_with_lookahead(variant):
    e = env(variant, lookahead=True)
    api_test(e, num_cycles=300)
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)["observation"]
    g = e.unwrapped.game
    np.testing.assert_array_equal(obs, np.concatenate([g.observation(), g.tactics()]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_matches_ayo_game(variant):
    e = env(variant)
    e.reset(seed=0)
    g = ayo.Game(variant)
    rng = np.random.default_rng(1)
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        rewards[agent] = reward
        if termination or truncation:
            e.step(None)
            continue
        assert agent == f"player_{g.to_play}"
        np.testing.assert_array_equal(obs["observation"], g.observation())
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), g.action_mask())
        other = f"player_{1 - g.to_play}"
        assert not e.observe(other)["action_mask"].any()
        action = int(rng.choice(g.legal_actions()))
        e.step(action)
        g.apply(action)
    if g.is_terminal():
        assert [rewards["player_0"], rewards["player_1"]] == list(g.returns())


def test_illegal_move_ends_the_game_with_minus_one():
    e = env("oware")
    e.reset()
    e.step(2)  # South
    e.step(0)  # North
    agent = e.agent_selection
    e.step(2)  # South's pit C is empty
    assert e.rewards[agent] == -1 and all(e.terminations.values())


def test_raw_env_raises_on_illegal_move_and_changes_nothing():
    e = raw_env("oware")
    e.reset()
    e.step(2)
    e.step(0)
    before = e.game.clone()
    with pytest.raises(ValueError, match="not legal"):
        e.step(2)
    assert e.game == before and e.agent_selection == "player_0"


def test_truncation_at_max_plies():
    e = raw_env("oware", max_plies=4)
    e.reset()
    for _ in range(4):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values())


def test_bad_variant_raises():
    with pytest.raises(ValueError, match="unknown variant"):
        raw_env("owari")
