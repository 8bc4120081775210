"""The documentation site's pages: every code block runs, the generated pages are current, the pages cover what they
promise (every extra, every command), the README stays short, and missing-extra hints come from one helper.

Conventions (CONTRIBUTING.md, "Every code block runs"): a page's blocks run in order in one fresh folder; a
``python`` block runs as it stands; a ``bash`` block is ``tribune`` commands, run in this process, with the
arguments of a ``<!-- tiny: COMMAND ARGS -->`` comment before the block appended to its ``tribune COMMAND`` lines;
``<!-- norun: why -->`` before a block skips it. ``mkdocs build --strict`` itself runs in CI (``.ci/run``).
"""

from __future__ import annotations

import contextlib
import re
import shlex
import shutil
import textwrap
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from paths import DOCS, ROOT

from tribune_cli.main import main
from tribune_env.envs.docs import DEFAULT_DIR, HEADER, generated_env_pages

SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```\n", re.M | re.S)
MARKER = re.compile(r"<!-- (norun|tiny): ?([^\n]*?) -->\s*\Z")
SHELLS = {"bash", "sh", "shell", "console"}
MAX_NORUN = 21
"""Blocks that may be marked not-run (installs, servers, interactive play, hour-long runs, recipes run elsewhere)."""
README_MAX_LINES = 200


@dataclass
class Block:
    page: str
    index: int
    lang: str
    code: str
    norun: str | None = None
    tiny: dict[str, list[str]] = field(default_factory=dict)


def page_text(path: Path) -> str:
    """A page as the site renders it: ``--8<-- "FILE"`` lines replaced by the file (CHANGELOG, CONTRIBUTING)."""
    return SNIPPET.sub(lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"), path.read_text(encoding="utf-8"))


def blocks_of(path: Path) -> list[Block]:
    """The fenced code blocks of a page, with the markers written just before each."""
    text = page_text(path)
    name = str(path.relative_to(DOCS))
    out: list[Block] = []
    for index, match in enumerate(FENCE.finditer(text)):
        block = Block(name, index, match.group(2), textwrap.dedent(match.group(3)))
        before = text[: match.start()].rstrip("\n")
        while (marker := MARKER.search(before)) is not None:
            kind, value = marker.group(1), marker.group(2).strip()
            if kind == "norun":
                block.norun = value
            else:
                command, *args = shlex.split(value)
                block.tiny.setdefault(command, []).extend(args)
            before = before[: marker.start()].rstrip("\n")
        out.append(block)
    return out


PAGES = sorted(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)
BLOCKS = [block for page in PAGES for block in blocks_of(page)]
RUN_PAGES = sorted({b.page for b in BLOCKS if b.norun is None and (b.lang == "python" or b.lang in SHELLS)})


def test_the_pages_have_code() -> None:
    assert len(PAGES) >= 30
    assert sum(b.lang == "python" and b.norun is None for b in BLOCKS) >= 15
    assert sum(b.lang in SHELLS and b.norun is None for b in BLOCKS) >= 10


def test_every_shell_block_is_run_or_marked() -> None:
    """A shell block either holds only ``tribune`` commands (run below) or says why it is not run."""
    unmarked = [
        f"{b.page} block {b.index}: {line!r}"
        for b in BLOCKS
        if b.lang in SHELLS and b.norun is None
        for line in _command_lines(b.code)
        if not line.startswith("tribune ")
    ]
    assert not unmarked, "mark these blocks <!-- norun: why --> or make them tribune commands:\n" + "\n".join(unmarked)


def test_not_run_blocks_are_few_and_say_why() -> None:
    norun = [b for b in BLOCKS if b.norun is not None]
    assert len(norun) <= MAX_NORUN, [f"{b.page} block {b.index}" for b in norun]
    assert all(len(b.norun or "") >= 5 for b in norun), "every <!-- norun: ... --> gives a reason"


def test_tiny_markers_name_commands_of_their_block() -> None:
    for block in BLOCKS:
        lines = [line for line in _command_lines(block.code) if line.startswith("tribune ")]
        commands = {shlex.split(line, comments=True)[1] for line in lines}
        assert set(block.tiny) <= commands, f"{block.page} block {block.index}: tiny for {set(block.tiny) - commands}"


SLOW_PAGES = {"training/recipes.md"}
"""Pages whose code trains (MaskablePPO for a few thousand steps): marked slow."""
PAGE_EXTRAS = {
    "cli.md": "render",
    "integrations/openspiel.md": "openspiel",
    "datasets.md": "datasets",
    "training/recipes.md": "train",
}
"""Pages whose code needs an optional extra: their tests carry its marker (tests/conftest.py)."""


def _page_param(page: str) -> Any:
    marks = [pytest.mark.slow] if page in SLOW_PAGES else []
    if page in PAGE_EXTRAS:
        marks.append(getattr(pytest.mark, PAGE_EXTRAS[page]))
    return pytest.param(page, marks=marks)


@pytest.mark.parametrize("page", [_page_param(p) for p in RUN_PAGES])
def test_page_code_runs(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every python block and every tribune command of the page, in order, in one fresh folder."""
    for name in ("configs", "examples", "training/pool/models"):  # what the pages' commands name, as in a checkout
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    for block in blocks_of(DOCS / page):
        if block.norun is not None:
            continue
        if block.lang == "python":
            exec(compile(block.code, f"{page} block {block.index}", "exec"), {"__name__": f"docs_{block.index}"})
        elif block.lang in SHELLS:
            for line in _command_lines(block.code):
                if "cmd:node " in line and shutil.which("node") is None:
                    continue  # the Node.js example bot, where Node.js is installed
                argv = shlex.split(line, comments=True)[1:]
                argv += block.tiny.get(argv[0], [])
                assert _tribune(argv) == 0, f"{page} block {block.index}: tribune {shlex.join(argv)}"


def _command_lines(code: str) -> list[str]:
    return [line.strip() for line in code.splitlines() if line.strip() and not line.strip().startswith("#")]


def _tribune(argv: list[str]) -> int:
    """``tribune ARGV`` in this process; argparse's exits (``--version``, errors) become the status."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 1


# -- generated and promised content ---------------------------------------------------------------------------------


def test_environment_pages_match_the_code() -> None:
    pages = generated_env_pages()
    committed = {p.name for p in (ROOT / DEFAULT_DIR).glob("*.md") if p.read_text(encoding="utf-8").startswith(HEADER)}
    assert committed == set(pages), "docs/envs holds other generated pages than the code generates"
    for name, text in pages.items():
        current = (ROOT / DEFAULT_DIR / name).read_text(encoding="utf-8")
        assert current == text, f"docs/envs/{name} is out of date: run `python -m tribune_env.envs.docs`"


def test_installation_page_names_every_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    page = (DOCS / "installation.md").read_text(encoding="utf-8")
    assert [name for name in extras if f"\n| `{name}` |" not in page] == []
    assert "--index-url https://download.pytorch.org/whl/cpu" in page  # the CPU-only torch command
    assert "\npip install -e '.[train]'\n" in page  # the GPU one


def test_command_line_page_names_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert _tribune(["--help"]) == 0
    listed = re.findall(r"^ {4}(\w[\w-]*)", capsys.readouterr().out, re.M)
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert listed and [name for name in listed if f"`tribune {name}`" not in page] == []


def test_readme_is_short_and_links_into_the_site() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MAX_LINES
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    assert sum(link.startswith("docs/") for link in links) >= 8
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert missing == []


def test_missing_extra_hints_come_from_one_helper() -> None:
    """Only tribune_env/extras.py writes an install command for an extra; every other message calls it. No hint
    (nor page) offers ``tribune-rl[X]`` from the package index: nothing is published there."""
    writers = [
        str(path.relative_to(ROOT))
        for package in ("tribune_env", "agents", "tribune_arena", "training", "tribune_cli")
        for path in (ROOT / package).rglob("*.py")
        if "install -e '.[{" in path.read_text(encoding="utf-8")
    ]
    assert writers == ["tribune_env/extras.py"]
    unpublished = [
        str(path.relative_to(ROOT))
        for folder in ("tribune_env", "agents", "tribune_arena", "training", "tribune_cli", "docs")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in {".py", ".md"} and "tribune-rl[" in path.read_text(encoding="utf-8")
    ]
    assert unpublished == [] and "tribune-rl[" not in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_version_hook_fills_the_pages() -> None:
    import importlib.util

    from tribune_env import __version__

    spec = importlib.util.spec_from_file_location("docs_version_hook", DOCS / "_hooks" / "version.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    assert hook.on_page_markdown("Tribune RL {{ version }}") == f"Tribune RL {__version__}"
    assert hook.on_config({"site_name": "Tribune RL"})["site_name"] == f"Tribune RL {__version__}"
    with contextlib.suppress(ImportError):  # the API pages' role rewriter, where the docs extra is installed
        spec = importlib.util.spec_from_file_location("docs_roles", DOCS / "_hooks" / "sphinx_roles.py")
        assert spec is not None and spec.loader is not None
        roles = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(roles)
        assert roles.plain(":class:`~tribune_env.Game` and :func:`make_agent`") == "`Game` and `make_agent`"
