"""One ``zero`` training run: :func:`train_zero` (what ``tribune train CONFIG`` does for ``algorithm: zero``).

Iteration ``i`` plays ``selfplay.games`` games with the best network so far (``snapshots/iter-0000.npz`` is the
starting network, ``init_from``), adds their positions to the replay window, trains the learner on the window,
exports the learner's network as the iteration's snapshot, holds the gate when due (:mod:`training.zero.gate`: the
snapshot becomes the best network only when it beats the best head-to-head and is not worse against ``heuristic``;
``gate.every: 0``: every snapshot becomes the best) and evaluates the snapshot when due. Layout of the run folder
(``output/name``)::

    config.yaml            the resolved config (a resume must match it except in RESUMABLE_CHANGES)
    code.json              package version, git commit, whether the tree had changes (of the latest start)
    state.json             the last finished iteration, positions and games so far, elapsed time, seeds
    latest.npz             the best network (a copy of its snapshot): zero-net:path=... / zero:path=...
    snapshots/iter-NNNN.npz  the learner's network after each iteration (float16, with metadata): a candidate
    gate/iter-NNNN-*.sqlite  the gate's tournaments of that iteration's candidate (training.zero.gate)
    learner/iter-NNNN.pt   the learner's weights and optimiser state of the last iteration (for --resume)
    replay/iter-NNNN.npz   the positions of each iteration still in the replay window
    eval/iter-NNNN-vs-OPPONENT.sqlite  the evaluation tournaments (tribune replay / tournament read them)
    curve.csv, curve.png   the learning curve (:mod:`training.zero.curve`)

Every file is written to a temporary name and renamed, and ``state.json`` is written last: a kill loses at most the
iteration in progress, and ``--resume`` removes its leftovers and plays it again. Everything random is seeded from
``seed``, the iteration and the game's index, so with ``run.max_minutes`` not reached the same config gives the same
snapshots on the CPU, whatever ``selfplay.workers`` and however often the run was stopped and resumed. A new run
over a folder that holds anything is refused.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agents.base import AgentError
from agents.ppo import CheckpointError, NumpyPolicy, load_policy
from training.config import ConfigError
from training.zero.config import ZeroConfig, check_roles, config_changes
from training.zero.curve import CurveRow, plot_curve, read_curve, record, write_curve
from training.zero.gate import Evaluation, GateError, decide, network_spec, tournament
from training.zero.replay import Positions, ReplayBuffer, shard_path, shards
from training.zero.selfplay import GameData, Pool, SelfPlayError, SelfPlayJob, job_seed, make_pool
from tribune_arena.benchmark.record import code_version
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition, TournamentError, derive_seed
from tribune_arena.tournament.store import StoreError
from tribune_env.engine.config import config_to_dict

if TYPE_CHECKING:
    from training.zero.learner import Learner

TEMPORARY = ("*.tmp", "*.tmp.*", "*.tmp-*")


class ZeroTrainError(Exception):
    """A run that cannot start, resume or go on; the message says why (what was saved stays)."""


@dataclass
class RunState:
    """``state.json``: where the run stands after its last finished iteration."""

    iteration: int = -1  # -1: nothing finished (not even the start, iteration 0)
    positions: int = 0
    searched: int = 0
    games: int = 0
    elapsed: float = 0.0
    iteration_seconds: float = 0.0  # how long the last iteration took (the max_minutes estimate)
    clear: int = 0  # clear labels so far (:func:`training.zero.selfplay.overrules`; absent from older runs: 0)
    best: int = -1  # the best network's iteration (latest.npz; absent from older runs: the last iteration)
    best_opponent: Evaluation | None = None  # the best network against the gate's opponent (None: not measured)

    @classmethod
    def read(cls, path: Path) -> RunState:
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            state = cls(**{k: data[k] for k in ("iteration", "positions", "searched", "games", "elapsed",
                                                "iteration_seconds")}, clear=data.get("clear", 0))
            state.best = int(data.get("best", state.iteration))
            measured = data.get("best_opponent")
            state.best_opponent = None if measured is None else Evaluation(**measured)
            return state
        except (ValueError, KeyError, TypeError) as exc:
            raise ZeroTrainError(f"{path}: not a run state ({exc}); the run cannot resume") from None

    def to_json(self) -> dict[str, Any]:
        """The fields as plain data (``state.json``)."""
        data = dataclasses.asdict(self)
        return data


class RunFolder:
    """The paths of a run folder (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.snapshots, self.learner, self.replay, self.eval, self.gate = (
            root / d for d in ("snapshots", "learner", "replay", "eval", "gate"))

    def snapshot(self, iteration: int) -> Path:
        return self.snapshots / f"iter-{iteration:04d}.npz"

    def learner_state(self, iteration: int) -> Path:
        return self.learner / f"iter-{iteration:04d}.pt"

    def eval_store(self, iteration: int, opponent: str) -> Path:
        slug = "".join(c if c.isalnum() or c in "-_=" else "_" for c in opponent)
        return self.eval / f"iter-{iteration:04d}-vs-{slug}.sqlite"

    def gate_store(self, iteration: int, kind: str) -> Path:
        return self.gate / f"iter-{iteration:04d}-{kind}.sqlite"

    @property
    def state(self) -> Path:
        return self.root / "state.json"

    @property
    def curve(self) -> Path:
        return self.root / "curve.csv"

    @property
    def latest(self) -> Path:
        return self.root / "latest.npz"


def _iteration_of(path: Path) -> int:
    try:
        return int(path.name.split("-")[1].split(".")[0])
    except (IndexError, ValueError):
        return -1


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def _copy(source: Path, target: Path) -> None:
    tmp = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, tmp)
    tmp.replace(target)


