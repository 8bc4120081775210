"""Shared pytest fixtures for end-to-end tests in a real headless Chromium (Playwright driving Debian's browser).

``tests/conftest.py`` makes them session-wide fixtures; a test module only asks for them (importing them into a
module would give it a second Playwright instance, which cannot run beside the first)::

    def test_something(page: Page) -> None:
        page.goto(url)
        ...

- ``browser`` (session scope): one Chromium launched from :data:`CHROMIUM` (``/usr/bin/chromium``; override with
  the environment variable ``TRIBUNE_CHROMIUM``) with :data:`CHROMIUM_ARGS`; Playwright gives it a fresh temporary
  profile. No browser is downloaded: Playwright's own browsers are never used.
- ``page`` (function scope): a new browser context (own cookies/storage, 1600x1000 viewport) and page; after the
  test it fails the test if the page raised an uncaught JavaScript error (``page.errors`` lists them as it goes).

When the browser or Playwright is missing, the tests are skipped with the reason, unless the environment variable
``TRIBUNE_REQUIRE_BROWSER`` is set (``.ci/run`` sets it): then they fail, so CI never silently skips them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("TRIBUNE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1600, "height": 1000}


def _unavailable(reason: str) -> None:
    if os.environ.get("TRIBUNE_REQUIRE_BROWSER"):
        pytest.fail(f"browser tests required (TRIBUNE_REQUIRE_BROWSER is set) but {reason}")
    pytest.skip(reason)


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (``None`` when they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[web]')"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and shutil.which(CHROMIUM) is None:
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set TRIBUNE_CHROMIUM)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium (``playwright.sync_api.Browser``) shared by the whole session."""
    reason = browser_missing()
    if reason is not None:
        _unavailable(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        try:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        except Exception as exc:  # a broken install: say so rather than erroring every test
            _unavailable(f"Chromium at {CHROMIUM} does not start: {exc}")
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page in its own context; uncaught page errors fail the test (listed in ``page.errors``)."""
    context = browser.new_context(viewport=VIEWPORT)
    new_page = context.new_page()
    errors: list[str] = []
    new_page.errors = errors
    new_page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield new_page
    finally:
        context.close()
    assert not errors, f"uncaught JavaScript error(s) in the page: {errors}"
