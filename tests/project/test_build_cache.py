"""setup.py's build cache (issue 41 item 5): a core compiled before from the same inputs is copied, not compiled
again; any change of a source, header, flag, compiler or Python ABI compiles afresh."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from paths import ROOT

pytest.importorskip("setuptools")

from setuptools import Distribution, Extension
from setuptools.command.build_ext import build_ext


@pytest.fixture
def setup_py(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setenv("TRIBUNE_BUILD_CACHE", str(tmp_path / "cache"))
    spec = importlib.util.spec_from_file_location("tribune_setup_cache_test", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Compiles:
    """Stands in for the compiler: counts the builds and writes a module whose text is the source's."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, cmd: build_ext, ext: Extension) -> None:
        self.count += 1
        target = Path(cmd.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(Path(s).read_text() for s in ext.sources))


def _build(setup_py: Any, tmp_path: Path, source: Path, flags: list[str]) -> Path:
    ext = Extension("pkg.core", [str(source)], language="c++", extra_compile_args=flags)
    cmd = setup_py.OptionalBuildExt(Distribution({"name": "core", "ext_modules": [ext]}))
    cmd.build_lib = str(tmp_path / "lib")
    cmd.build_temp = str(tmp_path / "temp")
    cmd.ensure_finalized()
    cmd.run()
    return Path(cmd.get_ext_fullpath("pkg.core"))


def test_an_unchanged_core_is_copied_from_the_cache_not_compiled(
    setup_py: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    compiles = Compiles()
    monkeypatch.setattr(build_ext, "build_extension", lambda cmd, ext: compiles(cmd, ext))
    source = tmp_path / "core.cpp"
    source.write_text("int one() { return 1; }\n")
    built = _build(setup_py, tmp_path, source, ["-O3"])
    assert compiles.count == 1 and built.read_text() == source.read_text()
    assert "compiling pkg.core: 1 C++ sources" in capsys.readouterr().err
    built.unlink()  # a fresh install: the module is gone, the cache is not
    assert _build(setup_py, tmp_path, source, ["-O3"]).read_text() == source.read_text()
    assert compiles.count == 1
    err = capsys.readouterr().err
    assert "reused pkg.core" in err and "nothing compiled" in err
    _build(setup_py, tmp_path, source, ["-O2"])  # another flag
    source.write_text("int one() { return 2; }\n")  # another source
    assert _build(setup_py, tmp_path, source, ["-O2"]).read_text() == source.read_text()
    assert compiles.count == 3


def test_the_key_follows_every_input(setup_py: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "core.cpp"
    source.write_text("int one() { return 1; }\n")

    class Compiler:
        compiler_so: ClassVar[list[str]] = ["g++", "-fPIC"]
        linker_so: ClassVar[list[str]] = ["g++", "-shared"]

    ext = Extension("pkg.core", [str(source)], extra_compile_args=["-O3"])
    key = setup_py.build_key(ext, Compiler())
    assert setup_py.build_key(ext, Compiler()) == key
    Compiler.compiler_so = ["clang++", "-fPIC"]
    assert setup_py.build_key(ext, Compiler()) != key
    Compiler.compiler_so = ["g++", "-fPIC"]
    monkeypatch.setattr(setup_py.sysconfig, "get_config_var", lambda name: ".cpython-399-x.so")
    assert setup_py.build_key(ext, Compiler()) != key  # another Python ABI
    monkeypatch.undo()
    source.write_text("int one() { return 2; }\n")
    assert setup_py.build_key(ext, Compiler()) != key


def test_the_project_headers_are_in_the_key(setup_py: Any) -> None:
    pytest.importorskip("pybind11")
    (ext,) = setup_py.native_extensions()

    class Compiler:
        compiler_so: ClassVar[list[str]] = ["c++"]

    assert len(setup_py.build_key(ext, Compiler())) == 24
    headers = sorted(p.name for p in (ROOT / "native/src").iterdir() if p.suffix in (".hpp", ".def"))
    assert "core.hpp" in headers and "steps.def" in headers


def test_no_cache_when_turned_off(setup_py: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIBUNE_BUILD_CACHE", "0")
    assert setup_py.cache_dir() is None
    monkeypatch.delenv("TRIBUNE_BUILD_CACHE")
    assert setup_py.cache_dir() == ROOT / "build" / "native-cache"
