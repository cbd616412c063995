"""The trained networks from Python, without torch: ``ayo.Net`` agrees with ``ayo engine``
(libtorch) on 100 positions, and ``ayo.Agent("PATH:SIMS")`` plays a checkpoint with its search."""

import pathlib
import pickle
import subprocess

import numpy as np
import pytest

import ayo

REPO = pathlib.Path(__file__).resolve().parents[2]
MODELS = sorted((REPO / "models").glob("*/*.ot"))
OWARE = REPO / "models" / "oware" / "oware-levels-1h.ot"
AYO_BIN = REPO / "target" / "release" / "ayo"


def positions(variant: str, n: int, seed: int = 0) -> list[list[int]]:
    """The action lists of `n` positions from random games."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        g, moves = ayo.Game(variant), []
        while not g.is_terminal() and len(out) < n:
            out.append(list(moves))
            a = int(rng.choice(g.legal_actions()))
            g.apply(a)
            moves.append(a)
    return out


def test_every_shipped_network_loads_without_torch():
    assert len(MODELS) >= 8
    for path in MODELS:
        net = ayo.Net.load(str(path))
        variant = net.variant.split("@")[0]
        g = ayo.Game(variant)
        plies = net.shape["lookahead"]
        # The observation, then the tactics (1 ply), the exchanges (2), one more block a ply beyond.
        extra = g.tactics_len + (plies - 1) * g.num_actions if plies else 0
        assert net.shape["inputs"] == g.observation_len + extra and net.shape["actions"] == g.num_actions
        x = net.input(g)
        np.testing.assert_array_equal(x, g.observation(lookahead=plies))
        np.testing.assert_array_equal(x[: g.observation_len], g.observation())
        features = [g.tactics()] if plies >= 1 else []
        features += [g.exchanges()] if plies >= 2 else []
        known = g.observation_len + sum(len(f) for f in features)
        np.testing.assert_array_equal(x[g.observation_len : known], np.concatenate(features) if features else [])
        value, policy = net.analyse(g)
        logits, values = net.evaluate(x[None, :])
        assert values[0] == pytest.approx(value, abs=1e-6)
        assert -1 <= value <= 1 and policy.sum() == pytest.approx(1, abs=1e-5)
        assert (policy[~g.action_mask()] == 0).all()


def test_the_network_agrees_with_ayo_engine_on_100_positions():
    assert AYO_BIN.exists(), f"{AYO_BIN} is missing: build it (cargo build --release -p ayo-train)"
    net = ayo.Net.load(str(OWARE))
    lines = []
    games = positions("oware", 100)
    for moves in games:
        lines.append("position startpos" + (" moves " + " ".join(map(str, moves)) if moves else ""))
        lines.append("go")
    lines.append("quit")
    out = subprocess.run(
        [str(AYO_BIN), "engine", "--variant", "oware", "--agent", f"{OWARE}:0"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    engine_values = [float(line.split()[2]) for line in out.splitlines() if line.startswith("info value")]
    assert len(engine_values) == 100, out[-500:]
    obs = []
    for moves, expected in zip(games, engine_values):
        g = ayo.Game("oware")
        for a in moves:
            g.apply(a)
        value, _ = net.analyse(g)
        assert value == pytest.approx(expected, abs=6e-5), (moves, value, expected)  # engine prints 4 decimals
        obs.append(g.observation())
    # A batch gives the same values as one position at a time.
    logits, values = net.evaluate(np.stack(obs))
    assert logits.shape == (100, 6) and values.dtype == np.float32
    np.testing.assert_allclose(values, engine_values, atol=6e-5)


def test_a_checkpoint_agent_beats_random():
    agent = ayo.Agent(f"{OWARE}:32", seed=1)
    assert agent.variant == "oware@1"
    wins = 0
    for game in range(20):
        g = ayo.Game("oware")
        players = [agent, ayo.Agent("random", seed=game)]
        seat = game % 2
        if seat:
            players.reverse()
        while not g.is_terminal():
            g.apply(players[g.to_play].choose(g))
        wins += g.returns()[seat] > 0
    assert wins >= 18, wins


def test_a_checkpoint_agent_with_a_time_per_move_and_its_analysis():
    agent = ayo.Agent(f"{OWARE}@100ms")
    g = ayo.Game("oware")
    action, value, work = agent.analyse(g)
    assert g.action_mask()[action] and -1 <= value <= 1 and work >= 32
    # The network searching by alpha-beta: the same spec as every command's.
    hybrid = ayo.Agent(f"{OWARE}@100ms+ab")
    assert hybrid.name.endswith("@100ms+ab"), hybrid.name
    action, value, work = hybrid.analyse(g)
    assert g.action_mask()[action] and -1 <= value <= 1 and work > 0
    copy = pickle.loads(pickle.dumps(ayo.Agent(f"{OWARE}:16", seed=3)))
    assert copy.name == ayo.Agent(f"{OWARE}:16", seed=3).name


def test_bad_networks_and_inputs_are_refused(tmp_path):
    with pytest.raises(ValueError, match="not a checkpoint archive"):
        (tmp_path / "x.ot").write_text("hello")
        ayo.Net.load(str(tmp_path / "x.ot"))
    cut = tmp_path / "cut.ot"
    cut.write_bytes(OWARE.read_bytes()[:50_000])
    with pytest.raises(ValueError, match="cut.ot"):
        ayo.Net.load(str(cut))
    net = ayo.Net.load(str(OWARE))
    with pytest.raises(ValueError, match="expected 14"):
        net.evaluate(np.zeros((2, 5), dtype=np.float32))
    with pytest.raises(ValueError, match="oware@1"):
        net.analyse(ayo.Game("ayo"))
    agent = ayo.Agent(f"{OWARE}:8")
    with pytest.raises(ValueError, match="oware@1"):
        agent.choose(ayo.Game("ayo"))
    with pytest.raises(ValueError, match="nor is"):
        ayo.Agent("/no/such/file.ot:32")
