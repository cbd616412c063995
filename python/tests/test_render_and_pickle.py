"""Pictures of the board (``rgb_array``) and pickling of every public object."""

import copy
import pickle
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import ayo
from ayo.gymnasium import AyoEnv

VARIANTS = ayo.variants()
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant", VARIANTS)
def test_rgb_array_is_an_image_that_changes_with_the_board(variant):
    env = gym.make(f"ayo/{variant.capitalize()}-v1", render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    after = env.render()
    assert after.shape == before.shape and not np.array_equal(after, before)
    np.testing.assert_array_equal(env.unwrapped.game.render_rgb(), after)


def test_unknown_render_modes_are_refused():
    with pytest.raises(ValueError, match="render_mode must be one of"):
        AyoEnv("oware", render_mode="rgb")


def play(game: ayo.Game, agent: ayo.Agent, n: int) -> list[int]:
    moves = []
    for _ in range(n):
        if game.is_terminal():
            break
        a = agent.choose(game)
        game.apply(a)
        moves.append(a)
    return moves


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:2", "mcts:30"])
def test_a_pickled_game_and_agent_go_on_exactly_as_the_originals(variant, spec):
    game, agent = ayo.Game(variant), ayo.Agent(spec, seed=7)
    play(game, agent, 15)
    g2, a2 = pickle.loads(pickle.dumps(game)), pickle.loads(pickle.dumps(agent))
    g3, a3 = copy.deepcopy(game), copy.deepcopy(agent)
    assert g2 == game and g2.record() == game.record() and g3 == game
    ours = play(game, agent, 30)
    assert play(g2, a2, 30) == ours
    assert play(g3, a3, 30) == ours
    assert g2 == game


def test_a_pickled_gymnasium_env_continues_exactly(tmp_path):
    env = gym.make("ayo/Oware-v1", opponent="mcts:20", seat=None).unwrapped
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    actions = []
    for _ in range(5):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(a)
    copy_ = pickle.loads(pickle.dumps(env))
    for _ in range(10):
        if term or trunc:
            break
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(a)
        obs2, reward2, term2, trunc2, _ = copy_.step(a)
        np.testing.assert_array_equal(obs, obs2)
        assert (reward, term, trunc) == (reward2, term2, trunc2)


def test_a_pickled_pettingzoo_env_keeps_its_game():
    from ayo.pettingzoo import env

    e = env("ncho", obs_type="box")
    e.reset(seed=0)
    for _ in range(6):
        mask = e.infos[e.agent_selection]["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.unwrapped.game == e.unwrapped.game
    assert e2.agent_selection == e.agent_selection


def test_pettingzoo_without_gymnasium_names_the_missing_package():
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n    import ayo.pettingzoo\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "'gymnasium'" in out and "pip install 'ayo[pettingzoo]'" in out, out


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pickled_vec_env_steps_on_exactly_as_the_original(variant):
    env = ayo.VecEnv(variant, 32, seed=5, num_threads=2, max_plies=40, first="random")
    env.reset()
    for _ in range(120):  # games finish (by the rules and by the cap) and restart
        env.step(env.sample_actions())
    assert env.episodes().max() >= 2
    for copy_ in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        np.testing.assert_array_equal(copy_.final_observations(), env.final_observations())
        np.testing.assert_array_equal(copy_.final_returns(), env.final_returns())
        np.testing.assert_array_equal(copy_.plies(), env.plies())
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _ in range(100):
        actions = env.sample_actions()
        ours = env.step(actions)
        for c in copies:
            np.testing.assert_array_equal(c.sample_actions(), actions)
            theirs = c.step(actions)
            for a, b in zip(ours[:4], theirs[:4]):
                np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(ours[4]["action_mask"], theirs[4]["action_mask"])


def test_a_corrupt_vec_env_pickle_is_refused():
    env = ayo.VecEnv("oware", 2)
    env.reset()
    restore, (variant, options, snapshot, threads) = env.__reduce__()
    with pytest.raises(ValueError, match="not a pickled ayo.VecEnv"):
        restore(variant, options, snapshot[:-5], threads)
    with pytest.raises(ValueError, match="the snapshot is of oware"):
        restore("ayo", options, snapshot, threads)


def test_the_gymnasium_vector_env_pickles_and_continues_exactly():
    from ayo.gymnasium import AyoVectorEnv

    env = AyoVectorEnv("oware", num_envs=8, opponent="mcts:10", max_plies=60)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)

    def actions(mask):  # a finished game (next-step reset) has no legal action: any is ignored
        return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])

    for _ in range(40):
        obs, reward, term, trunc, info = env.step(actions(info["action_mask"]))
    copy_ = pickle.loads(pickle.dumps(env))
    for _ in range(40):
        a = actions(info["action_mask"])
        obs, reward, term, trunc, info = env.step(a)
        obs2, reward2, term2, trunc2, info2 = copy_.step(a)
        for x, y in [(obs, obs2), (reward, reward2), (term, term2), (trunc, trunc2)]:
            np.testing.assert_array_equal(x, y)


def test_a_checkpoint_agent_pickles_with_its_random_stream():
    # The shipped networks play their search's best move (no root noise, no draw from the
    # stream); the copy keeps the stream's position all the same and plays on identically.
    agent = ayo.Agent(f"{REPO / 'models' / 'oware' / 'oware-levels-1h.ot'}:8", seed=3)
    game = ayo.Game("oware")
    play(game, agent, 6)
    state = agent.__reduce__()[1][2]
    assert state is not None
    copy_ = pickle.loads(pickle.dumps(agent))
    assert copy_.__reduce__()[1][2] == state
    g2 = pickle.loads(pickle.dumps(game))
    assert play(g2, copy_, 10) == play(game, agent, 10)
    assert copy_.__reduce__()[1][2] == agent.__reduce__()[1][2]


def test_a_pickled_net_evaluates_as_the_original():
    net = ayo.Net.load(REPO / "models" / "oware" / "oware-levels-1h.ot")
    env = ayo.VecEnv("oware", 16, seed=2)
    obs, _ = env.reset()
    for copy_ in (pickle.loads(pickle.dumps(net)), copy.deepcopy(net)):
        assert copy_.variant == net.variant and copy_.step == net.step
        for ours, theirs in zip(net.evaluate(obs), copy_.evaluate(obs)):
            np.testing.assert_array_equal(ours, theirs)
