"""The games of ``tribune serve`` in SQLite: :class:`GameStore`, one file in the save directory (:data:`GAMES_FILE`).

Schema (version :data:`SCHEMA_VERSION`; a version-1 file gains the three last columns of ``games`` when opened)::

    meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)      -- 'schema' -> '2'
    games(id TEXT PRIMARY KEY,       -- the game's id in the API
          status TEXT NOT NULL,      -- playing | over | resigned | abandoned
          created REAL, updated REAL,-- Unix times
          rules TEXT NOT NULL,       -- base | expansion | brutii
          config TEXT NOT NULL,      -- the options, JSON in config_to_dict's form
          seed INTEGER NOT NULL,     -- the game's seed (agent seeds derive from it)
          seat INTEGER NOT NULL,     -- the person's seat
          seating TEXT NOT NULL,     -- JSON list: "human" in the person's seat, an agent spec in every other
          modules TEXT NOT NULL,     -- JSON list of the modules that register those agents
          steps INTEGER NOT NULL,    -- actions played
          round INTEGER NOT NULL,    -- the round after the last action
          saved TEXT,                -- JSON {"path", "game_id", "replay"} once the record is in a results file
                                     -- ("pending": true while it is being saved under that game_id)
          humans TEXT,               -- JSON list of the seats people play (NULL: [seat])
          keys TEXT,                 -- JSON {seat: SHA-256 of the seat's key} (NULL: none, the server's key acts)
          ended_by INTEGER)          -- the seat that resigned or abandoned the game
    people(game TEXT, seat INTEGER,  -- PRIMARY KEY (game, seat): the name a seat's person gave, once
           name TEXT NOT NULL)       -- (added without a new schema version: created when missing)
    moves(game TEXT, step INTEGER,   -- PRIMARY KEY (game, step); step counts from 0
          seat INTEGER NOT NULL,     -- who played it
          action TEXT NOT NULL,      -- the engine's action text (tribune_env.engine.notation)
          seconds REAL NOT NULL,     -- decision time
          note TEXT)                 -- what went wrong with a bot's move (its fallback, as shown to the person)

The file is created readable by its owner only (``0600``; SQLite gives its ``-wal`` and ``-shm`` files the same
mode): it holds the seeds of unfinished games, which deal every hidden hand (issue 42, W12).

What is stored is the game's *definition and action list*, not its document: a move is one short row, written and
committed on its own as soon as it is applied (WAL journal), so a server killed at any moment loses at most the
action being applied; a game is restored by replaying its actions from the seed, which rebuilds the game exactly,
its event log included (the page's log and "since your last decision"). A second server on the same directory is
refused (an exclusive ``flock`` on :data:`LOCK_FILE`, which the kernel drops when the process dies).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

GAMES_FILE = "tribune-serve-games.db"
LOCK_FILE = "tribune-serve.lock"
SCHEMA_VERSION = 2
PLAYING, OVER, RESIGNED, ABANDONED = "playing", "over", "resigned", "abandoned"
STATUSES = (PLAYING, OVER, RESIGNED, ABANDONED)
_CREATE = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, status TEXT NOT NULL, created REAL NOT NULL, "
    "updated REAL NOT NULL, rules TEXT NOT NULL, config TEXT NOT NULL, seed INTEGER NOT NULL, seat INTEGER NOT NULL, "
    "seating TEXT NOT NULL, modules TEXT NOT NULL, steps INTEGER NOT NULL, round INTEGER NOT NULL, saved TEXT, "
    "humans TEXT, keys TEXT, ended_by INTEGER)",
    "CREATE TABLE IF NOT EXISTS moves (game TEXT NOT NULL REFERENCES games(id), step INTEGER NOT NULL, "
    "seat INTEGER NOT NULL, action TEXT NOT NULL, seconds REAL NOT NULL, note TEXT, PRIMARY KEY (game, step)) "
    "WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS games_by_status ON games (status, updated)",
    "CREATE TABLE IF NOT EXISTS people (game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, "
    "name TEXT NOT NULL, PRIMARY KEY (game, seat)) WITHOUT ROWID",
)
_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
"""SQLite's result codes for a database another connection holds (its extended codes carry these in the low byte)."""
_COLUMNS = (
    "id, status, created, updated, rules, config, seed, seat, seating, modules, steps, round, saved, humans, keys, "
    "ended_by"
)
_ADDED = (("humans", "TEXT"), ("keys", "TEXT"), ("ended_by", "INTEGER"))
"""The columns schema 2 added to ``games``."""


