"""``tribune replay --html``: the self-contained replay page, its frames and perspectives, and the page itself
stepped through in a real headless Chromium (tests/support/browser.py)."""

from __future__ import annotations

import argparse
import base64
import gzip
import io
import json
import re
import time
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from game_records import CONFIG, play_record

from tribune_arena.records import GameRecord
from tribune_arena.replay.html import (
    PIECE_JOIN,
    ReplayDocument,
    delta_frames,
    document_html,
    replay_document,
    replay_html,
    score_chart,
    svg_pieces,
    undelta_frames,
)
from tribune_arena.replay.text import replay_steps
from tribune_arena.tournament.store import ResultStore
from tribune_cli import replay
from tribune_env.board import board_svg

EXPANSION = {"players": 3, "round_limit": 2, "expansion": True}
BRUTII = {"players": 5, "round_limit": 2, "expansion": True, "brutii": True}
CARD = re.compile(r'<g class="card[^"]*"([^>]*)>')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


@pytest.fixture(scope="module")
def rec() -> GameRecord:
    return play_record(config=dict(CONFIG))


@pytest.fixture(scope="module")
def doc(rec: GameRecord) -> ReplayDocument:
    return replay_document(rec)


@pytest.fixture(scope="module")
def html(doc: ReplayDocument) -> str:
    return document_html(doc)


def page_data(text: str) -> tuple[dict[str, Any], list[list[list[int]]], list[str]]:
    """The page's JSON data, and its frames (decoded) and SVG pieces unpacked as the page does."""
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)[1])
    packed = re.search(r'<script type="text/plain" id="replay-pool">(.*?)</script>', text, re.S)[1]
    chunks = gzip.decompress(base64.b64decode(packed.strip())).decode().split("\x00")
    index = json.loads(chunks[0])
    return {**data, "join": index["join"]}, undelta_frames(index["frames"]), chunks[1:]


def frame_svg(data: dict[str, Any], frames: list[list[list[int]]], pieces: list[str], step: int, p: int) -> str:
    return str(data["join"]).join(pieces[i] for i in frames[step][p])


def cards(svg: str) -> list[dict[str, str]]:
    return [dict(ATTR.findall(attrs)) for attrs in CARD.findall(svg)]


# -- the document ------------------------------------------------------------------------------------------


def test_svg_pieces_round_trip(rec: GameRecord) -> None:
    svg = board_svg(next(replay_steps(rec)).game)
    pieces = svg_pieces(svg)
    assert PIECE_JOIN.join(pieces) == svg and pieces[0].startswith("<svg") and pieces[-1].endswith("</svg>")
    assert len(pieces) > 50 and any(p.startswith('class="region"') for p in pieces)
    for text in ("", "<g ", "a<g b<g c", "<svg><g><g></g></svg>", "<g <g <g "):
        assert PIECE_JOIN.join(svg_pieces(text)) == text


def test_delta_frames_round_trip() -> None:
    frames = [[[0, 1, 2], [0, 3]], [[0, 1, 2], [0, 4, 5, 6]], [[0, 7], [0, 4, 5, 6]], [[8, 1, 2, 9], [0, 4]]]
    coded = delta_frames(frames)
    assert coded == [[[0, 1, 2], [0, 3]], [[-3], [-1, 4, 5, 6]], [[-1, 7], [-4]], [[8, 1, 2, 9], [-2]]]
    assert undelta_frames(coded) == frames
    assert delta_frames([]) == [] and undelta_frames([[[]]]) == [[[]]]


def test_frames_are_every_decision_from_every_perspective(rec: GameRecord, doc: ReplayDocument) -> None:
    players = rec.players
    assert len(doc.frames) == len(rec.actions) + 1 == len(doc.steps)
    assert doc.perspectives == ["Everything (omniscient)"] + [f"P{s} random" for s in range(players)]
    for step in replay_steps(rec):
        assert len(doc.frames[step.number]) == players + 1
        assert doc.svg(step.number, 0) == board_svg(step.game)
        for seat in range(players):
            assert doc.svg(step.number, seat + 1) == board_svg(step.game, viewer=seat)
        assert doc.steps[step.number]["action"] == step.action and doc.steps[step.number]["round"] == step.game.round
    assert sum(e[0] == 0 for e in doc.events) == len(next(replay_steps(rec)).events)
    assert doc.round_scores[max(doc.round_scores)] == list(rec.scores)


