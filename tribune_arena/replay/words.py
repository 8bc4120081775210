"""The text of ``tribune log`` and ``tribune replay`` in a person's words: names, never internal ids (issue 38).

The engine's log lines and text board are written with ids (``vestals:6``, ``faction:gladiators:1``,
``field_of_mars``, ``pecunia``, ``card_placement``); the stored documents keep them, and the ``--json`` outputs
too. What these commands print for a person goes through :func:`tribune_arena.human.explain.person_text` (the same
words as terminal play and the browser), with the phase of each line (:func:`tribune_env.engine.names.phase_name`)
and the regions of the board named as printed.
"""

from __future__ import annotations

import re

from tribune_arena.human.explain import person_text
from tribune_env.engine.game import Game
from tribune_env.engine.names import REGION_NAMES, phase_name
from tribune_env.engine.state import Event

_BOARD_ROW = re.compile(r"^  ([a-z_]+) +(?=cards|followers)", re.M)
_FACTION_ROW = re.compile(r"^(  \S.*?) +(field \[.*)$")
_KEYS = {region.key: name for region, name in REGION_NAMES.items()}
_WIDTH = max(len(name) for name in REGION_NAMES.values()) + 2


def event_line(game: Game, event: Event) -> str:
    """One log line as printed under a round header: ``  [card placement] round 1 begins; ...``."""
    return f"  [{phase_name(event.phase)}] {person_text(game, event.text)}"


def round_header(round_number: int) -> str:
    """``--- round 3 ---``; round 0 is the set-up."""
    return f"--- round {round_number} ---" if round_number else "--- set-up ---"


def board_text(game: Game, seat: int | None = None) -> str:
    """The text board (:meth:`Game.render`, everything or what ``seat`` may know) with names for ids and the
    regions' names aligned."""

    def row(m: re.Match[str]) -> str:
        name = _KEYS.get(m[1])
        return f"  {name:<{_WIDTH}}" if name is not None else m[0]

    lines = person_text(game, _BOARD_ROW.sub(row, game.render(seat))).split("\n")
    fields = [m for line in lines if (m := _FACTION_ROW.match(line))]
    if fields:  # the factions' rows: their field columns aligned again after the cards were named
        width = max(len(m[1]) for m in fields)
        lines = [f"{m[1]:<{width}} {m[2]}" if (m := _FACTION_ROW.match(line)) else line for line in lines]
    return "\n".join(lines)
