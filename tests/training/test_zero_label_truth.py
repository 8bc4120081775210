"""training.zero.label_truth: the true gain of a clear label, played out from the true state with common random
numbers (issue 44's check of whether the search's labels hold at the real table)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from paths import ROOT

from agents.ppo import NumpyPolicy, load_policy
from agents.zero import Network, ZeroSettings, shipped_network
from training.zero.label_truth import (
    Label,
    TruthJob,
    find_and_compare,
    find_and_measure,
    main,
    measure,
    summary,
    true_gain,
)
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game

pytestmark = pytest.mark.train

CONFIG = GameConfig(players=4)


def _position() -> tuple[Game, Network, list[int]]:
    """A position of seat 0 late in a game (short play-outs) with at least two actions the network's codec
    expresses."""
    net = Network(load_policy(shipped_network(CONFIG.rules)), CONFIG)
    game = Game.new(CONFIG, seed=5)
    rng = random.Random(1)
    for _ in range(400):
        game.apply(rng.choice(game.legal_actions()))
    while True:
        legal = game.legal_actions()
        if game.current_seat == 0 and len(legal) > 2:
            indices = np.flatnonzero(net.codec.mask_game(game, 0))
            if len(indices) > 1:
                return game, net, [int(i) for i in indices]
        game.apply(rng.choice(legal))


def test_an_action_against_itself_gains_exactly_nothing_and_the_game_is_left_alone() -> None:
    """Common random numbers: the same action after the same chance and opponents gives the same result, so its
    true gain over itself is 0 in every rollout; the position itself is not changed."""
    game, net, indices = _position()
    before = game.to_json()
    assert true_gain(game, 0, net, indices[0], indices[0], 2, seed=3) == (0.0, 0.0)
    mean, spread = true_gain(game, 0, net, indices[0], indices[1], 2, seed=3)
    assert -4 / 3 <= mean <= 4 / 3 and spread >= 0  # win_loss differences of a 4-player game
    assert true_gain(game, 0, net, indices[0], indices[1], 2, seed=3) == (mean, spread)  # seeded
    assert game.to_json() == before


def test_clear_labels_are_found_and_measured() -> None:
    job = TruthJob(str(shipped_network(CONFIG.rules)), str(ROOT / "training/pool/models/heuristic-4p.npz"), CONFIG,
                   ZeroSettings(simulations=16, candidates=4, depth=8, threshold=0.95, explore=False), 0.0, 0, 2, 2, 7)
    labels = find_and_measure(job)
    assert len(labels) == 2 and all(label.claimed >= 0 and np.isfinite(label.true) for label in labels)
    lines = summary(labels)
    assert lines[-1].startswith("all") and "     2" in lines[-1]


def test_the_summary_averages_per_kind() -> None:
    labels = [Label("place", 0.2, 0.1, 0.5), Label("place", 0.1, -0.1, 0.5), Label("bid", 0.3, 0.3, 0.5)]
    lines = summary(labels)
    assert lines[1].split()[:3] == ["place", "2", "0.150"] and lines[1].split()[3] == "0.000"
    assert lines[-1].split()[:4] == ["all", "3", "0.200", "0.100"] and lines[-1].endswith("66.7%  33.3%")


def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--rollouts", "1"])
    assert "--rollouts at least 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--others", "no/such.npz"])
    assert "no such network: no/such.npz" in capsys.readouterr().err
    base_model = str(ROOT / "training/pool/models/heuristic-4p.npz")
    with pytest.raises(SystemExit):
        main(["--expansion", "--others", base_model])  # a model of the base spaces cannot play expansion games
    assert "cannot play an expansion game" in capsys.readouterr().err


def test_expansion_labels_are_found_with_the_expansion_network() -> None:
    from tribune_env.engine.config import RuleSet

    job = TruthJob(str(shipped_network(RuleSet.EXPANSION)), None, GameConfig(players=4, expansion=True),
                   ZeroSettings(simulations=16, candidates=4, depth=8, threshold=0.95, explore=False), 0.0, 0, 1, 2, 3)
    labels = find_and_measure(job)
    assert len(labels) == 1 and np.isfinite(labels[0].true)


def _flipped(tmp_path: Path) -> str:
    """The shipped network with its action head negated: its favourite is the shipped one's least favoured."""
    start = load_policy(shipped_network(CONFIG.rules))
    arrays = {k: np.asarray(v, np.float32).copy() for k, v in start.arrays().items()}
    arrays["action.weight"] *= -1
    return str(NumpyPolicy.from_arrays(start.meta, arrays).save_npz(tmp_path / "flipped.npz"))


def test_another_networks_changed_choices_are_found_and_measured(tmp_path: Path) -> None:
    """``--versus``: the decisions where another network chooses otherwise are played out, seeded; a network
    against itself differs nowhere, and the search gives up after its cap of games with none."""
    settings = ZeroSettings(simulations=16, candidates=4, depth=8, threshold=0.95, explore=False)
    job = TruthJob(str(shipped_network(CONFIG.rules)), None, CONFIG, settings, 0.0, 0, 3, 2, 7, _flipped(tmp_path))
    labels = measure(job)
    assert len(labels) == 3 and all(np.isnan(label.claimed) and np.isfinite(label.true) for label in labels)
    assert [(x.kind, x.true, x.spread) for x in measure(job)] == [(x.kind, x.true, x.spread) for x in labels]
    assert summary(labels)[-1].split()[:3] == ["all", "3", "-"]
    itself = TruthJob(job.network, None, CONFIG, settings, 0.0, 0, 1, 2, 7, job.network)
    assert find_and_compare(itself) == []


def test_versus_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--versus", _flipped(tmp_path), "--positions", "2", "--rollouts", "2", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert "2 decisions where" in printed and "chooses otherwise than" in printed
    with pytest.raises(SystemExit):
        main(["--versus", "no/such.npz"])
    assert "no such network: no/such.npz" in capsys.readouterr().err
