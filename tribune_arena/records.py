"""One finished tournament game: :class:`GameRecord` (the unit stored, rated and replayed)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

from tribune_env.data import Components
from tribune_env.engine.config import GameConfig, RuleSet, config_from_dict

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Invisible marks that reorder the text shown around them (they could make a name read as something else)."""


def _unsafe(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS


def printable(text: object) -> str:
    """``text`` safe to print to a terminal, one line: every control character (C0 with tab and newline, DEL,
    C1; so every escape sequence's ESC or CSI), line and paragraph separators and bidirectional marks are
    shown as Python escapes (``\\x1b``, ``\\n``, ``\\u202e``); everything else is kept as it is.

    For strings read from results files (seating names, forfeit messages and reasons) before they are printed.
    """
    value = str(text)
    if not any(_unsafe(c) for c in value):
        return value
    return "".join(ascii(c)[1:-1] if _unsafe(c) else c for c in value)


#: ``crashed``: the agent's process died in one of its calls (``os._exit``, a signal, a crash in native code);
#: ``resigned``: the person gave the game up in ``tribune serve``
FORFEIT_REASONS = ("raised", "illegal", "timeout", "crashed", "resigned")


@dataclass(frozen=True)
class SeatTiming:
    """Time an agent spent deciding in one game: number of decisions, total and longest (seconds)."""

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.moves if self.moves else 0.0


@dataclass(frozen=True)
class Forfeit:
    """A seat that lost the game by forfeit: ``reason`` is one of :data:`FORFEIT_REASONS`."""

    seat: int
    reason: str
    message: str


_RAISED_AT = re.compile(r" \(at ([^()\n]*:\d+ in [^()\n]*)\)")
"""Where an agent's exception was raised, as a forfeit message ends (``(at FILE:LINE in NAME)``)."""


def forfeit_headline(message: str) -> tuple[str, str]:
    """A forfeit message as its headline for a person (``act() raised RuntimeError: boom``) and, apart, where the
    agent's exception was raised, for its developer (``/home/x/mybot.py:12 in act``; '' when the message does not
    say)."""
    found = _RAISED_AT.search(message)
    if found is None:
        return message, ""
    return (message[: found.start()] + message[found.end() :]).strip(), found[1]


@dataclass(frozen=True)
class GameRecord:
    """Everything about one played game.

    ``seating[s]`` is the agent spec in seat ``s``. ``actions`` are the
    engine's action texts (:mod:`tribune_env.engine.notation`) of every
    decision the agents made, in order; with ``config`` (the game's options as
    :func:`~tribune_env.engine.config.config_from_dict` reads them: the public
    dictionary form, or :class:`~tribune_env.engine.config.GameConfig`'s keyword
    options without the components, as tournaments store them) and ``seed``
    they replay the game exactly (:meth:`game_config`). ``ranks`` are 1 for the best; ties
    share a rank. A forfeited game stops at the forfeit: the forfeiting seat
    ranks last and cannot win; the others are ranked by their scores then.
    """

    game_id: int
    deal: int
    seed: int
    seating: tuple[str, ...]
    config: dict[str, Any]
    actions: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    decisions: int
    truncated: bool
    timings: tuple[SeatTiming, ...]
    forfeit: Forfeit | None = None
    seconds: float = 0.0
    agent_seeds: tuple[int, ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.seating)

    def game_config(self, components: Components | None = None) -> GameConfig:
        """The game played (:func:`~tribune_env.engine.config.config_from_dict` of ``config``, with ``components``,
        default the packaged ones); ValueError names a bad option."""
        return config_from_dict(self.config, components)

    @property
    def rules(self) -> RuleSet:
        """The rule set ``config`` names (by its ``expansion`` and ``brutii`` flags; the Brutii implies the
        expansion), read without checking the other options."""
        return RuleSet.of(self.config.get("expansion") is True, self.config.get("brutii") is True)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict` (JSON round trip)."""
        forfeit = doc.get("forfeit")
        return cls(
            game_id=int(doc["game_id"]),
            deal=int(doc["deal"]),
            seed=int(doc["seed"]),
            seating=tuple(doc["seating"]),
            config=dict(doc["config"]),
            actions=tuple(doc["actions"]),
            scores=tuple(doc["scores"]),
            ranks=tuple(doc["ranks"]),
            winners=tuple(doc["winners"]),
            rounds=int(doc["rounds"]),
            decisions=int(doc["decisions"]),
            truncated=bool(doc["truncated"]),
            timings=tuple(SeatTiming(**t) for t in doc["timings"]),
            forfeit=Forfeit(**forfeit) if forfeit else None,
            seconds=float(doc.get("seconds", 0.0)),
            agent_seeds=tuple(doc.get("agent_seeds", ())),
        )
