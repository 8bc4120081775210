"""A real two-node Ray cluster on this machine: tournaments and ``backend: rllib`` training with ``ray.address: auto``,
and what happens when the worker node dies mid-run (issue 25).

The cluster is what a user starts by hand: ``ray start --head`` and ``ray start --address HEAD`` as separate
processes, one CPU each, every node in its own temporary directory, with token authentication on. Only loopback
addresses are used: Ray 2.60 rewrites ``127.0.0.1`` (and ``localhost``) given as a node's IP or as the address to
join into the machine's network address (``services.resolve_ip_for_localhost``), so the head is ``127.0.0.2`` and the
worker node ``127.0.0.3``, addresses of the loopback interface it leaves alone (Ray's servers still listen on every
interface: the token guards them, and usage statistics are off). The token is a file of our own passed
with ``RAY_AUTH_TOKEN_PATH`` (``ray start`` never writes one, and ``~/.ray/auth_token`` is left alone). The cluster is
stopped by killing exactly the processes the two ``ray start --block`` commands started (each runs in its own
session), never with ``ray stop``, which takes no address and kills every Ray process of the machine, other
people's included. Drivers (``tribune tournament``, ``tribune train``) run as subprocesses, as a user runs them.

A node "dies" by SIGKILL of every process of its session (raylet, agents, Ray workers, their game processes), at a
moment the test sees one of our tasks or actors running there (Ray's process titles). Everything is Linux-only (it
reads ``/proc``).

Unit tests of the trainer's handling of lost env runners (no Ray cluster) come last.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tribune_arena.records import GameRecord
from tribune_arena.tournament.store import ResultStore
from tribune_cli.main import main

pytestmark = pytest.mark.ray
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find a node's processes")

HEAD_IP, WORKER_IP = "127.0.0.2", "127.0.0.3"
STARTED = "Ray runtime started"  # what `ray start` prints once its node has joined the cluster
START_LIMIT = 180.0  # seconds for a node to start on a loaded 2-core machine
RUN_LIMIT = 420.0  # seconds for a driver (tournament, training) to finish
#: environment variables of Ray's that a test process may hold from elsewhere and that would change what a node or
#: driver of this cluster does (RAY_AUTH_TOKEN takes precedence over RAY_AUTH_TOKEN_PATH)
_RAY_VARIABLES = ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _session(sid: int) -> dict[int, str]:
    """The processes of session ``sid`` alive now: pid -> command line (Ray workers show their task's name)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()  # state, ppid, pgrp, session
            if int(fields[3]) != sid or fields[0] == "Z":
                continue
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            found[int(entry)] = command.decode(errors="replace")
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
    return found


def _kill_session(process: subprocess.Popen[Any]) -> None:
    """SIGKILL every process of the session ``process`` leads, until none is left, and reap ``process``."""
    deadline = time.monotonic() + 60
    while (alive := _session(process.pid)) and time.monotonic() < deadline:
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)
    assert not _session(process.pid), f"processes of session {process.pid} outlived SIGKILL: {_session(process.pid)}"


