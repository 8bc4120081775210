"""Experiments on a ``zero`` run's recorded positions, without new self-play (issue 44).

``python -m training.zero.offline heldout RUN``: for each snapshot ``k`` of the run, the losses of its networks on
positions it never trained on (the shard of iteration ``k + 1``, games the network of ``k`` played afterwards)
beside those on its own window: the value head's squared error against the results of unseen games, and against a
constant (the mean result), show whether the value network learns the games by heart; on the unseen positions whose
target is the result alone (the unsearched ones) also the start's error, the reference when ``root_value`` mixes
the search's values into the others.

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

``python -m training.zero.offline fit RUN --upto K [--widen W1,W2,...] [--hard] [--positions all] [--margin M]
[--set learner.KEY=VALUE] [--heldout-to L] --out NETWORK [--games N]``: one fit of the run's starting network on
the labelled positions of shards ``1..K`` pooled (``learner.epochs`` passes, no schedule): how far the labels can
move the network at all. ``--widen`` first widens the policy tower without changing what it plays (:func:`widen`:
more capacity to fit); ``--hard`` puts each target's mass on its most probable action; ``--positions all`` fits
every recorded position as the run's learner does (the labels weighed by ``gain_scale``, the anchor over all). It
prints the argmax agreement (:func:`agreement`) on the fitted positions (a sample) and on the unseen shards
``K+1..L``, and the drift (:func:`drift`): how many clear labels the fit learned and how many other choices it
moved; then plays as ``retrain``.

``python -m training.zero.offline agreement RUN --shards A:B NETWORK...``: on the labelled positions of shards
``A..B``, how often each network's most probable action is the target's, overall and where the target's differs
from the run's starting network's (NETWORK: a path, or a snapshot's iteration).

``python -m training.zero.offline drift RUN --shards A:B [--margin M] [--by-kind] NETWORK...``: :func:`drift` of
each network against the run's start on every position of shards ``A..B`` (clear labels learned, other choices
moved), with ``--by-kind`` also per kind of decision (:func:`drift_by_kind`); on shards a network never fitted, it
shows whether its changes carry over to new positions.

``python -m training.zero.offline labels RUN --shards A:B [--margin M]``: what the labels of shards ``A..B`` teach,
per kind of decision (the action block of the target's most probable action): how many, the share that are clear
(a search gain of ``M`` or more), each kind's share of the positive gain, and the share of the clear labels whose
target still puts the most mass on the searching network's own choice (the network of the curve's ``best`` when
the shard was played), which such a label teaches the network to keep.

``python -m training.zero.offline average RUN --from A --to B --out NETWORK [--games N]``: the mean of the weights of
snapshots ``A..B`` (stochastic weight averaging), then plays as ``retrain``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from agents.ppo import NumpyPolicy, load_policy, space_of
from training.config import ConfigError, with_overrides
from training.zero.config import LearnerConfig, zero_config_from_dict
from training.zero.curve import CurveRow, read_curve
from training.zero.gate import network_spec, tournament
from training.zero.replay import Positions, shards
from tribune_arena.tournament.schedule import derive_seed

EVAL_SEED = 23


def run_config(run: Path, overrides: dict[str, Any] | None = None) -> Any:
    """The resolved config a run saved, with ``overrides`` (dotted keys, as ``tribune train --set``) applied and
    checked (ConfigError naming a bad one)."""
    source = str(run / "config.yaml")
    data = yaml.safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    return zero_config_from_dict(with_overrides(data, overrides or {}, source), source)


def snapshot(run: Path, iteration: int) -> NumpyPolicy:
    """The run's network after ``iteration`` (0: its start)."""
    return load_policy(run / "snapshots" / f"iter-{iteration:04d}.npz")


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
    start = snapshot(run, 0)
    model = Learner(start, learner, "cpu")
    window: Positions | None = None
    lines = []
    for iteration in range(1, upto + 1):
        if iteration not in found:
            raise SystemExit(f"{run}: the shard of iteration {iteration} is gone (outside the replay window)")
        part = Positions.read(found[iteration])
        searcher = snapshot(run, iteration - 1)
        part = damped_targets(part, searcher, alpha)
        part = value_subsample(part, value_share, derive_seed(config.seed, "offline-values", iteration))
        window = part if window is None else Positions.concat([window, part]).tail(learner.replay_window)
        stats = model.train(window, derive_seed(config.seed, "zero-learner", iteration))
        lines.append(f"iteration {iteration}: {len(window):,} positions, policy {stats.policy_loss:.3f}, "
                     f"value {stats.value_loss:.3f}")
    meta = {**start.meta, "trained_by": "zero-offline"}
    return model.policy(meta), lines


