"""MkDocs hook: the site shows the package's one version (``tribune_env.__version__``).

The site name becomes "Tribune RL <version>" and ``{{ version }}`` in a page's Markdown is replaced by it, so no
page writes the version by hand (``tests/project/test_version.py`` checks the rest of the project agrees).
"""

from __future__ import annotations

from typing import Any

from tribune_env import __version__

PLACEHOLDER = "{{ version }}"


def on_config(config: Any) -> Any:
    config["site_name"] = f"{config['site_name']} {__version__}"
    return config


def on_page_markdown(markdown: str, **_: Any) -> str:
    return markdown.replace(PLACEHOLDER, __version__)
