"""Untrusted strings from results files (issue 25): seating names and forfeit messages that try to break the replay
page, drive the terminal or inject rich markup, forged records, and replay options that would be ignored.

A results file written by ``tribune serve`` has no schedule, so nothing checks its seating names; any record may
carry a forfeit message an agent wrote. Every string must come out as the text it is: in the page's JSON data block
(escaped so that the HTML parser cannot end or change the script element), in the terminal (control characters
escaped), in rich tables (never markup). A record that ``--list`` marks UNUSABLE is refused by ``--game`` too.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from game_records import play_record
from test_replay_html import frame_svg, page_data

from tribune_arena.records import Forfeit, GameRecord, printable
from tribune_arena.replay.html import replay_html
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_arena.tournament.store import ResultStore, expected_outcome
from tribune_cli import replay
from tribune_cli import tournament as tournament_cli
from tribune_env.engine.game import Game
from tribune_env.engine.notation import parse_action

HOSTILE = (
    "</script><!--<script>",
    "<!--<script>",
    "</SCRIPT\t>x<script/>",
    "a & b > c < d &amp; &lt;",
    "\u2028line\u2029separators",
    "\x1b[2J\x1b]0;pwned\x07 escapes",
    "\x9b31m C1 \x85 \x7f del",
    "[bold red]markup[/] [/x] :smile:",
    "new\nline\r\ttab \x00 nul",
    "rtl \u202eevil\u2066",
    "\"quotes' \\ back\\slash \\u003c",
)
MESSAGE = " | ".join(HOSTILE)


def hostile_seating(first: int = 0) -> tuple[str, str, str]:
    return (HOSTILE[first % len(HOSTILE)], HOSTILE[(first + 1) % len(HOSTILE)], HOSTILE[(first + 2) % len(HOSTILE)])


@pytest.fixture(scope="module")
def rec() -> GameRecord:
    return play_record()


def forfeited(record: GameRecord, after: int, message: str, game_id: int) -> GameRecord:
    """``record`` cut after ``after`` decisions, forfeited by the seat to move with ``message``: a sound record
    (the replay gives its outcome), as the tournament runner writes one."""
    game = Game.new(record.game_config(), seed=record.seed)
    for text in record.actions[:after]:
        game.apply(parse_action(text))
    forfeit = Forfeit(game.current_seat, "raised", message)
    scores, ranks, winners = expected_outcome(game, forfeit)
    return dataclasses.replace(
        record,
        game_id=game_id,
        actions=record.actions[:after],
        decisions=after,
        scores=scores,
        ranks=ranks,
        winners=winners,
        rounds=game.round,
        truncated=False,
        forfeit=forfeit,
    )


# -- the replay page's data block ------------------------------------------------------------------------------


class _Scripts(HTMLParser):
    """The text of every ``<script>`` element by its id (``""`` without one), as Python's parser reads it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: dict[str, str] = {}
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open = dict(attrs).get("id") or ""
            self.scripts[self._open] = ""

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self.scripts[self._open] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = None


def script_end(text: str, start: int) -> int:
    """Where a browser ends the script element whose content starts at ``start`` (the index of its ``</script``),
    following the script data states of the WHATWG HTML tokenizer (13.2.5.4-13.2.5.26): after ``<!--`` a
    ``<script`` makes the next ``</script>`` part of the content, until ``-->``. -1: it never ends.

    Python's ``html.parser`` does not implement these states; this is what made ``<!--<script>`` in a seating name
    swallow the rest of the page in a browser.
    """
    low, state, dashes, i = text.lower(), "data", 0, start

    def tag_at(j: int, name: str) -> bool:
        k = j + len(name)
        return low.startswith(name, j) and k < len(text) and text[k] in "\t\n\f\r />"

    while i < len(text):
        c = text[i]
        if state != "data":
            if c == ">" and dashes >= 2:
                state, dashes, i = "data", 0, i + 1
                continue
            dashes = dashes + 1 if c == "-" else 0
        if state in ("data", "escaped") and tag_at(i, "</script"):
            return i
        if state == "data" and text.startswith("<!--", i):
            state, dashes, i = "escaped", 2, i + 4
            continue
        if state == "escaped" and tag_at(i, "<script"):
            state, dashes, i = "double", 0, i + len("<script")
            continue
        if state == "double" and tag_at(i, "</script"):
            state, dashes, i = "escaped", 0, i + len("</script")
            continue
        i += 1
    return -1


