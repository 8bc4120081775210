"""What the pool trainer's learner sees beside its observation (training.pool.sight, ``network.sight``): the
forecast reads nothing hidden and is the opponent model's choice for each other seat; the oracle reads the other
hands; a network with a sight starts as its start, trains, and is never handed to the agents."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

pytestmark = [pytest.mark.train, pytest.mark.usefixtures("one_torch_thread")]

from agents.ppo import NumpyPolicy, load_policy  # noqa: E402
from training.config import ConfigError, with_overrides  # noqa: E402
from training.pool.config import pool_config_from_dict  # noqa: E402
from training.pool.network import PolicyNet, load_numpy_weights  # noqa: E402
from training.pool.run import PoolTrainer  # noqa: E402
from training.pool.sight import Forecast, Hands, make_sight  # noqa: E402
from tribune_env.engine.config import GameConfig  # noqa: E402
from tribune_env.envs.pool import TribunePool  # noqa: E402

CONFIG = GameConfig(players=4)
MODEL = "training/pool/models/heuristic-4p.npz"
SHIPPED = "agents/models/ppo-4p.npz"


def stepped_pool(games: int = 8, steps: int = 40, seed: int = 4) -> tuple[TribunePool, np.ndarray, np.ndarray]:
    """A pool some random decisions into its games; the deciding seats and their masks."""
    pool = TribunePool(games, CONFIG)
    pool.reset(seed)
    _, mask, seat, _, _ = pool.step_random(steps)
    return pool, seat.astype(np.int64), mask


def test_the_forecast_reads_nothing_the_deciding_seat_cannot_see() -> None:
    """Games that differ only in what the deciding seat cannot see (redrawn from its view) give the same forecast
    for the same seed: every block a distribution over the deciding seat's legal actions."""
    pool, seats, masks = stepped_pool()
    cores = [pool.native_core(g) for g in range(pool.num_games)]
    redrawn = [c.resample(int(s), random.Random(99)) for c, s in zip(cores, seats.tolist(), strict=True)]
    assert any(a.fields() != b.fields() for a, b in zip(cores, redrawn, strict=True))  # hidden cards moved
    model = load_policy(MODEL, CONFIG)
    first = Forecast(model, pool.encoder, 4, seed=11).features(cores, seats, masks)
    second = Forecast(model, pool.encoder, 4, seed=11).features(redrawn, seats, masks)
    np.testing.assert_array_equal(first, second)
    blocks = first.reshape(pool.num_games, 3, model.n_actions)
    np.testing.assert_allclose(blocks.sum(axis=2), 1.0, rtol=1e-5)
    assert not blocks[np.broadcast_to(~masks.astype(bool)[:, None, :], blocks.shape)].any()


def test_each_block_is_the_models_choice_for_the_next_seats_in_turn_order() -> None:
    """Block k is the model's softmax, over the legal actions, on the observation of seat ``seat + 1 + k`` of the
    deal the seeded sampler draws."""
    pool, seats, masks = stepped_pool(games=3)
    model = load_policy(MODEL, CONFIG)
    cores = [pool.native_core(g) for g in range(3)]
    got = Forecast(model, pool.encoder, 4, seed=5).features(cores, seats, masks).reshape(3, 3, model.n_actions)
    rng = random.Random(5)
    for g, core in enumerate(cores):
        drawn = core.resample(int(seats[g]), rng)
        for k in range(3):
            obs = pool.encoder.native_encoder().encode(drawn, (int(seats[g]) + 1 + k) % 4)
            logits = np.where(masks[g].astype(bool), model.logits(obs[None])[0], -np.inf)
            want = np.exp(logits - logits.max())
            np.testing.assert_allclose(got[g, k], want / want.sum(), rtol=1e-5, atol=1e-7)


def test_the_oracle_reads_the_other_seats_hands() -> None:
    pool, seats, masks = stepped_pool()
    hands = Hands(pool.encoder, 4)
    cores = [pool.native_core(g) for g in range(pool.num_games)]
    got = hands.features(cores, seats, masks).reshape(pool.num_games, 3, -1)
    piece = next(p for p in pool.encoder.pieces if p.name == "hand")
    for g, core in enumerate(cores):
        for k in range(3):
            own = pool.encoder.native_encoder().encode(core, (int(seats[g]) + 1 + k) % 4)
            np.testing.assert_array_equal(got[g, k], own[piece.start : piece.start + piece.size])
    assert got.sum() > 0


