"""Fuzzing the two document readers: bad input gets a clear error, never an unrelated crash.

* ``Game.from_json(doc)`` must, for any JSON-like input, either raise
  :class:`InvalidStateError` or return a game that plays on: random legal steps,
  then ``to_json`` and reading that document back. It never changes ``doc``.
* ``parse_components(doc)`` / ``load_components(path)`` must, for any TOML-like
  input, either raise :class:`ComponentError` or return a component set with
  which every supported player count plays (and saves and reloads).

Inputs are valid documents (saved games after random play, short hand-written
positions, the packaged component file) changed by random mutations; every
example records its mutations with ``note()``, so a failure prints them.

The engine bugs the fuzzing found are pinned at the end of the file by small
deterministic regression tests (``test_regression_*``). To hunt with more
examples, e.g.::

    TRIBUNE_FUZZ_EXAMPLES=2000 pytest tests/engine/test_fuzz_documents.py
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import tomllib
import traceback
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption

from tribune_env import (
    ComponentError,
    Components,
    DecisionKind,
    Faction,
    Game,
    GameConfig,
    InvalidStateError,
    Phase,
    Region,
    default_components,
    load_components,
)
from tribune_env.data import BASE_REGIONS, parse_components
from tribune_env.engine.registry import STEPS
from tribune_env.engine.tables import tables_for

EXAMPLES = int(os.environ.get("TRIBUNE_FUZZ_EXAMPLES", "0"))


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=EXAMPLES or examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        database=None,
    )


PACKAGED = Path(str(resources.files("tribune_env.data").joinpath("components.toml")))
COMPONENTS_TEXT = PACKAGED.read_text(encoding="utf-8")
DEFAULTS = default_components()
TABLES = tables_for(DEFAULTS)
CARD_LABELS = list(TABLES.card_label)
FACTIONS = [f.key for f in Faction]
REGIONS = [r.key for r in BASE_REGIONS]
PHASES = [p.name.lower() for p in Phase]
KINDS = [k.key for k in DecisionKind]
STEP_NAMES = sorted(STEPS)
SPACE_LABELS = [s.label for s in TABLES.spaces]
NAMES = CARD_LABELS + FACTIONS + REGIONS + PHASES + KINDS + STEP_NAMES + SPACE_LABELS

# --- values --------------------------------------------------------------------------------------------

BIG_INTS = [2**31, 2**53 + 1, 2**63, 2**64 + 7, 10**30, -(2**63)]
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.sampled_from(BIG_INTS),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from([*NAMES, "rest"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _type_name(value: Any) -> str:
    return "bool" if isinstance(value, bool) else type(value).__name__


def other_type_value(value: Any) -> st.SearchStrategy[Any]:
    """A JSON value whose type differs from ``value``'s."""
    return json_values.filter(lambda v: _type_name(v) != _type_name(value))


