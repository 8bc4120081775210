"""A bot's move in a person's game, shared by the terminal and the browser."""

from __future__ import annotations

from agents import Agent
from tribune_env.engine.actions import Action
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet


def bot_move(agent: Agent, game: Game, seat: int) -> tuple[Action, str | None]:
    """A bot's move in a person's game (the terminal's and the browser's): its choice, or the first legal choice
    when it raises or chooses an illegal action, since an agent's bug must not end the person's game; the second
    item says what went wrong (``None`` when nothing did)."""
    legal = game.legal_actions()
    try:
        action = agent.act(game.view(seat), legal, InfoSet(game, seat))
    except Exception as exc:  # any bug of the agent's
        return legal[0], f"failed: {exc!r}"
    if action not in legal:
        return legal[0], f"chose an illegal action {action!r}"
    return action, None
