"""The installed build: where the native core (``tribune_env._core``) lives, which engine runs, and that both
engines of one install play the same games (issue 34 item 5).

The test suite runs against the checkout (``pip install -e .``, which builds the core beside the sources). CI also
runs this file against installed wheels (``.ci/native``), from an empty directory so the checkout is not importable:
``TRIBUNE_EXPECT_NATIVE=1`` where the wheel was built with a compiler (a silent fallback to the Python engine fails),
``TRIBUNE_EXPECT_PYTHON=1`` where it was built with ``CC=false CXX=false``.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import tribune_env
from tribune_env import Game
from tribune_env.engine import native

ROOT = Path(__file__).resolve().parents[2]  # tests/project/ is two levels down
SOURCE_PACKAGE = ROOT / "tribune_env"
PACKAGE = Path(tribune_env.__file__).resolve().parent
IN_CHECKOUT = PACKAGE == SOURCE_PACKAGE
EXPECT_NATIVE = os.environ.get("TRIBUNE_EXPECT_NATIVE", "") == "1"
EXPECT_PYTHON = os.environ.get("TRIBUNE_EXPECT_PYTHON", "") == "1"
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def test_the_only_compiled_module_is_the_native_core() -> None:
    """No extension module of an older build (mypyc compiled the engine, codec and data packages) can shadow the
    Python sources: the one extension in the package is ``tribune_env/_core``."""
    extensions = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*") if p.name.endswith(SUFFIXES)]
    assert all(name.startswith("_core.") for name in extensions), extensions
    for name in ("tribune_env.engine.game", "tribune_env.codec.observation", "tribune_env.data.schema"):
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert str(module.__file__).endswith(".py")


@pytest.mark.skipif(not EXPECT_NATIVE, reason="TRIBUNE_EXPECT_NATIVE=1 is set only where a wheel with the core runs")
def test_the_installed_wheel_runs_the_native_core() -> None:
    assert not IN_CHECKOUT
    assert native.built(), native.BUILD_ERROR
    assert Path(str(native.core_module.__file__)).resolve().parent == PACKAGE  # type: ignore[union-attr]
    assert native.engine_name() == "native" and Game.new(players=4, seed=1).native_core is not None


@pytest.mark.skipif(not EXPECT_PYTHON, reason="TRIBUNE_EXPECT_PYTHON=1 is set only where a wheel without it runs")
def test_an_install_without_the_core_runs_the_python_engine() -> None:
    assert not IN_CHECKOUT
    assert not native.built() and native.engine_name() == "python"
    assert not [p for p in PACKAGE.glob("_core*") if p.name.endswith(SUFFIXES)]  # its typed stub _core.pyi ships
    game = Game.new(players=3, seed=2)
    assert game.native_core is None and game.legal_actions()
    env = {**os.environ, "TRIBUNE_ENGINE": "native"}
    done = subprocess.run(
        [sys.executable, "-m", "tribune_cli.main", "simulate", "--games", "1"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "native core is not built" in done.stderr


@contextmanager
def _engine(name: str) -> Iterator[None]:
    old = os.environ.get(native.ENGINE_ENV)
    os.environ[native.ENGINE_ENV] = name
    try:
        yield
    finally:
        if old is None:
            del os.environ[native.ENGINE_ENV]
        else:
            os.environ[native.ENGINE_ENV] = old


def _random_game(players: int, seed: int, expansion: bool) -> str:
    rng = random.Random(seed)
    game = Game.new(players=players, seed=seed, expansion=expansion)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return json.dumps(game.to_json(), sort_keys=True)


@pytest.mark.skipif(not native.built(), reason="the native core is not built in this install")
@pytest.mark.parametrize(("players", "expansion"), [(2, False), (4, False), (5, True)])
def test_both_engines_of_this_install_play_the_same_games(players: int, expansion: bool) -> None:
    for seed in range(2):
        with _engine("python"):
            reference = _random_game(players, seed, expansion)
        with _engine("native"):
            assert _random_game(players, seed, expansion) == reference
