"""The zero learner: the torch network is exactly the NumpyPolicy's, and training on a fixed batch lowers the loss
to near its floor (the targets' entropy), for the policy and the value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from agents.ppo import FORMAT, NumpyPolicy, load_policy
from agents.zero import PPO_MODELS
from training.zero.config import LearnerConfig
from training.zero.learner import Learner, PolicyValueNet
from training.zero.replay import Positions
from tribune_env.engine.config import RuleSet

pytestmark = [pytest.mark.train, pytest.mark.usefixtures("one_torch_thread")]

OBS, ACTIONS = 12, 6


def tiny_policy(seed: int = 0) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    meta: dict[str, Any] = {
        "format": FORMAT,
        "signature": {"observation": {"size": OBS}, "actions": {"n": ACTIONS}},
        "net": {"pi": [16, 16], "vf": [16], "activation": "tanh"},
    }
    shapes = {"pi.0": (16, OBS), "pi.1": (16, 16), "action": (ACTIONS, 16), "vf.0": (16, OBS), "value": (1, 16)}
    arrays = {}
    for name, shape in shapes.items():
        arrays[f"{name}.weight"] = rng.normal(0, 0.3, shape).astype(np.float32)
        arrays[f"{name}.bias"] = rng.normal(0, 0.1, shape[0]).astype(np.float32)
    return NumpyPolicy.from_arrays(meta, arrays)


def fixed_batch(rows: int = 64, seed: int = 1) -> Positions:
    rng = np.random.default_rng(seed)
    masks = rng.random((rows, ACTIONS)) < 0.6
    masks[:, 0] = True
    targets = np.where(masks, rng.random((rows, ACTIONS)) ** 3, 0.0)
    targets /= targets.sum(axis=1, keepdims=True)
    searched = rng.random(rows) < 0.5
    targets[~searched] = 0.0
    values = rng.choice([1.0, -1.0 / 3], size=rows).astype(np.float32)
    return Positions(rng.normal(0, 1, (rows, OBS)).astype(np.float16), masks, targets.astype(np.float16), searched,
                     values)


def test_the_torch_network_is_the_numpy_policy() -> None:
    policy = tiny_policy()
    model = PolicyValueNet.from_policy(policy)
    obs = np.random.default_rng(2).normal(0, 1, (5, OBS)).astype(np.float32)
    with torch.no_grad():
        logits, value = model(torch.as_tensor(obs))
    np.testing.assert_allclose(logits.numpy(), policy.logits(obs), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(value.numpy(), policy.value(obs), rtol=1e-5, atol=1e-5)
    back = NumpyPolicy.from_arrays(policy.meta, model.arrays())
    for name, array in policy.arrays().items():
        np.testing.assert_array_equal(back.arrays()[name], array)


def test_the_shipped_network_loads_into_the_learner(tmp_path: Path) -> None:
    policy = load_policy(PPO_MODELS[RuleSet.BASE])
    learner = Learner(policy, LearnerConfig())
    path = learner.policy(policy.meta).save_npz(tmp_path / "net.npz", "float16")
    again = load_policy(path)
    obs = np.zeros((2, policy.obs_size), dtype=np.float32)
    np.testing.assert_allclose(again.logits(obs), policy.logits(obs), atol=2e-2)


def entropy(data: Positions) -> float:
    """The floor of the policy loss: the mean entropy of the searched targets."""
    t = data.targets[data.searched].astype(np.float64)
    return float(-(t * np.log(np.where(t > 0, t, 1.0))).sum(axis=1).mean())


def test_training_lowers_the_loss_on_a_fixed_batch() -> None:
    data = fixed_batch()
    learner = Learner(tiny_policy(), LearnerConfig(batch_size=64, learning_rate=1e-2))
    loss0, policy0, value0 = learner.evaluate(data)
    floor = entropy(data)
    assert policy0 > floor + 0.2  # a random network is far from the targets
    for _ in range(200):
        learner.train(data, seed=0)
    loss1, policy1, value1 = learner.evaluate(data)
    assert policy1 - floor < 0.1 * (policy0 - floor)  # KL(target || policy) down by 90%
    assert value1 < 0.2 * value0
    assert loss1 < loss0


def test_unsearched_rows_teach_the_value_only() -> None:
    data = fixed_batch()
    data.searched[:] = False
    learner = Learner(tiny_policy(), LearnerConfig(batch_size=64, learning_rate=1e-2))
    before = learner.model.arrays()
    stats = learner.train(data, seed=0)
    after = learner.model.arrays()
    assert stats.policy_loss == 0.0
    for name in before:  # the actor's tower and head get no gradient
        same = np.array_equal(before[name], after[name])
        assert same == (name.startswith(("pi.", "action."))), name


def test_positions_without_a_value_target_teach_the_policy_only() -> None:
    """``values`` NaN (``selfplay.value_positions``): the value loss is the squared error over the other rows alone,
    and rows with no value target and no search change nothing."""
    data = fixed_batch()
    learner = Learner(tiny_policy(), LearnerConfig(batch_size=64, learning_rate=1e-2))
    kept = np.arange(len(data)) % 4 == 0
    _, _, full = learner.evaluate(Positions(data.obs[kept], data.masks[kept], data.targets[kept], data.searched[kept],
                                        data.values[kept]))
    data.values[~kept] = np.nan
    _, _, partial = learner.evaluate(data)
    assert partial == pytest.approx(full, rel=1e-5)
    data.searched[:] = False
    data.values[:] = np.nan
    before = learner.model.arrays()
    stats = learner.train(data, seed=0)
    assert stats.value_loss == 0.0 and stats.policy_loss == 0.0
    for name, array in learner.model.arrays().items():
        assert np.array_equal(array, before[name]), name


@pytest.mark.parametrize("epochs", [0.5, 1.0, 2.5])
def test_an_iteration_samples_epochs_passes(epochs: float) -> None:
    data = fixed_batch(rows=40)
    learner = Learner(tiny_policy(), LearnerConfig(batch_size=16, epochs=epochs))
    stats = learner.train(data, seed=3)
    assert stats.samples == round(epochs * 40)
    assert stats.steps == -(-stats.samples // 16)


def test_training_is_reproducible_and_resumes(tmp_path: Path) -> None:
    data = fixed_batch()
    config = LearnerConfig(batch_size=16, learning_rate=1e-3)
    one = Learner(tiny_policy(), config)
    one.train(data, seed=5)
    one.save(tmp_path / "state.pt")
    one.train(data, seed=6)
    two = Learner(tiny_policy(), config)
    two.load(tmp_path / "state.pt")
    two.train(data, seed=6)
    for name, array in one.model.arrays().items():
        np.testing.assert_array_equal(two.model.arrays()[name], array)


def distance(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> float:
    return float(sum(np.abs(a[k] - b[k]).sum() for k in a if k.startswith(("pi.", "action."))))


def test_the_anchor_holds_the_policy_near_its_start() -> None:
    data = fixed_batch()
    start = tiny_policy().arrays()
    free = Learner(tiny_policy(), LearnerConfig(batch_size=64, learning_rate=1e-2, value_weight=0.0))
    held = Learner(tiny_policy(), LearnerConfig(batch_size=64, learning_rate=1e-2, value_weight=0.0,
                                                anchor_weight=5.0))
    for _ in range(100):
        free.train(data, seed=0)
        held.train(data, seed=0)
    assert distance(held.model.arrays(), start) < 0.7 * distance(free.model.arrays(), start)
    # the targets still pull: the anchored policy fits them better than the start does
    assert held.evaluate(data)[1] < Learner(tiny_policy(), LearnerConfig()).evaluate(data)[1]
    assert held.anchor is not None and free.anchor is None


def test_a_zero_value_weight_leaves_the_value_network_alone() -> None:
    learner = Learner(tiny_policy(), LearnerConfig(batch_size=64, learning_rate=1e-2, value_weight=0.0))
    before = learner.model.arrays()
    learner.train(fixed_batch(), seed=0)
    after = learner.model.arrays()
    for name in before:
        assert np.array_equal(before[name], after[name]) == name.startswith(("vf.", "value.")), name


def test_restart_returns_to_a_network_with_a_fresh_optimiser() -> None:
    """The gate's ``revert``: after training, :meth:`Learner.restart` holds exactly the given network's weights and
    an optimiser with no state."""
    start = tiny_policy(0)
    learner = Learner(start, LearnerConfig(batch_size=16, learning_rate=1e-2), "cpu")
    learner.train(fixed_batch(), seed=0)
    moved = learner.policy(start.meta).arrays()
    assert any(not np.array_equal(moved[k], v) for k, v in start.arrays().items())
    learner.restart(start)
    back = learner.policy(start.meta).arrays()
    for name, array in start.arrays().items():
        np.testing.assert_array_equal(back[name], array.astype(np.float32), err_msg=name)
    assert not learner.optimizer.state


def test_label_weights_follow_the_search_gain() -> None:
    """``learner.gain_scale``: 0 weighs every searched row 1; else ``clip(gain / gain_scale, 0, 1)``, an unknown gain
    (NaN: a shard from before gains were recorded) 1, and an unsearched row 0 either way."""
    from training.zero.learner import label_weights

    searched = torch.tensor([True, True, True, True, False])
    gains = torch.tensor([0.0, 0.05, 0.3, float("nan"), 0.2])
    assert label_weights(searched, gains, 0.0).tolist() == [1, 1, 1, 1, 0]
    np.testing.assert_allclose(label_weights(searched, gains, 0.1).numpy(), [0, 0.5, 1, 1, 0])
    assert label_weights(searched, None, 0.1).tolist() == [1, 1, 1, 1, 0]


def test_labels_without_gain_teach_nothing_under_gain_scale() -> None:
    """Rows whose search agreed with the network (gain 0) leave the policy as it is; the same rows with a gain
    move it."""
    data = fixed_batch()
    agreed = Positions(data.obs, data.masks, data.targets, data.searched, np.full(len(data), np.nan, np.float32),
                       np.zeros(len(data), np.float32))
    config = LearnerConfig(batch_size=64, learning_rate=0.01, epochs=1, value_weight=0.0, gain_scale=0.1)
    policy = tiny_policy()
    still = Learner(policy, config)
    still.train(agreed, 0)
    for name, array in policy.arrays().items():
        if name.startswith(("pi.", "action")):
            np.testing.assert_array_equal(still.model.arrays()[name], array)
    gained = Positions(data.obs, data.masks, data.targets, data.searched, agreed.values,
                       np.full(len(data), 0.2, np.float32))
    moved = Learner(policy, config)
    moved.train(gained, 0)
    assert not np.array_equal(moved.model.arrays()["action.weight"], policy.arrays()["action.weight"])


def test_a_shard_without_gains_reads_them_as_unknown(tmp_path: Path) -> None:
    """Shards written before gains were recorded load with NaN gains; a shard keeps the gains it was given; a gains
    column of another length is refused."""
    data = fixed_batch()
    old = tmp_path / "old.npz"
    np.savez_compressed(old, obs=data.obs, masks=data.masks, targets=data.targets, searched=data.searched,
                        values=data.values)
    assert np.isnan(Positions.read(old).gains).all() and len(Positions.read(old).gains) == len(data)
    gains = np.linspace(0, 1, len(data)).astype(np.float32)
    path = Positions(data.obs, data.masks, data.targets, data.searched, data.values, gains).save(tmp_path / "new.npz")
    np.testing.assert_array_equal(Positions.read(path).gains, gains)
    with pytest.raises(ValueError, match="gains: 3 rows"):
        Positions(data.obs, data.masks, data.targets, data.searched, data.values, gains[:3])
