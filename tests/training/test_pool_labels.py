"""The search's labels learned beside PPO (training.pool.labels, the ``labels`` section of a ``ppo-pool`` config):
only a zero run's searched rows are read, bad shards are named, the loss is the KL divergence to the targets, and a
run with labels fits them while PPO trains."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

pytestmark = [pytest.mark.train, pytest.mark.usefixtures("one_torch_thread")]

from agents.ppo import load_policy  # noqa: E402
from training.config import ConfigError, with_overrides  # noqa: E402
from training.pool.config import pool_config_from_dict  # noqa: E402
from training.pool.labels import LabelsError, label_loss, load_labels  # noqa: E402
from training.pool.network import PolicyNet  # noqa: E402
from training.pool.run import PoolTrainer, PoolTrainError  # noqa: E402
from training.zero.replay import Positions, shard_path  # noqa: E402
from tribune_env.engine.config import GameConfig  # noqa: E402
from tribune_env.envs.pool import TribunePool  # noqa: E402

CONFIG = GameConfig(players=4)
CPU = torch.device("cpu")


def positions(games: int = 16, seed: int = 3) -> Positions:
    """Real positions of a pool some random decisions in; every other row searched, its target the first legal
    action (a firm label the start does not hold)."""
    pool = TribunePool(games, CONFIG)
    pool.reset(seed)
    obs, mask, _, _, _ = pool.step_random(30)
    masks = mask.astype(bool)
    targets = np.zeros(masks.shape, np.float16)
    targets[np.arange(games), masks.argmax(1)] = 1.0
    searched = np.arange(games) % 2 == 0
    return Positions(obs.astype(np.float16), masks, targets, searched, np.full(games, np.nan, np.float32))


def write_shards(folder: Path, parts: list[Positions]) -> Path:
    for iteration, part in enumerate(parts, start=1):
        part.save(shard_path(folder, iteration))
    return folder


def test_only_the_searched_rows_are_read_in_iteration_order(tmp_path: Path) -> None:
    first, second = positions(seed=3), positions(seed=4)
    folder = write_shards(tmp_path / "replay", [first, second])
    pool = TribunePool(1, CONFIG)
    labels = load_labels(folder, pool.encoder.size, pool.codec.n, CPU)
    want = Positions.concat([first.take(np.flatnonzero(first.searched)), second.take(np.flatnonzero(second.searched))])
    assert len(labels) == int(first.searched.sum() + second.searched.sum())
    np.testing.assert_array_equal(labels.obs.numpy(), want.obs)
    np.testing.assert_array_equal(labels.masks.numpy(), want.masks)
    np.testing.assert_allclose(labels.targets.numpy(), want.targets.astype(np.float32))


def test_min_gain_keeps_the_clear_labels_and_hard_makes_them_firm(tmp_path: Path) -> None:
    """``min_gain``: only searched rows whose gain reaches it (an unknown gain, NaN, is not kept); ``hard``: each
    target one-hot at its most probable action."""
    part = positions(games=16)
    rng = np.random.default_rng(2)
    soft = np.where(part.masks, rng.random(part.masks.shape), 0.0)
    soft /= soft.sum(1, keepdims=True)
    gains = np.array([0.3, 0.0, np.nan, 0.05, 0.1, 0.5, 0.2, np.nan] * 2, np.float32)
    folder = write_shards(tmp_path / "r", [Positions(part.obs, part.masks, soft.astype(np.float16), part.searched,
                                                     part.values, gains)])
    pool = TribunePool(1, CONFIG)
    clear = load_labels(folder, pool.encoder.size, pool.codec.n, CPU, min_gain=0.1)
    want = np.flatnonzero(part.searched & (np.nan_to_num(gains, nan=-1) >= 0.1))
    assert len(clear) == len(want) == 6
    np.testing.assert_array_equal(clear.obs.numpy(), part.obs[want])
    hard = load_labels(folder, pool.encoder.size, pool.codec.n, CPU, min_gain=0.1, hard=True)
    targets = hard.targets.numpy()
    assert set(np.unique(targets)) == {0.0, 1.0} and (targets.sum(1) == 1).all()
    np.testing.assert_array_equal(targets.argmax(1), clear.targets.numpy().argmax(1))
    with pytest.raises(LabelsError, match=r"no searched position with a gain of 0\.9 or more"):
        load_labels(folder, pool.encoder.size, pool.codec.n, CPU, min_gain=0.9)


def test_shards_that_cannot_serve_are_named(tmp_path: Path) -> None:
    pool = TribunePool(1, CONFIG)
    size, n = pool.encoder.size, pool.codec.n
    with pytest.raises(LabelsError, match="no replay shards"):
        load_labels(tmp_path / "none", size, n, CPU)
    part = positions()
    unsearched = Positions(part.obs, part.masks, part.targets, np.zeros(len(part), bool), part.values)
    with pytest.raises(LabelsError, match="no searched position"):
        load_labels(write_shards(tmp_path / "a", [unsearched]), size, n, CPU)
    with pytest.raises(LabelsError, match=f"where this game has {size + 1} and {n}"):
        load_labels(write_shards(tmp_path / "b", [part]), size + 1, n, CPU)
    narrow = Positions(part.obs[:, :-1], part.masks, part.targets, part.searched, part.values)
    with pytest.raises(LabelsError, match=rf"iter-0002\.npz: positions of {size - 1} observation entries"):
        load_labels(write_shards(tmp_path / "mixed", [part, narrow]), size, n, CPU)
    illegal = part.targets.copy()
    illegal[0] = (~part.masks[0]).astype(np.float16) / (~part.masks[0]).sum()
    bad = Positions(part.obs, part.masks, illegal, part.searched, part.values)
    with pytest.raises(LabelsError, match="not a distribution over its position's legal actions"):
        load_labels(write_shards(tmp_path / "c", [bad]), size, n, CPU)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "iter-0001.npz").write_bytes(b"not a shard")
    with pytest.raises(LabelsError, match=r"iter-0001\.npz: not a readable replay shard"):
        load_labels(tmp_path / "d", size, n, CPU)


def test_the_loss_is_the_kl_divergence_to_the_targets(tmp_path: Path) -> None:
    pool = TribunePool(1, CONFIG)
    part = positions()
    rng = np.random.default_rng(0)
    soft = np.where(part.masks, rng.random(part.masks.shape), 0.0)
    soft /= soft.sum(1, keepdims=True)
    labels = load_labels(write_shards(tmp_path / "r", [Positions(part.obs, part.masks, soft.astype(np.float16),
                                                                  part.searched, part.values)]),
                         pool.encoder.size, pool.codec.n, CPU)
    torch.manual_seed(1)
    net = PolicyNet(pool.encoder.size, pool.codec.n, 16, [8])
    rows = torch.arange(len(labels))
    with torch.no_grad():
        kl, agree = label_loss(net, labels, rows)
        logits, _ = net(labels.obs.float())
    p = torch.softmax(logits.masked_fill(~labels.masks, -torch.inf), 1).numpy()
    t = labels.targets.numpy()
    legal = labels.masks.numpy()
    want = np.mean([np.sum(t[i][legal[i]] * np.log(t[i][legal[i]] / p[i][legal[i]])) for i in range(len(t))])
    assert float(kl) == pytest.approx(want, rel=1e-4)
    assert float(agree) == pytest.approx(np.mean(p.argmax(1) == t.argmax(1)))


MODEL = "training/pool/models/heuristic-4p.npz"
TINY: dict[str, Any] = {
    "algorithm": "ppo-pool", "name": "tiny-labels", "seed": 3,
    "game": {"players": 4},
    "opponents": {"learner_seats": 1, "mix": {"distilled": 1.0}, "distilled": MODEL},
    "network": {"first_width": 16, "hidden": [8]},
    "ppo": {"games": 8, "steps": 8, "epochs": 2, "minibatch": 16, "torch_threads": 1, "device": "cpu",
            "learning_rate": 0.003, "whole_games": False},  # short games: train the rows of running ones
    "labels": {"weight": 1.0, "minibatch": 16},
    "eval": {"every_minutes": 0, "games": 4, "opponents": []},
    "run": {"decisions": 1200, "max_minutes": None, "progress_bar": False},
}


def tiny(tmp_path: Path, **over: Any) -> Any:
    return pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path), **over}, "t"), "t")


def test_a_run_with_labels_fits_them_while_ppo_trains(tmp_path: Path) -> None:
    """Firm labels that the fresh network does not hold: their KL divergence falls over the run, is in the
    curve, and the export says which labels trained it."""
    folder = write_shards(tmp_path / "replay", [positions(games=32)])
    trainer = PoolTrainer(tiny(tmp_path, **{"labels.shards": str(folder)}))
    rows = torch.arange(16)
    pool = TribunePool(1, CONFIG)
    torch.manual_seed(3)  # the run's seed: its network before the first update
    start = PolicyNet(pool.encoder.size, pool.codec.n, 16, [8])
    final = trainer.run()
    assert trainer.labels is not None
    with torch.no_grad():
        before, _ = label_loss(start, trainer.labels, rows)
        after, _ = label_loss(trainer.net, trainer.labels, rows)
    assert float(after) < 0.5 * float(before)
    with (tmp_path / "tiny-labels" / "curve.csv").open(newline="") as handle:
        curve = [r for r in csv.DictReader(handle) if r["kind"] == "train" and r["label_loss"]]
    assert curve and float(curve[-1]["label_loss"]) < float(curve[0]["label_loss"])
    assert load_policy(str(final), CONFIG).meta["training"]["labels"] == {"shards": str(folder), "weight": 1.0,
                                                                          "min_gain": None, "hard": False}


def test_labels_are_checked_before_training(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"labels\.weight: must be > 0"):
        tiny(tmp_path, **{"labels.weight": 0})
    with pytest.raises(ConfigError, match=r"labels\.minibatch: must be >= 1"):
        tiny(tmp_path, **{"labels.minibatch": 0})
    with pytest.raises(ConfigError, match=r"labels\.shards: the labels' positions hold no forecast features"):
        tiny(tmp_path, **{"labels.shards": "x", "network.sight": "forecast"})
    with pytest.raises(PoolTrainError, match=r"labels\.shards: .*no replay shards"):
        PoolTrainer(tiny(tmp_path, **{"labels.shards": str(tmp_path / "missing")})).run()
    assert not (tmp_path / "tiny-labels" / "checkpoints").exists()
