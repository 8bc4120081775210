"""Determinism: all chance comes from the seed kept in the state, never from global generators."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from paths import ROOT

from tribune_env import Game

PLAYER_COUNTS = (2, 3, 4, 5)


def play(game: Game, choice_seed: int, between: Any = None) -> list[tuple[Any, ...]]:
    """Random legal play to the end; ``between(step)`` runs before every decision. Returns the choices."""
    rng = random.Random(choice_seed)
    choices = []
    step = 0
    while not game.is_over:
        if between is not None:
            between(step)
        actions = game.legal_actions()
        index = rng.randrange(len(actions))
        choices.append((game.current_seat, index))
        game.apply(actions[index])
        step += 1
    return choices


def digest(game: Game) -> str:
    return hashlib.sha256(json.dumps(game.to_json(), sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_same_seed_same_choices_same_game(players: int) -> None:
    a = Game.new(players=players, seed=123)
    b = Game.new(players=players, seed=123)
    assert a.to_json() == b.to_json()
    choices_a = play(a, choice_seed=7)
    choices_b = play(b, choice_seed=7)
    assert choices_a == choices_b
    assert a.events == b.events
    assert a.log() == b.log()
    assert a.to_json() == b.to_json()
    assert (a.winners, a.scores(), a.ranks(), a.round, a.truncated) == (
        b.winners,
        b.scores(),
        b.ranks(),
        b.round,
        b.truncated,
    )


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_different_seeds_differ(players: int) -> None:
    docs = [Game.new(players=players, seed=s).to_json() for s in range(5)]
    piles = {json.dumps(d["draw_pile"]) for d in docs}
    hands = {json.dumps([p["hand"] for p in d["players"]]) for d in docs}
    assert len(piles) == 5, "different seeds give the same deck order"
    assert len(hands) > 1
    # whole games with the same choices differ too
    a, b = Game.new(players=players, seed=1), Game.new(players=players, seed=2)
    play(a, choice_seed=0)
    play(b, choice_seed=0)
    assert a.events != b.events
    assert digest(a) != digest(b)


def test_seed_range_is_accepted() -> None:
    """Large and negative seeds work and stay distinct within the 63-bit chance key."""
    docs = {digest(Game.new(players=3, seed=s)) for s in (0, 1, 2**40, 2**62 + 5, -1)}
    assert len(docs) == 5


def test_same_seed_other_options() -> None:
    """The victory card and the starting player come from the seed when not configured (R3)."""
    picks = {
        (Game.new(players=4, seed=s).position().victory_card, Game.new(players=4, seed=s).position().start_seat)
        for s in range(30)
    }
    assert len({v for v, _ in picks}) > 1
    assert len({s for _, s in picks}) > 1
    fixed = Game.new(players=4, seed=3, victory_card="pecunia", start_seat=2)
    assert fixed.position().victory_card == "pecunia"
    assert fixed.position().start_seat == 2


@pytest.mark.parametrize("players", [2, 5])
def test_global_random_state_is_irrelevant(players: int) -> None:
    """Reseeding and drawing from ``random`` and ``numpy.random`` between steps changes nothing."""
    reference = Game.new(players=players, seed=31)
    play(reference, choice_seed=3)

    def perturb(step: int) -> None:
        random.seed(step * 7919)
        np.random.seed(step % (2**32))
        random.random()
        random.shuffle([1, 2, 3])
        np.random.rand(3)
        np.random.default_rng(step).random()

    random.seed(999)
    np.random.seed(999)
    perturbed = Game.new(players=players, seed=31)
    play(perturbed, choice_seed=3, between=perturb)
    assert perturbed.events == reference.events
    assert perturbed.to_json() == reference.to_json()


def test_engine_does_not_touch_global_generators() -> None:
    random.seed(2024)
    np.random.seed(2024)
    py_state = random.getstate()
    np_state = np.random.get_state()
    game = Game.new(players=4, seed=8)
    rng = random.Random(8)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        game.clone()
    Game.from_json(json.dumps(game.to_json()))
    Game.from_json({"config": {"players": 3, "victory_card": "alea_long"}, "players": [{}, {}, {}]})
    assert random.getstate() == py_state
    after = np.random.get_state()
    assert after[0] == np_state[0]
    assert np.array_equal(after[1], np_state[1])
    assert after[2:] == np_state[2:]


def test_hand_written_rest_pile_is_seeded_by_chance_key() -> None:
    """``"draw_pile": "rest"`` shuffles with the document's chance key: same key, same pile."""
    doc: dict[str, Any] = {"config": {"players": 2, "victory_card": "alea_long"}, "players": [{}, {}], "chance": 5}
    a, b = Game.from_json(doc), Game.from_json(doc)
    assert a.to_json() == b.to_json()
    other = Game.from_json({**doc, "chance": 6})
    assert other.to_json()["draw_pile"] != a.to_json()["draw_pile"]


def test_clone_and_roundtrip_keep_the_future_chance() -> None:
    """A clone or a round-trip taken before a shuffle sees the same shuffle as the original."""
    game = Game.new(players=3, seed=17)
    clone = game.clone()
    loaded = Game.from_json(json.dumps(game.to_json()))
    for g in (game, clone, loaded):
        play(g, choice_seed=17)
    assert game.to_json() == clone.to_json() == loaded.to_json()


_SCRIPT = """
import hashlib, json, random, sys
from tribune_env import Game
out = []
for players in (2, 3, 4, 5):
    game = Game.new(players=players, seed=players * 11)
    rng = random.Random(players)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    out.append(hashlib.sha256(json.dumps(game.to_json(), sort_keys=True).encode()).hexdigest())
print(" ".join(out))
"""


def test_independent_of_hash_seed() -> None:
    """No set/dict iteration order leaks into the game: other PYTHONHASHSEEDs, other processes, same games."""
    results = set()
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, cwd=ROOT, env=env, check=True, timeout=120
        )
        results.add(proc.stdout.strip())
    # and the same games in this process
    here = []
    for players in PLAYER_COUNTS:
        game = Game.new(players=players, seed=players * 11)
        rng = random.Random(players)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        here.append(digest(game))
    results.add(" ".join(here))
    assert len(results) == 1, results
