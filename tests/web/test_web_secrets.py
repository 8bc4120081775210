"""Issue 42's findings on ``tribune serve``, each reproduced from the public interface: W12 (the seed, from which
every hidden hand is dealt, reached every viewer; any client listed every unfinished game), W13 (``DELETE
/api/games/ID`` abandoned a game with the server's key alone), W14 (one keyless client holding the server with idle
connections) and W15 (error bodies that were not the documented JSON)."""

from __future__ import annotations

import http.client
import importlib
import json
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_web_durable import Server
from test_web_seats import KEY, Table

from tribune_arena.human.web.bots import decision_seed
from tribune_arena.human.web.checks import MAX_SEED, parse_new_game
from tribune_arena.human.web.session import agent_seed
from tribune_arena.human.web.store import GAMES_FILE, GameStore
from tribune_cli.serve import CONNECTION_LIMIT, SERVER_BODY_LIMIT
from tribune_env.engine.config import config_from_dict
from tribune_env.engine.game import Game

pytestmark = pytest.mark.web

TABLE = {"players": 4, "seat": 0, "humans": [0, 2], "opponents": "random", "round_limit": 1}
"""A table of two people (P0, P2) and two bots, with a seed the server draws."""
NUMBER = re.compile(r"\d+")
MIB = 1 << 20


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.close()


def _numbers(value: object) -> set[int]:
    """Every integer in a JSON value, and every run of digits in its strings: what a viewer could try as a seed."""
    found: set[int] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
            todo.extend(item.keys())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            found.add(item)
        elif isinstance(item, str):
            found.update(int(run) for run in NUMBER.findall(item) if len(run) <= 20)
    return found


def _dealt_hands(options: dict[str, Any], seed: int) -> list[tuple[int, ...]]:
    """Every seat's hand as ``Game.new`` deals it from ``seed`` (what a viewer holding the seed computes)."""
    game = Game.new(config_from_dict(options), seed=seed)
    return [tuple(game.view(seat).hand) for seat in range(game.num_players)]


def _everything_seen(table: Table, game_id: str, seat: str | None, owner: bool) -> list[Any]:
    """What one viewer receives about the game: its state, the list of games, the record and replay (refused while
    it is played), a move out of turn, a forged seat's error, an unknown path's error."""
    url = f"/api/games/{game_id}"
    responses = [
        table.call("GET", url, seat=seat, owner=owner),
        table.call("GET", "/api/games", seat=seat, owner=owner),
        table.call("GET", f"{url}/record", seat=seat, owner=owner),
        table.call("GET", f"{url}/replay", seat=seat, owner=owner),
        table.call("POST", f"{url}/action", seat=seat, owner=owner, body={"choice": 10**6}),
        table.call("GET", f"{url}/nothing", seat=seat, owner=owner),
    ]
    seen = []
    for response in responses:
        text = response.get_data(as_text=True)
        seen.append(json.loads(text) if response.is_json else text)
    return seen


def test_no_viewer_can_deal_another_seats_hand_from_what_the_server_sends(table: Table) -> None:
    """W12: every viewer (a spectator, the owner, each person's seat) tries every number it received as the seed:
    none deals the hidden hands, and ``seed`` is null, until the game is over; then the seed is shown."""
    created = table.call("POST", "/api/games", owner=True, body=TABLE).get_json()
    keys = created["seat_keys"]
    session = table.app.extensions["tribune_games"].get(created["id"])
    options, seed = dict(session.options), session.seed
    hands = _dealt_hands(options, seed)
    viewers = {"spectator": (None, False), "owner": (None, True), "P0": (keys["0"], False), "P2": (keys["2"], True)}
    for name, (seat, owner) in viewers.items():
        seen = _everything_seen(table, created["id"], seat, owner)
        own = -1 if seat is None else int(next(s for s, k in keys.items() if k == seat))
        for guess in _numbers(seen):
            dealt = _dealt_hands(options, guess)
            leaked = [s for s in range(len(hands)) if s != own and dealt[s] == hands[s]]
            assert not leaked, f"{name} deals P{leaked} hidden hands from the number {guess} it received"
        assert seen[0]["seed"] is None and seen[0]["status"] == "playing", name
    ended = table.call("POST", f"/api/games/{created['id']}/resign", seat=keys["2"]).get_json()
    assert ended["status"] == "resigned" and ended["seed"] == seed  # over: the seed may be shown (replays)
    record = table.call("GET", f"/api/games/{created['id']}/record").get_json()["record"]
    assert record["seed"] == seed


def test_a_client_without_the_servers_key_lists_no_game(table: Table) -> None:
    """W12: a game's id opens its watch view, so only the server's owner lists the unfinished games."""
    created = table.call("POST", "/api/games", owner=True, body=TABLE).get_json()
    keys = created["seat_keys"]
    for seat in (None, keys["0"], "forged"):
        listed = table.call("GET", "/api/games", seat=seat)
        assert listed.status_code == 200 and listed.get_json() == {"games": [], "unfinished": []}
        assert created["id"] not in listed.get_data(as_text=True)
    owned = table.call("GET", "/api/games", owner=True).get_json()
    assert owned["games"] == [created["id"]] and owned["unfinished"][0]["id"] == created["id"]


