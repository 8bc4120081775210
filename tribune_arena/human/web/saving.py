"""Where ``tribune serve`` saves finished games: :class:`SaveDir`, one results file per rule set."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from tribune_arena.records import GameRecord
from tribune_arena.tournament.store import ResultStore
from tribune_env.engine.config import RuleSet


class SaveDir:
    """Where finished games go: one results file per rule set in ``path`` (created when first needed)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def file(self, rules: str) -> Path:
        return self.path / f"tribune-serve-{rules}.sqlite"

    def save(self, rules: str, record: GameRecord) -> tuple[Path, int]:
        """Store ``record`` under the next free game id of its rule set's file; returns the file and the id."""
        rule_set = RuleSet.parse(rules)
        definition = {"source": "tribune serve", "expansion": rule_set.uses_expansion, "brutii": rule_set.has_brutii}
        path = self.file(rules)
        with self._lock, ResultStore(path, definition) as store:
            while True:
                game_id = max(store.done_ids(), default=-1) + 1
                numbered = replace(record, game_id=game_id)
                if store.add(numbered):
                    return path, game_id
