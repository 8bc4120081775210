"""Python agents on the native engine play as on the Python engine (issue 41).

The greedy agent's trial positions on a native game are read from the seat's view (:mod:`agents.view_position`),
not copied whole; its evaluation must still equal the Python engine's on every position, so that a seeded game of
Python agents gives the same moves, and the same document, on both engines.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from agents.evaluation import evaluate, evaluate_game
from agents.specs import make_agent
from agents.view_position import seat_position
from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text
from tribune_env.engine.serialize import state_to_json
from tribune_env.envs.infoset import InfoSet

pytestmark = pytest.mark.skipif(not native.built(), reason="the native core is not built")

RULE_SETS: tuple[dict[str, Any], ...] = (
    {"players": 4},
    {"players": 3, "expansion": True},
    {"players": 5, "expansion": True, "brutii": True},
)


def _play(engine: str, specs: tuple[str, ...], seed: int, monkeypatch: pytest.MonkeyPatch, **options: Any) -> Any:
    """The actions and the final document of one seeded game of ``specs`` on ``engine`` (the agents' samples on
    the same engine: TRIBUNE_ENGINE)."""
    monkeypatch.setenv(native.ENGINE_ENV, engine)
    config = GameConfig(players=len(specs), **options)
    agents = [make_agent(spec, seed * 10 + seat) for seat, spec in enumerate(specs)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, config, seed * 10 + seat)
    game = Game.new(config, seed=seed, engine=engine)
    actions = []
    while not game.is_over:
        seat = game.current_seat
        action = agents[seat].act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
        game.apply(action)
        actions.append(action_text(action))
    return actions, game.to_json()


GAMES = {
    "greedy": (("greedy", "random", "greedy", "random"), {}),
    "heuristic": (("heuristic", "random", "heuristic", "random"), {}),
    "greedy-expansion": (("greedy", "heuristic", "greedy"), {"expansion": True}),
    "greedy-brutii": (("greedy", "heuristic", "random", "greedy", "random"), {"expansion": True, "brutii": True}),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_agents_play_one_game_alike_on_both_engines(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seeded agents make the same moves on both engines, to the same final document."""
    specs, options = GAMES[name]
    python = _play("python", specs, 3, monkeypatch, **options)
    played = _play("native", specs, 3, monkeypatch, **options)
    assert played[0] == python[0]
    assert played[1] == python[1]


def _positions(options: dict[str, Any], seed: int) -> Any:
    """Native games of ``options`` at random decisions of a random game, with a determinized sample of each."""
    game = Game.new(seed=seed, engine="native", **options)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.1:
            yield game
            if not game.is_over:
                yield game.determinized(game.current_seat, rng)


@pytest.mark.parametrize("options", RULE_SETS, ids=["base", "expansion", "brutii"])
def test_a_seat_position_evaluates_as_the_whole_position(options: dict[str, Any]) -> None:
    built = 0
    for game in _positions(options, 1):
        whole = game.position()
        core = game.native_core
        assert core is not None
        for seat in range(game.num_players):
            position = seat_position(core, seat)
            if position is not None:
                built += 1
                assert evaluate(position, seat) == evaluate(whole, seat), (seat, state_to_json(whole))
            assert evaluate_game(game, seat) == evaluate(whole, seat)
    assert built > 30


def test_a_position_with_a_played_brutii_card_is_read_whole() -> None:
    """The claims of the Brutii's played cards read the agenda, which no view shows: no seat position then."""
    for game in _positions({"players": 5, "expansion": True, "brutii": True}, 2):
        core = game.native_core
        assert core is not None
        if game.position().brutii_played:
            assert seat_position(core, 0) is None
            return
    pytest.fail("no position with a played Brutii card")


@pytest.mark.slow
@pytest.mark.parametrize("options", RULE_SETS, ids=["base", "expansion", "brutii"])
def test_seat_positions_of_many_games_evaluate_as_the_whole_positions(options: dict[str, Any]) -> None:
    for seed in range(2, 12):
        for game in _positions(options, seed):
            whole = game.position()
            for seat in range(game.num_players):
                assert evaluate_game(game, seat) == evaluate(whole, seat), (seed, seat, state_to_json(whole))
