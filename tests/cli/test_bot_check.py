"""``tribune bot-check`` (issue 36): the example bots pass every stage; a broken bot's first fault is named."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from agents.bot_box import bwrap_path
from tribune_cli.main import main

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

BROKEN = r"""
import json, sys, time

fault = sys.argv[1]
games = 0
for line in sys.stdin:
    m = json.loads(line)
    t = m["type"]
    if t == "hello":
        protocol = "tribune-agent/0" if fault == "hello" else "tribune-agent/1"
        out = {"type": "hello", "protocol": protocol, "name": "broken", "rules": ["base"]}
    elif t == "reset":
        games += 1
        out = {"type": "ready"}
    elif t == "act":
        if fault == "illegal":
            out = {"type": "action", "id": "place:9999"}
        elif fault == "slow":
            time.sleep(3)
            out = {"type": "action", "id": m["legal"][0]["id"]}
        else:
            out = {"type": "action", "id": m["legal"][0]["id"]}
    elif t == "game_over":
        if fault == "game_over" and games >= 3:
            sys.exit(3)
        continue
    elif t == "bye":
        if fault == "bye":
            continue
        sys.exit(0)
    elif fault == "unknown":
        out = {"type": "what?"}
    else:
        continue
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
if fault == "eof":
    time.sleep(60)
"""


def check(spec: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["bot-check", spec, *extra])
    return code, capsys.readouterr().out


@pytest.mark.parametrize(
    "bot",
    [
        f"python {ROOT / 'examples' / 'bots' / 'random_bot.py'}",
        pytest.param(
            f"node {ROOT / 'examples' / 'bots' / 'random_bot.js'}",
            marks=pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js) is not installed"),
        ),
    ],
)
def test_the_example_bots_pass_every_stage(bot: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = check(f"cmd:{bot}", capsys)
    assert code == 0, out
    assert "FAIL" not in out and "the bot passes every stage" in out
    for stage in ("hello", "box", "unknown", "reset", "act", "game over", "bye", "end of input"):
        assert f"ok   {stage}:" in out


@pytest.mark.parametrize(
    ("fault", "stage", "words"),
    [
        ("hello", "hello", "tribune-agent/0"),
        # the bot answers the unknown message: seen as it comes, or as the answer to the next message
        ("unknown", "unknown", "answered a message of type 'what?'|\"what?\"}\\n' without being asked"),
        ("illegal", "act", "chose 'place:9999', not one of the"),
        ("slow", "act", "did not answer in time"),
        ("game_over", "game over", "exited with code 3"),
        ("bye", "bye", "did not exit within 1 s of bye"),
        ("eof", "end of input", "did not exit within 5 s of the end of its input"),
    ],
)
def test_a_broken_bot_gets_its_first_fault_named(
    fault: str, stage: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "broken_bot.py"
    script.write_text(BROKEN)
    code, out = check(f"cmd:{PYTHON} {script} {fault}", capsys, "--move-seconds", "1")
    assert code == 1, out
    failed = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1 and failed[0].startswith(f"FAIL {stage}:"), out
    assert any(w in failed[0] for w in words.split("|")), out


def test_a_spec_that_is_not_a_program_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot-check", "random"]) == 2
    assert "cmd:COMMAND LINE" in capsys.readouterr().err


@pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap (bwrap) is not installed or cannot make namespaces here")
def test_a_bot_whose_folder_holds_a_project_is_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42, B3: the box shows all of the bot's folder; at a project's root that is the project."""
    (tmp_path / "results.sqlite").write_text("every seed")
    (tmp_path / "pyproject.toml").write_text("")
    script = tmp_path / "bot.py"
    script.write_text(BROKEN)
    code, out = check(f"cmd:{PYTHON} {script} none", capsys)
    assert code == 0, out
    warned = [line for line in out.splitlines() if line.startswith("warn box:")]
    assert len(warned) == 1 and "pyproject.toml, results.sqlite" in warned[0], out
    bots = tmp_path / "bots"
    bots.mkdir()
    script.rename(bots / "bot.py")
    code, out = check(f"cmd:{PYTHON} {bots / 'bot.py'} none", capsys)
    assert code == 0 and "warn" not in out and f"its folder {bots}" in out, out
