"""Modules use each other's public names (issue 36): private names imported across modules, and import circles.

``python tests/project/test_private_imports.py`` prints every private name imported from another module of the
project and every import circle (a strongly connected group of modules, function-level imports included; a package
and the modules its ``__init__`` re-exports count as one). The tests hold the counts down: at most
:data:`MAX_PRIVATE` private imports, none in the web app's bots (they use :mod:`tribune_arena.supervision`), and no
import circle at all (issue 36 broke the last four: the data field readers, the board's pieces, the run callback's
:class:`~training.callbacks.Run` and the web views' :class:`~tribune_arena.human.web.views.Session`).
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("agents", "tribune_env", "tribune_arena", "tribune_cli", "training")
MAX_PRIVATE = 5


@functools.cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


@functools.cache
def scan() -> tuple[list[tuple[str, str, str]], dict[str, set[str]]]:
    """``(importer, module, name)`` of each private name imported across modules, and the import graph."""
    mods = modules()
    private: list[tuple[str, str, str]] = []
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    source = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    target = f"{source}.{alias.name}" if f"{source}.{alias.name}" in mods else source
                    if target in mods and target != name:
                        edges[name].add(target)
                    private_name = alias.name.startswith("_") and not alias.name.startswith("__")
                    if private_name and source.split(".")[0] in PACKAGES:
                        private.append((name, source, alias.name))
            elif isinstance(node, ast.Import):
                edges[name].update(a.name for a in node.names if a.name in mods and a.name != name)
    return private, edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if v not in index:
            visit(v)
    return groups


def test_the_circle_finder_finds_a_circle() -> None:
    """:func:`circles` names each strongly connected group once, a self-contained chain is none."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert sorted(circles(edges)) == [["a", "b", "c"], ["d", "e"]]
    assert circles({"a": {"b"}, "b": {"c"}}) == []


def test_no_import_circle() -> None:
    """No two modules of the project import each other, directly or through others, at the top or in a function."""
    _, edges = scan()
    assert circles(edges) == []


def test_few_private_names_cross_a_module_boundary() -> None:
    private, _ = scan()
    assert len(private) <= MAX_PRIVATE, private


def test_the_web_bots_import_no_private_name() -> None:
    private, _ = scan()
    assert [p for p in private if p[0] == "tribune_arena.human.web.bots"] == []


def test_the_heuristic_and_the_brutii_rules_import_no_private_name_of_each_other() -> None:
    private, edges = scan()
    assert not [p for p in private if p[0].startswith("agents.")]
    assert not [g for g in circles(edges) if "agents.heuristic" in g or "agents.brutii_rules" in g]


def test_no_import_circle_among_the_agents() -> None:
    """``agents.base`` names the registry's lister through :func:`agents.base.set_lister` instead of importing it."""
    _, edges = scan()
    assert not [g for g in circles(edges) if any(m.startswith("agents") for m in g)]


def test_the_supervised_call_has_one_home() -> None:
    _, edges = scan()
    users = ("tribune_arena.tournament.play", "tribune_arena.tournament.workers", "tribune_arena.human.web.bots")
    for user in users:
        assert "tribune_arena.supervision" in edges[user], user
    assert "tribune_arena.tournament.workers" not in edges["tribune_arena.human.web.bots"]


def _words() -> set[str]:
    """Every name written twice or more in the repository's sources and documents."""
    counts: dict[str, int] = defaultdict(int)
    for path in ROOT.rglob("*"):
        if path.suffix not in (".py", ".md", ".toml", ".yaml", ".yml", ".js", ".html") or not path.is_file():
            continue
        if {".git", "build", "node_modules"} & set(path.parts) or "egg-info" in str(path):
            continue
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.read_text(encoding="utf-8", errors="replace")):
            counts[word] += 1
    return {word for word, n in counts.items() if n > 1}


def test_every_module_function_has_a_caller() -> None:
    """A module-level function that nothing names (no caller, no test, no document) is dead code (issue 36 removed
    three). The web app (tribune_arena/human/web) is left to its own checks while it is being split."""
    named = _words()
    unnamed = []
    for name, path in modules().items():
        if name.startswith("tribune_arena.human.web"):
            continue
        for node in parsed(path).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.decorator_list:
                if not node.name.startswith("__") and node.name not in named:
                    unnamed.append(f"{name}.{node.name}")
    assert unnamed == []


if __name__ == "__main__":
    found, graph = scan()
    for importer, source, name in found:
        print(f"private: {importer} imports {name} from {source}")
    print(f"private names imported across modules: {len(found)}")
    for group in circles(graph):
        print("circle:", " ".join(group))
    print(f"import circles: {len(circles(graph))}")
