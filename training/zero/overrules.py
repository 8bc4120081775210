"""Can a network tell, from what it sees, where the search overrules it? (issue 44)

    python -m training.zero.overrules RUN --train 1:30 --test 31:41

A network can only learn the search's clear labels (a gain of ``--margin`` or more over its own choice,
:func:`~training.zero.offline.clear_rows`) if the positions where they arise can be told from the others by the
observation. This trains a detector on the searched positions of the run's shards ``--train``: one hidden layer
(``--hidden`` units, ReLU) over the observation and a summary of the searching network's policy there (its top
probability, the gap to the second in log-probability, the entropy, the number of legal actions), a logistic loss,
Adam, ``--epochs`` passes in minibatches of ``--batch-size``, seeded. On the searched positions of the shards
``--test`` (games it never saw) it then reports the clear share (the base rate), the area under the ROC curve
(:func:`roc_auc`: 0.5 is chance), the average precision (:func:`average_precision`: the base rate is chance) and the
precision at a recall of 25% and 50%, in all and per kind of decision (the action block of the searching network's
own choice), and the same for a detector over the policy summary alone. ``--sizes``: the same for detectors trained
on the first shards of ``--train`` only (a learning curve: does the detection improve with more labels?).

The searching network of shard ``k`` is the one the run's curve names (:func:`~training.zero.offline.searcher`).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.stats import rankdata

from agents.ppo import space_of
from training.zero.offline import (
    all_logits,
    clear_rows,
    curve_rows,
    disjoint_spans,
    labelled_shards,
    masked_log_softmax,
    run_config,
    searcher_in,
    shard_span,
    snapshot,
)

SUMMARY = ("top probability", "gap to the second", "entropy", "legal actions / 10")


@dataclass(frozen=True)
class Searched:
    """The searched positions of some shards: features, whether each is a clear label, and its kind."""

    obs: np.ndarray  # float32, rows x observation size
    summary: np.ndarray  # float32, rows x len(SUMMARY): the searching network's policy there
    clear: np.ndarray  # bool
    kinds: np.ndarray  # str: the action block of the searching network's own choice
    shards: np.ndarray  # int: the shard (iteration) of each row

    def __len__(self) -> int:
        return len(self.clear)

    def upto(self, last: int) -> Searched:
        """The rows of the shards up to ``last``."""
        rows = self.shards <= last
        return Searched(self.obs[rows], self.summary[rows], self.clear[rows], self.kinds[rows], self.shards[rows])


def policy_summary(logits: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the :data:`SUMMARY` of the masked softmax of ``logits``, and its most probable legal action."""
    logp = masked_log_softmax(logits, masks)
    ordered = -np.sort(-np.where(masks, logp, -np.inf), axis=1)
    second = np.where(np.isfinite(ordered[:, 1]), ordered[:, 1], ordered[:, 0] - 20.0)  # one legal action: a wide gap
    entropy = -np.where(masks, np.exp(logp) * np.where(masks, logp, 0.0), 0.0).sum(axis=1)
    summary = np.stack([np.exp(ordered[:, 0]), ordered[:, 0] - second, entropy, masks.sum(axis=1) / 10.0], axis=1)
    return summary.astype(np.float32), np.where(masks, logp, -np.inf).argmax(axis=1)


def searched_positions(run: Path, first: int, last: int, margin: float) -> Searched:
    """The searched positions of the run's shards ``first..last`` (SystemExit naming a shard that is gone)."""
    from tribune_env.codec import codec_for

    codec = codec_for(run_config(run).game.components, space_of(snapshot(run, 0)))
    rows = curve_rows(run)
    parts = []
    for k in range(first, last + 1):
        part = labelled_shards(run, k, k)
        summary, own = policy_summary(all_logits(snapshot(run, searcher_in(rows, k)), part.obs), part.masks)
        kinds = np.array([codec.block_of(int(a)).name for a in own], dtype=object)
        parts.append(Searched(part.obs.astype(np.float32), summary, clear_rows(part, margin), kinds,
                              np.full(len(part), k)))
    fields = ("obs", "summary", "clear", "kinds", "shards")
    return Searched(*(np.concatenate([getattr(p, f) for p in parts]) for f in fields))


def roc_auc(clear: np.ndarray, scores: np.ndarray) -> float:
    """The probability that a random clear row scores above a random other one (ties count a half); NaN when
    either class is empty."""
    positives = int(clear.sum())
    negatives = len(clear) - positives
    if not positives or not negatives:
        return math.nan
    ranks = rankdata(scores)
    return float((ranks[clear].sum() - positives * (positives + 1) / 2) / (positives * negatives))


def average_precision(clear: np.ndarray, scores: np.ndarray) -> float:
    """The mean, over the clear rows, of the precision among the rows scored at least as high (rows in score order,
    ties in row order); NaN without a clear row."""
    if not clear.any():
        return math.nan
    ordered = clear[np.argsort(-scores, kind="stable")]
    hits = np.cumsum(ordered)
    return float(np.mean(hits[ordered] / (np.flatnonzero(ordered) + 1)))


def precision_at_recall(clear: np.ndarray, scores: np.ndarray, recall: float) -> float:
    """The precision of the highest-scored rows that hold ``recall`` of the clear rows; NaN without a clear row."""
    if not clear.any():
        return math.nan
    ordered = clear[np.argsort(-scores, kind="stable")]
    hits = np.cumsum(ordered)
    cut = int(np.searchsorted(hits, math.ceil(recall * hits[-1])))
    return float(hits[cut] / (cut + 1))