def labelled(part: Positions) -> Positions:
    """The rows of ``part`` with a policy target."""
    return part.take(np.flatnonzero(part.searched))


def labelled_shards(run: Path, first: int, last: int) -> Positions:
    """The labelled positions of the run's shards ``first..last`` (SystemExit naming a shard that is gone)."""
    return shard_positions(run, first, last, labelled_only=True)


def shard_positions(run: Path, first: int, last: int, labelled_only: bool = False) -> Positions:
    """The positions (``labelled_only``: the labelled ones) of the run's shards ``first..last`` (SystemExit naming a
    shard that is gone)."""
    found = shards(run / "replay")
    parts = []
    for k in range(first, last + 1):
        if k not in found:
            raise SystemExit(f"{run}: the shard of iteration {k} is gone (outside the replay window)")
        part = Positions.read(found[k])
        parts.append(labelled(part) if labelled_only else part)
    if not parts:
        raise SystemExit(f"{run}: no shards in {first}..{last}")
    return Positions.concat(parts)


def clear_rows(part: Positions, margin: float) -> np.ndarray:
    """Whether each row is a clear label: searched, with a gain of ``margin`` or more."""
    with np.errstate(invalid="ignore"):
        out: np.ndarray = part.searched.astype(bool) & (part.gains >= margin)
    return out


def drift(policy: NumpyPolicy, start: NumpyPolicy, part: Positions, margin: float) -> dict[str, float]:
    """What fitting changed: the share of ``part``'s clear labels (:func:`clear_rows`) where ``policy`` now chooses
    the target's action (``learned``; the start: ``learned_before``), and the share of the other rows where its
    choice is no longer the start's (``moved``): changes the labels did not ask for."""
    clear = clear_rows(part, margin)
    target = part.targets.astype(np.float32).argmax(axis=1)
    mine, before = favourites(policy, part), favourites(start, part)
    return {"clear": int(clear.sum()), "learned": _share(mine[clear] == target[clear]),
            "learned_before": _share(before[clear] == target[clear]), "moved": _share(mine[~clear] != before[~clear])}


def drift_by_kind(policy: NumpyPolicy, start: NumpyPolicy, part: Positions, margin: float,
                  block_of: Callable[[int], Any]) -> dict[str, tuple[int, dict[str, float]]]:
    """:func:`drift` per kind of decision (``block_of(index).name`` of the start's choice, most rows first): each
    kind's rows and its drift."""
    kinds = np.array([block_of(int(a)).name for a in favourites(start, part)], dtype=object)
    names, counts = np.unique(kinds, return_counts=True)
    return {str(name): (int(count), drift(policy, start, part.take(np.flatnonzero(kinds == name)), margin))
            for name, count in sorted(zip(names, counts, strict=True), key=lambda item: -item[1])}


def _share(hits: np.ndarray) -> float:
    return float(np.mean(hits)) if len(hits) else math.nan


def favourites(policy: NumpyPolicy, part: Positions) -> np.ndarray:
    """Each row's most probable legal action under ``policy``."""
    out: np.ndarray = np.where(part.masks, all_logits(policy, part.obs), -np.inf).argmax(axis=1)
    return out


def agreement(policy: NumpyPolicy, part: Positions, reference: np.ndarray) -> dict[str, float]:
    """On labelled positions: the share where ``policy``'s most probable action is the target's (``all``), and the
    same among the rows where the ``reference`` choices (a start network's) differ from the target's (``overrules``,
    their count ``overruled``)."""
    target = part.targets.astype(np.float32).argmax(axis=1)
    mine = favourites(policy, part)
    flips = reference != target
    return {"all": float(np.mean(mine == target)), "overruled": int(flips.sum()),
            "overrules": float(np.mean(mine[flips] == target[flips])) if flips.any() else math.nan}


def searcher(run: Path, shard: int) -> int:
    """The iteration of the network that played (and searched) the shard of iteration ``shard``: the best network
    after iteration ``shard - 1`` (the curve's ``best``), or snapshot ``shard - 1`` where the curve does not say."""
    return searcher_in(curve_rows(run), shard)


