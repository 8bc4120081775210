"""Issue 42, rough edge 8: the commands that docs/datasets.md and docs/replays.md show write where git ignores
what they make (run from the checkout they leave no ``datasets/`` or ``game.html`` untracked), and the datasets page
says how large 100 games are and how long its examples take, and its behaviour-cloning example reports progress."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("datasets.md", "replays.md")
OUTPUT_FLAGS = re.compile(r"(?:--out|--html|--results)[ =](\S+)")


def _shell_lines(page: str) -> list[str]:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return [line for block in re.findall(r"```bash\n(.*?)```", text, re.S) for line in block.splitlines()]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs the git checkout")
@pytest.mark.parametrize("page", PAGES)
def test_documented_outputs_are_ignored_by_git(page: str) -> None:
    outputs = [path for line in _shell_lines(page) for path in OUTPUT_FLAGS.findall(line)]
    assert outputs, f"docs/{page} shows no command that writes a file"
    for path in outputs:
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False).returncode == 0
        assert ignored, f"docs/{page}: {path} would be left untracked in the checkout"


def test_the_datasets_page_gives_size_and_time_and_the_example_reports_progress() -> None:
    text = (ROOT / "docs" / "datasets.md").read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    assert re.search(r"100 games .*?\b\d+ MiB\b", prose, re.S), "no size for the 100 games"
    assert re.search(r"written in \d+ s\b", prose) and re.search(r"\b\d+ s in all\b", prose), "no times"
    example = re.findall(r"```python\n(.*?)```", text, re.S)[-1]
    assert re.search(r"for step in range\(\d+\):\n(?:    .*\n)*?        print\(", example), "the fit prints nothing"