class Cluster:
    """A head node and a worker node started with the ``ray start`` command line, one CPU each."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.token = root / "auth_token"
        self.token.write_text(secrets.token_hex(32))  # what `ray get-auth-token --generate` writes
        self.token.chmod(0o600)
        self.port = _free_port()
        self.address = f"{HEAD_IP}:{self.port}"
        self.head: subprocess.Popen[Any] | None = None
        self.worker: subprocess.Popen[Any] | None = None
        self.workers_started = 0
        self.drivers: list[subprocess.Popen[Any]] = []

    def env(self, token: bool = True) -> dict[str, str]:
        """The environment of a node or driver of this cluster (``token``: with the token, as every node needs)."""
        env = {k: v for k, v in os.environ.items() if k not in _RAY_VARIABLES}
        env["RAY_USAGE_STATS_ENABLED"] = "0"  # nothing leaves the machine
        # Ray kills workers when the *machine* is above 95% of its memory; on a shared machine that is other jobs'
        # memory, and the kernel's OOM killer still guards the machine
        env["RAY_memory_monitor_refresh_ms"] = "0"
        if token:
            env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(self.token))
        return env

    def _start(self, name: str, args: list[str]) -> subprocess.Popen[Any]:
        """``ray start ARGS --block`` in its own session; returns once the node has joined."""
        log = self.root / f"{name}.log"
        command = [sys.executable, "-m", "ray.scripts.scripts", "start", *args, "--num-cpus", "1", "--num-gpus", "0",
                   "--temp-dir", str(self.root / name), "--disable-usage-stats",
                   "--dashboard-agent-listen-port", str(_free_port()), "--block"]
        with log.open("wb") as out:
            process = subprocess.Popen(command, env=self.env(), stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + START_LIMIT
        while STARTED not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                _kill_session(process)
                text = log.read_text(errors="replace")[-3000:]
                pytest.fail(f"`ray start` for the {name} node did not start:\n{text}")
            time.sleep(0.3)
        return process

    def start_head(self) -> None:
        self.head = self._start("head", ["--head", "--node-ip-address", HEAD_IP, "--port", str(self.port),
                                         "--ray-client-server-port", str(_free_port()), "--include-dashboard", "false"])

    def start_worker(self) -> None:
        """A (new) worker node joins the head."""
        self.workers_started += 1
        self.worker = self._start(f"worker{self.workers_started}",
                                  ["--address", self.address, "--node-ip-address", WORKER_IP])

    def ensure_worker(self) -> None:
        if self.worker is None or self.worker.poll() is not None:
            self.start_worker()

    def worker_processes(self) -> dict[int, str]:
        return {} if self.worker is None else _session(self.worker.pid)

    def kill_worker(self) -> None:
        """The worker node dies: SIGKILL of all its processes at once."""
        assert self.worker is not None
        _kill_session(self.worker)
        self.worker = None

    def driver(self, args: list[str], log: Path, token: bool = True, **env_vars: str) -> subprocess.Popen[Any]:
        """``tribune ARGS`` as a driver of this cluster (``ray.address: auto`` finds it through RAY_ADDRESS, as on a
        cluster node), in its own session; its output goes to ``log``."""
        env = dict(self.env(token), RAY_ADDRESS=self.address, **env_vars)
        with log.open("wb") as out:
            process = subprocess.Popen([sys.executable, "-m", "tribune_cli.main", *args], env=env, stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        self.drivers.append(process)
        return process

    def stop(self) -> None:
        for process in [*self.drivers, self.worker, self.head]:
            if process is not None:
                _kill_session(process)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    # short: Ray's socket paths under the temp dir must stay within the 107 bytes of a Unix socket name
    root = Path(tempfile.mkdtemp(prefix="tribune-ray-", dir="/tmp" if os.path.isdir("/tmp") else None))
    started = Cluster(root)
    try:
        started.start_head()
        started.start_worker()
        yield started
    finally:
        started.stop()
        shutil.rmtree(root, ignore_errors=True)


class Watch:
    """Watches the worker node's processes for one whose command line (a Ray worker's title: ``ray::TASK``) holds
    ``marker``; ``kill``: then the node dies at once."""

    def __init__(self, cluster: Cluster, marker: str, kill: bool = False) -> None:
        self.cluster, self.marker, self.kill = cluster, marker, kill
        self.seen: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set() and self.seen is None:
            hits = [line for line in self.cluster.worker_processes().values() if self.marker in line]
            if hits:
                if self.kill:
                    self.cluster.kill_worker()
                self.seen = hits[0].strip()
                return
            time.sleep(0.05)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _wait(process: subprocess.Popen[Any], log: Path, limit: float = RUN_LIMIT) -> str:
    try:
        process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        _kill_session(process)
        pytest.fail(f"the driver did not finish within {limit:g} s:\n{log.read_text(errors='replace')[-4000:]}")
    return log.read_text(errors="replace")


# -- tournaments ----------------------------------------------------------------------------------------------------

#: 2 deals of 4 agents (8 games: every rotation on the same engine seed), short games
TOURNAMENT = ["tournament", "random", "greedy", "random", "greedy", "--games", "8", "--seed", "3", "--round-limit", "8",
              "--json", "--no-progress"]


def without_timings(record: GameRecord) -> GameRecord:
    return replace(record, timings=(), seconds=0.0)


@pytest.fixture(scope="module")
def local_games(tmp_path_factory: pytest.TempPathFactory) -> list[GameRecord]:
    """The tournament played in this process's worker pool, without Ray."""
    path = tmp_path_factory.mktemp("local") / "local.sqlite"
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        assert main([*TOURNAMENT, "--workers", "1", "--results", str(path)]) == 0
    with ResultStore(path) as store:
        return [without_timings(r) for r in store.records()]


