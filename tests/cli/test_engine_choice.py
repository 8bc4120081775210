"""``TRIBUNE_ENGINE`` at the command line (issue 34 item 2): ``native`` without a built core, or a value that names
no engine, stops ``tribune`` before any command runs, with status 2 and one line on stderr."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tribune_cli.main import main
from tribune_env.engine import native


def _lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


def test_native_required_but_not_built_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(native, "core_module", None)
    monkeypatch.setattr(native, "BUILD_ERROR", "No module named 'tribune_env._core'")
    monkeypatch.setenv("TRIBUNE_ENGINE", "native")
    assert main(["simulate", "--games", "1", "--players", "2"]) == 2
    captured = capsys.readouterr()
    (line,) = _lines(captured.err)
    assert line.startswith("tribune: TRIBUNE_ENGINE=native, but the native core is not built")
    assert "No module named 'tribune_env._core'" in line
    assert captured.out == ""  # nothing was played


def test_a_bad_engine_name_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRIBUNE_ENGINE", "fortran")
    assert main(["simulate", "--games", "1", "--players", "2"]) == 2
    (line,) = _lines(capsys.readouterr().err)
    assert line.startswith("tribune: TRIBUNE_ENGINE: expected one of auto, python, native") and "'fortran'" in line


@pytest.mark.parametrize("choice", ["python", "auto", ""])
def test_other_choices_run_without_the_core(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], choice: str
) -> None:
    monkeypatch.setattr(native, "core_module", None)
    monkeypatch.setenv("TRIBUNE_ENGINE", choice)
    assert main(["simulate", "--games", "1", "--players", "2", "--json"]) == 0
    assert capsys.readouterr().out.strip()


UNBUILT = """
import sys, importlib.abc
class NoCore(importlib.abc.MetaPathFinder):  # an install where the native core was not built
    def find_spec(self, name, path, target=None):
        if name == "tribune_env._core":
            raise ImportError("No module named 'tribune_env._core'")
        return None
sys.meta_path.insert(0, NoCore())
from tribune_cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow  # two fresh interpreters; the quick variant monkeypatches native.core_module
def test_the_command_in_a_process_without_the_core() -> None:
    env = {**os.environ, "TRIBUNE_ENGINE": "native"}
    done = subprocess.run(
        [sys.executable, "-c", UNBUILT, "simulate", "--games", "1"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    assert len(_lines(done.stderr)) == 1 and "native core is not built" in done.stderr and not done.stdout
    env["TRIBUNE_ENGINE"] = "python"
    done = subprocess.run(
        [sys.executable, "-c", UNBUILT, "simulate", "--games", "1"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