def nearby_value(value: Any, players: int) -> st.SearchStrategy[Any]:
    """A value of the same type that is likely out of range or unknown."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.sampled_from([-1, -2, 0, 1, value - 1, value + 1, players, players + 1, 99, *BIG_INTS])
    if isinstance(value, float):
        return st.sampled_from([-1.0, 0.5, 1e300, float(int(value))])
    if isinstance(value, str):
        garbage = ["", "rest", "x", value.upper(), value + ":1", "senators:11", "senators:-1", "gladiators:0"]
        return st.sampled_from(garbage) | st.sampled_from(NAMES)
    return json_values


# --- agenda steps ----------------------------------------------------------------------------------------


def step_params(name: str) -> list[str]:
    return list(inspect.signature(STEPS[name].run).parameters)[1:]


_SLOT_REGION = {
    "curia_field": Region.CURIA,
    "catacombs_space": Region.CATACOMBS,
    "pantheon_space": Region.PANTHEON,
    "mars_space": Region.FIELD_OF_MARS,
    "atrium_bid": Region.ATRIUM,
}


def arg_range(name: str, param: str, players: int) -> tuple[int, int]:
    """Inclusive range of a step argument that a well-formed document may hold."""
    if param == "slot" and name in _SLOT_REGION:
        return 0, DEFAULTS.region(_SLOT_REGION[name]).spaces - 1
    return {
        "seat": (0, players - 1),
        "faction": (0, len(Faction) - 1),
        "region": (0, len(BASE_REGIONS) - 1),
        "role": (0, 2),
        "after_cesura": (0, 1),
        "n": (1, TABLES.deck_size),
    }.get(param, (0, 0))


def well_formed_step(step: Any, players: int) -> bool:
    """A known step name with the right number of integer arguments, each in range."""
    if not isinstance(step, list) or not step or not isinstance(step[0], str) or step[0] not in STEPS:
        return False
    params = step_params(step[0])
    if len(step) - 1 != len(params):
        return False
    for arg, param in zip(step[1:], params, strict=True):
        low, high = arg_range(step[0], param, players)
        if isinstance(arg, bool) or not isinstance(arg, int) or not low <= arg <= high:
            return False
    return True


def sane_steps(players: int) -> st.SearchStrategy[list[Any]]:
    """Well-formed steps: a known name, its arguments in range (``n`` kept small)."""

    def args(name: str) -> st.SearchStrategy[list[Any]]:
        ranges = [arg_range(name, p, players) for p in step_params(name)]
        return st.tuples(
            *[
                st.integers(low, min(high, 3 if p == "n" else high))
                for (low, high), p in zip(ranges, step_params(name), strict=True)
            ]
        ).map(lambda values: [name, *values])

    return st.sampled_from(STEP_NAMES).flatmap(args)


wild_args = st.integers(-2, 12) | st.sampled_from([99, 2**63, -(2**63)]) | json_scalars
wild_steps = st.one_of(
    st.builds(
        lambda name, args: [name, *args], st.sampled_from(STEP_NAMES) | json_scalars, st.lists(wild_args, max_size=4)
    ),
    json_values,
)

# --- paths and mutations ----------------------------------------------------------------------------------

Path_ = tuple[Any, ...]


def get_at(doc: Any, path: Path_) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def set_at(doc: Any, path: Path_, value: Any) -> None:
    get_at(doc, path[:-1])[path[-1]] = value


def del_at(doc: Any, path: Path_) -> None:
    del get_at(doc, path[:-1])[path[-1]]


def children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


def draw_path(data: st.DataObject, doc: Any, top: list[Any] | None = None) -> Path_:
    """A random path into ``doc``: a top-level key, then deeper with decreasing likelihood."""
    keys = children(doc) if top is None else [k for k in top if k in children(doc)]
    if not keys:
        return ()
    path: Path_ = (data.draw(st.sampled_from(keys), label="key"),)
    node = get_at(doc, path)
    while children(node) and data.draw(st.integers(0, 99), label="deeper?") < 65:
        key = data.draw(st.sampled_from(children(node)), label="key")
        path = (*path, key)
        node = node[key]
    return path


def show(path: Path_) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "<doc>"


def short(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 100 else text[:97] + "..."


class Mutator:
    """Applies random mutations to a document and records them (``note``) for the failure report."""

    values = json_values

    def __init__(self, data: st.DataObject, doc: Any, players: int, log: list[str]) -> None:
        self.data = data
        self.doc = doc
        self.players = players
        self.log = log

    def draw(self, strategy: st.SearchStrategy[Any], label: str | None = None) -> Any:
        return self.data.draw(strategy, label=label)

    def record(self, text: str) -> None:
        self.log.append(text)
        note(f"mutation: {text}")

    def set(self, path: Path_, value: Any) -> None:
        try:
            was = short(get_at(self.doc, path))
        except (KeyError, IndexError):
            was = "missing"
        set_at(self.doc, path, value)
        self.record(f"set {show(path)} = {short(value)} (was {was})")

    # -- anywhere in the tree

    def generic(self, top: list[Any] | None = None) -> None:
        path = draw_path(self.data, self.doc, top)
        if not path:
            return
        node = get_at(self.doc, path)
        op = self.draw(st.sampled_from(["delete", "other_type", "nearby", "copy_from", "resize", "add_key"]), "op")
        if op == "delete":
            del_at(self.doc, path)
            self.record(f"delete {show(path)}")
        elif op == "other_type":
            self.set(path, self.draw(self.values.filter(lambda v: _type_name(v) != _type_name(node))))
        elif op == "nearby":
            self.set(path, self.draw(self.nearby(node)))
        elif op == "copy_from":
            source = draw_path(self.data, self.doc)
            if source:
                self.record(f"(copy of {show(source)})")
                self.set(path, copy.deepcopy(get_at(self.doc, source)))
        elif op == "resize" and isinstance(node, list):
            self.resize(path, node)
        elif op == "add_key" and isinstance(node, dict):
            key = self.draw(st.text(max_size=6) | st.sampled_from(list(node) or ["x"]))
            value = self.draw(self.values)
            node[key] = value
            self.record(f"set {show((*path, key))} = {short(value)}")

    def nearby(self, node: Any) -> st.SearchStrategy[Any]:
        return nearby_value(node, self.players)

    def resize(self, path: Path_, node: list[Any]) -> None:
        how = self.draw(st.sampled_from(["truncate", "duplicate", "append", "clear", "reverse"]))
        if how == "truncate" and node:
            k = self.draw(st.integers(0, len(node) - 1))
            del node[k:]
            self.record(f"truncate {show(path)} to {k} entries")
        elif how == "duplicate" and node:
            i = self.draw(st.integers(0, len(node) - 1))
            node.insert(i, copy.deepcopy(node[i]))
            self.record(f"duplicate {show((*path, i))} = {short(node[i])}")
        elif how == "append":
            value = copy.deepcopy(self.draw(self.values | st.sampled_from(node or [0])))
            node.append(value)
            self.record(f"append {short(value)} to {show(path)}")
        elif how == "clear":
            node.clear()
            self.record(f"clear {show(path)}")
        elif how == "reverse":
            node.reverse()
            self.record(f"reverse {show(path)}")

    # -- targeted

    def seat(self) -> None:
        """An out-of-range (or otherwise wrong) seat where the document holds a seat."""
        doc = self.doc
        places: list[Path_] = [(k,) for k in ("start_seat", "turn_seat", "proconsul") if k in doc]
        if isinstance(doc.get("pending"), dict):
            places.append(("pending", "seat"))
        if isinstance(doc.get("followers"), dict):
            places += [("followers", k) for k in doc["followers"]]
        for key in ("coin_bowl", "winners"):
            if isinstance(doc.get(key), list):
                places += [(key, i) for i in range(len(doc[key]))]
        if isinstance(doc.get("pairs"), list):
            places += [("pairs", i, 0) for i, pair in enumerate(doc["pairs"]) if isinstance(pair, list) and pair]
        if places:
            path = self.draw(st.sampled_from(places))
            self.set(path, self.draw(st.sampled_from([-1, self.players, self.players + 3, 2**63, None, True, 0])))

    def cards(self) -> None:
        """A card label swapped for garbage or for another card."""
        labels: list[Path_] = []

        def walk(node: Any, path: Path_) -> None:
            if isinstance(node, str) and node in TABLES.card_by_label and path[0] != "events":
                labels.append(path)
            for key in children(node):
                walk(node[key], (*path, key))

        walk(self.doc, ())
        if labels:
            garbage = ["senators:11", "senators:0 ", "Senators:7", "gladiators", ":3", "senators:07", ""]
            value = self.draw(st.sampled_from(CARD_LABELS) | st.sampled_from(garbage) | json_scalars)
            self.set(self.draw(st.sampled_from(labels)), value)

    def agenda(self) -> None:
        """Insert, delete, duplicate or change agenda steps, well-formed or not."""
        agenda = self.doc.get("agenda")
        if not isinstance(agenda, list):
            agenda = []
            self.doc["agenda"] = agenda
            self.record("set agenda = []")
        op = self.draw(st.sampled_from(["insert", "delete", "duplicate", "change_arg"]))
        if op == "insert" or not agenda:
            i = self.draw(st.integers(0, len(agenda)))
            step = self.draw(sane_steps(self.players) | wild_steps)
            agenda.insert(i, step)
            self.record(f"insert agenda[{i}] = {short(step)}")
        elif op == "delete":
            i = self.draw(st.integers(0, len(agenda) - 1))
            self.record(f"delete agenda[{i}] = {short(agenda[i])}")
            del agenda[i]
        elif op == "duplicate":
            i = self.draw(st.integers(0, len(agenda) - 1))
            agenda.insert(i, copy.deepcopy(agenda[i]))
            self.record(f"duplicate agenda[{i}] = {short(agenda[i])}")
        else:
            i = self.draw(st.integers(0, len(agenda) - 1))
            if isinstance(agenda[i], list) and len(agenda[i]) >= 2:
                j = self.draw(st.integers(1, len(agenda[i]) - 1))
                self.set(("agenda", i, j), self.draw(st.integers(-1, 8) | wild_args))

    def pending(self) -> None:
        pending = self.doc.get("pending")
        if not isinstance(pending, dict):
            pending = {"kind": "place_follower", "seat": 0, "faction": None, "index": -1}
            self.doc["pending"] = pending
            self.record(f"set pending = {short(pending)}")
        key = self.draw(st.sampled_from(["kind", "seat", "faction", "index", "delete"]))
        if key == "delete":
            self.record("set pending = null")
            self.doc["pending"] = None
            return
        strategies = {
            "kind": st.sampled_from(KINDS) | json_scalars,
            "seat": st.integers(-1, self.players + 1) | json_scalars,
            "faction": st.sampled_from([*FACTIONS, None]) | json_scalars,
            "index": st.integers(-2, 9) | json_scalars,
        }
        value = self.draw(strategies[key])
        self.record(f"set pending.{key} = {short(value)} (was {short(pending.get(key))})")
        pending[key] = value

    def events(self) -> None:
        events = self.doc.get("events")
        if isinstance(events, list):
            event = self.draw(
                st.lists(json_scalars, min_size=5, max_size=5)
                | st.tuples(
                    st.integers(-1, 99), st.integers(-1, 9), st.integers(-2, 6), st.text(), st.integers(-2, 6)
                ).map(list)
                | json_values
            )
            i = self.draw(st.integers(0, len(events)))
            events.insert(i, event)
            self.record(f"insert events[{i}] = {short(event)}")

    def any(self) -> None:
        kind = self.draw(
            st.sampled_from(
                ["generic", "generic", "generic", "players", "config", "seat", "cards", "events", "pending", "agenda"]
            ),
            "mutation",
        )
        if kind == "generic":
            self.generic()
        elif kind in ("players", "config"):
            self.generic([kind])
        else:
            getattr(self, kind)()


# --- documents ------------------------------------------------------------------------------------------------


@functools.cache
def _saved_game_text(players: int, seed: int, steps: int) -> str:
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed * 1000 + steps)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return json.dumps(game.to_json())


def saved_game(players: int, seed: int, steps: int) -> dict[str, Any]:
    """A fresh copy of the document of a game after ``steps`` random steps."""
    doc: dict[str, Any] = json.loads(_saved_game_text(players, seed, steps))
    return doc


class Saved:
    """A saved game's document; shown in failure reports as the call that rebuilds it."""

    def __init__(self, players: int, seed: int, steps: int) -> None:
        self.origin = f"saved_game({players}, {seed}, {steps})"
        self.doc = saved_game(players, seed, steps)

    def __repr__(self) -> str:
        return self.origin


