"""``tribune board``: every bad flag value is refused with one line naming the flag, exit status 2, before any work
(issue 25: ``--round -1`` and ``--after -1`` were drawn silently, ``--size`` had no upper bound, a ``--position`` that
is not JSON said only "Expecting value: line 1 column 1 (char 0)")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribune_cli.board import MAX_SIDE, png_size
from tribune_cli.main import main


def _board(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | str | None, str]:
    """Exit status and stderr of ``tribune board ARGV`` run in this process."""
    capsys.readouterr()
    try:
        code: int | str | None = main(["board", *argv])
    except SystemExit as exc:  # argparse's refusal
        code = exc.code
    return code, capsys.readouterr().err


def _refused(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line of ``tribune board ARGV --out tmp/b.png``; nothing is written."""
    out = tmp_path / "b.png"
    code, err = _board([*argv, "--out", str(out)], capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, f"exit {code}: {err}"
    assert len(lines) == 1 and lines[0].startswith("tribune"), err
    assert "Traceback" not in err
    assert not out.exists()
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--round", "-1"], "argument --round: must be >= 1, got -1"),
        (["--round", "0"], "argument --round: must be >= 1, got 0"),
        (["--round", "x"], "argument --round: expected an integer, got 'x'"),
        (["--after", "-1"], "argument --after: must be >= 0, got -1"),
        (["--after", "1.5"], "argument --after: expected an integer, got '1.5'"),
    ],
)
def test_round_and_after_are_checked(
    argv: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert expected in _refused(argv, tmp_path, capsys)


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ("12x", "expected WIDTHxHEIGHT"),
        ("x12", "expected WIDTHxHEIGHT"),
        ("12", "expected WIDTHxHEIGHT"),
        ("axb", "expected WIDTHxHEIGHT"),
        ("12x-3", "expected WIDTHxHEIGHT"),
        ("1.5x3", "expected WIDTHxHEIGHT"),
        ("\u0661\u0662x12", "expected WIDTHxHEIGHT"),  # Arabic-Indic digits: str.isdigit, but not pixels
        ("0x5", f"each side must be 1 to {MAX_SIDE} pixels"),
        ("5x0", f"each side must be 1 to {MAX_SIDE} pixels"),
        (f"{MAX_SIDE + 1}x10", f"each side must be 1 to {MAX_SIDE} pixels"),
        (f"10x{MAX_SIDE + 1}", f"each side must be 1 to {MAX_SIDE} pixels"),
        ("9" * 5000 + "x1", f"each side must be 1 to {MAX_SIDE} pixels"),  # beyond int()'s 4,300 digits
    ],
)
def test_size_is_checked_and_bounded(
    size: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused at parse time: before the fix a size such as 100000x100000 went on to allocate width x height x 3
    bytes (30 GB; not tried here for that reason)."""
    line = _refused([f"--size={size}"], tmp_path, capsys)
    assert "argument --size:" in line and expected in line


def test_size_accepts_the_bounds() -> None:
    assert png_size("1x1") == (1, 1)
    assert png_size(f"{MAX_SIDE}x{MAX_SIDE}") == (MAX_SIDE, MAX_SIDE)
    assert png_size("1200X750") == (1200, 750)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"hello\n", "not a JSON game document (Expecting value at line 1, column 1, char 0)"),
        (
            b'{"config": {"players": 3},\n  oops}',
            "not a JSON game document (Expecting property name enclosed in double quotes at line 2, column 3, char 29)",
        ),
        (b"", "not a JSON game document (Expecting value at line 1, column 1, char 0)"),
        (b"\xff\xfe{}", "not a JSON game document (not UTF-8 text: byte 0)"),
        (b"[" * 100_000, "not a JSON game document (nested too deeply)"),
        (b"[]", "expected a JSON object at the top level, got list"),
    ],
    ids=["text", "broken", "empty", "binary", "deep", "not-a-game"],
)
def test_position_that_is_not_a_json_game_names_the_file(
    content: bytes, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notjson.txt"
    path.write_bytes(content)
    line = _refused(["--position", str(path)], tmp_path, capsys)
    assert f"--position {path}: {expected}" in line


def test_good_values_still_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The smallest accepted --round and --after draw the first follower placement of round 1."""
    out = tmp_path / "b.svg"
    code, err = _board(["--round", "1", "--after", "0", "--size", "1x1", "--out", str(out)], capsys)
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith("<svg")
