"""The SQLite results file: write and reopen, no duplicates, refusing other tournaments and other files unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tribune_arena.records import GameRecord
from tribune_arena.supervision import close_agents
from tribune_arena.tournament.play import play_game
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_arena.tournament.store import ResultStore, StoreError

DEFINITION = TournamentDefinition.create(("random", "random", "random"), players=3, games=4, seed=2, round_limit=2)


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    try:
        return [play_game(g, DEFINITION.options(), None) for g in DEFINITION.schedule()]
    finally:
        close_agents()


def test_write_reopen_and_read_back(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "sub" / "results.sqlite"
    with ResultStore(path, DEFINITION.to_dict()) as store:
        assert store.done_ids() == set() and len(store) == 0
        for r in reversed(records):
            assert store.add(r)
    with ResultStore(path, DEFINITION.to_dict()) as store:
        assert store.done_ids() == {r.game_id for r in records}
        assert store.records() == records  # by game id, equal after the JSON round trip
        assert store.record(2) == records[2]
        assert store.definition == DEFINITION.to_dict()
    with ResultStore(path) as store:  # opened without a definition: whatever it holds
        assert len(store) == len(records)


def test_a_game_is_stored_once(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "r.sqlite"
    with ResultStore(path, DEFINITION.to_dict()) as store:
        assert store.add(records[0])
        assert not store.add(records[0])
        assert len(store) == 1
    rows = sqlite3.connect(path).execute("SELECT game_id, deal, seed, seating, forfeit FROM games").fetchall()
    r = records[0]
    assert rows == [(r.game_id, r.deal, r.seed, '["random", "random", "random"]', None)]


def test_missing_game_is_a_key_error(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "r.sqlite", DEFINITION.to_dict()) as store, pytest.raises(KeyError, match="game 5"):
        store.record(5)


def test_another_tournament_is_refused_and_the_file_unchanged(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "r.sqlite"
    with ResultStore(path, DEFINITION.to_dict()) as store:
        store.add(records[0])
    before = path.read_bytes()
    other = TournamentDefinition.create(("random", "random"), players=2, games=4, seed=2, round_limit=2)
    with pytest.raises(StoreError, match=r"holds another tournament \(players: 2 here, 3 in the file; specs: "):
        ResultStore(path, other.to_dict())
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_results_file_is_refused_unchanged(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("just some notes\n")
    with pytest.raises(StoreError, match=r"notes\.sqlite is not a tournament results file: not an SQLite database"):
        ResultStore(text, DEFINITION.to_dict())
    assert text.read_text() == "just some notes\n"

    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    before = other.read_bytes()
    with pytest.raises(
        StoreError, match=r"other\.sqlite is not a tournament results file: it has no tournament tables"
    ):
        ResultStore(other, DEFINITION.to_dict())
    assert other.read_bytes() == before

    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    with pytest.raises(StoreError, match=r"broken\.sqlite is not a tournament results file"):
        ResultStore(broken, DEFINITION.to_dict())
    assert broken.read_bytes() == b"SQLite format 3\x00" + b"\xff" * 200


def test_opening_a_missing_file_without_a_definition_fails(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such results file"):
        ResultStore(tmp_path / "missing.sqlite")
    assert not (tmp_path / "missing.sqlite").exists()
