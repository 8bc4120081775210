"""The state as a plain JSON document, and back (format described in docs/state-format.md).

:func:`state_to_json` writes everything needed to continue the game exactly.
:func:`state_from_json` also accepts short hand-written positions: most keys
have defaults, ``"draw_pile": "rest"`` puts every card not placed elsewhere
into a shuffled draw pile, and without ``"agenda"`` the game continues from the
start of ``"phase"``. Every document is validated; a problem raises
:class:`InvalidStateError` naming the field.

A game with the Brutii (R42-R54) is an expansion document whose config also
holds ``"brutii": true`` and ``"brutii_seat"`` (null: drawn), with one more key,
``"brutii"``: his seat, phase-2 turns left, revealed discs and played cards (by
key), the options of Cards and Faction Take-Over (1, 2 or null) and the vetoed
region (key or null). His sealed chariot opt-out is ``-2`` in ``"bids"`` (R49).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tribune_env.data import (
    BrutiiCard,
    BrutiiDisc,
    BrutiiSpec,
    Components,
    ExpansionRegion,
    ExpansionSpec,
    Faction,
    Official,
    Region,
    default_components,
)
from tribune_env.data.schema import KeyedEnum
from tribune_env.engine.actions import OPTIONS
from tribune_env.engine.agenda_shape import agenda_problem
from tribune_env.engine.brutii_ops import CARDS_OPTION, OPTION_OF, OPTION_PHASE, TAKEOVER_OPTION
from tribune_env.engine.config import (
    MAX_ROUND_LIMIT,
    GameConfig,
    config_fields,
    config_from_dict,
    document_config,
)
from tribune_env.engine.decisions import BASE_DECISION_KINDS, BASE_PHASES, DecisionKind, Pending, Phase, TakeoverRole
from tribune_env.engine.errors import InvalidStateError
from tribune_env.engine.ops import chance
from tribune_env.engine.registry import DECISIONS, REGIONS, STEPS
from tribune_env.engine.rounds import round_phases, round_tasks
from tribune_env.engine.state import OPTED_OUT, TILE_NAMES, Event, GameState, Task, json_keys
from tribune_env.engine.state_check import MAX_ROUND, check_encodable, check_shape, event_fits, params_of
from tribune_env.engine.tables import SpaceKind, Tables

# Upper bound for money, laurels, legions and bids in a document. No game comes near it; it keeps
# a hand-written document from asking for a bid list of billions of entries.
MAX_AMOUNT = 1_000_000
ROUND_GROWTH = 200  # more than any round adds to the money in play, or to one player's laurels or legions
MAX_INTEGER = 2**63 - 1  # no integer of a document is larger (the chance key is below 2**63)
MAX_CLOCK = 2**62  # the step counter, with room for any game to go on
MAX_DEPTH = 32  # no document nests deeper (lists and objects)

FORMAT = "tribune-state"
VERSION = 1
EXPANSION_VERSION = 2  # an expansion game's document (config.expansion true, the expansion keys)
_TOP_KEYS = {"format", "version", *json_keys(expansion=False)}
_EXPANSION_TOP_KEYS = {"format", "version", *json_keys(expansion=True)}
_BRUTII_TOP_KEYS = {"format", "version", *json_keys(expansion=True, brutii=True)}
_BRUTII_KEYS = {"seat", "turns", "revealed", "played", "options", "veto"}
_OPTION_KEYS = {"cards": CARDS_OPTION, "takeover": TAKEOVER_OPTION}
"""The keys of ``brutii.options`` and their positions in ``GameState.brutii_options`` (R46)."""
_CONFIG_KEYS = frozenset(config_fields()) - {"start_seat"}
"""A document's config holds every option but ``start_seat`` (its top-level ``start_seat`` is the round's)."""
_BRUTII_CONFIG_KEYS = frozenset({"brutii", "brutii_seat"})
_PLAYER_KEYS = {
    "money",
    "laurels",
    "legions",
    "markers",
    "tile",
    "eternal_favor",
    "temporary_favor",
    "hand",
    "sets",
    "followers",
    "pantheon_seen",
}
_EXPANSION_PLAYER_KEYS = frozenset({"patrons", "emperor_tiles"})


# --- writing -----------------------------------------------------------------


def state_to_json(state: GameState, events: bool = True) -> dict[str, Any]:
    """A JSON-ready dict holding the whole state (and, by default, the event log).

    The keys and their order come from the state's declaration (:func:`~tribune_env.engine.state.json_keys`);
    each key is written by its entry of :data:`_WRITERS`.
    """
    expansion = state.config.expansion
    doc: dict[str, Any] = {"format": FORMAT, "version": EXPANSION_VERSION if expansion else VERSION}
    for key in json_keys(expansion, state.config.brutii):
        if key != "events" or events:
            doc[key] = _WRITERS[key](state)
    return doc


def _config_to_json(state: GameState) -> dict[str, Any]:
    return document_config(state.config, state.victory_card or None)


def _brutii_to_json(state: GameState) -> dict[str, Any]:
    """The Brutii's public state (R44-R46, R54): options as the printed option numbers 1 and 2 (null: none)."""
    return {
        "seat": state.brutii,
        "turns": state.brutii_turns,
        "revealed": [BrutiiDisc(d).key for d in state.brutii_revealed],
        "played": [BrutiiCard(c).key for c in state.brutii_played],
        "options": {key: _option_number(state.brutii_options[i]) for key, i in _OPTION_KEYS.items()},
        "veto": Region(state.veto).key if state.veto >= 0 else None,
    }


def _option_number(option: int) -> int | None:
    return option + 1 if option >= 0 else None


def _cards(state: GameState, pile: list[int]) -> list[str]:
    label = state.tables.card_label
    return [label[c] for c in pile]


def _keys(on: list[bool], enum: type[Faction] | type[Official]) -> list[str]:
    return [enum(i).key for i, flag in enumerate(on) if flag]


_WRITERS: dict[str, Callable[[GameState], Any]] = {
    "config": _config_to_json,
    "round": lambda s: s.round,
    "phase": lambda s: s.phase.name.lower(),
    "start_seat": lambda s: s.start_seat,
    "turn_seat": lambda s: s.turn_seat,
    "players": lambda s: [_player_to_json(s, seat) for seat in range(s.num_players)],
    "first_laurels": lambda s: _keys(s.first_laurel, Faction),
    "board": lambda s: {r.key: [_cards(s, f) for f in s.fields[r]] for r in s.tables.regions if not r.expansion},
    "atrium_up": lambda s: s.atrium_up[:],
    "followers": lambda s: {s.tables.spaces[i].label: seat for i, seat in enumerate(s.spaces) if seat >= 0},
    "coin_bowl": lambda s: s.coin_bowl[:],
    "colosseum": lambda s: s.colosseum,
    "chariot": lambda s: Faction(s.chariot).key if s.chariot >= 0 else None,
    "proconsul": lambda s: s.proconsul if s.proconsul >= 0 else None,
    "draw_pile": lambda s: _cards(s, s.draw),
    "discard_pile": lambda s: _cards(s, s.discard),
    "staged": lambda s: _cards(s, s.staged),
    "contest": lambda s: _cards(s, s.contest),
    "pairs": lambda s: [[seat, s.tables.card_label[a], s.tables.card_label[b]] for seat, a, b in s.pairs],
    "bids": lambda s: s.bids[:],
    "sacrificed": lambda s: s.sacrificed[:],
    "pending": lambda s: _pending_to_json(s.pending),
    "agenda": lambda s: [list(task) for task in reversed(s.agenda)],
    "chance": lambda s: s.chance,
    "clock": lambda s: s.clock,
    "fulfilled_since": lambda s: s.fulfilled_since[:],
    "winners": lambda s: list(s.winners),
    "truncated": lambda s: s.truncated,
    "officials": lambda s: {Official(o).key: (h if h >= 0 else None) for o, h in enumerate(s.officials)},
    "officials_chosen": lambda s: _keys(s.officials_chosen, Official),
    "emperor_pile": lambda s: s.emperor_pile[:],
    "emperor_up": lambda s: s.emperor_up if s.emperor_up >= 0 else None,
    "matrona_tiles": lambda s: s.matrona_tiles[:],
    "augur_cards": lambda s: _cards(s, s.augur_cards),
    "placed_this_turn": lambda s: s.placed_this_turn,
    "benefit_blocked": lambda s: _keys(s.benefit_blocked, Faction),
    "brutii": _brutii_to_json,
    "events": lambda s: [list(e) for e in s.events],
}
"""The codec of each document key: how the fields declared under it are written."""


