"""What the zero trainer learns from is what it should be (issue 44's suspected bugs, each ruled out here): the value
target of a position is the final result of the seat that decided there, with its sign; the replay window keeps each
observation with its own mask, policy target and value through shards, window trims and minibatches; the float16
storage of observations and networks does not change what the network plays; illegal actions get no target and no
gradient."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from agents.ppo import NumpyPolicy, load_policy
from agents.specs import make_agent
from agents.zero import PPO_MODELS, Network, SearchResult, ZeroSettings
from training.zero import selfplay
from training.zero.config import LearnerConfig
from training.zero.learner import Learner, PolicyValueNet, batch_loss
from training.zero.replay import Positions, ReplayBuffer, shard_path
from training.zero.selfplay import GameData, SelfPlayJob, job_seed, mixed_values, play_game, root_value, scaled_target
from tribune_env.codec.observation import ObservationEncoder
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet
from tribune_env.envs.rewards import win_loss

pytestmark = pytest.mark.train

SHIPPED = PPO_MODELS[RuleSet.BASE]


@pytest.mark.slow
def test_value_targets_are_the_result_of_the_seat_that_decided(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every recorded position's value is ``win_loss`` of the seat to act there (winners positive, losers negative),
    over network seats at two or more seats of one game (``heuristic`` plays the others)."""
    deciding: list[int] = []
    encoded: list[int] = []
    finals: list[Game] = []
    encode, add, result = ObservationEncoder.encode_game, selfplay._Recorder.add, win_loss

    def spy_encode(self: ObservationEncoder, game: Game, seat: int, out: Any = None) -> Any:
        encoded.append(game.current_seat)
        return encode(self, game, seat, out)

    def spy_add(self: Any, obs: Any, mask: Any, target: Any, seat: int) -> None:
        deciding.append(encoded[-1])  # the seat to act when the recorded observation was encoded
        add(self, obs, mask, target, seat)

    def spy_result(game: Game) -> list[float]:
        finals.append(game)
        return result(game)

    monkeypatch.setattr(ObservationEncoder, "encode_game", spy_encode)
    monkeypatch.setattr(selfplay._Recorder, "add", spy_add)
    monkeypatch.setattr(selfplay, "win_loss", spy_result)
    settings = ZeroSettings(simulations=4, candidates=2, depth=4, explore=True)
    job = SelfPlayJob(GameConfig(), str(SHIPPED), settings, 0.0, "greedy", (("heuristic", 0.4),), job_seed(3, 1, 2), 2)
    data = play_game(job)
    outcome = win_loss(finals[-1])
    assert len(deciding) == len(data) > 20 and len(set(deciding)) >= 2
    expected = np.array([outcome[s] for s in deciding], dtype=np.float32)
    np.testing.assert_array_equal(data.values, expected)
    winners = set(finals[-1].winners)
    assert all((v > 0) == (s in winners) for v, s in zip(data.values, deciding, strict=True))


def labelled_game(index: int, rows: int, obs_size: int = 8, actions: int = 5) -> GameData:
    """A fake game whose every row carries its id (``index * 100 + row``) in each field, to follow rows around."""
    ids = index * 100 + np.arange(rows)
    obs = np.zeros((rows, obs_size), np.float16)
    obs[:, 0] = ids  # exact in float16 below 2,048
    masks = np.zeros((rows, actions), bool)
    masks[np.arange(rows), ids % actions] = True
    masks[:, (ids + 1) % actions] = True
    targets = np.zeros((rows, actions), np.float16)
    targets[np.arange(rows), ids % actions] = 1.0
    searched = ids % 3 != 0
    targets[~searched] = 0.0
    return GameData(index, obs, masks, targets, searched, ids.astype(np.float32))


def assert_paired(obs: np.ndarray, masks: np.ndarray, targets: np.ndarray, searched: np.ndarray,
                  values: np.ndarray, actions: int = 5) -> None:
    ids = np.asarray(obs)[:, 0].astype(np.int64)
    np.testing.assert_array_equal(np.asarray(values), ids)
    np.testing.assert_array_equal(np.asarray(searched), ids % 3 != 0)
    rows = np.arange(len(ids))
    assert np.asarray(masks)[rows, ids % actions].all() and np.asarray(masks)[rows, (ids + 1) % actions].all()
    assert (np.asarray(targets)[rows[searched], (ids % actions)[searched]] == 1.0).all()
    assert (np.asarray(targets)[~np.asarray(searched)] == 0).all()


