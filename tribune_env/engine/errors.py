"""Exceptions raised by the engine.

Every error here survives ``pickle`` (any protocol) and ``copy`` with its message and fields, so it can
travel from a worker process (multiprocessing, Ray) to the one that reports it: :meth:`TribuneError.__reduce__`
rebuilds an error from its ``args`` and attributes instead of calling ``__init__`` again, whose signature
may differ from ``args``.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any


def _portable(value: Any) -> Any:
    """``value`` if it pickles, else its ``repr`` (an agent's action object need not pickle)."""
    try:
        pickle.dumps(value)
    except Exception:  # any failure of a foreign object's pickling
        return repr(value)
    return value


def _rebuild(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """Recreate an error of ``cls`` without running its ``__init__`` (the inverse of ``__reduce__``)."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class TribuneError(Exception):
    """Base class of the engine's errors; every subclass pickles and copies with its message and fields."""

    def __reduce__(self) -> tuple[Any, ...]:
        args = tuple(_portable(a) for a in self.args)
        state = {key: _portable(value) for key, value in self.__dict__.items()}
        return _rebuild, (type(self), args, state)


class IllegalActionError(TribuneError, ValueError):
    """An action that is not among the legal choices; the game is left unchanged."""

    def __init__(self, action: Any, reason: str, legal: Sequence[Any], describe: Any = repr) -> None:
        self.action = action
        self.reason = reason
        self.legal = tuple(legal)
        shown = ", ".join(describe(a) for a in self.legal[:40])  # describe never raises on bad payloads
        if len(self.legal) > 40:
            shown += f", ... ({len(self.legal)} in all)"
        super().__init__(f"illegal action {describe(action)}: {reason}. Legal choices: [{shown}]")


class GameOverError(TribuneError):
    """An action was given after the game ended."""


class InvalidStateError(TribuneError, ValueError):
    """A state document is malformed or inconsistent; the message names the problem."""
