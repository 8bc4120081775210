"""The native core's stub (``tribune_env/_core.pyi``, issue 41 item 3) names everything the core exports, every
method of its classes, and ships in the package."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

import tribune_env
from tribune_env.engine import native

STUB = Path(tribune_env.__file__).resolve().parent / "_core.pyi"
ROOT = Path(__file__).resolve().parents[2]


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse(STUB.read_text())
    top: set[str] = set()
    members: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top.add(node.name)
            members[node.name] = {
                item.name if isinstance(item, ast.FunctionDef) else item.target.id  # type: ignore[union-attr]
                for item in node.body
                if isinstance(item, ast.FunctionDef)
                or (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name))
            }
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
    return top, members


@pytest.mark.skipif(not native.built(), reason="the native core is not built")
def test_the_stub_names_every_export_of_the_core() -> None:
    core = native.core_module
    exported = {name for name in dir(core) if not name.startswith("_")}
    top, members = _stub_names()
    assert exported - top == set(), f"in the core, not in the stub: {sorted(exported - top)}"
    assert top - exported <= {"NativeAction", "NativePending", "NativeEvent"}, sorted(top - exported)
    for name, names in members.items():
        cls = getattr(core, name)
        public = {m for m in dir(cls) if not m.startswith("_")}
        assert public - names == set(), f"{name}: in the core, not in the stub: {sorted(public - names)}"
        extra = names - public - {"__init__"}
        assert extra == set(), f"{name}: in the stub, not in the core: {sorted(extra)}"


def test_the_stub_ships_in_the_package() -> None:
    assert STUB.is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "_core.pyi" in config["tool"]["setuptools"]["package-data"]["tribune_env"]
