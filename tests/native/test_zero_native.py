"""``zero`` searches the same on both engines (issue 34, item 4).

The playouts of a native game run in batched native calls (``playout_first_layer``, ``playout_step``,
``playout_forced``); those of a Python game in numpy (:func:`agents.zero.first_layer`). The first layer's sums over
an observation's nonzero entries are the same bit for bit, so the playouts, their leaf values and the chosen moves
are the same on both engines.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from agents.zero import Network, ZeroAgent, ZeroSettings, first_layer, leaf_values, play_out
from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.serialize import state_to_json
from tribune_env.envs.infoset import InfoSet

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built: {native.BUILD_ERROR}")

RULES = ["base", "expansion"]


def _agent(config: GameConfig) -> ZeroAgent:
    agent = ZeroAgent(ZeroSettings(simulations=8, depth=6, threshold=2.0), seed=3)  # 2.0: search every choice
    agent.reset(0, config, 3)
    return agent


def _positions(config: GameConfig, engine: str, monkeypatch: pytest.MonkeyPatch, count: int) -> list[Game]:
    """``count`` positions of one random game on ``engine`` (copies, every few decisions)."""
    monkeypatch.setenv(native.ENGINE_ENV, engine)
    game = Game.new(config, seed=5)
    rng = random.Random(11)
    out = []
    while not game.is_over and len(out) < count:
        for _ in range(rng.randrange(1, 9)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            out.append(game.clone(events=False))
    return out


@pytest.mark.parametrize("rules", RULES)
def test_the_native_first_layer_is_the_numpy_sum_bit_for_bit(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    config = GameConfig.for_rules(rules, players=4)
    net = Network(_agent(config).search.net.policy, config)  # type: ignore[union-attr]
    games = _positions(config, "native", monkeypatch, 12)
    assert all(g.native_core is not None for g in games)
    seats = [(k * 3) % 4 for k in range(len(games))]
    for weight_t in (net.actor.weights[0], net.critic.weights[0]):  # type: ignore[union-attr]
        native_rows = net._first(games, seats, weight_t)
        numpy_rows = first_layer(net.observations(games, seats), weight_t)
        assert native_rows.dtype == numpy_rows.dtype == np.float32
        assert native_rows.tobytes() == numpy_rows.tobytes()
        dense = net.observations(games, seats) @ weight_t  # the same figures up to the summation order
        np.testing.assert_allclose(native_rows, dense, rtol=1e-4, atol=1e-4)
    empty = np.zeros((2, weight_t.shape[0]), dtype=np.float32)
    assert not first_layer(empty, weight_t).any()


@pytest.mark.parametrize("own", [None, 2])
@pytest.mark.parametrize("rules", RULES)
def test_playouts_and_leaf_values_are_the_same_on_both_engines(rules: str, own: int | None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    config = GameConfig.for_rules(rules, players=4)
    net = Network(_agent(config).search.net.policy, config)  # type: ignore[union-attr]
    played = {}
    for engine in ("python", "native"):
        games = _positions(config, engine, monkeypatch, 6)
        assert all((g.native_core is not None) == (engine == "native") for g in games)
        made = play_out(net, games, 12, own=own)
        if own is not None:  # leaf=own: every unfinished playout stops at the seat's own decision
            assert all(g.is_over or g.current_seat == own for g in games)
        played[engine] = (made, [state_to_json(g.position()) for g in games], leaf_values(net, games).tobytes())
    assert played["native"] == played["python"]
    assert played["native"][0] > 0


@pytest.mark.parametrize("rules", RULES)
def test_zero_plays_the_same_moves_on_both_engines(rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    config = GameConfig.for_rules(rules, players=4)
    played = {}
    for engine in ("python", "native"):
        monkeypatch.setenv(native.ENGINE_ENV, engine)
        game = Game.new(config, seed=8)
        assert (game.native_core is not None) == (engine == "native")
        agents = [_agent(config) for _ in range(config.players)]
        for seat, agent in enumerate(agents):
            agent.reset(seat, config, 20 + seat)
        moves, searches = [], []
        while not game.is_over and len(searches) < 4:
            seat = game.current_seat
            action = agents[seat].act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
            result = agents[seat].last
            if result is not None and result.searched:
                searches.append((result.candidates, result.q, result.visits, result.values, result.decisions))
            moves.append(action)
            game.apply(action)
        played[engine] = (moves, searches)
    assert len(played["python"][1]) == 4
    assert played["native"] == played["python"]


HEURISTIC_MODEL = Path(__file__).parents[2] / "training/pool/models/heuristic-4p.npz"  # distilled from heuristic


def _table_net(config: GameConfig) -> tuple[Network, Network]:
    from agents.ppo import load_policy

    return Network(_agent(config).search.net.policy, config), Network(load_policy(HEURISTIC_MODEL), config)  # type: ignore[union-attr]


def test_playouts_with_an_opponent_model_are_the_same_on_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Table``: the searching seat by the network, the others by the opponent model, on both engines alike."""
    from agents.zero import Table

    config = GameConfig(players=4)
    net, others = _table_net(config)
    played = {}
    for engine in ("python", "native"):
        games = _positions(config, engine, monkeypatch, 6)
        made = play_out(net, games, 16, Table(others, 1))
        played[engine] = (made, [state_to_json(g.position()) for g in games])
    assert played["native"] == played["python"] and played["native"][0] > 0
    alone = _positions(config, "native", monkeypatch, 6)  # the same positions with the network in every seat
    play_out(net, alone, 16)
    assert [state_to_json(g.position()) for g in alone] != played["native"][1]  # the model made other moves


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_table_of_the_searched_network_plays_as_no_table(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The opponent model moves exactly the rows of the other seats: a model that is the network itself changes
    nothing (every seat's rows, split between two batched calls, make the same moves as one call)."""
    from agents.zero import Table

    config = GameConfig(players=4)
    net, _ = _table_net(config)
    split, whole = _positions(config, engine, monkeypatch, 6), _positions(config, engine, monkeypatch, 6)
    assert play_out(net, split, 16, Table(net, 2)) == play_out(net, whole, 16)
    assert [state_to_json(g.position()) for g in split] == [state_to_json(g.position()) for g in whole]
