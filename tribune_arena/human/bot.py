"""A bot's move in a person's game, shared by the terminal and the browser."""

from __future__ import annotations

import re

from agents import Agent
from tribune_arena.records import forfeit_headline
from tribune_env.engine.actions import Action
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

_REPORT = re.compile(r"^\w+\(\) (raised|returned|took|ran) ")
"""A message that already says what the agent's call did (``act() raised RuntimeError: boom``)."""


def failure_text(error: BaseException) -> str:
    """What went wrong in a bot's move, in one line for the person at the table: ``RuntimeError: boom``, or the
    message of a call report as it stands (``act() raised RuntimeError: boom``), never the source file and line
    where it was raised."""
    try:
        text = str(error)
    except Exception:  # an agent's exception with a broken __str__
        text = ""
    text = forfeit_headline(text.strip().splitlines()[0])[0] if text.strip() else ""
    if _REPORT.match(text):
        return text[:300]
    name = type(error).__name__
    return f"{name}: {text}"[:300] if text else name


def bot_move(agent: Agent, game: Game, seat: int) -> tuple[Action, str | None]:
    """A bot's move in a person's game (the terminal's and the browser's): its choice, or the first legal choice
    when it raises or chooses an illegal action, since an agent's bug must not end the person's game; the second
    item says what went wrong (``None`` when nothing did)."""
    legal = game.legal_actions()
    try:
        action = agent.act(game.view(seat), legal, InfoSet(game, seat))
    except Exception as exc:  # any bug of the agent's
        return legal[0], f"failed ({failure_text(exc)})"
    if action not in legal:
        return legal[0], f"chose an illegal action {action!r}"
    return action, None
