"""A distributed training run on a Ray cluster: one learner and N self-play workers, each a Ray
actor that runs the ``ayo`` binary as a subprocess (``ayo train --run URL --learner`` and
``ayo selfplay --run URL``; see docs/distributed.md). The processes share nothing but the
run's storage (a folder every node mounts, or an S3 bucket): game data never goes through Ray.
Ray places the actors, reports their health and restarts a dead one (``max_restarts``); a
restarted learner resumes from its last saved state.

    pip install 'ayo[ray]'
    python -m ayo.ray_train --run /shared/run1 --variant oware --workers 4 [--learner-gpus 1]
    python -m ayo.ray_train --run s3://bucket/run1 --config experiments/oware.toml --address auto

The package stays free of torch: only the ``ayo`` binary (built from this repository, found as
``--ayo``, ``$AYO_BIN``, ``ayo`` on the PATH or ``target/release/ayo``) links libtorch.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Any

try:
    import ray
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError("ayo.ray_train needs Ray, which is not installed: pip install 'ayo[ray]'") from e

__all__ = ["Launcher", "ProcessActor", "find_ayo", "main"]


def find_ayo(given: str | None = None) -> str:
    """The ``ayo`` binary: ``given``, ``$AYO_BIN``, ``ayo`` on the PATH, or the repository's build."""
    repo_build = pathlib.Path(__file__).resolve().parents[2] / "target" / "release" / "ayo"
    for candidate in (given, os.environ.get("AYO_BIN"), shutil.which("ayo"), str(repo_build)):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError(
        "no ayo binary: build it (cargo build --release -p ayo-train) and pass --ayo PATH or set AYO_BIN"
    )


@ray.remote(max_restarts=-1, max_task_retries=-1)
class ProcessActor:
    """Runs one ``ayo`` command and lives as long as it does: when the process ends with an
    error, the actor exits so that Ray restarts it (and the command with it)."""

    def __init__(self, name: str, argv: list[str], log: str, resume_flag_if: str | None = None) -> None:
        self.name, self.log = name, log
        argv = list(argv)
        # A restarted learner continues its run (its folder holds resume.ot).
        if resume_flag_if and os.path.exists(resume_flag_if):
            argv.append("--resume")
        self.argv = argv
        pathlib.Path(log).parent.mkdir(parents=True, exist_ok=True)
        self.out = open(log, "ab")
        self.proc = subprocess.Popen(argv, stdout=self.out, stderr=subprocess.STDOUT)
        self.started = time.time()
        self.stopping = False
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        code = self.proc.wait()
        if not self.stopping and code != 0:
            os._exit(1)  # Ray restarts the actor, which starts the command again

    def health(self) -> dict[str, Any]:
        """Whether the process runs, its pid and exit code, uptime and its last log line."""
        last = ""
        try:
            with open(self.log, "rb") as f:
                f.seek(max(0, os.path.getsize(self.log) - 4096))
                lines = [line for line in f.read().decode("utf-8", "replace").splitlines() if line.strip()]
                last = lines[-1] if lines else ""
        except OSError:
            pass
        return {
            "name": self.name,
            "alive": self.proc.poll() is None,
            "returncode": self.proc.poll(),
            "pid": self.proc.pid,
            "actor_pid": os.getpid(),
            "uptime_s": time.time() - self.started,
            "argv": self.argv,
            "last_line": last,
        }

    def stop(self, timeout: float = 60.0) -> int | None:
        """Asks the process to finish (SIGINT: the learner saves its state), waits, kills."""
        self.stopping = True
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


class Launcher:
    """One learner and ``workers`` self-play actors of the run at ``run``."""

    def __init__(
        self,
        run: str,
        variant: str = "oware",
        workers: int = 2,
        config: str | None = None,
        out: str | None = None,
        learner_gpus: float = 0,
        cpus_per_process: float = 1,
        ayo: str | None = None,
        extra: list[str] | None = None,
    ) -> None:
        self.run, self.ayo = run, find_ayo(ayo)
        self.out = os.path.abspath(out or os.path.join("runs", f"{variant}-learner"))
        learner = [self.ayo, "train", "--run", run, "--learner", "--out", self.out]
        # The config's variant wins over the default one.
        learner += ["--config", os.path.abspath(config)] if config else ["--variant", variant]
        learner += extra or []
        logs = os.path.join(self.out, "logs")
        self.learner = ProcessActor.options(name=None, num_cpus=cpus_per_process, num_gpus=learner_gpus).remote(
            "learner", learner, os.path.join(logs, "learner.log"), os.path.join(self.out, "resume.ot")
        )
        self.workers = [
            ProcessActor.options(num_cpus=cpus_per_process).remote(
                f"worker{i}",
                [self.ayo, "selfplay", "--run", run, "--worker", f"w{i}"],
                os.path.join(logs, f"worker{i}.log"),
            )
            for i in range(workers)
        ]

    def health(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Every actor's health (an actor being restarted answers once it is back)."""
        return ray.get([a.health.remote() for a in [self.learner, *self.workers]], timeout=timeout)

    def stop(self) -> dict[str, int | None]:
        """Stops the workers, then the learner (which saves its state), and the actors; returns
        each process's exit code by name (0: it stopped when asked; negative: it was killed)."""
        ray.get([w.stop.remote() for w in self.workers])
        ray.get(self.learner.stop.remote())
        codes = {h["name"]: h["returncode"] for h in self.health()}
        for a in [*self.workers, self.learner]:
            ray.kill(a, no_restart=True)
        return codes


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m ayo.ray_train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", required=True, help="the run's storage: a folder all nodes see, or s3://bucket/prefix")
    p.add_argument("--variant", default="oware")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--config", help="TOML configuration of the run (see ayo train --help)")
    p.add_argument("--out", help="the learner's folder (logs, checkpoints, resume state)")
    p.add_argument("--learner-gpus", type=float, default=0)
    p.add_argument("--cpus-per-process", type=float, default=1)
    p.add_argument("--minutes", type=float, help="stop after this many minutes (default: Ctrl-C)")
    p.add_argument("--address", help="Ray cluster address (default: start a local one)")
    p.add_argument("--ayo", help="path of the ayo binary")
    a = p.parse_args(argv)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if a.address:
        ray.init(address=a.address)
    else:
        ray.init(include_dashboard=False, _node_ip_address="127.0.0.1")
    launcher = Launcher(a.run, a.variant, a.workers, a.config, a.out, a.learner_gpus, a.cpus_per_process, a.ayo)
    start = time.time()
    try:
        while a.minutes is None or time.time() - start < a.minutes * 60:
            time.sleep(10)
            for h in launcher.health():
                state = "up" if h["alive"] else f"exited {h['returncode']}"
                print(f"{h['name']:>9} {state:>9} {h['uptime_s']:7.0f} s | {h['last_line'][-100:]}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        launcher.stop()
        ray.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])
