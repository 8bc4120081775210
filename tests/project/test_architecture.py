"""Architecture rules checked on the source: the engine is a plain-Python rules engine.

* tribune_env.engine and tribune_env.data import no RL or ML library (and in fact nothing outside the
  standard library, numpy and the package itself), and data does not depend on the engine;
* all chance comes from explicit ``random.Random(seed)`` instances: no module-level ``random.*`` or
  ``numpy.random.*`` calls, no entropy sources;
* the printed numbers of the game live in components.toml only: the engine has no literal copies of
  them, and a component file with other numbers changes what the engine does and says.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from paths import ROOT

from tribune_env import ChooseOption, Game, GameConfig, load_components

PACKAGE = ROOT / "tribune_env"
ENGINE_FILES = sorted((PACKAGE / "engine").glob("*.py"))
DATA_FILES = sorted((PACKAGE / "data").glob("*.py"))
CORE_FILES = ENGINE_FILES + DATA_FILES
CODEC_FILES = sorted((PACKAGE / "codec").glob("*.py"))

RL_LIBRARIES = {
    "gymnasium",
    "gym",
    "pettingzoo",
    "torch",
    "stable_baselines3",
    "sb3_contrib",
    "ray",
    "tensorflow",
    "jax",
    "supersuit",
    "tianshou",
    "rllib",
}


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, dotted module) of every import in ``path``, including importlib/__import__ with a literal."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative import: inside the package
                out.append((node.lineno, "tribune_env." + (node.module or "")))
            else:
                out.append((node.lineno, node.module or ""))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                out.append((node.lineno, str(node.args[0].value)))
    return out


def test_sources_found() -> None:
    assert len(ENGINE_FILES) >= 10
    assert len(CODEC_FILES) >= 3
    assert any(p.name == "schema.py" for p in DATA_FILES)


@pytest.mark.parametrize("path", CORE_FILES + CODEC_FILES, ids=_rel)
def test_core_imports_no_rl_library(path: Path) -> None:
    bad = [(line, mod) for line, mod in _imports(path) if mod.split(".")[0] in RL_LIBRARIES]
    assert not bad, f"{_rel(path)} imports RL libraries: {bad}"


@pytest.mark.parametrize("path", CORE_FILES + CODEC_FILES, ids=_rel)
def test_core_depends_on_stdlib_only(path: Path) -> None:
    """The engine, data and codec layers need nothing beyond the standard library and numpy."""
    allowed = set(sys.stdlib_module_names) | {"tribune_env", "numpy", "__future__"}
    bad = [(line, mod) for line, mod in _imports(path) if mod.split(".")[0] not in allowed]
    assert not bad, f"{_rel(path)} imports third-party modules: {bad}"


@pytest.mark.parametrize("path", DATA_FILES, ids=_rel)
def test_data_does_not_import_engine(path: Path) -> None:
    bad = [
        (line, mod)
        for line, mod in _imports(path)
        if mod.startswith("tribune_env.") and not mod.startswith("tribune_env.data")
    ]
    assert not bad, f"{_rel(path)} (data layer) imports {bad}"


@pytest.mark.parametrize("path", ENGINE_FILES, ids=_rel)
def test_engine_imports_only_engine_and_data(path: Path) -> None:
    bad = [
        (line, mod)
        for line, mod in _imports(path)
        if mod.startswith("tribune_env")
        and mod not in ("tribune_env.data", "tribune_env.engine", "tribune_env._core")  # _core: the native engine
        and not mod.startswith(("tribune_env.data.", "tribune_env.engine."))
    ]
    assert not bad, f"{_rel(path)} imports outside engine/data: {bad}"


def test_the_engine_runs_without_any_rl_library() -> None:
    """With every RL library made unimportable, the package still imports and the engine plays a game."""
    script = (
        "import sys\n"
        f"BLOCKED = {sorted(RL_LIBRARIES)!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name.split('.')[0])\n"
        "sys.meta_path.insert(0, Block())\n"
        "import random, tribune_env, tribune_env.engine.serialize, tribune_env.engine.view, tribune_env.engine.text\n"
        "g = tribune_env.Game.new(players=2, seed=0)\n"
        "rng = random.Random(0)\n"
        "while not g.is_over:\n"
        "    g.apply(rng.choice(g.legal_actions()))\n"
        "assert not hasattr(tribune_env, 'env')\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(RL_LIBRARIES)!r}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True, timeout=120
    )
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


# --- chance -----------------------------------------------------------------------------------------------

_NP_ALLOWED = {"Generator", "default_rng", "PCG64", "SeedSequence"}


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


_ENTROPY = ("os.urandom", "time.time", "time.time_ns", "time.perf_counter")


def _chance_problems(node: ast.AST) -> list[tuple[int, str]]:
    """What is wrong with one syntax node, as far as chance goes."""
    line = getattr(node, "lineno", 0)
    if isinstance(node, ast.ImportFrom) and node.module in ("random", "numpy.random"):
        names = {alias.name for alias in node.names}
        if names - {"Random"} - _NP_ALLOWED:
            return [(line, f"from {node.module} import {sorted(names)}")]
    if isinstance(node, ast.Import):
        return [(line, f"import {a.name}") for a in node.names if a.name in ("secrets", "uuid")]
    if isinstance(node, ast.Attribute):
        name = _dotted(node)
        numpy_names = [name[len(p) :] for p in ("np.random.", "numpy.random.") if name.startswith(p)]
        if (
            (name.startswith("random.") and name != "random.Random")
            or any(n not in _NP_ALLOWED for n in numpy_names)
            or name in _ENTROPY
        ):
            return [(line, name)]
    if isinstance(node, ast.Call) and _dotted(node.func) in ("random.Random", "Random") and not node.args:
        return [(line, "random.Random() without a seed")]
    return []


@pytest.mark.parametrize("path", CORE_FILES + CODEC_FILES, ids=_rel)
def test_no_global_random(path: Path) -> None:
    problems = [p for node in ast.walk(_tree(path)) for p in _chance_problems(node)]
    assert not problems, f"{_rel(path)} uses chance outside the state's seeded generators: {problems}"


def test_engine_has_a_seeded_generator() -> None:
    """The grep above is only meaningful if chance does come from ``random.Random(seed)`` somewhere."""
    calls = [
        (path.name, node.lineno)
        for path in ENGINE_FILES
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Call) and _dotted(node.func) == "random.Random" and node.args
    ]
    assert calls


# --- printed numbers live in components.toml only ------------------------------------------------------------

# Distinctive printed numbers of the default component file: starting money 12, coin bowl 7, hand limit 7,
# tribune 7 points, 10 denarii per point, Scipio's 10 denarii, 100 cards. None of them may be written as a
# literal in the engine: the engine reads them from the components. (Small numbers such as 2 or 6 are not
# checked: they double as faction indices, tile codes and tuple sizes.)
PRINTED = {7, 10, 12, 100}


def _enum_class_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(_dotted(b).endswith("Enum") for b in node.bases):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


@pytest.mark.parametrize("path", ENGINE_FILES, ids=_rel)
def test_engine_has_no_printed_number_literals(path: Path) -> None:
    tree = _tree(path)
    enum_lines = _enum_class_lines(tree)
    found = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and type(node.value) is int
        and node.value in PRINTED
        and node.lineno not in enum_lines
    ]
    assert not found, f"{_rel(path)} has literal printed numbers (read them from the components): {found}"


def _custom_components(tmp_path: Path) -> object:
    text = (ROOT / "tribune_env" / "data" / "components.toml").read_text(encoding="utf-8")
    old_pleb = "numbers = { takeover_cards = 1, leader_cards = 1, benefit_cards = 1, benefit_denarii = 2 }"
    old_sen = "numbers = { takeover_laurels = 1, benefit_cards = 2 }"
    assert old_pleb in text and old_sen in text
    text = text.replace(old_pleb, old_pleb.replace("benefit_denarii = 2", "benefit_denarii = 3"))
    text = text.replace(old_sen, old_sen.replace("benefit_cards = 2", "benefit_cards = 3"))
    path = tmp_path / "numbers.toml"
    path.write_text(text, encoding="utf-8")
    return load_components(path)


def _benefit_position(components: object) -> Game:
    doc = {
        "config": {"players": 2, "victory_card": "alea_long", "auto_forced": False},
        "phase": "faction_benefits",
        "players": [
            {
                "money": 4,
                "markers": ["plebeians", "senators"],
                "sets": {"plebeians": ["plebeians:2", "plebeians:3"], "senators": ["senators:4", "senators:5"]},
            },
            {},
        ],
    }
    return Game.from_json(doc, components=components)


def test_component_numbers_drive_the_rules(tmp_path: Path) -> None:
    comps = _custom_components(tmp_path)
    game = _benefit_position(comps)
    assert game.pending.kind.key == "benefit_option" and game.pending.faction == 3  # Plebeians
    hand = game.position().players[0].hand_size
    game.apply(ChooseOption(0))  # draw a card and take the denarii
    assert game.position().players[0].money == 4 + 3
    assert game.position().players[0].hand_size == hand + 1
    assert game.pending.kind.key == "benefit_option" and game.pending.faction == 6  # Senators
    game.apply(ChooseOption(1))  # draw the cards
    assert game.position().players[0].hand_size == hand + 1 + 3
    assert GameConfig(players=2, components=comps).components is comps


def test_action_descriptions_follow_the_components(tmp_path: Path) -> None:
    game = _benefit_position(_custom_components(tmp_path))
    plebeians = game.describe(ChooseOption(0))
    assert "3" in plebeians and "2" not in plebeians, plebeians
    game.apply(ChooseOption(0))
    senators = game.describe(ChooseOption(1))
    assert "3" in senators or "three" in senators, senators


# -- layers above the environments ------------------------------------------------------------------

LAYERS = ("tribune_env", "agents", "tribune_arena", "training", "tribune_cli")
"""The top-level packages from the bottom up: the library, the agents, games between agents and people
(records, tournaments, replays, human play, benchmarks), training, and the command line."""
LAYER_FILES = {layer: sorted((ROOT / layer).rglob("*.py")) for layer in LAYERS}
HIGHER = {layer: LAYERS[i + 1 :] for i, layer in enumerate(LAYERS)}


@pytest.mark.parametrize("layer", sorted(LAYER_FILES))
def test_layers_import_only_downwards(layer: str) -> None:
    """data -> engine -> codec -> envs -> agents -> arena -> training -> cli: no module imports a layer above it."""
    assert LAYER_FILES[layer], f"no sources found for {layer}"
    bad = [
        f"{_rel(path)}:{line} imports {module}"
        for path in LAYER_FILES[layer]
        for line, module in _imports(path)
        if module.split(".")[0] in HIGHER[layer]
    ]
    assert not bad, bad


def _function_import_lines(path: Path) -> set[int]:
    """Lines of the imports that sit inside a function body (run only when the function is called)."""
    return {
        node.lineno
        for func in ast.walk(_tree(path))
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(func)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def test_agents_import_no_training_library() -> None:
    """The reference agents run without torch or Stable-Baselines3.

    The one exception: agents/ppo.py imports torch inside the function that reads SB3 ``.zip``
    checkpoints (exported ``.npz`` policies need numpy only).
    """
    heavy = {"torch", "stable_baselines3", "sb3_contrib", "ray"}
    lazy_torch = ROOT / "agents" / "ppo.py"
    bad = []
    for path in LAYER_FILES["agents"]:
        inside = _function_import_lines(path) if path == lazy_torch else set()
        bad.extend(
            f"{_rel(path)}:{line} imports {module}"
            for line, module in _imports(path)
            if module.split(".")[0] in heavy and not (module.split(".")[0] == "torch" and line in inside)
        )
    assert not bad, bad


# -- importing the engine loads no RL library; the environments are registered all the same ----------------

ENV_LIBRARIES = ["gymnasium", "pettingzoo", "sb3_contrib", "stable_baselines3", "torch"]
LOADED_RL = f"sorted({{m.split('.')[0] for m in sys.modules}} & set({ENV_LIBRARIES!r}))"  # an expression


def _run(script: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip()


@pytest.mark.parametrize(
    "statement",
    [
        "import tribune_env.engine",
        "import tribune_env.engine.game",
        "import tribune_env.data",
        "from tribune_env import Game, GameConfig",
        "import tribune_env, tribune_env.envs.registration",
    ],
)
def test_importing_the_engine_loads_no_rl_library(statement: str) -> None:
    """The RL libraries are installed, but the engine (and ``import tribune_env``) does not load them."""
    script = (
        "import random, sys\n"
        f"{statement}\n"
        "from tribune_env.engine.game import Game\n"
        "g = Game.new(players=4, seed=1)\n"
        "rng = random.Random(1)\n"
        "while not g.is_over:\n"
        "    g.apply(rng.choice(g.legal_actions()))\n"
        f"print({LOADED_RL})\n"
    )
    assert _run(script) == "[]"


@pytest.mark.parametrize(
    "imports",
    [
        "import tribune_env; import gymnasium; import pettingzoo",
        "import tribune_env; import pettingzoo; import gymnasium",
        "import gymnasium, pettingzoo; import tribune_env",
        "import gymnasium; import tribune_env; import pettingzoo",
        "from tribune_env import Game; import gymnasium.spaces; import pettingzoo.utils",
    ],
)
def test_environments_are_registered_in_a_fresh_process(imports: str) -> None:
    """``gymnasium.make`` and PettingZoo's registry find the environments whatever the import order."""
    script = (
        f"{imports}\n"
        "import sys, gymnasium, pettingzoo, tribune_env\n"
        "from tribune_env.envs import AEC_ID, SINGLE_ID\n"
        "assert AEC_ID in pettingzoo.aec_registry and SINGLE_ID in gymnasium.registry\n"
        "single = gymnasium.make('tribune/TribuneSingle-v0', players=3)\n"
        "assert isinstance(single.unwrapped, tribune_env.TribuneSingleEnv)\n"
        "aec = pettingzoo.make('aec', 'tribune/Tribune-v0', players=3)\n"
        "assert isinstance(aec.unwrapped, tribune_env.raw_env), aec\n"
        "assert pettingzoo.spec('aec', AEC_ID).entry_point == 'tribune_env.envs.aec:env'\n"
        "tribune_env.register_envs()  # idempotent: -W error turns an 'overriding' warning into a failure\n"
        "for lib in (gymnasium, pettingzoo):  # the libraries keep their own loaders\n"
        "    assert lib.__loader__ is lib.__spec__.loader and 'Registering' not in type(lib.__loader__).__name__\n"
        "assert not any(getattr(f, 'tribune_env_registration', False) for f in sys.meta_path)  # the hook is gone\n"
        "print('ok')\n"
    )
    assert _run(script) == "ok"