def _player_to_json(state: GameState, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    hand = [c for c, n in enumerate(p.hand) for _ in range(n)]

    def cards(pile: list[int]) -> list[str]:
        return _cards(state, pile)

    out = {
        "money": p.money,
        "laurels": p.laurels,
        "legions": p.legions,
        "markers": [Faction(f).key for f, on in enumerate(p.markers) if on],
        "tile": TILE_NAMES[p.tile],
        "eternal_favor": p.eternal_favor,
        "temporary_favor": p.temporary_favor,
        "hand": cards(hand),
        "sets": {Faction(f).key: cards(state.sets[f]) for f, c in enumerate(state.controller) if c == seat},
        "followers": p.followers,
        "pantheon_seen": p.pantheon_seen,
    }
    if state.config.expansion:
        out["patrons"] = p.patrons
        out["emperor_tiles"] = p.emperor_tiles[:]
    return out


def _pending_to_json(pending: Pending | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    return {
        "kind": pending.kind.key,
        "seat": pending.seat,
        "faction": Faction(pending.faction).key if pending.faction >= 0 else None,
        "index": pending.index,
    }


# --- reading -----------------------------------------------------------------


class _Reader:
    """Typed field access that names the offending path in every error."""

    def __init__(self, tables: Tables) -> None:
        self.t = tables

    @staticmethod
    def fail(path: str, message: str) -> InvalidStateError:
        return InvalidStateError(f"{path}: {message}")

    def integer(self, value: Any, path: str, low: int = 0, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected an integer, got {value!r}")
        if value < low:
            raise self.fail(path, f"must be >= {low}, got {value}")
        if high is not None and value > high:
            raise self.fail(path, f"must be <= {high}, got {value}")
        return value

    def boolean(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {value!r}")
        return value

    def items(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, got {type(value).__name__}")
        return value

    def mapping(self, value: Any, path: str, allowed: set[str] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, got {type(value).__name__}")
        if allowed is not None:
            unknown = sorted(set(value) - allowed)
            if unknown:
                raise self.fail(path, f"unknown key(s) {unknown}; allowed: {sorted(allowed)}")
        return value

    def card(self, value: Any, path: str) -> int:
        if not isinstance(value, str) or value not in self.t.card_by_label:
            raise self.fail(path, f"unknown card {value!r}; write cards as 'faction:value', e.g. 'senators:7'")
        return self.t.card_by_label[value]

    def cards(self, value: Any, path: str) -> list[int]:
        return [self.card(v, f"{path}[{i}]") for i, v in enumerate(self.items(value, path))]

    def faction(self, value: Any, path: str) -> int:
        keys = [f.key for f in Faction]
        if value not in keys:
            raise self.fail(path, f"unknown faction {value!r}; one of {keys}")
        return keys.index(value)

    def tile(self, value: Any, path: str) -> int:
        """A favor of the emperor tile, by its printed id."""
        spec = self.t.components.expansion
        ids = sorted(t.id for t in spec.emperor_tiles) if spec is not None else []
        if isinstance(value, bool) or value not in ids:
            raise self.fail(path, f"unknown favor of the emperor tile {value!r}; the ids are {ids}")
        return int(value)

    def keyed(self, enum: type[KeyedEnum], value: Any, path: str, what: str) -> int:
        """A member of ``enum`` written by its key (e.g. a Brutii action card ``"veto"``)."""
        keys = [m.key for m in enum]
        if value not in keys:
            raise self.fail(path, f"unknown {what} {value!r}; one of {keys}")
        return keys.index(value)

    def official(self, value: Any, path: str) -> int:
        keys = [o.key for o in Official]
        if value not in keys:
            raise self.fail(path, f"unknown official {value!r}; one of {keys}")
        return keys.index(value)

    def seat(self, value: Any, path: str, players: int) -> int:
        return self.integer(value, path, 0, players - 1)

    def optional_seat(self, value: Any, path: str, players: int) -> int:
        return -1 if value is None else self.seat(value, path, players)

    def bools(self, value: Any, path: str, length: int) -> list[bool]:
        items = self.items(value, path)
        if len(items) != length:
            raise self.fail(path, f"expected {length} entries, got {len(items)}")
        return [self.boolean(v, f"{path}[{i}]") for i, v in enumerate(items)]


def state_from_json(doc: object, components: object = None) -> GameState:
    """Rebuild a state from :func:`state_to_json` output or a hand-written position.

    Raises:
        InvalidStateError: the document is malformed or describes an impossible position.
    """
    if isinstance(doc, str):
        doc = _parse(doc)
    if components is not None and not isinstance(components, Components):
        raise TypeError(f"components: expected a Components object (load_components(path)), got {components!r}")
    comps = components or default_components()
    if not isinstance(doc, dict):
        raise InvalidStateError(f"expected a JSON object at the top level, got {type(doc).__name__}")
    _check_shape(doc)
    config = _read_config(doc, comps)
    state = GameState(config)
    r = _Reader(state.tables)
    _read_top(state, doc, r)
    _read_players(state, doc, r)
    _read_board(state, doc, r)
    if state.config.expansion:
        _read_expansion(state, doc, r)
    if state.config.brutii:
        _read_brutii(state, doc, r)
    _read_piles(state, doc, r)
    _check_consistency(state, r, mid_phase="agenda" in doc)
    _check_counts(state, r)
    _read_flow(state, doc, r)
    return state


def check_state(state: GameState) -> None:
    """Check a :class:`GameState` given from outside (``Game.from_state``, the native core's ``Core.from_fields``)
    as a document is checked: its shape (:func:`~tribune_env.engine.state_check.check_shape`: lengths, ranges,
    card kinds, conservation of cards, known steps and decision kinds), then the position's rules, its agenda and
    its pending decision (the checks :func:`state_from_json` runs on a document with an agenda). The state must be
    at a decision or finished (as every game is between two calls of the engine). Reads ``state`` only.

    Raises:
        InvalidStateError: names the first field that does not fit (the same error on both engines).
    """
    check_shape(state)
    r = _Reader(state.tables)
    try:
        _check_position(state, r)
    except InvalidStateError:
        raise
    except (IndexError, KeyError, ValueError, TypeError, AttributeError) as exc:  # a check met what it cannot read
        raise r.fail("state", f"not a position of this game ({exc!r:.200})") from None


def _check_position(state: GameState, r: _Reader) -> None:
    """The checks of a read document with an agenda (:func:`_read_agenda_flow`), without running the agenda."""
    ranges: dict[tuple[str, str], tuple[int, int]] = {}
    for i, task in enumerate(reversed(state.agenda)):  # each argument in its range, as _read_task reads it
        for k, (arg, param) in enumerate(zip(task[1:], params_of(task[0]), strict=True)):
            bounds = ranges.get((task[0], param))
            if bounds is None:
                bounds = ranges[task[0], param] = _arg_range(state, task[0], param)
            if not bounds[0] <= arg <= bounds[1]:
                r.integer(arg, f"agenda[{i}][{k + 1}]", *bounds)
    _check_consistency(state, r, mid_phase=True)
    _check_counts(state, r)
    _check_flags(state, r)
    if state.pending is None and state.phase is not Phase.GAME_OVER:
        raise r.fail("pending", "an unfinished game waits for a decision between two calls of the engine")
    _check_waiting(state, r)


def _parse(text: str) -> Any:
    """JSON text to a value; an integer literal longer than any field allows, or deep nesting, is refused."""

    def integer(literal: str) -> int:
        if len(literal.lstrip("-")) > len(str(MAX_INTEGER)):
            raise InvalidStateError(
                f"not a state document: an integer of {len(literal)} digits (at most {MAX_INTEGER})"
            )
        return int(literal)

    try:
        return json.loads(text, parse_int=integer)
    except json.JSONDecodeError as exc:
        raise InvalidStateError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise InvalidStateError("not a state document: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. a number literal Python cannot convert
        raise InvalidStateError(f"not valid JSON: {exc}") from None


_Link = tuple[Any, Any, bool] | None
"""Where a value sits in a document, built only when an error names it: (the parent's link, key or index, whether
it is a list index)."""


def _path_text(link: _Link) -> str:
    """A link as the dotted path an error names (``players[2].hand``)."""
    parts: list[tuple[Any, bool]] = []
    while link is not None:
        link, key, index = link
        parts.append((key, index))
    text = ""
    for key, index in reversed(parts):
        text = f"{text}[{key}]" if index else f"{text}.{key}" if text else str(key)
    return text


def _check_shape(doc: dict[str, Any]) -> None:
    """No nesting deeper than :data:`MAX_DEPTH` and no integer beyond :data:`MAX_INTEGER`, anywhere (iteratively,
    so no input can exhaust the stack or make an error message unprintable; the path of a value is only spelled
    out for an error, as this runs over every value of every document read)."""
    todo: list[tuple[Any, _Link, int]] = [(doc, None, 0)]
    while todo:
        node, link, depth = todo.pop()
        index = isinstance(node, list)
        for key, value in enumerate(node) if index else node.items():
            if depth + 1 > MAX_DEPTH:
                raise InvalidStateError(f"{_path_text((link, key, index))}: nested deeper than {MAX_DEPTH} levels")
            if isinstance(value, (dict, list)):
                todo.append((value, (link, key, index), depth + 1))
            elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INTEGER:
                raise InvalidStateError(
                    f"{_path_text((link, key, index))}: an integer of {value.bit_length()} bits; at most {MAX_INTEGER}"
                )


def _expansion_of(raw: Any) -> bool:
    """Whether a document's config is an expansion game's: ``"expansion": true``, or ``"brutii": true``, which
    implies it (:class:`GameConfig`)."""
    return isinstance(raw, dict) and (raw.get("expansion") is True or raw.get("brutii") is True)


def _check_top_keys(doc: dict[str, Any], raw: Any) -> None:
    """The top-level keys fit the kind of document: base, expansion, or expansion with the Brutii."""
    expansion = _expansion_of(raw)
    brutii = expansion and raw.get("brutii") is True
    allowed = _BRUTII_TOP_KEYS if brutii else _EXPANSION_TOP_KEYS if expansion else _TOP_KEYS
    unknown = sorted(set(doc) - allowed)
    expansion_only = [k for k in unknown if k in _EXPANSION_TOP_KEYS]
    if expansion_only:
        raise InvalidStateError(f"{expansion_only[0]}: only an expansion document (version 2) has this key")
    if "brutii" in unknown:
        raise InvalidStateError(
            'brutii: only the document of a game with the Brutii (config "brutii": true) has this key'
        )
    if unknown:
        raise InvalidStateError(f"unknown top-level key(s) {unknown}")


def _read_config(doc: dict[str, Any], comps: Components) -> GameConfig:
    """The document's ``config``: the checks that are the document's own, then :func:`config_from_dict`."""
    raw = doc.get("config")
    _check_top_keys(doc, raw)
    _check_version(doc, raw.get("expansion", False) if isinstance(raw, dict) else False, _expansion_of(raw))
    if not isinstance(raw, dict):
        raise InvalidStateError("config: missing (an object with at least 'players')")
    if set(raw) - _CONFIG_KEYS:
        raise InvalidStateError(f"config: unknown key(s) {sorted(set(raw) - _CONFIG_KEYS)}")
    if set(raw) & _BRUTII_CONFIG_KEYS and not _expansion_of(raw):
        key = sorted(set(raw) & _BRUTII_CONFIG_KEYS)[0]
        raise InvalidStateError(
            f'config.{key}: a Brutii key in a base game; the Brutii variant ("brutii": true) is played with the '
            "expansion (R42)"
        )
    if raw.get("players") is None:
        raise InvalidStateError("config.players: required (the number of seats)")
    if "components" in raw and raw["components"] != comps.name:
        raise InvalidStateError(
            f"config.components: the document was written with component set {raw['components']!r}, "
            f"but {comps.name!r} is loaded"
        )
    limit = raw.get("round_limit")
    if isinstance(limit, int) and limit > MAX_ROUND_LIMIT:
        raise InvalidStateError(f"config.round_limit: must be <= {MAX_ROUND_LIMIT}, got {limit}")
    if not raw.get("point_variant", False) and raw.get("victory_card") is None:
        raise InvalidStateError("config.victory_card: required unless point_variant is true")
    try:
        return config_from_dict(raw, comps)
    except (ValueError, TypeError) as exc:
        raise InvalidStateError(f"config: {exc}") from None


def _check_version(doc: dict[str, Any], flag: Any, expansion: bool) -> None:
    """The format and version: 1 for a base game, 2 for an expansion game (``expansion``: ``config.expansion``
    true, or implied by ``config.brutii``); ``flag`` is ``config.expansion`` as written."""
    if not isinstance(flag, bool):
        raise InvalidStateError(f"config.expansion: expected true or false, got {flag!r}")
    version = doc.get("version", EXPANSION_VERSION if expansion else VERSION)
    if doc.get("format", FORMAT) != FORMAT or version not in (VERSION, EXPANSION_VERSION):
        raise InvalidStateError(f"format: expected {FORMAT!r} version {VERSION}")
    if version == EXPANSION_VERSION and not expansion:
        raise InvalidStateError('format: version 2 is the expansion format; it needs "expansion": true in config')
    if version == VERSION and expansion:
        raise InvalidStateError("version: an expansion game (config.expansion true) is written as version 2")


def _read_top(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    n = state.num_players
    state.victory_card = state.config.victory_card or ""
    first = 0 if doc.get("phase") == "setup" else 1  # a round left out: the set-up's, else the first
    state.round = r.integer(doc.get("round", first), "round", 0, state.config.round_limit)
    known = list(Phase) if state.config.expansion else list(BASE_PHASES)
    phases = [p.name.lower() for p in known]
    phase = doc.get("phase", "card_placement")
    if phase not in phases:
        extra = " (an expansion phase: this is a base document)" if phase in [p.name.lower() for p in Phase] else ""
        raise r.fail("phase", f"unknown phase {phase!r}{extra}; one of {phases}")
    state.phase = known[phases.index(phase)]
    if state.phase is Phase.SETUP and state.round != 0:  # round_start after the set-up begins round 1
        raise r.fail("round", f"a game in its set-up is in round 0, not {state.round}")
    state.start_seat = r.seat(doc.get("start_seat", 0), "start_seat", n)
    state.turn_seat = r.seat(doc.get("turn_seat", state.start_seat), "turn_seat", n)
    state.colosseum = r.integer(doc.get("colosseum", 0), "colosseum", 0, MAX_AMOUNT)
    chariot = doc.get("chariot")
    state.chariot = -1 if chariot is None else r.faction(chariot, "chariot")
    state.proconsul = r.optional_seat(doc.get("proconsul"), "proconsul", n)
    state.coin_bowl = [
        r.seat(s, f"coin_bowl[{i}]", n) for i, s in enumerate(r.items(doc.get("coin_bowl", []), "coin_bowl"))
    ]
    state.chance = r.integer(doc.get("chance", 0), "chance", 0, MAX_INTEGER)
    state.clock = r.integer(doc.get("clock", 0), "clock", 0, MAX_CLOCK)
    state.truncated = r.boolean(doc.get("truncated", False), "truncated")
    state.winners = tuple(
        r.seat(s, f"winners[{i}]", n) for i, s in enumerate(r.items(doc.get("winners", []), "winners"))
    )
    if "bids" in doc:
        bids = r.items(doc["bids"], "bids")
        if len(bids) != n:
            raise r.fail("bids", f"expected {n} entries")
        lowest = OPTED_OUT if state.config.brutii else -1  # R49: the Brutii's sealed opt-out
        state.bids = [r.integer(b, f"bids[{i}]", lowest, MAX_AMOUNT) for i, b in enumerate(bids)]
    if "sacrificed" in doc:
        state.sacrificed = r.bools(doc["sacrificed"], "sacrificed", n)
    if "fulfilled_since" in doc:
        since = r.items(doc["fulfilled_since"], "fulfilled_since")
        if len(since) != n:
            raise r.fail("fulfilled_since", f"expected {n} entries")
        state.fulfilled_since = [r.integer(v, f"fulfilled_since[{i}]", -1, state.clock) for i, v in enumerate(since)]
    phases_known = len(known)
    for i, event in enumerate(r.items(doc.get("events", []), "events")):
        # the usual case at once (the log is long); any other event is read below, naming what does not fit
        if type(event) is list and len(event) == 5 and event_fits(event, phases_known, n):
            state.events.append(Event(event[0], event[1], event[2], event[3], event[4]))
            continue
        path = f"events[{i}]"
        if not isinstance(event, list) or len(event) != 5 or not isinstance(event[3], str):
            raise r.fail(path, "each event is [round, phase, seat, text, private_to]")
        check_encodable(event[3], f"{path}[3]")
        state.events.append(
            Event(
                r.integer(event[0], f"{path}[0]", 0, MAX_ROUND),
                r.integer(event[1], f"{path}[1]", 0, len(known) - 1),
                r.integer(event[2], f"{path}[2]", -1, n - 1),
                event[3],
                r.integer(event[4], f"{path}[4]", -1, n - 1),
            )
        )


def _read_players(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    players = r.items(doc.get("players"), "players")
    n = state.num_players
    if len(players) != n:
        raise r.fail("players", f"config says {n} players but {len(players)} are listed")
    temporary = []
    for seat, raw in enumerate(players):
        path = f"players[{seat}]"
        raw = r.mapping(raw, path, _PLAYER_KEYS | _EXPANSION_PLAYER_KEYS)
        _read_player_expansion(state, seat, raw, r, path)
        p = state.players[seat]
        p.money = r.integer(raw.get("money", 0), f"{path}.money", 0, MAX_AMOUNT)
        p.laurels = r.integer(raw.get("laurels", 0), f"{path}.laurels", 0, MAX_AMOUNT)
        p.legions = r.integer(raw.get("legions", 0), f"{path}.legions", 0, MAX_AMOUNT)
        most = max(state.config.components.followers.values()) + 1  # the proconsul is one more (R9)
        p.followers = r.integer(raw.get("followers", 0), f"{path}.followers", 0, most)
        markers = [
            r.faction(m, f"{path}.markers[{i}]")
            for i, m in enumerate(r.items(raw.get("markers", []), f"{path}.markers"))
        ]
        if len(set(markers)) != len(markers):
            raise r.fail(f"{path}.markers", "a player holds at most one marker of each faction")
        for f in markers:
            p.markers[f] = True
        tile = raw.get("tile", "none")
        if tile not in TILE_NAMES:
            raise r.fail(f"{path}.tile", f"expected one of {list(TILE_NAMES)}, got {tile!r}")
        p.tile = TILE_NAMES.index(tile)
        p.eternal_favor = r.boolean(raw.get("eternal_favor", False), f"{path}.eternal_favor")
        p.temporary_favor = r.boolean(raw.get("temporary_favor", False), f"{path}.temporary_favor")
        if p.eternal_favor and p.temporary_favor:
            raise r.fail(f"{path}.temporary_favor", "the eternal favor excludes the temporary favor (R21)")
        if p.temporary_favor:
            temporary.append(seat)
        p.pantheon_seen = r.boolean(raw.get("pantheon_seen", False), f"{path}.pantheon_seen")
        for card in r.cards(raw.get("hand", []), f"{path}.hand"):
            p.hand[card] += 1
        _read_sets(state, seat, r.mapping(raw.get("sets", {}), f"{path}.sets"), r, path)
    if len(temporary) > 1:
        raise r.fail("players", f"the temporary favor is held by players {temporary}; there is only one")
    laurels = doc.get("first_laurels")
    if laurels is None:
        state.first_laurel = [c < 0 for c in state.controller]
    else:
        on = {r.faction(f, f"first_laurels[{i}]") for i, f in enumerate(r.items(laurels, "first_laurels"))}
        state.first_laurel = [f in on for f in range(len(state.first_laurel))]


def _read_player_expansion(state: GameState, seat: int, raw: dict[str, Any], r: _Reader, path: str) -> None:
    """A player's patron tiles and claimed emperor tiles (expansion documents only; R33, R34)."""
    spec = state.config.components.expansion if state.config.expansion else None
    if spec is None:
        extra = sorted(_EXPANSION_PLAYER_KEYS & set(raw))
        if extra:
            raise r.fail(f"{path}.{extra[0]}", "only an expansion document (version 2) has this key")
        return
    p = state.players[seat]
    p.patrons = r.integer(raw.get("patrons", 0), f"{path}.patrons", 0, spec.patrons_per_player)
    tiles = r.items(raw.get("emperor_tiles", []), f"{path}.emperor_tiles")
    p.emperor_tiles = [r.tile(t, f"{path}.emperor_tiles[{i}]") for i, t in enumerate(tiles)]


def _read_sets(state: GameState, seat: int, sets: dict[str, Any], r: _Reader, path: str) -> None:
    min_size = state.config.components.min_set_size
    for key, raw_cards in sets.items():
        f = r.faction(key, f"{path}.sets")
        cards = r.cards(raw_cards, f"{path}.sets.{key}")
        if state.controller[f] >= 0:
            raise r.fail(
                f"{path}.sets.{key}",
                f"the {key} are already controlled by player {state.controller[f]}; "
                "a faction has at most one controller",
            )
        if len(cards) < min_size:
            raise r.fail(f"{path}.sets.{key}", f"a displayed set has at least {min_size} cards, got {len(cards)}")
        wrong = [state.tables.card_label[c] for c in cards if state.tables.card_faction[c] != f]
        if wrong:
            raise r.fail(f"{path}.sets.{key}", f"cards of another faction in the set: {wrong}")
        state.controller[f] = seat
        state.sets[f] = cards


def _read_board(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    board = r.mapping(doc.get("board", {}), "board", {reg.key for reg in state.tables.regions})
    for region in state.tables.regions:
        fields = state.fields[region]
        raw = board.get(region.key, [[] for _ in fields])
        raw = r.items(raw, f"board.{region.key}")
        if len(raw) != len(fields):
            raise r.fail(f"board.{region.key}", f"expected {len(fields)} card fields, got {len(raw)}")
        for i, cards in enumerate(raw):
            fields[i].extend(r.cards(cards, f"board.{region.key}[{i}]"))
    latrine = state.fields[Region.LATRINE][0]
    if len(latrine) > 1:  # its evaluation offers the card on the field, and no rule lays a second one there (R52)
        raise r.fail("board.latrine[0]", f"the Latrine holds one card face down, not {len(latrine)}")
    state.atrium_up = r.bools(
        doc.get("atrium_up", [False] * len(state.fields[Region.ATRIUM])), "atrium_up", len(state.fields[Region.ATRIUM])
    )
    labels = {s.label: s.id for s in state.tables.spaces if s.kind is not SpaceKind.COIN_BOWL}
    for label, seat in r.mapping(doc.get("followers", {}), "followers").items():
        if label not in labels:
            raise r.fail("followers", f"unknown follower space {label!r}; e.g. 'curia:1' or 'faction:senators:2'")
        state.spaces[labels[label]] = r.seat(seat, f"followers.{label}", state.num_players)
    state.staged = r.cards(doc.get("staged", []), "staged")
    state.contest = r.cards(doc.get("contest", []), "contest")
    for i, pair in enumerate(r.items(doc.get("pairs", []), "pairs")):
        if not isinstance(pair, list) or len(pair) != 3:
            raise r.fail(f"pairs[{i}]", "expected [seat, card, card]")
        seat = r.seat(pair[0], f"pairs[{i}][0]", state.num_players)
        state.pairs.append((seat, r.card(pair[1], f"pairs[{i}][1]"), r.card(pair[2], f"pairs[{i}][2]")))


def _expansion_spec(state: GameState) -> ExpansionSpec:
    spec = state.config.components.expansion
    assert spec is not None  # GameConfig(expansion=True) checks it
    return spec


def _read_expansion(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    """The expansion fields of a version-2 document, with their holdings checks (R33-R40)."""
    spec = _expansion_spec(state)
    _read_officials(state, doc, r, spec)
    _read_emperor_tiles(state, doc, r, spec)
    state.augur_cards = r.cards(doc.get("augur_cards", []), "augur_cards")
    if state.augur_cards and state.officials[Official.AUGUR] < 0:
        raise r.fail("augur_cards", "cards drawn by the Augur, but nobody holds the Augur (R39)")
    most = spec.official(Official.PRINCEPS).numbers["placements"]
    state.placed_this_turn = r.integer(doc.get("placed_this_turn", 0), "placed_this_turn", 0, most)
    blocked = [
        r.faction(f, f"benefit_blocked[{i}]")
        for i, f in enumerate(r.items(doc.get("benefit_blocked", []), "benefit_blocked"))
    ]
    named = spec.official(Official.TRIBUNUS_PLEBIS).numbers["factions"]
    if len(set(blocked)) != len(blocked) or len(blocked) > named:
        raise r.fail("benefit_blocked", f"at most {named} different factions are named for the Tribunus Plebis (R38)")
    if blocked and state.officials[Official.TRIBUNUS_PLEBIS] < 0:
        raise r.fail("benefit_blocked", "factions are named, but nobody holds the Tribunus Plebis (R38)")
    for f in blocked:
        state.benefit_blocked[f] = True
    patrons = sum(p.patrons for p in state.players)
    if patrons > spec.patron_supply:
        raise r.fail("players", f"{patrons} patron tiles are held, but the supply has {spec.patron_supply} (R33)")


def _read_officials(state: GameState, doc: dict[str, Any], r: _Reader, spec: ExpansionSpec) -> None:
    """Officials: a holder seat (or null: on the Capitoleum) per official; at most the printed number per player."""
    raw = r.mapping(doc.get("officials", {}), "officials", {o.key for o in Official})
    for o in Official:
        state.officials[o] = r.optional_seat(raw.get(o.key), f"officials.{o.key}", state.num_players)
    limit = spec.region(ExpansionRegion.CAPITOLEUM).numbers["officials_per_player"]
    for seat in range(state.num_players):
        held = [Official(o).key for o, h in enumerate(state.officials) if h == seat]
        if len(held) > limit:
            raise r.fail("officials", f"player {seat} holds {held}; a player holds at most {limit} (R36)")
    chosen = [
        r.official(o, f"officials_chosen[{i}]")
        for i, o in enumerate(r.items(doc.get("officials_chosen", []), "officials_chosen"))
    ]
    if len(set(chosen)) != len(chosen):
        raise r.fail("officials_chosen", "an official is listed twice")
    for c in chosen:
        state.officials_chosen[c] = True


# R36: the Matrona may be returned to the Capitoleum in phase 6; her tiles stay until phase 8 puts them under
# the pile (R35 (4)), so only from the Capitoleum to the preparation may they lie there without a holder.
_MATRONA_RETURNED = (Phase.EXPANSION_EVALUATION, Phase.CHARIOT_AUCTION, Phase.PREPARATION)


def _read_emperor_tiles(state: GameState, doc: dict[str, Any], r: _Reader, spec: ExpansionSpec) -> None:
    """Every favor of the emperor tile in exactly one place: claimed, face up, with the Matrona, or in the pile."""
    where: dict[int, str] = {}

    def place(tile: int, path: str) -> int:
        if tile in where:
            raise r.fail(path, f"emperor tile {tile} is also at {where[tile]}; each tile is in exactly one place (R35)")
        where[tile] = path
        return tile

    for seat, p in enumerate(state.players):
        for i, tile in enumerate(p.emperor_tiles):
            place(tile, f"players[{seat}].emperor_tiles[{i}]")
    up = doc.get("emperor_up")
    if up is not None:
        state.emperor_up = place(r.tile(up, "emperor_up"), "emperor_up")
    matrona = r.items(doc.get("matrona_tiles", []), "matrona_tiles")
    state.matrona_tiles = [
        place(r.tile(t, f"matrona_tiles[{i}]"), f"matrona_tiles[{i}]") for i, t in enumerate(matrona)
    ]
    if state.matrona_tiles and state.officials[Official.MATRONA] < 0 and state.phase not in _MATRONA_RETURNED:
        raise r.fail("matrona_tiles", "tiles lie with the Matrona, but nobody holds the Matrona (R35, R36)")
    pile = doc.get("emperor_pile", "rest")
    if pile == "rest":
        rest = [t.id for t in spec.emperor_tiles if t.id not in where]
        chance(state).shuffle(rest)
        state.emperor_pile = rest
        if "emperor_up" not in doc and rest:
            state.emperor_up = rest.pop()  # like the set-up (E11): the top tile is turned face up
        return
    items = r.items(pile, "emperor_pile")
    state.emperor_pile = [place(r.tile(t, f"emperor_pile[{i}]"), f"emperor_pile[{i}]") for i, t in enumerate(items)]
    missing = sorted(t.id for t in spec.emperor_tiles if t.id not in where)
    if missing:
        raise r.fail(
            "emperor_pile", f'emperor tiles {missing} are in no place; place every tile, or use "emperor_pile": "rest"'
        )


def _brutii_spec(state: GameState) -> BrutiiSpec:
    spec = _expansion_spec(state).brutii
    assert spec is not None  # GameConfig(brutii=True) checks it
    return spec


_BEFORE_HIS_TURNS = (Phase.SETUP, Phase.CARD_PLACEMENT)
"""Phases in which the Brutii has revealed and played nothing: phase 8 took his cards back (E104)."""


def _read_brutii(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    """The Brutii's seat and public state (R43-R46, R49, R54), checked against the component file and the round."""
    raw = r.mapping(doc.get("brutii", {}), "brutii", _BRUTII_KEYS)
    state.brutii = _read_brutii_seat(state, raw, r)
    _read_discs(state, raw, r)
    played = r.items(raw.get("played", []), "brutii.played")
    state.brutii_played = [r.keyed(BrutiiCard, c, f"brutii.played[{i}]", "action card") for i, c in enumerate(played)]
    twice = sorted({BrutiiCard(c).key for c in state.brutii_played if state.brutii_played.count(c) > 1})
    if twice:
        raise r.fail("brutii.played", f"{twice[0]} is played twice; each action card is played once a round (R44)")
    arrows = sum(1 for d in state.brutii_revealed if d != BrutiiDisc.CROSS)
    if len(state.brutii_played) > arrows:
        raise r.fail(
            "brutii.played",
            f"{len(state.brutii_played)} action card(s) played, but only {arrows} arrow disc(s) revealed (R44)",
        )
    _read_options(state, r.mapping(raw.get("options", {}), "brutii.options", set(_OPTION_KEYS)), r)
    veto = raw.get("veto")
    if veto is not None:
        regions = [reg.key for reg in state.tables.regions]
        if veto not in regions:
            raise r.fail("brutii.veto", f"unknown region {veto!r}; one of {regions}")
        state.veto = int(state.tables.regions[regions.index(veto)])
        if BrutiiCard.VETO not in state.brutii_played:
            raise r.fail("brutii.veto", "a region is vetoed only with the action card veto played (R54)")
    for seat, amount in enumerate(state.bids):
        if amount == OPTED_OUT and seat != state.brutii:
            raise r.fail(f"bids[{seat}]", f"only the Brutii opts out of the chariot auction ({OPTED_OUT}, R49)")


def _read_brutii_seat(state: GameState, raw: dict[str, Any], r: _Reader) -> int:
    """``brutii.seat``, defaulting to ``config.brutii_seat`` and agreeing with it (R43)."""
    configured = state.config.brutii_seat
    if "seat" not in raw and configured is None:
        raise r.fail("brutii.seat", "required: the Brutii's seat (here or as config.brutii_seat)")
    seat = r.seat(raw.get("seat", configured), "brutii.seat", state.num_players)
    if configured is not None and seat != configured:
        raise r.fail("brutii.seat", f"seat {seat}, but config.brutii_seat is {configured}")
    return seat


def _read_discs(state: GameState, raw: dict[str, Any], r: _Reader) -> None:
    """His revealed discs and turns left: within the component file's discs and the table's turns (R44, E81)."""
    spec = _brutii_spec(state)
    per_round = state.config.followers
    state.brutii_turns = r.integer(raw.get("turns", 0), "brutii.turns", 0, per_round)
    discs = r.items(raw.get("revealed", []), "brutii.revealed")
    state.brutii_revealed = [r.keyed(BrutiiDisc, d, f"brutii.revealed[{i}]", "disc") for i, d in enumerate(discs)]
    for disc in BrutiiDisc:
        shown = state.brutii_revealed.count(disc)
        if shown > spec.discs[disc]:
            raise r.fail("brutii.revealed", f"{shown} {disc.key} discs revealed; the Brutii has {spec.discs[disc]}")
    if len(state.brutii_revealed) + state.brutii_turns > per_round:
        raise r.fail(
            "brutii.turns",
            f"{state.brutii_turns} turn(s) left after {len(state.brutii_revealed)} disc(s) revealed; the Brutii takes "
            f"{per_round} turns a round at {state.num_players} seats (R44)",
        )
    if state.brutii_turns and state.phase is not Phase.FOLLOWER_PLACEMENT:
        raise r.fail("brutii.turns", "the Brutii has turns left only in phase follower_placement (R44)")
    if state.brutii_revealed and state.phase in _BEFORE_HIS_TURNS:
        raise r.fail(
            "brutii.revealed",
            f"no disc is revealed before phase follower_placement (phase {state.phase.name.lower()}): phase 8 turned "
            "them face down (E104)",
        )



def _read_options(state: GameState, raw: dict[str, Any], r: _Reader) -> None:
    """``brutii.options``: 1 or 2 (the printed options) or null, only for a played card, from its phase on (R46)."""
    order = [p.phase for p in round_phases(state)]
    for card, index in OPTION_OF.items():
        key = next(k for k, i in _OPTION_KEYS.items() if i == index)
        path = f"brutii.options.{key}"
        value = raw.get(key)
        if value is None:
            continue
        state.brutii_options[index] = r.integer(value, path, 1, OPTIONS) - 1
        if card not in state.brutii_played:
            raise r.fail(path, f"an option of {card.key} needs {card.key} played (R46)")
        if state.phase is not Phase.GAME_OVER and (
            state.phase not in order or order.index(state.phase) < order.index(OPTION_PHASE[card])
        ):
            raise r.fail(
                path,
                f"the option of {card.key} is chosen at the start of phase {OPTION_PHASE[card].name.lower()} (R46), "
                f"not before (phase {state.phase.name.lower()})",
            )


def _read_piles(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    state.discard = r.cards(doc.get("discard_pile", []), "discard_pile")
    draw = doc.get("draw_pile", "rest")
    rest = draw == "rest"
    if not rest:
        state.draw = r.cards(draw, "draw_pile")
    counts = state.card_counts()
    t = state.tables
    for card, (have, copies) in enumerate(zip(counts, t.card_copies, strict=True)):
        if have > copies:
            raise r.fail("cards", f"{have} copies of {t.card_label[card]} are placed, but the game has {copies}")
    missing = [c for c, copies in enumerate(t.card_copies) for _ in range(copies - counts[c])]
    if rest:
        chance(state).shuffle(missing)
        state.draw = missing
    elif missing:
        shown = sorted({t.card_label[c] for c in missing})[:8]
        raise r.fail(
            "cards",
            f"{len(missing)} card(s) are in no location (e.g. {shown}); "
            'all cards must be placed, or use "draw_pile": "rest"',
        )


def _check_consistency(state: GameState, r: _Reader, mid_phase: bool) -> None:
    """Board rules that no legal play can break.

    ``mid_phase``: the document carries its agenda, so it may stop inside a
    take-over, where the new controller still stands on the faction's field.
    """
    t = state.tables
    for f, ids in enumerate(t.faction_spaces):
        first, second = (state.spaces[s] for s in ids)
        key = Faction(f).key
        if second >= 0 and (first < 0 or first == second):
            raise r.fail("followers", f"faction:{key}:2 needs another player on faction:{key}:1")
        inside_takeover = mid_phase and state.phase is Phase.TAKEOVERS
        if not inside_takeover and state.controller[f] >= 0 and state.controller[f] in (first, second):
            raise r.fail("followers", f"player {state.controller[f]} controls the {key} and cannot stand on its field")
        if state.chariot == f and (first >= 0 or second >= 0):
            raise r.fail("followers", f"the chariot blocks the {key}: no followers may stand there")
    for region in state.tables.regions:
        problem = REGIONS[region].check(state)
        if problem:
            raise r.fail("followers", problem)
    holder = next((s for s, p in enumerate(state.players) if p.temporary_favor), -1)
    if holder >= 0 and state.controller[Faction.VESTALS] != holder:
        raise r.fail(
            "players", f"player {holder} holds the temporary favor but does not control the Vestal Virgins (R18)"
        )


# The phases of a round after the take-overs: the proconsul may have changed hands in phase 5 (R9), so a player
# may still have one follower more on the coin bowl than the table gives him now.
_AFTER_PROCONSUL = (
    Phase.FACTION_BENEFITS,
    Phase.EXPANSION_EVALUATION,
    Phase.CHARIOT_AUCTION,
    Phase.PREPARATION,
    Phase.GAME_OVER,
)


def _check_counts(state: GameState, r: _Reader) -> None:
    """Followers and amounts against the tables: each player's followers (to place, on the board, on the coin bowl)
    at most the table's count (+1 with the proconsul, R9); followers to place only in phase 2; bids within the
    bidder's money; the amounts with room for the rest of the game."""
    count = state.config.followers
    placed = any(s >= 0 for s in state.spaces) or state.coin_bowl
    if placed and state.phase in (Phase.SETUP, Phase.CARD_PLACEMENT, Phase.GAME_OVER):
        raise r.fail(
            "followers", f"no follower stands on the board or the coin bowl in phase {state.phase.name.lower()}"
        )
    for seat, p in enumerate(state.players):
        if p.followers and state.phase is not Phase.FOLLOWER_PLACEMENT:
            raise r.fail(f"players[{seat}].followers", "followers are to be placed only in phase follower_placement")
        extra = _proconsul_extra(state, seat)
        used = p.followers + state.spaces.count(seat) + state.coin_bowl.count(seat)
        if used > count + extra and seat != state.brutii:  # the Brutii's: with the agenda (_check_brutii_followers)
            raise r.fail(
                f"players[{seat}].followers",
                f"{used} followers to place, on the board and on the coin bowl; the table gives {count + extra}",
            )
        if state.bids[seat] > p.money:
            raise r.fail(f"bids[{seat}]", f"a bid of {state.bids[seat]} with {p.money} denarii")
    _check_room(state, r)


def _proconsul_extra(state: GameState, seat: int) -> int:
    """The follower the proconsul adds for ``seat`` (R9): his while he holds it, and anybody's after phase 4, when it
    may have changed hands with a follower still on the board."""
    return int(state.proconsul == seat or (state.proconsul >= 0 and state.phase in _AFTER_PROCONSUL))


def _check_room(state: GameState, r: _Reader) -> None:
    """Every amount stays readable to the end of the game: the rounds left can add at most :data:`ROUND_GROWTH` per
    round to the money in play (the players' and the Colosseum's: money only moves between them) and to each
    player's laurels and legions."""
    room = MAX_AMOUNT - ROUND_GROWTH * (state.config.round_limit - state.round + 1)
    amounts = {"colosseum": state.colosseum + sum(p.money for p in state.players)}  # the money in play
    for seat, p in enumerate(state.players):
        amounts[f"players[{seat}].laurels"] = p.laurels
        amounts[f"players[{seat}].legions"] = p.legions
    for path, amount in amounts.items():
        if amount > room:
            raise r.fail(path, f"{amount} leaves no room for the rounds left (at most {room} with this round_limit)")


def _check_flags(state: GameState, r: _Reader) -> None:
    """Winners and truncation belong to a finished game, and a finished game has winners."""
    over = state.phase is Phase.GAME_OVER
    if state.truncated and not over:
        raise r.fail("truncated", "only a finished game (phase game_over) is truncated")
    if bool(state.winners) != over:
        raise r.fail("winners", "a finished game (phase game_over) has winners, and only a finished game")
    if len(set(state.winners)) != len(state.winners):
        raise r.fail("winners", "a player is listed twice")


def _stand_space(state: GameState) -> int:
    """The faction space on which the Brutii "stands" for the take-over under way (R48: option 1 on "1", option 2
    on "2"; :func:`~tribune_env.engine.takeovers.takeover` puts him there), or -1."""
    choice = state.brutii_options[TAKEOVER_OPTION]
    if state.phase is not Phase.TAKEOVERS or choice < 0 or BrutiiCard.FACTION_TAKEOVER not in state.brutii_played:
        return -1
    for faction, ids in enumerate(state.tables.faction_spaces):
        under_way = ("end_takeover", faction) in state.agenda and ("takeover", faction) not in state.agenda
        if under_way and state.spaces[ids[choice]] == state.brutii:
            return ids[choice]
    return -1


def _check_brutii_followers(state: GameState, r: _Reader) -> None:
    """The Brutii has no followers (R43): he places only the proconsul he holds, in phase 2 (R44); on the board he
    stands only where the proconsul went, and in phase 4 on the field of the take-over under way (R48)."""
    seat = state.brutii
    player = state.players[seat]
    holds = state.proconsul == seat
    if player.followers > int(holds and state.phase is Phase.FOLLOWER_PLACEMENT):
        raise r.fail(
            f"players[{seat}].followers",
            f"{player.followers}: the Brutii has no followers; he places only the proconsul he holds, in phase 2 "
            "(R43, R44)",
        )
    stand = _stand_space(state)
    spaces = [s for s, who in enumerate(state.spaces) if who == seat and s != stand]
    used = player.followers + len(spaces) + state.coin_bowl.count(seat)
    extra = _proconsul_extra(state, seat)
    if used > extra:
        where = [state.tables.spaces[s].label for s in spaces] + ["coin bowl"] * state.coin_bowl.count(seat)
        proconsul = "the proconsul" if extra else "no proconsul"
        stands = " or on the field of the take-over under way, with Faction Take-Over (R48)"
        raise r.fail(
            "followers",
            f"the Brutii (player {seat}) has no followers (R43) but stands on {where} with {proconsul} to place there"
            + (stands if state.phase is Phase.TAKEOVERS else ""),
        )


def _check_sent_home(state: GameState, r: _Reader) -> None:
    """Every follower on the board stands where a step still to run sends it home: its region's evaluation or
    clean-up, its faction's take-over or the end of it."""
    for space, seat in enumerate(state.spaces):
        spec = state.tables.spaces[space]
        if seat < 0 or spec.kind is SpaceKind.COIN_BOWL:
            continue
        if spec.region is not None:
            home = {("evaluate", int(spec.region)), ("end_region", int(spec.region))}
        else:
            assert spec.faction is not None  # a faction space
            home = {("takeover", int(spec.faction)), ("end_takeover", int(spec.faction))}
        if not home.intersection(state.agenda):
            raise r.fail("followers", f"a follower stands on {spec.label}, but no step still to run clears it")


def _check_in_flight(state: GameState, r: _Reader) -> None:
    """Cards in flight have the step or decision that takes them on: a contested set its answer or penalty,
    sealed pairs their reveal, the Augur's drawn cards his keep or discard (R39); bids their auction."""
    pending = state.pending
    if state.contest:
        answer = ("attempt", TakeoverRole.FIRST_OVER_SECOND)
        users = [t for t in state.agenda if t[0] == "takeover_penalty" or (t[0], t[-1]) == answer]
        if pending is not None and (
            pending.kind is DecisionKind.TAKEOVER_PENALTY
            or (pending.kind is DecisionKind.TAKEOVER_SET and pending.index == TakeoverRole.FIRST_OVER_SECOND)
        ):
            users.append(("pending",))
        if len(users) != 1:
            raise r.fail("contest", "a contested set needs exactly one answer or penalty still to come (R15)")
    placing = ("place_next",) in state.agenda or ("brutii_pass",) in state.agenda  # the Brutii's turn ends in it
    placing |= pending is not None and pending.kind is DecisionKind.PLACE_FOLLOWER
    if any(p.followers for p in state.players) and not placing:
        raise r.fail("players", "followers to place need the follower placement still to run (place_next)")
    if state.pairs and ("mars_reveal",) not in state.agenda:
        raise r.fail("pairs", "sealed pairs need the Field of Mars reveal still to run")
    keeping = any(t[0] == "augur_keep" for t in state.agenda)
    keeping |= pending is not None and pending.kind is DecisionKind.AUGUR_DISCARD
    if state.augur_cards and not keeping:
        raise r.fail("augur_cards", "cards drawn by the Augur need his keep or discard still to come (R39)")
    auction = ("atrium_resolve",) in state.agenda or ("chariot_resolve",) in state.agenda
    if any(b != -1 for b in state.bids) and not auction:
        raise r.fail("bids", "bids are sealed only while an auction's reveal is still to run")
    if OPTED_OUT in state.bids and ("chariot_resolve",) not in state.agenda:
        raise r.fail(f"bids[{state.brutii}]", "the Brutii opts out only of the chariot auction (R49)")


def _read_flow(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    from tribune_env.engine.scoring import track_fulfilment

    if "fulfilled_since" not in doc:
        track_fulfilment(state)
    if "agenda" in doc:
        _read_agenda_flow(state, doc, r)
    else:
        _start_phase_flow(state, doc, r)


def _read_agenda_flow(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    """A document with its agenda: checked against the position, then run up to its first decision."""
    from tribune_env.engine.flow import advance

    agenda = [_read_task(state, task, f"agenda[{i}]", r) for i, task in enumerate(r.items(doc["agenda"], "agenda"))]
    state.agenda = list(reversed(agenda))
    _check_flags(state, r)
    state.pending = _read_pending(state, doc.get("pending"), r)
    if state.pending is None and not state.agenda and state.phase is not Phase.GAME_OVER:
        raise r.fail("agenda", "empty, with no pending decision, in an unfinished game")
    _check_waiting(state, r)
    if state.pending is None:  # nothing staged either (checked): run the given agenda up to its first decision
        try:
            advance(state)
        except (RuntimeError, IndexError, KeyError, ValueError) as exc:
            raise r.fail("agenda", f"its steps cannot run in this position ({exc})") from None


def _check_waiting(state: GameState, r: _Reader) -> None:
    """The agenda, the followers sent home or in flight, the Brutii's followers, and the pending decision with its
    staged cards (no cards staged or contested without one)."""
    _check_agenda(state, r)
    _check_sent_home(state, r)
    _check_in_flight(state, r)
    if state.config.brutii:
        _check_brutii_followers(state, r)
    if state.pending is not None:
        _check_pending(state, state.pending, r)
    elif state.staged or state.contest:
        raise r.fail("staged", "cards are staged or contested, but no decision is pending")


def _start_phase_flow(state: GameState, doc: dict[str, Any], r: _Reader) -> None:
    """A document without an agenda continues from the start of its phase: nothing may be in mid-decision."""
    from tribune_env.engine.flow import advance

    if doc.get("pending") is not None:
        raise r.fail("pending", "a pending decision needs the agenda that follows it ('agenda')")
    held_apart = (("staged", state.staged), ("contest", state.contest), ("pairs", state.pairs))
    for key, held in (*held_apart, ("augur_cards", state.augur_cards)):
        if held:
            raise r.fail(key, "cards in the middle of a decision need the agenda that follows it ('agenda')")
    _check_nothing_under_way(state, r)
    _check_turn_placements(state, r)
    state.agenda = list(reversed(_phase_agenda(state, r)))
    _check_flags(state, r)
    _check_sent_home(state, r)
    if state.config.brutii:
        _check_brutii_followers(state, r)
    advance(state)


def _check_nothing_under_way(state: GameState, r: _Reader) -> None:
    """A phase starts with nothing of it under way: no sealed bid (or the Brutii's opt-out, R49), which needs the
    agenda whose reveal takes it on, and no Brutii option of this phase chosen yet (R46: its start asks for it).
    Accepted, either would outlive the phase start and make the game's own documents unreadable."""
    sealed = next((seat for seat, bid in enumerate(state.bids) if bid != -1), None)
    if sealed is not None:
        what = "the Brutii's opt-out (R49)" if state.bids[sealed] == OPTED_OUT else "a bid"
        raise r.fail(
            f"bids[{sealed}]",
            f"{what} is sealed in an auction under way: it needs the agenda that follows it ('agenda')",
        )
    for key, index in _OPTION_KEYS.items():
        card = next(c for c, i in OPTION_OF.items() if i == index)
        if state.brutii_options[index] >= 0 and OPTION_PHASE[card] is state.phase:
            raise r.fail(
                f"brutii.options.{key}",
                f"chosen at the start of phase {state.phase.name.lower()} (R46): a document starting that phase has "
                "it still to choose (null), or needs the agenda that follows the choice ('agenda')",
            )


def _check_turn_placements(state: GameState, r: _Reader) -> None:
    """A follower already placed in this turn (``placed_this_turn``) is the Princeps holder's, in his turn of phase 2
    (R37): the placement the flow resumes with asks nobody else for a second one. Accepted, it made the next
    placement's position unreadable."""
    princeps = state.officials[Official.PRINCEPS] if state.officials else -1
    if state.placed_this_turn and (state.phase is not Phase.FOLLOWER_PLACEMENT or state.turn_seat != princeps):
        raise r.fail(
            "placed_this_turn",
            "only the Princeps holder places more than one follower per turn, in his turn of follower_placement (R37)",
        )


_ROUND_ENDS = ("round_end", "round_start")


def _check_agenda(state: GameState, r: _Reader) -> None:
    """An unfinished game's agenda runs to the end of a round; context-bound steps fit the position."""
    if state.phase is Phase.GAME_OVER:
        if state.agenda or state.pending is not None:
            raise r.fail("agenda", "a finished game has no agenda and no pending decision")
        return
    if not state.agenda or state.agenda[0][0] not in _ROUND_ENDS:
        raise r.fail("agenda", f"the last step of an unfinished game's agenda is one of {list(_ROUND_ENDS)}")
    for i, task in enumerate(reversed(state.agenda)):
        problem = _step_problem(state, task)
        if problem:
            raise r.fail(f"agenda[{i}]", f"{list(task)}: {problem}")
    if state.phase is not Phase.SETUP:
        _check_skeleton(state, r)
    shape = agenda_problem(state)
    if shape:
        raise r.fail("agenda", f"no game reaches this agenda: {shape}")


def _check_skeleton(state: GameState, r: _Reader) -> None:
    """The steps that open the phases of a round (:mod:`.rounds`) are those of the rest of the round, in order,
    none missing in between, none repeated, none of an earlier phase; those missing at the front are of the current
    phase (each of them sets the phase when it runs: one of a later phase has not run while the phase is this one)."""
    skeleton = set(round_tasks(state))
    rest = [t for t in round_tasks(state, resume_from=state.phase) if t in skeleton]
    given = [t for t in reversed(state.agenda) if t in skeleton]
    phase = state.phase.name.lower()
    if not given or given != rest[len(rest) - len(given) :]:
        raise r.fail(
            "agenda",
            f"the phase steps {[list(t) for t in given]} are not the rest of the round from phase "
            f"{phase} ({[list(t) for t in rest]}, from some point on)",
        )
    own = {t for p in round_phases(state) if p.phase is state.phase for t in p.start(state)}
    later = [list(t) for t in rest[: len(rest) - len(given)] if t not in own]
    if later:
        raise r.fail("agenda", f"the phase steps {later} of a later phase are missing: in phase {phase} they still run")


def _step_problem(state: GameState, task: Task) -> str:
    """Why a step cannot run in this position ('' when it can): the check of its record."""
    return STEPS[task[0]].check(state, *task[1:])


def _arg_range(state: GameState, step_name: str, param: str) -> tuple[int, int]:
    """Inclusive bounds of a step argument, derived from its parameter name and the components."""
    comps = state.config.components
    bounds = {
        "seat": (0, state.num_players - 1),
        "faction": (0, len(comps.factions) - 1),
        "region": (0, int(max(state.tables.regions))),
        "role": (0, len(TakeoverRole) - 1),
        "after_cesura": (0, 1),
        "n": (1, state.tables.deck_size),
        "card": (0, len(BrutiiCard) - 1),  # brutii_option: an action card (R46)
        "slave": (0, state.tables.num_card_types - 1),  # brutii_slave, brutii_lay: a card type (R52)
        "i": (0, max(len(fields) for fields in state.fields) - 1),  # brutii_slave, brutii_lay: a card field
    }
    slot_region = STEPS[step_name].slot_region
    if param == "slot" and slot_region is not None:
        return 0, len(state.tables.region_spaces[slot_region]) - 1
    return bounds.get(param, (-1, MAX_AMOUNT))  # an argument of another meaning: the step's check decides


def _expansion_step(name: str) -> bool:
    """Whether only an expansion game runs the agenda step ``name`` (its record says so, R33-R40)."""
    return STEPS[name].expansion


def _read_task(state: GameState, task: Any, path: str, r: _Reader) -> Task:
    if not isinstance(task, list) or not task or not isinstance(task[0], str) or task[0] not in STEPS:
        raise r.fail(path, f"expected [step name, arguments...] with a known step, got {task!r}")
    if not state.config.expansion and _expansion_step(task[0]):
        raise r.fail(path, f"step {task[0]!r} belongs to the expansion; this is a base document")
    params = params_of(task[0])
    if len(task) - 1 != len(params):
        raise r.fail(path, f"step {task[0]!r} takes {len(params)} argument(s) {params}, got {len(task) - 1}")
    args = [
        r.integer(a, f"{path}[{i + 1}]", *_arg_range(state, task[0], param))
        for i, (a, param) in enumerate(zip(task[1:], params, strict=True))
    ]
    return (task[0], *args)


def _read_pending(state: GameState, raw: Any, r: _Reader) -> Pending | None:
    if raw is None:
        return None
    raw = r.mapping(raw, "pending", {"kind", "seat", "faction", "index"})
    known = list(DecisionKind) if state.config.expansion else list(BASE_DECISION_KINDS)
    kinds = [k.key for k in known]
    if raw.get("kind") not in kinds:
        expansion_kind = raw.get("kind") in [k.key for k in DecisionKind]
        extra = " (an expansion decision: this is a base document)" if expansion_kind else ""
        raise r.fail("pending.kind", f"unknown decision kind {raw.get('kind')!r}{extra}; one of {kinds}")
    kind = known[kinds.index(raw["kind"])]
    if kind.brutii and not state.config.brutii:
        raise r.fail("pending.kind", f"{kind.key} is a decision of the Brutii; this game has no Brutii (R42)")
    faction = raw.get("faction")
    return Pending(
        kind,
        r.seat(raw.get("seat"), "pending.seat", state.num_players),
        -1 if faction is None else r.faction(faction, "pending.faction"),
        r.integer(raw.get("index", -1), "pending.index", -1, MAX_AMOUNT),
    )


def _check_pending(state: GameState, pending: Pending, r: _Reader) -> None:
    """The pending decision must fit the position: its record's context check, staging, and a legal choice."""
    kind = pending.kind
    rule = DECISIONS[kind]
    problem = rule.check(state, pending) or rule.flow(state, pending)
    if problem:
        raise InvalidStateError(problem)
    if state.staged and not rule.stages:
        raise r.fail("staged", f"cards can be staged only while building a take-over set or a pair, not at {kind.key}")
    try:
        choices = rule.legal(state, pending)
    except (IndexError, KeyError, ValueError) as exc:
        raise r.fail("pending", f"the {kind.key} decision does not fit this position ({exc!r})") from None
    if not choices:
        raise r.fail("pending", "the pending decision has no legal choice in this position")


def _phase_agenda(state: GameState, r: _Reader) -> list[Task]:
    """The rest of the round from the start of ``state.phase`` (the round skeleton of :mod:`.rounds`)."""
    try:
        return round_tasks(state, resume_from=state.phase)
    except ValueError:
        raise r.fail("phase", f"a position in phase {state.phase.name.lower()!r} needs an explicit agenda") from None
