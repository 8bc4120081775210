"""The build backend: setuptools', asking for mypyc's tools only where something is compiled.

``pip install .`` / ``pip wheel .`` compile the engine with mypyc (setup.py), so a wheel build needs mypy and numpy
in its isolated build environment. An editable install (``pip install -e .``) is always pure Python (setup.py), so
it asks for setuptools alone: installing mypy and numpy into the build environment was two thirds of the quickstart's
install time (65 s of a fresh ``pip install -e . --no-deps`` on the 2-core development machine).
"""

from __future__ import annotations

from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517/660 interface)

COMPILE_REQUIRES = ["mypy==2.4.1", "numpy>=1.26"]
"""What compiling needs besides setuptools: mypyc (part of mypy, pinned: its output is what the tests check) and
numpy's type information."""


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *COMPILE_REQUIRES]
