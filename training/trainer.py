"""One training run: :func:`train` (what ``tribune train CONFIG.yaml`` does).

Layout of a run directory (``output/name``)::

    config.yaml           the resolved config of the latest start (also inside every checkpoint)
    logs/                 SB3 progress.csv and TensorBoard event files (a resumed part in logs/resume-NNNNNNNNN/)
    checkpoints/          step-NNNNNNNNN.zip (+ .json): periodic, resumable
    snapshots/            step-NNNNNNNNN.npz: numpy exports of the self-play pool (pool.json lists the pool)
    eval/                 one tournament results file per evaluation
    eval.csv              win rate with its 95% Wilson interval per evaluation
    learning_curve.png    eval.csv drawn
    final.zip, final.npz  the model at the end

A run that stops (Ctrl-C, a kill) resumes with ``--resume`` from its newest
checkpoint; Ctrl-C saves one first. Resuming redoes what a kill cut short (an
evaluation or a self-play snapshot due at the checkpoint's step), removes the
temporary files of interrupted writes, and is idempotent: resuming a finished
run again changes no result. Resuming from an earlier checkpoint moves the
checkpoints, snapshots and evaluation results after it to ``superseded/``
folders. Every agent the config names is built once before anything is
written. Starting a new run over a directory that already has checkpoints of
training is refused, so nothing saved is overwritten; the leftovers of a start
that stopped before its first training checkpoint are set aside instead.
``pool.json`` names snapshots relative to the run directory, so a run folder
can be moved or copied and resumed there.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console

from agents.base import AgentError
from agents.ppo import CheckpointError, describe_mismatch, read_checkpoint_meta
from training.callbacks import RunCallback
from training.checkpoints import (
    checkpoint_meta,
    export_snapshot,
    load_npz_weights,
    prune_checkpoints,
    save_checkpoint,
    step_checkpoints,
    step_path,
)
from training.config import ConfigError, TrainConfig, check_agents, config_from_dict, env_from_dict
from training.envs import make_vec_env
from training.evaluation import drop_after, evaluate_checkpoint, plot_learning_curve, read_rows, record_rows
from tribune_arena.benchmark.record import code_version
from tribune_arena.tournament.schedule import TournamentError

# keys that may differ between a checkpoint and a resume (ray.*: where an RLlib run runs, e.g. a cluster that lost
# a node resumed with fewer env runners)
RESUMABLE_CHANGES = ("run.", "eval.", "ray.", "name", "output")
TEMPORARY = ("*.tmp", "*.tmp.*")  # names of files being written (checkpoints, exports, pool.json, eval.csv)


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


def _env_as_written_now(saved: Any) -> Any:
    """A checkpoint's resolved config with its env section in today's form (a run written before the section held
    the game's dictionary form resumes); left as it is when that section does not read."""
    if not isinstance(saved, dict) or not isinstance(saved.get("env"), dict):
        return saved
    try:
        return {**saved, "env": env_from_dict(saved["env"]).to_dict()}
    except ConfigError:
        return saved


def check_resume(meta: dict[str, Any], config: TrainConfig, path: Path) -> list[str]:
    """Refuse a checkpoint trained for another game or network; returns the harmless config changes."""
    expected = checkpoint_meta(config, 0, {})
    mismatch = describe_mismatch(meta.get("signature", {}), expected["signature"])
    if mismatch:
        raise TrainError(f"cannot resume from {path}: {mismatch}")
    changes = config_changes(_env_as_written_now(meta.get("config", {})), config.resolved())
    blocking = [c for c in changes if not c.startswith(RESUMABLE_CHANGES)]
    if blocking:
        raise TrainError(
            f"cannot resume from {path}: the config differs in {', '.join(blocking)} "
            "(only run.*, eval.*, ray.*, name and output may change on resume; start a new run for the rest)"
        )
    return changes


PROGRESS_EVERY = 60.0
"""Seconds between two lines of progress on a console that is no terminal (a terminal shows a progress bar)."""
FIRST_ESTIMATE = 10.0
"""Seconds of training after which every run says how long it has left (the rate is measured by then)."""


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


class StepProgress:
    """Training progress as lines (``say``): the first ``first`` seconds into training, then one every ``every``
    seconds (``every=inf``: the first line only, beside a terminal's progress bar). A line gives the steps done of
    ``total``, the share, the rate since the start and the time left: the steps left at that rate plus, with
    ``evaluations``, the evaluations still to come (``evaluations(steps)`` returns the seconds already spent
    evaluating since the start, left out of the rate, and the seconds the evaluations still to come will take).
    ``clock`` is injectable."""

    def __init__(
        self,
        say: Any,
        total: int,
        done: int = 0,
        every: float = PROGRESS_EVERY,
        clock: Any = time.monotonic,
        first: float = FIRST_ESTIMATE,
        evaluations: Callable[[int], tuple[float, float]] | None = None,
    ) -> None:
        self.say, self.total, self.every, self.clock, self.first = say, total, every, clock, first
        self.evaluations = evaluations
        self.start_steps = done
        self.start = self.last = clock()
        self.lines = 0

    def update(self, steps: int) -> None:
        """Say a line when ``first`` seconds passed since the start (the first line) or ``every`` since the last."""
        now = self.clock()
        if now - self.last < (self.every if self.lines else self.first) or steps <= self.start_steps:
            return
        self.last = now
        self.lines += 1
        spent, coming = self.evaluations(steps) if self.evaluations is not None else (0.0, 0.0)
        rate = (steps - self.start_steps) / max(now - self.start - spent, 1e-9)
        left = ""
        if steps < self.total or coming:
            seconds = (self.total - steps) / rate + coming
            evals = f", {_minutes(coming)} of it evaluating" if coming >= 1 else ""
            left = f", about {_minutes(seconds)} left{evals}"
        share = steps / self.total if self.total else 1.0
        self.say(f"trained {steps:,} of {self.total:,} steps ({share:.0%}), {rate:,.0f} steps/s{left}")


class Trainer:
    """Builds the environments and model of a run and trains it (see the module docstring)."""

    def __init__(self, config: TrainConfig, console: Console | None = None) -> None:
        self.config = config
        self.paths = RunPaths(config.run_dir)
        self.console = console or Console(stderr=True)
        self.code = code_version()
        self.resume_steps = 0
        self.eval_spent = 0.0  # seconds spent evaluating since this part of the run started
        self.eval_seconds_per_game: float | None = None  # the last evaluation's pace, for the estimate

    def say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    def progress_bar(self) -> bool:
        """Whether to show a progress bar: ``run.progress_bar`` and the console is a terminal."""
        return self.config.run.progress_bar and self.console.is_terminal

    def progress_lines(self, done: int) -> StepProgress:
        """The one-line progress (:class:`StepProgress`): with ``run.progress_bar`` on a console that is no terminal
        (a log file, CI) a line every minute, else (a terminal's progress bar, or no bar) only the first line, the
        early estimate of the time left, evaluations included."""
        lines = self.config.run.progress_bar and not self.console.is_terminal
        every = PROGRESS_EVERY if lines else math.inf
        return StepProgress(self.say, self.config.run.total_timesteps, done, every, evaluations=self.evaluation_time)

    def evaluation_time(self, steps: int) -> tuple[float, float]:
        """Seconds spent in evaluations during this part of the run, and an estimate of those still to come after
        ``steps`` (the scheduled ones, the last one and the final games, at the last evaluation's pace per game)."""
        cfg = self.config
        if self.eval_seconds_per_game is None:
            return self.eval_spent, 0.0
        total, every = cfg.run.total_timesteps, cfg.eval.every
        scheduled = max(0, total // every - steps // every) if every > 0 else 0
        last = 0 if every > 0 and total % every == 0 else 1
        games = (scheduled + last) * cfg.eval.games + cfg.eval.final_games
        return self.eval_spent, games * self.eval_seconds_per_game

    def plan(self) -> str:
        """What the run will do, said at its start: steps, environments, evaluations, imitation first."""
        cfg = self.config
        total, every = cfg.run.total_timesteps, cfg.eval.every
        evaluations = 1 + (total // every if every > 0 else 0) + (0 if every > 0 and total % every == 0 else 1)
        opponents = ", ".join(cfg.eval.opponents)
        text = (f"{cfg.name}: {total:,} steps with {cfg.n_envs} environment(s); {evaluations} evaluations of "
                f"{cfg.eval.games} games against each of {opponents} (at the start, every {every:,} steps, at the end)")
        if cfg.pretrain.enabled and cfg.pretrain.dataset is not None:
            text += f"; imitation of the dataset {cfg.pretrain.dataset} first"
        elif cfg.pretrain.enabled:
            text += f"; imitation of {cfg.pretrain.games} {cfg.pretrain.teacher} games first"
        return text + f"; an estimate of the time left follows {FIRST_ESTIMATE:.0f} s into training"

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

    def _init_from(self, model: Any, path: Path) -> None:
        """Start from the weights of ``path`` (run.init_from: an SB3 checkpoint, or an exported ``.npz`` with its
        critic): the same network on the same spaces. The optimizer starts afresh from an ``.npz``."""
        if not path.is_file():
            raise TrainError(f"run.init_from: {path} is not a file")
        try:
            if path.suffix == ".npz":  # an exported policy, such as a shipped model
                load_npz_weights(model.policy, path, self.config.ppo.activation)
            else:
                model.set_parameters(str(path), exact_match=True, device=self.config.run.device)
        except Exception as exc:  # SB3 raises many kinds for a file of another shape or a damaged one
            raise TrainError(f"run.init_from: cannot start from {path} ({exc})") from exc
        self.say(f"starting from the weights of {path}")

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
        try:
            rows = evaluate_checkpoint(
                policy,
                steps,
                list(cfg.eval.opponents),
                games or cfg.eval.games,
                cfg.env.game,
                self.paths.eval / tag if tag else self.paths.eval,
                seed=cfg.seed,
                workers=cfg.eval_workers,
                note=self.say,
            )
        except (TournamentError, AgentError) as exc:
            raise TrainError(f"the evaluation at {steps:,} steps failed: {exc}") from None
        if str(policy) not in self.read_pool():  # an export made only for this evaluation: do not pile them up
            policy.unlink(missing_ok=True)
        if not tag:
            record_rows(self.paths.eval_csv, rows)
            self.plot()
        for row in rows:
            if not tag:
                model.logger.record(f"eval/win_rate_vs_{row.opponent}", row.win_rate)
                model.logger.record(f"eval/ci_low_vs_{row.opponent}", row.ci_low)
                model.logger.record(f"eval/ci_high_vs_{row.opponent}", row.ci_high)
            self.say(
                f"{tag or 'eval'} at {steps:,} steps vs {cfg.env.players - 1} x {row.opponent}: {row.result()}"
            )
        took = time.perf_counter() - start
        self.eval_spent += took
        self.eval_seconds_per_game = took / (games or cfg.eval.games)  # per game against every opponent
        self.say(f"evaluation took {took:.0f} s")

    def evaluated(self, steps: int) -> bool:
        """Whether ``eval.csv`` has the evaluation at ``steps`` against every configured opponent."""
        done = {r.opponent for r in self.eval_rows() if r.timesteps == steps}
        return set(self.config.eval.opponents) <= done

    def eval_rows(self) -> list[Any]:
        try:
            return read_rows(self.paths.eval_csv)
        except ValueError as exc:
            raise TrainError(f"{exc}; fix or remove that line to go on") from None

    def plot(self) -> Path:
        """Draw ``eval.csv`` as ``learning_curve.png``."""
        cfg = self.config
        title = (f"{cfg.name}\nwin rate against {cfg.env.players - 1} copies of each opponent "
                 f"({cfg.eval.games} games per point)")  # two lines: a long run name pushed it off the figure
        return plot_learning_curve(self.eval_rows(), self.paths.curve, title=title)

    # -- the run ------------------------------------------------------------------------

    def prepare(self, resume: str | None) -> tuple[Path | None, list[str]]:
        """Check the run directory and resume point before anything is written; returns (checkpoint, pool)."""
        checkpoint: Path | None = None
        pool: list[str] = []
        try:
            check_agents(self.config)
        except ConfigError as exc:
            raise TrainError(str(exc)) from None
        if resume is not None:
            checkpoint = find_resume_checkpoint(self.paths, resume)
            try:
                meta = read_checkpoint_meta(checkpoint)
            except CheckpointError as exc:
                raise TrainError(f"cannot resume: {exc}") from exc
            changes = check_resume(meta, self.config, checkpoint)
            self.resume_steps = int(meta.get("timesteps", 0))
            if changes:
                self.say(f"resuming with changed settings: {', '.join(changes)}")
            if self.config.league.enabled:
                steps = self.resume_steps
                pool = [p for p in self.read_pool() if steps_of(Path(p)) <= steps][-self.config.league.pool_size :]
        elif self._trained():
            raise TrainError(
                f"{self.paths.root} already holds a run: resume it with --resume, or choose another name/output"
            )
        return checkpoint, pool

    def _trained(self) -> bool:
        """Whether the run directory holds a checkpoint of training (a step 0 one is only the start's)."""
        steps = [steps_of(p) for p in step_checkpoints(self.paths.checkpoints)]
        return any(s > 0 for s in steps) or (self.paths.root / "final.zip").exists()

    def write_pool(self, paths: list[str]) -> None:
        """Record the self-play pool (``pool.json``, relative to the run directory), so a resumed run starts with
        the same snapshots, wherever the run directory is then."""
        target = self.paths.root / "pool.json"
        tmp = target.with_name("pool.json.tmp")
        tmp.write_text(json.dumps([self._relative(p) for p in paths], indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)

    def _relative(self, path: str) -> str:
        try:
            return Path(path).relative_to(self.paths.root).as_posix()
        except ValueError:
            return path

    def _located(self, path: str) -> Path:
        """A pool entry as a path: relative ones are in the run directory; an absolute one that is gone (the run
        folder moved) is looked for in this run's snapshots."""
        found = Path(path)
        if not found.is_absolute():
            return self.paths.root / found
        if not found.exists() and (self.paths.snapshots / found.name).exists():
            return self.paths.snapshots / found.name
        return found

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
        return [str(p) for p in map(self._located, paths) if p.exists()]

    def _set_aside_later(self, steps: int) -> None:
        """Move checkpoints and evaluation results files after ``steps`` into a ``superseded/`` folder of their own
        directory: kept, but never resumed from, pruned in place of the new run's files, or reused."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for directory, pattern, what in (
            (self.paths.checkpoints, "step-*", "checkpoint"),
            (self.paths.snapshots, "step-*.npz", "snapshot"),
            (self.paths.eval, "step-*.sqlite*", "evaluation results"),
        ):
            later = [p for p in sorted(directory.glob(pattern)) if p.is_file() and steps_of(p) > steps]
            if not later:
                continue
            target = directory / "superseded" / stamp
            target.mkdir(parents=True, exist_ok=True)
            for path in later:
                path.replace(target / path.name)
            self.say(f"moved {len(later)} {what} file(s) after step {steps:,} to {target}")

    def clean_temporary(self) -> None:
        """Remove the temporary files of writes a kill interrupted (each write replaces its target at the end)."""
        found = [p for d in (self.paths.root, self.paths.checkpoints, self.paths.snapshots) if d.is_dir()
                 for pattern in TEMPORARY for p in d.glob(pattern) if p.is_file()]
        for path in sorted(set(found)):
            path.unlink()
        if found:
            self.say(f"removed {len(set(found))} temporary file(s) of an interrupted write")

    def redo_snapshot(self, checkpoint: Path, steps: int, pool: list[str]) -> list[str]:
        """The pool with the self-play snapshot that was due at ``steps`` but is missing (a kill cut its export)."""
        league = self.config.league
        due = steps // league.snapshot_every * league.snapshot_every
        newest = max((steps_of(Path(p)) for p in pool), default=-1)
        if not league.enabled or due <= 0 or due <= newest:
            return pool
        path = export_snapshot(checkpoint, self.paths.snapshots)
        pool = [*pool, str(path)][-league.pool_size :]
        self.write_pool(pool)
        self.say(f"made the self-play snapshot due at {steps:,} steps again: {path}")
        return pool

    def redo_evaluation(self, model: Any) -> None:
        """Evaluate now if an evaluation was due at or before the model's step but is not in ``eval.csv``."""
        steps = int(model.num_timesteps)
        every = self.config.eval.every
        last = max((r.timesteps for r in self.eval_rows()), default=-1)
        if steps // every * every > last and not self.evaluated(steps):
            self.say(f"the evaluation due at {steps:,} steps is missing (cut short?): evaluating now")
            self.evaluate(model)

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
        self.say(self.plan())
        checkpoint, pool = self.prepare(resume)
        self.write_config()
        self.clean_temporary()
        if checkpoint is None:  # leftovers of a start that stopped before its first training checkpoint
            drop_after(self.paths.eval_csv, -1)
            self._set_aside_later(-1)
        else:  # the evaluations, checkpoints and snapshots after it belong to an abandoned continuation
            drop_after(self.paths.eval_csv, self.resume_steps)
            self._set_aside_later(self.resume_steps)
            pool = self.redo_snapshot(checkpoint, self.resume_steps, pool)
        torch.set_num_threads(cfg.torch_threads)
        env = make_vec_env(cfg, pool)
        try:
            if checkpoint is not None:
                model = self._load_model(checkpoint, env)
                self.say(f"resumed from {checkpoint} at {model.num_timesteps:,} steps; pool: {len(pool)} snapshot(s)")
            else:
                model = self._new_model(env)
                if cfg.run.init_from is not None:
                    self._init_from(model, Path(cfg.run.init_from))
            logs = self.paths.logs
            if checkpoint is not None:  # a new folder: SB3 would overwrite the earlier part's progress.csv
                logs = logs / f"resume-{int(model.num_timesteps):09d}"
            model.set_logger(configure(str(logs), ["csv", "tensorboard"]))
            if checkpoint is None:
                if cfg.pretrain.enabled:
                    self._pretrain(model)
                self.evaluate(model)
                model.logger.dump(0)
            else:
                self.redo_evaluation(model)
            return self._learn(model, env)
        finally:
            env.close()

    def _learn(self, model: Any, env: Any) -> Path:
        cfg = self.config
        callback = RunCallback(self, env)
        remaining = cfg.run.total_timesteps - int(model.num_timesteps)
        start = time.perf_counter()
        if remaining > 0:
            self.say(f"training {remaining:,} steps with {cfg.n_envs} environment(s) ({cfg.vec_env})")
            self.eval_spent = 0.0
            callbacks = [callback, _progress_callback(self.progress_lines(int(model.num_timesteps)))]
            try:
                model.learn(
                    remaining, callback=callbacks, reset_num_timesteps=False, progress_bar=self.progress_bar()
                )
            except KeyboardInterrupt:
                saved = self.save(model)
                self.say(f"interrupted: saved {saved}; continue with --resume")
                raise
        elapsed = time.perf_counter() - start
        final = self.paths.root / "final.zip"
        if not self._final_saved(int(model.num_timesteps)):
            self.save(model, final)
            export_snapshot(final, self.paths.root)
        if not self.evaluated(int(model.num_timesteps)):
            self.evaluate(model)
        if cfg.eval.final_games:
            self.evaluate(model, cfg.eval.final_games, tag="final")
        self.say(f"done: {model.num_timesteps:,} steps, {elapsed / 60:.1f} min of training; final model {final}")
        return final

    def _final_saved(self, steps: int) -> bool:
        """Whether ``final.zip`` and ``final.npz`` already hold the model at ``steps`` (a finished run resumed)."""
        final = self.paths.root / "final.zip"
        if not (final.is_file() and final.with_suffix(".npz").is_file()):
            return False
        try:
            return int(read_checkpoint_meta(final).get("timesteps", -1)) == steps
        except CheckpointError:
            return False

    def _pretrain(self, model: Any) -> None:
        from rich.progress import Progress

        from training.imitation import collect

        pre = self.config.pretrain
        cfg = self.config
        start = time.perf_counter()
        if pre.dataset is not None:
            from training.datasets import read_demonstrations

            data = read_demonstrations(pre.dataset)
            self.say(f"read {len(data):,} decisions from the Minari dataset {pre.dataset}")
            self._imitate(model, data)
            return
        with Progress(console=self.console, disable=not self.progress_bar()) as bar:
            task = bar.add_task(f"imitation games ({pre.teacher})", total=pre.games)
            data = collect(
                pre.teacher, cfg.env.game, pre.games, cfg.seed, pre.keep, cfg.env.reward,
                workers=cfg.eval_workers, tick=lambda n: bar.advance(task, n),
            )
        self.say(f"collected {len(data):,} {pre.teacher} decisions in {time.perf_counter() - start:.0f} s")
        self._imitate(model, data)

    def _imitate(self, model: Any, data: Any) -> None:
        from training.imitation import pretrain

        pre, cfg = self.config.pretrain, self.config

        def log(metrics: dict[str, float]) -> None:
            for key, value in metrics.items():
                model.logger.record(f"pretrain/{key}", value)
            model.logger.dump(int(metrics["epoch"]))
            self.say("imitation epoch {epoch:.0f}: policy loss {policy_loss:.3f}, value loss {value_loss:.3f}, "
                     "held-out accuracy {val_accuracy:.1%}".format(**metrics))

        pretrain(model.policy, data, pre.epochs, pre.batch_size, pre.learning_rate, pre.value_coef, cfg.seed, log)


def _progress_callback(lines: StepProgress) -> Any:
    """An SB3 callback that tells ``lines`` the steps done after every environment step."""
    from stable_baselines3.common.callbacks import BaseCallback

    class ProgressLines(BaseCallback):
        def _on_step(self) -> bool:
            lines.update(int(self.num_timesteps))
            return True

    return ProgressLines()


def steps_of(path: Path) -> int:
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
