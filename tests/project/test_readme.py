"""The README's code examples run, so they cannot rot."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from paths import ROOT

import tribune_env

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 1  # the ten-line example; the site's pages hold the rest (tests/project/test_docs_site.py)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packaged = Path(tribune_env.__file__).parent / "data" / "components.toml"
    shutil.copy(packaged, tmp_path / "my.toml")  # the component-file example loads "my.toml"
    monkeypatch.chdir(tmp_path)
    exec(compile(BLOCKS[index], f"README.md block {index}", "exec"), {})
