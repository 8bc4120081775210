"""Issue 36's findings on ``tribune serve``, each reproduced: D1 (an ended game saved exactly once whatever moment
the server dies), D2 (a damaged row of the games database), D3 (a locked games database), W11 (``players: 0``), and
the web app's modules kept under 500 lines each."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tribune_arena.human.web.app import create_app
from tribune_arena.human.web.manager import GameManager
from tribune_arena.human.web.saving import SaveDir
from tribune_arena.human.web.store import GAMES_FILE, GameStore, StoreError
from tribune_arena.tournament.store import ResultStore

pytestmark = pytest.mark.web

GAME = {"players": 2, "opponents": "random", "round_limit": 1, "seed": 5}
WEB = Path(__file__).resolve().parents[2] / "tribune_arena" / "human" / "web"


class Killed(BaseException):
    """The server dying at this point (nothing after it runs, nothing catches it)."""


def _first(state: dict[str, Any]) -> dict[str, Any]:
    decision = state["decision"]
    if decision["bid"] is not None:
        return {"bid": decision["bid"]["min"]}
    return {"choice": 0}


def _records(save: Path) -> list[tuple[int, int, tuple[str, ...]]]:
    path = save / "tribune-serve-base.sqlite"
    if not path.exists():
        return []
    with ResultStore(path) as store:
        return [
            (g.game_id, g.record.seed if g.record else -1, g.record.actions if g.record else ())
            for g in store.games(replay=True)
        ]


def _status(save: Path, game_id: str) -> tuple[str, Any]:
    with sqlite3.connect(save / GAMES_FILE) as db:
        status, saved = db.execute("SELECT status, saved FROM games WHERE id = ?", (game_id,)).fetchone()
    return status, None if saved is None else json.loads(saved)


# -- D1: saved exactly once ---------------------------------------------------------------------


@pytest.mark.parametrize("end", ["resign", "finish"])
@pytest.mark.parametrize("when", ["before the record", "after the record"])
def test_an_ended_game_is_saved_once_whatever_moment_the_server_dies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, end: str, when: str
) -> None:
    """The server dies just before or just after the record goes into the results file: on restart the game is
    ended as it was (a resigned game does not come back unfinished) and its record is in the file exactly once."""
    save = tmp_path / "saved"
    manager = GameManager(SaveDir(save))
    real_add = ResultStore.add

    def dying_add(store: ResultStore, record: Any) -> bool:
        if when == "after the record":
            real_add(store, record)
        raise Killed

    try:
        session = manager.create(GAME)
        game_id, seed = session.id, session.seed
        with monkeypatch.context() as patch:
            patch.setattr(ResultStore, "add", dying_add)
            with pytest.raises(Killed):
                if end == "resign":
                    manager.resign(game_id)
                else:
                    while True:
                        with manager.locked(game_id) as held:
                            held.act(_first(held.state()))
    finally:
        manager.close()
    expected = "resigned" if end == "resign" else "over"
    assert _status(save, game_id)[0] == expected  # the end was stored before the record
    for _ in range(2):  # restarted twice: the second start finds nothing left to do
        manager = GameManager(SaveDir(save))
        try:
            records = _records(save)
            assert len(records) == 1 and records[0][1] == seed, records
            status, saved = _status(save, game_id)
            assert status == expected and saved["game_id"] == records[0][0] and not saved.get("pending")
            with manager.locked(game_id) as held:
                state = held.state()
            assert state["status"] == expected and state["over"] and state["saved"]["game_id"] == 0
        finally:
            manager.close()


def test_a_game_ended_and_saved_normally_is_saved_once(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    client = app.test_client()
    try:
        state = client.post("/api/games", json=GAME).get_json()
        state = client.post(f"/api/games/{state['id']}/resign").get_json()
        assert state["saved"]["game_id"] == 0 and "pending" not in state["saved"]
        assert state["saved"]["replay"].startswith("tribune replay ")
    finally:
        app.extensions["tribune_games"].close()
    GameManager(SaveDir(tmp_path)).close()
    assert len(_records(tmp_path)) == 1


# -- D2, D3: the games database --------------------------------------------------------------------


def test_a_damaged_row_is_named_and_the_server_still_starts(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    client = app.test_client()
    try:
        good = client.post("/api/games", json=GAME).get_json()["id"]
        bad = client.post("/api/games", json={**GAME, "seed": 6}).get_json()["id"]
    finally:
        app.extensions["tribune_games"].close()
    with sqlite3.connect(tmp_path / GAMES_FILE) as db:
        db.execute("UPDATE games SET config = 'not json {' WHERE id = ?", (bad,))
    app = create_app(tmp_path)  # starts
    client = app.test_client()
    try:
        listed = client.get("/api/games").get_json()
        assert listed["games"] == [good]
        response = client.get(f"/api/games/{bad}")
        assert response.status_code == 409
        assert "config is not JSON" in response.get_json()["error"] and bad in response.get_json()["error"]
        assert client.get(f"/api/games/{good}").status_code == 200
        assert bad in app.extensions["tribune_games"].store.damaged
    finally:
        app.extensions["tribune_games"].close()
    command = [sys.executable, "-m", "tribune_cli.main", "serve", "--port", "0", "--save-dir", str(tmp_path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stderr is not None
        line = process.stdout.readline()
        assert "http://127.0.0.1:" in line and "1 unfinished" in line, (line, process.poll())
    finally:
        process.terminate()
        _, err = process.communicate(timeout=20)
    assert bad in err and "cannot be read" in err, err
    # the server's own traceback (a bot worker cut short by the stop is W10's, tested in test_web_server.py)
    assert "JSONDecodeError" not in err and "DamagedRow" not in err and "tribune_cli" not in err, err


def test_a_locked_games_database_is_reported_as_locked(tmp_path: Path) -> None:
    GameStore(tmp_path).close()
    holder = (
        "import sqlite3, sys, time\n"
        f"db = sqlite3.connect({str(tmp_path / GAMES_FILE)!r}, isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n"
    )
    process = subprocess.Popen([sys.executable, "-c", holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "locked"
        with pytest.raises(StoreError) as raised:
            GameStore(tmp_path, timeout=0.2)
        assert "locked by another process" in str(raised.value) and "not a games database" not in str(raised.value)
    finally:
        process.communicate("", timeout=10)
    GameStore(tmp_path).close()  # free again


def test_a_file_that_is_not_a_games_database_is_named_so(tmp_path: Path) -> None:
    (tmp_path / GAMES_FILE).write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(StoreError, match="not a games database"):
        GameStore(tmp_path)


# -- W11 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, -3])
def test_a_player_count_below_two_is_a_422(tmp_path: Path, players: int) -> None:
    app = create_app(None)
    try:
        response = app.test_client().post("/api/games", json={"players": players})
        assert response.status_code == 422 and "players" in response.get_json()["error"]
    finally:
        app.extensions["tribune_games"].close()


# -- the web app's modules ------------------------------------------------------------------------------


def test_no_module_of_the_web_app_passes_500_lines() -> None:
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in WEB.glob("*.py")}
    assert sizes and not {name: n for name, n in sizes.items() if n > 500}, sizes
