"""``tribune serve`` keeps every game: killed with SIGKILL and restarted, a game goes on at the same step with the
same choices (and the same bots' moves); games are never dropped for newer ones; resigning and abandoning are
recorded; bots move under a time limit; requests that used to crash the server (HTTP 500) are answered 400.

The servers here are real ``tribune serve`` processes on a free loopback port, spoken to over HTTP (http.client),
or the app through Flask's test client where a test needs agents registered by :mod:`hostile_agents` (tests/support).
"""

from __future__ import annotations

import http.client
import importlib
import itertools
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tribune_arena.human.web.app import create_app
from tribune_arena.human.web.manager import GameManager
from tribune_arena.human.web.saving import SaveDir
from tribune_arena.human.web.store import GAMES_FILE, GameStore, StoredMove, StoreError
from tribune_arena.tournament.store import ResultStore
from tribune_cli.main import main as tribune_main

pytestmark = pytest.mark.web

GAME = {"players": 3, "opponents": "random", "round_limit": 2, "seed": 7}
VOLATILE = ("id", "changes", "log", "seat_keys")
SEATS: dict[str, str] = {}
"""The creator's seat key of each game the real servers made (game id: key), sent with that game's requests."""
"""State keys that may differ between two copies of one position (the id; what is shown since the last request)."""


# -- a real server ---------------------------------------------------------------------------------


class Server:
    """``tribune serve`` in a subprocess; :meth:`call` sends one request and returns ``(status, JSON body)``."""

    def __init__(self, save: Path, *extra: str) -> None:
        command = [sys.executable, "-m", "tribune_cli.main", "serve", "--port", "0", "--save-dir", str(save), *extra]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?key=([A-Za-z0-9_-]+) ", line)
        died = self.process.poll() is not None and self.process.stderr is not None
        assert found, (line, self.process.stderr.read() if died and self.process.stderr else "")
        self.port = int(found[1])
        self.key = found[2]
        self.url = f"http://127.0.0.1:{self.port}/?key={self.key}"
        self.banner = line

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def call(
        self, method: str, path: str, body: object = None, key: str | None = "", seat: str | None = None
    ) -> tuple[int, Any]:
        """One request; with the server's key unless ``key`` is another one (``None``: no key), and ``seat``'s key
        if given."""
        conn = self.connection()
        try:
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if data is not None else {}
            if key is not None:
                headers["X-Tribune-Key"] = key or self.key
            game = path.split("/")[3] if path.startswith("/api/games/") else None
            seat = seat if seat is not None else SEATS.get(game or "")
            if seat:  # "": no seat's key
                headers["X-Tribune-Seat"] = seat
            conn.request(method, path, data, headers)
            response = conn.getresponse()
            status, doc = response.status, json.loads(response.read() or b"null")
            if method == "POST" and path == "/api/games" and status == 201:
                SEATS[doc["id"]] = doc["seat_keys"][str(doc["seat"])]  # the creator's seat plays with its key
            return status, doc
        finally:
            conn.close()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """The servers a test starts (appended to the list), stopped at its end."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that do not stop it."""
    server = Server(tmp_path_factory.mktemp("shared"))
    yield server
    server.stop()


