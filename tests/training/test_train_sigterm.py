"""``tribune train`` stopped by SIGTERM (a scheduler's stop, ``timeout``, ``kill``) stops as Ctrl+C does: the trainer
says where the run stands, its worker pools are closed (no traceback, no leaked semaphores), the exit status is 143,
and ``--resume`` goes on from there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from paths import CONFIGS, ROOT

pytestmark = [pytest.mark.train, pytest.mark.slow]  # subprocess runs of 10-15 s each

SIGTERM_STATUS = 143


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "tribune_cli.main", "train", *args], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)


def _wait_for(ready: Callable[[], bool], process: subprocess.Popen[bytes], log: Path, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if process.poll() is not None:
            pytest.fail(f"the run ended (status {process.returncode}) before it could be stopped:\n{log.read_text()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the run did not get there in {seconds:g} s:\n{log.read_text()}")
        time.sleep(0.2)


def _terminate(process: subprocess.Popen[bytes], log: Path) -> str:
    process.send_signal(signal.SIGTERM)
    try:
        status = process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"SIGTERM did not stop the run in 120 s:\n{log.read_text()}")
    text = log.read_text()
    assert status == SIGTERM_STATUS, text
    assert "stopped by SIGTERM" in text
    assert "Traceback" not in text, text
    assert "leaked" not in text, text  # multiprocessing's resource tracker: a pool that was not closed
    return text


def test_sigterm_stops_a_zero_run_where_it_stands_and_it_resumes(tmp_path: Path) -> None:
    """A ``zero`` run with two self-play workers, stopped after its first iteration."""
    common = ["--set", f"output={tmp_path}", "--set", "selfplay.workers=2", "--set", "eval.every=0"]
    log = tmp_path / "run.log"
    process = _start([str(CONFIGS / "zero-smoke.yaml"), *common, "--set", "gate.every=0",
                      "--set", "run.iterations=1000"], log)
    state = tmp_path / "zero-smoke" / "state.json"

    def iterated() -> bool:  # state.json is replaced whole (written to a temporary name first)
        return state.is_file() and json.loads(state.read_text())["iteration"] >= 1

    _wait_for(iterated, process, log)
    text = _terminate(process, log)
    assert "interrupted: the run stands after iteration" in text
    done = json.loads(state.read_text())["iteration"]
    assert done >= 1
    resumed = subprocess.run(
        [sys.executable, "-m", "tribune_cli.main", "train", str(CONFIGS / "zero-smoke.yaml"), *common,
         "--set", "gate.every=0", "--set", f"run.iterations={done + 1}", "--resume"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"resuming after iteration {done}" in resumed.stdout + resumed.stderr
    assert json.loads(state.read_text())["iteration"] == done + 1


def test_sigterm_stops_a_pool_run_at_its_last_checkpoint_and_it_resumes(tmp_path: Path) -> None:
    """A ``ppo-pool`` run saving a checkpoint every rollout, stopped once one is saved."""
    config = {
        "algorithm": "ppo-pool", "name": "tiny", "seed": 3, "output": str(tmp_path),
        "game": {"players": 4},
        "opponents": {"learner_seats": 1, "mix": {"self": 1.0}},
        "network": {"first_width": 16, "hidden": [8]},
        "ppo": {"games": 8, "steps": 8, "epochs": 1, "minibatch": 16, "torch_threads": 1, "device": "cpu"},
        "eval": {"every_minutes": 0, "games": 4, "opponents": []},
        "run": {"decisions": 10**9, "max_minutes": None, "progress_bar": False, "checkpoint_minutes": 0.0},
    }
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    log = tmp_path / "run.log"
    process = _start([str(path)], log)
    checkpoint = tmp_path / "tiny" / "checkpoints" / "latest.pt"
    _wait_for(checkpoint.is_file, process, log)
    text = _terminate(process, log)
    assert "interrupted: the run stands at its last checkpoint (" in text
    resumed = subprocess.run(
        [sys.executable, "-m", "tribune_cli.main", "train", str(path), "--set", "run.decisions=1", "--resume"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "resuming" in resumed.stdout + resumed.stderr