def test_the_server_draws_seeds_too_many_to_try() -> None:
    """W12: below 2**31 a spectator could try every seed against the face-up cards (about 11 core-hours at 18 µs a
    deal); the server's own draws go far above it (a seed the request chooses is still at most MAX_SEED)."""
    body = {"players": 2, "opponents": "random"}
    drawn = [parse_new_game(body, True, False).seed for _ in range(40)]
    assert max(drawn) > MAX_SEED * 1024 and len(set(drawn)) == len(drawn)
    assert parse_new_game({**body, "seed": 7}, True, False).seed == 7


def test_a_bots_own_words_reach_no_viewer(table: Table) -> None:
    """W12: a bot whose error message quotes its hand fails a move; every viewer reads that it failed and the kind
    of error, not the message (which the games database keeps for the server's owner)."""
    tattling = importlib.import_module("tattling_agents")
    body = {"players": 2, "seat": 0, "opponents": "tattler", "round_limit": 1, "seed": 3}
    created = table.call("POST", "/api/games", owner=True, body=body).get_json()
    key = created["seat_keys"]["0"]
    url = f"/api/games/{created['id']}"
    for _ in range(3):  # a few decisions, so that the bot fails more than once
        state = table.call("GET", url, seat=key).get_json()
        if state["decision"]:
            table.call("POST", f"{url}/action", seat=key, body={"choice": 0, "step": state["step"]})
    session = table.app.extensions["tribune_games"].get(created["id"])
    assert any(tattling.SECRET in note for note in session.notes)  # the server keeps the bot's words
    for seat, owner in ((key, False), (None, False), (None, True)):
        seen = table.call("GET", url, seat=seat, owner=owner).get_data(as_text=True)
        notes = json.loads(seen)["notes"]
        assert notes and all("RuntimeError" in note and "first legal choice" in note for note in notes), notes
        assert tattling.SECRET not in seen


