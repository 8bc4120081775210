"""Friends at one table (issue 38): several human seats, each with its private link (its key), seeing only what that
seat may know; spectators see public information only; resign per seat; the keys survive a restart; two browser
contexts play one game to its end as two human seats with two bots."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tribune_arena.human.web.app import create_app
from tribune_arena.tournament.store import ResultStore

pytestmark = pytest.mark.web

KEY = "server-key"
TABLE = {"players": 4, "seat": 0, "humans": [0, 2], "opponents": "random", "round_limit": 1, "seed": 4}
FACE_UP_HAND = re.compile(r'class="card[^"]*" data-card="[^"]+" data-where="hand" data-index="\d+" data-seat="(\d)"')


class Table:
    """The app with a server key, and requests as a seat (its key), as a spectator or as the server's owner."""

    def __init__(self, save: Path) -> None:
        self.app = create_app(save, secret=KEY)
        self.client = self.app.test_client()

    def call(self, method: str, url: str, seat: str | None = None, owner: bool = False, body: Any = None) -> Any:
        headers = {}
        if seat is not None:
            headers["X-Tribune-Seat"] = seat
        if owner:
            headers["X-Tribune-Key"] = KEY
        return self.client.open(url, method=method, headers=headers, json=body)

    def close(self) -> None:
        self.app.extensions["tribune_games"].close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.close()


def _move(state: dict[str, Any]) -> dict[str, Any]:
    decision = state["decision"]
    if decision["bid"] is not None:
        return {"bid": decision["bid"]["min"], "step": state["step"]}
    return {"choice": 0, "step": state["step"]}


def _new(table: Table, **body: Any) -> tuple[dict[str, Any], dict[str, str]]:
    response = table.call("POST", "/api/games", owner=True, body={**TABLE, **body})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return created, created["seat_keys"]


def test_each_seat_sees_its_own_hand_and_nothing_else(table: Table) -> None:
    created, keys = _new(table)
    assert set(keys) == {"0", "2"} and keys["0"] != keys["2"] and created["seat"] == 0
    url = f"/api/games/{created['id']}"
    views = {seat: table.call("GET", url, seat=keys[seat]).get_json() for seat in keys}
    for seat, view in views.items():
        assert view["seat"] == int(seat) and not view["spectator"] and view["names"][int(seat)] == "you"
        assert view["hand"] and all(card["label"] for card in view["hand"])
        assert set(FACE_UP_HAND.findall(view["board"])) == {seat}  # face up: its own hand only
        assert all(card.get("seat") in (None, int(seat)) for card in view["hand"])
    assert views["0"]["names"][2] == "a person" and views["0"]["names"][1] == "Beginner (random)"
    spectator = table.call("GET", url).get_json()  # no seat key: public information only
    assert spectator["spectator"] and spectator["seat"] == -1 and spectator["hand"] == []
    assert spectator["decision"] is None and spectator["changes"] == [] and not FACE_UP_HAND.findall(spectator["board"])
    assert '"where": "hand"' not in str(spectator["table"]) and spectator["waiting"].startswith("Waiting for P")
    owner = table.call("GET", url, owner=True).get_json()  # the server's key is no seat's key
    assert owner["spectator"] and owner["hand"] == []
    forged = table.call("GET", url, seat="not-a-key")
    assert forged.status_code == 403 and "not a seat" in forged.get_json()["error"]


def test_a_seat_link_cannot_act_for_another_seat(table: Table) -> None:
    created, keys = _new(table)
    url = f"/api/games/{created['id']}"
    before = table.call("GET", url, seat=keys["0"]).get_json()
    turn = "0" if before["decision"] else "2"
    other = "2" if turn == "0" else "0"
    state = table.call("GET", url, seat=keys[turn]).get_json()
    move = _move(state)
    refused = table.call("POST", f"{url}/action", seat=keys[other], body=move)
    assert refused.status_code == 409 and f"not P{other}'s decision" in refused.get_json()["error"]
    for seat, owner in ((None, False), (None, True), ("forged", True)):
        response = table.call("POST", f"{url}/action", seat=seat, owner=owner, body=move)
        assert response.status_code == 403, (seat, owner, response.get_json())
    for how in ("resign", "abandon"):  # nor resign or abandon without a seat's own key
        assert table.call("POST", f"{url}/{how}", owner=True).status_code == 403
    assert table.call("GET", url, seat=keys[turn]).get_json()["step"] == state["step"]  # nothing changed
    moved = table.call("POST", f"{url}/action", seat=keys[turn], body=move)
    assert moved.status_code == 200 and moved.get_json()["step"] > state["step"]