def test_script_end_follows_the_escaped_states() -> None:
    page = "<script>{}</script><p>"
    assert script_end(page, len("<script>")) == page.index("</script>")
    later = '<script>"<!--<script>"</script>x</script><p>'
    assert script_end(later, len("<script>")) == later.rindex("</script>")  # the first end is skipped
    swallowed = '<script>"<!--<script>"</script><script>x</script><p>'
    assert script_end(swallowed, len("<script>")) == -1  # the next script's opening tag escapes its end again
    closed = "<script><!-- x --></script>"
    assert script_end(closed, len("<script>")) == closed.index("</script>")


@pytest.mark.parametrize("first", range(0, len(HOSTILE), 3))
def test_the_replay_page_data_block_holds_any_string(rec: GameRecord, first: int) -> None:
    """Hostile seating names and a hostile forfeit message: the JSON data block ends where it should (for a
    browser's tokenizer too), reads back to the same strings, and the board frames are intact."""
    seating = hostile_seating(first)
    record = dataclasses.replace(rec, seating=seating, forfeit=Forfeit(1, "raised", MESSAGE))
    page = replay_html(record)
    opening = '<script type="application/json" id="replay-data">'
    start = page.index(opening) + len(opening)
    end = script_end(page, start)
    assert end == page.index("</script>", start), "the data block does not end at its own </script>"
    block = page[start:end]
    assert not any(c in block for c in "<>&\u2028\u2029"), block[:200]
    parser = _Scripts()
    parser.feed(page)
    assert parser.scripts["replay-data"] == block and set(parser.scripts) == {"replay-data", "replay-pool", ""}
    data = json.loads(block)
    assert data["seating"] == list(seating)
    assert data["perspectives"][1:] == [f"P{s} {name}" for s, name in enumerate(seating)]
    assert page.count("<script") == 3 and page.count("</script>") == 3
    assert page.rstrip().endswith("</html>") and 'id="board"' in page
    data, frames, pieces = page_data(page)
    assert len(frames) == len(rec.actions) + 1
    svg = frame_svg(data, frames, pieces, len(frames) - 1, 0)
    assert svg.startswith("<svg") and 'class="region"' in svg


def test_the_hostile_replay_page_draws_the_board_in_chromium(page: Any, tmp_path: Path, rec: GameRecord) -> None:
    record = dataclasses.replace(rec, seating=hostile_seating(), forfeit=Forfeit(1, "raised", MESSAGE))
    path = tmp_path / "hostile.html"
    path.write_text(replay_html(record), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=15_000)
    assert page.locator("#board svg #status").count() == 1
    assert page.locator("#board svg .region").count() >= 8
    assert page.locator("#perspective option").nth(1).text_content() == f"P0 {HOSTILE[0]}"


# -- the terminal -----------------------------------------------------------------------------------------------


def test_printable_escapes_control_characters_only() -> None:
    assert printable("random mcts:iterations=400 é 名 [b] <x> \\") == "random mcts:iterations=400 é 名 [b] <x> \\"
    assert printable("a\x1b[31mb\x9bc\x07\n\r\t\x00\x7f") == "a\\x1b[31mb\\x9bc\\x07\\n\\r\\t\\x00\\x7f"
    assert printable("x\u202ey\u2028z") == "x\\u202ey\\u2028z"
    for text in HOSTILE:
        assert printable(text).isprintable(), text


def _terminal_safe(text: str) -> None:
    """Only newlines end lines; no other control character, separator or bidi mark reaches the terminal."""
    bad = [c for c in text if c != "\n" and printable(c) != c]
    assert not bad, bad


def cli(argv: list[str], stdin: str = "") -> int:
    parser = argparse.ArgumentParser(prog="tribune")
    replay.add_parser(parser.add_subparsers(dest="command", required=True))
    return replay.run(parser.parse_args(["replay", *argv]), input_stream=io.StringIO(stdin))


@pytest.fixture
def hostile_file(tmp_path: Path, rec: GameRecord) -> Path:
    """Game 7: hostile names, sound; game 8: hostile names, a sound forfeit with a hostile message."""
    path = tmp_path / "results.sqlite"
    with ResultStore(path, {"test": True}) as store:  # no schedule: the names are not checked
        store.add(dataclasses.replace(rec, seating=hostile_seating(4)))
        store.add(dataclasses.replace(forfeited(rec, 12, MESSAGE, 8), seating=hostile_seating(5)))
    return path


