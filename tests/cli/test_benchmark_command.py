"""``tribune benchmark``: a tiny run prints one table and writes the record once, a rerun resumes its games, a skipped
track says why, bad inputs are one error line each, and ``--compare`` prints two records side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribune_arena.benchmark import SUITE_VERSION
from tribune_cli.main import main

TINY = ["--deals", "1", "--workers", "1", "--no-progress"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["benchmark", *argv])
    except SystemExit as stop:  # argparse's errors
        code = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_a_tiny_run_prints_the_table_writes_the_record_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "record.json"
    argv = ["random", "--tracks", "base-4p-vs-heuristic", "--out", str(out), "--games-dir", str(tmp_path / "g"), *TINY]
    code, text, _ = _run(argv, capsys)
    assert code == 0
    assert f"Strength benchmark {SUITE_VERSION}: random, 1 deal (not the standard size)" in text
    assert "base-4p-vs-heuristic" in text and f"record: {out}" in text
    record = json.loads(out.read_text())
    (track,) = record["tracks"]
    assert (track["games"], track["seat_games"], track["deals"], track["parity"]) == (4, 4, 1, 0.25)
    assert record["command"] == "tribune benchmark random --tracks base-4p-vs-heuristic --deals 1 --workers 1"
    assert record["suite"]["standard"] is False and record["time_limit"] == 30.0
    code, _, err = _run(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and "exists: give --force" in err
    code, _, err = _run([*argv, "--force"], capsys)
    assert code == 0 and "4 of 4 games already played" in err and "played 4 games in" not in err
    assert json.loads(out.read_text())["tracks"] == [track]


def test_a_track_the_agent_does_not_play_is_skipped_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "ppo.json"
    code, text, _ = _run(["ppo", "--tracks", "brutii-5p-as-brutii", "--out", str(out), *TINY], capsys)
    assert code == 0 and "skipped" in text and "skipped brutii-5p-as-brutii: agent 'ppo' does not play" in text
    (track,) = json.loads(out.read_text())["tracks"]
    assert track["status"] == "skipped" and "does not play the Brutii variant" in track["reason"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["random", "--tracks", "nope"], "--tracks: unknown track 'nope'; the tracks are base-4p-vs-heuristic"),
        (["random", "--tracks", "base-4p-vs-ppo,"], "--tracks: expected track names separated by commas"),
        (["random", "--deals", "0"], "argument --deals: must be in 1..100000, got 0"),
        (["random", "--deals", "many"], "argument --deals: expected an integer, got 'many'"),
        (["random", "--time-limit", "-1"], "argument --time-limit: must be >= 0"),
        (["nobody"], "unknown agent 'nobody'"),
        (["mcts:iterations=zero"], "parameter iterations: expected an integer"),
        ([], "give the agent spec to benchmark"),
        (["random", "--compare", "a.json", "b.json"], "give an agent to benchmark or --compare, not both"),
        (["--compare", "missing-a.json", "missing-b.json"], "--compare: missing-a.json: cannot read the record"),
    ],
)
def test_bad_inputs_are_one_error_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(argv, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "results").exists()


def test_compare_prints_two_records_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    track = {"name": "base-4p-vs-heuristic", "status": "played", "win_rate": 0.5, "win_rate_ci": [0.4, 0.6]}
    base = {"format": "tribune-benchmark", "format_version": 1, "suite": {"version": SUITE_VERSION, "deals": 100}}
    a = {**base, "agent": "ppo", "tracks": [{**track, "parity": 0.25}]}
    b = {**base, "agent": "zero", "suite": {"version": "2099.01-1", "deals": 100}}
    b["tracks"] = [{**track, "win_rate": 0.785, "parity": 0.25}, {"name": "brutii-5p-as-brutii", "status": "skipped"}]
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path, doc in zip(paths, (a, b), strict=True):
        path.write_text(json.dumps(doc))
    code, text, _ = _run(["--compare", *map(str, paths)], capsys)
    assert code == 0
    assert "A: ppo" in text and "B: zero" in text and "+28.5" in text and "50.0% (40-60%)" in text
    assert "skipped" in text and "the suite versions differ" in text
