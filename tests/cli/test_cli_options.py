"""Every bad option of every ``tribune`` sub-command: one line on stderr, exit status 2, before any work (issue 13).

Also: output piped into a reader that closes early (``| head -1``) ends quietly, without "Broken pipe".
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tribune_cli.main import main

BAD_TOML = "[meta]\nname = 'x'\nreconstructed = true\n"  # loads as TOML, misses every table


def _setup(root: Path) -> None:
    (root / "afile").write_text("not a folder\n")
    (root / "bad.toml").write_text(BAD_TOML)
    (root / "folder").mkdir()


BAD: dict[str, list[list[str]]] = {
    "": [[], ["nope"], ["--bogus"]],
    "simulate": [
        ["--games", "0"],
        ["--games", "x"],
        ["--players", "1"],
        ["--players", "9"],
        ["--victory-card", "nope"],
        ["--components", "missing.toml"],
        ["--components", "folder"],
        ["--components", "bad.toml"],
        ["--components", "afile"],
        ["--round-limit", "0"],
        ["--seed", "x"],
        ["--expansion", "--players", "6"],
    ],
    "log": [["--seat", "9"], ["--seat", "-1"], ["--players", "0"], ["--components", "folder"], ["--seed", "1.5"]],
    "bench": [
        ["--seconds", "nan"],
        ["--seconds", "inf"],
        ["--seconds", "-1"],
        ["--seconds", "0"],
        ["--seconds", "x"],
        ["--seed", "-1"],
        ["--seed", str(2**63)],
        ["--players", "7"],
        ["--peers", "nope"],
        ["--peers", "chess_v6"],  # a PettingZoo game, but not one of the peers the bench knows
    ],
    "docs": [["--out", "afile"], ["--out", "missing"], ["--out", "/proc"]],
    "tournament": [
        ["--results", "."],
        ["--results", "folder"],
        ["--results", "afile/x.sqlite"],
        ["--plots", "afile"],
        ["--plots", "afile/sub"],
        ["--plots", "/proc/plots"],
        ["--seed", "-1"],
        ["--seed", str(2**63)],
        ["--games", "0"],
        ["--games", str(10**20)],
        ["--workers", "0"],
        ["--workers", str(10**9)],
        ["--players", "9"],
        ["--players", "1"],
        ["--victory-card", "nope"],
        ["--time-limit", "nan"],
        ["--time-limit", "-1"],
        ["--round-limit", "0"],
        ["--round-limit", str(10**20)],
        ["--ray-address", "auto"],
        ["--backend", "nope"],
        ["--expansion", "--players", "6"],
        ["--victory-card", "quid_est_veritas"],
    ],
    "replay": [["missing.sqlite"], ["folder"], ["afile"]],
    "play": [["--seat", "9"], ["--players", "1"], ["--seed", "x"], ["nope"], ["--expansion", "--players", "6"]],
    "train": [["--set", "novalue"], ["missing.yaml"], ["folder"], ["--export", "missing.zip", "out.npz"]],
}
TOURNAMENT = ["tournament", "random", "random", "--games", "2", "--workers", "1"]
CASES = [
    pytest.param(
        (TOURNAMENT if cmd == "tournament" else [cmd] if cmd else []) + args, id=f"{cmd or 'tribune'}:{' '.join(args)}"
    )
    for cmd, options in BAD.items()
    for args in options
]
CASES.append(pytest.param([*TOURNAMENT, "nope-agent"], id="tournament:unknown spec"))


@pytest.mark.parametrize("argv", CASES)
def test_a_bad_option_is_one_line_and_exit_2(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _setup(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, f"exit {code}: {err}"
    assert len(lines) == 1 and lines[0].startswith("tribune"), err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before, "work was done before the error"


def _tribune(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "tribune_cli.main", *args]


@pytest.mark.slow  # whole tournaments in subprocesses
@pytest.mark.parametrize("json", [False, True], ids=["tables", "json"])
def test_a_closed_stdout_is_quiet(tmp_path: Path, json: bool) -> None:
    argv = [*TOURNAMENT, "--results", str(tmp_path / "r.sqlite"), "--no-progress", *(["--json"] if json else [])]
    proc = subprocess.Popen(_tribune(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader went away before the first line
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Broken pipe" not in err and "Traceback" not in err, err
    assert (tmp_path / "r.sqlite").exists()


@pytest.mark.slow
def test_piping_into_head_is_quiet(tmp_path: Path) -> None:
    argv = " ".join(
        [
            "tournament",
            "random",
            "random",
            "random",
            "--players",
            "2",
            "--games",
            "6",
            "--workers",
            "1",
            "--results",
            "r.sqlite",
            "--no-progress",
        ]
    )
    command = f"{sys.executable} -m tribune_cli.main {argv} 2>err.txt | head -1"
    out = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True)
    err = (tmp_path / "err.txt").read_text()
    assert len(out.stdout.splitlines()) == 1
    assert "Broken pipe" not in err and "Traceback" not in err, err
