"""training.zero.residual (issue 44): the layout comes from the codec and the encoder, a head starts at the start's
choices, the action-conditioned head learns a rule about a space's own occupants on unseen positions and the
features head one about a space's features, ``space_features`` gathers each space's region and faction as the game
has them, and the command reads a run folder, reports and names bad arguments."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
import torch
from training_runs import zero_run_folder

from agents.ppo import load_policy
from agents.zero import PPO_MODELS
from training.zero.replay import Positions, shard_path
from training.zero.residual import (
    Layout,
    Placements,
    learned_and_moved,
    main,
    make_head,
    placements,
    space_features,
    train_head,
)
from tribune_env import Game, default_components
from tribune_env.codec import encoder_for
from tribune_env.engine.config import RuleSet

pytestmark = pytest.mark.train

SHIPPED = PPO_MODELS[RuleSet.BASE]


def planted(rows: int, seed: int, spaces: int = 6, seats: int = 3, rule: str = "occupants") -> Placements:
    """Positions whose start is indifferent among the legal spaces, and whose clear label (every third row) is the
    legal space whose occupant entry 0 (``rule="occupants"``) or feature 2 (``rule="features"``) is set: a rule
    about each space's own entries."""
    rng = np.random.default_rng(seed)
    masks = rng.random((rows, spaces)) < 0.6
    masks[:, :2] = True
    occupants = np.zeros((rows, spaces, seats), np.float32)
    features = np.zeros((rows, spaces, 4), np.float32)
    target = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    if rule == "occupants":
        occupants[np.arange(rows), target, 0] = 1.0
    else:
        occupants[:] = rng.random(occupants.shape) < 0.3  # entries with no say in the label
        features[np.arange(rows), target, 2] = 1.0
    clear = np.arange(rows) % 3 == 0
    obs = rng.random((rows, 10)).astype(np.float32)
    return Placements(torch.as_tensor(obs), torch.as_tensor(obs[:, :4].copy()),
                      torch.as_tensor(rng.normal(0, 0.01, (rows, spaces)).astype(np.float32)),
                      torch.as_tensor(masks), torch.as_tensor(occupants), torch.as_tensor(features),
                      torch.as_tensor(clear), torch.as_tensor(np.where(clear, target, 0)))


@pytest.mark.parametrize("kind", ["generic", "action", "features"])
def test_a_head_starts_at_the_starts_choices(kind: str) -> None:
    data = planted(60, 1)
    assert learned_and_moved(make_head(kind, data), data)[1] == 0.0  # its residual is zero before training


def test_the_action_head_learns_a_rule_about_each_spaces_own_features() -> None:
    """The label is the space whose own occupant entry is set: the shared action head learns it and carries it to
    new positions; both heads are seeded."""
    train, test = planted(1200, 1), planted(600, 2)
    head = train_head(make_head("action", train, seed=3), train, anchor=0.0, epochs=15, seed=3)
    learned, _ = learned_and_moved(head, test)
    assert learned > 0.9
    again = train_head(make_head("action", train, seed=3), train, anchor=0.0, epochs=15, seed=3)
    assert learned_and_moved(again, test) == learned_and_moved(head, test)
    generic = train_head(make_head("generic", train, seed=3), train, anchor=0.0, epochs=15, seed=3)
    assert learned_and_moved(generic, test)[0] < learned  # the observation does not hold the rule


def test_the_features_head_learns_a_rule_about_each_spaces_features() -> None:
    """The label is the space whose feature 2 is set: only the head that reads the features learns it."""
    train, test = planted(1200, 1, rule="features"), planted(600, 2, rule="features")
    rich = train_head(make_head("features", train, seed=3), train, anchor=0.0, epochs=15, seed=3)
    plain = train_head(make_head("action", train, seed=3), train, anchor=0.0, epochs=15, seed=3)
    assert learned_and_moved(rich, test)[0] > 0.9
    assert learned_and_moved(plain, test)[0] < 0.6


def crowded_game(seed: int, followers: int) -> Game:
    """A 4-player game played at random until ``followers`` followers or more stand on the board."""
    game = Game.new(players=4, seed=seed)
    rng = random.Random(seed)
    while sum(o >= 0 for o in game.position().spaces) < followers:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("seed", "followers"), [(1, 4), (2, 10), (3, 16)])