def test_two_people_play_a_game_to_its_end(table: Table, tmp_path: Path) -> None:
    created, keys = _new(table)
    url = f"/api/games/{created['id']}"
    moves = 0
    while True:
        views = {seat: table.call("GET", url, seat=key).get_json() for seat, key in keys.items()}
        if views["0"]["over"]:
            break
        deciding = [seat for seat, view in views.items() if view["decision"]]
        assert len(deciding) == 1, {seat: view["waiting"] for seat, view in views.items()}
        seat = deciding[0]
        response = table.call("POST", f"{url}/action", seat=keys[seat], body=_move(views[seat]))
        assert response.status_code == 200, response.get_json()
        moves += 1
        assert moves < 300
    assert {views[s]["status"] for s in keys} == {"over"} and views["0"]["saved"]["game_id"] == 0
    with ResultStore(tmp_path / "tribune-serve-base.sqlite") as store:
        record = store.record(0)
        assert len(store.done_ids()) == 1
    assert record.seating[0] == record.seating[2] == "human"


def test_a_seat_resigns_for_itself_and_keys_survive_a_restart(tmp_path: Path) -> None:
    table = Table(tmp_path)
    try:
        created, keys = _new(table)
    finally:
        table.close()
    url = f"/api/games/{created['id']}"
    again = Table(tmp_path)  # restarted: the seats' keys are in the games database (hashed)
    try:
        assert again.call("GET", url, seat=keys["2"]).get_json()["seat"] == 2
        resigned = again.call("POST", f"{url}/resign", seat=keys["2"])
        assert resigned.status_code == 200 and resigned.get_json()["result"]["verdict"].startswith("You resigned")
        seen = again.call("GET", url, seat=keys["0"]).get_json()
        assert seen["status"] == "resigned" and seen["result"]["verdict"].startswith("P2 resigned")
        record = again.call("GET", f"{url}/record").get_json()["record"]
        assert record["forfeit"]["seat"] == 2
    finally:
        again.close()


# -- in the browser -----------------------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The app (with a server key) on a free loopback port, in a thread; yields the link with the key."""
    from werkzeug.serving import make_server

    app = create_app(tmp_path / "saved", secret=KEY)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/?key={KEY}"
    finally:
        server.shutdown()
        app.extensions["tribune_games"].close()


def _play(page: Any) -> bool:
    """Play this seat's decision if it has one (the first choice, or the lowest bid); whether it played."""
    if page.get_attribute("body", "data-over") == "1" or page.is_hidden("#decision"):
        return False
    step = page.get_attribute("body", "data-step")
    if page.is_visible("#bid-form"):
        page.fill("#bid-amount", page.get_attribute("#bid-amount", "min"))
        page.click("#bid-submit")
    else:
        page.locator("#choices [data-choice]").first.click()
    page.wait_for_function(
        f"document.body.dataset.step !== '{step}' || document.body.dataset.over === '1'"
        " || !document.querySelector('#error').hidden"
    )
    assert page.is_hidden("#error"), page.text_content("#error")
    return True


def _no_hand_but(page: Any, seat: int | None) -> None:
    """No face-up hand card of another seat anywhere in the page (the drawn board included)."""
    cards = page.evaluate("[...document.querySelectorAll('[data-where=\"hand\"][data-card]')].map(n => n.dataset.seat)")
    assert all(s == str(seat) for s in cards), cards
    if seat is not None:
        assert cards, "the seat's own hand is shown"


