"""``tribune replay --html`` on a long game (issue 26): the boards drawn by worker processes make the same page,
byte for byte, as the boards drawn in one process, every frame the board of its decision; the drawing reports its
progress, and the command shows a progress bar on a terminal only."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from game_records import play_record
from test_replay_html import frame_svg, page_data, run_cli

from tribune_arena.records import GameRecord
from tribune_arena.replay import html, workers
from tribune_arena.replay.html import replay_html
from tribune_arena.replay.text import replay_steps
from tribune_arena.replay.workers import MAX_DEFAULT_WORKERS, PARALLEL_MIN_DECISIONS, default_workers
from tribune_arena.tournament.store import ResultStore
from tribune_env.board import board_svg


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return play_record(config={"players": 3, "round_limit": 2, "expansion": True})


def test_workers_make_the_same_page_with_every_frame_its_board(record: GameRecord) -> None:
    counted: list[int] = []
    alone = replay_html(record, workers=1, progress=counted.append)
    steps = len(record.actions) + 1
    assert sum(counted) == steps and set(counted) == {1}
    counted.clear()
    shared = replay_html(record, workers=2, progress=counted.append)
    assert sum(counted) == steps and set(counted) == {1}  # told by the workers, step by step
    assert shared == alone
    data, frames, pieces = page_data(shared)
    for step in replay_steps(record):
        n = step.number
        assert frame_svg(data, frames, pieces, n, 0) == board_svg(step.game)
        for seat in range(record.players):
            assert frame_svg(data, frames, pieces, n, seat + 1) == board_svg(step.game, viewer=seat)


def test_default_workers_one_per_cpu_for_long_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for cpus, expected in ((1, 1), (2, 2), (4, 4), (16, MAX_DEFAULT_WORKERS)):
        monkeypatch.setattr(workers, "usable_cpus", lambda cpus=cpus: cpus)
        assert default_workers(PARALLEL_MIN_DECISIONS) == expected, cpus
        assert default_workers(PARALLEL_MIN_DECISIONS - 1) == 1
    monkeypatch.undo()
    assert MAX_DEFAULT_WORKERS == 4 and 1 <= workers.usable_cpus() <= (os.cpu_count() or 1)


@pytest.fixture
def results(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "results.sqlite"
    with ResultStore(path, {"test": True}) as store:
        store.add(record)
    return path


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_only_on_a_terminal(
    results: Path, record: GameRecord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "game.html"
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    code, out = run_cli([str(results), "--game", str(record.game_id), "--html", str(target)])
    assert code == 0 and out.startswith(f"wrote {target}") and quiet.getvalue() == ""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    calls: list[object] = []
    drawn = html.replay_document

    def spy(*args: object, **kwargs: object) -> html.ReplayDocument:
        calls.append(kwargs.get("progress"))
        return drawn(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(html, "replay_document", spy)
    code, out = run_cli([str(results), "--game", str(record.game_id), "--html", str(target)])
    assert code == 0 and out.startswith(f"wrote {target}")
    assert callable(calls[0]) and "drawing decisions" in terminal.getvalue()
    assert target.read_text() == replay_html(record)


def test_cli_workers_flag(
    results: Path,
    record: GameRecord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asked: list[object] = []
    drawn = html.replay_document

    def spy(*args: object, **kwargs: object) -> html.ReplayDocument:
        asked.append(kwargs.get("workers"))
        return drawn(*args, **{**kwargs, "workers": 1})  # type: ignore[arg-type]

    monkeypatch.setattr(html, "replay_document", spy)
    game = [str(results), "--game", str(record.game_id)]
    target = tmp_path / "game.html"
    assert run_cli([*game, "--html", str(target), "--workers", "3"])[0] == 0
    assert run_cli([*game, "--html", str(target)])[0] == 0
    assert asked == [3, None]  # None: default_workers
    assert run_cli([*game, "--workers", "2"])[0] == 2
    assert "--workers draws the boards of the HTML page" in capsys.readouterr().err
    assert run_cli([str(results), "--list", "--workers", "2"])[0] == 2
    assert "cannot be combined with --workers" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run_cli([*game, "--html", str(target), "--workers", "0"])
    assert asked == [3, None]
