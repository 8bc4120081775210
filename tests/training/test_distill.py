"""The distilled stand-in for ``heuristic`` (training.pool.distill): held-out split, agreement, the learning-rate
schedule and the exported network's metadata."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

pytestmark = [pytest.mark.train, pytest.mark.usefixtures("one_torch_thread")]

from agents.ppo import NumpyPolicy, space_of  # noqa: E402
from training.imitation import Demonstrations, collect  # noqa: E402
from training.pool.distill import agreement, fit, main, rate_factor, save_demonstrations, split  # noqa: E402
from training.pool.network import PolicyNet  # noqa: E402
from tribune_env.codec import Space, encoder_for  # noqa: E402
from tribune_env.engine.config import GameConfig  # noqa: E402


@pytest.fixture(scope="module")
def demos() -> Demonstrations:
    return collect("heuristic", GameConfig(players=4), games=3, seed=5, keep=1.0, reward="win_loss")


def test_split_holds_out_the_last_rows_and_shares_none(demos: Demonstrations) -> None:
    train, held = split(demos, 0.1)
    assert len(train) + len(held) == len(demos)
    assert held[0] == train[-1] + 1 and held[-1] == len(demos) - 1
    assert len(held) == int(len(demos) * 0.1)


def test_agreement_counts_the_masked_argmax_against_the_teachers_action(demos: Demonstrations) -> None:
    net = PolicyNet(demos.obs.shape[1], demos.masks.shape[1], 16, [8], "relu")
    rows = np.arange(len(demos))
    with torch.no_grad():  # all logits equal: the masked argmax is the first legal action
        net.action.weight.zero_()
        net.action.bias.zero_()
    first_legal = demos.masks.argmax(1)
    expected = float((first_legal == demos.actions).mean())
    assert agreement(net, demos, rows) == pytest.approx(expected)


def test_rate_factor_is_constant_or_falls_linearly_to_zero() -> None:
    assert [rate_factor(s, 4, False) for s in range(5)] == [1.0] * 5
    assert [rate_factor(s, 4, True) for s in range(6)] == [1.0, 0.75, 0.5, 0.25, 0.0, 0.0]


def test_fit_learns_the_teacher_on_its_training_rows(demos: Demonstrations) -> None:
    torch.manual_seed(0)  # the starting weights (fit seeds only its shuffling)
    net = PolicyNet(demos.obs.shape[1], demos.masks.shape[1], 64, [64], "relu")
    train, _ = split(demos, 0.05)
    before = agreement(net, demos, train)
    result = fit(demos, net, epochs=6, batch_size=64, learning_rate=3e-3, log=False, anneal=True)
    after = agreement(net, demos, train)
    assert after > 0.5 and after > before + 0.3  # about 0.16 -> 0.55 in 6 epochs on three games
    assert result.trained_on == len(train)


def test_main_exports_a_playable_network_with_how_it_was_fitted(demos: Demonstrations, tmp_path: Path) -> None:
    data, out = tmp_path / "data.npz", tmp_path / "copy.npz"
    save_demonstrations(demos, data)
    assert main(["--data", str(data), "--epochs", "1", "--first-width", "32", "--hidden", "16", "16",
                 "--learning-rate", "0.002", "--anneal", "--batch-size", "128", "--threads", "1",
                 "--out", str(out)]) == 0
    policy = NumpyPolicy.from_file(out)
    info = policy.meta["distilled"]
    assert info["network"] == {"first_width": 32, "hidden": [16, 16]}
    assert info["anneal"] is True and info["learning_rate"] == 0.002
    assert info["decisions"] == len(demos) and info["epochs"] == 1
    json.dumps(info)


def test_main_copies_the_expansion_heuristic_in_expansion_games(tmp_path: Path) -> None:
    out = tmp_path / "copy.npz"
    assert main(["--expansion", "--games", "1", "--workers", "1", "--epochs", "1", "--first-width", "16",
                 "--hidden", "8", "--threads", "1", "--out", str(out)]) == 0
    policy = NumpyPolicy.from_file(out)
    config = GameConfig(players=4, expansion=True)
    space = Space.for_rules(config.rules)
    assert space_of(policy) == space == Space.EXPANSION  # the expansion spaces: it plays expansion games
    assert policy.obs_size == encoder_for(config.components, config.round_limit, space).size
    assert policy.meta["distilled"]["rules"] == config.rules.value
