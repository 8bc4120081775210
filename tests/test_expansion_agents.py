"""Agents and expansion games: the random agent plays them; the others refuse them clearly until they are taught
the expansion (an expansion decision kind is never met by an agent that cannot price it)."""

from __future__ import annotations

import pytest

from agents import AgentError, make_agent
from agents.specs import agent_names
from tribune_env import Game, GameConfig


@pytest.mark.parametrize("name", [n for n in agent_names() if n != "random"])
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
