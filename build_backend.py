"""The build backend: setuptools', asking for pybind11's headers, which the native core (C++) is compiled with.

Every build compiles the core where a C++ compiler is present (setup.py), editable installs included; pybind11 is
the one extra build requirement. Without a compiler the install still succeeds on the Python engine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the whole PEP 517/660 interface)

NATIVE_REQUIRES = ["pybind11>=2.12"]
"""What compiling the native core needs besides setuptools: pybind11's headers and build helpers."""


ASKING = "TRIBUNE_ASKING_REQUIRES"
"""Set while setuptools runs setup.py only to learn the build requirements (before pybind11 is installed): setup.py
then says nothing, so a build without the core prints its one ``tribune-rl:`` line once, when it builds."""


def _requires(hook: Callable[[dict[str, Any] | None], list[str]], config_settings: dict[str, Any] | None) -> list[str]:
    os.environ[ASKING] = "1"
    try:
        return [*hook(config_settings), *NATIVE_REQUIRES]
    finally:
        os.environ.pop(ASKING, None)


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
