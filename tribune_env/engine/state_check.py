"""The shape of a :class:`GameState` handed to the engine from outside (issue 41, N1/N4).

A state document is read field by field by :mod:`.serialize`, so its values have the right shapes by construction.
A :class:`GameState` given to ``Game.from_state`` (or the plain values given to the native core's
``Core.from_fields``) may hold anything. :func:`check_shape` checks every field before any engine reads it: the
lengths of the fixed-size lists against the game's tables (players, factions, regions and their card fields,
follower spaces, officials), every number against its range (seats, factions, card types, amounts, the chance key
and the clock), the kinds of cards (a displayed set holds its faction's cards), the conservation of cards (every
card of the deck lies in exactly one location), the agenda's step names and arguments and the pending decision's
kind, seat and faction. A problem raises :class:`~tribune_env.engine.errors.InvalidStateError` naming the field.

The rules of the position itself (who may stand where, what the agenda may hold, whether the pending decision fits)
are the document's checks, run afterwards by :func:`tribune_env.engine.serialize.check_state`.
"""

from __future__ import annotations

import inspect
from typing import Any

from tribune_env.data import BrutiiCard, BrutiiDisc
from tribune_env.engine.decisions import BASE_DECISION_KINDS, BASE_PHASES, DecisionKind, Pending, Phase
from tribune_env.engine.errors import InvalidStateError
from tribune_env.engine.registry import STEPS
from tribune_env.engine.state import Event, GameState, PlayerState

MAX_AMOUNT = 1_000_000  # as serialize.MAX_AMOUNT: money, laurels, legions, bids
MAX_CLOCK = 2**62  # as serialize.MAX_CLOCK
MAX_CHANCE = 2**63 - 1
MAX_ROUND = 10_000  # above any round limit a config allows
MAX_INT32 = 2**31 - 1  # the native core keeps the other numbers in 32 bits


def fail(path: str, message: str) -> InvalidStateError:
    return InvalidStateError(f"{path}: {message}")


