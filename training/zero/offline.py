"""Experiments on a ``zero`` run's recorded positions, without new self-play (issue 44).

``python -m training.zero.offline heldout RUN``: for each snapshot ``k`` of the run, the losses of its networks on
positions it never trained on (the shard of iteration ``k + 1``, games the network of ``k`` played afterwards)
beside those on its own window: the value head's squared error against the results of unseen games, and against a
constant (the mean result), show whether the value network learns the games by heart.

``python -m training.zero.offline retrain RUN --upto K [--alpha A] [--value-share F] [--set learner.KEY=VALUE]
[--games N]``: trains a fresh learner from the run's starting network on the run's shards ``1..K`` with the run's
schedule (after each iteration ``i`` the window of shards ``<= i``, the run's minibatch seeds), one change applied:

* ``alpha``: the policy targets moved toward the prior of the network that searched them
  (``softmax(logits + alpha * (log target - logits))`` over the legal actions, the logits of snapshot ``i - 1``):
  the improved policy is ``softmax(logits + sigma(q))``, so this scales the search's ``sigma`` by ``alpha``
  (1: the targets as recorded; 0: the prior, nothing learned from the search);
* ``value_share``: the share of positions that keep their value target (drawn at random, seeded);
* ``--set learner.KEY=VALUE``: the learner's settings (``learning_rate``, ``epochs``, ``value_weight``, ...).

It writes the network (``--out``) and plays it alone against three ``heuristic`` (``--games``, the same deals as
``tribune tournament zero-net:path=... heuristic heuristic heuristic --seed 23``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from agents.ppo import NumpyPolicy, load_policy
from training.zero.config import LearnerConfig, zero_config_from_dict
from training.zero.gate import network_spec, tournament
from training.zero.replay import Positions, shards
from tribune_arena.tournament.schedule import derive_seed

EVAL_SEED = 23


def run_config(run: Path) -> Any:
    """The resolved config a run saved."""
    data = yaml.safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    return zero_config_from_dict(data, str(run / "config.yaml"))


def masked_log_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax over the legal actions (``-inf`` elsewhere), float64."""
    z = np.where(masks, logits.astype(np.float64), -np.inf)
    top = z.max(axis=1, keepdims=True)
    out: np.ndarray = z - top - np.log(np.exp(z - top).sum(axis=1, keepdims=True))
    return out