def test_gymnasium_imports_the_package_for_a_module_qualified_id() -> None:
    """``gymnasium.make("tribune_env:tribune/TribuneSingle-v0")`` needs no import of tribune_env first."""
    script = (
        "import gymnasium\n"
        "env = gymnasium.make('tribune_env:tribune/TribuneSingle-v0', players=2)\n"
        "env.reset(seed=0)\n"
        "print(type(env.unwrapped).__name__)\n"
    )
    assert _run(script) == "TribuneSingleEnv"


def test_environment_names_are_lazy_but_public() -> None:
    script = (
        "import sys, tribune_env\n"
        f"assert {LOADED_RL} == []\n"
        "assert {'env', 'raw_env', 'TribuneSingleEnv', 'IllegalMoveError'} <= set(tribune_env.__all__)\n"
        "from tribune_env import IllegalMoveError, TribuneSingleEnv, env, raw_env, register_envs\n"
        "import tribune_env.envs as envs\n"
        "assert env is envs.env and raw_env is envs.raw_env and TribuneSingleEnv is envs.TribuneSingleEnv\n"
        "assert IllegalMoveError is envs.IllegalMoveError and register_envs is envs.register_envs\n"
        "assert tribune_env.envs.single.TribuneSingleEnv is TribuneSingleEnv\n"
        "for name in ('nosuch', '__wrapped__'):\n"
        "    assert not hasattr(tribune_env, name) and not hasattr(envs, name)\n"
        "print('ok')\n"
    )
    assert _run(script) == "ok"
