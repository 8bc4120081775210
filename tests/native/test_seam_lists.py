"""The two engines name the same things (issue 41 item 3): the state's fields, the agenda steps and the enums, as
the native core exports them (``Core.fields()``, ``_core.STEP_NAMES``, ``_core.ENUMS``), against the Python
engine's declarations (``state.FIELDS``, ``registry.STEPS``, the enums of ``tribune_env.data`` and ``decisions``)
and the lists ``native.py`` copies by (``_COPIED``, ``_PLAYER_FIELDS``, ``ACTION_TYPES``). A field, step or
member added, dropped or renamed on one side only fails here, naming it."""

from __future__ import annotations

from enum import IntEnum

import pytest

from tribune_env.data import Faction, Region
from tribune_env.data.expansion import BrutiiCard, BrutiiDisc, Nationality, Official, Requirement
from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Phase
from tribune_env.engine.game import Game
from tribune_env.engine.registry import STEPS
from tribune_env.engine.state import FIELDS, PlayerState

pytestmark = pytest.mark.skipif(not native.built(), reason="the native core is not built")

NOT_CROSSING = {
    "config": "the core's Rules and Core.config carry it",
    "tables": "derived from the config",
    "legal_cache": "a cache, rebuilt on each side",
    "touched": "zero between steps",
    "events": "crosses on its own (Core.events, fields_of(events=True))",
}
"""Fields of :class:`GameState` that ``Core.fields()`` does not write, and why."""

PYTHON_ENUMS: dict[str, type[IntEnum]] = {
    "Faction": Faction,
    "Region": Region,
    "Nationality": Nationality,
    "Official": Official,
    "BrutiiCard": BrutiiCard,
    "BrutiiDisc": BrutiiDisc,
    "Requirement": Requirement,
    "Phase": Phase,
    "DecisionKind": DecisionKind,
}


def _difference(python: set[str], core: set[str]) -> str:
    return f"only in Python: {sorted(python - core)}; only in the core: {sorted(core - python)}"


def _core_fields() -> dict[str, object]:
    game = Game.new(GameConfig(players=5, brutii=True), seed=1, engine="native")
    fields: dict[str, object] = game.native_core.fields()
    return fields


def test_the_core_writes_every_field_the_python_state_declares() -> None:
    python = {f.name for f in FIELDS} - set(NOT_CROSSING)
    core = set(_core_fields())
    assert python == core, _difference(python, core)
    assert set(NOT_CROSSING) <= {f.name for f in FIELDS}  # no stale reason


def test_native_py_copies_exactly_the_crossing_fields() -> None:
    state = Game.new(GameConfig(players=5, brutii=True), seed=1, engine="python").position()
    written = set(native.fields_of(state, events=False))
    core = set(_core_fields())
    assert written == core, _difference(written, core)
    assert set(native._COPIED) <= core


def test_the_players_records_have_the_same_fields() -> None:
    players = _core_fields()["players"]
    assert isinstance(players, list)
    core = set(players[0])
    python = set(PlayerState.__slots__)
    assert python == core, _difference(python, core)
    assert set(native._PLAYER_FIELDS) == python


def test_the_agenda_steps_are_the_same() -> None:
    core = list(native.core_module.STEP_NAMES)
    assert len(core) == len(set(core)), "a step named twice in native/src/steps.def"
    assert set(STEPS) == set(core), _difference(set(STEPS), set(core))


@pytest.mark.parametrize("name", sorted(PYTHON_ENUMS))
def test_each_enum_has_the_same_members_with_the_same_values(name: str) -> None:
    core = list(native.core_module.ENUMS[name])
    python = [member.name.lower() for member in sorted(PYTHON_ENUMS[name], key=int)]
    assert [int(m) for m in sorted(PYTHON_ENUMS[name], key=int)] == list(range(len(python)))  # values 0..n-1
    assert python == core, f"{name}: Python {python} != core {core}"


def test_the_action_types_are_in_the_same_order() -> None:
    assert [cls.__name__ for cls in native.ACTION_TYPES] == list(native.core_module.ENUMS["ActionType"])


def test_every_enum_the_core_exports_is_compared() -> None:
    assert set(native.core_module.ENUMS) == {*PYTHON_ENUMS, "ActionType"}


def test_a_state_read_from_the_core_has_every_slot_set() -> None:
    for options in ({"players": 2}, {"players": 5, "brutii": True}):
        game = Game.new(GameConfig(**options), seed=3, engine="native")  # type: ignore[arg-type]
        for _ in range(20):
            game.apply(game.legal_actions()[0])
        state = native.state_of(game.native_core, game.config)
        missing = [f.name for f in FIELDS if not hasattr(state, f.name)]
        assert missing == []
        missing_players = [name for p in state.players for name in PlayerState.__slots__ if not hasattr(p, name)]
        assert missing_players == []
        assert Game(state).to_json() == game.to_json()
