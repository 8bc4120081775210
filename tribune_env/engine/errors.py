"""Exceptions raised by the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class TribuneError(Exception):
    """Base class of the engine's errors."""


class IllegalActionError(TribuneError, ValueError):
    """An action that is not among the legal choices; the game is left unchanged."""

    def __init__(self, action: Any, reason: str, legal: Sequence[Any], describe: Any = repr) -> None:
        self.action = action
        self.legal = tuple(legal)
        shown = ", ".join(describe(a) for a in self.legal[:40])  # describe never raises on bad payloads
        if len(self.legal) > 40:
            shown += f", ... ({len(self.legal)} in all)"
        super().__init__(f"illegal action {describe(action)}: {reason}. Legal choices: [{shown}]")


class GameOverError(TribuneError):
    """An action was given after the game ended."""


class InvalidStateError(TribuneError, ValueError):
    """A state document is malformed or inconsistent; the message names the problem."""