def test_a_network_with_a_sight_starts_as_its_start() -> None:
    """``init_from`` gives the sight's inputs zero weight in the old units: the same logits and values whatever
    the features hold."""
    torch.manual_seed(2)
    small = PolicyNet(120, 9, 16, [8])
    with torch.no_grad():
        small.action.weight.normal_()
        small.value.weight.normal_()
    meta = {"format": "tribune-ppo/1", "net": {"activation": "relu", "pi": [16, 8], "vf": [16, 8]},
            "signature": {"observation": {"size": 120}, "actions": {"n": 9}}}
    seeing = PolicyNet(150, 9, 16, [8])
    load_numpy_weights(seeing, NumpyPolicy.from_arrays(meta, small.numpy_arrays()))
    rng = np.random.default_rng(0)
    obs = rng.random((32, 120)).astype(np.float32)
    extra = rng.random((32, 30)).astype(np.float32)
    with torch.no_grad():
        want_logits, want_values = small(torch.from_numpy(obs))
        got_logits, got_values = seeing(torch.from_numpy(np.concatenate([obs, extra], axis=1)))
    np.testing.assert_allclose(got_logits.numpy(), want_logits.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_values.numpy(), want_values.numpy(), rtol=1e-5, atol=1e-5)


TINY: dict[str, Any] = {
    "algorithm": "ppo-pool", "name": "tiny-sight", "seed": 3,
    "game": {"players": 4},
    "opponents": {"learner_seats": 1, "mix": {SHIPPED: 0.5, "self": 0.5}, "snapshot_every": 200,
                  "snapshot_pool": 2, "distilled": MODEL, "table_games": 2},
    "network": {"first_width": 16, "hidden": [8], "sight": "forecast"},
    "ppo": {"games": 8, "steps": 8, "epochs": 1, "minibatch": 16, "torch_threads": 1, "device": "cpu"},
    "eval": {"every_minutes": 0, "games": 4, "opponents": []},
    "run": {"decisions": 256, "max_minutes": None, "progress_bar": False},
}


@pytest.mark.parametrize("sight", ["forecast", "hands"])
def test_a_run_with_a_sight_trains_on_what_it_sees_and_writes_no_npz(tmp_path: Path, sight: str) -> None:
    config = pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path), "network.sight": sight}, "t"), "t")
    trainer = PoolTrainer(config)
    out = trainer.run()
    assert out.name == "latest.pt" and not (tmp_path / "tiny-sight" / "final.npz").exists()
    extra = make_sight(sight, config.game, trainer.pool.encoder, MODEL, 0)
    assert extra is not None
    assert trainer.net.obs_size == trainer.pool.encoder.size + extra.size
    collector = trainer._collector()
    collector.collect(6)
    rows = collector.store.obs[collector.store.stored()]
    assert len(rows) and rows.shape[1] == trainer.net.obs_size and rows[:, trainer.pool.encoder.size:].any()


def test_a_sight_is_named_and_refuses_the_agents_evaluations(tmp_path: Path) -> None:
    def load(**over: Any) -> Any:
        return pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path), **over}, "t"), "t")

    with pytest.raises(ConfigError, match=r"network\.sight: expected one of none, forecast, hands"):
        load(**{"network.sight": "x-ray"})
    with pytest.raises(ConfigError, match=r"eval\.opponents: must be \[\] with network\.sight forecast"):
        load(**{"eval.opponents": ["heuristic"]})
    load(**{"network.sight": "none", "eval.opponents": ["heuristic"]})
    assert make_sight("none", CONFIG, TribunePool(1, CONFIG).encoder, MODEL, 0) is None


def test_a_run_with_a_forecast_is_reproducible(tmp_path: Path) -> None:
    """The forecast's draws are seeded by the run's seed: the same config trains the same network."""
    weights = []
    for name in ("a", "b"):
        config = pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path / name)}, "t"), "t")
        trainer = PoolTrainer(config)
        trainer.run()
        weights.append(trainer.net.first_weight.detach().clone())
    assert torch.equal(weights[0], weights[1])


def test_the_sight_scale_multiplies_the_features_and_is_checked(tmp_path: Path) -> None:
    pool, seats, masks = stepped_pool(games=3)
    cores = [pool.native_core(g) for g in range(3)]
    plain = make_sight("forecast", CONFIG, pool.encoder, MODEL, 7)
    scaled = make_sight("forecast", CONFIG, pool.encoder, MODEL, 7, scale=10.0)
    assert plain is not None and scaled is not None and scaled.size == plain.size
    np.testing.assert_allclose(scaled.features(cores, seats, masks), 10 * plain.features(cores, seats, masks),
                               rtol=1e-6)
    with pytest.raises(ConfigError, match=r"network\.sight_scale: must be > 0"):
        pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path), "network.sight_scale": 0}, "t"), "t")


def test_a_missing_forecast_model_is_named_before_training(tmp_path: Path) -> None:
    from training.pool.run import PoolTrainError

    config = pool_config_from_dict(with_overrides(TINY, {"output": str(tmp_path),
                                                         "network.forecast_model": "no-such.npz"}, "t"), "t")
    with pytest.raises(PoolTrainError, match=r"network\.forecast_model \(no-such\.npz\): .*does not exist"):
        PoolTrainer(config).run()
    assert not (tmp_path / "tiny-sight" / "checkpoints").exists()
