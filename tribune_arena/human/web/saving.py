"""Where ``tribune serve`` saves finished games: :class:`SaveDir`, one results file per rule set.

A game's record is saved under a number chosen beforehand (:meth:`SaveDir.reserve`) and stored with the game's end
in the games database, so that saving it again (after the server died between the two) finds it there and does
not add it twice (:meth:`SaveDir.save_as`)."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from tribune_arena.records import GameRecord
from tribune_arena.tournament.store import ResultStore
from tribune_env.engine.config import RuleSet


def _same_game(a: GameRecord, b: GameRecord) -> bool:
    """Whether two records are of one game (its seed, seats, options and every action)."""
    return (a.seed, a.seating, a.config, a.actions) == (b.seed, b.seating, b.config, b.actions)


class SaveDir:
    """Where finished games go: one results file per rule set in ``path`` (created when first needed)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._reserved: dict[str, set[int]] = {}

    def file(self, rules: str) -> Path:
        return self.path / f"tribune-serve-{rules}.sqlite"

    def _open(self, rules: str) -> ResultStore:
        rule_set = RuleSet.parse(rules)
        definition = {"source": "tribune serve", "expansion": rule_set.uses_expansion, "brutii": rule_set.has_brutii}
        return ResultStore(self.file(rules), definition)

    def reserve(self, rules: str) -> tuple[Path, int]:
        """The results file of ``rules`` and a game number no other record has or is about to have."""
        with self._lock, self._open(rules) as store:
            taken = store.done_ids() | self._reserved.setdefault(rules, set())
            number = max(taken, default=-1) + 1
            self._reserved[rules].add(number)
            return self.file(rules), number

    def save_as(self, rules: str, record: GameRecord, number: int) -> tuple[Path, int]:
        """Store ``record`` as game ``number`` of its rule set's file; nothing if that game is this record already
        (an earlier try got this far); under the next free number if another game has it. Returns the file and
        the number it is stored under."""
        reserved = number
        with self._lock, self._open(rules) as store:
            try:
                while True:
                    numbered = replace(record, game_id=number)
                    if store.add(numbered):
                        return self.file(rules), number
                    try:
                        if _same_game(store.record(number), record):
                            return self.file(rules), number
                    except Exception:  # an unreadable record there is another game's
                        pass
                    number = max(store.done_ids() | self._reserved.get(rules, set())) + 1
            finally:
                self._reserved.get(rules, set()).discard(reserved)

    def save(self, rules: str, record: GameRecord) -> tuple[Path, int]:
        """Store ``record`` under the next free game id of its rule set's file; returns the file and the id."""
        return self.save_as(rules, record, self.reserve(rules)[1])
