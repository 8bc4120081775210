"""A test agent that reports the native thread pools of the process it plays in (spec ``thread-probe``), registered
on import: its first ``act()`` raises an :class:`AgentError` whose message is ``threads `` and the JSON of
:func:`tribune_env.threads.threads_in_use`, so the game's forfeit message carries what the worker process had.

A light module of its own (on the tests' ``pythonpath``), so that tournament worker processes import it quickly.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from agents.base import Agent, AgentError, InfoSet
from agents.specs import no_more, register_agent
from tribune_env.engine.actions import Action
from tribune_env.engine.view import PlayerView
from tribune_env.threads import threads_in_use

PREFIX = "threads "


class ThreadProbe(Agent):
    name = "thread-probe"

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        raise AgentError(PREFIX + json.dumps(threads_in_use(), sort_keys=True))


def reported(message: str) -> dict[str, int]:
    """The thread counts in a forfeit message of :class:`ThreadProbe`."""
    assert PREFIX in message, message
    found: dict[str, int] = json.loads(message[message.index(PREFIX) + len(PREFIX) :].split("}")[0] + "}")
    return found


def _make(params: dict[str, str], seed: int | None) -> Agent:
    no_more("thread-probe", params)
    return ThreadProbe(seed)


register_agent("thread-probe", _make)
