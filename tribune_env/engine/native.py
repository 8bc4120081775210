"""The native core (C++, ``tribune_env._core``): which engine runs, and how states cross between the two.

The Python engine is the specification; the native core mirrors it field for field (native/src/core.hpp) and is
proved identical by lockstep tests (tests/native). Every door into a game (``Game.new``, ``Game.from_json``,
``Game.from_state``, the environments) takes an ``engine`` argument, resolved here by :func:`resolve_engine`:

* ``"python"``: the Python engine;
* ``"native"``: the native core; :class:`NativeUnavailableError` when it is not built;
* ``None`` (the default) or ``"auto"``: what ``TRIBUNE_ENGINE`` says, read when the game is made: unset or ``auto``
  is the native core where it is built, else the Python engine; ``python`` and ``native`` as above.

Library code raises (``ValueError`` for a name that is no engine, :class:`NativeUnavailableError`); only the
command line turns that into an exit status (``tribune_cli.main.check_engine``).

States cross as plain values (the fields of :class:`GameState` by name): :func:`fields_of` and :func:`state_of`.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    Assassinate,
    Bid,
    ChooseActionCard,
    ChooseFaction,
    ChooseOfficial,
    ChooseOption,
    ChooseRegion,
    ChooseTile,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
    bid,
    choose_action_card,
    choose_faction,
    choose_official,
    choose_option,
    choose_region,
    choose_tile,
    pick_card,
    place_follower,
)
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.state import Event, GameState, PlayerState

ENGINE_ENV = "TRIBUNE_ENGINE"
ENGINES = ("auto", "python", "native")

if TYPE_CHECKING:  # typed by its stub, tribune_env/_core.pyi: mypy checks every call across the seam
    import tribune_env._core as _core
    from tribune_env._core import Core, Rules

    core_module = _core

    BUILD_ERROR = ""
else:  # tribune_env._core, or None where it is not built
    try:  # the compiled core is optional: an install without a C++ compiler runs the Python engine
        core_module = importlib.import_module("tribune_env._core")
        BUILD_ERROR = ""
    except ImportError as err:  # not built, or built for another Python
        core_module = None
        BUILD_ERROR = str(err)


def built() -> bool:
    """Whether the native core is built and importable."""
    return core_module is not None


class NativeUnavailableError(RuntimeError):
    """The native core was asked for (``engine="native"`` or ``TRIBUNE_ENGINE=native``) but is not built."""


def engine_choice() -> str:
    """``TRIBUNE_ENGINE`` read now: ``auto``, ``python`` or ``native`` (ValueError names a bad value)."""
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "auto"
    if value not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}: expected one of {', '.join(ENGINES)}, got {value!r}")
    return value


def check_engine(engine: str | None) -> str | None:
    """``engine`` as given to a door that resolves it later: ``None`` (the environment's default, read then),
    ``"python"`` or ``"native"`` (``"auto"`` reads as ``None``).

    Raises:
        ValueError: anything else, naming ``engine``.
        NativeUnavailableError: ``"native"`` where the core is not built (checked now, not at the first game).
    """
    if engine is None or engine == "auto":
        return None
    if engine not in ("python", "native"):
        raise ValueError(f"engine: expected one of 'python', 'native' or None (TRIBUNE_ENGINE), got {engine!r}")
    if engine == "native":
        require_native("engine='native'")
    return engine


def resolve_engine(engine: str | None = None) -> str:
    """The engine a new game runs on: ``"python"`` or ``"native"``, from ``engine`` (:func:`check_engine`) or, for
    ``None``, from ``TRIBUNE_ENGINE`` now.

    Raises:
        ValueError: a bad ``engine`` or ``TRIBUNE_ENGINE``, named.
        NativeUnavailableError: the native core asked for (either way) but not built.
    """
    chosen = check_engine(engine)
    if chosen is not None:
        return chosen
    choice = engine_choice()
    if choice == "python":
        return "python"
    if choice == "native":
        require_native()
    return "native" if built() else "python"


def use_native(engine: str | None = None) -> bool:
    """Whether a new game runs on the native core (:func:`resolve_engine`)."""
    return resolve_engine(engine) == "native"


def require_native(asked: str = f"{ENGINE_ENV}=native") -> None:
    """Return when the native core is built, else raise :class:`NativeUnavailableError` with one line that says who
    ``asked`` for it, why it is missing and what to do."""
    if not built():
        raise NativeUnavailableError(
            f"{asked}, but the native core is not built ({BUILD_ERROR or 'no module'}); "
            "reinstall with a C++ compiler (pip install -e .) or choose the Python engine"
        )


def engine_name(engine: str | None = None) -> str:
    """The engine new games run on now: ``"native"`` or ``"python"`` (:func:`resolve_engine`)."""
    return resolve_engine(engine)


@cache
def rules_for(config: GameConfig) -> Rules:
    """The native core's rules of ``config`` (its options, component numbers and tables), made once per config."""
    assert core_module is not None
    return core_module.make_rules(config, config.tables)


# --- actions: (type, a, b) in the order of native/src/core.hpp ActionType -----------------------------------------

ACTION_TYPES: tuple[type, ...] = (
    PlaceFollower,
    PickCard,
    Commit,
    Decline,
    Bid,
    ChooseOption,
    ChooseFaction,
    Assassinate,
    ChooseTile,
    ChooseOfficial,
    ChooseActionCard,
    ChooseRegion,
)
_TYPE_ID = {cls: i for i, cls in enumerate(ACTION_TYPES)}


def action_tuple(action: Action) -> tuple[int, int, int]:
    """The native form of a typed action (KeyError for anything else than an engine action)."""
    kind = _TYPE_ID[type(action)]
    if isinstance(action, Assassinate):
        return kind, action.seat, action.faction
    fields = action.__dataclass_fields__
    if not fields:
        return kind, 0, 0
    (name,) = fields
    return kind, getattr(action, name), 0


_MAKERS = (
    lambda a, b: place_follower(a),
    lambda a, b: pick_card(a),
    lambda a, b: COMMIT,
    lambda a, b: DECLINE,
    lambda a, b: bid(a),
    lambda a, b: choose_option(a),
    lambda a, b: choose_faction(a),
    lambda a, b: Assassinate(a, b),
    lambda a, b: choose_tile(a),
    lambda a, b: choose_official(a),
    lambda a, b: choose_action_card(a),
    lambda a, b: choose_region(a),
)


_TYPED: dict[tuple[int, int, int], Action] = {}  # every native action met so far, typed (actions are immutable)


def action_of(native: tuple[int, int, int]) -> Action:
    """The typed action of a native ``(type, a, b)`` (shared instances where the engine shares them)."""
    action = _TYPED.get(native)
    if action is None:
        if len(_TYPED) > 100_000:  # bounded: bids are the only open-ended actions
            _TYPED.clear()
        kind, a, b = native
        action = _TYPED[native] = _MAKERS[kind](a, b)
    return action


def pending_of(native: tuple[int, int, int, int] | None) -> Pending | None:
    """The :class:`Pending` of a native ``(kind, seat, faction, index)``, shared (it is frozen): read at every
    ``Game.pending`` of a native game."""
    if native is None:
        return None
    pending = _PENDINGS.get(native)
    if pending is None:
        if len(_PENDINGS) > 100_000:  # bounded, as _TYPED
            _PENDINGS.clear()
        kind, seat, faction, index = native
        pending = _PENDINGS[native] = Pending(DecisionKind(kind), seat, faction, index)
    return pending


_PENDINGS: dict[tuple[int, int, int, int], Pending] = {}


# --- states as plain values ------------------------------------------------------------

_PLAYER_FIELDS = (
    "money",
    "laurels",
    "legions",
    "markers",
    "tile",
    "eternal_favor",
    "temporary_favor",
    "hand",
    "followers",
    "pantheon_seen",
    "patrons",
    "emperor_tiles",
)
_COPIED = (
    "victory_card", "round", "start_seat", "turn_seat", "controller", "first_laurel", "atrium_up", "spaces",
    "coin_bowl", "colosseum", "chariot", "proconsul", "draw", "discard", "staged", "contest", "bids", "sacrificed",
    "chance", "clock", "fulfilled_since", "truncated", "officials", "officials_chosen", "emperor_pile", "emperor_up",
    "matrona_tiles", "augur_cards", "placed_this_turn", "benefit_blocked", "brutii", "brutii_turns",
    "brutii_revealed", "brutii_played", "veto",
)  # fmt: skip


def fields_of(state: GameState, events: bool = True) -> dict[str, Any]:
    """The fields of ``state`` as plain values, as the native core reads and writes them."""
    out: dict[str, Any] = {name: _plain(getattr(state, name)) for name in _COPIED}
    out["phase"] = int(state.phase)
    out["players"] = [{name: _plain(getattr(p, name)) for name in _PLAYER_FIELDS} for p in state.players]
    out["sets"] = [list(s) for s in state.sets]
    out["fields"] = [[list(f) for f in region] for region in state.fields]
    out["pairs"] = [tuple(p) for p in state.pairs]
    pending = state.pending
    out["pending"] = None if pending is None else (int(pending.kind), pending.seat, pending.faction, pending.index)
    out["agenda"] = [tuple(t) for t in state.agenda]
    out["winners"] = tuple(state.winners)
    out["brutii_options"] = tuple(state.brutii_options)
    if events:
        out["events"] = [tuple(e) for e in state.events]
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def state_of(core: Core, config: GameConfig, events: list[Event] | None = None) -> GameState:
    """A Python :class:`GameState` equal to the native game ``core`` (its log included: ``events``, the core's log
    already converted, is copied when given).

    Every slot is written from the core's values, so the state is made without ``GameState.__init__`` (which would
    build a new game's fields only to have them replaced: half the cost; search and the greedy agent read a native
    position this way after every trial move). tests/native/test_seam_lists.py checks that every slot is set."""
    fields = core.fields()
    tables = config.tables
    state = GameState.__new__(GameState)
    state.config = config
    state.tables = tables
    for name in _COPIED:
        setattr(state, name, fields[name])
    state.phase = _PHASES[fields["phase"]]
    players = []
    new_player = PlayerState.__new__
    for values in fields["players"]:
        player = new_player(PlayerState)
        for name in _PLAYER_FIELDS:
            setattr(player, name, values[name])
        players.append(player)
    state.players = players
    state.sets = fields["sets"]
    state.fields = fields["fields"]
    state.pairs = fields["pairs"]
    state.pending = pending_of(fields["pending"])
    state.legal_cache = None
    state.agenda = fields["agenda"]
    state.touched = 0
    state.winners = fields["winners"]
    state.brutii_options = list(fields["brutii_options"])
    state.events = list(events) if events is not None else events_of(core)
    return state


_PHASES = sorted(Phase, key=int)


def events_of(core: Core, start: int = 0) -> list[Event]:
    """The log of a native game from event ``start`` on, as :class:`Event` records."""
    return [Event(*e) for e in core.events(start)]


def core_of(state: GameState, checked: bool = False) -> Core:
    """A native game equal to ``state`` (its log included). ``state`` is checked first
    (:func:`~tribune_env.engine.serialize.check_state`: InvalidStateError names a bad field) unless the caller
    says it already is (``checked``: a state just read from a document, or just checked)."""
    assert core_module is not None
    if not checked:
        from tribune_env.engine.serialize import check_state

        check_state(state)
    return core_module.Core.from_fields(rules_for(state.config), state.config, fields_of(state), check=False)


def check_fields(config: GameConfig, fields: object) -> None:
    """Check plain values (as :func:`fields_of` writes them) before the native core copies them: the door of
    ``Core.from_fields``, which calls it. The values are read into a :class:`GameState` without trusting them, and
    that state is checked as ``Game.from_state`` checks one (InvalidStateError names the first bad field)."""
    from tribune_env.engine.errors import InvalidStateError
    from tribune_env.engine.serialize import check_state

    if not isinstance(config, GameConfig):
        raise TypeError(f"config: expected a GameConfig, got {type(config).__name__}")
    if not isinstance(fields, dict):
        raise InvalidStateError(f"fields: expected a dict, got {type(fields).__name__}")
    check_state(_state_of_fields(config, fields))


def _state_of_fields(config: GameConfig, fields: dict[str, Any]) -> GameState:
    """A :class:`GameState` holding the plain values ``fields`` as they are (lists copied, nothing checked but what
    conversion needs: the phase, the pending decision, the players' records, the agenda's tasks)."""
    from tribune_env.engine.errors import InvalidStateError

    def get(name: str) -> Any:
        if name not in fields:
            raise InvalidStateError(f"{name}: missing")
        value = fields[name]
        return list(value) if isinstance(value, list) else value

    state = GameState(config)
    for name in _COPIED:
        setattr(state, name, get(name))
    try:
        state.phase = Phase(get("phase"))
    except (ValueError, TypeError):
        raise InvalidStateError(f"phase: unknown phase {fields.get('phase')!r:.40}") from None
    players = get("players")
    if not isinstance(players, list):
        raise InvalidStateError(f"players: expected a list, got {type(players).__name__}")
    n_cards, n_factions = state.tables.num_card_types, len(state.tables.faction_cards)
    state.players = []
    for seat, values in enumerate(players):
        if not isinstance(values, dict) or set(values) != set(_PLAYER_FIELDS):
            raise InvalidStateError(f"players[{seat}]: expected a dict of {list(_PLAYER_FIELDS)}")
        player = PlayerState(n_cards, n_factions)
        for name in _PLAYER_FIELDS:
            value = values[name]
            setattr(player, name, list(value) if isinstance(value, list) else value)
        state.players.append(player)
    for name in ("sets", "fields", "pairs", "agenda", "brutii_options"):
        setattr(state, name, get(name))
    state.winners = get("winners")
    state.pending = _pending_of_fields(get("pending"))
    if isinstance(state.agenda, list):  # tasks as tuples, unchecked (check_shape reads them)
        state.agenda = [cast(Any, tuple(t)) if isinstance(t, (list, tuple)) else t for t in state.agenda]
    events = fields.get("events", [])
    if not isinstance(events, list):
        raise InvalidStateError(f"events: expected a list, got {type(events).__name__}")
    state.events = [Event(*e) if isinstance(e, (list, tuple)) and len(e) == 5 else e for e in events]
    return state


def _pending_of_fields(value: Any) -> Pending | None:
    from tribune_env.engine.errors import InvalidStateError

    if value is None:
        return None
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise InvalidStateError(f"pending: expected None or (kind, seat, faction, index), got {value!r:.60}")
    kind, seat, faction, index = value
    try:
        return Pending(DecisionKind(kind), seat, faction, index)
    except (ValueError, TypeError):
        raise InvalidStateError(f"pending.kind: unknown decision kind {kind!r:.40}") from None


SEED_MASK = (1 << 63) - 1


def new_core(config: GameConfig, seed: int) -> Core:
    """A new native game of ``config``, set up and advanced to its first decision (as ``Game.new``)."""
    assert core_module is not None
    return core_module.Core.new(rules_for(config), config, seed & SEED_MASK)
