"""The SQLite results file of a tournament: :class:`ResultStore`.

Schema (version :data:`SCHEMA_VERSION`)::

    meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)
        'schema'     -> '1'
        'definition' -> JSON of the TournamentDefinition (specs, players, games, seed, game options, time limit;
                        'expansion': true in an expansion tournament, absent in a base one; 'brutii': true in
                        a Brutii tournament, absent otherwise; 'components': the name, sha256 and TOML text of
                        a component set other than the packaged one, absent with the packaged set: the file's games
                        are checked and replayed with it)
        'created'    -> UTC time, ISO 8601
        'rules'      -> 'base', 'expansion' or 'brutii' (the expansion with the Brutii variant): the rule set
                        of every game (a file written before the expansion existed has no such row: it holds
                        base games)
    games(game_id INTEGER PRIMARY KEY, deal INTEGER NOT NULL, seed INTEGER NOT NULL,
          seating TEXT NOT NULL,   -- JSON list of specs by seat
          forfeit TEXT,            -- forfeit reason, or NULL
          record TEXT NOT NULL,    -- JSON of the GameRecord
          written TEXT NOT NULL)   -- UTC time, ISO 8601

Each game is committed on its own (WAL journal), so a killed tournament loses
no finished game and a half-written one never exists; a game id is stored at
most once. A file holding another tournament, or no tournament, is refused
with :class:`StoreError` and left unchanged; so is one whose games are of
another rule set (base games resumed as an expansion tournament, expansion games
as a Brutii one, or the reverse), with a message that says which rule set the
file holds.

Every stored game is checked when it is read (:meth:`ResultStore.games`): a
row that cannot be read (damaged pages, a record that is not JSON or lacks
keys), that disagrees with its own columns or with the tournament's schedule
(a game id, deal, seed or seating the schedule does not have), or whose
scores, ranks and winners are not what replaying its seed and actions through
the engine gives, is reported by game id. Resuming (opening with a
definition) refuses a file holding any such game, and names it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from agents.base import AgentError
from tribune_arena.records import Forfeit, GameRecord
from tribune_arena.tournament.schedule import ComponentFile, ScheduledGame, TournamentDefinition, TournamentError
from tribune_env.data import Components
from tribune_env.engine.config import RuleSet, config_from_dict
from tribune_env.engine.game import Game
from tribune_env.engine.notation import parse_action

SCHEMA_VERSION = 1
_HEADER = b"SQLite format 3\x00"
_CREATE = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE games (game_id INTEGER PRIMARY KEY, deal INTEGER NOT NULL, seed INTEGER NOT NULL, "
    "seating TEXT NOT NULL, forfeit TEXT, record TEXT NOT NULL, written TEXT NOT NULL)",
)
_ROW = "SELECT deal, seed, seating, forfeit, record FROM games WHERE game_id = ?"


class StoreError(TournamentError):
    """The results file cannot be used; the message names the file, the game if one is at fault, and the problem."""


@dataclass(frozen=True)
class StoredGame:
    """One stored game: its record, or ``problem`` (why it cannot be used) and ``record`` ``None``."""

    game_id: int
    record: GameRecord | None
    problem: str | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _check_header(path: Path) -> None:
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a tournament results file")
    try:
        with path.open("rb") as fh:
            head = fh.read(len(_HEADER))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the results file: {exc.strerror or exc}") from None
    if head and head != _HEADER:
        raise StoreError(f"{path} is not a tournament results file: not an SQLite database")


def _rules_of(definition: dict[str, Any]) -> RuleSet:
    """The rule set of a stored definition: ``brutii`` when it says ``"brutii": true``, else ``expansion`` only
    when it says ``"expansion": true``."""
    return RuleSet.of(definition.get("expansion") is True, definition.get("brutii") is True)


def _without_base_flag(definition: dict[str, Any]) -> dict[str, Any]:
    """``definition`` without an ``"expansion": false`` or ``"brutii": false`` (the same tournament as none, see
    ``to_dict``)."""
    return {k: v for k, v in definition.items() if not (k in ("expansion", "brutii") and v is False)}


_RERUN = {
    RuleSet.BASE: "without --expansion",
    RuleSet.EXPANSION: "with --expansion",
    RuleSet.BRUTII: "with --expansion --brutii",
}


def _rerun(held: RuleSet, wanted: RuleSet) -> str:
    """How to rerun a tournament to resume a file of ``held`` games when ``wanted`` ones were asked for."""
    if wanted.has_brutii:
        return f"{_RERUN[held]} and without --brutii"
    return _RERUN[held]


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    keys = sorted(set(stored) | set(wanted))
    return [
        f"{k}: {wanted.get(k)!r:.200} here, {stored.get(k)!r:.200} in the file"
        for k in keys
        if stored.get(k) != wanted.get(k)
    ]


def _components(definition: dict[str, Any]) -> Components | None:
    """The component set a stored definition names (its ``components``: :class:`ComponentFile`), ``None`` for
    the packaged set (or a ``components`` that is not one: its games then do not replay)."""
    stored = definition.get("components")
    if stored is None:
        return None
    try:
        return ComponentFile.from_dict(stored).components
    except ValueError:
        return None


def _schedule(definition: dict[str, Any]) -> tuple[dict[int, ScheduledGame], dict[str, Any]] | None:
    """The scheduled games by id and the game options of a stored definition; ``None`` if it is no tournament's."""
    try:
        parsed = TournamentDefinition.from_dict(definition)
        return {g.game_id: g for g in parsed.schedule()}, parsed.options()
    except (TypeError, ValueError, KeyError, AgentError):
        return None


