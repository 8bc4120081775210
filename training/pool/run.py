"""``tribune train CONFIG`` for ``algorithm: ppo-pool``: the run folder, the loop, checkpoints, resume, curve, evals.

The run folder (``output/name``) holds ``config.yaml`` (the resolved config), ``curve.csv`` (one row per rollout and
one per evaluation; every row gives ``decisions``, all seats counted once, and ``elapsed``, wall seconds of training
with evaluations left out), ``eval.csv`` and ``learning-curve.png`` (win rates with 95% Wilson intervals, the
tournament runner's), ``checkpoints/latest.pt`` (everything a resume needs), ``evals/`` (the tournaments' results
files, ``step-*.npz`` the networks they played) and ``final.npz`` (the NumpyPolicy network: ``ppo:runs/NAME/final.npz``
plays it; its metadata says how it was trained).

Seeds: the network's initial weights, the pool's deals, the seat draws, the sampled actions and the minibatch order
all derive from ``seed``, so two runs of the same config on the CPU with the same thread count give the same curve
and weights (stopped by ``run.decisions``; ``run.max_minutes`` stops by the clock). A resumed run continues from its
last checkpoint with new deals (the games in progress at the checkpoint are not saved).
"""

from __future__ import annotations

import csv
import json
import math
import os
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from rich.console import Console

from agents.ppo import load_policy
from training.config import ConfigError
from training.evaluation import evaluate_checkpoint, plot_learning_curve, read_rows, record_rows
from training.pool.config import RESUMABLE_CHANGES, PoolConfig, pool_config_from_dict
from training.pool.gae import advantages
from training.pool.labels import LabelsError, SearchLabels, load_labels
from training.pool.network import PolicyNet, load_numpy_weights
from training.pool.opponents import SeatTable, build_opponents
from training.pool.ppo import update
from training.pool.rollout import Batch, Collector
from training.pool.sight import make_sight
from training.pool.tables import AgentTables, TableSeats
from tribune_arena.benchmark.record import code_version
from tribune_env.envs.pool import TribunePool


class PoolTrainError(Exception):
    """A run that cannot start or continue; the message says why."""


CURVE_FIELDS = (
    "kind", "decisions", "elapsed", "wall", "learner_rows", "rollouts", "decisions_per_s", "policy_loss",
    "value_loss", "entropy", "approx_kl", "clipfrac", "learning_rate", "train_win_rate", "pool_s", "learner_s",
    "opponents_s", "update_s", "opponent", "games", "win_rate", "ci_low", "ci_high", "table_rows", "table_s",
    "table_win_rate", "label_loss", "label_agree",
)


@dataclass
class RunState:
    """The counters a checkpoint keeps."""

    decisions: int = 0
    elapsed: float = 0.0
    learner_rows: int = 0
    rollouts: int = 0
    next_eval: float = 0.0
    next_snapshot: int = 0
    eval_seconds: float = 0.0
    wall: float = 0.0
    """Wall seconds of the run when the checkpoint was saved (a resumed run's ``wall`` goes on from there)."""


def pick_device(name: str) -> torch.device:
    """``auto``: cuda when torch sees a GPU, else cpu."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(data, dict):
        return {prefix.rstrip("."): data}
    out: dict[str, Any] = {}
    for k, v in data.items():
        out.update(_flatten(v, f"{prefix}{k}."))
    return out


def config_changes(saved: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Dotted keys that differ between two resolved configs and may not (:data:`RESUMABLE_CHANGES`)."""
    a, b = _flatten(saved), _flatten(current)
    changed = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return [k for k in changed if not any(k == p or (p.endswith(".") and k.startswith(p)) for p in RESUMABLE_CHANGES)]


