"""The SB3 callback of a run: checkpoints, self-play snapshots, evaluations and league progress, on schedule.

The callback knows its run only as a :class:`Run` (what :class:`training.trainer.Trainer` provides), so the trainer
imports this module and this module imports nothing of the trainer (issue 36: no import circle).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from stable_baselines3.common.callbacks import BaseCallback

from training.config import TrainConfig


class Run(Protocol):
    """What :class:`RunCallback` needs of the run it serves (:class:`training.trainer.Trainer`)."""

    @property
    def config(self) -> TrainConfig: ...

    def save(self, model: Any, path: Path | None = None) -> Path: ...

    def snapshot(self, model: Any) -> Path: ...

    def write_pool(self, paths: list[str]) -> None: ...

    def evaluate(self, model: Any, games: int | None = None, tag: str = "") -> None: ...


def _next_multiple(value: int, every: int) -> int:
    return (value // every + 1) * every


class RunCallback(BaseCallback):
    """Every ``run.checkpoint_every`` steps a checkpoint, every ``league.snapshot_every`` a pool snapshot, every
    ``eval.every`` an evaluation; after each rollout the environments learn the training progress."""

    def __init__(self, trainer: Run, env: Any) -> None:
        super().__init__(verbose=0)
        self.trainer = trainer
        self.env = env
        self.last_eval = -1
        self._next: dict[str, int] = {}

    def _on_training_start(self) -> None:
        cfg = self.trainer.config
        steps = int(self.model.num_timesteps)
        self.last_eval = steps if steps == 0 else -1
        self._next = {"checkpoint": _next_multiple(steps, cfg.run.checkpoint_every),
                      "eval": _next_multiple(steps, cfg.eval.every)}
        if cfg.league.enabled:
            self._next["snapshot"] = _next_multiple(steps, cfg.league.snapshot_every)
        self._progress()

    def _progress(self) -> None:
        total = self.trainer.config.run.total_timesteps
        self.env.env_method("set_progress", min(1.0, self.model.num_timesteps / total))

    def _on_rollout_end(self) -> None:
        self._progress()

    def _on_step(self) -> bool:
        steps = int(self.model.num_timesteps)
        cfg = self.trainer.config
        if steps >= self._next["checkpoint"]:
            self.trainer.save(self.model)
            self._next["checkpoint"] = _next_multiple(steps, cfg.run.checkpoint_every)
        if "snapshot" in self._next and steps >= self._next["snapshot"]:
            path = self.trainer.snapshot(self.model)
            self.env.env_method("add_snapshot", str(path))
            pool = self.env.env_method("pool_paths", indices=[0])[0]
            self.trainer.write_pool(pool)
            self.logger.record("league/pool_size", len(pool))
            self._next["snapshot"] = _next_multiple(steps, cfg.league.snapshot_every)
        if steps >= self._next["eval"]:
            self.trainer.evaluate(self.model)
            self.last_eval = steps
            self._next["eval"] = _next_multiple(steps, cfg.eval.every)
        return True