def curve_rows(run: Path) -> dict[int, CurveRow]:
    """The rows of the run's ``curve.csv`` by iteration (read once, for many :func:`searcher_in` calls)."""
    return {row.iteration: row for row in read_curve(run / "curve.csv")}


def searcher_in(rows: dict[int, CurveRow], shard: int) -> int:
    """:func:`searcher` from the curve's rows already read."""
    before = rows.get(shard - 1)
    return before.best if before is not None and before.best >= 0 else shard - 1


@dataclass
class LabelKind:
    """The labels of one kind of decision (see :func:`label_report`)."""

    labels: int = 0
    clear: int = 0
    gain: float = 0.0  # the sum of the positive gains
    kept: int = 0  # clear labels whose target's most probable action is the searching network's own choice


def label_report(run: Path, first: int, last: int, margin: float) -> dict[str, LabelKind]:
    """Per action block of the target's most probable action, what the labelled positions of shards
    ``first..last`` teach (see the module docstring); shards without gains count no clear labels."""
    from tribune_env.codec import codec_for

    codec = codec_for(run_config(run).game.components, space_of(snapshot(run, 0)))
    rows = curve_rows(run)
    kinds: dict[str, LabelKind] = {}
    for k in range(first, last + 1):
        part = labelled_shards(run, k, k)
        targets = part.targets.astype(np.float32).argmax(axis=1)
        own = favourites(snapshot(run, searcher_in(rows, k)), part)
        for label, mine, gain, clear in zip(targets, own, part.gains, clear_rows(part, margin), strict=True):
            kind = kinds.setdefault(codec.block_of(int(label)).name, LabelKind())
            kind.labels += 1
            kind.gain += float(gain) if gain > 0 else 0.0  # NaN > 0 is False
            kind.clear += int(clear)
            kind.kept += int(clear and label == mine)
    return dict(sorted(kinds.items(), key=lambda item: -item[1].labels))


def _label_lines(kinds: dict[str, LabelKind]) -> list[str]:
    labels = sum(k.labels for k in kinds.values())
    clear = sum(k.clear for k in kinds.values())
    gain = sum(k.gain for k in kinds.values()) or math.nan
    lines = [f"{'decision':12s} {'labels':>8s} {'share':>7s} {'clear':>7s} {'of gain':>8s} {'clear, kept':>12s}"]
    for name, k in [*kinds.items(), ("all", LabelKind(labels, clear, gain if labels else 0.0,
                                                     sum(k.kept for k in kinds.values())))]:
        kept = f"{k.kept / k.clear:.1%}" if k.clear else "-"
        lines.append(f"{name:12s} {k.labels:8,d} {k.labels / labels:7.1%} {k.clear / k.labels:7.1%} "
                     f"{k.gain / gain:8.1%} {kept:>12s}")
    return lines


def widen(policy: NumpyPolicy, widths: list[int], seed: int = 0) -> NumpyPolicy:
    """``policy`` with its policy tower's hidden layers widened to ``widths`` (as many, none narrower), playing
    exactly as before: each new unit reads the layer below through random weights (He-scaled; the first layer
    over the about 100 nonzero entries of an observation), the old units do not read the new ones and the action
    head does not read them, so the logits are unchanged until training moves the new weights (net2net)."""
    arrays = {k: np.asarray(v, np.float32) for k, v in policy.arrays().items()}
    old = list(policy.meta["net"]["pi"])
    if len(widths) != len(old) or any(w < o for w, o in zip(widths, old, strict=True)):
        raise ValueError(f"widths must be {len(old)} numbers, each at least the network's {old}; got {widths}")
    rng = np.random.default_rng(seed)
    below_old, below_new, fan_in = policy.obs_size, policy.obs_size, 100
    for k, (o, w) in enumerate(zip(old, widths, strict=True)):
        weight = np.zeros((w, below_new), np.float32)
        weight[:o, :below_old] = arrays[f"pi.{k}.weight"]
        weight[o:, :] = rng.normal(0.0, math.sqrt(2.0 / fan_in), (w - o, below_new))
        arrays[f"pi.{k}.weight"] = weight
        arrays[f"pi.{k}.bias"] = np.concatenate([arrays[f"pi.{k}.bias"], np.zeros(w - o, np.float32)])
        below_old, below_new, fan_in = o, w, w
    head = np.zeros((arrays["action.weight"].shape[0], below_new), np.float32)
    head[:, :below_old] = arrays["action.weight"]
    arrays["action.weight"] = head
    meta = {**policy.meta, "net": {**policy.meta["net"], "pi": list(widths)}}
    return NumpyPolicy.from_arrays(meta, arrays)