def _stored(path: Path) -> list[GameRecord]:
    """The games stored in ``path`` (each game id at most once: the table's primary key), all 8 of them."""
    with ResultStore(path) as store:
        records = store.records()
    assert [r.game_id for r in records] == list(range(8)), "every scheduled game once"
    return [without_timings(r) for r in records]


def _tournament(cluster: Cluster, tmp_path: Path, name: str, watch: Watch) -> Path:
    """``tribune tournament --backend ray --ray-address auto`` while ``watch`` watches the worker node."""
    results, log = tmp_path / f"{name}.sqlite", tmp_path / f"{name}.log"
    with watch:
        driver = cluster.driver([*TOURNAMENT, "--backend", "ray", "--ray-address", "auto", "--results", str(results)],
                                log)
        output = _wait(driver, log)
    assert driver.returncode == 0, output[-4000:]
    return results


@linux_only
@pytest.mark.slow
def test_a_tournament_on_two_nodes_plays_the_games_of_a_local_run(
    cluster: Cluster, tmp_path: Path, local_games: list[GameRecord]
) -> None:
    cluster.ensure_worker()
    watch = Watch(cluster, "_ray_play")
    results = _tournament(cluster, tmp_path, "two-nodes", watch)
    # games ran on both nodes (the head's one CPU is busy with the first; Ray sends the next to the worker node)
    assert watch.seen is not None, "no game ran on the worker node"
    assert _stored(results) == local_games


@linux_only
@pytest.mark.slow
def test_a_tournament_finishes_when_the_worker_node_dies_mid_game(
    cluster: Cluster, tmp_path: Path, local_games: list[GameRecord]
) -> None:
    cluster.ensure_worker()
    watch = Watch(cluster, "_ray_play", kill=True)
    results = _tournament(cluster, tmp_path, "node-killed", watch)
    assert watch.seen is not None and "_ray_play" in watch.seen, "the worker node died while it played a game"
    assert cluster.worker is None
    # the lost game was played again on the head: nothing lost, nothing twice, the same games as the local run
    assert _stored(results) == local_games
    # running the command again finds every game stored, and needs no cluster for that
    log = tmp_path / "again.log"
    args = [*TOURNAMENT, "--backend", "ray", "--ray-address", "127.0.0.2:1", "--results", str(results)]
    again = cluster.driver(args, log)
    output = _wait(again, log)
    assert again.returncode == 0 and "8 of 8 games already played" in output, output[-3000:]
    assert _stored(results) == local_games


