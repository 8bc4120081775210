"""Which build of the engine runs: mypyc-compiled extension modules or the pure-Python sources.

A wheel built by ``setup.py`` ships both the compiled ``engine``, ``codec`` and ``data`` packages and their ``.py``
sources. ``TRIBUNE_PURE=1`` in the environment, read when ``tribune_env`` is first imported, makes those packages
load from the sources instead (what ``tribune bench`` uses to measure both builds in one installation).

Imported first by ``tribune_env/__init__.py`` (before the engine), so the choice holds for the whole process.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import importlib.abc
import importlib.machinery
import os
import pkgutil
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

COMPILED_PACKAGES = ("tribune_env.engine", "tribune_env.codec", "tribune_env.data")
PURE_ENV = "TRIBUNE_PURE"


def pure_requested() -> bool:
    """Whether ``TRIBUNE_PURE`` asks for the pure-Python modules (any value but empty or ``0``)."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def _in_compiled_packages(fullname: str) -> bool:
    return any(fullname == pkg or fullname.startswith(pkg + ".") for pkg in COMPILED_PACKAGES)


class _SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Finds the engine, codec and data modules among ``.py`` files only, skipping compiled extensions."""

    tribune_env_pure = True

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not _in_compiled_packages(fullname):
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def use_sources_if_requested() -> None:
    """Install the source-only finder when ``TRIBUNE_PURE`` is set (once; before the engine is imported)."""
    if pure_requested() and not any(getattr(f, "tribune_env_pure", False) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnlyFinder())


def compiled_modules() -> list[str]:
    """Names of the imported ``tribune_env`` modules that run as compiled extension modules."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("tribune_env.") and _is_extension(module)
    )


def _is_extension(module: types.ModuleType | None) -> bool:
    file = getattr(module, "__file__", None) or ""
    return isinstance(file, str) and file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled() -> bool:
    """Whether the running engine is the mypyc-compiled build (``tribune_env.engine.game`` is an extension)."""
    import tribune_env.engine.game as game

    return _is_extension(game)


# -- pickle and copy of compiled objects ------------------------------------------------------------------------
# mypyc's native classes run ``__init__`` from ``__new__`` and its frozen dataclasses refuse the ``setattr`` of the
# default unpickling, so neither pickles nor copies as the Python classes do. In a compiled build, reducers in
# ``copyreg`` (which pickle and copy consult before ``__reduce_ex__``) rebuild them by their constructors instead.

_NEW_ARGS: dict[str, Callable[[Any], tuple[Any, ...]]] = {
    # constructor arguments of the native classes that are not dataclasses; the attributes are set afterwards
    "tribune_env.engine.game.Game": lambda game: (game.state,),
    "tribune_env.engine.state.GameState": lambda state: (state.config,),
    "tribune_env.engine.state.PlayerState": lambda player: (0, 0),
}


def _make_dataclass(cls: type, kwargs: dict[str, Any]) -> Any:
    return cls(**kwargs)


def _reduce_dataclass(obj: Any) -> tuple[Any, ...]:
    kwargs = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init}
    return _make_dataclass, (type(obj), kwargs)


def _make_native(cls: type, args: tuple[Any, ...], attrs: dict[str, Any]) -> Any:
    obj = cls(*args)
    for name, value in attrs.items():
        setattr(obj, name, value)
    return obj


def _attrs(obj: Any) -> dict[str, Any]:
    missing = object()
    names: tuple[str, ...] = getattr(type(obj), "__mypyc_attrs__", ())
    values = {name: getattr(obj, name, missing) for name in names if not name.startswith("__")}
    return {name: value for name, value in values.items() if value is not missing}


def _native_reducer(new_args: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], tuple[Any, ...]]:
    def reduce(obj: Any) -> tuple[Any, ...]:
        return _make_native, (type(obj), new_args(obj), _attrs(obj))

    return reduce


def register_reducers() -> int:
    """In a compiled build, register pickle/copy reducers for the compiled classes; returns how many (0 if pure)."""
    if not compiled():
        return 0
    count = 0
    for package in COMPILED_PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.iter_modules(root.__path__, package + "."):
            module = importlib.import_module(info.name)
            for cls in vars(module).values():
                if not isinstance(cls, type) or cls.__module__ != module.__name__ or "__mypyc_attrs__" not in vars(cls):
                    continue
                if dataclasses.is_dataclass(cls):
                    copyreg.pickle(cls, _reduce_dataclass)
                elif f"{cls.__module__}.{cls.__qualname__}" in _NEW_ARGS:
                    copyreg.pickle(cls, _native_reducer(_NEW_ARGS[f"{cls.__module__}.{cls.__qualname__}"]))
                else:
                    continue
                count += 1
    return count


use_sources_if_requested()