# -- checking one record ---------------------------------------------------------------


def _decode(game_id: int, text: object) -> GameRecord:
    """The record of a row; ``ValueError`` saying what is wrong with it."""
    if not isinstance(text, str):
        raise ValueError(f"record is not text but {type(text).__name__}")
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"record is not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise ValueError(f"record is not a JSON object but {type(doc).__name__}")
    try:
        record = GameRecord.from_dict(doc)
    except KeyError as exc:
        raise ValueError(f"record lacks the key {exc.args[0]!r}") from None
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise ValueError(f"record has a bad value ({type(exc).__name__}: {exc})") from None
    _check_shape(record)
    if record.game_id != game_id:
        raise ValueError(f"record says game {record.game_id}")
    return record


def _ints(values: tuple[Any, ...], low: int, high: int) -> bool:
    return all(type(v) is int and low <= v <= high for v in values)


def _check_shape(record: GameRecord) -> None:
    """Types and sizes of the fields, so that every record read can be listed, summarized and replayed."""
    n = len(record.seating)
    if not 1 <= n <= 8 or not all(isinstance(s, str) for s in record.seating):
        raise ValueError(f"record has a bad seating {list(record.seating)!r:.200}")
    if len(record.scores) != n or not _ints(record.scores, -(10**6), 10**6):
        raise ValueError(f"record has bad scores {list(record.scores)!r:.200}")
    if len(record.ranks) != n or not _ints(record.ranks, 1, n):
        raise ValueError(f"record has bad ranks {list(record.ranks)!r:.200}")
    if not _ints(record.winners, 0, n - 1):
        raise ValueError(f"record has bad winners {list(record.winners)!r:.200}")
    if not all(isinstance(a, str) for a in record.actions) or record.decisions != len(record.actions):
        raise ValueError(f"record has {record.decisions} decisions but {len(record.actions)} action texts")
    if len(record.timings) > n:
        raise ValueError(f"record has timings for {len(record.timings)} seats at a {n}-player table")
    f = record.forfeit
    if f is not None and not (type(f.seat) is int and 0 <= f.seat < n and isinstance(f.reason, str)):
        raise ValueError(f"record has a bad forfeit {f!r:.200}")


