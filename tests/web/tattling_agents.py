"""A test agent that raises with its own hand in the message (spec ``tattler``), registered on import: what a bot's
words may hold, which no other seat may read (issue 42, W12)."""

from __future__ import annotations

from collections.abc import Sequence

from agents.base import Agent, InfoSet
from agents.random_agent import RandomAgent
from agents.specs import register_agent
from tribune_env.engine.actions import Action
from tribune_env.engine.view import PlayerView

SECRET = "my hand is"


class Tattler(RandomAgent):
    """Raises ``RuntimeError("my hand is [...]")`` at each decision."""

    name = "tattler"

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        raise RuntimeError(f"{SECRET} {list(view.hand)}")


def _make(params: dict[str, str], seed: int | None) -> Agent:
    return Tattler(seed)


register_agent("tattler", _make)
