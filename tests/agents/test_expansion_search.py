"""``mcts`` (both searches) in expansion games: legal whole games, reproducible from the seed, no peeking at what the
searching seat may not know (R1, R2, R35, R39: hands, Augur draws, other players' staged cards, emperor pile)."""

from __future__ import annotations

import random

import pytest
from agent_games import answers_alike, play_game
from hidden_info import redeal_everything_hidden
from positions import random_game

from tribune_env import DecisionKind, Game, GameConfig

FAST = "mcts:iterations=8,depth=10"
FLAT = "mcts:search=flat,iterations=2"


@pytest.mark.parametrize(("players", "spec"), [(2, FAST), (4, FAST), (3, FLAT), (5, FLAT)])
def test_plays_complete_expansion_games(players: int, spec: str) -> None:
    config = GameConfig(players=players, expansion=True, round_limit=2)
    specs = [spec] + ["heuristic"] * (players - 1)
    game, played = play_game(specs, players, config, identical=lambda s: s == FAST)
    assert game.is_over and played


def test_same_seed_gives_the_same_expansion_game() -> None:
    config = GameConfig(players=3, expansion=True, round_limit=1)
    first = play_game([FAST] * 3, 5, config, identical=lambda _: True)[1]
    assert play_game([FAST] * 3, 5, config, identical=lambda _: True)[1] == first


def _at_expansion_decision(seed: int) -> Game:
    """A random expansion game at a decision of an expansion kind with at least two choices."""
    game = random_game(4, seed, 0, expansion=True)
    play = random.Random(seed)
    while not game.is_over:
        pending = game.pending
        if pending is not None and pending.kind.expansion and len(game.legal_actions()) > 1:
            return game
        game.apply(play.choice(game.legal_actions()))
    pytest.fail("no expansion decision with a choice in this game")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_does_not_peek_at_hidden_information(seed: int) -> None:
    """Two true games that differ only in what the searching seat may not know get the same answer."""
    game = _at_expansion_decision(seed)
    seat = game.current_seat
    other = Game(redeal_everything_hidden(game.python_state(), seat, random.Random(seed)))
    answers_alike("mcts:iterations=30,depth=20", (game, other), seat)
    assert game.pending is not None and game.pending.kind in set(DecisionKind)