def test_replay_list_escapes_names_and_messages(hostile_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli([str(hostile_file), "--list"]) == 0
    out = capsys.readouterr().out
    _terminal_safe(out)
    assert len(out.splitlines()) == 3 and "UNUSABLE" not in out  # a newline in a name makes no extra line
    assert " | ".join(map(printable, hostile_seating(4))) in out and "forfeit P" in out


@pytest.mark.parametrize("argv", [[], ["--seat", "1", "--board"], ["--step"]], ids=["whole", "seat", "step"])
def test_text_replay_escapes_names_and_messages(
    hostile_file: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for game, seating in (("7", hostile_seating(4)), ("8", hostile_seating(5))):
        assert cli([str(hostile_file), "--game", game, *argv], stdin="100000\n") == 0
        out = capsys.readouterr().out
        _terminal_safe(out)
        assert f"P0 {printable(seating[0])}" in out
    assert f"({printable('raised')}): {printable(MESSAGE)}" in out


def test_tournament_tables_print_names_and_messages_as_text(
    rec: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A forfeit message with rich markup ('[/x]' made rich raise MarkupError) and escape sequences."""
    definition = TournamentDefinition.create(("random", "random", "random"), players=3, games=2, seed=0, round_limit=2)
    records = [rec, forfeited(rec, 12, MESSAGE, 8)]
    args = argparse.Namespace(plots=None, json=False)
    tournament_cli._report(records, args, definition, tmp_path / "results.sqlite")
    out = capsys.readouterr().out
    _terminal_safe(out)
    assert "[/x] :smile:" in out and "\\x1b[2J" in out and "Leaderboard" in out


# -- forged records ----------------------------------------------------------------------------------------------


FORGED: dict[str, Callable[[GameRecord], GameRecord]] = {
    "a forfeit after the game ended": lambda r: dataclasses.replace(r, forfeit=Forfeit(0, "timeout", "forged")),
    "the ranks of a forfeit": lambda r: dataclasses.replace(
        forfeited(r, 12, "forged", r.game_id), ranks=(1, 1, 1), winners=(0, 1, 2)
    ),
}


@pytest.mark.parametrize("case", sorted(FORGED))
def test_replay_game_refuses_a_record_that_list_marks_unusable(
    case: str, rec: GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.sqlite"
    with ResultStore(path, {"test": True}) as store:
        store.add(rec)
        store.add(FORGED[case](dataclasses.replace(rec, game_id=9)))
    assert cli([str(path), "--list"]) == 0
    listed = capsys.readouterr().out
    problem = next(line for line in listed.splitlines() if line.startswith("  game    9: UNUSABLE: "))
    problem = problem.removeprefix("  game    9: UNUSABLE: ")
    page = tmp_path / "forged.html"
    for argv in ([], ["--step"], ["--html", str(page)]):
        assert cli([str(path), "--game", "9", *argv], stdin="100000\n") == 2, argv
        captured = capsys.readouterr()
        assert captured.err == f"tribune: error: {path}: game 9: {problem}\n", argv
        assert "Forfeit" not in captured.out and "forged" not in captured.out
    assert not page.exists()
    assert cli([str(path), "--game", "7"]) == 0  # the sound game still replays


# -- options that would be ignored -----------------------------------------------------------------------------


def test_replay_options_that_would_be_ignored_are_errors(
    hostile_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "x.html"
    cases = [
        (["--game", "7", "--html", ""], "--html: give the path of the page to write (got an empty one)"),
        (["--game", "7", "--html", "  "], "--html: give the path"),
        (["--list", "--html", str(target)], "cannot be combined with --html"),
        (["--list", "--open"], "cannot be combined with --open"),
        (["--list", "--step", "--board"], "cannot be combined with --step, --board"),
        (["--list", "--game", "7", "--seat", "0"], "cannot be combined with --game, --seat"),
    ]
    for argv, message in cases:
        assert cli([str(hostile_file), *argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("tribune: error: ") and message in err and err.count("\n") == 1, (argv, err)
    assert not target.exists()
    assert cli([str(hostile_file), "--list"]) == 0
