"""The Ray launcher on a local Ray cluster on loopback: a learner and two self-play actors run the
``ayo`` binary for about a minute on a tiny config; the run advances (networks are published,
shards written and consumed), a self-play actor that is killed is restarted by Ray, and stopping
the launcher ends every process when asked (exit status 0, the learner's state saved)."""

import json
import os
import pathlib
import time

# Ray is installed by scripts/setup-venv.sh; without it this import fails, naming the extra.
from ayo.ray_train import Launcher, find_ayo, ray

TINY = """
variant = "oware"
width = 16
blocks = 1
simulations = 4
fast_simulations = 2
games = 16
max_plies = 60
buffer_size = 4096
min_buffer = 64
batch_size = 32
replay_ratio = 1.0
shard_positions = 256
publish_every_steps = 20
checkpoint_every_s = 2.0
eval_every_s = 0.0
selfplay_threads = 1
"""


def latest(store: pathlib.Path) -> int:
    p = store / "models" / "latest"
    return int(p.read_text()) if p.exists() else -1


def wait(what, timeout, ok):
    start = time.time()
    while not ok():
        assert time.time() - start < timeout, f"timed out waiting for {what}"
        time.sleep(1)


def test_the_launcher_runs_a_learner_and_workers_and_ray_restarts_a_killed_worker(tmp_path):
    find_ayo()  # fails with instructions when the binary is not built
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    try:
        (tmp_path / "tiny.toml").write_text(TINY)
        store = tmp_path / "store"
        launcher = Launcher(
            str(store), workers=2, config=str(tmp_path / "tiny.toml"), out=str(tmp_path / "learner"), cpus_per_process=0.5
        )
        wait("a published network beyond step 0", 120, lambda: latest(store) > 0)
        before = {h["name"]: h for h in launcher.health()}
        assert all(h["alive"] for h in before.values()), before

        # Kill a self-play actor: Ray restarts it, and it starts its worker again.
        ray.kill(launcher.workers[0], no_restart=False)

        def restarted():
            try:
                h = ray.get(launcher.workers[0].health.remote(), timeout=10)
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                return False
            return h["alive"] and h["actor_pid"] != before["worker0"]["actor_pid"]

        wait("the killed worker to be restarted", 90, restarted)
        step = latest(store)
        shards = len(list((store / "shards").glob("*.shard")))
        wait("the run to advance after the restart", 90, lambda: latest(store) > step and len(list((store / "shards").glob("*.shard"))) > shards)
        # SIGINT ends each process at once (the learner after saving its state), not the kill a
        # minute later that a blocked SIGINT in Ray's actor threads used to leave.
        started = time.time()
        codes = launcher.stop()
        assert codes == {"worker0": 0, "worker1": 0, "learner": 0}, codes
        assert time.time() - started < 30, f"stopping took {time.time() - started:.0f} s"
        assert (tmp_path / "learner" / "resume.ot").exists()
        status = json.loads((tmp_path / "learner" / "status.json").read_text())
        assert status["step"] > 0 and status["positions"] > 0
        assert len(status["consumed"]) > 0
        # The restarted worker wrote shards under a new nonce: no name was written twice.
        names = [p.name for p in (store / "shards").glob("w0-*.shard")]
        assert len({n.rsplit("-", 1)[0] for n in names}) >= 2, names
    finally:
        ray.shutdown()