def test_the_replay_keeps_observations_with_their_labels(tmp_path: Path) -> None:
    """Rows stay together through games joined into an iteration, shards written and read, the window trimmed and
    rebuilt on resume, and the learner's shuffled minibatches."""
    buffer = ReplayBuffer(window=150, obs_size=8, actions=5)
    for iteration in range(1, 5):
        games = [labelled_game(iteration * 4 + g, 20 + 7 * g) for g in range(3)]
        positions = Positions.of_games(games, 8, 5)
        positions.save(shard_path(tmp_path, iteration))
        buffer.add(iteration, positions)
    assert len(buffer) == 150
    data = buffer.data
    assert_paired(data.obs, data.masks, data.targets, data.searched, data.values)
    rebuilt = ReplayBuffer.load(tmp_path, 4, 150, 8, 5)
    for name in ("obs", "masks", "targets", "searched", "values"):
        np.testing.assert_array_equal(getattr(rebuilt.data, name), getattr(buffer.data, name))
    policy = NumpyPolicy.from_arrays(
        {"format": "tribune-ppo/1", "signature": {"observation": {"size": 8}, "actions": {"n": 5}},
         "net": {"pi": [4], "vf": [4], "activation": "tanh"}},
        {f"{n}.{k}": np.zeros(s if k == "weight" else s[:1], np.float32)
         for n, s in (("pi.0", (4, 8)), ("action", (5, 4)), ("vf.0", (4, 8)), ("value", (1, 4)))
         for k in ("weight", "bias")})
    learner = Learner(policy, LearnerConfig(batch_size=32), "cpu")
    rows = np.sort(np.random.default_rng(0).permutation(len(buffer))[:32])
    batch = learner._tensors(buffer.data, rows)
    assert_paired(batch["obs"].numpy(), batch["masks"].numpy(), batch["targets"].numpy(), batch["searched"].numpy(),
                  batch["values"].numpy())