saved_games = st.builds(
    Saved,
    players=st.integers(2, 5),
    seed=st.integers(0, 3),
    steps=st.sampled_from([0, 1, 5, 20, 60, 150, 400]),
)


@st.composite
def minimal_docs(draw: st.DrawFn) -> dict[str, Any]:
    """A short hand-written position: config and players, sometimes a phase and a few holdings."""
    players = draw(st.integers(2, 5))
    cards = ["alea_long", "alea_short", "pecunia", "card_c", "card_d"] if players < 5 else ["card_e", "card_f"]
    config: dict[str, Any] = {"players": players, "victory_card": draw(st.sampled_from(cards))}
    if draw(st.booleans()):
        config = {"players": players, "point_variant": True}
    doc: dict[str, Any] = {"config": config, "players": [{} for _ in range(players)]}
    if draw(st.booleans()):
        doc["phase"] = draw(st.sampled_from(PHASES))
    if draw(st.booleans()):
        doc["players"][0] = {"money": 5, "hand": ["senators:7", "gladiators:2"], "followers": 2}
    if draw(st.booleans()):
        doc["players"][1]["sets"] = {"legates": ["legates:2", "legates:3"]}
        doc["players"][1]["markers"] = ["legates"]
    if draw(st.booleans()):
        doc["followers"] = {"thermae:1": 0, "faction:senators:1": 1}
        doc["coin_bowl"] = [0]
    return doc


