"""training.zero.offline's fit, agreement and average (issue 44's offline experiments), on a small run folder made
here: the widened network plays exactly as its start, the agreement counts what it says, the average is the mean of
the weights, and the command line writes and reports what its docstring promises."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from training_runs import zero_run_folder

from agents.ppo import NumpyPolicy, load_policy
from agents.zero import PPO_MODELS
from training.zero.learner import PolicyValueNet
from training.zero.offline import (
    agreement,
    all_values,
    average,
    drift,
    favourites,
    heldout,
    label_report,
    labelled,
    main,
    searcher,
    snapshot,
    widen,
)
from training.zero.replay import Positions, shard_path
from tribune_env.engine.config import RuleSet

pytestmark = pytest.mark.train

SHIPPED = PPO_MODELS[RuleSet.BASE]


def positions(policy: NumpyPolicy, rows: int = 300, seed: int = 0) -> Positions:
    """Sparse random observations with random masks (at least two legal actions each); the labelled half has a
    target on the policy's own favourite, and every fifth labelled row on another legal action instead."""
    rng = np.random.default_rng(seed)
    obs = (rng.random((rows, policy.obs_size)) * (rng.random((rows, policy.obs_size)) < 0.06)).astype(np.float16)
    masks = rng.random((rows, policy.n_actions)) < 0.1
    masks[:, :2] = True
    part = Positions(obs, masks, np.zeros(masks.shape, np.float16), np.arange(rows) % 2 == 0,
                     np.zeros(rows, np.float32))
    chosen = favourites(policy, part)
    for i in np.flatnonzero(part.searched):
        label = chosen[i]
        if i % 10 == 0:  # every fifth labelled row
            label = next(a for a in np.flatnonzero(masks[i]) if a != chosen[i])
        part.targets[i, label] = 1.0
    return part


def test_widen_keeps_every_logit_and_value() -> None:
    start = load_policy(SHIPPED)
    wide = widen(start, [w + 64 for w in start.meta["net"]["pi"]])
    part = positions(start)
    obs = part.obs.astype(np.float32)
    assert wide.meta["net"]["pi"] == [w + 64 for w in start.meta["net"]["pi"]]
    np.testing.assert_array_equal(wide.logits(obs), start.logits(obs))
    np.testing.assert_array_equal(wide.value(obs), start.value(obs))
    model = PolicyValueNet.from_policy(wide)  # the learner takes it as it is
    assert model.pi[0].weight.shape[0] == wide.meta["net"]["pi"][0]


@pytest.mark.parametrize("widths", [[64, 64], [512], [512, 256, 128]])
def test_widen_refuses_narrower_or_other_depths(widths: list[int]) -> None:
    with pytest.raises(ValueError, match="widths must be"):
        widen(load_policy(SHIPPED), widths)


def test_agreement_counts_the_targets_choices() -> None:
    start = load_policy(SHIPPED)
    part = labelled(positions(start))
    numbers = agreement(start, part, favourites(start, part))
    assert numbers["overruled"] == 30  # rows 0, 10, ..., 290 of 300
    assert numbers["all"] == pytest.approx(120 / 150)
    assert numbers["overrules"] == 0.0


def run_folder(tmp_path: Path) -> Path:
    """A zero run's folder with what the offline commands read: config, snapshots 0..2 and shards 1..3."""
    start = load_policy(SHIPPED)
    run = zero_run_folder(tmp_path, [
        NumpyPolicy.from_arrays(start.meta, {n: np.asarray(v, np.float32) * (1 + 0.1 * k)
                                             for n, v in start.arrays().items()})
        for k in range(3)])
    for k in range(1, 4):
        positions(start, 200, seed=k).save(shard_path(run / "replay", k))
    return run


def test_heldout_scores_each_snapshot_on_the_next_shard(tmp_path: Path) -> None:
    """The value errors of ``heldout`` by hand: on the unsearched rows of the next shard (the result alone is their
    target), the snapshot's and the start's."""
    run = run_folder(tmp_path)
    rows = heldout(run)
    assert [r["snapshot"] for r in rows] == [0, 1, 2]
    assert rows[0]["value_results"] == rows[0]["start_results"]
    shard = Positions.read(shard_path(run / "replay", 3))
    results = ~np.isnan(shard.values) & ~shard.searched
    assert 0 < results.sum() < len(shard)
    for k, name in ((2, "value_results"), (0, "start_results")):
        error = all_values(snapshot(run, k), shard.obs[results]) - shard.values[results]
        assert rows[2][name] == pytest.approx(float(np.mean(error**2)))
    assert rows[2]["value_results"] != rows[2]["start_results"]


def test_average_is_the_mean_of_the_snapshots_weights(tmp_path: Path) -> None:
    run = run_folder(tmp_path)
    mean = average(run, 0, 2)
    start = load_policy(SHIPPED)
    for name, weights in mean.arrays().items():
        np.testing.assert_allclose(weights, np.asarray(start.arrays()[name], np.float32) * 1.1, rtol=1e-5, atol=1e-6)