def heuristic_positions(games: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Observations (float32) and masks of the seats to act in a few ``heuristic`` games, decisions with a choice."""
    net = Network(load_policy(SHIPPED), GameConfig())
    obs, masks = [], []
    for seed in range(games):
        game = Game.new(GameConfig(), seed=seed)
        agents = [make_agent("heuristic", s) for s in range(4)]
        for seat, agent in enumerate(agents):
            agent.reset(seat, game.config, seat)
        while not game.is_over:
            seat = game.current_seat
            mask = net.codec.mask_game(game, seat).astype(bool)
            if mask.sum() > 1:
                obs.append(net.encoder.encode_game(game, seat).astype(np.float32))
                masks.append(mask)
            game.apply(agents[seat].act(game.view(seat), game.legal_actions(), InfoSet(game, seat)))
    return np.array(obs), np.array(masks)


def masked_argmax(policy: NumpyPolicy, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return np.asarray(np.where(masks, policy.logits(obs), -np.inf).argmax(axis=1))


@pytest.mark.slow
def test_float16_observations_and_networks_play_as_float32(tmp_path: Path) -> None:
    """The replay stores observations in float16 and the trainer exports float16 weights: on real positions the
    network's moves are those of float32 and its values within 0.005."""
    obs, masks = heuristic_positions()
    policy = load_policy(SHIPPED)
    rounded = obs.astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(masked_argmax(policy, rounded, masks), masked_argmax(policy, obs, masks))
    np.testing.assert_allclose(policy.value(rounded), policy.value(obs), atol=5e-3)
    rng = np.random.default_rng(0)  # a trained network's weights are float32, not float16 numbers any more
    arrays = {k: v + rng.normal(0, 0.01, v.shape).astype(np.float32) for k, v in policy.arrays().items()}
    full = NumpyPolicy.from_arrays(policy.meta, arrays)
    half = load_policy(full.save_npz(tmp_path / "half.npz", "float16"))
    agree = (masked_argmax(half, obs, masks) == masked_argmax(full, obs, masks)).mean()
    assert agree >= 0.995
    np.testing.assert_allclose(half.value(obs), full.value(obs), atol=5e-3)


@pytest.mark.slow
def test_illegal_actions_get_no_target_and_no_gradient() -> None:
    """A searched game's targets put no mass off the recorded mask, and the loss gives the illegal actions' logits
    no gradient (the masked softmax), whatever the network thinks of them."""
    settings = ZeroSettings(simulations=4, candidates=2, depth=4, explore=True)
    job = SelfPlayJob(GameConfig(), str(SHIPPED), settings, 1.0, "greedy", (), job_seed(5, 1, 0), 0)
    data = play_game(job)
    assert data.searched.mean() > 0.9
    assert (data.targets[~data.masks] == 0).all()
    np.testing.assert_allclose(data.targets[data.searched].astype(np.float64).sum(axis=1), 1.0, atol=2e-3)
    model = PolicyValueNet.from_policy(load_policy(SHIPPED))
    batch = {"obs": torch.as_tensor(data.obs[:64].astype(np.float32)), "masks": torch.as_tensor(data.masks[:64]),
             "targets": torch.as_tensor(data.targets[:64].astype(np.float32)),
             "searched": torch.as_tensor(data.searched[:64]), "values": torch.as_tensor(data.values[:64])}
    logits = model.logits(batch["obs"]).detach().requires_grad_(True)
    original = model.logits
    model.logits = lambda obs: logits  # type: ignore[method-assign]
    loss, policy_loss, _ = batch_loss(model, batch, value_weight=0.0)
    model.logits = original  # type: ignore[method-assign]
    assert torch.isfinite(loss) and float(policy_loss.detach()) < 5.0
    torch.autograd.backward(loss)
    assert logits.grad is not None
    assert float(logits.grad[~batch["masks"]].abs().max()) == 0.0
    assert float(logits.grad[batch["masks"]].abs().max()) > 0.0


@pytest.mark.slow
def test_damped_targets_scale_the_search_gain() -> None:
    """training.zero.offline's ``alpha``: 0 gives the prior, 1 the recorded target."""
    from training.zero.offline import damped_targets, masked_log_softmax

    policy = load_policy(SHIPPED)
    obs, masks = heuristic_positions(1)
    obs, masks = obs[:40], masks[:40]
    prior = np.exp(masked_log_softmax(policy.logits(obs), masks))
    gain = np.where(masks, np.random.default_rng(1).normal(0, 2, masks.shape), 0.0)
    target = np.exp(masked_log_softmax(policy.logits(obs) + gain, masks))
    part = Positions(obs.astype(np.float16), masks, np.where(masks, target, 0).astype(np.float16),
                     np.ones(len(obs), bool), np.zeros(len(obs), np.float32))
    same = dataclasses.replace(part, obs=obs.astype(np.float16))
    np.testing.assert_allclose(damped_targets(same, policy, 0.0).targets.astype(np.float64),
                               np.where(masks, prior, 0), atol=2e-3)
    np.testing.assert_allclose(damped_targets(same, policy, 0.999).targets.astype(np.float64),
                               part.targets.astype(np.float64), atol=5e-3)


def search_result() -> SearchResult:
    logits = np.array([2.0, 1.0, 0.5, -1.0, 0.0], np.float32)
    mask = np.array([True, True, True, False, True])
    return SearchResult(seat=1, index=1, logits=logits, mask=mask, candidates=[0, 1], q=[0.1, 0.6], visits=[4, 12],
                        values=[], searched=True, simulations=16)


def test_sigma_scale_moves_the_improved_policy_toward_the_prior() -> None:
    """``selfplay.sigma_scale``: 1 is the search's target, 0 the prior; in between the target stays masked and the
    search's favourite gains less."""
    result = search_result()
    np.testing.assert_allclose(scaled_target(result, 1.0), result.target(), atol=1e-6)
    np.testing.assert_allclose(scaled_target(result, 0.0), result.prior, atol=1e-6)
    half = scaled_target(result, 0.5)
    assert half[3] == 0.0 and abs(half.sum() - 1.0) < 1e-5
    assert result.prior[1] < half[1] < result.target()[1]


def test_root_value_mixes_the_search_value_into_searched_positions_only() -> None:
    result = search_result()
    root = root_value(result)
    assert root == pytest.approx((4 * 0.1 + 12 * 0.6) / 16)
    values = mixed_values([1.0, -1 / 3], [root, float("nan")], 0.25)
    np.testing.assert_allclose(values, [0.75 + 0.25 * root, -1 / 3], rtol=1e-6)
    np.testing.assert_allclose(mixed_values([1.0], [root], 0.0), [1.0])
