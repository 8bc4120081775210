"""Hostile test agents (spec ``hostile:mode=...,where=act|reset``), registered on import.

A light module of its own, so that the tournament's worker processes import it quickly.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Sequence
from typing import Any
from unittest import mock

from agents.base import Agent, InfoSet
from agents.random_agent import RandomAgent
from agents.specs import no_more, register_agent, take_choice
from tribune_env.engine.actions import Action, PickCard
from tribune_env.engine.config import GameConfig
from tribune_env.engine.view import PlayerView


class LyingCard(PickCard):
    """An action whose ``==`` and ``hash`` say it is every card."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(PickCard(0))


class LyingInt(int):
    """An integer that says it equals anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def _swallow() -> None:
    while True:  # a careless agent: swallows the alarm and goes on
        try:
            time.sleep(10)
        except BaseException:
            pass


def _busy() -> None:
    while True:
        try:
            sum(range(1000))
        except BaseException:
            pass


def _native() -> None:
    """A long call in C that never returns to the interpreter, where the alarm would be delivered."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    time.sleep(30)


def _terminate() -> None:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)


MISDEEDS: dict[str, Any] = {
    "swallow": _swallow,
    "busy": _busy,
    "native": _native,
    "exit": lambda: sys.exit(0),
    "os-exit": lambda: os._exit(3),
    "interrupt": lambda: (_ for _ in ()).throw(KeyboardInterrupt),
    "sigterm": _terminate,
    "any": lambda: mock.ANY,
    "liar": lambda: LyingCard(-1),
}


class Hostile(RandomAgent):
    """Plays randomly, but does its ``mode`` misdeed in ``reset`` or at its first decision of every game."""

    name = "hostile"

    def __init__(self, mode: str, where: str, seed: int | None) -> None:
        super().__init__(seed)
        self.mode, self.where = mode, where

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        super().reset(seat, config, seed)
        if self.where == "reset":
            MISDEEDS[self.mode]()

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if self.where == "act":
            result = MISDEEDS[self.mode]()
            if result is not None:
                return result  # type: ignore[no-any-return]
        return super().act(view, legal, info)


def _make(params: dict[str, str], seed: int | None) -> Agent:
    mode = take_choice(params, "mode", "swallow", tuple(MISDEEDS))
    where = take_choice(params, "where", "act", ("act", "reset"))
    no_more("hostile", params)
    return Hostile(mode, where, seed)


register_agent("hostile", _make)
