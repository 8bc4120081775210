"""Session-wide fixtures: the headless Chromium of the end-to-end tests (:mod:`browser`).

They live here, not imported by each test module, so that one browser (one Playwright instance) serves the whole
session: two Playwright sync instances cannot run at once in one process.
"""

from browser import browser, page  # noqa: F401  (pytest fixtures)