def key_hash(key: str) -> str:
    """What the database keeps of a seat's key (its SHA-256, hex): the key itself is in the seat's link only."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class StoreError(Exception):
    """The games database cannot be opened or written; the message names the file and the problem."""


@dataclass(frozen=True)
class StoredMove:
    """One action of a stored game."""

    step: int
    seat: int
    action: str
    seconds: float
    note: str | None = None


@dataclass(frozen=True)
class StoredGame:
    """A game's row (``moves`` only when read with :meth:`GameStore.game`)."""

    id: str
    status: str
    created: float
    updated: float
    rules: str
    config: dict[str, Any]
    seed: int
    seat: int
    seating: tuple[str, ...]
    modules: tuple[str, ...]
    steps: int
    round: int
    saved: dict[str, Any] | None
    humans: tuple[int, ...] = ()
    keys: dict[int, str] = field(default_factory=dict)
    """Each human seat's key, hashed (:func:`key_hash`); a seat without one is played with the server's key."""
    ended_by: int | None = None
    moves: tuple[StoredMove, ...] = ()

    def summary(self) -> dict[str, Any]:
        """What the start page lists of an unfinished game."""
        return {
            "id": self.id,
            "rules": self.rules,
            "players": len(self.seating),
            "seat": self.seat,
            "humans": list(self.humans),
            "names": list(self.seating),
            "step": self.steps,
            "round": self.round,
            "created": self.created,
            "updated": self.updated,
        }


class DamagedRow(StoreError):
    """A row of the games table that this version cannot read (a column that is not the JSON it should be)."""


def _json(row: Sequence[Any], column: int, name: str, kind: type) -> Any:
    try:
        value = json.loads(row[column])
    except (TypeError, ValueError) as exc:
        raise DamagedRow(f"game {row[0]!r:.40}: its {name} is not JSON ({exc})") from None
    if not isinstance(value, kind):
        raise DamagedRow(f"game {row[0]!r:.40}: its {name} is not a JSON {kind.__name__}")
    return value


def _row(row: Sequence[Any]) -> StoredGame:
    """The game of a row; :class:`DamagedRow` names the column that cannot be read."""
    saved = _json(row, 12, "saved record", dict) if row[12] is not None else None
    humans = _json(row, 13, "humans", list) if row[13] is not None else [row[7]]
    keys = _json(row, 14, "keys", dict) if row[14] is not None else {}
    if not all(isinstance(s, int) for s in humans) or not all(isinstance(k, str) for k in keys.values()):
        raise DamagedRow(f"game {row[0]!r:.40}: its human seats or keys are not what they should be")
    seating = _json(row, 8, "seating", list)
    modules = _json(row, 9, "modules", list)
    if not all(isinstance(name, str) for name in (*seating, *modules)):
        raise DamagedRow(f"game {row[0]!r:.40}: its seating or modules are not lists of names")
    return StoredGame(
        id=row[0],
        status=row[1],
        created=row[2],
        updated=row[3],
        rules=row[4],
        config=_json(row, 5, "config", dict),
        seed=row[6],
        seat=row[7],
        seating=tuple(seating),
        modules=tuple(modules),
        steps=row[10],
        round=row[11],
        saved=saved,
        humans=tuple(humans),
        keys={int(s): k for s, k in keys.items()},
        ended_by=row[15],
    )