@dataclass(frozen=True)
class DetectorConfig:
    hidden: int = 128
    epochs: int = 8
    batch_size: int = 512
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    seed: int = 0


def train_detector(
    features: np.ndarray, clear: np.ndarray, config: DetectorConfig
) -> Callable[[np.ndarray], np.ndarray]:
    """A one-hidden-layer detector of clear rows trained on ``features`` (see the module docstring): the function
    that scores rows of features (higher: more likely clear)."""
    import torch

    torch.manual_seed(config.seed)
    x = torch.as_tensor(features, dtype=torch.float32)
    y = torch.as_tensor(clear, dtype=torch.float32)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[1], config.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(config.hidden, 1))
    optimiser = torch.optim.Adam(model.parameters(), config.learning_rate, weight_decay=config.weight_decay)
    rng = np.random.default_rng(config.seed)
    for _ in range(config.epochs):
        order = torch.as_tensor(rng.permutation(len(x)))
        for start in range(0, len(x), config.batch_size):
            rows = order[start : start + config.batch_size]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(x[rows])[:, 0], y[rows])
            optimiser.zero_grad()
            torch.autograd.backward(loss)
            optimiser.step()
    model.eval()

    def score(rows: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out: np.ndarray = model(torch.as_tensor(rows, dtype=torch.float32))[:, 0].numpy()
        return out

    return score


@dataclass(frozen=True)
class Detection:
    """How well scores tell the clear rows of a set of positions (see the module docstring)."""

    rows: int
    clear: int
    auc: float
    precision: float  # average precision
    at_25: float  # precision at a recall of 25%
    at_50: float

    @classmethod
    def of(cls, clear: np.ndarray, scores: np.ndarray) -> Detection:
        return cls(len(clear), int(clear.sum()), roc_auc(clear, scores), average_precision(clear, scores),
                   precision_at_recall(clear, scores, 0.25), precision_at_recall(clear, scores, 0.5))

    def line(self, name: str) -> str:
        base = self.clear / self.rows if self.rows else math.nan
        return (f"{name:14s} {self.rows:8,d} {self.clear:7,d} {base:7.1%} {self.auc:6.3f} {self.precision:7.3f} "
                f"{self.at_25:7.3f} {self.at_50:7.3f}")


HEADER = f"{'positions':14s} {'rows':>8s} {'clear':>7s} {'base':>7s} {'AUC':>6s} {'AP':>7s} {'P@R25':>7s} {'P@R50':>7s}"


def features(part: Searched, observation: bool) -> np.ndarray:
    """The detector's input: the observation and the policy summary, or the summary alone."""
    return np.concatenate([part.obs, part.summary], axis=1) if observation else part.summary


def detections(train: Searched, test: Searched, config: DetectorConfig, observation: bool) -> dict[str, Detection]:
    """The detections on ``test`` of a detector trained on ``train``: in all, then per kind (most rows first).
    ValueError when ``train`` has no clear row (nothing to learn)."""
    if not train.clear.any():
        raise ValueError("no clear labels to train on (shards written before gains were recorded have none)")
    scores = train_detector(features(train, observation), train.clear, config)(features(test, observation))
    out = {"all": Detection.of(test.clear, scores)}
    names, counts = np.unique(test.kinds, return_counts=True)
    for name in names[np.argsort(-counts, kind="stable")]:
        rows = test.kinds == name
        out[str(name)] = Detection.of(test.clear[rows], scores[rows])
    return out


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.zero.overrules", description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--train", type=shard_span, required=True, metavar="A:B", help="the shards to train on")
    parser.add_argument("--test", type=shard_span, required=True, metavar="C:D", help="the shards to measure on")
    parser.add_argument("--margin", type=float, default=0.1, help="the least gain of a clear label")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", type=lambda t: [int(n) for n in t.split(",")], default=[], metavar="N1,N2",
                        help="also train on the first N shards of --train only (a learning curve)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    disjoint_spans(args.train, args.test)
    (a, b), (c, d) = args.train, args.test
    if min(args.hidden, args.epochs, args.batch_size) < 1:
        raise SystemExit("--hidden, --epochs and --batch-size must be at least 1")
    for n in args.sizes:
        if not 1 <= n <= b - a + 1:
            raise SystemExit(f"--sizes {n}: expected 1..{b - a + 1} (the shards of --train)")
    config = DetectorConfig(hidden=args.hidden, epochs=args.epochs, batch_size=args.batch_size, seed=args.seed)
    train = searched_positions(args.run, a, b, args.margin)
    test = searched_positions(args.run, c, d, args.margin)
    print(f"trained on shards {a}..{b} ({len(train):,} searched, {int(train.clear.sum()):,} clear), "
          f"measured on shards {c}..{d}")
    try:
        _report(train, test, config, args.sizes, a)
    except ValueError as exc:
        raise SystemExit(f"{args.run}: {exc}") from None
    return 0


def _report(train: Searched, test: Searched, config: DetectorConfig, sizes: list[int], a: int) -> None:
    for observation, title in ((True, "observation and policy summary"), (False, "policy summary alone")):
        print(f"\ndetector over the {title}:\n{HEADER}")
        for name, found in detections(train, test, config, observation).items():
            print(found.line(name))
    if sizes:
        print(f"\nlearning curve (observation and policy summary, all kinds):\n{'shards':14s}{HEADER[14:]}")
        for n in sizes:
            part = train.upto(a + n - 1)
            found = detections(part, test, config, True)["all"]
            print(found.line(f"{a}..{a + n - 1}") + f"   (trained on {int(part.clear.sum()):,} clear)")


if __name__ == "__main__":
    sys.exit(main())