def test_the_page_is_self_contained(html: str, rec: GameRecord) -> None:
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "http://" not in html and "https://" not in html
    assert not re.search(r"<(link|img|iframe)\b", html) and not re.search(r"<script[^>]*\bsrc=", html)
    data, frames, pieces = page_data(html)
    assert not any(re.search(r"\b(href|src)=", p) for p in pieces)
    assert {m for p in pieces for m in re.findall(r"https?://[^\"]*", p)} == {"http://www.w3.org/2000/svg"}
    assert len(frames) == len(rec.actions) + 1 and len(data["steps"]) == len(rec.actions) + 1
    assert all(len(f) == rec.players + 1 for f in frames)
    assert data["perspectives"][0].startswith("Everything") and len(data["perspectives"]) == rec.players + 1
    for key in ('id="board"', 'id="log"', 'id="slider"', 'id="perspective"', 'id="round"', 'id="score-chart"'):
        assert key in html
    for seat, score in enumerate(rec.scores):
        assert f'<tr data-seat="{seat}">' in html and f'<td class="num">{score}</td>' in html


def test_seat_frames_hold_no_other_seats_hidden_cards(html: str, rec: GameRecord) -> None:
    data, frames, pieces = page_data(html)
    others_seen = 0
    for step in range(len(frames)):
        omniscient = cards(frame_svg(data, frames, pieces, step, 0))
        for seat in range(rec.players):
            shown = cards(frame_svg(data, frames, pieces, step, seat + 1))
            other_hands = [c for c in shown if c.get("data-where") == "hand" and c.get("data-seat") != str(seat)]
            assert all("data-card" not in c for c in other_hands), (step, seat)
            mine = [c["data-card"] for c in shown if c.get("data-where") == "hand" and c.get("data-seat") == str(seat)]
            assert sorted(mine) == sorted(
                c["data-card"] for c in omniscient if c.get("data-where") == "hand" and c.get("data-seat") == str(seat)
            )
            others_seen += sum(
                "data-card" in c
                for c in omniscient
                if c.get("data-where") == "hand" and c.get("data-seat") != str(seat)
            )
    assert others_seen > 0  # the omniscient frames do show every hand


def test_score_chart_has_a_line_per_player() -> None:
    chart = score_chart({0: [0, 0], 1: [2, 0], 2: [5, 3]}, ["a", "b"])
    assert chart.count('class="score-line"') == 2 and 'data-rounds="1,2"' in chart
    assert "P0 a: 5" in chart and "P1 b: 3" in chart and 'id="chart-now"' in chart


@pytest.mark.parametrize("config", [EXPANSION, BRUTII], ids=["expansion", "brutii"])
def test_expansion_and_brutii_games_make_pages(config: dict[str, Any]) -> None:
    record = play_record(config=dict(config))
    page_text = replay_html(record, seat=1)
    data, frames, _ = page_data(page_text)
    assert data["initial"] == 2 and len(data["perspectives"]) == record.players + 1
    assert len(frames) == len(record.actions) + 1
    rules = "expansion game with the Brutii" if config.get("brutii") else "expansion game,"
    assert rules in page_text
    with pytest.raises(ValueError, match="--seat must be in"):
        replay_html(record, seat=record.players)


# -- the command -------------------------------------------------------------------------------------------


@pytest.fixture
def results(tmp_path: Path, rec: GameRecord) -> Path:
    path = tmp_path / "results.sqlite"
    with ResultStore(path, {"test": True}) as store:
        store.add(rec)
    return path


