"""Component files: every file the loader accepts plays, every other gives ComponentError (issue 13, class 5).

The property test mutates the default document (numbers set to 0, -1, small or huge values, keys dropped,
unknown keys added) and requires either a ``ComponentError`` or a component set with which random games
(base, and expansion when the tables exist) at every player count play to the end and the AEC environment
steps without error.
"""

from __future__ import annotations

import copy
import random
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tribune_env.data import ComponentError, Components, load_components, parse_components
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.aec import raw_env

TEXT = resources.files("tribune_env.data").joinpath("components.toml").read_text(encoding="utf-8")
DOC: dict[str, Any] = tomllib.loads(TEXT)
ROUND_LIMIT = 8  # enough for cesuras, take-overs and the end of a game; a truncated game has ended too
AEC_STEPS = 300

Path_ = tuple[str | int, ...]


def _paths(node: Any, prefix: Path_ = ()) -> list[Path_]:
    """Every path below ``node`` (keys of tables, indices of lists)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    out: list[Path_] = []
    for key, value in items:
        out.append((*prefix, key))
        out.extend(_paths(value, (*prefix, key)))
    return out


def _get(doc: Any, path: Path_) -> Any:
    for key in path:
        doc = doc[key]
    return doc


ALL_PATHS = _paths(DOC)
NUMBERS = [p for p in ALL_PATHS if type(_get(DOC, p)) is int]
TABLES: list[Path_] = [(), *(p for p in ALL_PATHS if isinstance(_get(DOC, p), dict))]
ODD_NUMBERS = st.sampled_from([0, -1, 1, 2, 3, 4, 6, 8, 20, 21, 999, 1001, 10**6, 2**70])


@st.composite
def mutations(draw: st.DrawFn) -> list[tuple[str, Path_, Any]]:
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["number", "number", "number", "drop", "add"]))
        if kind == "number":
            steps.append((kind, draw(st.sampled_from(NUMBERS)), draw(ODD_NUMBERS)))
        elif kind == "drop":
            steps.append((kind, draw(st.sampled_from(ALL_PATHS)), None))
        else:
            steps.append((kind, draw(st.sampled_from(TABLES)), draw(st.sampled_from(["hand_limt", "extra", "2", "x"]))))
    return steps


def _mutate(doc: dict[str, Any], steps: list[tuple[str, Path_, Any]]) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for kind, path, value in steps:
        try:
            parent = _get(doc, path[:-1]) if path else None
            if kind == "number":
                parent[path[-1]] = value  # type: ignore[index]
            elif kind == "drop":
                del parent[path[-1]]  # type: ignore[union-attr]
            else:
                target = _get(doc, path)
                if isinstance(target, dict) and value not in target:
                    target[value] = 1
        except (KeyError, IndexError, TypeError):  # an earlier step removed the path
            continue
    return doc


def _play_everything(components: Components) -> None:
    """Random games at every player count (and expansion games) end; the AEC environment steps."""
    rng = random.Random(0)
    for expansion in (False, True) if components.has_expansion else (False,):
        counts = components.expansion.player_counts if expansion and components.expansion else components.player_counts
        for players in counts:
            config = GameConfig(players=players, components=components, round_limit=ROUND_LIMIT, expansion=expansion)
            game = Game.new(config, seed=players)
            for _ in range(20_000):
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_actions()))
            assert game.is_over, f"{players} players, expansion={expansion}: no end after 20000 decisions"
    for players in components.player_counts:
        _step_aec(components, players)


def _step_aec(components: Components, players: int) -> None:
    env = raw_env(players=players, components=components, round_limit=ROUND_LIMIT)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    for _ in range(AEC_STEPS):
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset(seed=int(rng.integers(1000)))
            continue
        assert np.isfinite(obs["observation"]).all(), f"{agent}: observation not finite"
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _check(doc: dict[str, Any]) -> None:
    try:
        components = parse_components(doc)
    except ComponentError:
        return
    _play_everything(components)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 400 below, marked slow
@given(mutations())
def test_a_mutated_component_file_is_refused_or_plays(steps: list[tuple[str, Path_, Any]]) -> None:
    _check(_mutate(DOC, steps))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_many_mutated_component_files_are_refused_or_play(steps: list[tuple[str, Path_, Any]]) -> None:
    _check(_mutate(DOC, steps))


# Every number of the file once (one card value per list: the others behave alike), each set to odd values.
SWEEP = [p for p in NUMBERS if not (p[-2:-1] in (("values",),) or p[:2] == ("expansion", "slaves")) or p[-1] == 0]


@pytest.mark.slow
@pytest.mark.parametrize("path", SWEEP, ids=lambda p: ".".join(map(str, p)))
def test_every_single_number_is_refused_or_plays(path: Path_) -> None:
    for value in (0, -1, 1, 2, 10**6):
        _check(_mutate(DOC, [("number", path, value)]))


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        (("cesura", "hand_limit"), 0, "cesura.hand_limit"),
        (("scoring", "denarii_per_point"), 0, "scoring.denarii_per_point"),
        (("followers", "4"), 0, "followers.4"),
        (("regions", "catacombs", "prices"), [], "regions.catacombs.prices"),
        (("regions", "thermae", "fields"), 0, "regions.thermae.fields"),
        (("setup", "discard"), 6, "setup.discard"),
        (("expansion", "regions", "basilica", "spaces"), 1, "expansion.regions.basilica.spaces"),
    ],
)
def test_degenerate_numbers_name_the_field(path: Path_, value: Any, named: str) -> None:
    doc = _mutate(DOC, [("number", path, value)])
    with pytest.raises(ComponentError, match=named.replace(".", r"\.")):
        parse_components(doc)


@pytest.mark.parametrize(
    "where",
    [
        (),
        ("meta",),
        ("cesura",),
        ("regions",),
        ("regions", "forum"),
        ("factions", 2),
        ("factions", 2, "numbers"),
        ("victory_cards", 0),
        ("cesura", "set_losses", 0),
        ("expansion",),
        ("expansion", "assassins"),
        ("expansion", "officials", 3),
        ("expansion", "officials", 3, "payment"),
        ("expansion", "emperor", "tiles", 0),
        ("expansion", "regions", "refugium", "pairs", "greek"),
        ("expansion", "victory_cards", 1),
        ("expansion", "scoring"),
    ],
)
def test_an_unknown_key_is_refused_by_name(where: Path_) -> None:
    key = "hand_limt" if where != ("expansion", "officials", 3, "payment") else "many"
    doc = _mutate(DOC, [("add", where, key)])
    with pytest.raises(ComponentError, match=r"hand_limt|many") as info:
        parse_components(doc)
    assert "unknown" in str(info.value) or "key must be" in str(info.value)


@pytest.mark.parametrize("depth", [100, 10_000])
@pytest.mark.parametrize("where", ["top", "table"])
def test_deep_nesting_is_a_component_error(tmp_path: Path, depth: int, where: str) -> None:
    nested = "[" * depth + "]" * depth
    text = f"deep = {nested}\n" + TEXT if where == "top" else TEXT + f"\n[extra]\ndeep = {nested}\n"
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ComponentError, match="nested") as info:
        load_components(path)
    assert depth > 500 or ".deep" in str(info.value) or ": deep" in str(info.value)


def test_inline_deep_tables_are_a_component_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(TEXT.replace("[meta]\n", "[meta]\nx = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n"), "utf-8")
    with pytest.raises(ComponentError, match="nested"):
        load_components(path)


def test_the_default_file_still_loads_and_plays() -> None:
    components = parse_components(copy.deepcopy(DOC))
    assert components == load_components()
