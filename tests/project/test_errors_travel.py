"""Every public exception of the project survives pickle and copy with its message and fields (issue 13, class 4).

The classes are found in the sources of the packages (without importing them, so that collecting the tests stays
cheap), so a new exception cannot be forgotten; a slow test checks the scan against every class found by importing
every module. One whose ``__init__`` takes other arguments than a message needs an example in :data:`EXAMPLES`.
"""

from __future__ import annotations

import ast
import builtins
import copy
import importlib
import inspect
import multiprocessing
import os
import pickle
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from tribune_arena.human.web.checks import WebError
from tribune_arena.supervision import Forfeited
from tribune_env import Game, GameConfig
from tribune_env.engine.actions import Bid
from tribune_env.engine.errors import IllegalActionError
from tribune_env.envs.table import IllegalMoveError, Table

PACKAGES = ("tribune_env", "agents", "tribune_arena", "training", "tribune_cli")
OPTIONAL = {  # optional library -> the extra that brings it
    "ray": "ray",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "matplotlib": "train",
    "tensorboard": "train",
    "imageio": "render",
}


def _modules() -> list[Any]:
    modules = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        modules.append(package)
        for info in pkgutil.walk_packages(package.__path__, f"{name}."):
            try:
                modules.append(importlib.import_module(info.name))
            except ImportError as exc:  # an optional dependency that is not installed
                if (exc.name or "").split(".")[0] not in OPTIONAL:
                    raise
    return modules


def public_exceptions() -> list[type[BaseException]]:
    """Every exception class defined in the packages whose name does not start with ``_``."""
    found: dict[str, type[BaseException]] = {}
    for module in _modules():
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and not name.startswith("_")
                and value.__module__.split(".")[0] in PACKAGES
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[key] for key in sorted(found)]


def _illegal_action() -> IllegalActionError:
    game = Game.new(GameConfig(players=3), seed=1)
    legal = game.legal_actions()
    try:
        game.apply(Bid(10**6))
    except IllegalActionError as exc:
        assert exc.legal == tuple(legal)
        return exc
    raise AssertionError("a bid of 10**6 was accepted")


def _illegal_move() -> IllegalMoveError:
    table = Table(players=3)
    seat = table.game.current_seat
    assert seat is not None
    try:
        table.play(10**9, seat, "player_0")
    except IllegalMoveError as exc:
        return exc
    raise AssertionError("action 10**9 was accepted")


# Classes whose constructor is not ``cls(message)``: a real instance, raised by the code that raises it.
EXAMPLES: dict[type[BaseException], Callable[[], BaseException]] = {
    IllegalActionError: _illegal_action,
    IllegalMoveError: _illegal_move,
    WebError: lambda: WebError(404, "no game 'abc' (finished games are forgotten after an hour)"),
    Forfeited: lambda: Forfeited(2, "illegal", "P2 forfeits: its answer 'x' is not an action"),
}


def declared_exceptions() -> list[str]:
    """``module:name`` of every public exception class declared at the top level of the packages' sources: a class
    whose base is a builtin exception or such a class (by name, to a fixed point), read with :mod:`ast`."""
    bases: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    names = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                    bases[f"{module}:{node.name}"] = names
    errors = {
        name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
    }
    found: set[str] = set()
    while True:
        more = {key for key, names in bases.items() if key not in found and names & errors}
        if not more:
            return sorted(found)
        found |= more
        errors |= {key.split(":")[1] for key in more}


def _load(key: str) -> type[BaseException]:
    """The class ``module:name``; skipped when its module needs an optional dependency that is not installed."""
    module, name = key.split(":")
    try:
        value = getattr(importlib.import_module(module), name)
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in OPTIONAL:
            raise
        extra = OPTIONAL[(exc.name or "").split(".")[0]]
        why = f"{module} needs {exc.name} (the '{extra}' extra): pip install -e '.[{extra}]'"
        if os.environ.get("CI"):  # CI installs every extra: a missing one is a failure there
            pytest.fail(why)
        pytest.skip(why)
    assert inspect.isclass(value) and issubclass(value, BaseException), key
    return value


CLASSES = declared_exceptions()
ROUND_TRIPS: dict[str, Callable[[BaseException], BaseException]] = {
    **{
        f"pickle{p}": (lambda e, p=p: pickle.loads(pickle.dumps(e, protocol=p)))
        for p in range(pickle.HIGHEST_PROTOCOL + 1)
    },
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


def _takes_message(cls: type[BaseException]) -> bool:
    """Whether ``cls(message)`` builds the error (its ``__init__`` is an exception base class's)."""
    return all(
        klass.__module__ == "builtins" or "__init__" not in vars(klass) for klass in cls.__mro__ if klass is not object
    )


def _example(cls: type[BaseException], message: str) -> BaseException:
    if cls in EXAMPLES:
        return EXAMPLES[cls]()
    assert _takes_message(cls), f"{cls.__qualname__} has its own __init__: add an example to EXAMPLES"
    return cls(message)


def _same(a: BaseException, b: BaseException) -> None:
    assert type(a) is type(b)
    assert str(a) == str(b)
    assert a.args == b.args
    assert vars(a) == vars(b)


def test_the_search_finds_the_known_errors() -> None:
    names = {key.split(":")[1] for key in CLASSES}
    assert {"IllegalActionError", "IllegalMoveError", "ComponentError", "AgentError", "InvalidStateError"} <= names
    assert {"TournamentError", "StoreError", "ReplayError", "ConfigError"} <= names


@pytest.mark.slow
def test_the_source_scan_finds_every_public_error() -> None:
    """The scan of the sources finds what importing every module finds (with every optional dependency here)."""
    imported = {f"{cls.__module__}:{cls.__qualname__}" for cls in public_exceptions()}
    assert set(CLASSES) == imported


@pytest.mark.parametrize("trip", list(ROUND_TRIPS))
@pytest.mark.parametrize("key", CLASSES, ids=lambda key: key.split(":")[1])
@settings(max_examples=10, deadline=None)
@given(message=st.text(max_size=60))
def test_every_public_error_travels(key: str, trip: str, message: str) -> None:
    error = _example(_load(key), message)
    _same(error, ROUND_TRIPS[trip](error))


def test_an_unpicklable_action_travels_as_its_repr() -> None:
    error = IllegalActionError(lambda: 0, "not a legal choice now", [])
    back = pickle.loads(pickle.dumps(error))
    assert str(back) == str(error) and back.reason == "not a legal choice now"
    assert isinstance(back.action, str) and back.action.startswith("<function")


def _raise_illegal_move(_: int) -> None:
    raise _illegal_move()


def test_an_illegal_move_crosses_a_process_pool() -> None:
    expected = _illegal_move()
    with multiprocessing.get_context("spawn").Pool(1) as pool, pytest.raises(IllegalMoveError) as info:
        pool.apply_async(_raise_illegal_move, (0,)).get(timeout=60)  # an error that cannot travel hangs here
    assert str(info.value) == str(expected) and info.value.legal == expected.legal
    assert info.value.action == 10**9
