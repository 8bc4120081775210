"""The compiled (mypyc) build and the pure-Python build play identical games; a source checkout runs the sources.

In the source checkout (``pip install -e .``, what the test suite runs against) the engine must be the ``.py``
files, so an edit can never be shadowed by stale compiled code. CI also installs the wheel (compiled) in a fresh
virtual environment and runs this file against it with ``TRIBUNE_EXPECT_COMPILED=1``: the digest test then compares
the compiled engine in this process with the pure sources in a subprocess.

Run as a script (``python tests/project/test_compiled_build.py``), the file prints the digests as JSON.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tribune_env
from tribune_env import Game, GameConfig, IllegalActionError, InvalidStateError
from tribune_env._native import COMPILED_PACKAGES, compiled_modules
from tribune_env.engine import state as state_module
from tribune_env.engine.state import COPY_EXPR, FIELDS

ROOT = Path(__file__).resolve().parents[2]  # tests/project/ is two levels down
SOURCE_PACKAGE = ROOT / "tribune_env"
IN_CHECKOUT = Path(tribune_env.__file__).resolve().parent == SOURCE_PACKAGE
EXPECT_COMPILED = os.environ.get("TRIBUNE_EXPECT_COMPILED", "") == "1"


def _package_modules() -> list[str]:
    """Every module of the engine, codec and data packages, imported."""
    import importlib
    import pkgutil

    names = []
    for package in COMPILED_PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        names.extend(info.name for info in pkgutil.iter_modules(module.__path__, package + "."))
    for name in names:
        importlib.import_module(name)
    return names


# -- which build runs -------------------------------------------------------------------------------------------


@pytest.mark.skipif(not IN_CHECKOUT, reason="tribune_env is an installed copy, not this checkout")
def test_source_checkout_runs_the_python_sources() -> None:
    for name in _package_modules():
        file = sys.modules[name].__file__
        assert file is not None and file.endswith(".py"), f"{name} runs from {file}"
    assert not tribune_env.compiled()
    stale = [p for pattern in ("*.so", "*.pyd") for p in SOURCE_PACKAGE.rglob(pattern)]
    assert not stale, f"compiled modules in the source tree would shadow the sources: {stale}"


@pytest.mark.skipif(not EXPECT_COMPILED, reason="TRIBUNE_EXPECT_COMPILED=1 is set only where a compiled wheel runs")
def test_installed_wheel_is_compiled() -> None:
    assert not IN_CHECKOUT
    assert tribune_env.compiled()
    compiled = set(compiled_modules())
    assert {"tribune_env.engine.game", "tribune_env.engine.flow", "tribune_env.codec.actions"} <= compiled


def test_pure_switch_selects_the_sources() -> None:
    code = "import tribune_env, tribune_env.engine.flow as f; print(tribune_env.compiled(), f.__file__)"
    out = _python(code, pure=True)
    flag, file = out.split()
    assert flag == "False" and file.endswith(".py")


# -- compiled and pure play the same games ----------------------------------------------------------------------


def _hash_update(h: Any, value: Any) -> None:
    if isinstance(value, np.ndarray):
        h.update(f"{value.dtype}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        for key in sorted(value):
            h.update(repr(key).encode())
            _hash_update(h, value[key])
    else:
        h.update(repr(value).encode())


def aec_digest(make: str, players: int, seed: int) -> str:
    """Digest of one AEC game under seeded random legal play: every observation, mask, reward, and the document."""
    env = getattr(tribune_env, make)(players=players)
    rng = random.Random(seed)
    h = hashlib.sha256()
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _info = env.last()
        h.update(agent.encode())
        _hash_update(h, obs)
        h.update(repr((float(reward), termination, truncation)).encode())
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(np.int64(legal[rng.randrange(len(legal))]))  # a numpy integer, as a policy gives it
    h.update(json.dumps(env.unwrapped.game.to_json(), sort_keys=True).encode())
    env.close()
    return h.hexdigest()


_ENUM_REPR = re.compile(r"<\w+\.\w+: (-?\d+)>")


def _plain(value: Any) -> str:
    """``repr(value)`` with IntEnum members written as their ints: an IntEnum member stored in a field typed ``int``
    comes back as the equal plain int from compiled code, so only the values are compared."""
    return _ENUM_REPR.sub(r"\1", repr(value))


def engine_digest(config: dict[str, Any], seed: int) -> str:
    """Digest of one engine game (every decision's legal list and view, the log and the document)."""
    game = Game.new(GameConfig(**config), seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    while not game.is_over:
        legal = game.legal_actions()
        h.update(_plain((game.current_seat, game.pending, legal)).encode())
        h.update(_plain(game.view(game.current_seat)).encode())
        clone = game.clone()
        game.apply(legal[rng.randrange(len(legal))])
        clone.apply(legal[0])  # the clone is independent and plays on
    h.update(repr((game.scores(), game.ranks(), game.winners, game.log())).encode())
    h.update(json.dumps(game.to_json(), sort_keys=True).encode())
    h.update(json.dumps(Game.from_json(json.dumps(game.to_json())).to_json(), sort_keys=True).encode())
    return h.hexdigest()


CASES: list[tuple[str, Any, int]] = [
    *[("aec", ("env", n), 10 + n) for n in (2, 3, 4, 5)],
    *[("aec", ("expansion_env", n), 20 + n) for n in (2, 4, 5)],
    ("engine", {"players": 5, "expansion": True, "brutii": True}, 31),
    ("engine", {"players": 6, "expansion": True, "brutii": True}, 32),
    ("engine", {"players": 3, "point_variant": True}, 33),
]


def all_digests() -> list[str]:
    out = []
    for kind, spec, seed in CASES:
        out.append(aec_digest(spec[0], spec[1], seed) if kind == "aec" else engine_digest(spec, seed))
    return out


def _python(code: str, pure: bool) -> str:
    """Run ``code`` in a fresh interpreter; ``pure``: with ``TRIBUNE_PURE=1`` and the sources of this checkout."""
    env = dict(os.environ)
    env.pop("TRIBUNE_PURE", None)
    if pure:
        env["TRIBUNE_PURE"] = "1"
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


@pytest.mark.slow  # about 20 s on the 2-core machine (two interpreters play the games)
def test_compiled_and_pure_builds_play_identical_games() -> None:
    here = all_digests()
    script = f"import runpy, json; m = runpy.run_path({str(Path(__file__))!r}); print(json.dumps(m['all_digests']()))"
    pure = json.loads(_python(script, pure=True))
    assert pure == here
    assert len(set(here)) == len(here)  # the cases are different games


# -- public entry points keep the project's errors under compiled code -----------------------------------------


@pytest.mark.parametrize("action", [None, 3, np.int64(3), 2.5, "place", object()])
def test_wrong_action_types_are_illegal_actions(action: Any) -> None:
    game = Game.new(players=3, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.to_json() == before
    assert isinstance(game.describe(action), str)


@pytest.mark.parametrize("doc", [None, 42, [1, 2], 2.5])
def test_documents_of_the_wrong_type_are_invalid_states(doc: Any) -> None:
    with pytest.raises(InvalidStateError, match="JSON object"):
        Game.from_json(doc)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": "4"}, "players: expected an integer"),
        ({"players": np.int64(4)}, "players: expected an integer"),
        ({"round_limit": 2.5}, "round_limit: expected an integer"),
        ({"point_variant": 1}, "point_variant: expected true or false"),
    ],
)
def test_config_options_of_the_wrong_type_give_value_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameConfig(**options)


def test_numpy_integer_seed_plays_the_int_seed_game() -> None:
    a = Game.new(players=3, seed=np.int64(5))
    b = Game.new(players=3, seed=5)
    assert a.to_json() == b.to_json()
    with pytest.raises(TypeError, match="seed: expected an integer"):
        Game.new(players=3, seed="5")  # type: ignore[arg-type]


def test_numpy_integer_actions_in_the_environments() -> None:
    env = tribune_env.env(players=2)
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    single = tribune_env.TribuneSingleEnv(players=2)
    single.reset(seed=0)
    single.step(np.int32(np.flatnonzero(single.action_masks())[0]))


def test_games_actions_and_configs_pickle_and_copy() -> None:
    """Compiled classes too (tribune_env/_native.py registers their reducers): the copies play on identically."""
    game = Game.new(GameConfig(players=5, expansion=True, brutii=True), seed=4)
    rng = random.Random(4)
    for _ in range(40):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    copies = [pickle.loads(pickle.dumps(game, protocol=p)) for p in range(2, pickle.HIGHEST_PROTOCOL + 1)]
    copies += [copy.deepcopy(game)]
    for other in copies:
        assert other.to_json() == game.to_json() and other.config == game.config
        assert other.legal_actions() == game.legal_actions()
        action = other.legal_actions()[-1]
        other.apply(pickle.loads(pickle.dumps(action)))
        assert other.to_json() != game.to_json()  # independent of the original
    clone = game.clone()
    clone.apply(game.legal_actions()[-1])
    assert clone.to_json() == copies[0].to_json()
    assert copy.copy(game.pending) == game.pending and pickle.loads(pickle.dumps(game.config)) == game.config


# -- the hand-written copy follows the declaration --------------------------------------------------------------


def test_state_copy_is_written_from_the_fields() -> None:
    """``GameState._copy`` holds exactly one line per declared field, as :data:`COPY_EXPR` writes it, in order."""
    text = (Path(str(state_module.__file__)).parent / "state.py").read_text(encoding="utf-8")
    body = text.split("    def _copy(self, source: GameState) -> None:\n", 1)[1]
    lines = re.findall(r"^        (self\.\w+ = .+)$", body.split("\n\n", 1)[0], flags=re.MULTILINE)
    expected = [f"self.{f.name} = {COPY_EXPR[f.copy].format(f.name)}" for f in FIELDS]
    assert len(lines) == len(expected)
    for line, want in zip(lines, expected, strict=True):  # a field may add a condition after its copy
        assert line.startswith(want), (line, want)


if __name__ == "__main__":
    print(json.dumps(all_digests()))
