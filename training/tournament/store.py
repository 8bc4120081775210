"""The SQLite results file of a tournament: :class:`ResultStore`.

Schema (version :data:`SCHEMA_VERSION`)::

    meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)
        'schema'     -> '1'
        'definition' -> JSON of the TournamentDefinition (specs, players, games, seed, game options, time limit)
        'created'    -> UTC time, ISO 8601
    games(game_id INTEGER PRIMARY KEY, deal INTEGER NOT NULL, seed INTEGER NOT NULL,
          seating TEXT NOT NULL,   -- JSON list of specs by seat
          forfeit TEXT,            -- forfeit reason, or NULL
          record TEXT NOT NULL,    -- JSON of the GameRecord
          written TEXT NOT NULL)   -- UTC time, ISO 8601

Each game is committed on its own (WAL journal), so a killed tournament loses
no finished game and a half-written one never exists; a game id is stored at
most once. A file holding another tournament, or no tournament, is refused
with :class:`StoreError` and left unchanged.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from training.tournament.records import GameRecord
from training.tournament.schedule import TournamentError

SCHEMA_VERSION = 1
_HEADER = b"SQLite format 3\x00"
_CREATE = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE games (game_id INTEGER PRIMARY KEY, deal INTEGER NOT NULL, seed INTEGER NOT NULL, "
    "seating TEXT NOT NULL, forfeit TEXT, record TEXT NOT NULL, written TEXT NOT NULL)",
)


class StoreError(TournamentError):
    """The results file cannot be used; the message names the file and the problem."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _check_header(path: Path) -> None:
    with path.open("rb") as fh:
        head = fh.read(len(_HEADER))
    if head and head != _HEADER:
        raise StoreError(f"{path} is not a tournament results file: not an SQLite database")


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    keys = sorted(set(stored) | set(wanted))
    return [
        f"{k}: {wanted.get(k)!r} here, {stored.get(k)!r} in the file" for k in keys if stored.get(k) != wanted.get(k)
    ]


class ResultStore:
    """A tournament's results file.

    ``ResultStore(path, definition)`` creates the file for ``definition`` (a
    JSON-ready dict) or opens it if it holds the same definition;
    ``ResultStore(path)`` opens an existing file whatever it holds. Raises
    :class:`StoreError` otherwise. Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | Path, definition: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        exists = self.path.exists() and self.path.stat().st_size > 0
        if not exists and definition is None:
            raise StoreError(f"{self.path}: no such results file")
        if exists:
            _check_header(self.path)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            self.definition = self._read_meta() if exists else self._create(definition or {})
            if definition is not None:
                self._require(definition)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{self.path} is not a tournament results file: {exc}") from None
        except BaseException:
            self._db.close()
            raise

    # -- opening ----------------------------------------------------------------

    def _read_meta(self) -> dict[str, Any]:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"meta", "games"} <= tables:
            raise StoreError(f"{self.path} is not a tournament results file: it has no tournament tables")
        meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("schema") != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path}: results schema {meta.get('schema')!r}, this version reads {SCHEMA_VERSION}")
        try:
            definition = json.loads(meta["definition"])
        except (KeyError, ValueError):
            raise StoreError(f"{self.path} is not a tournament results file: no readable definition") from None
        if not isinstance(definition, dict):
            raise StoreError(f"{self.path} is not a tournament results file: bad definition {definition!r:.100}")
        return definition

    def _create(self, definition: dict[str, Any]) -> dict[str, Any]:
        text = json.dumps(definition, sort_keys=True)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _CREATE:
                self._db.execute(statement)
            self._db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [("schema", str(SCHEMA_VERSION)), ("definition", text), ("created", _now())],
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return json.loads(text)  # type: ignore[no-any-return]

    def _require(self, definition: dict[str, Any]) -> None:
        wanted = json.loads(json.dumps(definition, sort_keys=True))
        diffs = _differences(self.definition, wanted)
        if diffs:
            raise StoreError(
                f"{self.path} holds another tournament ({'; '.join(diffs)}); "
                "rerun with the same options to resume it, or choose another results file"
            )

    # -- games --------------------------------------------------------------------

    def add(self, record: GameRecord) -> bool:
        """Store ``record`` at once (its own transaction); ``False`` if its game id is already stored."""
        forfeit = record.forfeit.reason if record.forfeit else None
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO games (game_id, deal, seed, seating, forfeit, record, written) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                record.game_id,
                record.deal,
                record.seed,
                json.dumps(list(record.seating)),
                forfeit,
                json.dumps(record.to_dict(), separators=(",", ":")),
                _now(),
            ),
        )
        return cursor.rowcount == 1

    def done_ids(self) -> set[int]:
        """The game ids stored."""
        return {row[0] for row in self._db.execute("SELECT game_id FROM games")}

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def records(self) -> list[GameRecord]:
        """Every stored game, by game id."""
        rows = self._db.execute("SELECT record FROM games ORDER BY game_id")
        return [GameRecord.from_dict(json.loads(row[0])) for row in rows]

    def record(self, game_id: int) -> GameRecord:
        """The stored game ``game_id``; ``KeyError`` naming the id and file if it is not stored."""
        row = self._db.execute("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"game {game_id} is not in {self.path}")
        return GameRecord.from_dict(json.loads(row[0]))

    # -- closing ------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