def _check_row(record: GameRecord, deal: object, seed: object, seating: object, forfeit: object) -> None:
    """The row's own columns against its record (a hand edit of one of them)."""
    columns: dict[str, tuple[object, object]] = {
        "deal": (deal, record.deal),
        "seed": (seed, record.seed),
        "forfeit": (forfeit, _reason(record.forfeit)),
    }
    try:
        columns["seating"] = (json.loads(str(seating)), list(record.seating))
    except ValueError:
        columns["seating"] = (seating, list(record.seating))
    for name, (column, value) in columns.items():
        if column != value:
            raise ValueError(f"column {name} {column!r:.100} differs from the record's {value!r:.100}")


def _reason(forfeit: Forfeit | None) -> str | None:
    return forfeit.reason if forfeit else None


def _check_scheduled(
    record: GameRecord, schedule: dict[int, ScheduledGame], options: dict[str, Any], components: Components | None
) -> None:
    """The record against the game the tournament's schedule has under its id (``components``: the games' set)."""
    game = schedule.get(record.game_id)
    if game is None:
        raise ValueError(f"not a game of this tournament (its schedule has game ids 0 to {len(schedule) - 1})")
    wanted = {"deal": game.deal, "seed": game.seed, "seating": game.seating, "config": options}
    stored = {"deal": record.deal, "seed": record.seed, "seating": record.seating, "config": record.config}
    for name, value in wanted.items():
        if stored[name] != value and not (name == "config" and _same_game(record.config, options, components)):
            raise ValueError(f"not the scheduled game: {name} {stored[name]!r:.100}, the schedule has {value!r:.100}")
    if record.agent_seeds and record.agent_seeds != game.agent_seeds:
        raise ValueError("not the scheduled game: other agent seeds")


def _same_game(stored: dict[str, Any], scheduled: dict[str, Any], components: Components | None = None) -> bool:
    """Whether two dictionary forms of game options (:func:`config_from_dict`, with ``components``) make the same
    game (a record written in another form of the same options is the scheduled game)."""
    try:
        return config_from_dict(stored, components) == config_from_dict(scheduled, components)
    except ValueError:
        return False


def expected_outcome(game: Game, forfeit: Forfeit | None) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """``(scores, ranks, winners)`` of a replayed game: the engine's, or after a forfeit the others by score."""
    scores = tuple(game.scores())
    if forfeit is None:
        return scores, tuple(game.ranks()), tuple(game.winners)
    n = len(scores)
    others = [s for s in range(n) if s != forfeit.seat]
    ranks = tuple(n if s == forfeit.seat else 1 + sum(scores[o] > scores[s] for o in others) for s in range(n))
    best = max(scores[o] for o in others) if others else 0
    return scores, ranks, tuple(o for o in others if scores[o] == best)


def replay_problem(record: GameRecord, components: Components | None = None) -> str | None:
    """Why ``record`` is not what replaying its seed and actions through the engine (with ``components``, default
    the packaged set) gives; ``None`` if it is."""
    try:
        game = Game.new(record.game_config(components), seed=record.seed)
        for number, text in enumerate(record.actions, 1):
            if game.is_over:
                return f"the game is over after decision {number - 1} but {len(record.actions)} are stored"
            game.apply(parse_action(text))
    except Exception as exc:  # any failure of a hand-edited config or action is a record that does not replay
        return f"does not replay ({type(exc).__name__}: {exc!s:.200})"
    if game.is_over == (record.forfeit is not None):
        return "the stored actions end before the game does" if record.forfeit is None else "forfeited a finished game"
    scores, ranks, winners = expected_outcome(game, record.forfeit)
    found = {
        "scores": scores,
        "ranks": ranks,
        "winners": winners,
        "rounds": game.round,
        "truncated": record.forfeit is None and game.truncated,
    }
    stored = {
        "scores": record.scores,
        "ranks": record.ranks,
        "winners": record.winners,
        "rounds": record.rounds,
        "truncated": record.truncated,
    }
    for name, value in found.items():
        if stored[name] != value:
            return f"stored {name} {_show(stored[name])} differ from the replayed {_show(value)}"
    return None