def run_cli(argv: list[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    replay.add_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    return replay.run(parser.parse_args(["replay", *argv]), out=out), out.getvalue()


def test_cli_writes_the_page_and_opens_it(
    results: Path, tmp_path: Path, rec: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "game.html"
    code, out = run_cli([str(results), "--game", str(rec.game_id), "--html", str(target)])
    assert code == 0 and f"wrote {target}" in out and f"{len(rec.actions)} decisions" in out
    assert target.read_text() == replay_html(rec)
    opened: list[str] = []
    monkeypatch.setattr(replay.webbrowser, "open", lambda url: opened.append(url) or True)
    monkeypatch.setattr(replay.tempfile, "gettempdir", lambda: str(tmp_path))
    code, out = run_cli([str(results), "--game", str(rec.game_id), "--open", "--seat", "1"])
    written = tmp_path / f"tribune-replay-results-game-{rec.game_id}.html"
    assert code == 0 and opened == [written.resolve().as_uri()]
    assert page_data(written.read_text())[0]["initial"] == 2


def test_cli_html_errors(results: Path, tmp_path: Path, rec: GameRecord, capsys: pytest.CaptureFixture[str]) -> None:
    game = ["--game", str(rec.game_id)]
    assert run_cli([str(results), *game, "--html", str(tmp_path / "a.html"), "--step"])[0] == 2
    assert "cannot be combined" in capsys.readouterr().err
    assert run_cli([str(results), *game, "--html", str(tmp_path / "a.html"), "--seat", "9"])[0] == 2
    assert "--seat must be in 0..2" in capsys.readouterr().err
    assert run_cli([str(results), *game, "--html", str(tmp_path / "no" / "dir" / "a.html")])[0] == 2
    assert "cannot write" in capsys.readouterr().err
    assert not (tmp_path / "a.html").exists()


# -- in a real browser -------------------------------------------------------------------------------------


def test_the_page_in_chromium(page: Any, tmp_path: Path, rec: GameRecord, doc: ReplayDocument, html: str) -> None:
    started = time.perf_counter()
    path = tmp_path / "game.html"
    path.write_text(html)
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    decisions = len(rec.actions)

    # the key elements
    assert page.locator("#board svg #status").count() == 1
    assert page.locator("#board svg .region").count() >= 8
    assert page.locator("#log .line:not(.hidden)").count() == sum(e[0] == 0 for e in doc.events) > 0
    assert page.get_attribute("#slider", "max") == str(decisions)
    assert page.locator("#score-chart polyline.score-line").count() == rec.players
    assert page.locator("#result tr[data-seat]").count() == rec.players
    assert page.text_content("#step-label") == f"0 / {decisions}"
    first_board = page.inner_html("#board")
    first_status = page.text_content("#board #status")
    page.screenshot(path=str(tmp_path / "start.png"), full_page=True)

    # forward (button, then arrow key) and back: the board, the status and the log move and come back
    page.click("#next")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-step") == "2"
    assert page.inner_html("#board") != first_board and page.text_content("#board #status") != first_status
    assert page.text_content("#decision").startswith(f"#2 P{doc.steps[2]['seat']} (random)")
    assert page.locator("#log .line.current").count() == doc.steps[2]["events"][1] - doc.steps[2]["events"][0]
    page.click("#prev")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("body", "data-step") == "0"
    assert page.inner_html("#board") == first_board and page.text_content("#board #status") == first_status

    # the slider
    page.eval_on_selector("#slider", "(s) => { s.value = '30'; s.dispatchEvent(new Event('input')); }")
    assert page.get_attribute("body", "data-step") == "30" and page.text_content("#step-label") == f"30 / {decisions}"

    # jump to round 2
    start2 = next(i for i, s in enumerate(doc.steps) if s["round"] == 2)
    page.select_option("#round", "2")
    assert page.get_attribute("body", "data-step") == str(start2)
    assert "Round 2" in page.text_content("#board #status")
    page.screenshot(path=str(tmp_path / "round2.png"), full_page=True)

    # perspectives: omniscient shows every hand; seat 0 sees only its own, and only its private log lines
    hand = "#board .card[data-where='hand'][data-seat='{}'][data-card]"
    assert page.locator(hand.format(1)).count() > 0
    page.select_option("#perspective", "1")
    assert page.get_attribute("body", "data-perspective") == "1"
    assert page.locator(hand.format(1)).count() == 0 and page.locator(hand.format(0)).count() > 0
    assert "as P0 sees it" in page.text_content("#board #status")
    private_other = sum(e[3] not in (-1, 0) for e in doc.events)
    assert private_other > 0
    assert page.locator("#log .line").count() == len(doc.events) - private_other
    page.locator("#board").screenshot(path=str(tmp_path / "board-seat0.png"))

    # every frame decoded as written: the text and the elements of some boards, from two perspectives
    for perspective in (2, 0):
        page.select_option("#perspective", str(perspective))
        for step in (1, 7, decisions // 2, decisions - 1):
            page.eval_on_selector("#slider", f"(s) => {{ s.value = '{step}'; s.dispatchEvent(new Event('input')); }}")
            expected = doc.svg(step, perspective)
            assert page.text_content("#board svg") == unescape(re.sub(r"<[^>]*>", "", expected)), (step, perspective)
            assert page.locator("#board svg *").count() == len(re.findall(r"<[a-z]", expected)) - 1

    # the end of the game
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-step") == str(decisions)
    assert "game over" in page.text_content("#decision")
    page.screenshot(path=str(tmp_path / "end.png"), full_page=True)

    for name in ("start.png", "round2.png", "board-seat0.png", "end.png"):
        assert (tmp_path / name).stat().st_size > 30_000, name
    assert time.perf_counter() - started < 20
