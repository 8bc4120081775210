"""training/zero/label_noise.py: the unsure positions it searches and what it counts."""

from __future__ import annotations

import pytest

from agents.ppo import load_policy
from agents.zero import PPO_MODELS, Network, SearchResult
from training.zero.label_noise import main, measure, unsure_positions
from tribune_env.engine.config import GameConfig


def test_positions_are_the_network_seats_unsure_decisions_and_counts_add_up() -> None:
    config = GameConfig(players=4)
    net = Network(load_policy(PPO_MODELS[config.rules]), config)
    games = unsure_positions(config, net, 3, 0.95, 1)
    assert len(games) == 3
    for game in games:
        seat = game.current_seat
        mask = net.codec.mask_game(game, seat).astype(bool)
        prior = SearchResult(seat, -1, net.policy.logits(net.encoder.encode_game(game, seat)), mask).prior
        assert mask.sum() > 1 and prior.max() < 0.95
    (noise,) = measure(games, net, [8], 4, 4, 0.0, 1)
    assert noise.positions == 3 and noise.searches == 6
    assert 0 <= noise.both <= noise.agree <= 3 and 2 * noise.both <= noise.overrule <= 6
    again, top = measure(games, net, [8, 8], 4, 4, 0.0, 1)  # the same seeds at the same budget: the same searches
    assert (again.agree, again.overrule, again.both) == (noise.agree, noise.overrule, noise.both)
    assert again.confirmed == top.confirmed == again.overrule  # each clear label confirmed by its own twin


def test_the_command_prints_a_line_per_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--positions", "1", "--budgets", "4,8", "--depth", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("1 unsure positions") and len(out) == 3
    assert out[1].split()[0] == "4" and out[2].split()[0] == "8"
