"""``backend: rllib``: the training run of :mod:`training.trainer` on Ray RLlib's multi-agent PPO.

What stays the same as with SB3: the config file (``env``, ``opponents``, ``league``, ``ppo``, ``eval``, ``run``),
the league (:mod:`training.rllib_env`: reference agents, frozen snapshots and ``self`` drawn per seat by the
schedule), the run directory's layout, evaluations through the tournament runner (``eval.csv``, the learning
curve), and the exported policy: ``final.npz`` is an ordinary ``ppo:PATH`` agent. What differs:

* one learning module (:class:`~tribune_env.integrations.rllib.TribuneTorchModule`, the ``MlpPolicy`` layout of
  ``ppo.net_pi``/``net_vf``) plays every seat the league gives the learner, masked by the action mask;
* sampling runs on ``ray.env_runners`` Ray actors with ``ray.envs_per_env_runner`` games each, on a local Ray
  instance, or on a cluster (``ray.address``); a rollout is ``ppo.n_steps`` learner steps per environment;
* an env runner lost with its node (or killed by Ray) is restarted by RLlib where the cluster has room, and the run
  trains on with the others meanwhile; with none left it waits :data:`RUNNERS_LOST_WAIT` seconds, then saves a
  checkpoint and stops with a TrainError that says to resume;
* checkpoints are RLlib checkpoint folders ``checkpoints/step-NNNNNNNNN.rllib/`` (metadata beside them as
  ``.json``), resumable with ``--resume`` (``ray.*`` may change then); ``logs/progress.csv`` and TensorBoard events
  hold the training metrics.
  Imitation pretraining and ``run.init_from`` are SB3 features and are refused by the config check.

Steps are the learner's decisions (RLlib's module steps of :data:`~training.rllib_env.LEARNER`), the unit of
``run.total_timesteps`` for both backends.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agents.ppo import CheckpointError
from training.checkpoints import checkpoint_meta, write_side_meta
from training.config import ConfigError, TrainConfig, check_agents
from training.evaluation import drop_after
from training.rllib_env import LEARNER, LeagueMultiAgentEnv, broadcast, learner_mapping
from training.trainer import Trainer, TrainError, check_resume, steps_of
from tribune_arena.tournament.backends import ray_auth_hint

CHECKPOINT_SUFFIX = ".rllib"
POLICY_NAME = "policy.npz"  # the learner's numpy export inside every RLlib checkpoint folder
#: seconds a run waits for RLlib to bring back its env runners once an iteration sampled nothing (every runner lost:
#: its node died, or Ray killed it) before it saves a checkpoint and stops
RUNNERS_LOST_WAIT = 300.0
_RUNNERS_LOST_PAUSE = 2.0  # seconds between the iterations that wait for them
PROGRESS_KEYS = ("timesteps", "iteration", "seconds", "steps_per_second", "episode_return_mean", "episode_len_mean",
                 "policy_loss", "vf_loss", "entropy", "mean_kl_loss")


class _Logger:
    """What :meth:`Trainer.evaluate` records, written to TensorBoard (when installed) at the next dump."""

    def __init__(self, directory: Path) -> None:
        self.values: dict[str, float] = {}
        self.writer: Any = None
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(directory))
        except ImportError:  # pragma: no cover - tensorboard comes with the train extra
            self.writer = None

    def record(self, key: str, value: float) -> None:
        self.values[key] = float(value)

    def dump(self, step: int) -> None:
        if self.writer is not None:
            for key, value in self.values.items():
                self.writer.add_scalar(key, value, step)
            self.writer.flush()
        self.values.clear()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class _Model:
    """The RLlib algorithm with the two things :class:`Trainer` reads of an SB3 model."""

    def __init__(self, algo: Any, timesteps: int, logger: _Logger) -> None:
        self.algo = algo
        self.num_timesteps = timesteps
        self.logger = logger


class RLlibTrainer(Trainer):
    """Builds the RLlib PPO algorithm of a run and trains it (see the module docstring)."""

    def __init__(self, config: TrainConfig, console: Console | None = None) -> None:
        super().__init__(config, console)
        self._started_ray = False

    # -- checkpoints ----------------------------------------------------------------------

    def step_checkpoints(self) -> list[Path]:
        """The run's RLlib checkpoint folders, oldest first."""
        folder = self.paths.checkpoints
        if not folder.is_dir():
            return []
        found = [p for p in folder.glob(f"step-*{CHECKPOINT_SUFFIX}") if p.is_dir() and steps_of(p) >= 0]
        return sorted(found, key=steps_of)

    def save(self, model: Any, path: Path | None = None) -> Path:
        steps = int(model.num_timesteps)
        target = path or self.paths.checkpoints / f"step-{steps:09d}{CHECKPOINT_SUFFIX}"
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        model.algo.save_to_path(str(tmp.resolve()))
        meta = checkpoint_meta(self.config, steps, self.code)
        (tmp / "tribune.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        self.export(model, tmp / POLICY_NAME)  # the numpy policy inside: `tribune train --export` reads it
        shutil.rmtree(target, ignore_errors=True)
        os.replace(tmp, target)
        write_side_meta(target, meta)
        if path is None:
            for old in self.step_checkpoints()[: -self.config.run.keep_checkpoints]:
                shutil.rmtree(old, ignore_errors=True)
                old.with_suffix(".json").unlink(missing_ok=True)
        return target

    def export(self, model: Any, target: Path) -> Path:
        """The learner's module as a numpy ``.npz`` policy at ``target`` (written atomically)."""
        from training.rllib_export import export_module

        target.parent.mkdir(parents=True, exist_ok=True)
        meta = checkpoint_meta(self.config, int(model.num_timesteps), self.code)
        return export_module(model.algo.get_module(LEARNER), meta, target)

    def snapshot(self, model: Any) -> Path:
        return self.export(model, self.paths.snapshots / f"step-{int(model.num_timesteps):09d}.npz")

    def _set_aside_later(self, steps: int) -> None:
        """As for SB3 (files after ``steps`` move to ``superseded/``), and the RLlib checkpoint folders too."""
        super()._set_aside_later(steps)
        later = [p for p in self.step_checkpoints() if steps_of(p) > steps]
        if later:
            target = self.paths.checkpoints / "superseded" / time.strftime("%Y%m%d-%H%M%S")
            target.mkdir(parents=True, exist_ok=True)
            for path in later:
                path.replace(target / path.name)
            self.say(f"moved {len(later)} RLlib checkpoint folder(s) after step {steps:,} to {target}")

    def _trained(self) -> bool:
        return any(steps_of(p) > 0 for p in self.step_checkpoints()) or (self.paths.root / "final.npz").exists()

    def _resume_point(self, resume: str) -> Path:
        if resume != "latest":
            path = Path(resume)
            if not (path.is_dir() and (path / "tribune.json").is_file()):
                raise TrainError(f"--resume {resume}: not an RLlib checkpoint folder of `tribune train`")
            return path
        found = self.step_checkpoints()
        if not found:
            raise TrainError(f"--resume: {self.paths.checkpoints} has no RLlib checkpoints to resume from")
        return found[-1]

    def prepare(self, resume: str | None) -> tuple[Path | None, list[str]]:
        try:
            check_agents(self.config)
        except ConfigError as exc:
            raise TrainError(str(exc)) from None
        if resume is None:
            if self._trained():
                raise TrainError(
                    f"{self.paths.root} already holds a run: resume it with --resume, or choose another name/output"
                )
            return None, []
        checkpoint = self._resume_point(resume)
        try:
            meta = json.loads((checkpoint / "tribune.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TrainError(f"cannot resume from {checkpoint}: unreadable metadata ({exc})") from None
        changes = check_resume(meta, self.config, checkpoint)
        self.resume_steps = int(meta.get("timesteps", 0))
        if changes:
            self.say(f"resuming with changed settings: {', '.join(changes)}")
        pool: list[str] = []
        if self.config.league.enabled:
            pool = [p for p in self.read_pool() if steps_of(Path(p)) <= self.resume_steps]
            pool = pool[-self.config.league.pool_size :]
        return checkpoint, pool

    # -- the algorithm ------------------------------------------------------------------------

    def algorithm_config(self, pool: list[str]) -> Any:
        """RLlib's ``PPOConfig`` for this run (the mapping of the config's keys is in docs/training/rllib.md)."""
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

        from tribune_env.integrations.rllib import module_spec

        cfg, ppo, ray_cfg = self.config, self.config.ppo, self.config.ray
        cpus: Any = ray_cfg.cpus_per_env_runner  # Ray takes fractions; RLlib's annotation says int
        spec = module_spec(pi=list(ppo.net_pi), vf=list(ppo.net_vf), activation=ppo.activation)
        return (
            PPOConfig()  # type: ignore[no-untyped-call]
            .environment(LeagueMultiAgentEnv, env_config={"train": cfg.resolved(), "pool": list(pool)})
            .env_runners(
                num_env_runners=ray_cfg.env_runners,
                num_envs_per_env_runner=ray_cfg.envs_per_env_runner,
                num_cpus_per_env_runner=cpus,
                rollout_fragment_length="auto",
            )
            .multi_agent(policies={LEARNER}, policy_mapping_fn=learner_mapping, policies_to_train=[LEARNER])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={LEARNER: spec}))
            .learners(num_gpus_per_learner=1 if cfg.run.device.startswith("cuda") else 0)
            .training(
                train_batch_size_per_learner=ppo.n_steps * cfg.n_envs,
                minibatch_size=ppo.batch_size,
                num_epochs=ppo.n_epochs,
                lr=ppo.learning_rate,
                gamma=ppo.gamma,
                lambda_=ppo.gae_lambda,
                clip_param=ppo.clip_range,
                entropy_coeff=ppo.ent_coef,
                vf_loss_coeff=ppo.vf_coef,
                grad_clip=ppo.max_grad_norm,
                grad_clip_by="global_norm",
                use_kl_loss=False,
                vf_clip_param=float("inf"),
            )
            .debugging(seed=cfg.seed, log_level="ERROR")
        )

    def _start_ray(self) -> None:
        import ray

        if ray.is_initialized():
            return
        address = self.config.ray.address
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:  # a local instance with room for every env runner (the driver itself needs none)
            needed = self.config.ray.env_runners * self.config.ray.cpus_per_env_runner
            options["num_cpus"] = max(os.cpu_count() or 1, int(needed + 0.999))
        try:
            ray.init(address=address, **options)
        except Exception as exc:  # ConnectionError, ValueError, RuntimeError... for an unreachable cluster
            hint = ray_auth_hint(exc)
            raise TrainError(f"ray.address {address!r}: cannot start or join Ray ({type(exc).__name__}: {exc}){hint}") \
                from None
        self._started_ray = True

    def _stop_ray(self) -> None:
        if self._started_ray:
            import ray

            ray.shutdown()
            self._started_ray = False

    # -- the run ---------------------------------------------------------------------------

    def run(self, resume: str | None = None) -> Path:
        """Train to ``run.total_timesteps``; returns the final exported policy (``final.npz``)."""
        import torch

        cfg = self.config
        self.say(self.plan())
        checkpoint, pool = self.prepare(resume)
        self.write_config()
        self.clean_temporary()
        drop_after(self.paths.eval_csv, self.resume_steps if checkpoint is not None else -1)
        self._set_aside_later(self.resume_steps if checkpoint is not None else -1)
        torch.set_num_threads(cfg.torch_threads)
        self._start_ray()
        logger = _Logger(self.paths.logs if checkpoint is None else self.paths.logs / f"resume-{self.resume_steps:09d}")
        algo = None
        try:
            try:
                algo = self.algorithm_config(pool).build_algo()
            except Exception as exc:  # an env runner that cannot start surfaces as many kinds of error
                raise TrainError(f"RLlib could not build the algorithm: {type(exc).__name__}: {exc}") from exc
            model = _Model(algo, self.resume_steps, logger)
            if checkpoint is not None:
                try:
                    algo.restore_from_path(str(checkpoint.resolve()))
                except Exception as exc:  # RLlib raises many kinds for a damaged folder
                    raise TrainError(f"cannot resume from {checkpoint}: {type(exc).__name__}: {exc}") from None
                self.say(f"resumed from {checkpoint} at {model.num_timesteps:,} steps; pool: {len(pool)} snapshot(s)")
            if broadcast(algo, model.num_timesteps / cfg.run.total_timesteps) == 0:
                raise TrainError("no league environment answered on the env runners")
            if checkpoint is None:
                self.evaluate(model)
                logger.dump(0)
            else:
                self.redo_evaluation(model)
            return self._learn(model, pool)
        finally:
            if algo is not None:
                algo.stop()
            logger.close()
            self._stop_ray()

    def _learn(self, model: Any, pool: list[str]) -> Path:
        cfg = self.config
        total = cfg.run.total_timesteps
        start = time.perf_counter()
        say = f"training {max(0, total - model.num_timesteps):,} steps with {cfg.ray.env_runners} env runner(s)"
        self.say(f"{say} x {cfg.ray.envs_per_env_runner} game(s) (Ray RLlib PPO)")
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        self.eval_spent = 0.0
        lines = self.progress_lines(model.num_timesteps)
        with Progress(*columns, console=self.console, disable=not self.progress_bar()) as bar:
            task = bar.add_task("learner steps", total=total, completed=model.num_timesteps)
            lost: float | None = None  # since when no env runner has sampled
            while model.num_timesteps < total:
                before = model.num_timesteps
                try:
                    result = model.algo.train()
                    sampled = _learner_steps(result)
                    if sampled is None:
                        lost = self._runners_lost(model, lost)
                        continue
                except KeyboardInterrupt:
                    saved = self.save(model)
                    self.say(f"interrupted: saved {saved}; continue with --resume")
                    raise
                if lost is not None:
                    self.say(f"the env runners sample again after {time.monotonic() - lost:.0f} s")
                    lost = None
                model.num_timesteps += sampled
                steps = model.num_timesteps
                bar.update(task, completed=min(steps, total))
                lines.update(steps)
                self._log_progress(model, result, time.perf_counter() - start)
                snapshot = None
                if cfg.league.enabled and _crossed(before, steps, cfg.league.snapshot_every):
                    snapshot = str(self.snapshot(model))
                    pool = [*pool, snapshot][-cfg.league.pool_size :]
                    self.write_pool(pool)
                broadcast(model.algo, min(1.0, steps / total), snapshot)
                if _crossed(before, steps, cfg.run.checkpoint_every):
                    self.save(model)
                if _crossed(before, steps, cfg.eval.every):
                    self.evaluate(model)
                    model.logger.dump(steps)
        elapsed = time.perf_counter() - start
        final = self.paths.root / "final.npz"
        self.save(model, self.paths.root / f"final{CHECKPOINT_SUFFIX}")
        self.export(model, final)
        if not self.evaluated(model.num_timesteps):
            self.evaluate(model)
        if cfg.eval.final_games:
            self.evaluate(model, cfg.eval.final_games, tag="final")
        model.logger.dump(model.num_timesteps)
        self.say(f"done: {model.num_timesteps:,} steps, {elapsed / 60:.1f} min of training; final policy {final}")
        return final

    def _runners_lost(self, model: _Model, since: float | None) -> float:
        """An iteration sampled nothing: every env runner is lost (its node died, or Ray killed it), and RLlib restarts
        them where the cluster has room. Wait (returns since when) up to :data:`RUNNERS_LOST_WAIT` seconds; after that
        save a checkpoint of the learner (it is the last iteration's, intact in this process) and raise TrainError."""
        now = time.monotonic()
        if since is None:
            self.say(f"no env runner sampled at {model.num_timesteps:,} steps (lost with its node, or killed by Ray): "
                     f"waiting up to {RUNNERS_LOST_WAIT:g} s for RLlib to restart them")
            since = now
        if now - since >= RUNNERS_LOST_WAIT:
            saved = self.save(model)
            raise TrainError(
                f"no env runner has sampled for {now - since:.0f} s (Ray's logs say why: a node died, or it ran out of "
                f"memory); saved {saved} at {model.num_timesteps:,} steps: resume with --resume once the cluster has "
                "room for ray.env_runners runners (or with fewer: --set ray.env_runners=N)"
            )
        time.sleep(_RUNNERS_LOST_PAUSE)
        return since

    def _log_progress(self, model: _Model, result: dict[str, Any], seconds: float) -> None:
        """One row of ``logs/progress.csv``; the same numbers go to TensorBoard with the next dump."""
        steps = model.num_timesteps
        runners = result.get("env_runners", {})
        learner = result.get("learners", {}).get(LEARNER, {})
        row = {
            "timesteps": steps,
            "iteration": result.get("training_iteration", 0),
            "seconds": round(seconds, 2),
            "steps_per_second": round((steps - self.resume_steps) / seconds, 2) if seconds > 0 else 0.0,
            "episode_return_mean": runners.get("episode_return_mean", ""),
            "episode_len_mean": runners.get("episode_len_mean", ""),
            "policy_loss": learner.get("policy_loss", ""),
            "vf_loss": learner.get("vf_loss", ""),
            "entropy": learner.get("entropy", ""),
            "mean_kl_loss": learner.get("mean_kl_loss", ""),
        }
        path = self.paths.logs / "progress.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        new = not path.exists()
        with path.open("a", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, fieldnames=PROGRESS_KEYS)
            if new:
                writer.writeheader()
            writer.writerow(row)
        for key, value in row.items():
            if isinstance(value, int | float) and key != "timesteps":
                model.logger.record(f"train/{key}", float(value))
        model.logger.dump(steps)


def _crossed(before: int, after: int, every: int) -> bool:
    """Whether a multiple of ``every`` lies in ``(before, after]``."""
    return after // every > before // every


def _learner_steps(result: dict[str, Any]) -> int | None:
    """The learner's decisions sampled in one ``train()`` iteration; ``None`` if no env runner sampled (all lost)."""
    runners = result.get("env_runners", {})
    if not runners:
        return None
    steps = runners.get("num_module_steps_sampled", {}).get(LEARNER)
    if steps is None:
        raise TrainError(f"RLlib's result has no module step count for {LEARNER!r}; keys: {sorted(runners)}")
    return int(steps)


def export_checkpoint(folder: Path, out: Path, dtype: str = "float16") -> Path:
    """``tribune train --export`` for an RLlib checkpoint folder: its numpy policy, in ``dtype``, at ``out``."""
    from agents.ppo import NumpyPolicy

    source = folder / POLICY_NAME
    if not source.is_file():
        raise CheckpointError(f"{folder}: not an RLlib checkpoint of `tribune train` (no {POLICY_NAME} inside)")
    return NumpyPolicy.from_file(source).save_npz(out, dtype=dtype)


def train_rllib(config: TrainConfig, resume: str | None = None, console: Console | None = None) -> Path:
    """Run (or resume) the RLlib training of ``config``; returns ``final.npz``."""
    try:
        return RLlibTrainer(config, console).run(resume)
    except CheckpointError as exc:
        raise TrainError(str(exc)) from None


__all__ = ["RLlibTrainer", "export_checkpoint", "train_rllib"]