@pytest.mark.slow  # a fit and three commands: 10 s
def test_the_commands_write_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_folder(tmp_path)
    out = tmp_path / "fit.npz"
    assert main(["fit", str(run), "--upto", "2", "--widen", "320,288", "--heldout-to", "3", "--games", "0",
                 "--out", str(out), "--set", "learner.epochs=2"]) == 0
    printed = capsys.readouterr().out
    assert "fitted positions (a sample), fit: agrees" in printed
    assert "unseen shards 3..3: 100 labelled positions" in printed
    assert "fitted positions: of 0 clear labels (gain >= 0.1) it chooses" in printed  # shards without gains: none clear
    fitted = load_policy(out)
    assert fitted.meta["net"]["pi"] == [320, 288] and fitted.meta["trained_by"] == "zero-offline-fit"
    assert main(["drift", str(run), "--shards", "3:3", "0", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "shards 3..3: 200 positions" in printed
    assert "0: of 0 clear labels (gain >= 0.1) it chooses the label at - (the start at -); of the other 200 " \
           "positions it chooses otherwise than the start at 0.0%" in printed
    assert main(["drift", str(run), "--shards", "3:3", "--by-kind", str(out)]) == 0
    kinds = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert kinds and sum(int(line.split("of the other ")[1].split()[0]) for line in kinds) == 200  # every row once
    assert main(["agreement", str(run), "--shards", "1:3", "0", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "shards 1..3: 300 labelled positions" in printed
    assert "0: agrees with the target's choice at 80.0%; where the start's differs (60): 0.0%" in printed
    averaged = tmp_path / "a.npz"
    assert main(["average", str(run), "--from", "1", "--to", "2", "--games", "0", "--out", str(averaged)]) == 0
    assert load_policy(averaged).meta["trained_by"] == "zero-offline-average"
    assert main(["fit", str(run), "--upto", "2", "--positions", "all", "--games", "0", "--out", str(out)]) == 0
    assert "of the other 400 positions it chooses otherwise than the start at" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="the shard of iteration 4 is gone"):
        main(["fit", str(run), "--upto", "9", "--games", "0", "--out", str(tmp_path / "x.npz")])
    with pytest.raises(SystemExit, match="--widen: widths must be 2 numbers"):
        main(["fit", str(run), "--upto", "2", "--widen", "128,128", "--games", "0", "--out", str(out)])
    with pytest.raises(SystemExit, match=r"unknown key.*learner\.nonsense"):
        main(["fit", str(run), "--upto", "2", "--games", "0", "--out", str(out), "--set", "learner.nonsense=1"])
    with pytest.raises(SystemExit, match=r"learner\.learning_rate"):
        main(["fit", str(run), "--upto", "2", "--games", "0", "--out", str(out), "--set", "learner.learning_rate=fast"])
    with pytest.raises(SystemExit, match=r"expected learner\.KEY=VALUE"):
        main(["fit", str(run), "--upto", "2", "--games", "0", "--out", str(out), "--set", "search.depth=3"])


def test_the_label_report_counts_clear_labels_and_those_that_keep_the_networks_choice(tmp_path: Path) -> None:
    """``labels``: per kind of decision, the labels, the clear ones (gain >= margin) and the clear ones whose target
    stays on the searching network's own choice; without a curve the searcher of shard k is snapshot k - 1."""
    run = run_folder(tmp_path)
    start = load_policy(SHIPPED)
    part = positions(start, 200, seed=1)  # the labelled rows: 0, 2, ...; rows 0, 10, ... on another action
    gains = np.zeros(200, np.float32)
    gains[::10] = 0.3  # the 20 labels on another action: clear, not kept
    gains[2:40:10] = 0.1  # 4 labels on the network's own choice with a gain: clear, kept
    gains[4] = 0.05  # under the margin
    gains[~part.searched] = np.nan
    Positions(part.obs, part.masks, part.targets, part.searched, part.values, gains).save(
        shard_path(run / "replay", 1))
    assert searcher(run, 1) == 0
    kinds = label_report(run, 1, 1, 0.1)
    assert sum(k.labels for k in kinds.values()) == 100
    assert sum(k.clear for k in kinds.values()) == 24 and sum(k.kept for k in kinds.values()) == 4
    assert sum(k.gain for k in kinds.values()) == pytest.approx(20 * 0.3 + 4 * 0.1 + 0.05)
    assert main(["labels", str(run), "--shards", "1:1"]) == 0


def test_drift_counts_learned_labels_and_moved_choices() -> None:
    """``drift``: the clear labels a network chooses (the start: none of those on another action) and the other
    rows where its choice left the start's."""
    start = load_policy(SHIPPED)
    part = positions(start, 200)
    gains = np.where(part.searched, 0.0, np.nan).astype(np.float32)
    gains[::10] = 0.3  # the labelled rows on another action than the start's
    part = Positions(part.obs, part.masks, part.targets, part.searched, part.values, gains)
    same = drift(start, start, part, 0.1)
    assert same == {"clear": 20, "learned": 0.0, "learned_before": 0.0, "moved": 0.0}
    flipped = {k: np.asarray(v, np.float32).copy() for k, v in start.arrays().items()}
    flipped["action.weight"] *= -1  # the start's least favoured action is now its favourite
    moved = drift(NumpyPolicy.from_arrays(start.meta, flipped), start, part, 0.1)
    assert moved["moved"] > 0.5 and moved["clear"] == 20
