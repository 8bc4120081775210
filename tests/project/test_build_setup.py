"""setup.py: every build compiles the native core (``tribune_env._core``, pybind11) where it can, and every way it
cannot falls back to the Python engine with exactly one ``tribune-rl:`` line and no partial module (issue 34 item 5).
"""

from __future__ import annotations

import builtins
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from paths import ROOT

pytest.importorskip("setuptools")

from setuptools import Distribution, Extension


@pytest.fixture
def setup_py(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``setup.py`` imported as a module (``setup()`` runs only as ``__main__``), with a clean environment."""
    monkeypatch.delenv("TRIBUNE_PURE", raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    spec = importlib.util.spec_from_file_location("tribune_setup_under_test", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _notices(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("tribune-rl:")]


def test_the_core_is_built_unless_tribune_pure_is_set(setup_py: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert setup_py.wants_pure() is None
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel", "--dist-dir", "x"])
    assert setup_py.wants_pure() is None  # editable installs build the core too (beside the sources)
    monkeypatch.setenv("TRIBUNE_PURE", "0")
    assert setup_py.wants_pure() is None
    monkeypatch.setenv("TRIBUNE_PURE", "1")
    assert setup_py.wants_pure() == "TRIBUNE_PURE is set"


def test_the_extension_is_the_pybind11_core_of_every_native_source(setup_py: Any) -> None:
    pytest.importorskip("pybind11")
    (extension,) = setup_py.native_extensions()
    assert extension.name == "tribune_env._core"
    cpp = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "native/src").glob("*.cpp"))
    assert cpp and extension.sources == cpp and "native/src/bind.cpp" in cpp
    assert "native/src" in extension.include_dirs
    assert "-march=native" not in extension.extra_compile_args  # a wheel runs on other x86-64 machines
    assert any(arg.startswith("-std=c++2") for arg in extension.extra_compile_args)
    assert "pybind11" in " ".join(extension.include_dirs)


def test_tribune_pure_builds_no_extension_with_one_line(
    setup_py: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRIBUNE_PURE", "1")
    assert setup_py.native_extensions() == []
    (line,) = _notices(capsys.readouterr().err)
    assert "TRIBUNE_PURE is set" in line and "the Python engine will be used" in line


def test_missing_pybind11_falls_back_with_one_line(
    setup_py: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def no_pybind11(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("pybind11"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pybind11)
    assert setup_py.native_extensions() == []
    (line,) = _notices(capsys.readouterr().err)
    assert "pybind11 is missing" in line and "the Python engine will be used" in line


def _build_ext(setup_py: Any, tmp_path: Path, source: str) -> Any:
    path = tmp_path / "broken.cpp"
    path.write_text(source)
    dist = Distribution({"name": "broken", "ext_modules": [Extension("pkg.broken", [str(path)], language="c++")]})
    cmd = setup_py.OptionalBuildExt(dist)
    cmd.build_lib = str(tmp_path / "lib")
    cmd.build_temp = str(tmp_path / "temp")
    cmd.ensure_finalized()
    return cmd


def test_a_failing_compiler_falls_back_with_one_line_and_no_partial_module(
    setup_py: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cmd = _build_ext(setup_py, tmp_path, "this is not C++;\n")
    cmd.run()  # no exception
    (line,) = _notices(capsys.readouterr().err)
    assert "the native core could not be compiled" in line and "the Python engine will be used" in line
    assert not list((tmp_path / "lib").rglob("broken*"))


def test_no_compiler_at_all_falls_back_with_one_line(
    setup_py: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``CC=false CXX=false`` (what CI's no-compiler run sets): the compiler command fails at once."""
    monkeypatch.setenv("CC", "false")
    monkeypatch.setenv("CXX", "false")
    cmd = _build_ext(setup_py, tmp_path, "int main() { return 0; }\n")
    cmd.run()
    (line,) = _notices(capsys.readouterr().err)
    assert "the native core could not be compiled" in line
    assert not list((tmp_path / "lib").rglob("broken*"))


def test_a_build_without_the_core_drops_a_core_left_by_an_earlier_build(setup_py: Any, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    stale = lib / "tribune_env/_core.cpython-311-x86_64-linux-gnu.so"
    kept = lib / "tribune_env/engine/game.py"
    for path in (stale, kept):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    cmd = setup_py.CleanBuildPy(Distribution({"name": "x", "packages": []}))
    cmd.build_lib = str(lib)
    cmd.ensure_finalized()
    cmd.run()
    assert kept.exists() and not stale.exists()


def test_the_build_backend_asks_for_pybind11() -> None:
    spec = importlib.util.spec_from_file_location("tribune_backend_under_test", ROOT / "build_backend.py")
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    for hook in (backend.get_requires_for_build_wheel, backend.get_requires_for_build_editable):
        assert any(req.startswith("pybind11") for req in hook(None))


def test_asking_for_the_requirements_says_nothing(
    setup_py: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """setuptools runs setup.py once only to learn the build requirements, before pybind11 is installed: that run is
    silent, so an install without pybind11 (or with TRIBUNE_PURE) prints its line once, when it builds."""
    monkeypatch.setenv("TRIBUNE_ASKING_REQUIRES", "1")
    monkeypatch.setenv("TRIBUNE_PURE", "1")
    assert setup_py.native_extensions() == []
    assert _notices(capsys.readouterr().err) == []


def test_the_backend_marks_only_the_requirements_question(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("tribune_backend_asking", ROOT / "build_backend.py")
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    seen: list[str | None] = []

    def hook(_settings: Any) -> list[str]:
        seen.append(os.environ.get(backend.ASKING))
        return ["setuptools"]

    monkeypatch.delenv(backend.ASKING, raising=False)
    assert backend._requires(hook, None) == ["setuptools", *backend.NATIVE_REQUIRES]
    assert seen == ["1"] and backend.ASKING not in os.environ


def test_a_long_compiler_error_is_cut_to_one_short_line(setup_py: Any) -> None:
    err = RuntimeError("first line\n" + "x" * 500)
    assert setup_py.short(err) == "x" * 159 + "…"
    assert setup_py.short(RuntimeError("")) == "RuntimeError"


def test_a_failed_compiler_command_is_named_by_its_program(setup_py: Any) -> None:
    err = RuntimeError("Command '['false', '-O3', '-c', 'native/src/benefits.cpp']' returned non-zero exit status 1.")
    assert setup_py.short(err) == "false exited with status 1"
