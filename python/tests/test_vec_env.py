"""`ayo.VecEnv`: N games stepped together agree with N single `ayo.Game`s."""

import numpy as np
import pytest

import ayo

VARIANTS = ayo.variants()


def masks_of(games):
    return np.array([g.action_mask() for g in games])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("threads, max_plies, lookahead", [(1, 120, False), (2, 120, False), (1, 10, False), (2, 120, True)])
def test_vec_env_agrees_with_single_games(variant, threads, max_plies, lookahead):
    n = 24
    env = ayo.VecEnv(variant, n, seed=5, num_threads=threads, max_plies=max_plies, lookahead=lookahead)
    assert env.lookahead == lookahead
    assert (env.observation_len, *env.observation_bounds) == ayo.Game(variant).observation_spec(lookahead)
    games = [ayo.Game(variant) for _ in range(n)]
    obs, info = env.reset()
    rng = np.random.default_rng(7)
    finished = truncations = 0
    for _ in range(400):
        np.testing.assert_array_equal(obs, np.array([g.observation(lookahead) for g in games]))
        np.testing.assert_array_equal(info["action_mask"], masks_of(games))
        np.testing.assert_array_equal(info["to_play"], [g.to_play for g in games])
        actions = np.array([rng.choice(g.legal_actions()) for g in games])
        obs, rewards, terminated, truncated, info = env.step(actions)
        final_obs, final_returns = env.final_observations(), env.final_returns()
        for i, g in enumerate(games):
            g.apply(int(actions[i]))
            assert terminated[i] == g.is_terminal()
            assert truncated[i] == (not g.is_terminal() and g.ply >= max_plies)
            expected = g.returns() if g.is_terminal() else [0.0, 0.0]
            np.testing.assert_array_equal(rewards[i], expected)
            if terminated[i] or truncated[i]:
                np.testing.assert_array_equal(final_obs[i], g.observation(lookahead))
                np.testing.assert_array_equal(final_returns[i], expected)
                finished += int(terminated[i])
                truncations += int(truncated[i])
                games[i] = ayo.Game(variant)
    # with 10 plies every game is cut; with 120 random games of every variant end by the rules
    assert truncations > 0 if max_plies == 10 else finished > 0


def test_threads_give_identical_results():
    runs = []
    for threads in (1, 2):
        env = ayo.VecEnv("oware", 600, seed=3, num_threads=threads, first="random")
        out = [env.reset()[0]]
        for _ in range(150):
            out.extend(env.step(env.sample_actions())[:4])
        runs.append(out)
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


def test_shapes_and_dtypes():
    env = ayo.VecEnv("oware", 5, num_threads=1)
    assert len(env) == env.num_envs == 5
    obs, info = env.reset(seed=1)
    assert obs.shape == (5, env.observation_len) and obs.dtype == np.float32
    assert info["action_mask"].shape == (5, env.num_actions) and info["action_mask"].dtype == np.bool_
    assert info["to_play"].shape == (5,)
    obs2, rewards, terminated, truncated, info2 = env.step(env.sample_actions())
    assert rewards.shape == (5, 2) and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.shape == (5,)
    # fresh arrays every call: what the caller kept is not overwritten
    assert not np.shares_memory(obs, obs2) and not np.shares_memory(info["action_mask"], info2["action_mask"])
    assert obs2.flags.c_contiguous and obs2.flags.writeable


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_any_integer_dtype_and_lists_are_accepted(dtype):
    env = ayo.VecEnv("oware", 4, num_threads=1)
    env.reset()
    env.step(np.array([0, 1, 2, 3], dtype=dtype))
    env.step([int(a) for a in env.sample_actions()])


def state_of(env):
    return (env.action_masks(), env.scores(), env.plies(), env.episodes())


def assert_unchanged(env, before):
    for a, b in zip(state_of(env), before):
        np.testing.assert_array_equal(a, b)


def test_illegal_action_names_game_and_action_and_changes_nothing():
    env = ayo.VecEnv("oware", 6, num_threads=1)
    env.reset()
    for _ in range(3):
        env.step(env.sample_actions())
    before = state_of(env)
    masks = env.action_masks()
    game = next(i for i in range(6) if not masks[i].all())
    bad = int(np.flatnonzero(~masks[game])[0])
    actions = env.sample_actions()
    actions[game] = bad
    with pytest.raises(ValueError, match=rf"game {game}: action {bad} is not legal"):
        env.step(actions)
    assert_unchanged(env, before)


@pytest.mark.parametrize(
    "actions, error, message",
    [
        (np.zeros(6, dtype=np.float32), TypeError, "integers, found dtype float32"),
        (np.zeros(6, dtype=bool), TypeError, "integers, found dtype bool"),
        (["a"] * 6, TypeError, "integers"),
        (np.zeros(5, dtype=np.int64), ValueError, r"shape \(6,\).*found shape \(5,\)"),
        (np.zeros((6, 1), dtype=np.int64), ValueError, r"found shape \(6, 1\)"),
        (np.array([0, 0, 0, -1, 0, 0]), ValueError, "game 3: action -1 is outside"),
        (np.array([0, 0, 6, 0, 0, 0]), ValueError, "game 2: action 6 is outside"),
        (np.array([0, 0, 0, 0, 0, 256]), ValueError, "game 5: action 256 is outside"),
    ],
)
def test_bad_actions_raise_and_change_nothing(actions, error, message):
    env = ayo.VecEnv("oware", 6, num_threads=1)
    env.reset()
    before = state_of(env)
    with pytest.raises(error, match=message):
        env.step(actions)
    assert_unchanged(env, before)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"variant": "owari"}, "unknown variant"),
        ({"colour": 1}, "unknown option"),
        ({"num_envs": 0}, "num_envs is 0"),
        ({"first": "east"}, "unknown first player"),
        ({"max_plies": 0}, "max_plies is 0"),
    ],
)
def test_bad_configuration_raises(kwargs, message):
    args = {"variant": "oware", "num_envs": 4, **kwargs}
    with pytest.raises(ValueError, match=message):
        ayo.VecEnv(args.pop("variant"), args.pop("num_envs"), **args)


def test_options_reach_the_variant():
    env = ayo.VecEnv("oware", 2, num_threads=1, seeds=3)
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs[0], ayo.Game("oware", seeds=3).observation())


@pytest.mark.parametrize("first, expected", [(None, [0, 0]), (0, [0, 0]), (1, [1, 1]), ("north", [1, 1]), ("alternate", [0, 1])])
def test_first_player(first, expected):
    env = ayo.VecEnv("oware", 2, num_threads=1, first=first)
    _, info = env.reset()
    assert info["to_play"].tolist() == expected
