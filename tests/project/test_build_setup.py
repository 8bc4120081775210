"""setup.py: when the build compiles with mypyc, and that every failure falls back to pure Python with one line."""

from __future__ import annotations

import importlib.util
import sys
import types
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


def test_wheels_compile_and_editable_or_requested_builds_stay_pure(
    setup_py: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert setup_py.wants_pure() is None
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel", "--dist-dir", "x"])
    assert setup_py.wants_pure() == "editable install"
    monkeypatch.setattr(sys, "argv", ["setup.py", "develop"])
    assert setup_py.wants_pure() == "editable install"
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    monkeypatch.setenv("TRIBUNE_PURE", "0")
    assert setup_py.wants_pure() is None
    monkeypatch.setenv("TRIBUNE_PURE", "1")
    assert setup_py.wants_pure() == "TRIBUNE_PURE is set"


def test_compiled_sources_are_the_three_packages_but_config_and_errors(setup_py: Any) -> None:
    sources = setup_py.sources()
    assert "tribune_env/engine/game.py" in sources and "tribune_env/codec/actions.py" in sources
    assert "tribune_env/data/schema.py" in sources
    assert not set(sources) & {"tribune_env/engine/config.py", "tribune_env/engine/errors.py"}
    assert all(s.split("/")[1] in ("engine", "codec", "data") for s in sources)


def test_requested_pure_build_has_no_extensions(
    setup_py: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRIBUNE_PURE", "1")
    assert setup_py.mypyc_extensions() == []
    assert _notices(capsys.readouterr().err) == ["tribune-rl: building pure Python (TRIBUNE_PURE is set)"]


@pytest.mark.parametrize("failure", [SystemExit(2), RuntimeError("mypyc crashed"), ImportError("no mypyc")])
def test_a_failing_mypyc_falls_back_with_one_line(
    setup_py: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], failure: BaseException
) -> None:
    fake = types.ModuleType("mypyc.build")

    def mypycify(*_args: Any, **_kwargs: Any) -> list[Any]:
        raise failure

    fake.mypycify = mypycify  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mypyc.build", fake)
    assert setup_py.mypyc_extensions() == []
    lines = _notices(capsys.readouterr().err)
    assert len(lines) == 1 and "installing pure Python" in lines[0] and type(failure).__name__ in lines[0]


def test_a_failing_c_compiler_falls_back_with_one_line(
    setup_py: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "broken.c"
    source.write_text("this is not C;\n")
    dist = Distribution({"name": "broken", "ext_modules": [Extension("broken", [str(source)])]})
    cmd = setup_py.OptionalBuildExt(dist)
    cmd.build_lib = str(tmp_path / "lib")
    cmd.build_temp = str(tmp_path / "temp")
    cmd.ensure_finalized()
    cmd.run()  # no exception
    lines = _notices(capsys.readouterr().err)
    assert len(lines) == 1 and "compiling the engine failed" in lines[0] and "installing pure Python" in lines[0]
    assert not list((tmp_path / "lib").rglob("broken*"))


def test_a_pure_build_drops_compiled_leftovers(setup_py: Any, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    stale = [lib / "tribune_env/engine/game.cpython-311-x86_64-linux-gnu.so", lib / "tribune_env__mypyc.abi3.so"]
    kept = lib / "tribune_env/engine/game.py"
    for path in [*stale, kept]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    cmd = setup_py.CleanBuildPy(Distribution({"name": "x", "packages": []}))
    cmd.build_lib = str(lib)
    cmd.ensure_finalized()
    cmd.run()
    assert kept.exists() and not any(p.exists() for p in stale)