class GameStore:
    """The games database of one server: ``directory / GAMES_FILE`` (created when missing), or in memory when
    ``directory`` is ``None`` (games then live as long as the process). Thread-safe; every write is one committed
    transaction. ``synchronous``: SQLite's setting (``NORMAL``: a commit survives the process being killed, and
    the file stays consistent through a power cut; ``FULL``: a commit also survives a power cut, at an fsync per
    move). Raises :class:`StoreError` for a file that is not this database or one another server is using."""

    def __init__(self, directory: str | Path | None = None, synchronous: str = "NORMAL", timeout: float = 10.0) -> None:
        self.path = None if directory is None else Path(directory) / GAMES_FILE
        self.timeout = timeout
        self.damaged: dict[str, str] = {}
        """The rows :meth:`games` could not read (id: what is wrong), left out of its lists."""
        self._lock = threading.Lock()
        self._lock_fd = -1
        if self.path is not None:
            self._hold_directory(self.path.parent)
        try:
            self._db = self._open(synchronous)
        except BaseException:
            self._release_directory()
            raise

    def _hold_directory(self, directory: Path) -> None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"{directory}: cannot keep games there: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(
                f"{directory}: another `tribune serve` is using this save directory (it holds {LOCK_FILE}); "
                "stop it or choose another --save-dir"
            ) from None
        self._lock_fd = fd

    def _release_directory(self) -> None:
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # drops the flock
            self._lock_fd = -1

    def _open(self, synchronous: str) -> sqlite3.Connection:
        where = ":memory:" if self.path is None else str(self.path)
        if self.path is not None:
            _owner_only(self.path)
        try:
            db = sqlite3.connect(where, isolation_level=None, check_same_thread=False, timeout=self.timeout)
        except sqlite3.Error as exc:
            raise StoreError(f"{where}: cannot open the games database: {exc}") from None
        try:
            if self.path is not None:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={'FULL' if synchronous.upper() == 'FULL' else 'NORMAL'}")
            db.execute("PRAGMA foreign_keys=ON")
            with _transaction(db):
                for statement in _CREATE:
                    db.execute(statement)
                found = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                if found is not None and found[0] == "1":  # schema 1: the same with three columns fewer
                    for column, kind in _ADDED:
                        db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
                    db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
                elif found is None:
                    db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif found[0] != str(SCHEMA_VERSION):
                    version = found[0]
                    raise StoreError(
                        f"{where}: games database of schema {version}; this version reads {SCHEMA_VERSION}"
                    )
        except sqlite3.Error as exc:
            db.close()
            if getattr(exc, "sqlite_errorcode", -1) & 0xFF in _BUSY:
                raise StoreError(
                    f"{where}: the games database is locked by another process ({exc}); stop the program that holds "
                    "it or choose another --save-dir"
                ) from None
            raise StoreError(f"{where}: not a games database of tribune serve ({exc})") from None
        except BaseException:
            db.close()
            raise
        return db

    def close(self) -> None:
        """Close the database and let another server use the directory."""
        with self._lock:
            self._db.close()
            self._release_directory()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                with _transaction(self._db):
                    yield self._db
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path or 'the games database'}: {exc}") from None

    # -- writing ----------------------------------------------------------------------------

    def add_game(
        self,
        game_id: str,
        rules: str,
        config: dict[str, Any],
        seed: int,
        seat: int,
        seating: Sequence[str],
        modules: Sequence[str],
        humans: Sequence[int] | None = None,
        keys: dict[int, str] | None = None,
    ) -> None:
        """Store a new game (no move yet): ``humans`` (default ``[seat]``) are the seats people play, ``keys`` their
        keys' hashes (:func:`key_hash`)."""
        now = time.time()
        row = (game_id, PLAYING, now, now, rules, json.dumps(config), seed, seat, json.dumps(list(seating)))
        people = json.dumps(list(humans if humans is not None else [seat]))
        hashed = None if keys is None else json.dumps({str(s): k for s, k in keys.items()})
        with self._write() as db:
            db.execute(
                f"INSERT INTO games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, NULL, ?, ?, NULL)",
                (*row, json.dumps(list(modules)), people, hashed),
            )

    def add_move(self, game_id: str, move: StoredMove, round_: int) -> None:
        """Store the game's next move with its step counter and round, in one committed transaction: a process
        killed at any point stores both or neither, so the game's ``steps`` always equals its number of moves. A
        step already stored (another process playing the game), or a game that is not ``playing`` (ended, or not
        stored), is a :class:`StoreError`, and nothing is stored."""
        with self._write() as db:
            db.execute(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, move.step, move.seat, move.action, move.seconds, move.note),
            )
            cursor = db.execute(
                "UPDATE games SET steps = ?, round = ?, updated = ? WHERE id = ? AND status = ?",
                (move.step + 1, round_, time.time(), game_id, PLAYING),
            )
            if cursor.rowcount != 1:  # rolls the move back with the transaction
                raise StoreError(f"game {game_id!r:.40}: step {move.step} not stored, the game is not being played")

    def set_status(
        self, game_id: str, status: str, saved: dict[str, Any] | None = None, ended_by: int | None = None
    ) -> None:
        """Record how a game ended (``over``, ``resigned``, ``abandoned``; by which seat) and where its record was
        saved, in one transaction."""
        if status not in STATUSES:
            raise ValueError(f"status: expected one of {', '.join(STATUSES)}, got {status!r}")
        with self._write() as db:
            db.execute(
                "UPDATE games SET status = ?, saved = ?, updated = ?, ended_by = ? WHERE id = ?",
                (status, None if saved is None else json.dumps(saved), time.time(), ended_by, game_id),
            )

    def name_person(self, game_id: str, seat: int, name: str) -> bool:
        """Store the name ``seat``'s person gives in game ``game_id``, once: ``False`` (nothing changed) when that
        seat has one already."""
        with self._write() as db:
            cursor = db.execute("INSERT OR IGNORE INTO people VALUES (?, ?, ?)", (game_id, seat, name))
            return cursor.rowcount == 1

    # -- reading ----------------------------------------------------------------------------

    def people(self, game_id: str) -> dict[int, str]:
        """The names the people of game ``game_id`` gave (seat: name)."""
        with self._lock:
            rows = self._db.execute("SELECT seat, name FROM people WHERE game = ?", (game_id,)).fetchall()
        return {int(seat): str(name) for seat, name in rows}

    def game(self, game_id: str) -> StoredGame | None:
        """The game ``game_id`` with its moves, or ``None``."""
        with self._lock:
            row = self._db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            moves = self._db.execute(
                "SELECT step, seat, action, seconds, note FROM moves WHERE game = ? ORDER BY step", (game_id,)
            ).fetchall()
        return replace(_row(row), moves=tuple(StoredMove(*m) for m in moves))  # DamagedRow: a StoreError

    def games(self, status: str | None = None) -> list[StoredGame]:
        """The stored games (without their moves), the most recently played first; only those of ``status`` if
        given. A row that cannot be read is left out and named in :attr:`damaged`."""
        query = f"SELECT {_COLUMNS} FROM games"
        args: tuple[str, ...] = ()
        if status is not None:
            query, args = query + " WHERE status = ?", (status,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY updated DESC, id", args).fetchall()
        games = []
        for row in rows:
            try:
                games.append(_row(row))
            except DamagedRow as exc:
                self.damaged[row[0]] = str(exc)
        return games

    def unfinished(self) -> list[StoredGame]:
        """The games still being played, the most recently played first."""
        return self.games(PLAYING)


def _owner_only(path: Path) -> None:
    """Create the games database ``path`` readable by its owner only, or make it so (with SQLite's ``-wal`` and
    ``-shm`` files, of an earlier version): it holds the seeds of unfinished games. Failures are left to SQLite."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    for each in (path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")):
        with contextlib.suppress(OSError):
            os.chmod(each, 0o600)


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