def _show(value: object) -> str:
    return str(list(value)) if isinstance(value, tuple) else str(value)


class ResultStore:
    """A tournament's results file.

    ``ResultStore(path, definition)`` creates the file for ``definition`` (a
    JSON-ready dict) or opens it if it holds the same definition and every
    stored game checks out (see the module docstring); ``ResultStore(path)``
    opens an existing file whatever it holds, without changing it. Raises
    :class:`StoreError` otherwise. Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: str | Path, definition: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        exists = self.path.exists() and (self.path.is_dir() or self.path.stat().st_size > 0)
        if not exists and definition is None:
            raise StoreError(f"{self.path}: no such results file")
        if exists:
            _check_header(self.path)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the results file: {exc}") from None
        self.rules = RuleSet.BASE  # set from the file by _read_meta / _create
        try:
            self.definition = self._read_meta() if exists else self._create(definition or {})
            self.components = _components(self.definition)  # the games' component set; None: the packaged one
            self._schedule = _schedule(self.definition)
            if definition is not None:
                self._require(definition)
                if exists:
                    self.verify()
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
        except (KeyError, ValueError, TypeError):
            raise StoreError(f"{self.path} is not a tournament results file: no readable definition") from None
        if not isinstance(definition, dict):
            raise StoreError(f"{self.path} is not a tournament results file: bad definition {definition!r:.100}")
        try:
            rules = RuleSet.parse(meta.get("rules", RuleSet.BASE.value))  # written before the expansion: base games
        except ValueError:
            raise StoreError(
                f"{self.path} is not a tournament results file: unknown rule set {meta.get('rules')!r:.100}"
            ) from None
        if rules != _rules_of(definition):
            raise StoreError(
                f"{self.path} is not a tournament results file: its rule set row says {rules} games but its "
                f"definition {_rules_of(definition)} games"
            )
        self.rules = rules
        return definition

    def _create(self, definition: dict[str, Any]) -> dict[str, Any]:
        definition = _without_base_flag(definition)
        text = json.dumps(definition, sort_keys=True)
        self.rules = _rules_of(definition)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _CREATE:
                self._db.execute(statement)
            self._db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("schema", str(SCHEMA_VERSION)),
                    ("definition", text),
                    ("created", _now()),
                    ("rules", self.rules.value),
                ],
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return json.loads(text)  # type: ignore[no-any-return]

    @property
    def expansion(self) -> bool:
        """Whether the file holds expansion games, with the Brutii or not (its ``rules`` row)."""
        return self.rules.uses_expansion

    @property
    def brutii(self) -> bool:
        """Whether the file holds Brutii games (its ``rules`` row)."""
        return self.rules.has_brutii

    def _require(self, definition: dict[str, Any]) -> None:
        wanted = _without_base_flag(json.loads(json.dumps(definition, sort_keys=True)))
        if _rules_of(wanted) != self.rules:
            rerun = _rerun(self.rules, _rules_of(wanted))
            raise StoreError(
                f"{self.path} holds {self.rules} games, not {_rules_of(wanted)} games; rerun {rerun} to resume it, "
                "or choose another results file"
            )
        diffs = _differences(self.definition, wanted)
        if diffs:
            raise StoreError(
                f"{self.path} holds another tournament ({'; '.join(diffs)}); "
                "rerun with the same options to resume it, or choose another results file"
            )

    def verify(self) -> None:
        """Raise :class:`StoreError` naming the first stored game that cannot be trusted (replays every game)."""
        bad = [game for game in self.games(replay=True) if game.problem is not None]
        if not bad:
            bad_pages = self._quick_check()
            if bad_pages:
                raise StoreError(
                    f"{self.path}: the SQLite file is damaged ({bad_pages}); it is not resumed, "
                    "and left unchanged: move it aside to play the tournament again"
                )
            return
        first = bad[0]
        raise StoreError(
            f"{self.path}: game {first.game_id}: {first.problem}; {len(bad)} stored game(s) cannot be trusted, so "
            "the file is not resumed, and left unchanged: move it aside to play the tournament again"
        )

    def _quick_check(self) -> str:
        try:
            rows = self._db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            return str(exc)
        lines = [str(row[0]) for row in rows]
        return "" if lines == ["ok"] else lines[0][:200]

    # -- games --------------------------------------------------------------------

    def add(self, record: GameRecord) -> bool:
        """Store ``record`` at once (its own transaction); ``False`` if its game id is already stored."""
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO games (game_id, deal, seed, seating, forfeit, record, written) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                record.game_id,
                record.deal,
                record.seed,
                json.dumps(list(record.seating)),
                _reason(record.forfeit),
                json.dumps(record.to_dict(), separators=(",", ":")),
                _now(),
            ),
        )
        return cursor.rowcount == 1

    def _damaged(self, exc: sqlite3.Error) -> StoreError:
        return StoreError(f"{self.path}: the SQLite file is damaged, its list of games cannot be read: {exc}")

    def done_ids(self) -> set[int]:
        """The game ids stored."""
        try:
            return {row[0] for row in self._db.execute("SELECT game_id FROM games")}
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None

    def __len__(self) -> int:
        return len(self.done_ids())

    def _ids(self) -> list[int]:
        """The stored game ids; where the list is damaged, the scheduled ids (each is then looked up alone)."""
        try:
            return sorted(self.done_ids())
        except StoreError:
            if self._schedule is None:
                raise
            return sorted(self._schedule[0])

    def _game(self, game_id: int, replay: bool) -> StoredGame | None:
        """Game ``game_id`` read and checked; ``None`` if it is not stored."""
        try:
            row = self._db.execute(_ROW, (game_id,)).fetchone()
        except sqlite3.DatabaseError as exc:
            detail = str(exc).split(" with text ")[0][:120]  # SQLite quotes the damaged bytes after this
            return StoredGame(game_id, None, f"cannot be read, the SQLite file is damaged ({detail})")
        if row is None:
            return None
        deal, seed, seating, forfeit, text = row
        try:
            record = _decode(game_id, text)
            _check_row(record, deal, seed, seating, forfeit)
            if self._schedule is not None:
                _check_scheduled(record, *self._schedule, self.components)
        except ValueError as exc:
            return StoredGame(game_id, None, str(exc))
        problem = replay_problem(record, self.components) if replay else None
        return StoredGame(game_id, None if problem else record, problem)

    def games(self, replay: bool = True) -> list[StoredGame]:
        """Every stored game by id, each with its record or its problem (``replay``: also replay it)."""
        found = (self._game(game_id, replay) for game_id in self._ids())
        return [game for game in found if game is not None]

    def _usable(self, game: StoredGame) -> GameRecord:
        if game.record is None:
            raise StoreError(f"{self.path}: game {game.game_id}: {game.problem}")
        return game.record

    def records(self) -> list[GameRecord]:
        """Every stored game, by game id; :class:`StoreError` naming the first one that cannot be used."""
        return [self._usable(game) for game in self.games(replay=False)]

    def record(self, game_id: int) -> GameRecord:
        """The stored game ``game_id``, checked as :meth:`games` checks it (replayed: a record whose stored outcome
        or forfeit the replay does not give is unusable, as ``--list`` marks it); ``KeyError`` naming the id and
        file if it is not stored, :class:`StoreError` naming them and the problem if it cannot be used."""
        game = self._game(game_id, replay=True)
        if game is None:
            raise KeyError(f"game {game_id} is not in {self.path}")
        return self._usable(game)

    # -- closing ------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
