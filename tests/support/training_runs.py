"""Tiny training runs in tests: the smoke config (``configs/smoke.yaml``) with overrides, a silent console, and the
folder of a ``zero`` run for the offline tools."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import yaml
from paths import CONFIGS
from rich.console import Console

from agents.ppo import NumpyPolicy
from training.config import TrainConfig, load_config
from training.zero.config import load_zero_config

SMOKE = CONFIGS / "smoke.yaml"


def smoke(output: Path, **overrides: object) -> TrainConfig:
    """The smoke config writing its runs under ``output``, with ``overrides`` (``section.key`` names)."""
    return load_config(SMOKE, {"output": str(output), **overrides})


def quiet() -> Console:
    """A console whose output goes nowhere (a training run's progress and tables)."""
    return Console(file=io.StringIO())


def zero_run_folder(tmp_path: Path, snapshots: Sequence[NumpyPolicy]) -> Path:
    """``tmp_path / "run"``: a ``zero`` run's folder with the resolved ``configs/zero-smoke.yaml`` and
    ``snapshots/iter-NNNN.npz`` for each of ``snapshots`` (iteration 0 first); the caller writes its shards."""
    run = tmp_path / "run"
    (run / "snapshots").mkdir(parents=True)
    config = load_zero_config(CONFIGS / "zero-smoke.yaml", {"output": str(tmp_path)})
    (run / "config.yaml").write_text(yaml.safe_dump(config.resolved(), sort_keys=False), encoding="utf-8")
    for k, policy in enumerate(snapshots):
        policy.save_npz(run / "snapshots" / f"iter-{k:04d}.npz")
    return run
