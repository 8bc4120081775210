"""One training run: :func:`train` (what ``tribune train CONFIG.yaml`` does).

Layout of a run directory (``output/name``)::

    config.yaml           the resolved config of the latest start (also inside every checkpoint)
    logs/                 SB3 progress.csv and TensorBoard event files (a resumed part in logs/resume-NNNNNNNNN/)
    checkpoints/          step-NNNNNNNNN.zip (+ .json): periodic, resumable
    snapshots/            step-NNNNNNNNN.npz: numpy exports of the self-play pool (pool.json lists the pool)
    eval/                 one tournament results file per evaluation
    eval.csv              win rate with 95% CI per evaluation
    learning_curve.png    eval.csv drawn
    final.zip, final.npz  the model at the end

A run that stops (Ctrl-C, a kill) resumes with ``--resume`` from its newest
checkpoint; Ctrl-C saves one first. Resuming from an earlier checkpoint moves
the checkpoints and evaluation results after it to ``superseded/`` folders.
Starting a new run over a directory that already has checkpoints is refused, so
nothing saved is overwritten.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console

from agents.ppo import CheckpointError, describe_mismatch, read_checkpoint_meta
from training.checkpoints import (
    checkpoint_meta,
    code_version,
    export_snapshot,
    game_config,
    prune_checkpoints,
    save_checkpoint,
    step_checkpoints,
    step_path,
)
from training.config import TrainConfig, config_from_dict
from training.envs import make_vec_env
from training.evaluation import append_rows, drop_after, evaluate_checkpoint, plot_learning_curve, read_rows

RESUMABLE_CHANGES = ("run.", "eval.", "name", "output")  # keys that may differ between a checkpoint and a resume


class TrainError(Exception):
    """A run that cannot start or resume; the message says why and nothing saved was changed."""


@dataclass
class RunPaths:
    root: Path
    checkpoints: Path = field(init=False)
    snapshots: Path = field(init=False)
    eval: Path = field(init=False)
    logs: Path = field(init=False)

    def __post_init__(self) -> None:
        self.checkpoints = self.root / "checkpoints"
        self.snapshots = self.root / "snapshots"
        self.eval = self.root / "eval"
        self.logs = self.root / "logs"

    @property
    def eval_csv(self) -> Path:
        return self.root / "eval.csv"

    @property
    def curve(self) -> Path:
        return self.root / "learning_curve.png"


def find_resume_checkpoint(paths: RunPaths, resume: str) -> Path:
    """``resume`` is ``"latest"`` (the run's newest step checkpoint) or a checkpoint path."""
    if resume != "latest":
        path = Path(resume)
        if not path.is_file():
            raise TrainError(f"--resume {resume}: no such checkpoint file")
        return path
    found = step_checkpoints(paths.checkpoints)
    if not found:
        raise TrainError(f"--resume: {paths.checkpoints} has no checkpoints to resume from")
    return found[-1]


def _flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(data, dict):
        return {prefix.rstrip("."): data}
    out: dict[str, Any] = {}
    for key, value in data.items():
        out.update(_flatten(value, f"{prefix}{key}."))
    return out


def config_changes(saved: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Dotted keys whose values differ between two resolved configs."""
    a, b = _flatten(saved), _flatten(current)
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def check_resume(meta: dict[str, Any], config: TrainConfig, path: Path) -> list[str]:
    """Refuse a checkpoint trained for another game or network; returns the harmless config changes."""
    expected = checkpoint_meta(config, 0, {})
    mismatch = describe_mismatch(meta.get("signature", {}), expected["signature"])
    if mismatch:
        raise TrainError(f"cannot resume from {path}: {mismatch}")
    changes = config_changes(meta.get("config", {}), config.resolved())
    blocking = [c for c in changes if not c.startswith(RESUMABLE_CHANGES)]
    if blocking:
        raise TrainError(
            f"cannot resume from {path}: the config differs in {', '.join(blocking)} "
            "(only run.*, eval.*, name and output may change on resume; start a new run for the rest)"
        )
    return changes


class Trainer:
    """Builds the environments and model of a run and trains it (see the module docstring)."""

    def __init__(self, config: TrainConfig, console: Console | None = None) -> None:
        self.config = config
        self.paths = RunPaths(config.run_dir)
        self.console = console or Console(stderr=True)
        self.code = code_version()

    def say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    # -- model ----------------------------------------------------------------------

    def _new_model(self, env: Any) -> Any:
        import torch
        from sb3_contrib import MaskablePPO

        ppo = self.config.ppo
        activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[ppo.activation]
        return MaskablePPO(
            "MlpPolicy",
            env,
            learning_rate=ppo.learning_rate,
            n_steps=ppo.n_steps,
            batch_size=ppo.batch_size,
            n_epochs=ppo.n_epochs,
            gamma=ppo.gamma,
            gae_lambda=ppo.gae_lambda,
            clip_range=ppo.clip_range,
            ent_coef=ppo.ent_coef,
            vf_coef=ppo.vf_coef,
            max_grad_norm=ppo.max_grad_norm,
            target_kl=ppo.target_kl,
            policy_kwargs={"net_arch": {"pi": list(ppo.net_pi), "vf": list(ppo.net_vf)}, "activation_fn": activation},
            seed=self.config.seed,
            device=self.config.run.device,
            verbose=0,
        )

    def _load_model(self, path: Path, env: Any) -> Any:
        """The model of the checkpoint on ``env``; check_resume made sure its ppo settings equal the config's."""
        from sb3_contrib import MaskablePPO

        try:
            return MaskablePPO.load(path, env=env, device=self.config.run.device)
        except Exception as exc:  # SB3 raises many kinds for a damaged file
            raise TrainError(f"cannot resume from {path}: the checkpoint cannot be loaded ({exc})") from exc

    # -- saving, evaluation -----------------------------------------------------------

    def save(self, model: Any, path: Path | None = None) -> Path:
        steps = int(model.num_timesteps)
        target = path or step_path(self.paths.checkpoints, steps)
        save_checkpoint(model, target, checkpoint_meta(self.config, steps, self.code))
        if path is None:
            prune_checkpoints(self.paths.checkpoints, self.config.run.keep_checkpoints)
        return target

    def snapshot(self, model: Any) -> Path:
        """Export the current policy to ``snapshots/`` (through a checkpoint, so the export is a real checkpoint)."""
        checkpoint = step_path(self.paths.checkpoints, int(model.num_timesteps))
        if not checkpoint.exists():
            self.save(model)  # the newest step checkpoint, so pruning keeps it (later ones were set aside on resume)
        return export_snapshot(checkpoint, self.paths.snapshots)

    def evaluate(self, model: Any, games: int | None = None, tag: str = "") -> None:
        cfg = self.config
        policy = self.snapshot(model)
        steps = int(model.num_timesteps)
        start = time.perf_counter()
        rows = evaluate_checkpoint(
            policy,
            steps,
            list(cfg.eval.opponents),
            games or cfg.eval.games,
            cfg.env.players,
            self.paths.eval / tag if tag else self.paths.eval,
            seed=cfg.seed,
            workers=cfg.eval_workers,
            round_limit=cfg.env.round_limit,
            victory_card=cfg.env.victory_card,
            point_variant=cfg.env.point_variant,
        )
        if str(policy) not in self.read_pool():  # an export made only for this evaluation: do not pile them up
            policy.unlink(missing_ok=True)
        if not tag:
            append_rows(self.paths.eval_csv, rows)
            self.plot()
        for row in rows:
            if not tag:
                model.logger.record(f"eval/win_rate_vs_{row.opponent}", row.win_rate)
                model.logger.record(f"eval/ci_low_vs_{row.opponent}", row.ci_low)
                model.logger.record(f"eval/ci_high_vs_{row.opponent}", row.ci_high)
            self.say(
                f"{tag or 'eval'} at {steps:,} steps vs {cfg.env.players - 1} x {row.opponent}: "
                f"{row.wins}/{row.games} = {row.win_rate:.1%} (95% CI {row.ci_low:.1%}-{row.ci_high:.1%}, "
                f"parity {row.parity:.0%})"
            )
        self.say(f"evaluation took {time.perf_counter() - start:.0f} s")

    def plot(self) -> Path:
        """Draw ``eval.csv`` as ``learning_curve.png``."""
        cfg = self.config
        title = (f"{cfg.name}: win rate against {cfg.env.players - 1} copies of each opponent "
                 f"({cfg.eval.games} games per point)")
        return plot_learning_curve(read_rows(self.paths.eval_csv), self.paths.curve, title=title)

    # -- the run ------------------------------------------------------------------------

    def prepare(self, resume: str | None) -> tuple[Path | None, list[str]]:
        """Check the run directory and resume point before anything is written; returns (checkpoint, pool)."""
        checkpoint: Path | None = None
        pool: list[str] = []
        if resume is not None:
            checkpoint = find_resume_checkpoint(self.paths, resume)
            try:
                meta = read_checkpoint_meta(checkpoint)
            except CheckpointError as exc:
                raise TrainError(f"cannot resume: {exc}") from exc
            changes = check_resume(meta, self.config, checkpoint)
            if changes:
                self.say(f"resuming with changed settings: {', '.join(changes)}")
            if self.config.league.enabled:
                steps = int(meta.get("timesteps", 0))
                pool = [p for p in self.read_pool() if _steps_of(Path(p)) <= steps][-self.config.league.pool_size :]
        elif step_checkpoints(self.paths.checkpoints) or (self.paths.root / "final.zip").exists():
            raise TrainError(
                f"{self.paths.root} already holds a run: resume it with --resume, or choose another name/output"
            )
        return checkpoint, pool

    def write_pool(self, paths: list[str]) -> None:
        """Record the self-play pool (``pool.json``), so a resumed run starts with the same snapshots."""
        target = self.paths.root / "pool.json"
        tmp = target.with_name("pool.json.tmp")
        tmp.write_text(json.dumps(paths, indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)

    def read_pool(self) -> list[str]:
        target = self.paths.root / "pool.json"
        if not target.exists():
            return []
        try:
            paths = json.loads(target.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise TrainError(f"{target}: not a JSON list of snapshot paths ({exc})") from None
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise TrainError(f"{target}: not a JSON list of snapshot paths")
        return [p for p in paths if Path(p).exists()]

    def _set_aside_later(self, steps: int) -> None:
        """Move checkpoints and evaluation results files after ``steps`` into a ``superseded/`` folder of their own
        directory: kept, but never resumed from, pruned in place of the new run's files, or reused."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for directory, pattern, what in (
            (self.paths.checkpoints, "step-*", "checkpoint"),
            (self.paths.eval, "step-*.sqlite*", "evaluation results"),
        ):
            later = [p for p in directory.glob(pattern) if p.is_file() and _steps_of(p) > steps]
            if not later:
                continue
            target = directory / "superseded" / stamp
            target.mkdir(parents=True, exist_ok=True)
            for path in later:
                path.replace(target / path.name)
            self.say(f"moved {len(later)} {what} file(s) after step {steps:,} to {target}")

    def write_config(self) -> None:
        self.paths.root.mkdir(parents=True, exist_ok=True)
        resolved = self.config.resolved()
        (self.paths.root / "config.yaml").write_text(yaml.safe_dump(resolved, sort_keys=False), encoding="utf-8")
        (self.paths.root / "code.json").write_text(json.dumps(self.code, indent=2) + "\n", encoding="utf-8")

    def run(self, resume: str | None = None) -> Path:
        """Train to ``run.total_timesteps``; returns the final checkpoint's path."""
        import torch
        from stable_baselines3.common.logger import configure

        cfg = self.config
        checkpoint, pool = self.prepare(resume)
        self.write_config()
        torch.set_num_threads(cfg.torch_threads)
        env = make_vec_env(cfg, pool)
        try:
            if checkpoint is not None:
                model = self._load_model(checkpoint, env)
                drop_after(self.paths.eval_csv, int(model.num_timesteps))
                self._set_aside_later(int(model.num_timesteps))
                self.say(f"resumed from {checkpoint} at {model.num_timesteps:,} steps; pool: {len(pool)} snapshot(s)")
            else:
                model = self._new_model(env)
            logs = self.paths.logs
            if checkpoint is not None:  # a new folder: SB3 would overwrite the earlier part's progress.csv
                logs = logs / f"resume-{int(model.num_timesteps):09d}"
            model.set_logger(configure(str(logs), ["csv", "tensorboard"]))
            if checkpoint is None:
                if cfg.pretrain.enabled:
                    self._pretrain(model)
                self.evaluate(model)
                model.logger.dump(0)
            return self._learn(model, env)
        finally:
            env.close()

    def _learn(self, model: Any, env: Any) -> Path:
        from training.callbacks import RunCallback

        cfg = self.config
        callback = RunCallback(self, env)
        remaining = cfg.run.total_timesteps - int(model.num_timesteps)
        start = time.perf_counter()
        if remaining > 0:
            self.say(f"training {remaining:,} steps with {cfg.n_envs} environment(s) ({cfg.vec_env})")
            try:
                model.learn(
                    remaining, callback=callback, reset_num_timesteps=False, progress_bar=cfg.run.progress_bar
                )
            except KeyboardInterrupt:
                saved = self.save(model)
                self.say(f"interrupted: saved {saved}; continue with --resume")
                raise
        elapsed = time.perf_counter() - start
        final = self.save(model, self.paths.root / "final.zip")
        export_snapshot(final, self.paths.root)
        if callback.last_eval != int(model.num_timesteps):
            self.evaluate(model)
        if cfg.eval.final_games:
            self.evaluate(model, cfg.eval.final_games, tag="final")
        self.say(f"done: {model.num_timesteps:,} steps, {elapsed / 60:.1f} min of training; final model {final}")
        return final

    def _pretrain(self, model: Any) -> None:
        from rich.progress import Progress

        from training.imitation import collect, pretrain

        pre = self.config.pretrain
        cfg = self.config
        start = time.perf_counter()
        with Progress(console=self.console, disable=not cfg.run.progress_bar) as bar:
            task = bar.add_task(f"imitation games ({pre.teacher})", total=pre.games)
            data = collect(
                pre.teacher, game_config(cfg), pre.games, cfg.seed, pre.keep, cfg.env.reward,
                workers=cfg.eval_workers, tick=lambda n: bar.advance(task, n),
            )
        self.say(f"collected {len(data):,} {pre.teacher} decisions in {time.perf_counter() - start:.0f} s")

        def log(metrics: dict[str, float]) -> None:
            for key, value in metrics.items():
                model.logger.record(f"pretrain/{key}", value)
            model.logger.dump(int(metrics["epoch"]))
            self.say("imitation epoch {epoch:.0f}: policy loss {policy_loss:.3f}, value loss {value_loss:.3f}, "
                     "held-out accuracy {val_accuracy:.1%}".format(**metrics))

        pretrain(model.policy, data, pre.epochs, pre.batch_size, pre.learning_rate, pre.value_coef, cfg.seed, log)


def _steps_of(path: Path) -> int:
    try:
        return int(path.name.split("-")[1].split(".")[0])
    except (IndexError, ValueError):
        return -1


def train(config: TrainConfig, resume: str | None = None, console: Console | None = None) -> Path:
    """Run (or resume, ``resume="latest"`` or a checkpoint path) the training of ``config``."""
    return Trainer(config, console).run(resume)


def config_of_checkpoint(path: Path) -> TrainConfig:
    """The training config stored in a checkpoint (to repeat or extend its run)."""
    meta = read_checkpoint_meta(path)
    return config_from_dict(meta.get("config", {}), str(path))


__all__ = ["TrainError", "Trainer", "config_of_checkpoint", "train"]