@linux_only
@pytest.mark.slow
def test_a_driver_without_the_token_is_refused(cluster: Cluster, tmp_path: Path) -> None:
    log = tmp_path / "no-token.log"
    args = [*TOURNAMENT, "--backend", "ray", "--ray-address", cluster.address, "--results", str(tmp_path / "x.sqlite")]
    # Ray tries for about 20 s by default before it gives up: 3 tries are enough here
    driver = cluster.driver(args, log, token=False, RAY_gcs_server_port_wait_time_s="3")
    output = _wait(driver, log, limit=120)
    assert driver.returncode == 2 and f"cannot start or reach Ray at {cluster.address}" in output, output[-3000:]
    assert "refused this process's authentication token: set RAY_AUTH_MODE=token" in output


# -- RLlib training ----------------------------------------------------------------------------------------------

RLLIB_CONFIG = """
name: rl
backend: rllib
output: {output}
env: {{players: 4, round_limit: 10}}
opponents: {{mix: {{random: 1.0}}}}
ppo: {{n_steps: 64, batch_size: 64, n_epochs: 1, net_pi: [32, 32], net_vf: [32]}}
eval: {{every: 1000000, games: 4, opponents: [random], workers: 1, final_games: 0}}
run: {{total_timesteps: 1000000, checkpoint_every: 128, keep_checkpoints: 3, progress_bar: false, torch_threads: 1}}
ray: {{address: auto, env_runners: 2}}
"""


def _checkpoints(run: Path) -> dict[int, Path]:
    """The run's complete RLlib checkpoint folders by their steps."""
    found = {}
    for folder in (run / "checkpoints").glob("step-*.rllib"):
        with contextlib.suppress(OSError, ValueError, KeyError):
            found[int(json.loads((folder / "tribune.json").read_text())["timesteps"])] = folder
    return found


def _wait_until(condition: Any, process: subprocess.Popen[Any], log: Path, what: str) -> None:
    deadline = time.monotonic() + RUN_LIMIT
    while not condition():
        if process.poll() is not None or time.monotonic() > deadline:
            _kill_session(process)
            pytest.fail(f"{what} never happened:\n{log.read_text(errors='replace')[-4000:]}")
        time.sleep(0.2)


@linux_only
@pytest.mark.slow
@pytest.mark.rllib
def test_rllib_training_on_two_nodes_survives_the_worker_node_and_resumes_from_its_last_checkpoint(
    cluster: Cluster, tmp_path: Path
) -> None:
    cluster.ensure_worker()
    config = tmp_path / "rl.yaml"
    config.write_text(RLLIB_CONFIG.format(output=tmp_path / "runs"), encoding="utf-8")
    run, log = tmp_path / "runs" / "rl", tmp_path / "train.log"
    driver = cluster.driver(["train", str(config)], log)
    # 2 env runners of 1 CPU: one on each node; the node dies once a checkpoint is written
    with Watch(cluster, "EnvRunner") as runner:
        _wait_until(lambda: runner.seen is not None and _checkpoints(run), driver, log, "an env runner on the worker "
                    "node and a first checkpoint")
    at_kill = max(_checkpoints(run))
    cluster.kill_worker()
    # RLlib trains on with the env runner of the head; two more checkpoints show it
    _wait_until(lambda: max(_checkpoints(run)) >= at_kill + 256, driver, log, "training after the worker node died")
    _kill_session(driver)  # the driver dies too, at any moment
    last = max(_checkpoints(run))
    rows = (run / "logs" / "progress.csv").read_text().splitlines()
    assert len(rows) >= 4 and rows[0].startswith("timesteps,")
    # resumed on the head alone (1 CPU: 1 env runner) from the newest checkpoint, to 256 steps further
    log = tmp_path / "resume.log"
    resume = cluster.driver(["train", str(config), "--resume", "--set", "ray.env_runners=1",
                             "--set", f"run.total_timesteps={last + 256}"], log)
    output = _wait(resume, log)
    assert resume.returncode == 0, output[-4000:]
    assert f"resumed from {_checkpoints(run).get(last, '?')} at {last:,} steps" in output
    assert "resuming with changed settings" in output and "ray.env_runners" in output
    final = json.loads((run / "final.json").read_text())
    assert final["timesteps"] >= last + 256
    assert max(_checkpoints(run)) >= last + 256 and (run / "final.npz").is_file()