def test_space_features_gather_each_spaces_region_and_faction(seed: int, followers: int) -> None:
    """``obs @ space_features`` against the game itself: the followers of each relative seat on the space's region
    (or faction), and, read from the observation's own pieces, the region's cards and the faction's holdings."""
    game = crowded_game(seed, followers)
    encoder = encoder_for(default_components())
    position = game.position()
    seat = game.pending.seat if game.pending is not None else 0
    obs = encoder.encode_game(game, seat)
    features = (obs @ space_features(encoder).reshape(encoder.size, -1)).reshape(len(encoder.tables.spaces), -1)
    parts = encoder.split(obs)
    seats, cards = encoder.max_players, encoder.tables.num_card_types
    spaces = encoder.tables.spaces
    for s, spec in enumerate(spaces):
        group = [o.id for o in spaces if (o.kind, o.region, o.faction) == (spec.kind, spec.region, spec.faction)]
        for k in range(4):
            followers = sum(position.spaces[o] == (seat + k) % 4 for o in group)
            assert features[s, k] == pytest.approx(followers)
        slots = [i for i, (region, _) in enumerate(encoder.fields) if region == spec.region]
        board = parts["board"].reshape(-1, cards)
        assert features[s, seats:seats + cards] == pytest.approx(board[slots].sum(axis=0))
        assert features[s, seats + cards] == pytest.approx(parts["board_hidden"][slots].sum())
        holdings = features[s, seats + cards + 1:]
        if spec.faction is None:
            assert not holdings.any()
            continue
        for k in range(seats):
            assert holdings[k] == parts[f"players[{k}].controls"][spec.faction]
            assert holdings[seats + k] == parts[f"players[{k}].markers"][spec.faction]
        assert holdings[-2:].tolist() == [parts["first_laurel"][spec.faction], parts["chariot"][spec.faction]]


def run_folder(tmp_path: Path) -> Path:
    """A zero run's folder: config, snapshots 0..1 (the shipped network) and shards 1..2 whose rows allow placements
    only; every fourth has a clear label on the second placement."""
    start = load_policy(SHIPPED)
    run = zero_run_folder(tmp_path, [start] * 2)
    layout = Layout.of(start, run)
    for k in (1, 2):
        rng = np.random.default_rng(k)
        rows = 200
        obs = (rng.random((rows, start.obs_size)) * (rng.random((rows, start.obs_size)) < 0.02)).astype(np.float16)
        masks = np.zeros((rows, start.n_actions), bool)
        masks[:, layout.place:layout.place + layout.spaces] = rng.random((rows, layout.spaces)) < 0.3
        masks[:, layout.place:layout.place + 2] = True
        targets = np.zeros(masks.shape, np.float16)
        targets[np.arange(rows), layout.place + 1] = 1
        searched = np.ones(rows, bool)
        gains = np.where(np.arange(rows) % 4 == 0, 0.2, 0.0).astype(np.float32)
        Positions(obs, masks, targets, searched, np.zeros(rows, np.float32), gains).save(shard_path(run / "replay", k))
    return run


def test_the_layout_and_the_placement_positions(tmp_path: Path) -> None:
    run = run_folder(tmp_path)
    start = load_policy(SHIPPED)
    layout = Layout.of(start, run)
    assert layout.spaces == 37 and layout.seats == 5  # the base board's follower spaces, up to 5 seats
    data = placements(run, 1, 1, 0.1, start, layout)
    shard = Positions.read(shard_path(run / "replay", 1))
    chosen = np.where(shard.masks, start.logits(shard.obs.astype(np.float32)), -np.inf).argmax(axis=1)
    overrules = (np.arange(200) % 4 == 0) & (chosen != layout.place + 1)  # a clear label on the start's choice is none
    assert 40 < overrules.sum() < 50  # the start chooses the labelled space at a few rows
    assert len(data) == 200 and int(data.clear.sum()) == int(overrules.sum())
    assert data.masks.shape == (200, 37) and data.occupants.shape == (200, 37, 5)
    assert data.features.shape == (200, 37, 72)  # 5 seats, 54 card types and the face-down count, 12 of a faction
    assert bool((data.labels[data.clear] == 1).all())


def test_the_command_reports_and_names_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_folder(tmp_path)
    assert main([str(run), "--train", "1:1", "--test", "2:2", "--anchors", "1", "--epochs", "2"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"placement positions: shards 1\.\.1 200 \(\d+ clear\), shards 2\.\.2 200 \(\d+ clear\)", printed)
    assert sum(line.startswith(("generic ", "action ", "features ")) for line in printed.splitlines()) == 3
    with pytest.raises(SystemExit, match="overlap"):
        main([str(run), "--train", "1:2", "--test", "2:2"])
    with pytest.raises(SystemExit, match="--heads: unknown wide"):
        main([str(run), "--train", "1:1", "--test", "2:2", "--heads", "action,wide"])
    with pytest.raises(SystemExit, match="no clear placement labels"):
        main([str(run), "--train", "1:1", "--test", "2:2", "--margin", "0.5"])
