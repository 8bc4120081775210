"""``tribune serve`` lets no one in by accident (issue 36, W9, W10 and the idle connections): a per-server key for
every request that changes a game, ``cmd:`` programs only when the server's command line allows them, a bounded
number of threads whatever the connections, and quiet bot workers after a kill -9.

The servers are real ``tribune serve`` processes on a free loopback port (:class:`test_web_durable.Server`)."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_durable import Server

from tribune_arena.human.web.app import create_app

pytestmark = pytest.mark.web

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
GAME = {"players": 2, "opponents": "random", "round_limit": 1, "seed": 3}
IDLE = 600
THREAD_BOUND = 20
"""The most threads the server may have with :data:`IDLE` idle connections open (waitress's 8 request threads, its
main loop, the bot pool's and the games' few)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    started = Server(tmp_path / "saved")
    yield started
    started.stop()


# -- W9: the server's key -------------------------------------------------------------------------------


def test_a_change_without_the_servers_key_is_refused(server: Server) -> None:
    assert "?key=" in server.banner and len(server.key) >= 24
    for key in (None, "guess", server.key[:-1]):
        status, doc = server.call("POST", "/api/games", GAME, key=key)
        assert status == 403 and "key" in doc["error"], (key, doc)
    status, state = server.call("POST", "/api/games", GAME)
    assert status == 201
    game = state["id"]
    for method, path, body in (
        ("POST", f"/api/games/{game}/action", {"choice": 0}),
        ("POST", f"/api/games/{game}/resign", None),
        ("POST", f"/api/games/{game}/abandon", None),
        ("DELETE", f"/api/games/{game}", None),
    ):
        for key in (None, server.key):  # neither nothing nor the server's key plays, resigns or abandons for a seat
            status, doc = server.call(method, path, body, key=key, seat="")
            assert status == 403, (path, key, doc)
    status, after = server.call("GET", f"/api/games/{game}", key=None)  # reading needs no key
    assert status == 200 and after["step"] == state["step"] and after["status"] == "playing"


def test_a_bot_program_needs_the_servers_command_line(server: Server) -> None:
    status, doc = server.call("POST", "/api/games", {**GAME, "opponents": PYTHON_BOT}, key=None)
    assert status == 403  # no key: refused before anything else
    status, doc = server.call("POST", "/api/games", {**GAME, "opponents": PYTHON_BOT})
    assert status == 422 and "--allow-cmd-bots" in doc["error"], doc
    status, listed = server.call("GET", "/api/games")
    assert listed["games"] == []


def test_the_command_line_can_allow_bot_programs(tmp_path: Path) -> None:
    app = create_app(tmp_path, allow_cmd=True, secret="k")
    client = app.test_client()
    client.environ_base["HTTP_X_TRIBUNE_KEY"] = "k"
    try:
        response = client.post("/api/games", json={**GAME, "opponents": PYTHON_BOT})
        assert response.status_code == 201, response.get_json()
    finally:
        app.extensions["tribune_games"].close()
    app = create_app(tmp_path)  # restarted without allowing them: the stored game's program does not run
    try:
        game = app.extensions["tribune_games"].ids()[0]
        response = app.test_client().get(f"/api/games/{game}")
        assert response.status_code == 409 and "--allow-cmd-bots" in response.get_json()["error"]
    finally:
        app.extensions["tribune_games"].close()


# -- idle connections -------------------------------------------------------------------------------------


def _threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_idle_connections_hold_no_thread_and_the_server_answers(server: Server) -> None:
    """:data:`IDLE` connections opened and left idle (half of them mid-request): the server still answers (about 0.2 s
    on 2 busy cores; the bound is generous), with at most :data:`THREAD_BOUND` threads."""
    status, _ = server.call("GET", "/api/options")
    assert status == 200
    idle: list[socket.socket] = []
    try:
        for n in range(IDLE):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if n % 2:
                sock.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the request never ends
            idle.append(sock)
        time.sleep(1.0)  # let the server accept them all
        threads = _threads(server.process.pid)
        start = time.monotonic()
        status, doc = server.call("GET", "/api/options")
        seconds = time.monotonic() - start
        print(f"{IDLE} idle connections: answered in {seconds * 1000:.0f} ms with {threads} server threads")
        assert status == 200 and doc["rules"]
        assert seconds < 15.0 and threads <= THREAD_BOUND, (seconds, threads)  # a generous bound: no timing test
    finally:
        for sock in idle:
            sock.close()


def test_an_idle_connection_is_closed(tmp_path: Path) -> None:
    """A request that never ends (a slow client) is dropped after --idle-seconds: it holds nothing for long."""
    server = Server(tmp_path / "saved", "--idle-seconds", "1")
    try:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
        start = time.monotonic()
        try:
            closed = sock.recv(1024) == b""
        except ConnectionResetError:
            closed = True
        seconds = time.monotonic() - start
        sock.close()
        assert closed and seconds < 5, seconds
    finally:
        server.stop()


# -- W10 ---------------------------------------------------------------------------------------------------


def test_no_traceback_from_the_bot_workers_after_a_kill(server: Server) -> None:
    """kill -9 while the bots think: the workers end without a word (their pipe closes within seconds)."""
    body = {**GAME, "players": 4, "opponents": "mcts:iterations=400", "round_limit": 3}
    request = threading.Thread(target=_quietly, args=(server, body), daemon=True)
    request.start()
    time.sleep(2.0)
    server.process.send_signal(signal.SIGKILL)
    _, err = server.process.communicate(timeout=20)  # returns once every process holding its stderr is gone
    request.join(30)
    assert "Traceback" not in err and "EOFError" not in err, err


def _quietly(server: Server, body: object) -> None:
    try:
        server.call("POST", "/api/games", body)
    except OSError:  # the server was killed while answering
        pass
