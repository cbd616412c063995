"""`ayo.Agent`: the baseline agents of the Rust core, called on an `ayo.Game`."""

import numpy as np
import pytest

import ayo

SPECS = ["random", "greedy", "alphabeta:3", "mcts:50"]


@pytest.mark.parametrize("variant", ayo.variants())
@pytest.mark.parametrize("spec", SPECS)
def test_agents_choose_legal_actions_and_leave_the_game_alone(variant, spec):
    agent = ayo.Agent(spec, seed=1)
    assert agent.name == spec
    g = ayo.Game(variant)
    while not g.is_terminal() and g.ply < 30:
        before = g.clone()
        action = agent.choose(g)
        assert g == before
        assert action in g.legal_actions()
        g.apply(action)


def test_analyse_reports_value_and_work():
    action, value, work = ayo.Agent("alphabeta:4").analyse(ayo.Game("oware"))
    assert action in range(6) and work > 0 and (value is None or -1 <= value <= 1)


def test_choose_batch_gives_one_action_per_game():
    games = [ayo.Game("oware"), ayo.Game("oware", first=1)]
    games[0].apply(3)
    actions = ayo.Agent("greedy", seed=2).choose_batch(games)
    assert len(actions) == 2 and all(a in g.legal_actions() for a, g in zip(actions, games))
    with pytest.raises(ValueError, match="one variant"):
        ayo.Agent("random").choose_batch([ayo.Game("oware"), ayo.Game("ayo")])


def test_same_seed_same_choices():
    def run(seed):
        agent, g, out = ayo.Agent("random", seed=seed), ayo.Game("oware"), []
        while not g.is_terminal():
            out.append(agent.choose(g))
            g.apply(out[-1])
        return out

    assert run(4) == run(4)


def test_alphabeta_beats_random():
    wins = 0
    for seed in range(6):
        g = ayo.Game("oware", first=seed % 2)
        players = {0: ayo.Agent("alphabeta:3", seed=seed), 1: ayo.Agent("random", seed=seed)}
        while not g.is_terminal():
            g.apply(players[g.to_play].choose(g))
        wins += g.returns()[0] > 0
    assert wins >= 5


@pytest.mark.parametrize("spec, message", [("minimax", "unknown agent"), ("alphabeta:0", "1..=64"), ("mcts", "mcts:<n>")])
def test_bad_spec_raises(spec, message):
    with pytest.raises(ValueError, match=message):
        ayo.Agent(spec)


def test_finished_game_is_refused():
    g = ayo.Game("oware")
    rng = np.random.default_rng(0)
    while not g.is_terminal():
        g.apply(int(rng.choice(g.legal_actions())))
    with pytest.raises(ValueError, match="over"):
        ayo.Agent("random").choose(g)


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:2"])
def test_choose_vec_plays_every_game_of_a_vec_env(spec):
    env = ayo.VecEnv("oware", 16, num_threads=1)
    _, info = env.reset()
    agent = ayo.Agent(spec, seed=1)
    for _ in range(30):
        actions = agent.choose_vec(env)
        assert actions.shape == (16,) and actions.dtype == np.int64
        assert info["action_mask"][np.arange(16), actions].all()
        _, _, _, _, info = env.step(actions)


def test_a_book_of_moves_is_played_where_it_has_the_position(tmp_path):
    start = ayo.Game("oware").notation()
    book = tmp_path / "book.txt"
    book.write_text(f"# ayo book of moves\n# rules: oware@1\n# options:\n{start}\t3\t+0.100\n")
    agent = ayo.Agent(f"random+book={book}", seed=1)
    assert agent.name == "random+book"
    assert [agent.choose(ayo.Game("oware")) for _ in range(5)] == [3] * 5
    assert agent.analyse(ayo.Game("oware"))[1:] == (pytest.approx(0.1), 0)
    with pytest.raises(ValueError, match="is for oware@1, not for ayo@1"):
        agent.choose(ayo.Game("ayo"))
    book.write_text(f"# ayo book of moves\n# rules: oware@1\n# options:\n{start}\t9\n")
    with pytest.raises(ValueError, match="line 4.*action 9 is not legal"):
        ayo.Agent(f"random+book={book}")
