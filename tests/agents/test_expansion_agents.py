"""Agents and expansion games: the agents that play the expansion (``plays_expansion``) accept an expansion game;
the others refuse it clearly until they are taught the expansion (an expansion decision kind is never met by an agent
that cannot price it)."""

from __future__ import annotations

import pytest

from agents import AgentError, make_agent
from agents.specs import agent_names
from tribune_env import Game, GameConfig


def _plays_expansion(name: str) -> bool | None:
    """The agent's ``plays_expansion``; None when it cannot be built here (a model file not shipped yet)."""
    try:
        agent = make_agent(name, seed=1)
    except AgentError:
        return None
    try:
        return agent.plays_expansion
    finally:
        agent.close()


_PLAYS = {name: _plays_expansion(name) for name in agent_names()}
PLAYING = [name for name, plays in _PLAYS.items() if plays]
REFUSING = [name for name, plays in _PLAYS.items() if plays is False]


def test_random_heuristic_and_greedy_play_the_expansion() -> None:
    assert {"random", "heuristic", "greedy"} <= set(PLAYING)


@pytest.mark.parametrize("name", PLAYING)
def test_agents_with_the_expansion_accept_an_expansion_game(name: str) -> None:
    agent = make_agent(name, seed=1)
    agent.reset(0, GameConfig(players=4, expansion=True), seed=1)
    agent.reset(0, GameConfig(players=4), seed=1)  # and the base game
    agent.close()


@pytest.mark.parametrize("name", REFUSING)
def test_agents_without_the_expansion_refuse_an_expansion_game(name: str) -> None:
    agent = make_agent(name, seed=1)
    with pytest.raises(AgentError, match="expansion"):
        agent.reset(0, GameConfig(players=4, expansion=True), seed=1)
    agent.reset(0, GameConfig(players=4), seed=1)  # the base game still works
    agent.close()


def test_random_agents_play_a_whole_expansion_game() -> None:
    config = GameConfig(players=3, expansion=True)
    game = Game.new(config, seed=4)
    agents = [make_agent("random", seed=s) for s in range(3)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, config, seed=seat)
    while not game.is_over:
        seat = game.current_seat
        game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
    assert game.winners
