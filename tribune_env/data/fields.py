"""Reading a component document's fields: the error, the bounds and the typed readers of one field.

:mod:`tribune_env.data.expansion` reads the Tribune Expansion's tables with them and
:mod:`tribune_env.data.schema` the base game's, calling the expansion's parser: the helpers live below both, so the
two modules form no import circle (issue 36).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, Protocol, TypeVar

# Bounds on any number of a component file: printed numbers are small, and the engine lists
# choices (bids, spaces) whose count grows with them.
MAX_NUMBER = 1000  # amounts, values, prices, thresholds
MAX_SIZE = 20  # card fields, follower spaces, followers per player, cards dealt

_C = TypeVar("_C", bound=type)


def python_class(cls: _C) -> _C:
    """Class decorator that changes nothing, except that mypyc compiles a decorated class as an ordinary Python class.

    Used on exceptions: a compiled (native) exception has no ``__dict__``, so its fields would not pickle or copy
    with it (see ``tribune_env/engine/errors.py``). mypyc makes any class with an unknown decorator non-native.
    """
    return cls


@python_class
class ComponentError(ValueError):
    """A component file is unreadable or inconsistent; the message names the field."""


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


CardT = TypeVar("CardT", bound=_HasId)


def find_card(cards: Sequence[CardT], card_id: str, what: str = "victory card") -> CardT:
    """The card of ``cards`` with id ``card_id``; :class:`ComponentError` names the known ids."""
    for card in cards:
        if card.id == card_id:
            return card
    known = ", ".join(c.id for c in cards)
    raise ComponentError(f"unknown {what} {card_id!r}; known: {known}")


class KeyedEnum(IntEnum):
    """An enum whose members have a lower-case ``key`` (the name used in files and documents)."""

    @property
    def key(self) -> str:
        return self.name.lower()


def get_field(table: dict[str, Any], key: str, where: str) -> Any:
    if not isinstance(table, dict):
        raise ComponentError(f"{where}: expected a table")
    if key not in table:
        raise ComponentError(f"{where}.{key}: missing")
    return table[key]


def int_field(table: dict[str, Any], key: str, where: str, minimum: int = 0, maximum: int = MAX_NUMBER) -> int:
    value = get_field(table, key, where)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ComponentError(f"{where}.{key}: expected an integer, got {value!r}")
    if value < minimum:
        raise ComponentError(f"{where}.{key}: must be >= {minimum}, got {value}")
    if value > maximum:
        raise ComponentError(f"{where}.{key}: must be <= {maximum}, got {value}")
    return value


def str_field(table: dict[str, Any], key: str, where: str) -> str:
    value = get_field(table, key, where)
    if not isinstance(value, str) or not value:
        raise ComponentError(f"{where}.{key}: expected a non-empty string, got {value!r}")
    return value


def int_list_field(table: dict[str, Any], key: str, where: str, minimum: int = 0) -> tuple[int, ...]:
    value = get_field(table, key, where)
    if not isinstance(value, list):
        raise ComponentError(f"{where}.{key}: expected a list of integers")
    out = []
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not minimum <= item <= MAX_NUMBER:
            raise ComponentError(f"{where}.{key}[{i}]: expected an integer {minimum}..{MAX_NUMBER}, got {item!r}")
        out.append(item)
    return tuple(out)


def count_table(
    table: dict[str, Any], key: str, where: str, minimum: int = 1, maximum: int = MAX_NUMBER
) -> dict[int, int]:
    raw = get_field(table, key, where)
    if not isinstance(raw, dict) or not raw:
        raise ComponentError(f"{where}.{key}: expected a table of player count = number")
    out: dict[int, int] = {}
    for count, _ in raw.items():
        try:
            players = int(count)
        except ValueError:
            raise ComponentError(f"{where}.{key}.{count}: key must be a player count") from None
        out[players] = int_field(raw, count, f"{where}.{key}", minimum, maximum)
    return out
