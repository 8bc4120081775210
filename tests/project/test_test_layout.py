"""The tests' own layout: one folder per layer of the project, helpers in ``tests/support``, and module names
unique across the folders (pytest imports test modules by their file names, ``rootdir/--import-mode=prepend``)."""

from __future__ import annotations

from collections import Counter

from paths import ROOT

TESTS = ROOT / "tests"
#: the folders of tests/ that hold code: the project's layers (bottom-up; ``web``: the browser app of tribune_arena),
#: the project as a whole, and the shared helpers
FOLDERS = {
    "data",
    "engine",
    "codec",
    "envs",
    "board",
    "integrations",
    "agents",
    "arena",
    "web",
    "training",
    "cli",
    "native",  # the native core (C++) against the Python engine and codec it mirrors
    "project",
    "support",
}


def test_tests_live_in_the_folders_of_the_layers() -> None:
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    assert folders == FOLDERS, f"unexpected folders {sorted(folders - FOLDERS)}, missing {sorted(FOLDERS - folders)}"
    assert not list((TESTS / "support").glob("test_*.py")), "tests/support holds helpers, not tests"
    assert not list(TESTS.rglob("__init__.py")), "test folders are not packages (modules are imported by file name)"


def test_test_module_names_are_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts and p.name != "conftest.py")
    assert not [name for name, n in names.items() if n > 1], f"modules with the same name: {names.most_common(5)}"
