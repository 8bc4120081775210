"""Issue 42's rough edges 5 and 6 at a table of friends: each seat's person gives a name (the link's holder, once)
that everyone sees, and a person reads the whole game's log (public, and their seat's own events), while "since your
last decision" stays as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_durable import Server
from test_web_seats import Table

from tribune_arena.human.web import views

pytestmark = pytest.mark.web

TABLE = {"players": 4, "seat": 0, "humans": [0, 2], "opponents": "random", "round_limit": 2, "seed": 4}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path)
    yield made
    made.close()


def _new(table: Table) -> tuple[str, dict[str, str]]:
    created = table.call("POST", "/api/games", owner=True, body=TABLE).get_json()
    return created["id"], created["seat_keys"]


def _move(state: dict[str, Any]) -> dict[str, Any]:
    decision = state["decision"]
    if decision["bid"] is not None:
        return {"bid": decision["bid"]["min"], "step": state["step"]}
    return {"choice": 0, "step": state["step"]}


def test_a_person_names_their_seat_once_and_everyone_sees_it(table: Table, tmp_path: Path) -> None:
    game, keys = _new(table)
    url = f"/api/games/{game}"
    named = table.call("POST", f"{url}/name", seat=keys["2"], body={"name": "  Ada   Lovelace "})
    assert named.status_code == 200 and named.get_json()["people"] == {"2": "Ada Lovelace"}
    assert named.get_json()["names"][2] == "you"
    for seat, owner in ((keys["0"], False), (None, False), (None, True)):  # P0, a spectator, the server's owner
        seen = table.call("GET", url, seat=seat, owner=owner).get_json()
        assert seen["names"][2] == "Ada Lovelace (a person)" and seen["players"][2]["name"] == seen["names"][2]
        assert seen["names"][0] in ("you", "a person")  # P0 gave none
        if seen["waiting"]:  # "Waiting for P2, Ada Lovelace (a person): ...": one pair of brackets at most
            assert re.fullmatch(r"Waiting for P\d, [^()]+( \([^()]+\))?: [^()]+", seen["waiting"]), seen["waiting"]
    listed = table.call("GET", "/api/games", owner=True).get_json()["unfinished"][0]
    assert listed["names"][2] == "Ada Lovelace (a person)" and listed["names"][0] == "a person"
    again = table.call("POST", f"{url}/name", seat=keys["2"], body={"name": "Eve"})
    assert again.status_code == 409 and "Ada Lovelace" in again.get_json()["error"]
    for seat, owner, body, status in (
        (None, True, {"name": "Eve"}, 403),  # the server's key is no seat's
        (None, False, {"name": "Eve"}, 403),  # a spectator has no seat
        (keys["0"], False, {"name": "Expert (heuristic)"}, 422),  # would pass for a bot's level
        (keys["0"], False, {"name": "<b>x</b>"}, 422),
        (keys["0"], False, {"name": "x" * 25}, 422),
        (keys["0"], False, {"name": 7}, 422),
        (keys["0"], False, {"nom": "Eve"}, 422),
    ):
        refused = table.call("POST", f"{url}/name", seat=seat, owner=owner, body=body)
        assert refused.status_code == status and refused.get_json()["status"] == status, (body, refused.get_json())
    table.close()
    restarted = Table(tmp_path)  # the names are in the games database
    try:
        seen = restarted.call("GET", url, seat=keys["0"]).get_json()
        assert seen["names"][2] == "Ada Lovelace (a person)" and seen["people"] == {"2": "Ada Lovelace"}
    finally:
        restarted.close()


def test_a_person_reads_the_whole_games_log(table: Table) -> None:
    """The log endpoint holds every event from the first, public or the seat's own (none private to another seat),
    while the state's ``log`` and ``changes`` still count from the seat's last decision."""
    game, keys = _new(table)
    url = f"/api/games/{game}"
    for _ in range(12):  # both people play a few decisions
        for key in keys.values():
            state = table.call("GET", url, seat=key).get_json()
            if state["decision"]:
                assert table.call("POST", f"{url}/action", seat=key, body=_move(state)).status_code == 200
    session = table.app.extensions["tribune_games"].get(game)
    events = session.game.events
    names = views._names(session.game)
    viewers: list[tuple[int | None, str | None]] = [(0, keys["0"]), (2, keys["2"]), (None, None)]
    for seat, link in viewers:
        whole = table.call("GET", f"{url}/log", seat=link).get_json()
        expected = [views.words(names, e.text) for e in events if e.private_to in (-1, seat)]
        assert whole["log"] == expected and whole["step"] == session.step
        state = table.call("GET", url, seat=link).get_json()
        assert len(whole["log"]) > len(state["log"]) and whole["log"][-len(state["log"]) :] == state["log"]
        if seat is not None:
            shown = session.shown[seat]
            visible = [views.words(names, e.text) for e in events[shown:] if e.private_to in (-1, seat)]
            assert state["log"] == visible[-60:]  # "since your last decision", as it was
    private = [e for e in events if e.private_to >= 0]
    assert private, "the game has private events to leave out"


def test_names_and_the_whole_log_in_chromium(browser: Any, tmp_path: Path) -> None:
    """In the page: P1's person gives a name, the host's page shows it, the name form goes away; the host opens the
    game log and reads every event from the first."""
    server = Server(tmp_path / "saved")
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        host, friend = (context.new_page() for context in contexts)
        host.goto(server.url)
        host.wait_for_selector("body[data-ready='1']")
        host.fill("#seed", "6")
        host.select_option("#level-0", "person")  # P1: a friend (a 4-player game by default)
        host.click("#start")
        host.wait_for_selector("#invites:not([hidden])")
        friend.goto(host.input_value("#invite-1"))
        friend.wait_for_selector("#game:not([hidden])")
        assert friend.is_visible("#name-form")
        friend.fill("#name-input", "Ada")
        friend.click("#name-submit")
        friend.wait_for_selector("#name-form", state="hidden")
        host.reload()
        host.wait_for_selector("#game:not([hidden])")
        host.wait_for_function("document.querySelector('#player-rows').textContent.includes('P1 Ada (a person)')")
        game = host.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
        seat = host.evaluate("new URLSearchParams(location.hash.slice(1)).get('seat')")
        status, whole = server.call("GET", f"/api/games/{game}/log", seat=seat)
        assert status == 200 and whole["log"]
        host.click("#log-box summary")
        host.wait_for_function(f"document.querySelectorAll('#log li').length === {len(whole['log'])}")
        assert host.text_content("#log li") == whole["log"][0]
    finally:
        for context in contexts:
            context.close()
        server.stop()
