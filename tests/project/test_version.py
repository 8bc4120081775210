"""One version everywhere: ``tribune_env.__version__`` is the only place it is written; ``tribune --version``, the
package metadata, the changelog and the documentation show it."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib

import pytest
from paths import DOCS, ROOT

from tribune_cli.main import main
from tribune_env import __version__

CHANGELOG = ROOT / "CHANGELOG.md"
RELEASE = re.compile(r"^## (\d+\.\d+\.\d+)\b", re.M)


def test_the_version_is_a_release_number() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_the_command_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.split() == ["tribune", __version__]


def test_the_package_metadata_reads_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tribune_env.__version__"}
    installed = importlib.metadata.version("tribune-rl")
    assert installed == __version__, f"installed metadata says {installed}: reinstall (pip install -e .)"


def test_the_changelog_starts_with_it() -> None:
    releases = RELEASE.findall(CHANGELOG.read_text(encoding="utf-8"))
    assert releases and releases[0] == __version__
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))), reverse=True)


def test_the_readme_and_the_docs_name_no_other_version() -> None:
    """Every "version X.Y[.Z]" in the README and the pages is a release of the changelog, written in full."""
    releases = set(RELEASE.findall(CHANGELOG.read_text(encoding="utf-8")))
    pages = [ROOT / "README.md", *(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)]
    named = {
        (str(page.relative_to(ROOT)), number)
        for page in pages
        for number in re.findall(r"\b[Vv]ersion (\d+\.\d+(?:\.\d+)?)\b", page.read_text(encoding="utf-8"))
    }
    assert [(page, number) for page, number in sorted(named) if number not in releases] == []


def test_the_site_shows_it() -> None:
    hook = (DOCS / "_hooks" / "version.py").read_text(encoding="utf-8")
    assert "from tribune_env import __version__" in hook
    assert "{{ version }}" in (DOCS / "index.md").read_text(encoding="utf-8")