class ZeroTrainer:
    """Runs (or resumes) the training of a :class:`ZeroConfig` (see the module docstring)."""

    def __init__(self, config: ZeroConfig, console: Console | None = None) -> None:
        self.config = config
        self.folder = RunFolder(config.run_dir)
        self.console = console or Console(stderr=True)
        self.code = code_version()
        self.started = time.monotonic()
        self.state = RunState()
        self.device = "cpu"
        self.init_policy: NumpyPolicy | None = None
        self.init_digest = ""

    def say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    # -- starting ------------------------------------------------------------------------------

    def prepare(self, resume: bool) -> None:
        """Check the config's agents, the run folder and (on resume) the saved config before anything is written."""
        cfg, root = self.config, self.folder.root
        try:
            check_roles(cfg)
        except ConfigError as exc:
            raise ZeroTrainError(str(exc)) from None
        self.init_policy = load_policy(cfg.init_path)
        self.init_digest = hashlib.sha256(cfg.init_path.read_bytes()).hexdigest()
        saved = root / "config.yaml"
        if not resume:
            if root.exists() and any(root.iterdir()):
                raise ZeroTrainError(
                    f"{root} already holds a run: continue it with --resume, or choose another name or output "
                    "(--set name=NEW)"
                )
            return
        if not saved.is_file():
            raise ZeroTrainError(f"--resume: {root} holds no run to resume (no config.yaml)")
        try:
            before = yaml.safe_load(saved.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ZeroTrainError(f"--resume: cannot read {saved}: {exc}") from None
        harmless, blocking = config_changes(before, cfg.resolved())
        if blocking:
            raise ZeroTrainError(
                f"cannot resume {root}: the config differs in {', '.join(blocking)} (a resume may change only where "
                "and how long the run goes: run.*, eval.*, selfplay.workers/backend, ray.*, learner.device/"
                "torch_threads; start a new run for the rest)"
            )
        if harmless:
            self.say(f"resuming with changed settings: {', '.join(harmless)}")
        self.state = RunState.read(self.folder.state)

    def write_config(self) -> None:
        root = self.folder.root
        root.mkdir(parents=True, exist_ok=True)
        tmp = root / "config.yaml.tmp"
        tmp.write_text(yaml.safe_dump(self.config.resolved(), sort_keys=False), encoding="utf-8")
        tmp.replace(root / "config.yaml")
        _write_json(root / "code.json", self.code)

    def clean(self) -> None:
        """Remove temporary files and whatever belongs to iterations after the last finished one."""
        done, folder = self.state.iteration, self.folder
        removed = 0
        for directory in (folder.root, folder.snapshots, folder.learner, folder.replay, folder.eval, folder.gate):
            if not directory.is_dir():
                continue
            for path in sorted(directory.iterdir()):
                later = directory != folder.root and _iteration_of(path) > done
                if path.is_file() and (later or any(path.match(p) for p in TEMPORARY)):
                    path.unlink()
                    removed += 1
        if removed:
            self.say(f"removed {removed} file(s) of an unfinished iteration")
        if folder.curve.exists():
            write_curve(folder.curve, [r for r in self._curve() if r.iteration <= done])
        best = self.best_iteration
        if folder.snapshot(best).is_file():  # latest.npz may be the unfinished iteration's
            _copy(folder.snapshot(best), folder.latest)

    def _curve(self) -> list[CurveRow]:
        try:
            return read_curve(self.folder.curve)
        except ValueError as exc:
            raise ZeroTrainError(f"{exc}; fix or remove that line to go on") from None

    # -- the network ----------------------------------------------------------------------------

    def meta(self, iteration: int) -> dict[str, Any]:
        """The metadata of the network after ``iteration``: the starting network's format, signature, layout and
        spaces, and what made it."""
        assert self.init_policy is not None
        kept = {k: v for k, v in self.init_policy.meta.items() if k in ("format", "signature", "net", "space")}
        state = self.state
        return {
            **kept,
            "game": config_to_dict(self.config.game),
            "trained_by": "zero",
            "iteration": iteration,
            "positions": state.positions,
            "games": state.games,
            "init_from": {"path": str(self.config.init_path), "sha256": self.init_digest},
            "config": self.config.resolved(),
            "code": self.code,
        }

    def export(self, learner: Learner, iteration: int) -> Path:
        """Write ``snapshots/iter-NNNN.npz`` (float16); ``latest.npz`` too when there is no gate (every network is
        then the best) or at iteration 0."""
        self.folder.snapshots.mkdir(parents=True, exist_ok=True)
        path = learner.policy(self.meta(iteration)).save_npz(self.folder.snapshot(iteration), "float16")
        if iteration == 0 or not self.config.gate.every:
            _copy(path, self.folder.latest)
        return path

    @property
    def best_iteration(self) -> int:
        """The iteration of the best network (``latest.npz``): the gate's choice, else the last iteration."""
        state = self.state
        return state.best if state.best >= 0 else max(state.iteration, 0)

    # -- the gate -------------------------------------------------------------------------------

    def gate_due(self, iteration: int) -> bool:
        every = self.config.gate.every
        return every > 0 and iteration > 0 and (iteration % every == 0 or iteration == self.config.run.iterations)

    def _gate_tournament(self, iteration: int, kind: str, specs: list[str], games: int) -> Evaluation:
        cfg = self.config
        seed = derive_seed(cfg.seed, "zero-gate", kind)  # the same deals at every gate
        try:
            return tournament(specs, cfg.game, games, seed, self.folder.gate_store(iteration, kind), cfg.eval_workers)
        except GateError as exc:
            raise ZeroTrainError(f"the gate after iteration {iteration}: {exc}") from None

    def measure_opponent(self, iteration: int, network: Path) -> Evaluation:
        """``network`` alone against ``players - 1`` copies of ``gate.opponent`` on the gate's deals."""
        cfg = self.config
        specs = [network_spec(network), *[cfg.gate.opponent] * (cfg.game.players - 1)]
        return self._gate_tournament(iteration, "opponent", specs, cfg.gate.heuristic_games)

    def hold_gate(self, iteration: int, candidate: Path, row: CurveRow) -> tuple[CurveRow, bool]:
        """The gate for ``candidate`` (:func:`training.zero.gate.decide`): on acceptance it becomes the best network
        (``latest.npz``); the row with the gate's figures, and whether it was accepted."""
        cfg, state = self.config, self.state
        best = self.folder.snapshot(self.best_iteration)
        specs = [network_spec(candidate), *[network_spec(best)] * (cfg.game.players - 1)]
        h2h = self._gate_tournament(iteration, "h2h", specs, cfg.gate.games)
        opponent = None
        if h2h.ci_low > h2h.parity or not cfg.gate.short_circuit:
            opponent = self.measure_opponent(iteration, candidate)
        verdict = decide(h2h, opponent, state.best_opponent, cfg.gate.tolerance)
        if verdict.accepted:
            state.best, state.best_opponent = iteration, opponent
            _copy(candidate, self.folder.latest)
        self.say(f"  gate after iteration {iteration}: {'accepted' if verdict.accepted else 'rejected'}: "
                 f"{verdict.reason}; best network: iteration {self.best_iteration}")
        row = dataclasses.replace(row, gate_games=h2h.games, h2h_rate=h2h.win_rate, h2h_low=h2h.ci_low,
                                  h2h_high=h2h.ci_high, accepted=int(verdict.accepted), best=self.best_iteration)
        if opponent is not None:
            row = dataclasses.replace(row, gate_opponent_games=opponent.games, opponent_rate=opponent.win_rate,
                                      opponent_low=opponent.ci_low, opponent_high=opponent.ci_high)
        return row, verdict.accepted

    # -- evaluation -----------------------------------------------------------------------------

    def due(self, iteration: int) -> bool:
        every = self.config.eval.every
        if every == 0:
            return False
        if iteration == 0:
            return self.config.eval.initial
        return iteration % every == 0 or iteration == self.config.run.iterations

    def evaluate(self, iteration: int, network: Path) -> Evaluation:
        """``zero-net`` of ``network`` against ``players - 1`` copies of ``eval.opponent`` (seats rotated, the same
        deals at every iteration)."""
        cfg = self.config
        spec = f"zero-net:path={network.resolve()}"
        specs = [spec, *[cfg.eval.opponent] * (cfg.game.players - 1)]
        self.folder.eval.mkdir(parents=True, exist_ok=True)
        try:
            definition = TournamentDefinition.for_config(specs, cfg.game, games=cfg.eval.games, seed=cfg.seed)
            records = run_tournament(definition, self.folder.eval_store(iteration, cfg.eval.opponent),
                                     workers=cfg.eval_workers, progress=False)
        except (TournamentError, StoreError, AgentError, ValueError) as exc:
            raise ZeroTrainError(f"the evaluation after iteration {iteration} failed: {exc}") from None
        entry = summarize(records).entry(definition.specs[0])
        low, high = entry.win_rate_ci
        return Evaluation(entry.games, entry.wins, entry.win_rate, low, high, entry.parity, entry.seconds_per_move)

    # -- the run --------------------------------------------------------------------------------

    def run(self, resume: bool = False) -> Path:
        """Train to ``run.iterations`` (or until ``run.max_minutes``); returns ``latest.npz``."""
        import torch  # only here: the workers and the config check need none

        from training.zero.learner import Learner, resolve_device

        cfg = self.config
        self.prepare(resume)
        self.write_config()
        self.clean()
        torch.set_num_threads(cfg.torch_threads)
        self.device = resolve_device(cfg.learner.device)
        assert self.init_policy is not None
        learner = Learner(self.init_policy, cfg.learner, self.device)
        done = self.state.iteration
        needed = [self.folder.snapshot(done)] + ([self.folder.learner_state(done)] if done > 0 else [])
        missing = [str(p) for p in needed if done >= 0 and not p.is_file()]
        if missing:
            raise ZeroTrainError(f"cannot resume after iteration {done}: {', '.join(missing)} is missing")
        if done > 0:
            learner.load(self.folder.learner_state(done))
        obs_size, actions = self.init_policy.obs_size, self.init_policy.n_actions
        try:
            buffer = ReplayBuffer.load(self.folder.replay, max(done, 0), cfg.learner.replay_window, obs_size, actions)
        except ValueError as exc:
            raise ZeroTrainError(f"cannot resume: {exc}") from None
        where = f"resuming after iteration {done}" if done >= 0 else "starting"
        self.say(f"{cfg.name}: {where}; learner on {self.device}, self-play on {self._where()}")
        if done < 0:
            self._start(learner)
        pool = make_pool(cfg.selfplay.backend, cfg.workers, cfg.ray.address, cfg.ray.num_cpus)
        try:
            for iteration in range(self.state.iteration + 1, cfg.run.iterations + 1):
                if self._out_of_time():
                    self.say(f"stopping before iteration {iteration}: run.max_minutes ({cfg.run.max_minutes:g}) "
                             "would be exceeded; continue with --resume")
                    break
                self._iteration(iteration, learner, buffer, pool)
        except SelfPlayError as exc:
            raise ZeroTrainError(str(exc)) from None
        except KeyboardInterrupt:
            self.say(f"interrupted: the run stands after iteration {self.state.iteration}; continue with --resume")
            raise
        finally:
            pool.close()
        if self.state.iteration != cfg.run.iterations:
            self.plot()
        self.say(f"done: iteration {self.state.iteration}, {self.state.positions:,} positions, "
                 f"{self.state.elapsed / 60:.1f} min; network {self.folder.latest}")
        return self.folder.latest

    def _where(self) -> str:
        cfg = self.config
        if cfg.selfplay.backend == "ray":
            return f"Ray ({cfg.ray.address or 'local'})"
        return f"{cfg.workers} worker process(es)" if cfg.workers > 1 else "this process"

    def _out_of_time(self) -> bool:
        limit = self.config.run.max_minutes
        if limit is None:
            return False
        used = time.monotonic() - self.started
        return used + self.state.iteration_seconds > 60 * limit

    def _start(self, learner: Learner) -> None:
        """Iteration 0: the starting network as a snapshot, evaluated when ``eval.initial``."""
        began = time.monotonic()
        network = self.export(learner, 0)
        self.state.best = 0
        row = CurveRow(0, 0, 0, 0, best=0)
        if self.config.gate.every:
            measured = self.measure_opponent(0, network)
            self.state.best_opponent = measured
            self.say(f"  the starting network against {self.config.gate.opponent} on the gate's deals: "
                     f"{measured.wins:g}/{measured.games} = {measured.win_rate:.1%}")
            row = dataclasses.replace(row, gate_opponent_games=measured.games, opponent_rate=measured.win_rate,
                                      opponent_low=measured.ci_low, opponent_high=measured.ci_high)
        if self.due(0):
            row = self._with_eval(row, 0, network)
        self._commit(row, began, [])

    def _with_eval(self, row: CurveRow, iteration: int, network: Path) -> CurveRow:
        cfg = self.config
        result = self.evaluate(iteration, network)
        self.say(f"  eval after iteration {iteration}: zero-net vs {cfg.game.players - 1} x {cfg.eval.opponent}: "
                 f"{result.wins:g}/{result.games} = {result.win_rate:.1%} ({result.ci_low:.1%}-{result.ci_high:.1%}, "
                 f"parity {result.parity:.0%}), {1000 * result.seconds_per_move:.1f} ms/move")
        return dataclasses.replace(row, eval_games=result.games, win_rate=result.win_rate, ci_low=result.ci_low,
                                   ci_high=result.ci_high, parity=result.parity)

    def _commit(self, row: CurveRow, began: float, window: list[int]) -> None:
        """Write the curve and then ``state.json`` (the iteration is done), and drop files no longer needed."""
        state, folder = self.state, self.folder
        seconds = time.monotonic() - began
        state.iteration, state.elapsed, state.iteration_seconds = row.iteration, state.elapsed + seconds, seconds
        row = dataclasses.replace(row, elapsed=state.elapsed)
        rows = record(folder.curve, row)
        if row.eval_games or row.iteration == self.config.run.iterations:
            self.plot(rows)
        cfg = self.config
        _write_json(folder.state, {
            **state.to_json(),
            "network": folder.snapshot(self.best_iteration).relative_to(folder.root).as_posix(),
            "replay": window,
            "device": self.device,
            "seeds": {"run": cfg.seed, "selfplay": "derive_seed(seed, 'zero-selfplay', iteration, game)",
                      "learner": "derive_seed(seed, 'zero-learner', iteration)"},
            "code": self.code,
        })
        for path in folder.learner.glob("iter-*.pt") if folder.learner.is_dir() else []:
            if _iteration_of(path) != state.iteration:
                path.unlink()
        for iteration, path in shards(folder.replay).items():
            if iteration not in window:
                path.unlink()

    def plot(self, rows: list[CurveRow] | None = None) -> Path:
        """Draw ``curve.csv`` as ``curve.png`` (after every evaluation, at the last iteration and at a stop)."""
        cfg = self.config
        title = (f"{cfg.name}: zero-net ({cfg.game.rules.value}, {cfg.game.players} players), "
                 f"{cfg.eval.games} games per point")
        return plot_curve(self._curve() if rows is None else rows, self.folder.root / "curve.png", title,
                          cfg.eval.opponent)

    def _iteration(self, iteration: int, learner: Learner, buffer: ReplayBuffer, pool: Pool) -> None:
        cfg = self.config
        began = time.monotonic()
        network = self.folder.snapshot(self.best_iteration)
        games = self._self_play(iteration, network, pool)
        selfplay_seconds = time.monotonic() - began
        positions = Positions.of_games(games, buffer.data.obs.shape[1], buffer.data.masks.shape[1])
        positions.save(shard_path(self.folder.replay, iteration))
        buffer.add(iteration, positions)
        stats = learner.train(buffer.data, derive_seed(cfg.seed, "zero-learner", iteration))
        learner.save(self.folder.learner_state(iteration))
        state = self.state
        state.positions += len(positions)
        state.searched += int(positions.searched.sum())
        state.games += len(games)
        clear = sum(g.clear for g in games)
        state.clear += clear
        snapshot = self.export(learner, iteration)
        self.say(
            f"iteration {iteration}/{cfg.run.iterations}: {len(games)} games, {len(positions):,} positions "
            f"({int(positions.searched.sum()):,} searched, {clear:,} clear) in {selfplay_seconds:.1f} s "
            f"({positions_rate(games):.1f} positions/s per worker, {cpu_rate(games):.1f} per CPU second); "
            f"learner {stats.steps} steps "
            f"on {len(buffer):,}: policy {stats.policy_loss:.3f}, value {stats.value_loss:.3f}"
        )
        row = CurveRow(iteration, state.positions, state.searched, state.games, stats.policy_loss, stats.value_loss,
                       stats.loss, len(positions) / max(selfplay_seconds, 1e-9), clear=state.clear)
        if not cfg.gate.every:
            state.best = iteration
        elif self.gate_due(iteration):
            row, accepted = self.hold_gate(iteration, snapshot, row)
            if not accepted and cfg.gate.revert:
                learner.restart(load_policy(self.folder.snapshot(self.best_iteration)))
                learner.save(self.folder.learner_state(iteration))
        row = dataclasses.replace(row, best=self.best_iteration)
        if self.due(iteration):
            row = self._with_eval(row, iteration, snapshot)
        self._commit(row, began, buffer.iterations())

    def _self_play(self, iteration: int, network: Path, pool: Pool) -> list[GameData]:
        cfg = self.config
        jobs = [
            SelfPlayJob(
                game=cfg.game,
                network=str(network.resolve()),
                search=cfg.search.settings(),
                others=None if cfg.search.others is None else str(Path(cfg.search.others).resolve()),
                full_search=cfg.selfplay.full_search,
                fast_moves=cfg.selfplay.fast_moves,
                opponents=(*cfg.selfplay.opponents.items(), *self._snapshot_seats(iteration, index)),
                seed=job_seed(cfg.seed, iteration, index),
                index=index,
                target=cfg.selfplay.target,
                margin=cfg.selfplay.margin,
                search_moves=cfg.selfplay.search_moves,
                confirm=cfg.selfplay.confirm,
                value_positions=cfg.selfplay.value_positions,
                sigma_scale=cfg.selfplay.sigma_scale,
                root_value=cfg.selfplay.root_value,
            )
            for index in range(cfg.selfplay.games)
        ]
        with self._progress(f"iteration {iteration} self-play", len(jobs)) as tick:
            return pool.run(jobs, lambda _: tick())

    def _snapshot_seats(self, iteration: int, index: int) -> tuple[tuple[str, float], ...]:
        """The league opponent of game ``index``: ``zero-net`` with the network of a past iteration drawn (seeded)
        from the last ``selfplay.snapshot_window``, with the ``selfplay.snapshots`` share of seats; none at 0."""
        selfplay = self.config.selfplay
        if not selfplay.snapshots:
            return ()
        first = max(0, iteration - selfplay.snapshot_window) if selfplay.snapshot_window else 0
        past = random.Random(derive_seed(self.config.seed, "zero-snapshot", iteration, index)).randrange(
            first, iteration)
        return ((network_spec(self.folder.snapshot(past)), selfplay.snapshots),)

    @contextmanager
    def _progress(self, title: str, total: int) -> Iterator[Callable[[], None]]:
        if not (self.config.run.progress_bar and self.console.is_terminal):
            yield lambda: None
            return
        columns = (TextColumn(title, style="bold"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=self.console, transient=True) as bar:
            task = bar.add_task(title, total=total)
            yield lambda: bar.advance(task)


def train_zero(config: ZeroConfig, resume: bool = False, console: Console | None = None) -> Path:
    """Run (or, with ``resume``, continue) the training of ``config``; returns the newest network's path."""
    try:
        return ZeroTrainer(config, console).run(resume)
    except CheckpointError as exc:
        raise ZeroTrainError(str(exc)) from None


def positions_rate(games: list[GameData]) -> float:
    """Recorded positions per second of worker time over ``games``."""
    seconds = sum(g.seconds for g in games)
    return sum(len(g) for g in games) / seconds if seconds > 0 else math.nan


def cpu_rate(games: list[GameData]) -> float:
    """Recorded positions per second of the workers' CPU time over ``games`` (what a machine shared with other jobs
    would give with its cores to itself)."""
    seconds = sum(g.cpu_seconds for g in games)
    return sum(len(g) for g in games) / seconds if seconds > 0 else math.nan


__all__ = ["RunFolder", "RunState", "ZeroTrainError", "ZeroTrainer", "cpu_rate", "positions_rate", "train_zero"]
