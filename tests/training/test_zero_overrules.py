"""training.zero.overrules (issue 44): the ranking measures on hand-made scores, the policy summary, a detector
that finds a planted signal and none in noise, and the command's report and errors on a small run folder."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from training_runs import zero_run_folder

from agents.ppo import load_policy
from agents.zero import PPO_MODELS
from training.zero.overrules import (
    DetectorConfig,
    Searched,
    average_precision,
    detections,
    main,
    policy_summary,
    precision_at_recall,
    roc_auc,
    searched_positions,
)
from training.zero.replay import Positions, shard_path
from tribune_env.engine.config import RuleSet

pytestmark = pytest.mark.train

SHIPPED = PPO_MODELS[RuleSet.BASE]


def test_roc_auc_ranks_pairs() -> None:
    clear = np.array([True, True, False, False])
    assert roc_auc(clear, np.array([4.0, 3.0, 2.0, 1.0])) == 1.0
    assert roc_auc(clear, np.array([1.0, 2.0, 3.0, 4.0])) == 0.0
    assert roc_auc(clear, np.zeros(4)) == 0.5  # ties count a half
    assert roc_auc(clear, np.array([4.0, 1.0, 3.0, 2.0])) == 0.5  # 2 of the 4 pairs in order
    assert math.isnan(roc_auc(np.zeros(3, bool), np.arange(3.0)))


def test_average_precision_and_precision_at_recall() -> None:
    clear = np.array([True, False, True, False, False, True])
    scores = np.array([6.0, 5.0, 4.0, 3.0, 2.0, 1.0])  # hits at ranks 1, 3 and 6
    assert average_precision(clear, scores) == pytest.approx((1 + 2 / 3 + 3 / 6) / 3)
    assert precision_at_recall(clear, scores, 0.25) == 1.0  # the first clear row: rank 1
    assert precision_at_recall(clear, scores, 0.5) == pytest.approx(2 / 3)  # two of three: rank 3
    assert precision_at_recall(clear, scores, 1.0) == pytest.approx(0.5)
    assert math.isnan(average_precision(np.zeros(3, bool), np.arange(3.0)))


def test_the_policy_summary() -> None:
    logits = np.array([[2.0, 1.0, 0.0, 9.0], [0.0, 5.0, 0.0, 0.0]])
    masks = np.array([[True, True, True, False], [False, True, False, False]])
    summary, own = policy_summary(logits, masks)
    p = np.exp([2.0, 1.0, 0.0]) / np.exp([2.0, 1.0, 0.0]).sum()
    np.testing.assert_allclose(summary[0], [p[0], 1.0, -(p * np.log(p)).sum(), 0.3], rtol=1e-5)
    np.testing.assert_allclose(summary[1], [1.0, 20.0, 0.0, 0.1], rtol=1e-5)  # one legal action: a wide gap
    assert list(own) == [0, 1]  # the masked logit 9 is not chosen


def planted(rows: int, seed: int, signal: bool) -> Searched:
    """Positions whose clear rows are those with observation entry 0 above 0.8 (``signal``), or drawn at random."""
    rng = np.random.default_rng(seed)
    obs = rng.random((rows, 20)).astype(np.float32)
    clear = obs[:, 0] > 0.8 if signal else rng.random(rows) > 0.8
    kinds = np.where(np.arange(rows) % 2 == 0, "place", "bid").astype(object)
    return Searched(obs, rng.random((rows, 4)).astype(np.float32), clear, kinds, np.ones(rows, int))


def test_a_detector_finds_a_planted_signal_and_none_in_noise() -> None:
    config = DetectorConfig(hidden=16, epochs=20, batch_size=32, seed=1)
    found = detections(planted(1000, 1, True), planted(500, 2, True), config, observation=True)
    assert list(found) == ["all", "bid", "place"] or list(found) == ["all", "place", "bid"]
    assert found["all"].auc > 0.9 and found["all"].precision > 0.7
    assert found["place"].rows == 250 and found["bid"].rows == 250
    summary_only = detections(planted(1000, 1, True), planted(500, 2, True), config, observation=False)
    assert 0.4 < summary_only["all"].auc < 0.6  # the signal is in the observation only
    noise = detections(planted(1000, 1, False), planted(500, 2, False), config, observation=True)
    assert 0.4 < noise["all"].auc < 0.6


def run_folder(tmp_path: Path) -> Path:
    """A zero run's folder: its config, snapshots 0..3 (the shipped network) and shards 1..4 whose searched rows
    with observation entry 0 set (half of them) have a clear gain."""
    start = load_policy(SHIPPED)
    run = zero_run_folder(tmp_path, [start] * 4)  # without a curve, shard k was searched by snapshot k - 1
    for k in range(1, 5):
        rng = np.random.default_rng(k)
        rows = 300
        obs = (rng.random((rows, start.obs_size)) * (rng.random((rows, start.obs_size)) < 0.005)).astype(np.float16)
        obs[:, 0] = rng.random(rows) > 0.5
        masks = rng.random((rows, start.n_actions)) < 0.1
        masks[:, :2] = True
        searched = np.arange(rows) % 3 != 0
        gains = np.where(searched, np.where(obs[:, 0] > 0.5, 0.2, 0.0), np.nan).astype(np.float32)
        targets = np.zeros(masks.shape, np.float16)
        targets[:, 0] = 1
        Positions(obs, masks, targets, searched, np.zeros(rows, np.float32), gains).save(
            shard_path(run / "replay", k))
    return run


@pytest.mark.slow  # three detectors over the full observation: 10 s
def test_searched_positions_and_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_folder(tmp_path)
    part = searched_positions(run, 1, 2, 0.1)
    assert len(part) == 400 and part.obs.shape[1] == load_policy(SHIPPED).obs_size  # the searched 2 rows of 3
    assert 0.3 < part.clear.mean() < 0.7 and set(part.kinds) <= {"card", "place", "bid", "commit", "decline",
                                                               "option", "faction", "assassinate"}
    assert list(np.unique(part.shards, return_counts=True)[1]) == [200, 200]
    assert len(part.upto(1)) == 200 and len(part.upto(2)) == 400  # the learning curve's prefixes
    assert not searched_positions(run, 1, 2, 0.3).clear.any()  # no gain reaches a margin of 0.3
    small = ["--hidden", "16", "--epochs", "20", "--batch-size", "32"]
    assert main([str(run), "--train", "1:3", "--test", "4:4", *small, "--sizes", "1,3"]) == 0
    printed = capsys.readouterr().out
    assert "trained on shards 1..3 (600 searched" in printed and "measured on shards 4..4" in printed
    assert "detector over the policy summary alone" in printed and "1..1 " in printed
    auc = float(next(line for line in printed.splitlines() if line.startswith("all ")).split()[4])
    assert auc > 0.9  # obs entry 0 tells the clear rows
    with pytest.raises(SystemExit, match="overlap"):
        main([str(run), "--train", "1:3", "--test", "3:4"])
    with pytest.raises(SystemExit):
        main([str(run), "--train", "3", "--test", "4:4"])
    assert "argument --train: expected FIRST:LAST (iterations), got '3'" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="at least 1"):
        main([str(run), "--train", "1:3", "--test", "4:4", "--batch-size", "0"])
    with pytest.raises(SystemExit, match=r"--sizes 5: expected 1\.\.3"):
        main([str(run), "--train", "1:3", "--test", "4:4", "--sizes", "5"])
    with pytest.raises(SystemExit, match="no clear labels to train on"):
        main([str(run), "--train", "1:3", "--test", "4:4", "--margin", "0.3"])
    with pytest.raises(SystemExit, match="the shard of iteration 7 is gone"):
        main([str(run), "--train", "1:3", "--test", "7:7"])