def all_logits(policy: NumpyPolicy, obs: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """The policy's logits for every row of ``obs``."""
    return np.concatenate([policy.logits(obs[i:i + chunk].astype(np.float32))
                           for i in range(0, len(obs), chunk)]) if len(obs) else np.zeros((0, policy.n_actions))


def all_values(policy: NumpyPolicy, obs: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """The value network's output for every row of ``obs``."""
    return np.concatenate([policy.value(obs[i:i + chunk].astype(np.float32))
                           for i in range(0, len(obs), chunk)])


def damped_targets(part: Positions, searcher: NumpyPolicy, alpha: float) -> Positions:
    """``part`` with its policy targets moved toward ``searcher``'s prior by ``alpha`` (see the module docstring)."""
    rows = np.flatnonzero(part.searched)
    if alpha == 1.0 or not rows.size:
        return part
    masks = part.masks[rows]
    prior = masked_log_softmax(all_logits(searcher, part.obs[rows]), masks)
    with np.errstate(divide="ignore", invalid="ignore"):
        target = np.log(part.targets[rows].astype(np.float64))
        gain = np.where(masks & np.isfinite(target), target - prior, 0.0)  # sigma(q) up to a constant per row
    gain -= np.where(masks, gain, np.inf).min(axis=1, keepdims=True)
    mixed = masked_log_softmax(prior + alpha * np.where(masks, gain, 0.0), masks)
    targets = part.targets.copy()
    targets[rows] = np.where(masks, np.exp(mixed), 0.0).astype(np.float16)
    return dataclasses.replace(part, targets=targets)


def value_subsample(part: Positions, share: float, seed: int) -> Positions:
    """``part`` with a value target at a ``share`` of its positions only (NaN at the others)."""
    if share >= 1.0:
        return part
    rng = np.random.default_rng(seed)
    values = part.values.copy()
    values[rng.random(len(values)) >= share] = np.nan
    return dataclasses.replace(part, values=values)


def retrain(
    run: Path, upto: int, alpha: float, value_share: float, learner: LearnerConfig
) -> tuple[NumpyPolicy, list[str]]:
    """The network trained on the run's shards ``1..upto`` with the changes given (see the module docstring), and a
    line of losses per iteration."""
    import torch

    from training.zero.learner import Learner

    config = run_config(run)
    torch.set_num_threads(1)
    found = shards(run / "replay")
    start = load_policy(run / "snapshots" / "iter-0000.npz")
    model = Learner(start, learner, "cpu")
    window: Positions | None = None
    lines = []
    for iteration in range(1, upto + 1):
        if iteration not in found:
            raise SystemExit(f"{run}: the shard of iteration {iteration} is gone (outside the replay window)")
        part = Positions.read(found[iteration])
        searcher = load_policy(run / "snapshots" / f"iter-{iteration - 1:04d}.npz")
        part = damped_targets(part, searcher, alpha)
        part = value_subsample(part, value_share, derive_seed(config.seed, "offline-values", iteration))
        window = part if window is None else Positions.concat([window, part]).tail(learner.replay_window)
        stats = model.train(window, derive_seed(config.seed, "zero-learner", iteration))
        lines.append(f"iteration {iteration}: {len(window):,} positions, policy {stats.policy_loss:.3f}, "
                     f"value {stats.value_loss:.3f}")
    meta = {**start.meta, "trained_by": "zero-offline"}
    return model.policy(meta), lines


def losses(policy: NumpyPolicy, shard: Path) -> dict[str, float]:
    """``policy``'s value squared error and policy cross-entropy on the positions of ``shard``."""
    part = Positions.read(shard)
    valued = ~np.isnan(part.values)
    value = float(np.mean((all_values(policy, part.obs[valued]) - part.values[valued]) ** 2))
    rows = np.flatnonzero(part.searched)
    logp = masked_log_softmax(all_logits(policy, part.obs[rows]), part.masks[rows])
    targets = part.targets[rows].astype(np.float64)
    terms = np.where(targets > 0, targets * np.where(np.isfinite(logp), logp, 0.0), 0.0)
    return {"value": value, "policy": float(-terms.sum(axis=1).mean())}


def heldout(run: Path) -> list[dict[str, float]]:
    """Per snapshot ``k``: value squared error on its last training shard ``k`` and on the unseen shard ``k + 1``,
    the error of a constant (shard ``k``'s mean result) on ``k + 1``, and the policy cross-entropy on ``k + 1``."""
    found = shards(run / "replay")
    rows = []
    for k in [0, *sorted(found)]:
        if k + 1 not in found:
            continue
        policy = load_policy(run / "snapshots" / f"iter-{k:04d}.npz")
        unseen = Positions.read(found[k + 1])
        seen = Positions.read(found[k]) if k else unseen  # the start: no training shard, its first games instead
        out: dict[str, float] = {"snapshot": k}
        for name, part in (("seen", seen), ("unseen", unseen)):
            valued = ~np.isnan(part.values)
            predicted = all_values(policy, part.obs[valued])
            out[f"value_{name}"] = float(np.mean((predicted - part.values[valued]) ** 2))
        valued = ~np.isnan(unseen.values)
        mean = float(np.nanmean(seen.values))
        out["value_constant"] = float(np.mean((mean - unseen.values[valued]) ** 2))
        rows_s = np.flatnonzero(unseen.searched)
        logp = masked_log_softmax(all_logits(policy, unseen.obs[rows_s]), unseen.masks[rows_s])
        targets = unseen.targets[rows_s].astype(np.float64)
        terms = np.where(targets > 0, targets * np.where(np.isfinite(logp), logp, 0.0), 0.0)
        out["policy_unseen"] = float(-terms.sum(axis=1).mean())
        rows.append(out)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.zero.offline", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    h = sub.add_parser("heldout", help="losses of each snapshot on the next iteration's (unseen) positions")
    h.add_argument("run", type=Path)
    r = sub.add_parser("retrain", help="train on the run's shards with one change, then play it")
    r.add_argument("run", type=Path)
    r.add_argument("--upto", type=int, required=True)
    r.add_argument("--alpha", type=float, default=1.0)
    r.add_argument("--value-share", type=float, default=1.0)
    r.add_argument("--set", action="append", default=[], metavar="learner.KEY=VALUE")
    r.add_argument("--games", type=int, default=200)
    r.add_argument("--workers", type=int, default=1)
    r.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "heldout":
        for row in heldout(args.run):
            print(json.dumps({k: round(v, 4) for k, v in row.items()}))
        return 0
    config = run_config(args.run)
    learner = config.learner
    for item in args.set:
        key, _, value = item.partition("=")
        name = key.removeprefix("learner.")
        field = type(getattr(learner, name))
        learner = dataclasses.replace(learner, **{name: field(yaml.safe_load(value))})
    policy, lines = retrain(args.run, args.upto, args.alpha, args.value_share, learner)
    for line in lines:
        print(line, flush=True)
    path = policy.save_npz(args.out, "float16")
    nxt = shards(args.run / "replay").get(args.upto + 1)
    if nxt is not None:
        print(json.dumps({"unseen_shard": args.upto + 1, **{k: round(v, 4) for k, v in losses(policy, nxt).items()}}))
    if args.games:
        specs = [network_spec(path), *["heuristic"] * (config.game.players - 1)]
        result = tournament(specs, config.game, args.games, EVAL_SEED, path.with_suffix(".sqlite"), args.workers)
        print(f"{path}: zero-net vs 3 x heuristic: {result.wins:g}/{result.games} = {result.win_rate:.1%} "
              f"({result.ci_low:.1%}-{result.ci_high:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
