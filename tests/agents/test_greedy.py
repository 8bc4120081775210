"""The greedy agent (agents/greedy.py): legal, deterministic, and it takes a winning move."""

from __future__ import annotations

from typing import Any

import pytest
from positions import pick, position

from agents.base import AgentError
from agents.greedy import GreedyAgent, bid_candidates
from agents.specs import make_agent
from tribune_env import COMMIT, DECLINE, Bid, DecisionKind, Faction, Game, GameConfig
from tribune_env.engine.actions import Action
from tribune_env.envs.infoset import InfoSet


def _play(game: Game, agents: list[GreedyAgent]) -> list[Action]:
    """Play ``game`` to the end with ``agents`` (one per seat), checking every action is legal."""
    for seat, agent in enumerate(agents):
        agent.reset(seat, game.config, 100 + seat)
    actions = []
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        action = agents[seat].act(game.view(seat), legal, InfoSet(game, seat))
        assert action in legal
        game.apply(action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_plays_complete_games_legally(players: int) -> None:
    game = Game.new(GameConfig(players=players, round_limit=3), seed=players)
    _play(game, [GreedyAgent(seed=s) for s in range(players)])
    assert game.is_over and game.winners


def test_deterministic_for_a_fixed_seed() -> None:
    config = GameConfig(players=3, round_limit=2)
    first = _play(Game.new(config, seed=7), [GreedyAgent(seed=s) for s in range(3)])
    second = _play(Game.new(config, seed=7), [GreedyAgent(seed=s) for s in range(3)])
    assert first == second


def _winning_takeover() -> Game:
    """Seat 0 meets laurels and legions of alea_short (3 of 6 needed); the Senators marker, its 4th, meets markers."""
    players: list[dict[str, Any]] = [
        {
            "laurels": 8,
            "legions": 3,
            "markers": ["gladiators", "legates", "praetorians"],
            "hand": ["senators:4", "senators:5", "plebeians:2"],
        },
        {"laurels": 3, "hand": ["gladiators:1"]},
        {"legions": 1},
        {},
    ]
    return position(
        players,
        victory_card="alea_short",
        auto_forced=True,
        phase="takeovers",
        followers={"faction:senators:1": 0},
    )


def test_builds_and_plays_the_take_over_that_wins_the_game() -> None:
    game = _winning_takeover()
    assert game.pending is not None and game.pending.kind == DecisionKind.TAKEOVER_SET
    assert game.legal_actions() == [pick(game, "senators:4"), DECLINE]
    agent = GreedyAgent(seed=1)
    agent.reset(0, game.config, 1)
    while game.pending is not None and game.pending.kind == DecisionKind.TAKEOVER_SET:
        legal = game.legal_actions()
        action = agent.act(game.view(0), legal, InfoSet(game, 0))
        assert action != DECLINE
        game.apply(action)
    assert game.position().controller[Faction.SENATORS] == 0
    assert game.position().players[0].markers[Faction.SENATORS]


def test_commits_a_ready_set() -> None:
    game = _winning_takeover()
    game.apply(pick(game, "senators:4"))
    game.apply(pick(game, "senators:5"))
    assert game.legal_actions() == [COMMIT, DECLINE]
    agent = GreedyAgent(seed=3)
    agent.reset(0, game.config, 3)
    assert agent.act(game.view(0), game.legal_actions(), InfoSet(game, 0)) == COMMIT


def test_needs_the_infoset() -> None:
    game = Game.new(players=2, seed=0)
    agent = GreedyAgent(seed=0)
    agent.reset(game.current_seat, game.config, 0)
    with pytest.raises(AgentError, match="InfoSet"):
        agent.act(game.view(game.current_seat), game.legal_actions())


def test_spec() -> None:
    agent = make_agent("greedy:samples=3", seed=1)
    assert isinstance(agent, GreedyAgent) and agent.samples == 3 and agent.spec == "greedy:samples=3"
    with pytest.raises(AgentError, match="samples"):
        make_agent("greedy:samples=0")
    with pytest.raises(AgentError, match="no parameter"):
        make_agent("greedy:depth=2")


def test_bid_candidates() -> None:
    legal = [Bid(b) for b in range(15)]
    assert [a.amount for a in bid_candidates(legal) if isinstance(a, Bid)] == [0, 1, 2, 3, 5, 8, 12, 14]
    assert [a.amount for a in bid_candidates(legal, cap=4) if isinstance(a, Bid)] == [0, 1, 2, 3, 4]
    assert bid_candidates(legal, cap=0) == [Bid(0)]
