"""Session-wide fixtures and the test tiers.

The fixtures: the headless Chromium of the end-to-end tests (:mod:`browser`). They live here, not imported by each
test module, so that one browser (one Playwright instance) serves the whole session: two Playwright sync instances
cannot run at once in one process.

The tiers: a test that needs an optional extra carries that extra's marker (``@pytest.mark.train``, ``web``, ...;
:data:`EXTRAS`), and this file adds the umbrella marker ``extra`` to it. The quick tier, the README's second line,
installs only the ``test`` extra and runs ``-m "not slow and not extra"``; CI installs every extra and runs the rest.
A marked test whose libraries are absent is skipped with the extra that brings them and the command that installs
it, and fails instead when ``CI`` is set (``.ci/run`` runs under ``CI=true``), so CI never passes by skipping. A test
module that cannot even be imported without an optional library (:data:`LIBRARY_EXTRAS`) is collected as one
placeholder test carrying that library's extra marker, which the quick tier deselects (:class:`ExtraAwareModule`).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from browser import browser, page  # noqa: F401  (pytest fixtures)

EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tensorboard"),
    "bench": ("pygame", "rlcard"),
    "ray": ("ray",),
    "rllib": ("ray", "torch", "tensorboard"),
    "tianshou": ("tianshou", "torch"),
    "supersuit": ("supersuit",),
    "render": ("resvg_py", "moviepy"),
    "web": ("flask", "playwright"),
    "docs": ("mkdocs", "material", "mkdocstrings"),
    "openspiel": ("pyspiel",),
    "datasets": ("minari",),
}
"""Each optional extra of pyproject.toml that has tests: its marker's name and the modules it installs."""

LIBRARY_EXTRAS: dict[str, str] = {
    "torch": "train", "stable_baselines3": "train", "sb3_contrib": "train", "tensorboard": "train",
    "pygame": "bench", "rlcard": "bench", "ray": "ray", "tianshou": "tianshou", "supersuit": "supersuit",
    "resvg_py": "render", "moviepy": "render", "flask": "web", "playwright": "web", "mkdocs": "docs",
    "pyspiel": "openspiel", "open_spiel": "openspiel", "minari": "datasets",
}
"""The extra that brings each optional library (torch: the train extra, the smallest that has it)."""

BROWSER_FIXTURES = frozenset({"browser", "page"})
"""Fixtures that drive Chromium through Playwright: a test using one needs the ``web`` extra."""

IN_CI = bool(os.environ.get("CI"))


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here (found without importing them)."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


def extra_message(extra: str, missing: list[str]) -> str:
    """Why a test of ``extra`` cannot run, with the command that installs the extra."""
    return f"needs the '{extra}' extra ({', '.join(missing)} not installed): pip install -e '.[{extra}]'"


class MissingExtraItem(pytest.Item):
    """The one test that stands for a module whose extra is missing: it skips (or fails in CI) in setup."""

    def runtest(self) -> None:  # pragma: no cover - setup always stops it first
        raise AssertionError("a module whose extra is missing cannot run")

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.name} (module not imported)"


class ExtraAwareModule(pytest.Module):
    """A test module that, when its import fails for want of an optional library, becomes one placeholder test
    carrying that library's extra marker (so ``-m "not extra"`` deselects it) instead of a collection error."""

    def collect(self) -> Any:
        try:
            return super().collect()
        except self.CollectError as error:
            cause = error.__cause__
            name = getattr(cause, "name", None) or ""
            extra = LIBRARY_EXTRAS.get(name.split(".")[0]) if isinstance(cause, ModuleNotFoundError) else None
            if extra is None:
                raise
            item = MissingExtraItem.from_parent(self, name=f"needs-{extra}")
            item.add_marker(getattr(pytest.mark, extra))
            return [item]


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module:
    return ExtraAwareModule.from_parent(parent, path=module_path)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark browser tests ``web`` and every test of an extra ``extra``, before ``-m`` selects (hence tryfirst)."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.web)
        if any(item.get_closest_marker(extra) for extra in EXTRAS):
            item.add_marker(pytest.mark.extra)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, in CI, fail) a test whose extra is not installed, saying which extra brings it."""
    for extra in EXTRAS:
        if item.get_closest_marker(extra) and (missing := missing_modules(extra)):
            message = extra_message(extra, missing)
            if IN_CI:
                pytest.fail(f"CI runs every extra's tests, but this one {message}", pytrace=False)
            pytest.skip(message)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """In CI, a skip for a library that could not be imported (``pytest.importorskip``) is a failure."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and isinstance(report.longrepr, tuple) and "could not import" in report.longrepr[2]:
        report.outcome = "failed"
        report.longrepr = f"CI installs every extra, but {report.longrepr[2]}"