# -- lost env runners (no cluster) -----------------------------------------------------------------------------------


class _FakeAlgo:
    """``train()`` results: learner steps per iteration (``None``: no env runner sampled); the last one repeats."""

    def __init__(self, *steps: int | None) -> None:
        self.steps = steps
        self.calls = 0

    def train(self) -> dict[str, Any]:
        steps = self.steps[min(self.calls, len(self.steps) - 1)]
        self.calls += 1
        runners = {} if steps is None else {"num_module_steps_sampled": {"learner": steps}}
        return {"env_runners": runners, "training_iteration": self.calls}


class _Logger:
    def record(self, key: str, value: float) -> None:
        pass

    def dump(self, step: int) -> None:
        pass


def _learn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, algo: _FakeAlgo, total: int) -> tuple[Any, list[int]]:
    """``RLlibTrainer._learn`` on ``algo`` (nothing saved, exported or evaluated); returns the model and the steps
    of the checkpoints it saved."""
    import training.rllib_trainer as rllib_trainer
    from training.config import config_from_dict

    config = config_from_dict({
        "name": "lost", "backend": "rllib", "output": str(tmp_path), "env": {"players": 4},
        "eval": {"every": 1000000, "games": 4, "final_games": 0},
        "run": {"total_timesteps": total, "checkpoint_every": 1000000, "progress_bar": False},
    })
    trainer = rllib_trainer.RLlibTrainer(config)
    saved: list[int] = []

    def save(model: Any, path: Path | None = None) -> Path:
        saved.append(int(model.num_timesteps))
        return tmp_path / f"step-{model.num_timesteps}.rllib"

    monkeypatch.setattr(trainer, "save", save)
    monkeypatch.setattr(trainer, "export", lambda model, target: target)
    monkeypatch.setattr(trainer, "evaluate", lambda *args, **kwargs: None)
    monkeypatch.setattr(rllib_trainer, "broadcast", lambda *args: 1)
    monkeypatch.setattr(rllib_trainer, "_RUNNERS_LOST_PAUSE", 0.01)
    model = rllib_trainer._Model(algo, 0, _Logger())  # type: ignore[arg-type]
    trainer._learn(model, [])
    return model, saved


@pytest.mark.rllib
def test_training_waits_for_lost_env_runners_and_goes_on_when_they_are_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, saved = _learn(tmp_path, monkeypatch, _FakeAlgo(64, None, None, None, 64), total=128)
    assert model.num_timesteps == 128 and model.algo.calls == 5
    assert saved == [128]  # the final checkpoint only


@pytest.mark.rllib
def test_training_saves_and_stops_when_its_env_runners_stay_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import training.rllib_trainer as rllib_trainer
    from training.trainer import TrainError

    monkeypatch.setattr(rllib_trainer, "RUNNERS_LOST_WAIT", 0.05)
    with pytest.raises(TrainError, match=r"no env runner has sampled .* at 64 steps: resume with --resume") as caught:
        _learn(tmp_path, monkeypatch, _FakeAlgo(64, None), total=1024)
    assert "step-64.rllib" in str(caught.value)  # the learner of the last iteration, saved


def test_a_refused_token_is_named_only_when_ray_says_so() -> None:
    from tribune_arena.tournament.backends import ray_auth_hint

    refused = ConnectionError("Failed to connect to Ray cluster at 127.0.0.2:6379")
    refused.__cause__ = RuntimeError("... ray.exceptions.AuthenticationError: RPC error: InvalidAuthToken: ...")
    assert "set RAY_AUTH_MODE=token" in ray_auth_hint(refused)
    assert ray_auth_hint(ConnectionError("Failed to connect to Ray cluster at 127.0.0.2:6379")) == ""
