"""Tiny training runs in tests: the smoke config (``configs/smoke.yaml``) with overrides, and a silent console."""

from __future__ import annotations

import io
from pathlib import Path

from paths import CONFIGS
from rich.console import Console

from training.config import TrainConfig, load_config

SMOKE = CONFIGS / "smoke.yaml"


def smoke(output: Path, **overrides: object) -> TrainConfig:
    """The smoke config writing its runs under ``output``, with ``overrides`` (``section.key`` names)."""
    return load_config(SMOKE, {"output": str(output), **overrides})


def quiet() -> Console:
    """A console whose output goes nowhere (a training run's progress and tables)."""
    return Console(file=io.StringIO())