def _first(state: dict[str, Any]) -> dict[str, Any]:
    decision = state["decision"]
    if decision["bid"] is not None:
        return {"bid": decision["bid"]["min"], "step": state["step"]}
    return {"choice": len(decision["choices"]) // 2, "step": state["step"]}


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert {k: v for k, v in a.items() if k not in VOLATILE} == {k: v for k, v in b.items() if k not in VOLATILE}


def _stored(save: Path, game_id: str) -> tuple[str, int]:
    """The game's status and step counter as stored, checked against its stored moves. One statement, so one read
    snapshot: the server may be committing moves meanwhile (the polling of :func:`_kill_while_the_bots_think`), and
    two statements could see the counter before a commit and the moves after it (11 moves beside steps = 10)."""
    db = sqlite3.connect(save / GAMES_FILE)
    try:
        status, steps, moves = db.execute(
            "SELECT status, steps, (SELECT COUNT(*) FROM moves WHERE game = games.id) FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
    finally:
        db.close()
    assert moves == steps, f"game {game_id}: {moves} moves stored beside steps = {steps}"
    return status, steps


# -- kill -9 and restart -----------------------------------------------------------------------------


def test_a_game_goes_on_after_the_server_is_killed_between_moves(tmp_path: Path, servers: list[Server]) -> None:
    """The quick variant of the test below: SIGKILL between two of the person's moves (random bots); the restarted
    server goes on at the same step with the same choices and board as a server never stopped."""
    save, body = tmp_path / "saved", {**GAME, "players": 3}
    servers.append(first := Server(save))
    status, state = first.call("POST", "/api/games", body)
    assert status == 201
    played = []
    for _ in range(2):
        played.append(_first(state))
        status, state = first.call("POST", f"/api/games/{state['id']}/action", played[-1])
        assert status == 200 and not state["over"], state
    first.kill()
    app = create_app(save)  # restarted (in this process: one server start fewer)
    try:
        client = app.test_client()
        assert client.get("/api/games").get_json()["games"] == [state["id"]]
        restored = client.get(f"/api/games/{state['id']}").get_json()
        _same(state, restored)
        moved = client.post(f"/api/games/{state['id']}/action", json=_first(restored))
        assert moved.status_code == 200 and moved.get_json()["step"] > restored["step"]
    finally:
        app.extensions["tribune_games"].close()


@pytest.mark.slow
def test_a_game_goes_on_after_the_server_is_killed(tmp_path: Path, servers: list[Server]) -> None:
    """SIGKILL in the middle of the bots' moves: every move committed before is kept, and the restarted server goes
    on at the step, with the choices and the bots' moves of a server never stopped."""
    save, body = tmp_path / "saved", {**GAME, "players": 4, "opponents": "mcts:iterations=15"}
    servers.append(first := Server(save))
    status, state = first.call("POST", "/api/games", body)
    assert status == 201
    game_id = state["id"]
    played = []
    for _ in range(2):
        played.append(_first(state))
        status, state = first.call("POST", f"/api/games/{game_id}/action", played[-1])
        assert status == 200 and not state["over"], state
        assert _stored(save, game_id) == ("playing", state["step"])  # committed before the answer
    before, killed = _kill_while_the_bots_think(first, save, state, played)

    servers.append(second := Server(save))
    assert "1 unfinished" in second.banner
    status, listed = second.call("GET", "/api/games")
    assert status == 200 and listed["games"] == [game_id] and listed["unfinished"][0]["step"] == killed
    status, restored = second.call("GET", f"/api/games/{game_id}")
    assert status == 200 and restored["id"] == game_id and killed > before + 1
    app = create_app(tmp_path / "reference")  # the same moves on a server never stopped
    try:
        client = app.test_client()
        reference = client.post("/api/games", json=body).get_json()
        for move in played:
            reference = client.post(f"/api/games/{reference['id']}/action", json=move).get_json()
        # The kill lands after a bot's move and, nearly always, before the last bot's: the restarted server then
        # plays the rest (restored step > killed). On a loaded machine the bots may all have moved before the kill
        # lands (the answer not yet sent); the restarted server then has nothing left to play. Either way it stands
        # where a server never stopped stands.
        assert restored["step"] == reference["step"] >= killed
        _same(reference, restored)  # the same step, the same choices in the same words, the same board
        move = _first(restored)
        status, restored = second.call("POST", f"/api/games/{game_id}/action", move)
        reference = client.post(f"/api/games/{reference['id']}/action", json=move).get_json()
        assert status == 200
        _same(reference, restored)
    finally:
        app.extensions["tribune_games"].close()


def _kill_while_the_bots_think(
    server: Server, save: Path, state: dict[str, Any], played: list[dict[str, Any]]
) -> tuple[int, int]:
    """Play the person's moves (appended to ``played``) until one is answered by several bot moves, and SIGKILL the
    server once that move and a bot's are committed; returns the step before that move and the steps stored."""
    game_id = state["id"]
    for _ in range(10):
        before = state["step"]
        answers: list[Any] = []
        played.append(_first(state))
        request = threading.Thread(target=_call_quietly, args=(server, game_id, played[-1], answers))
        request.start()
        while request.is_alive() and _stored(save, game_id)[1] < before + 2:
            time.sleep(0.005)
        if request.is_alive():
            server.kill()
            request.join(30)
            status, stored = _stored(save, game_id)
            assert status == "playing" and (not answers or isinstance(answers[0], OSError))
            return before, stored
        request.join()
        assert answers[0][0] == 200
        state = answers[0][1]
    raise AssertionError("no move was answered by several bot moves")


def _call_quietly(server: Server, game_id: str, body: object, answers: list[Any]) -> None:
    try:
        answers.append(server.call("POST", f"/api/games/{game_id}/action", body))
    except OSError as exc:  # the server was killed while answering
        answers.append(exc)


# -- a move and its counters: both or neither ------------------------------------------------------------------

_KILLED_INSIDE_A_MOVE = """
import os, signal, sys
from tribune_arena.human.web.store import GameStore, StoredMove
store = GameStore(sys.argv[1])
kill = lambda sql: sql.startswith("UPDATE games") and os.kill(os.getpid(), signal.SIGKILL)
store._db.set_trace_callback(kill)  # SIGKILL once the move is inserted, before its counter is updated
store.add_move("g", StoredMove(3, 1, "card:1", 0.0), 2)
"""


def _store_with_moves(directory: Path, count: int) -> GameStore:
    """A store in ``directory`` holding game ``g`` (two seats) with ``count`` moves."""
    store = GameStore(directory)
    store.add_game("g", "base", {}, 0, 0, ["human", "random"], [])
    for step in range(count):
        store.add_move("g", StoredMove(step, step % 2, "card:1", 0.0), 1)
    return store


def test_the_counters_are_read_in_one_snapshot_while_moves_are_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`_stored`, polled while the server commits the bots' moves, compares the step counter with the moves
    it reads: it must read both in one snapshot. Here a move (with its counter, one transaction) is committed just
    before each statement it runs: read in two statements, the counter and the moves disagree (the flaky
    ``assert 11 == 10`` of the SIGKILL test above, raised while polling)."""
    store = _store_with_moves(tmp_path, 10)
    try:
        connect, next_step = sqlite3.connect, itertools.count(10)

        def commit_a_move(sql: str) -> None:
            step = next(next_step)
            store.add_move("g", StoredMove(step, step % 2, "card:1", 0.0), 1)

        def committing_meanwhile(database: Path) -> sqlite3.Connection:
            db = connect(database)
            db.set_trace_callback(commit_a_move)
            return db

        monkeypatch.setattr(sqlite3, "connect", committing_meanwhile)
        status, steps = _stored(tmp_path, "g")
        monkeypatch.undo()
        assert status == "playing" and steps > 10
    finally:
        store.close()


def test_a_kill_inside_a_move_stores_neither_the_move_nor_its_counter(tmp_path: Path) -> None:
    """A server SIGKILLed after a move's row is written and before its step counter is: the restarted store holds
    the moves and the counter of before that move, and the move can be played again."""
    _store_with_moves(tmp_path, 3).close()
    command = [sys.executable, "-c", _KILLED_INSIDE_A_MOVE, str(tmp_path)]
    killed = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert _stored(tmp_path, "g") == ("playing", 3)
    store = GameStore(tmp_path)
    try:
        store.add_move("g", StoredMove(3, 1, "card:1", 0.0), 2)
        stored = store.game("g")
        assert stored is not None and (stored.steps, stored.round, len(stored.moves)) == (4, 2, 4)
    finally:
        store.close()


def test_a_move_of_a_game_no_longer_played_is_refused_whole(tmp_path: Path) -> None:
    """``add_move`` on a resigned game stores nothing: not a move beside a counter left behind."""
    store = _store_with_moves(tmp_path, 2)
    try:
        store.set_status("g", "resigned", ended_by=0)
        with pytest.raises(StoreError, match="step 2 not stored, the game is not being played"):
            store.add_move("g", StoredMove(2, 0, "card:1", 0.0), 1)
        stored = store.game("g")
        assert stored is not None and stored.status == "resigned" and stored.steps == len(stored.moves) == 2
    finally:
        store.close()


def test_a_restarted_server_restores_every_game_exactly(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    client = app.test_client()
    try:
        ids = [client.post("/api/games", json={**GAME, "seed": n}).get_json()["id"] for n in range(3)]
        state = client.get(f"/api/games/{ids[0]}").get_json()
        for _ in range(3):
            state = client.post(f"/api/games/{ids[0]}/action", json=_first(state)).get_json()
        assert not state["over"] and state["step"] == _stored(tmp_path, ids[0])[1]
    finally:
        app.extensions["tribune_games"].close()
    app = create_app(tmp_path)
    client = app.test_client()
    try:
        assert set(client.get("/api/games").get_json()["games"]) == set(ids)
        restored = client.get(f"/api/games/{ids[0]}").get_json()
        _same(restored, state)  # the same step, the same choices in the same words, the same board and notes
        assert restored["changes"] == state["changes"]  # "since your last decision" counts from the same point
        assert client.post(f"/api/games/{ids[0]}/action", json=_first(restored)).status_code == 200
    finally:
        app.extensions["tribune_games"].close()


def test_a_second_server_on_the_same_directory_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app(tmp_path)
    try:
        with pytest.raises(StoreError, match="another `tribune serve`"):
            create_app(tmp_path)
        assert tribune_main(["serve", "--port", "0", "--save-dir", str(tmp_path)]) == 2
        assert "another `tribune serve`" in capsys.readouterr().err
    finally:
        app.extensions["tribune_games"].close()
    create_app(tmp_path).extensions["tribune_games"].close()  # free again once the first one stopped


# -- nothing is dropped ---------------------------------------------------------------------------------


def test_a_hundred_new_games_do_not_lose_an_unfinished_one(tmp_path: Path) -> None:
    manager = GameManager(SaveDir(tmp_path), max_games=8)
    try:
        mine = manager.create({**GAME, "players": 2})
        mine.act(_first(mine.state()))
        before = mine.state()
        others = [manager.create({**GAME, "players": 2, "seed": n}).id for n in range(100)]
        assert len(manager.live()) <= 8 and mine.id not in manager.live()  # out of memory, not lost
        assert set(manager.ids()) == {mine.id, *others}
        with manager.locked(mine.id) as again:
            assert again is not mine
            _same(again.state(), before)
            again.act(_first(again.state()))
            assert again.step > before["step"]
    finally:
        manager.close()


# -- resign and abandon ---------------------------------------------------------------------------------


def test_resign_and_abandon_are_recorded(tmp_path: Path) -> None:
    save = tmp_path / "saved"
    app = create_app(save)
    client = app.test_client()
    try:
        resigned = client.post("/api/games", json=GAME).get_json()
        abandoned = client.post("/api/games", json={**GAME, "seed": 8}).get_json()
        state = client.post(f"/api/games/{resigned['id']}/resign").get_json()
        assert state["status"] == "resigned" and state["over"] and state["decision"] is None
        assert state["result"]["verdict"].startswith("You resigned") and state["result"]["ranks"][0] == 3
        assert client.post(f"/api/games/{resigned['id']}/resign").status_code == 409
        state = client.post(f"/api/games/{abandoned['id']}/abandon").get_json()
        assert state["status"] == "abandoned" and state["saved"] is None and "abandoned" in state["result"]["verdict"]
        assert client.post(f"/api/games/{abandoned['id']}/action", json={"choice": 0}).status_code == 409
        assert client.get("/api/games").get_json() == {"games": [], "unfinished": []}
        record = client.get(f"/api/games/{resigned['id']}/record").get_json()["record"]
        assert record["forfeit"]["reason"] == "resigned" and record["forfeit"]["seat"] == 0
    finally:
        app.extensions["tribune_games"].close()
    assert _stored(save, resigned["id"])[0] == "resigned" and _stored(save, abandoned["id"])[0] == "abandoned"
    with ResultStore(save / "tribune-serve-base.sqlite") as store:  # a replayable record, as finished games are
        games = store.games(replay=True)
    assert [(g.game_id, g.problem) for g in games] == [(0, None)]
    assert games[0].record is not None and games[0].record.forfeit is not None
    assert tribune_main(["replay", str(save / "tribune-serve-base.sqlite"), "--game", "0"]) == 0
    app = create_app(save)  # after a restart: as they were
    try:
        client = app.test_client()
        assert client.get(f"/api/games/{resigned['id']}").get_json()["status"] == "resigned"
        assert client.get(f"/api/games/{abandoned['id']}").get_json()["status"] == "abandoned"
    finally:
        app.extensions["tribune_games"].close()


def test_a_move_that_cannot_be_stored_is_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(tmp_path)
    client = app.test_client()
    try:
        state = client.post("/api/games", json=GAME).get_json()
        store = app.extensions["tribune_games"].store

        def full(*args: object) -> None:
            raise StoreError("database or disk is full")

        with monkeypatch.context() as patch:
            patch.setattr(store, "add_move", full)
            response = client.post(f"/api/games/{state['id']}/action", json=_first(state))
        assert response.status_code == 503 and "disk is full" in response.get_json()["error"]
        _same(client.get(f"/api/games/{state['id']}").get_json(), state)  # rebuilt from what was stored
        assert client.post(f"/api/games/{state['id']}/action", json=_first(state)).status_code == 200
    finally:
        app.extensions["tribune_games"].close()


# -- bots under a time limit ------------------------------------------------------------------------------


@pytest.fixture
def quick_bots(tmp_path: Path) -> Iterator[Any]:
    """The app with bots limited to 0.4 s per move, and the ``hostile`` agents registered (imported here, not at
    collection: a test that lists every registered agent must not meet them)."""
    importlib.import_module("hostile_agents")
    app = create_app(tmp_path, bot_seconds=0.4, bot_workers=1)
    yield app.test_client()
    app.extensions["tribune_games"].close()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("hostile:mode=swallow", "past the 0.4 s limit: its process was killed"),  # sleeps forever, ignores alarms
        ("mcts:iterations=1000000000", "act() took"),  # interrupted at the limit
    ],
)
def test_a_bot_past_its_limit_plays_its_first_legal_choice(quick_bots: Any, spec: str, words: str) -> None:
    start = time.monotonic()
    response = quick_bots.post("/api/games", json={**GAME, "players": 2, "opponents": spec})
    assert response.status_code == 201, response.get_json()
    state = response.get_json()
    assert state["notes"] and all("first legal choice" in note for note in state["notes"])
    assert words in state["notes"][0] and state["notes"][0].startswith(f"P1 {spec}")
    assert time.monotonic() - start < 2.5 * len(state["notes"]) + 3
    moved = quick_bots.post(f"/api/games/{state['id']}/action", json=_first(state))
    assert moved.status_code == 200  # the game goes on


def test_a_bot_asking_for_more_time_than_the_limit_is_refused(quick_bots: Any) -> None:
    for spec in ("mcts:seconds=inf", "mcts:seconds=5"):
        response = quick_bots.post("/api/games", json={**GAME, "opponents": spec})
        assert response.status_code == 422 and "limit of 0.4 s" in response.get_json()["error"]
    assert quick_bots.post("/api/games", json={**GAME, "opponents": "mcts:seconds=0.1"}).status_code == 201


def test_bot_limits_are_checked_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("0", "-1", "nan", "inf", "1e9"):
        assert tribune_main(["serve", "--bot-seconds", value]) == 2
        assert "--bot-seconds" in capsys.readouterr().err
    assert tribune_main(["serve", "--bot-workers", "0"]) == 2
    assert "--bot-workers" in capsys.readouterr().err


# -- the requests that crashed the server -------------------------------------------------------------------


def test_former_server_errors_are_bad_requests(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    client = app.test_client()
    try:
        assert client.post("/api/games", json={**GAME, "players": None}).status_code == 201  # the default count
        seat = client.post("/api/games", json={**GAME, "seat": None})
        assert seat.status_code == 422 and "seat: expected an integer" in seat.get_json()["error"]
        state = client.post("/api/games", json=GAME).get_json()
        for deep in ("[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "[" * 40 + "]" * 40):
            for url in ("/api/games", f"/api/games/{state['id']}/action"):
                response = client.post(url, data=deep, content_type="application/json")
                assert response.status_code == 400 and "nested too deeply" in response.get_json()["error"]
        big = client.post("/api/games", data="[" + "0," * 600_000 + "0]", content_type="application/json")
        assert big.status_code == 413 and big.get_json()["status"] == 413
    finally:
        app.extensions["tribune_games"].close()


def _send(server: Server, method: str, path: str, headers: dict[str, str], raw_body: bytes = b"") -> tuple[int, Any]:
    """A request whose headers (``Host`` included) and body bytes are sent as given; the body parsed as JSON (or its
    text, for an answer of the WSGI server itself)."""
    conn = server.connection()
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        if raw_body:
            conn.send(raw_body)
        response = conn.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data)
        except ValueError:
            return response.status, data.decode("utf-8", "replace")
    finally:
        conn.close()


def test_a_malformed_chunked_body_or_host_is_a_400(shared: Server) -> None:
    server = shared
    status, state = server.call("POST", "/api/games", GAME)
    assert status == 201
    chunked = {"Host": "127.0.0.1", "Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    chunked["X-Tribune-Key"] = server.key
    for path in ("/api/games", f"/api/games/{state['id']}/action"):
        status, doc = _send(server, "POST", path, chunked, b"zz\r\n{}\r\n0\r\n\r\n")
        assert status == 400, doc  # refused by the WSGI server (waitress) before the app
    for host, expected in (("127.0.0.1:80:80", 400), ("127.0.0.1:8000:", 400), ("evil.example", 403)):
        status, doc = _send(server, "GET", "/api/options", {"Host": host})
        assert (status, doc["status"]) == (expected, expected), doc
    status, after = server.call("GET", f"/api/games/{state['id']}")
    assert status == 200 and after["step"] == state["step"]  # nothing changed, the server is fine


def test_the_games_database_is_sqlite_in_wal_mode(tmp_path: Path) -> None:
    GameManager(SaveDir(tmp_path)).close()
    with sqlite3.connect(tmp_path / GAMES_FILE) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"meta", "games", "moves"} <= tables
    assert not (tmp_path / "tribune-serve-base.sqlite").exists() and os.listdir(tmp_path)


# -- in the browser -----------------------------------------------------------------------------------------


def test_the_start_page_lists_unfinished_games_to_resume_or_resign(page: Any, shared: Server) -> None:
    server = shared
    status, state = server.call("POST", "/api/games", GAME)
    assert status == 201
    key = state["seat_keys"][str(state["seat"])]
    status, state = server.call("POST", f"/api/games/{state['id']}/action", _first(state), seat=key)
    assert status == 200
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='1']")
    assert page.is_visible("#unfinished") and page.get_attribute("body", "data-unfinished") != "0"
    item = page.locator(f"#unfinished-list li[data-game='{state['id']}']")
    assert f"step {state['step']}" in item.text_content() and "P0 a person" in item.text_content()
    assert item.locator("a.watch").count() == 1  # this browser holds no key of its seats: it may watch
    listed = int(page.get_attribute("body", "data-unfinished") or 0)
    page.goto(f"{server.url}#game={state['id']}&seat={key}")  # the seat's private link
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    assert page.get_attribute("body", "data-step") == str(state["step"]) and page.is_hidden("#unfinished")
    assert page.locator("#choices [data-choice]").count() == len(state["decision"]["choices"])
    page.click("#resign")
    page.wait_for_selector("body[data-over='1']")
    assert page.get_attribute("body", "data-status") == "resigned" and "You resigned" in page.text_content("#verdict")
    assert "tribune replay" in page.text_content("#saved") and page.is_hidden("#game-actions")
    assert page.get_attribute("#replay-link", "href").endswith(f"/api/games/{state['id']}/replay")
    saved = page.text_content("#saved")
    assert server.key not in saved and "/" not in saved.split(" as ")[1][:40]  # the file's name, no server path
    page.click("#new-game")
    page.wait_for_function(f"document.body.dataset.unfinished === '{listed - 1}'")
    assert page.locator(f"#unfinished-list li[data-game='{state['id']}']").count() == 0 and page.is_visible("#setup")
    mine = []
    for seed in (1, 2):  # two more whose seat links this browser holds, then "Abandon my unfinished games"
        status, made = server.call("POST", "/api/games", {**GAME, "seed": seed})
        assert status == 201
        mine.append(made["id"])
        held = json.dumps([f"tribune-seat:127.0.0.1:{server.port}:{made['id']}", SEATS[made["id"]]])
        page.evaluate(f"localStorage.setItem(...{held})")
    status, other = server.call("POST", "/api/games", {**GAME, "seed": 3})  # no seat of it in this browser
    page.reload()
    page.wait_for_function("Number(document.body.dataset.unfinished) >= 3")
    page.click("#clear-unfinished")
    page.wait_for_function(f"!document.querySelector(\"#unfinished-list li[data-game='{mine[0]}']\")")
    listed = server.call("GET", "/api/games")[1]["games"]
    assert not set(mine) & set(listed) and other["id"] in listed  # the server's key alone abandons nothing (W13)