def test_a_bots_seed_does_not_give_away_the_games() -> None:
    """W12: the seed a bot is reset with (a ``cmd:`` program reads it) was ``(seed * 1000 + seat) << 20 | step``, from
    which the game's seed, and every hand, followed; now it is a hash: the same for the same decision, another for
    every step and seat, and the game's seed is not in it."""
    for seed in (123_456, 3_163_084_074_453_900):  # one a request chose, one the server drew
        seeds = {(seat, step): decision_seed(agent_seed(seed, seat), step) for seat in range(6) for step in range(50)}
        assert len(set(seeds.values())) == len(seeds) and seeds[(1, 7)] == decision_seed(agent_seed(seed, 1), 7)
        for (seat, _), given in seeds.items():
            assert 0 <= given < 1 << 63
            assert seed not in {given, given >> 20, (given >> 20) // 1000, given // 1000}
            assert given >> 20 != agent_seed(seed, seat) & ((1 << 43) - 1)  # nor the agent seed's low bits


def test_the_games_database_is_its_owners_alone(tmp_path: Path) -> None:
    """W12: the games database holds the seeds of unfinished games: other users of the machine cannot read it."""
    store = GameStore(tmp_path)
    try:
        store.add_game("g", "base", {}, 12345, 0, ["human", "random"], [])
        files = [tmp_path / GAMES_FILE, *tmp_path.glob(f"{GAMES_FILE}-*")]
        assert files and all(path.stat().st_mode & 0o077 == 0 for path in files), [oct(p.stat().st_mode) for p in files]
    finally:
        store.close()


def test_a_server_bug_answers_without_its_details(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """W12: a 500's body names the kind of error only (its message, which may hold the game's state, goes to the
    server's log)."""
    created = table.call("POST", "/api/games", owner=True, body=TABLE).get_json()

    def broken(*args: Any) -> dict[str, Any]:
        raise RuntimeError("hand of P1: secret cards")

    monkeypatch.setattr("tribune_arena.human.web.session.PlaySession.state", broken)
    response = table.call("GET", f"/api/games/{created['id']}")
    doc = response.get_json()
    assert response.status_code == 500 and doc["status"] == 500 and "RuntimeError" in doc["error"]
    assert "secret" not in doc["error"] and KEY not in doc["error"]


def test_delete_abandons_a_game_only_with_a_seats_key(table: Table) -> None:
    """W13: ``DELETE /api/games/ID`` asks for a seat's key as ``POST .../abandon`` does: the server's key alone, no
    key or a forged one abandon nothing; a seat's key abandons the game as that seat."""
    created = table.call("POST", "/api/games", owner=True, body=TABLE).get_json()
    url = f"/api/games/{created['id']}"
    for seat, owner in ((None, True), (None, False), ("forged", True)):
        refused = table.call("DELETE", url, seat=seat, owner=owner)
        assert refused.status_code == 403 and refused.get_json()["status"] == 403, (seat, owner)
        assert table.call("GET", url).get_json()["status"] == "playing"
    removed = table.call("DELETE", url, seat=created["seat_keys"]["2"])
    assert removed.status_code == 200 and removed.get_json() == {"removed": created["id"], "status": "abandoned"}
    seen = table.call("GET", url, seat=created["seat_keys"]["0"]).get_json()
    assert seen["status"] == "abandoned" and seen["result"]["verdict"].startswith("P2 (a person) abandoned")


def _hold(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send nothing, or (every third) a request that never ends."""
    held = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        if n % 3 == 0:
            sock.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        held.append(sock)
    return held


def _answered(port: int) -> bool:
    """Whether a normal request is answered before a generous timeout (a held server answers only when its idle
    connections time out: here --idle-seconds 600)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", "/api/options")
        response = conn.getresponse()
        return response.status == 200 and bool(json.loads(response.read())["rules"])
    except TimeoutError:
        return False
    finally:
        conn.close()


@pytest.mark.slow  # 2,200 connections: about 35 s on 2 busy cores
def test_idle_connections_past_the_limit_do_not_hold_the_server(tmp_path: Path) -> None:
    """W14: a client without the key opens more idle connections than the server's limit, then opens as many again
    (reconnecting): each time a normal request is still answered, since the server closes the least recently active
    idle connections to make room instead of waiting for them to time out."""
    server = Server(tmp_path / "saved", "--idle-seconds", "600")
    held: list[socket.socket] = []
    try:
        for _ in range(2):
            held += _hold(server.port, CONNECTION_LIMIT + 100)
            assert _answered(server.port)
    finally:
        for sock in held:
            sock.close()
        server.stop()


# -- W15: every error body is the documented JSON -------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("served") / "saved")
    yield started
    started.stop()


def _request(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{lines}\r\n".encode() + body


def _chunked(body: bytes) -> bytes:
    step = 1 << 16
    parts = [body[i : i + step] for i in range(0, len(body), step)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def _json_list(size: int) -> bytes:
    return b"[" + b"0," * (size // 2) + b"0]"


JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Case:
    """A request to ``/api/games`` (POST) or ``/api/options`` (GET) as bytes on the wire, and the status it gets;
    ``framing``: how its body goes (``length``: a Content-Length, ``chunk``: chunked, ``raw``: as given)."""

    status: int
    method: str = "POST"
    headers: dict[str, str] = field(default_factory=lambda: dict(JSON))
    body: bytes = b""
    framing: str = "length"
    raw: bytes | None = None

    def data(self, key: str) -> bytes:
        if self.raw is not None:
            return self.raw
        headers = {**self.headers, "X-Tribune-Key": key}
        body = _chunked(self.body) if self.framing == "chunk" else self.body
        if self.framing == "length" and self.method == "POST":
            headers["Content-Length"] = str(len(body))
        return _request(self.method, "/api/games" if self.method == "POST" else "/api/options", headers, body)


MALFORMED = {
    "a body over 1 MiB (Content-Length)": Case(413, body=_json_list(2 * MIB)),
    "a body just over 1 MiB": Case(413, body=b" " * (MIB + 10)),
    "a chunked body over 1 MiB": Case(
        413, headers={**JSON, "Transfer-Encoding": "chunked"}, body=_json_list(2 * MIB), framing="chunk"
    ),
    "a body over the server's own limit": Case(413, body=_json_list(SERVER_BODY_LIMIT + MIB)),
    "a malformed chunk": Case(
        400, headers={**JSON, "Transfer-Encoding": "chunked"}, body=b"zz\r\n{}\r\n0\r\n\r\n", framing="raw"
    ),
    "a Content-Length that is no number": Case(
        400, headers={**JSON, "Content-Length": "abc"}, body=b"{}", framing="raw"
    ),
    "an unknown transfer coding": Case(501, headers={**JSON, "Transfer-Encoding": "gzip"}, body=b"{}", framing="raw"),
    "headers over the limit": Case(431, "GET", {"X-Big": "a" * 300_000}),
    "a header line without a colon": Case(400, raw=b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nFoo bar\r\n\r\n"),
    "a start line that is not HTTP": Case(400, raw=b"GARBAGE\r\n\r\n"),
    "a body that is not JSON": Case(400, body=b"{x}"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_every_error_body_is_the_documented_json(served: Server, case: str) -> None:
    """W15: over-long bodies and malformed framing are answered ``{"error": ..., "status": ...}`` in JSON, with the
    status of the status line, and the client reads the answer (no reset while it still sends its body)."""
    status = MALFORMED[case].status
    data = MALFORMED[case].data(served.key)
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=60)
    try:
        sock.sendall(data)
        response = http.client.HTTPResponse(sock)
        response.begin()
        text = response.read()
    finally:
        sock.close()
    assert response.status == status, (response.status, text[:200])
    assert response.getheader("Content-Type", "").startswith("application/json"), text[:200]
    doc = json.loads(text)
    assert set(doc) == {"error", "status"} and doc["status"] == status
    assert isinstance(doc["error"], str) and doc["error"]