class PoolTrainer:
    """One run of a :class:`PoolConfig` (module docstring)."""

    def __init__(self, config: PoolConfig, console: Console | None = None) -> None:
        self.config = config
        self.dir = config.run_dir
        self.console = console or Console(stderr=True)
        self.device = pick_device(config.ppo.device)
        self.state = RunState()
        self.start_wall = time.monotonic()

    def say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True, markup=False, highlight=False)

    # -- setup -------------------------------------------------------------------

    @staticmethod
    def _saved_config(path: Path) -> dict[str, Any]:
        """The run's resolved config as this code reads it: a key the run's code did not have yet takes its
        default, so that a run saved before an option existed resumes as it was."""
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            return pool_config_from_dict(data, str(path)).resolved()
        except (OSError, yaml.YAMLError, ConfigError) as exc:
            raise PoolTrainError(f"{path}: the run's config cannot be read ({exc})") from None

    def _prepare_folder(self, resume: bool) -> bool:
        """Write or check ``config.yaml``; whether a checkpoint is there to resume."""
        self.dir.mkdir(parents=True, exist_ok=True)
        saved_path = self.dir / "config.yaml"
        latest = self.dir / "checkpoints" / "latest.pt"
        current = self.config.resolved()
        if resume:
            if not latest.exists():
                raise PoolTrainError(f"{self.dir}: no checkpoint to resume (checkpoints/latest.pt)")
            saved = self._saved_config(saved_path)
            changed = config_changes(saved, current)
            if changed:
                raise PoolTrainError(f"{self.dir}: the config differs from the run's in {', '.join(changed)}")
        elif latest.exists():
            raise PoolTrainError(f"{self.dir} holds a run: continue it with --resume, or give another name")
        saved_path.write_text(yaml.safe_dump(current, sort_keys=False), encoding="utf-8")
        return resume

    def _build(self) -> None:
        cfg = self.config
        torch.manual_seed(cfg.seed)
        torch.set_num_threads(cfg.torch_threads)
        self.pool = TribunePool(cfg.ppo.games, cfg.game, threads=cfg.ppo.pool_threads)
        encoder, codec = self.pool.encoder, self.pool.codec
        net_cfg = cfg.network
        model = net_cfg.forecast_model or cfg.opponents.distilled
        try:
            self.sight = make_sight(net_cfg.sight, cfg.game, encoder, model, cfg.seed, net_cfg.sight_scale)
        except ValueError as exc:
            raise PoolTrainError(f"network.forecast_model ({model}): {exc}") from None
        seen = encoder.size + (self.sight.size if self.sight is not None else 0)
        self.net = PolicyNet(seen, codec.n, net_cfg.first_width, net_cfg.hidden, net_cfg.activation,
                             net_cfg.first_layer, net_cfg.shared_first).to(self.device)
        if cfg.init_from:
            try:
                load_numpy_weights(self.net, load_policy(cfg.init_from, cfg.game))
            except ValueError as exc:
                raise PoolTrainError(f"init_from: {exc}") from None
        self.labels: SearchLabels | None = None
        if cfg.labels.shards is not None:
            try:
                self.labels = load_labels(cfg.labels.shards, encoder.size, codec.n, self.device,
                                          cfg.labels.min_gain, cfg.labels.hard)
            except LabelsError as exc:
                raise PoolTrainError(f"labels.shards: {exc}") from None
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.ppo.learning_rate, eps=1e-5)
        self.opponents = build_opponents(cfg, self.device)
        self.opponents.add_snapshot(self.net)
        self.seat_rng = np.random.default_rng([cfg.seed, 1])
        self.update_rng = np.random.default_rng([cfg.seed, 2])
        self.generator = torch.Generator(device=self.device).manual_seed(cfg.seed)
        self.seats = SeatTable(cfg.ppo.games, cfg.game.players, cfg.opponents.learner_seats, self.opponents.weights,
                               self.seat_rng)
        self.tables = AgentTables(cfg.opponents.table_games, cfg.game, cfg.opponents.table_agent) \
            if cfg.opponents.table_games else None
        self._tables_counted = 0
        self.state.next_eval = cfg.eval.every_minutes * 60 if cfg.eval.every_minutes > 0 else math.inf
        self.state.next_snapshot = cfg.opponents.snapshot_every

    def _collector(self) -> Collector:
        seed = self.config.seed * 1_000_003 + self.state.rollouts * 7919
        return Collector(self.pool, self.net, self.opponents, self.seats, self.device, self.generator, seed,
                         self.config.opponents.deterministic, self.config.ppo.carry_pending,
                         self.config.ppo.whole_games, self.sight)

    def _table_collector(self) -> Collector | None:
        """The collector of the agent tables (``opponents.table_games``), or None."""
        if self.tables is None:
            return None
        seed = self.config.seed * 1_000_033 + self.state.rollouts * 7927 + 1
        return Collector(self.tables, self.net, self.opponents, TableSeats(self.tables), self.device, self.generator,
                         seed, True, self.config.ppo.carry_pending, self.config.ppo.whole_games, self.sight)

    # -- checkpoints -----------------------------------------------------------------

    def wall(self) -> float:
        """Wall seconds of the run so far, evaluations included, across resumes."""
        return time.monotonic() - self.start_wall

    def save_checkpoint(self) -> Path:
        self.state.wall = self.wall()
        folder = self.dir / "checkpoints"
        folder.mkdir(exist_ok=True)
        data = {
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "state": self.state.__dict__,
            "seat_rng": self.seat_rng.bit_generator.state,
            "update_rng": self.update_rng.bit_generator.state,
            "generator": self.generator.get_state(),
            "snapshots": [self.opponents.module(i).state_dict() for i in self.opponents.snapshot_ids],
            "next_slot": self.opponents.next_slot,
        }
        tmp = folder / "latest.pt.tmp"
        torch.save(data, tmp)
        os.replace(tmp, folder / "latest.pt")
        return folder / "latest.pt"

    def load_checkpoint(self) -> None:
        data = torch.load(self.dir / "checkpoints" / "latest.pt", map_location=self.device, weights_only=False)
        self.net.load_state_dict(data["net"])
        self.optimizer.load_state_dict(data["optimizer"])
        self.state = RunState(**data["state"])
        self.start_wall = time.monotonic() - self.state.wall
        self.seat_rng.bit_generator.state = data["seat_rng"]
        self.update_rng.bit_generator.state = data["update_rng"]
        self.generator.set_state(data["generator"])
        for policy_id, snap in zip(self.opponents.snapshot_ids, data["snapshots"], strict=True):
            self.opponents.add_snapshot(self.net)  # a module of the right shape in the slot
            self.opponents.module(policy_id).load_state_dict(snap)
        self.opponents.next_slot = data["next_slot"]
        self.seats.deal(np.arange(self.config.ppo.games))
        self._trim_curve(self.state.decisions)

    # -- outputs -------------------------------------------------------------------

    @property
    def curve_path(self) -> Path:
        return self.dir / "curve.csv"

    def _trim_curve(self, decisions: int) -> None:
        rows = self.read_curve()
        kept = [r for r in rows if int(r["decisions"]) <= decisions]
        self.curve_path.unlink(missing_ok=True)
        for row in kept:
            self.write_curve(row)

    def read_curve(self) -> list[dict[str, str]]:
        if not self.curve_path.exists():
            return []
        with self.curve_path.open(newline="", encoding="utf-8") as handle:
            return list(csv.DictReader(handle))

    def write_curve(self, row: dict[str, Any]) -> None:
        new = not self.curve_path.exists()
        with self.curve_path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=CURVE_FIELDS)
            if new:
                writer.writeheader()
            writer.writerow({k: row.get(k, "") for k in CURVE_FIELDS})

    def export(self, path: Path) -> Path:
        """The network as a NumpyPolicy ``.npz`` with how it was trained in its metadata."""
        cfg = self.config
        extra = {
            "trained_by": "tribune train (algorithm: ppo-pool, training.pool)",
            "training": {
                "config": cfg.name,
                "decisions": self.state.decisions,
                "learner_rows": self.state.learner_rows,
                "minutes": round(self.state.elapsed / 60, 2),
                "cpus": len(os.sched_getaffinity(0)),
                "torch_threads": cfg.torch_threads,
                "device": str(self.device),
                "seed": cfg.seed,
                "init_from": cfg.init_from,
                "labels": {"shards": cfg.labels.shards, "weight": cfg.labels.weight, "min_gain": cfg.labels.min_gain,
                           "hard": cfg.labels.hard} if cfg.labels.shards else None,
                "code": code_version(),
            },
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        self.net.to_numpy_policy(self.pool.encoder, self.pool.codec, extra).save_npz(path, "float32")
        return path

    def evaluate(self) -> list[Any]:
        """The network now against ``players - 1`` copies of each eval opponent (the real agents), recorded."""
        cfg = self.config
        if not cfg.eval.opponents:  # nothing to play (a network with a sight: network.sight)
            return []
        start = time.monotonic()
        network = self.export(self.dir / "evals" / f"step-{self.state.decisions:012d}.npz")
        rows = evaluate_checkpoint(network, self.state.decisions, list(cfg.eval.opponents), cfg.eval.games,
                                   cfg.game, self.dir / "evals", cfg.eval.seed, cfg.eval_workers, self.say)
        record_rows(self.dir / "eval.csv", rows)
        plot_learning_curve(read_rows(self.dir / "eval.csv"), self.dir / "learning-curve.png",
                            f"{cfg.name}: win rate against {cfg.game.players - 1} opponents")
        seconds = time.monotonic() - start
        self.state.eval_seconds += seconds
        for row in rows:
            self.write_curve({
                "kind": "eval", "decisions": self.state.decisions, "elapsed": round(self.state.elapsed, 2),
                "wall": round(self.wall(), 1), "learner_rows": self.state.learner_rows,
                "rollouts": self.state.rollouts, "opponent": row.opponent, "games": row.games,
                "win_rate": round(row.win_rate, 4), "ci_low": round(row.ci_low, 4), "ci_high": round(row.ci_high, 4),
            })
            self.say(f"eval at {self.state.decisions:,} decisions ({self.state.elapsed / 60:.1f} min): vs "
                     f"{row.opponent} {row.result()} [{seconds:.0f} s]")
        return rows

    # -- the loop ------------------------------------------------------------------

    def _curriculum(self, collector: Collector) -> None:
        """From ``opponents.later_after`` decisions on (a resumed run too), games are dealt ``later_mix``'s
        opponents, played deterministically if ``later_deterministic`` says so."""
        opp = self.config.opponents
        later = self.opponents.later_weights
        if later is None or self.state.decisions < opp.later_after or self.seats.weights is later:
            return
        self.seats.weights = later
        if opp.later_deterministic is not None:
            collector.deterministic_opponents = opp.later_deterministic
        self.say(f"{self.state.decisions:,} decisions: new games draw their opponents from {dict(opp.later_mix)}")

    def _limit_reached(self) -> bool:
        run = self.config.run
        if self.state.decisions >= run.decisions:
            return True
        return run.max_minutes is not None and self.state.elapsed >= run.max_minutes * 60

    def learning_rate(self) -> float:
        """The learning rate of the next update: ``ppo.learning_rate``, lowered linearly to zero at ``run.decisions``
        when ``ppo.anneal_lr`` says so."""
        base = self.config.ppo.learning_rate
        if not self.config.ppo.anneal_lr:
            return base
        return base * max(0.0, 1.0 - self.state.decisions / self.config.run.decisions)

    def _set_learning_rate(self) -> None:
        for group in self.optimizer.param_groups:
            group["lr"] = self.learning_rate()

    def _trainable(self, batch: Batch) -> tuple[Batch, np.ndarray, np.ndarray]:
        """The rows of ``batch`` this update trains, with their advantages and returns."""
        cfg = self.config
        adv, ret = advantages(batch.value, batch.reward, batch.terminal, batch.next_row, batch.step_starts,
                              cfg.ppo.gamma, cfg.ppo.gae_lambda)
        keep = batch.trained()
        if len(keep) < len(batch):
            batch, adv, ret = batch.subset(keep), adv[keep], ret[keep]
        return batch, adv, ret

    def _one_rollout(self, collector: Collector, tables: Collector | None = None) -> dict[str, Any]:
        cfg = self.config
        t0 = time.perf_counter()
        batch, stats = collector.collect(cfg.ppo.steps)
        t_tables = time.perf_counter()
        parts = [self._trainable(batch)]
        table_row: dict[str, Any] = {}
        table_decisions = 0
        if tables is not None and self.tables is not None:
            table_batch, table_stats = tables.collect(cfg.ppo.steps)
            table_decisions = self.tables.decisions - self._tables_counted  # the deals' first moves too
            self._tables_counted = self.tables.decisions
            parts.append(self._trainable(table_batch))
            table_row = {
                "table_rows": table_stats.learner_rows, "table_s": round(time.perf_counter() - t_tables, 3),
                "table_win_rate": round(table_stats.learner_wins / table_stats.learner_games, 4)
                if table_stats.learner_games else "",
            }
            stats.learner_rows += table_stats.learner_rows
        t1 = time.perf_counter()
        batch = Batch.joined([b for b, _, _ in parts])
        adv = np.concatenate([a for _, a, _ in parts])
        ret = np.concatenate([r for _, _, r in parts])
        warming = self.state.rollouts < cfg.ppo.critic_warmup
        self._set_learning_rate()
        labels = (self.labels, cfg.labels) if self.labels is not None and not warming else None
        metrics = update(self.net, self.optimizer, batch, adv, ret, cfg.ppo, self.update_rng, self.device,
                         critic_only=warming, labels=labels) if len(batch) else {}
        t2 = time.perf_counter()
        seconds = t2 - t0
        st = self.state
        st.elapsed += seconds
        stats.decisions += table_decisions
        st.decisions += stats.decisions
        st.learner_rows += stats.learner_rows
        st.rollouts += 1
        if st.learner_rows >= st.next_snapshot:
            self.opponents.add_snapshot(self.net)
            st.next_snapshot += cfg.opponents.snapshot_every
        sec = stats.seconds
        return {
            "kind": "train", "decisions": st.decisions, "elapsed": round(st.elapsed, 3),
            "wall": round(self.wall(), 1), "learner_rows": st.learner_rows,
            "rollouts": st.rollouts, "decisions_per_s": round(stats.decisions / seconds, 1),
            **{k: round(v, 5) for k, v in metrics.items()},
            "learning_rate": f"{self.optimizer.param_groups[0]['lr']:.4g}",
            "train_win_rate": round(stats.learner_wins / stats.learner_games, 4) if stats.learner_games else "",
            "pool_s": round(sec["pool"], 3), "learner_s": round(sec["learner"], 3),
            "opponents_s": round(sec["opponents"] + sec["bookkeeping"], 3), "update_s": round(t2 - t1, 3),
            **table_row,
        }

    def _progress(self, row: dict[str, Any], last_said: float) -> float:
        now = time.monotonic()
        if now - last_said < 30 and last_said > 0:
            return last_said
        st, run = self.state, self.config.run
        rate = st.decisions / max(st.elapsed, 1e-9)
        left = (run.decisions - st.decisions) / max(rate, 1e-9)
        if run.max_minutes is not None:
            left = min(left, run.max_minutes * 60 - st.elapsed)
        share = max(st.decisions / run.decisions,
                    st.elapsed / (run.max_minutes * 60) if run.max_minutes is not None else 0.0)
        bar = "#" * int(20 * min(share, 1.0))
        self.say(f"[{bar:<20}] {share:4.0%} {st.decisions:,} decisions, {rate:,.0f}/s, "
                 f"{st.elapsed / 60:.1f} min trained, about {max(left, 0) / 60:.1f} min left "
                 f"(training win rate {row.get('train_win_rate', '')})")
        return now

    def run(self, resume: bool = False) -> Path:
        """Train until ``run.decisions`` or ``run.max_minutes``; returns ``final.npz`` (with ``network.sight``, the
        last checkpoint: no agent can play such a network)."""
        cfg = self.config
        resuming = self._prepare_folder(resume)
        self._build()
        if resuming:
            self.load_checkpoint()
            self.say(f"resuming {self.dir} at {self.state.decisions:,} decisions ({self.state.elapsed / 60:.1f} min)")
        beside = (f", and {cfg.opponents.table_games} games beside it against {cfg.game.players - 1} "
                  f"{cfg.opponents.table_agent}" if cfg.opponents.table_games else "")
        self.say(f"{cfg.name}: {cfg.ppo.games} games in a pool, {cfg.ppo.steps} steps a rollout, learner "
                 f"{cfg.opponents.learner_seats} seat(s) against {dict(cfg.opponents.mix)}{beside}, device "
                 f"{self.device}, {cfg.torch_threads} torch threads")
        if self.labels is not None:
            which = "searched" if cfg.labels.min_gain is None else f"clear (gain >= {cfg.labels.min_gain})"
            self.say(f"learning {len(self.labels):,} {which} labels of {cfg.labels.shards} beside PPO "
                     f"(weight {cfg.labels.weight}{', hard' if cfg.labels.hard else ''})")
        if cfg.eval.initial and not resuming:
            self.evaluate()
        collector = self._collector()
        tables = self._table_collector()
        last_ckpt = self.state.elapsed
        saved = self.state.decisions if resuming else None
        said = 0.0
        try:
            while not self._limit_reached():
                self._curriculum(collector)
                row = self._one_rollout(collector, tables)
                self.write_curve(row)
                said = self._progress(row, said)
                if self.state.elapsed >= self.state.next_eval:
                    self.evaluate()
                    while self.state.next_eval <= self.state.elapsed:
                        self.state.next_eval += cfg.eval.every_minutes * 60
                if self.state.elapsed - last_ckpt >= cfg.run.checkpoint_minutes * 60:
                    self.save_checkpoint()
                    last_ckpt, saved = self.state.elapsed, self.state.decisions
        except KeyboardInterrupt:  # mid-rollout or mid-update: the last checkpoint is what stands
            if saved is None:
                self.say("interrupted before the run's first checkpoint: the same command starts it again")
            else:
                self.say(f"interrupted: the run stands at its last checkpoint ({saved:,} decisions); "
                         "continue with --resume")
            raise
        checkpoint = self.save_checkpoint()
        if self.sight is not None:  # no agent reads what it sees: the checkpoint is the run's network
            self.say(f"{checkpoint} holds the network: {self.state.decisions:,} decisions in "
                     f"{self.state.elapsed / 60:.1f} min of training; with network.sight {cfg.network.sight} it reads "
                     "more than the observation, so no .npz is written for the agents")
            return checkpoint
        final = self.export(self.dir / "final.npz")
        done = {r.timesteps for r in read_rows(self.dir / "eval.csv")}
        if self.state.decisions not in done and cfg.eval.games > 0 and cfg.eval.opponents:
            self.evaluate()
        self.say(f"wrote {final}: {self.state.decisions:,} decisions in {self.state.elapsed / 60:.1f} min of training "
                 f"({self.state.decisions / max(self.state.elapsed, 1e-9):,.0f}/s)")
        return final


def train_pool(config: PoolConfig, resume: bool = False, console: Console | None = None) -> Path:
    """Run (or continue) a pool-backed PPO run; :class:`PoolTrainError` when it cannot."""
    return PoolTrainer(config, console).run(resume)


def config_of_run(folder: Path) -> PoolConfig:
    """The config a run folder was trained with."""
    try:
        data = yaml.safe_load((folder / "config.yaml").read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{folder}: no readable config.yaml ({exc})") from None
    return pool_config_from_dict(data, str(folder / "config.yaml"))


__all__ = ["CURVE_FIELDS", "PoolTrainError", "PoolTrainer", "RunState", "config_of_run", "train_pool"]
_ = (json, fields)