def test_two_browsers_play_one_game_as_two_seats_with_two_bots(browser: Any, served: str) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        host, friend, watcher = (context.new_page() for context in contexts)
        host.goto(served)
        host.wait_for_selector("body[data-ready='1']")
        host.select_option("#players", "4")
        host.fill("#seed", "6")
        host.select_option("#level-0", "person")  # P1: a friend
        host.select_option("#level-1", "beginner")
        host.select_option("#level-2", "beginner")
        host.click("#advanced summary")
        host.fill("#round-limit", "1")
        host.click("#start")
        host.wait_for_selector("#invites:not([hidden])")
        friend_link = host.input_value("#invite-1")
        watch_link = host.input_value("#invite-watch")
        assert "&seat=" in friend_link and "seat=" not in watch_link and KEY not in friend_link
        friend.goto(friend_link)
        friend.wait_for_selector("#game:not([hidden])")
        assert friend.get_attribute("body", "data-seat") == "1" and host.get_attribute("body", "data-seat") == "0"
        watcher.goto(watch_link)
        watcher.wait_for_selector("#game:not([hidden])")
        assert watcher.get_attribute("body", "data-spectator") == "1" and watcher.is_hidden("#hand-area")
        _no_hand_but(host, 0)
        _no_hand_but(friend, 1)
        _no_hand_but(watcher, None)
        assert watcher.is_hidden("#decision") and watcher.is_hidden("#game-actions")
        rounds = 0
        while host.get_attribute("body", "data-over") != "1" or friend.get_attribute("body", "data-over") != "1":
            played = _play(host) | _play(friend)
            if not played:  # the other seat's move reaches this page by polling
                host.wait_for_timeout(300)
            rounds += 1
            assert rounds < 400
            if rounds % 10 == 0:
                _no_hand_but(friend, 1)
        for page in (host, friend):
            assert page.get_attribute("body", "data-status") == "over" and page.is_visible("#replay-link")
            assert "game 0 of tribune-serve-base.sqlite" in page.text_content("#saved")
        watcher.wait_for_function("document.body.dataset.over === '1'", timeout=15_000)
        _no_hand_but(watcher, None)
    finally:
        for context in contexts:
            context.close()


def test_a_games_database_of_schema_1_is_read_and_its_seat_plays_with_the_servers_key(tmp_path: Path) -> None:
    """A database written before seats had keys gains the new columns when opened; its games' one human seat has no
    key, so the server's key plays it (and nothing else does)."""
    import json
    import sqlite3

    from tribune_arena.human.web.store import GAMES_FILE, GameStore

    with sqlite3.connect(tmp_path / GAMES_FILE) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        db.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, status TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT "
            "NULL, rules TEXT NOT NULL, config TEXT NOT NULL, seed INTEGER NOT NULL, seat INTEGER NOT NULL, seating "
            "TEXT NOT NULL, modules TEXT NOT NULL, steps INTEGER NOT NULL, round INTEGER NOT NULL, saved TEXT)"
        )
        config = {"players": 2, "round_limit": 1}
        db.execute(
            "INSERT INTO games VALUES ('0123456789abcdef', 'playing', 1.0, 1.0, 'base', ?, 5, 0, ?, '[]', 0, 0, NULL)",
            (json.dumps(config), json.dumps(["human", "random"])),
        )
    store = GameStore(tmp_path)
    try:
        stored = store.game("0123456789abcdef")
        assert stored is not None and stored.humans == (0,) and stored.keys == {}
    finally:
        store.close()
    table = Table(tmp_path)
    try:
        url = "/api/games/0123456789abcdef"
        assert table.call("GET", url).get_json()["spectator"]  # no key: watching
        state = table.call("GET", url, owner=True).get_json()
        assert state["seat"] == 0 and state["hand"]
        assert table.call("POST", f"{url}/action", body=_move(state)).status_code == 403
        assert table.call("POST", f"{url}/action", owner=True, body=_move(state)).status_code == 200
    finally:
        table.close()


def test_a_spectator_sees_a_board_card_only_if_every_seat_does(tmp_path: Path) -> None:
    """Whatever one seat saw privately (a card it looked at) stays face down for spectators, through a whole game."""
    from tribune_arena.human.web.manager import GameManager
    from tribune_env.data import Region

    manager = GameManager()
    try:
        session = manager.create({"players": 4, "opponents": "random", "seed": 9, "round_limit": 3})
        checked = 0
        while not session.over:
            shown = session.state(None)["table"]["regions"]
            game = session.game
            views = [game.view(seat).board for seat in range(game.num_players)]
            for region in shown:
                r = int(Region[region["key"].upper()])
                for f, field in enumerate(region["fields"]):
                    for i, card in enumerate(field):
                        if card.get("hidden") or card["where"] != "board":
                            continue
                        labels = {game.tables.card_label[view[r][f][i]] for view in views}
                        assert labels == {card["label"]}, (region["key"], f, i, labels)
                        checked += 1
            decision = session.state()["decision"]
            session.act({"bid": decision["bid"]["min"]} if decision["bid"] else {"choice": 0})
        assert checked > 100
    finally:
        manager.close()