def integer(value: Any, path: str, low: int, high: int) -> int:
    """``value`` if it is an integer (not a bool) within ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(path, f"expected an integer, got {value!r:.60}")
    if not low <= value <= high:
        raise fail(path, f"must be in {low}..{high}, got {value}")
    return int(value)


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise fail(path, f"expected True or False, got {value!r:.60}")
    return value


def sequence(value: Any, path: str, length: int | None = None, kinds: tuple[type, ...] = (list,)) -> list[Any]:
    """``value`` as a list if it is one of ``kinds`` (and has ``length`` entries when given)."""
    if type(value) is list and list in kinds:  # read only: no copy
        items: list[Any] = value
    elif not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise fail(path, f"expected a {names}, got {type(value).__name__}")
    else:
        anything: Any = value
        items = list(anything)
    if length is not None and len(items) != length:
        raise fail(path, f"expected {length} entries, got {len(items)}")
    return items


def integers(value: Any, path: str, low: int, high: int, length: int | None = None) -> list[int]:
    items = sequence(value, path, length)
    if all(type(v) is int and low <= v <= high for v in items):  # the usual case, checked at once
        return items
    return [integer(v, f"{path}[{i}]", low, high) for i, v in enumerate(items)]


def booleans(value: Any, path: str, length: int) -> list[bool]:
    items = sequence(value, path, length)
    if all(type(v) is bool for v in items):
        return items
    return [boolean(v, f"{path}[{i}]") for i, v in enumerate(items)]


def check_shape(state: GameState) -> None:
    """Every field of ``state`` has its shape, range and kind (module docstring); InvalidStateError names the
    first field that does not. Reads ``state`` only."""
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, got {type(state).__name__}")
    _check_scalars(state)
    _check_players(state)
    _check_board(state)
    _check_cards(state)
    _check_expansion(state)
    _check_flow(state)
    _check_events(state)


def _attr(state: GameState, name: str) -> Any:
    try:
        return getattr(state, name)
    except AttributeError:
        raise fail(name, "missing") from None


def _check_scalars(state: GameState) -> None:
    config, n = state.config, state.config.players
    factions = len(state.tables.faction_cards)
    phases = list(Phase) if config.expansion else list(BASE_PHASES)
    phase = _attr(state, "phase")
    if not isinstance(phase, Phase) or phase not in phases:
        raise fail("phase", f"expected one of {[p.name.lower() for p in phases]}, got {phase!r:.60}")
    victory = _attr(state, "victory_card")
    if not isinstance(victory, str):
        raise fail("victory_card", f"expected a str, got {type(victory).__name__}")
    check_encodable(victory, "victory_card")
    integer(_attr(state, "round"), "round", 0, MAX_ROUND)
    integer(_attr(state, "start_seat"), "start_seat", 0, n - 1)
    integer(_attr(state, "turn_seat"), "turn_seat", 0, n - 1)
    integer(_attr(state, "colosseum"), "colosseum", 0, MAX_AMOUNT)
    integer(_attr(state, "chariot"), "chariot", -1, factions - 1)
    integer(_attr(state, "proconsul"), "proconsul", -1, n - 1)
    integer(_attr(state, "chance"), "chance", 0, MAX_CHANCE)
    clock = integer(_attr(state, "clock"), "clock", 0, MAX_CLOCK)
    boolean(_attr(state, "truncated"), "truncated")
    integers(_attr(state, "controller"), "controller", -1, n - 1, factions)
    booleans(_attr(state, "first_laurel"), "first_laurel", factions)
    lowest = -2 if config.brutii else -1  # -2: the Brutii's sealed opt-out (R49)
    integers(_attr(state, "bids"), "bids", lowest, MAX_AMOUNT, n)
    booleans(_attr(state, "sacrificed"), "sacrificed", n)
    integers(_attr(state, "fulfilled_since"), "fulfilled_since", -1, clock, n)
    winners = sequence(_attr(state, "winners"), "winners", kinds=(tuple,))
    seats = [integer(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(winners)]
    if len(set(seats)) != len(seats):
        raise fail("winners", "a player is listed twice")


def _check_players(state: GameState) -> None:
    config, tables = state.config, state.tables
    players = sequence(_attr(state, "players"), "players", config.players)
    factions = len(tables.faction_cards)
    most = max(config.components.followers.values()) + 1  # the proconsul is one more (R9)
    spec = config.components.expansion if config.expansion else None
    tiles = {t.id for t in spec.emperor_tiles} if spec is not None else set()
    for seat, p in enumerate(players):
        path = f"players[{seat}]"
        if not isinstance(p, PlayerState):
            raise fail(path, f"expected a PlayerState, got {type(p).__name__}")
        try:
            money, laurels, legions, followers, patrons = p.money, p.laurels, p.legions, p.followers, p.patrons
            markers, tile, hand, emperor = p.markers, p.tile, p.hand, p.emperor_tiles
            favors = (p.eternal_favor, p.temporary_favor, p.pantheon_seen)
        except AttributeError as exc:
            raise fail(path, f"incomplete ({exc})") from None
        integer(money, f"{path}.money", 0, MAX_AMOUNT)
        integer(laurels, f"{path}.laurels", 0, MAX_AMOUNT)
        integer(legions, f"{path}.legions", 0, MAX_AMOUNT)
        integer(followers, f"{path}.followers", 0, most)
        integer(patrons, f"{path}.patrons", 0, spec.patrons_per_player if spec is not None else 0)
        booleans(markers, f"{path}.markers", factions)
        integer(tile, f"{path}.tile", 0, 2)
        for name, flag in zip(("eternal_favor", "temporary_favor", "pantheon_seen"), favors, strict=True):
            boolean(flag, f"{path}.{name}")
        counts = sequence(hand, f"{path}.hand", tables.num_card_types)
        copies = tables.card_copies
        if not all(type(k) is int and 0 <= k <= most_copies for k, most_copies in zip(counts, copies, strict=True)):
            for c, count in enumerate(counts):
                integer(count, f"{path}.hand[{c}]", 0, copies[c])
        held = sequence(emperor, f"{path}.emperor_tiles")
        for i, t in enumerate(held):
            if isinstance(t, bool) or t not in tiles:
                raise fail(f"{path}.emperor_tiles[{i}]", f"unknown favor of the emperor tile {t!r:.40}")


def _check_board(state: GameState) -> None:
    tables, n = state.tables, state.config.players
    reference = GameState(state.config)  # the fixed shapes of this game
    fields = sequence(_attr(state, "fields"), "fields", len(reference.fields))
    for region, (got, want) in enumerate(zip(fields, reference.fields, strict=True)):
        for i, cards in enumerate(sequence(got, f"fields[{region}]", len(want))):
            _cards(cards, f"fields[{region}][{i}]", state)
    booleans(_attr(state, "atrium_up"), "atrium_up", len(reference.atrium_up))
    integers(_attr(state, "spaces"), "spaces", -1, n - 1, len(tables.spaces))
    integers(_attr(state, "coin_bowl"), "coin_bowl", 0, n - 1)
    sets = sequence(_attr(state, "sets"), "sets", len(tables.faction_cards))
    for f, cards in enumerate(sets):
        wrong = [c for c in _cards(cards, f"sets[{f}]", state) if tables.card_faction[c] != f]
        if wrong:
            raise fail(f"sets[{f}]", f"cards of another faction in the set: {[tables.card_label[c] for c in wrong]}")


def _cards(value: Any, path: str, state: GameState) -> list[int]:
    return integers(value, path, 0, state.tables.num_card_types - 1)


def _check_cards(state: GameState) -> None:
    """Every pile holds card types, and every card of the deck lies in exactly one location."""
    tables, n = state.tables, state.config.players
    for name in ("draw", "discard", "staged", "contest", "augur_cards"):
        _cards(_attr(state, name), name, state)
    for i, pair in enumerate(sequence(_attr(state, "pairs"), "pairs")):
        seat, a, b = sequence(pair, f"pairs[{i}]", 3, kinds=(tuple, list))
        integer(seat, f"pairs[{i}][0]", 0, n - 1)
        _cards([a, b], f"pairs[{i}][1:]", state)
    counts = state.card_counts()
    for card, (have, copies) in enumerate(zip(counts, tables.card_copies, strict=True)):
        if have != copies:
            label = tables.card_label[card]
            raise fail("cards", f"{have} copies of {label} lie in the game's locations; the game has {copies}")


def _check_expansion(state: GameState) -> None:
    config, n = state.config, state.config.players
    reference = GameState(config)
    factions = len(state.tables.faction_cards)
    integers(_attr(state, "officials"), "officials", -1, n - 1, len(reference.officials))
    booleans(_attr(state, "officials_chosen"), "officials_chosen", len(reference.officials_chosen))
    booleans(_attr(state, "benefit_blocked"), "benefit_blocked", factions)
    spec = config.components.expansion if config.expansion else None
    tiles = sorted(t.id for t in spec.emperor_tiles) if spec is not None else []
    pile = sequence(_attr(state, "emperor_pile"), "emperor_pile")
    for i, t in enumerate(pile):
        if isinstance(t, bool) or t not in tiles:
            raise fail(f"emperor_pile[{i}]", f"unknown favor of the emperor tile {t!r:.40}")
    up = _attr(state, "emperor_up")
    if isinstance(up, bool) or (up != -1 and up not in tiles):
        raise fail("emperor_up", f"expected -1 or a favor of the emperor tile, got {up!r:.40}")
    for i, t in enumerate(sequence(_attr(state, "matrona_tiles"), "matrona_tiles")):
        if isinstance(t, bool) or t not in tiles:
            raise fail(f"matrona_tiles[{i}]", f"unknown favor of the emperor tile {t!r:.40}")
    integer(_attr(state, "placed_this_turn"), "placed_this_turn", 0, MAX_AMOUNT)
    brutii = integer(_attr(state, "brutii"), "brutii", -1, n - 1)
    if brutii >= 0 and not config.brutii:
        raise fail("brutii", "a game without the Brutii has no Brutii seat (-1)")
    integer(_attr(state, "brutii_turns"), "brutii_turns", 0, MAX_AMOUNT)
    integers(_attr(state, "brutii_revealed"), "brutii_revealed", 0, len(BrutiiDisc) - 1)
    integers(_attr(state, "brutii_played"), "brutii_played", 0, len(BrutiiCard) - 1)
    options = sequence(_attr(state, "brutii_options"), "brutii_options", 2, kinds=(list, tuple))
    integers(options, "brutii_options", -1, 1, 2)
    integer(_attr(state, "veto"), "veto", -1, max(int(r) for r in state.tables.regions))


def _check_flow(state: GameState) -> None:
    """The agenda's steps (known names, their number of arguments, each argument in 32 bits) and the pending
    decision's kind, seat and faction; whether they fit the position is the document checks' business."""
    config = state.config
    agenda = sequence(_attr(state, "agenda"), "agenda")
    for i, task in enumerate(agenda):
        name = task[0] if type(task) is tuple and task and type(task[0]) is str else None
        if name is not None and name in STEPS and len(task) - 1 == len(params_of(name)):
            if (config.expansion or not STEPS[name].expansion) and all(
                type(a) is int and -1 <= a <= MAX_INT32 for a in task[1:]
            ):
                continue  # the usual case at once
        path = f"agenda[{len(agenda) - 1 - i}]"  # as a document lists it (the next step first)
        items = sequence(task, path, kinds=(tuple,))
        if not items or not isinstance(items[0], str) or items[0] not in STEPS:
            raise fail(path, f"expected (step name, arguments...) with a known step, got {task!r:.80}")
        name = items[0]
        if STEPS[name].expansion and not config.expansion:
            raise fail(path, f"step {name!r} belongs to the expansion; this is a base game")
        params = params_of(name)
        if len(items) - 1 != len(params):
            raise fail(path, f"step {name!r} takes {len(params)} argument(s) {params}, got {len(items) - 1}")
        for k, arg in enumerate(items[1:]):
            integer(arg, f"{path}[{k + 1}]", -1, MAX_INT32)
    pending = _attr(state, "pending")
    if pending is None:
        return
    if not isinstance(pending, Pending):
        raise fail("pending", f"expected a Pending or None, got {type(pending).__name__}")
    kinds = list(DecisionKind) if config.expansion else list(BASE_DECISION_KINDS)
    if not isinstance(pending.kind, DecisionKind) or pending.kind not in kinds:
        raise fail("pending.kind", f"unknown decision kind {pending.kind!r:.40} for this game")
    if pending.kind.brutii and not config.brutii:
        raise fail("pending.kind", f"{pending.kind.key} is a decision of the Brutii; this game has no Brutii (R42)")
    integer(pending.seat, "pending.seat", 0, config.players - 1)
    integer(pending.faction, "pending.faction", -1, len(state.tables.faction_cards) - 1)
    integer(pending.index, "pending.index", -1, MAX_AMOUNT)


_PARAMS: dict[str, list[str]] = {}  # params_of, once per step


def params_of(name: str) -> list[str]:
    """The argument names of step ``name`` (its run function's parameters after the state)."""
    params = _PARAMS.get(name)
    if params is None:
        params = _PARAMS[name] = list(inspect.signature(STEPS[name].run).parameters)[1:]
    return params


def event_fits(event: Any, phases: int, players: int) -> bool:
    """Whether the five fields of an event (an :class:`Event` or a document's list) are plainly valid: round, phase,
    seat, ASCII text and private seat in range, each of its exact type. False sends the caller to its field-by-field
    check, which names what does not fit."""
    return (
        type(event[0]) is int
        and 0 <= event[0] <= MAX_ROUND
        and type(event[1]) is int
        and 0 <= event[1] < phases
        and type(event[2]) is int
        and -1 <= event[2] < players
        and type(event[3]) is str
        and event[3].isascii()
        and type(event[4]) is int
        and -1 <= event[4] < players
    )


def _check_events(state: GameState) -> None:
    n, phases = state.config.players, len(Phase)
    for i, event in enumerate(sequence(_attr(state, "events"), "events")):
        if type(event) is Event and event_fits(event, phases, n):  # the usual case at once: the log is long
            continue
        path = f"events[{i}]"
        if not isinstance(event, tuple) or len(event) != len(Event._fields):
            raise fail(path, "expected an Event (round, phase, seat, text, private_to)")
        integer(event[0], f"{path}.round", 0, MAX_ROUND)
        integer(event[1], f"{path}.phase", 0, len(Phase) - 1)
        integer(event[2], f"{path}.seat", -1, n - 1)
        if not isinstance(event[3], str):
            raise fail(f"{path}.text", f"expected a str, got {type(event[3]).__name__}")
        check_encodable(event[3], f"{path}.text")
        integer(event[4], f"{path}.private_to", -1, n - 1)


def check_encodable(text: str, path: str) -> None:
    """Text is valid Unicode (UTF-8 encodable: no lone surrogate), as both engines and every JSON writer need."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise fail(path, f"not valid Unicode text ({exc.reason} at {exc.start})") from None