# --- checks ---------------------------------------------------------------------------------------------------


def where(exc: BaseException) -> str:
    """file:function:line of the innermost frame of ``exc``."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    f = frames[-1]
    return f"{Path(f.filename).name}:{f.name}:{f.lineno}"


def play_on(game: Game, seed: int, steps: int = 200, components: Components | None = None) -> None:
    """The loaded position saves and reads back; random legal steps, then write the game, read the document back,
    render it; any exception fails."""
    reads_back(game, components)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.pending is None:
            assert game.is_over, f"the game waits for no decision but is not over (phase {game.phase.name})"
            break
        legal = game.legal_actions()
        assert legal, f"pending {game.pending} has no legal choice"
        game.apply(rng.choice(legal))
    reads_back(game, components)
    game.render()
    for seat in range(game.num_players):
        game.view(seat)


def reads_back(game: Game, components: Components | None = None) -> None:
    """Every position reached, the loaded one included, saves and reads back identically."""
    doc = game.to_json()
    try:
        reloaded = Game.from_json(json.dumps(doc), components)
    except InvalidStateError as exc:
        raise AssertionError(f"a document written by the engine does not read back: {exc}") from exc
    assert reloaded.to_json() == doc, "a written document does not read back identically"


def check_from_json(doc: Any, log: list[str], play_seed: int, as_text: bool = False) -> Game | None:
    """The contract of ``from_json`` on ``doc``; returns the game when it loaded."""
    before = copy.deepcopy(doc)
    try:
        game = Game.from_json(json.dumps(doc) if as_text else doc)
    except InvalidStateError as exc:
        assert str(exc).strip(), "InvalidStateError without a message"
        assert doc == before, f"from_json changed its input; mutations: {log}"
        return None
    except Exception as exc:
        raise AssertionError(
            f"from_json raised {type(exc).__name__} at {where(exc)}: {exc}\n  mutations: {log}"
        ) from exc
    assert doc == before, f"from_json changed its input; mutations: {log}"
    try:
        play_on(game, play_seed)
    except UnsatisfiedAssumption:
        raise
    except Exception as exc:
        raise AssertionError(
            f"a document that loaded fails later: {type(exc).__name__} at {where(exc)}: {exc}\n  mutations: {log}"
        ) from exc
    return game


HUGE = 10**6


# --- from_json properties ----------------------------------------------------------------------------------


@fuzz(80)
@given(game=saved_games, data=st.data(), n=st.integers(1, 4), play_seed=st.integers(0, 2**16))
def test_from_json_mutated_saved_games(game: Saved, data: st.DataObject, n: int, play_seed: int) -> None:
    origin, doc = game.origin, game.doc
    note(f"document: {origin}: round {doc['round']}, phase {doc['phase']}, pending {doc['pending']}")
    log = [origin]
    mutator = Mutator(data, doc, doc["config"]["players"], log)
    for _ in range(n):
        mutator.any()
    check_from_json(doc, log, play_seed, as_text=data.draw(st.booleans(), "as JSON text"))


@fuzz(80)
@given(doc=minimal_docs(), data=st.data(), n=st.integers(0, 4), play_seed=st.integers(0, 2**16))
def test_from_json_mutated_minimal_docs(doc: dict[str, Any], data: st.DataObject, n: int, play_seed: int) -> None:
    log = [short(doc)]
    note(f"document: {short(doc)}")
    mutator = Mutator(data, doc, doc["config"]["players"], log)
    for _ in range(n):
        mutator.any()
    check_from_json(doc, log, play_seed)


@fuzz(60)
@given(doc=json_values)
def test_from_json_any_json_value(doc: Any) -> None:
    check_from_json(doc, [f"document = {short(doc)}"], 0)
    if not isinstance(doc, str):
        check_from_json(json.dumps(doc), [f"document text = {short(json.dumps(doc))}"], 0)


@fuzz(60)
@given(
    doc=st.fixed_dictionaries(
        {},
        optional={
            "config": json_values
            | st.fixed_dictionaries(
                {"players": st.integers(1, 6) | json_values},
                optional={
                    k: json_values
                    for k in ("victory_card", "point_variant", "round_limit", "auto_forced", "components")
                },
            ),
            "players": json_values
            | st.lists(
                st.dictionaries(st.sampled_from(["money", "hand", "sets", "tile", "markers"]), json_values), max_size=5
            ),
            "phase": json_values,
            "format": json_values,
            "version": json_values,
            "pending": json_values,
            "agenda": json_values,
            "draw_pile": json_values,
        },
    )
)
def test_from_json_random_objects(doc: dict[str, Any]) -> None:
    check_from_json(doc, [f"document = {short(doc)}"], 0)


def test_from_json_leaves_a_valid_document_unchanged() -> None:
    for origin in [(2, 0, 0), (3, 1, 60), (5, 2, 150)]:
        doc = saved_game(*origin)
        before = copy.deepcopy(doc)
        Game.from_json(doc)
        assert doc == before


# --- component properties --------------------------------------------------------------------------------------


def components_doc() -> dict[str, Any]:
    return tomllib.loads(COMPONENTS_TEXT)


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """``value`` as an inline TOML value (strings, integers, floats, booleans, arrays, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_string(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(doc: dict[str, Any]) -> str:
    return "".join(f"{toml_string(str(k))} = {toml_value(v)}\n" for k, v in doc.items())


toml_scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.sampled_from([2**31, 2**62, -(2**63), 10**6]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from([*FACTIONS, *REGIONS, "alea_long", "card_e", "tribune", "favor", "denarii", "markers"]),
)
toml_values = st.recursive(
    toml_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


class ComponentMutator(Mutator):
    """Mutations of a parsed component file: TOML values only (no null), numbers favoured."""

    values = toml_values

    def nearby(self, node: Any) -> st.SearchStrategy[Any]:
        if isinstance(node, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in node):
            return st.sampled_from([[], [0], [0, 0], [5, 5, 5], [0] * 40, [2, 3, 4], [*node, 1, 1], node[1:]])
        return st.sampled_from([-1, 0, 1, 2, 3, 7, 100, HUGE, 2**62]) | (
            st.sampled_from([*FACTIONS, "x", ""]) if isinstance(node, str) else st.nothing()
        )

    def swap(self) -> None:
        path = draw_path(self.data, self.doc)
        if path:
            parent = get_at(self.doc, path[:-1])
            other = self.draw(st.sampled_from(children(parent)))
            parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
            self.record(f"swap {show(path)} with {show((*path[:-1], other))}")


COMPONENT_AREAS = [
    "meta",
    "factions",
    "faction_field",
    "takeover",
    "regions",
    "coin_bowl",
    "setup",
    "followers",
    "cesura",
    "scoring",
    "point_variant",
    "victory_cards",
]


def mutate_components(data: st.DataObject, doc: dict[str, Any], n: int, log: list[str]) -> None:
    mutator = ComponentMutator(data, doc, 5, log)
    for _ in range(n):
        if data.draw(st.integers(0, 9), "swap?") == 0:
            mutator.swap()
        else:
            area = data.draw(st.sampled_from([None, *COMPONENT_AREAS]), "area")
            mutator.generic(None if area is None else [area])


def check_components(doc: Any, log: list[str], seed: int) -> Components | None:
    """The contract of ``parse_components``; a set that loads must play for every player count."""
    before = copy.deepcopy(doc)
    try:
        comps = parse_components(doc, "<fuzz>")
    except ComponentError as exc:
        assert str(exc).strip()
        assert doc == before, f"parse_components changed its input; mutations: {log}"
        return None
    except Exception as exc:
        raise AssertionError(
            f"parse_components raised {type(exc).__name__} at {where(exc)}: {exc}\n  mutations: {log}"
        ) from exc
    assert doc == before, f"parse_components changed its input; mutations: {log}"
    for players in [*comps.player_counts, 1, max(comps.player_counts) + 1]:
        try:
            config = GameConfig(players=players, components=comps, point_variant=players == 3)
        except ValueError as exc:
            assert str(exc).strip()
            assert players not in comps.player_counts, f"a listed player count is refused: {exc}\n  mutations: {log}"
            continue
        assert players in comps.player_counts, f"an unlisted player count {players} is accepted; mutations: {log}"
        try:
            play_on(Game.new(config, seed=seed), seed, steps=300, components=comps)
        except UnsatisfiedAssumption:
            raise
        except Exception as exc:
            raise AssertionError(
                f"components loaded, but a {players}-player game fails: {type(exc).__name__} at {where(exc)}: "
                f"{exc}\n  mutations: {log}"
            ) from exc
    return comps


@fuzz(60)
@given(data=st.data(), n=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_parse_components_mutated(data: st.DataObject, n: int, seed: int) -> None:
    doc = components_doc()
    log: list[str] = []
    mutate_components(data, doc, n, log)
    check_components(doc, log, seed)


@fuzz(40)
@given(data=st.data(), n=st.integers(1, 2))
def test_load_components_file_mutated(data: st.DataObject, n: int) -> None:
    """The same through a file: ``load_components`` names the file and agrees with ``parse_components``."""
    doc = components_doc()
    log: list[str] = []
    mutate_components(data, doc, n, log)
    text = toml_text(doc)
    assert tomllib.loads(text) == doc, "the test's TOML writer is wrong"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "components.toml"
        path.write_text(text, encoding="utf-8")
        try:
            loaded = load_components(path) is not None
        except ComponentError as exc:
            assert str(path) in str(exc), f"the error does not name the file: {exc}"
            loaded = False
        except Exception as exc:
            raise AssertionError(
                f"load_components raised {type(exc).__name__} at {where(exc)}: {exc}\n  mutations: {log}"
            ) from exc
    try:
        parse_components(copy.deepcopy(doc))
        parsed = True
    except ComponentError:
        parsed = False
    assert loaded == parsed, f"load_components and parse_components disagree; mutations: {log}"


@fuzz(60)
@given(text=st.text(max_size=60) | st.sampled_from(["[meta", "x = ", "= 1", "[[factions]]\nkey = 1", "\x00"]))
def test_load_components_garbage_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "garbage.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ComponentError):
            load_components(path)


def test_load_components_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="cannot read"):
        load_components(tmp_path / "missing.toml")
    with pytest.raises(ComponentError, match="cannot read"):
        load_components(tmp_path)  # a directory
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ComponentError):
        load_components(binary)


# --- regressions: crashes the fuzzing found, since fixed (6e9469d) ------------------------------------------
#
# Each test accepts either a clear rejection (InvalidStateError / ComponentError) or
# a game that goes on correctly; before the fix each raised the exception named.


def _play_until(game: Game, seed: int, stop: Any, limit: int = 5000) -> Game:
    rng = random.Random(seed)
    for _ in range(limit):
        if stop(game):
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the position was not reached")  # pragma: no cover


def _random_steps(
    game: Game, seed: int, steps: int, components: Components | None = None, reload: bool = False
) -> None:
    """Random legal steps; with ``reload``, the game's document must read back after each one."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        if reload:
            Game.from_json(game.to_json(), components)


def test_regression_players_float() -> None:
    """Was TypeError in GameState.__init__ (range(2.0)): GameConfig accepted 2.0 as 2."""
    with pytest.raises(InvalidStateError, match="players"):
        Game.from_json({"config": {"players": 2.0, "victory_card": "alea_long"}, "players": [{}, {}]})


def test_regression_off_space_decision_where_no_brutii_card_acts() -> None:
    """Was KeyError out of from_json: pending.index -1 (the Brutii's off-space slot, R47) on an atrium_bid, a region
    where no action card lets him act (found by test_from_json_mutated_saved_games, 2026-11-26)."""
    doc = Game.new(players=2, seed=0).to_json()
    doc["pending"]["kind"] = "atrium_bid"
    assert doc["pending"]["index"] == -1
    with pytest.raises(InvalidStateError, match=r"pending\.index: a atrium_bid decision needs the deciding player"):
        Game.from_json(doc)


def test_regression_deeply_nested_json_text() -> None:
    """Was RecursionError out of json.loads."""
    with pytest.raises(InvalidStateError):
        Game.from_json("[" * 100_000 + "]" * 100_000)


def test_regression_agenda_without_round_end() -> None:
    """Loaded, then the game waited for nothing without being over; its own to_json was rejected."""
    doc = {"config": {"players": 2, "victory_card": "alea_long"}, "players": [{}, {}], "agenda": [["chariot"]]}
    with pytest.raises(InvalidStateError, match="agenda: the last step of an unfinished game's agenda is one of"):
        Game.from_json(doc)


def test_regression_agenda_without_round_start() -> None:
    """A set-up document without its ['round_start'] step: stuck after the discards."""
    doc = Game.new(players=3, seed=3).to_json()
    assert doc["agenda"][-1] == ["round_start"]
    del doc["agenda"][-1]
    with pytest.raises(InvalidStateError, match="agenda: the last step of an unfinished game's agenda is one of"):
        Game.from_json(doc)


def test_regression_staged_cards_without_pending() -> None:
    """'staged' cards with pending null: the card was lost, and the game's own to_json was rejected."""
    game = _play_until(Game.new(players=2, seed=0), 0, lambda g: bool(g.position().staged))
    doc = game.to_json()
    doc["pending"] = None
    with pytest.raises(InvalidStateError, match="staged: cards are staged or contested, but no decision is pending"):
        Game.from_json(doc)


def test_regression_agenda_step_out_of_context() -> None:
    """['atrium_resolve'] with nobody on the Atrium: ValueError 'negative shift count' in ops.touch."""
    doc = Game.new(players=3, seed=1).to_json()
    doc["agenda"].insert(0, ["atrium_resolve"])
    with pytest.raises(InvalidStateError, match=r"agenda\[0\]: \['atrium_resolve'\]: needs both Atrium spaces"):
        Game.from_json(doc)


def test_regression_agenda_step_without_legal_choice() -> None:
    """['takeover_penalty', 0, 0] run at load time: RuntimeError 'no legal choice' out of from_json."""
    doc = Game.new(players=2, seed=0).to_json()
    doc["agenda"].insert(0, ["takeover_penalty", 0, 0])
    doc["pending"] = None
    with pytest.raises(InvalidStateError):
        Game.from_json(doc)


def _run_isolated(code: str, timeout: float) -> None:
    """Run ``code`` in a fresh interpreter (a hang or a memory blow-up stays there).

    Raises:
        subprocess.TimeoutExpired: it ran longer than ``timeout`` seconds (it is killed).
    """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_regression_huge_money_enumerates_every_bid() -> None:
    """Money 2**62 at a bid: bid_choices listed range(money + 1), hanging from_json until MemoryError."""
    _run_isolated(
        """
        import random
        from tribune_env import Game, InvalidStateError
        game = Game.new(players=2, seed=0)
        rng = random.Random(0)
        while game.pending.kind.key != "chariot_bid":
            game.apply(rng.choice(game.legal_actions()))
        doc = game.to_json()
        doc["players"][game.pending.seat]["money"] = 2**62
        try:
            loaded = Game.from_json(doc)
        except InvalidStateError:
            raise SystemExit(0)
        loaded.apply(loaded.legal_actions()[0])
        """,
        timeout=20,
    )


def _components(change: Any) -> Components:
    """The packaged component document with ``change`` applied, parsed (``ComponentError`` if refused)."""
    doc = components_doc()
    change(doc)
    return parse_components(doc)


def test_regression_components_pair_size_not_2() -> None:
    """pair_size 3 loaded; regions._resolve_mars unpacks two cards: ValueError 'too many values to unpack'."""
    with pytest.raises(ComponentError, match="pair_size: the engine plays pairs of exactly 2 cards"):
        _components(lambda doc: doc["regions"]["field_of_mars"].update(pair_size=3))


def test_regression_components_draw_more_than_the_deck() -> None:
    """benefit_cards = 1000000 loaded; the engine wrote ['draw', 1, 999952, 1], which from_json rejected."""
    with pytest.raises(ComponentError, match="benefit_cards: must be <= 1000"):
        _components(lambda doc: doc["factions"][3]["numbers"].update(benefit_cards=10**6))


def test_regression_components_cesura_below_min_set_size() -> None:
    """min_set_size 3 with the default set losses: a set of 2 after the cesura, which from_json rejected."""
    with pytest.raises(ComponentError, match=r"fewer than takeover\.min_set_size"):
        _components(lambda doc: doc["takeover"].update(min_set_size=3))


# --- engine bugs the fuzzing found, pinned as regression tests ---------------------------------------------------


def test_regression_followers_unbounded() -> None:
    doc = {
        "config": {"players": 2, "victory_card": "alea_long"},
        "players": [{"followers": 30_000}, {"followers": 1}],
        "phase": "follower_placement",
    }
    with pytest.raises(InvalidStateError, match=r"players\[0\].followers: must be <= 7, got 30000"):
        Game.from_json(doc)


def test_regression_components_huge_numbers_break_saving() -> None:
    with pytest.raises(ComponentError, match=r"coin_bowl\.first: must be <= 1000"):
        _components(lambda doc: doc["coin_bowl"].update(first=10**6))


def test_regression_components_huge_numbers_stall_the_game() -> None:
    _run_isolated(
        """
        import random, tomllib
        from importlib import resources
        from tribune_env import ComponentError, Game, GameConfig
        from tribune_env.data import parse_components
        doc = tomllib.loads(resources.files("tribune_env.data").joinpath("components.toml").read_text())
        doc["followers"]["2"] = 10**6
        try:
            comps = parse_components(doc)
        except ComponentError:
            raise SystemExit(0)
        game = Game.new(GameConfig(players=2, components=comps), seed=0)
        rng = random.Random(0)
        for _ in range(40):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        """,
        timeout=4,
    )


# --- more engine bugs the fuzzing found, pinned as regression tests ----------------------------------------------


def test_regression_events_not_validated() -> None:
    doc = saved_game(2, 0, 20)
    doc["events"].append([None, 99, "x", {"a": 1}, []])
    with pytest.raises(InvalidStateError, match="events"):
        Game.from_json(doc)


def test_regression_agenda_attempt_answer_without_contest() -> None:
    game = _play_until(Game.new(players=2, seed=0), 0, lambda g: g.pending.kind is DecisionKind.PLACE_FOLLOWER)
    state, tables, seat = game.position(), game.tables, 0
    faction = next(
        f
        for f in Faction
        if not any(state.players[seat].hand[c] for c in tables.faction_cards[f])
        and state.controller[f] < 0
        and state.chariot != f
        and all(state.spaces[s] < 0 for s in tables.faction_spaces[f])
    )
    doc = game.to_json()
    doc["followers"][f"faction:{faction.key}:1"] = seat
    doc["players"][seat]["followers"] -= 1  # moved from the seat's supply, so the follower count still adds up
    doc["agenda"].insert(0, ["attempt", int(faction), seat, 2])
    assert doc["contest"] == []
    with pytest.raises(InvalidStateError, match="answering space 2 needs its committed set"):
        Game.from_json(doc)


def test_regression_sealed_bids_rewritten_to_a_phase_start() -> None:
    """A chariot auction with a sealed bid, rewritten to ``card_placement`` with ``agenda`` and ``pending`` left out:
    it loaded and played, but its own ``to_json()`` was refused ("bids are sealed only while an auction's reveal is
    still to run"). A phase starts with no auction under way, so the document is refused, naming the bid."""
    game = _play_until(
        Game.new(players=2, seed=0),
        0,
        lambda g: g.pending.kind is DecisionKind.CHARIOT_BID and any(b != -1 for b in g.position().bids),
    )
    seat = next(s for s, b in enumerate(game.position().bids) if b != -1)
    for phase in ("card_placement", "follower_placement", "chariot_auction"):
        doc = game.to_json()
        doc["phase"] = phase
        del doc["agenda"], doc["pending"]
        with pytest.raises(InvalidStateError, match=rf"bids\[{seat}\]: a bid is sealed in an auction under way"):
            Game.from_json(doc)
    doc = game.to_json()
    assert Game.from_json(doc).to_json() == doc  # with its agenda, the auction under way reads back


def test_regression_brutii_option_rewritten_to_its_phase_start() -> None:
    """A Brutii document after his "Cards" option was chosen (R46), rewritten to the start of that phase without
    ``agenda``: it loaded and asked for the option again, and its own ``to_json()`` was refused ("the option is
    chosen once"). The document is refused, naming the option."""
    game = _play_until(
        Game.new(players=5, seed=5, brutii=True, round_limit=8),
        5,
        lambda g: g.phase is Phase.REGION_EVALUATION and g.position().brutii_options[0] >= 0,
    )
    doc = game.to_json()
    del doc["agenda"], doc["pending"]
    with pytest.raises(InvalidStateError, match=r"brutii\.options\.cards: chosen at the start of phase region_eval"):
        Game.from_json(doc)
    doc["brutii"]["options"]["cards"] = None  # still to choose: the phase starts by asking for it
    assert Game.from_json(Game.from_json(doc).to_json()).pending == Game.from_json(doc).pending
