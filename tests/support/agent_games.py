"""Agents in tests: whole games between agent specs (:func:`play_game`), one decision (:func:`decide`), and the
no-peeking check of searching agents (:func:`answers_alike`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.base import Agent
from agents.specs import make_agent
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text
from tribune_env.envs.infoset import InfoSet


def play_game(
    specs: Sequence[str],
    seed: int,
    config: GameConfig | None = None,
    reset_factor: int = 31,
    identical: Callable[[str], bool] = lambda spec: False,
    **options: Any,
) -> tuple[Game, list[Action]]:
    """One game between the agents of ``specs`` (seat order) on ``config`` (default: ``options`` for ``len(specs)``
    players); agent seeds are ``seed + seat`` and reset seeds ``seed * reset_factor + seat``. Every answer must be
    legal, and for the specs where ``identical(spec)`` holds an element of ``legal`` itself. Returns the finished
    game and the actions played."""
    config = config or GameConfig(players=len(specs), **options)
    game = Game.new(config, seed=seed)
    agents = [make_agent(spec, seed=seed + s) for s, spec in enumerate(specs)]
    for s, agent in enumerate(agents):
        agent.reset(s, config, seed * reset_factor + s)
    played = []
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        action = agents[seat].act(game.view(seat), legal, InfoSet(game, seat))
        assert action in legal, f"{specs[seat]} returned an illegal action {action!r}"
        if identical(specs[seat]):
            assert any(action is a for a in legal), f"{specs[seat]} returned {action!r}, not an element of legal"
        played.append(action)
        game.apply(action)
    return game, played


def texts(actions: Sequence[Action]) -> list[str]:
    """The notation of ``actions``."""
    return [action_text(a) for a in actions]


def decide(agent: Agent, game: Game) -> Action:
    """Ask ``agent`` for the current seat's choice, with the seat's view and InfoSet."""
    seat = game.current_seat
    return agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat))


def answers_alike(spec: str, games: Sequence[Game], seat: int, seed: int = 7, reset_seed: int = 11) -> None:
    """A fresh ``spec`` agent (seed ``seed``, reset with ``reset_seed``) in ``seat`` gives the same answer in each of
    ``games``: games that differ only in what ``seat`` may not know (R1, R2) must not change a searching agent's
    answer."""
    answers = []
    for game in games:
        agent = make_agent(spec, seed)
        agent.reset(seat, game.config, reset_seed)
        answers.append(decide(agent, game))
    assert all(answer == answers[0] for answer in answers), answers