def fit(run: Path, upto: int, learner: LearnerConfig, widths: list[int] | None = None,
        hard: bool = False, every_position: bool = False) -> tuple[NumpyPolicy, Positions]:
    """The run's starting network (widened to ``widths``) fitted to the labelled positions of shards ``1..upto``
    pooled (``every_position``: to all their positions, as the run's learner trains: the anchor then holds the
    unlabelled ones too; see the module docstring), and those positions."""
    import torch

    from training.zero.learner import Learner

    torch.set_num_threads(learner.torch_threads if isinstance(learner.torch_threads, int) else 1)
    data = shard_positions(run, 1, upto, labelled_only=not every_position)
    if hard:
        onehot = np.zeros_like(data.targets)
        rows = np.flatnonzero(data.searched)
        onehot[rows, data.targets[rows].astype(np.float32).argmax(axis=1)] = 1
        data = dataclasses.replace(data, targets=onehot)
    start = snapshot(run, 0)
    if widths is not None:
        start = widen(start, widths)
    model = Learner(start, learner, "cpu")
    model.train(data, derive_seed(run_config(run).seed, "offline-fit", upto))
    return model.policy({**start.meta, "trained_by": "zero-offline-fit"}), data


def average(run: Path, first: int, last: int) -> NumpyPolicy:
    """The mean of the weights of the run's snapshots ``first..last`` (the metadata of the last)."""
    policies = [snapshot(run, k) for k in range(first, last + 1)]
    if not policies:
        raise SystemExit(f"{run}: no snapshots in {first}..{last}")
    names = policies[0].arrays()
    arrays = {n: np.mean([np.asarray(p.arrays()[n], np.float64) for p in policies], axis=0).astype(np.float32)
              for n in names}
    return NumpyPolicy.from_arrays({**policies[-1].meta, "trained_by": "zero-offline-average"}, arrays)


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
    the error of a constant (shard ``k``'s mean result) on ``k + 1``, and the policy cross-entropy on ``k + 1``.
    ``value_results`` and ``start_results``: the value errors of snapshot ``k`` and of the start on the unsearched
    positions of ``k + 1``, whose target is the game's result alone (with ``selfplay.root_value`` a searched
    position's target also holds the search's root value, which a network's own value predicts better)."""
    found = shards(run / "replay")
    start = snapshot(run, 0)
    rows = []
    for k in [0, *sorted(found)]:
        if k + 1 not in found:
            continue
        policy = snapshot(run, k)
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
        results = valued & ~unseen.searched
        for name, network in (("value_results", policy), ("start_results", start)):
            error = all_values(network, unseen.obs[results]) - unseen.values[results]
            out[name] = float(np.mean(error**2)) if results.any() else float("nan")
        rows_s = np.flatnonzero(unseen.searched)
        logp = masked_log_softmax(all_logits(policy, unseen.obs[rows_s]), unseen.masks[rows_s])
        targets = unseen.targets[rows_s].astype(np.float64)
        terms = np.where(targets > 0, targets * np.where(np.isfinite(logp), logp, 0.0), 0.0)
        out["policy_unseen"] = float(-terms.sum(axis=1).mean())
        rows.append(out)
    return rows


def _learner(run: Path, sets: list[str]) -> LearnerConfig:
    """The run's learner settings with ``--set learner.KEY=VALUE`` applied, checked as ``tribune train --set`` checks
    them (SystemExit naming a bad one)."""
    overrides: dict[str, Any] = {}
    for item in sets:
        key, sep, value = item.partition("=")
        if not sep or not key.startswith("learner."):
            raise SystemExit(f"--set {item}: expected learner.KEY=VALUE")
        overrides[key] = yaml.safe_load(value)
    try:
        learner: LearnerConfig = run_config(run, overrides).learner
    except ConfigError as exc:
        raise SystemExit(f"--set: {exc}") from None
    return learner


def _network(run: Path, name: str) -> NumpyPolicy:
    """A network named on the command line: a snapshot's iteration, or a path."""
    return snapshot(run, int(name)) if name.isdigit() else load_policy(name)


def shard_span(text: str) -> tuple[int, int]:
    """A command line's ``FIRST:LAST`` (iterations) as a pair (an argparse type: a bad one is named with its
    option)."""
    first, sep, last = text.partition(":")
    if not (sep and first.isdigit() and last.isdigit()):
        raise argparse.ArgumentTypeError(f"expected FIRST:LAST (iterations), got {text!r}")
    return int(first), int(last)


def disjoint_spans(train: tuple[int, int], test: tuple[int, int]) -> None:
    """SystemExit when the shards ``train`` (``--train``) and ``test`` (``--test``) overlap: a measurement on
    shards its model was fitted to says nothing about new positions."""
    (a, b), (c, d) = train, test
    if not (b < c or d < a):
        raise SystemExit(f"--train {a}:{b} and --test {c}:{d} overlap: measure on shards the model never saw")


def _agreement_line(name: str, numbers: dict[str, float]) -> str:
    return (f"{name}: agrees with the target's choice at {numbers['all']:.1%}; where the start's differs "
            f"({numbers['overruled']:,}): {numbers['overrules']:.1%}")


def _drift_line(name: str, moved: dict[str, float], rows: int, margin: float) -> str:
    def share(x: float) -> str:
        return "-" if math.isnan(x) else f"{x:.1%}"

    return (f"{name}: of {moved['clear']:,} clear labels (gain >= {margin}) it chooses the label at "
            f"{share(moved['learned'])} (the start at {share(moved['learned_before'])}); of the other "
            f"{rows - moved['clear']:,} positions it chooses otherwise than the start at {share(moved['moved'])}")


def _play(run: Path, path: Path, games: int, workers: int) -> None:
    """Play ``path`` as ``zero-net`` against three ``heuristic`` on the deals of ``EVAL_SEED``; print the result."""
    if not games:
        return
    config = run_config(run)
    specs = [network_spec(path), *["heuristic"] * (config.game.players - 1)]
    result = tournament(specs, config.game, games, EVAL_SEED, path.with_suffix(".sqlite"), workers)
    print(f"{path}: zero-net vs 3 x heuristic: {result.wins:g}/{result.games} = {result.win_rate:.1%} "
          f"({result.ci_low:.1%}-{result.ci_high:.1%})")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.zero.offline", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    h = sub.add_parser("heldout", help="losses of each snapshot on the next iteration's (unseen) positions")
    h.add_argument("run", type=Path)
    r = sub.add_parser("retrain", help="train on the run's shards with one change, then play it")
    r.add_argument("--alpha", type=float, default=1.0)
    r.add_argument("--value-share", type=float, default=1.0)
    f = sub.add_parser("fit", help="fit the starting network to the labels of shards 1..K pooled, then play it")
    f.add_argument("--widen", type=lambda t: [int(w) for w in t.split(",")], default=None, metavar="W1,W2")
    f.add_argument("--hard", action="store_true", help="targets on their most probable action only")
    f.add_argument("--heldout-to", type=int, default=None, metavar="L", help="agreement on the shards K+1..L")
    f.add_argument("--positions", choices=("labelled", "all"), default="labelled",
                   help="fit the labelled positions (default) or all, as the run's learner does")
    f.add_argument("--margin", type=float, default=0.1, help="the least gain of a clear label (for the drift)")
    a = sub.add_parser("agreement", help="how often networks choose as the labels do, on the shards A..B")
    a.add_argument("run", type=Path)
    a.add_argument("--shards", type=shard_span, required=True, metavar="A:B")
    a.add_argument("networks", nargs="+", metavar="NETWORK")
    d = sub.add_parser("drift", help="clear labels learned and other choices moved, against the start, on A..B")
    d.add_argument("run", type=Path)
    d.add_argument("--shards", type=shard_span, required=True, metavar="A:B")
    d.add_argument("--margin", type=float, default=0.1, help="the least gain of a clear label")
    d.add_argument("--by-kind", action="store_true", help="also per kind of decision (the start's choice's block)")
    d.add_argument("networks", nargs="+", metavar="NETWORK")
    lab = sub.add_parser("labels", help="what the labels of shards A..B teach, per kind of decision")
    lab.add_argument("run", type=Path)
    lab.add_argument("--shards", type=shard_span, required=True, metavar="A:B")
    lab.add_argument("--margin", type=float, default=0.1, help="the least gain of a clear label")
    v = sub.add_parser("average", help="the mean of the weights of snapshots A..B, then play it")
    v.add_argument("--from", dest="first", type=int, required=True)
    v.add_argument("--to", dest="last", type=int, required=True)
    for command in (r, f):
        command.add_argument("run", type=Path)
        command.add_argument("--upto", type=int, required=True)
        command.add_argument("--set", action="append", default=[], metavar="learner.KEY=VALUE")
    v.add_argument("run", type=Path)
    for command in (r, f, v):
        command.add_argument("--games", type=int, default=200)
        command.add_argument("--workers", type=int, default=1)
        command.add_argument("--out", type=Path, required=True)
    return parser


def _heldout(args: argparse.Namespace) -> None:
    for row in heldout(args.run):
        print(json.dumps({k: round(v, 4) for k, v in row.items()}))


def _agreements(args: argparse.Namespace) -> None:
    part = labelled_shards(args.run, *args.shards)
    reference = favourites(snapshot(args.run, 0), part)
    print(f"shards {args.shards[0]}..{args.shards[1]}: {len(part):,} labelled positions")
    for name in args.networks:
        print(_agreement_line(name, agreement(_network(args.run, name), part, reference)))


def _drifts(args: argparse.Namespace) -> None:
    part = shard_positions(args.run, *args.shards)
    from tribune_env.codec import codec_for

    start = snapshot(args.run, 0)
    print(f"shards {args.shards[0]}..{args.shards[1]}: {len(part):,} positions")
    block_of = codec_for(run_config(args.run).game.components, space_of(start)).block_of if args.by_kind else None
    for name in args.networks:
        policy = _network(args.run, name)
        print(_drift_line(name, drift(policy, start, part, args.margin), len(part), args.margin))
        if block_of is not None:
            for kind, (rows, moved) in drift_by_kind(policy, start, part, args.margin, block_of).items():
                print("  " + _drift_line(kind, moved, rows, args.margin))


def _labels(args: argparse.Namespace) -> None:
    first, last = args.shards
    print("\n".join(_label_lines(label_report(args.run, first, last, args.margin))))


def _average(args: argparse.Namespace) -> None:
    path = average(args.run, args.first, args.last).save_npz(args.out, "float16")
    _play(args.run, path, args.games, args.workers)


def _fit(args: argparse.Namespace) -> None:
    try:
        policy, data = fit(args.run, args.upto, _learner(args.run, args.set), args.widen, args.hard,
                           args.positions == "all")
    except ValueError as exc:
        raise SystemExit(f"--widen: {exc}") from None
    path = policy.save_npz(args.out, "float16")
    start = snapshot(args.run, 0)
    sample = labelled(data.take(np.random.default_rng(0).permutation(len(data))[:10_000]))
    reference = favourites(start, sample)
    print(_agreement_line("fitted positions (a sample), start", agreement(start, sample, reference)))
    print(_agreement_line("fitted positions (a sample), fit", agreement(policy, sample, reference)))
    print(_drift_line("fitted positions", drift(policy, start, data, args.margin), len(data), args.margin))
    if args.heldout_to is not None and args.heldout_to > args.upto:
        unseen = labelled_shards(args.run, args.upto + 1, args.heldout_to)
        reference = favourites(start, unseen)
        print(f"unseen shards {args.upto + 1}..{args.heldout_to}: {len(unseen):,} labelled positions")
        print(_agreement_line("start", agreement(start, unseen, reference)))
        print(_agreement_line("fit", agreement(policy, unseen, reference)))
    _play(args.run, path, args.games, args.workers)


def _retrain(args: argparse.Namespace) -> None:
    policy, lines = retrain(args.run, args.upto, args.alpha, args.value_share, _learner(args.run, args.set))
    for line in lines:
        print(line, flush=True)
    path = policy.save_npz(args.out, "float16")
    nxt = shards(args.run / "replay").get(args.upto + 1)
    if nxt is not None:
        print(json.dumps({"unseen_shard": args.upto + 1, **{k: round(v, 4) for k, v in losses(policy, nxt).items()}}))
    _play(args.run, path, args.games, args.workers)


COMMANDS = {"heldout": _heldout, "agreement": _agreements, "drift": _drifts, "labels": _labels,
            "average": _average, "fit": _fit, "retrain": _retrain}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    COMMANDS[args.command](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
