"""Every document ``Game.from_json`` accepts is playable; every other is refused with ``InvalidStateError``.

Valid documents (base and expansion games, saved at many points of random games) are changed by
mutations aimed at the consistency of the whole position: keys changed, deleted, duplicated or
swapped, numbers pushed to extremes, the agenda removed, the pending decision's kind, seat,
faction or index changed, cards moved between places, flags set out of phase, JSON text with huge
integers or deep nesting. The contract: ``from_json`` raises ``InvalidStateError`` (and nothing
else), or the game it returns plays to the end under random legal play with every card conserved
(``card_counts() == card_copies`` after every step), and can be saved and read back right after loading, now
and then in play, and at the end.

To measure with more documents (the issue's count)::

    python tests/engine/test_document_consistency.py 3000
"""

from __future__ import annotations

import copy
import functools
import json
import random
import sys
import traceback
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from tribune_env import DecisionKind, Faction, Game, InvalidStateError, Phase

T = TypeVar("T")

KINDS = [k.key for k in DecisionKind]
FACTIONS = [f.key for f in Faction]
PHASES = [p.name.lower() for p in Phase]
EXTREMES = [-1, 0, 1, 2, 5, 7, 31, 99, 10**6, 10**6 + 1, 2**31, 2**63 - 1, 2**63, 2**64, 10**4400, -(10**4400)]
CARD_PLACES = ("hand", "staged", "contest", "discard_pile", "draw_pile", "board", "pairs", "augur_cards", "sets")
MAX_PLAY_STEPS = 40_000


class Chooser(Protocol):
    """Where the mutations' random choices come from: ``random.Random`` or hypothesis data."""

    def pick(self, options: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...


class RandomChooser:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return self.rng.choice(list(options))

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class DataChooser:
    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(list(options)))

    def number(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


# --- documents -------------------------------------------------------------------------------------------


@functools.cache
def _document_text(players: int, seed: int, steps: int, expansion: bool) -> str:
    game = Game.new(players=players, seed=seed, expansion=expansion, round_limit=8, auto_forced=seed % 3 != 0)
    rng = random.Random(seed * 7919 + steps)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return json.dumps(game.to_json())


def document(players: int, seed: int, steps: int, expansion: bool) -> dict[str, Any]:
    """A fresh copy of a game's document after ``steps`` random steps (round limit 8, to keep play short)."""
    doc: dict[str, Any] = json.loads(_document_text(players, seed, steps, expansion))
    return doc


# --- mutations -------------------------------------------------------------------------------------------


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into the document, except inside the event log."""
    out = [path] if path else []
    if path[:1] == ("events",) and len(path) > 1:
        return out
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, child in items:
        out.extend(_paths(child, (*path, key)))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _players(doc: dict[str, Any]) -> list[Any]:
    """The document's player entries; none where earlier mutations made ``players`` something else than a list."""
    players = doc.get("players")
    return players if isinstance(players, list) else []


def _card_lists(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Paths of every list of card labels in the document (any key may hold anything after earlier mutations)."""
    out: list[tuple[Any, ...]] = []
    for key in ("staged", "contest", "discard_pile", "draw_pile", "augur_cards"):
        if isinstance(doc.get(key), list):
            out.append((key,))
    for seat, p in enumerate(_players(doc)):
        if isinstance(p, dict) and isinstance(p.get("hand"), list):
            out.append(("players", seat, "hand"))
        for f in p.get("sets", {}) if isinstance(p, dict) and isinstance(p.get("sets"), dict) else []:
            out.append(("players", seat, "sets", f))
    board = doc.get("board")
    for region, fields in board.items() if isinstance(board, dict) else []:
        for i, _ in enumerate(fields if isinstance(fields, list) else []):
            out.append(("board", region, i))
    return [p for p in out if isinstance(_get(doc, p), list)]


def _short(value: Any) -> str:
    """A short text for the log (an integer too long to print is shown by its size), of any value a mutation can
    leave anywhere in a document."""
    if type(value) is int and value.bit_length() > 64:
        return f"<integer of {value.bit_length()} bits>"
    if isinstance(value, list) and any(type(v) is int and v.bit_length() > 64 for v in value):
        return "<list with a huge integer>"
    try:
        return repr(value)[:60]
    except ValueError:  # an integer deeper inside with more digits than Python converts to text
        return f"<{type(value).__name__} with a huge integer>"


class Mutator:
    """Random changes to a document; each one is recorded in ``log``."""

    def __init__(self, choose: Chooser, doc: dict[str, Any], log: list[str]) -> None:
        self.c = choose
        self.doc = doc
        self.log = log

    def record(self, text: str) -> None:
        self.log.append(text)

    def players(self) -> int:
        config = self.doc.get("config")
        n = config.get("players") if isinstance(config, dict) else None
        return n if isinstance(n, int) and 0 < n < 9 else 2

    def any(self) -> None:
        getattr(self, self.c.pick(MUTATIONS))()

    # -- generic

    def change(self) -> None:
        paths = _paths(self.doc)
        path = self.c.pick(paths)
        value = self.value_like(_get(self.doc, path))
        _get(self.doc, path[:-1])[path[-1]] = value
        self.record(f"set {path} = {_short(value)}")

    def value_like(self, old: Any) -> Any:
        if isinstance(old, bool):
            return self.c.pick([not old, 0, 1, None])
        if isinstance(old, int):
            return self.c.pick([*EXTREMES, old + 1, old - 1, self.players(), None])
        if isinstance(old, str):
            return self.c.pick([*KINDS, *FACTIONS, *PHASES, "senators:7", "assassin:0", "nubian:1", "rest", ""])
        if isinstance(old, list):
            return self.c.pick([[], old[:1], old + old[:1], None, [10**5000]])
        return self.c.pick([None, {}, [], 0])

    def delete(self) -> None:
        path = self.c.pick([p for p in _paths(self.doc) if p[0] != "config"] or [("round",)])
        parent = _get(self.doc, path[:-1])
        if (isinstance(parent, dict) and path[-1] in parent) or isinstance(parent, list):
            del parent[path[-1]]
            self.record(f"delete {path}")

    def duplicate(self) -> None:
        lists = [p for p in _paths(self.doc) if isinstance(_get(self.doc, p), list) and _get(self.doc, p)]
        if lists:
            path = self.c.pick(lists)
            node = _get(self.doc, path)
            i = self.c.number(0, len(node) - 1)
            node.insert(i, copy.deepcopy(node[i]))
            self.record(f"duplicate {path}[{i}]")

    def swap(self) -> None:
        paths = _paths(self.doc)
        a, b = self.c.pick(paths), self.c.pick(paths)
        if a[: len(b)] == b or b[: len(a)] == a:
            return
        va, vb = _get(self.doc, a), _get(self.doc, b)
        _get(self.doc, a[:-1])[a[-1]], _get(self.doc, b[:-1])[b[-1]] = copy.deepcopy(vb), copy.deepcopy(va)
        self.record(f"swap {a} <-> {b}")

    def extreme(self) -> None:
        ints = [p for p in _paths(self.doc) if type(_get(self.doc, p)) is int]
        if ints:
            path = self.c.pick(ints)
            value = self.c.pick(EXTREMES)
            _get(self.doc, path[:-1])[path[-1]] = value
            self.record(f"set {path} = {_short(value)}")

    # -- targeted

    def no_agenda(self) -> None:
        self.doc.pop("agenda", None)
        if self.c.pick([True, False]):
            self.doc.pop("pending", None)
        self.record("remove agenda")

    def restart_phase(self) -> None:
        """The document rewritten to (re)start a phase: any phase, without its agenda and pending decision."""
        self.doc["phase"] = self.c.pick(PHASES)
        self.doc.pop("agenda", None)
        self.doc.pop("pending", None)
        self.record(f"restart at phase {self.doc['phase']}, no agenda")

    def pending(self) -> None:
        pending = self.doc.get("pending")
        if not isinstance(pending, dict):
            pending = {"kind": "place_follower", "seat": 0, "faction": None, "index": -1}
            self.doc["pending"] = pending
        key = self.c.pick(["kind", "kind", "seat", "faction", "index"])
        value: Any = {
            "kind": lambda: self.c.pick(KINDS),
            "seat": lambda: self.c.number(0, self.players() - 1),
            "faction": lambda: self.c.pick([*FACTIONS, None]),
            "index": lambda: self.c.number(-1, 3),
        }[key]()
        pending[key] = value
        self.record(f"set pending.{key} = {value!r}")

    def move_card(self) -> None:
        lists = _card_lists(self.doc)
        sources = [p for p in lists if _get(self.doc, p)]
        if not sources:
            return
        source = self.c.pick(sources)
        cards = _get(self.doc, source)
        card = cards.pop(self.c.number(0, len(cards) - 1))
        target = self.c.pick([*lists, ("staged",), ("contest",), ("pairs",)])
        if target == ("pairs",):
            self.doc.setdefault("pairs", []).append([0, card, card])
        else:
            node = self.doc.setdefault(target[0], []) if len(target) == 1 else _get(self.doc, target)
            if isinstance(node, list):
                node.append(card)
        self.record(f"move {_short(card)} from {source} to {target}")

    def flags(self) -> None:
        key = self.c.pick(["truncated", "winners", "phase", "game_over"])
        if key == "truncated":
            self.doc["truncated"] = True
        elif key == "winners":
            self.doc["winners"] = [self.c.number(0, self.players() - 1)]
        elif key == "phase":
            self.doc["phase"] = self.c.pick(PHASES)
        else:
            self.doc.update(phase="game_over", agenda=[], pending=None)
        self.record(f"flag {key}: phase {_short(self.doc.get('phase'))}")

    def followers(self) -> None:
        seat = self.c.number(0, self.players() - 1)
        where = self.c.pick(["coin_bowl", "to_place", "space"])
        if where == "coin_bowl":
            self.doc["coin_bowl"] = [seat] * self.c.pick([3, 5, 8, 30])
        elif where == "to_place":
            players = _players(self.doc)
            p = players[seat] if seat < len(players) else None
            if isinstance(p, dict):
                p["followers"] = self.c.pick([3, 5, 7, 8, 9, 10])
        else:
            followers = self.doc.get("followers")
            if isinstance(followers, dict):
                space = self.c.pick(["thermae:1", "forum:2", "curia:1", "atrium:2", "catacombs:1", "pantheon:1"])
                followers[space] = seat
        self.record(f"followers {where} seat {seat}")

    def money(self) -> None:
        for p in _players(self.doc):
            if isinstance(p, dict):
                p["money"] = self.c.pick([0, 1])
        self.record("money set to 0/1")


MUTATIONS = (
    "change",
    "change",
    "delete",
    "duplicate",
    "swap",
    "extreme",
    "extreme",
    "no_agenda",
    "restart_phase",
    "pending",
    "pending",
    "move_card",
    "move_card",
    "flags",
    "followers",
    "money",
)


def as_text(doc: Any, choose: Chooser) -> str:
    """The document as JSON text, sometimes with a huge integer literal or deep nesting added."""
    try:
        text = json.dumps(doc)
    except ValueError:  # an integer too long to write: pass the object itself
        return doc
    how = choose.pick(["plain", "plain", "plain", "huge", "deep"])
    if how == "huge" and '"clock": ' in text:
        return text.replace('"clock": ', '"clock": ' + "9" * 5000 + "0*", 1).replace("0*", "", 1)
    if how == "deep" and '"events": [' in text:
        return text.replace('"events": [', '"events": [' + "[" * 100_000 + "]" * 100_000 + ",", 1)
    return text


# --- the contract ----------------------------------------------------------------------------------------


class Broken(AssertionError):
    """A document was accepted but the game misbehaved."""


def play_to_end(game: Game, seed: int) -> None:
    """Random legal play to the end; cards conserved after every step; the end saves and reads back."""
    rng = random.Random(seed)
    copies = list(game.tables.card_copies)
    if game.position().card_counts() != copies:
        raise Broken("cards not conserved right after loading")
    saves_and_reads_back(game)  # the loaded position is the first position reached
    for _ in range(MAX_PLAY_STEPS):
        if game.pending is None:
            break
        legal = game.legal_actions()
        if not legal:
            raise Broken(f"pending {game.pending} has no legal choice")
        game.apply(rng.choice(legal))
        if game.position().card_counts() != copies:
            raise Broken(f"cards not conserved after a step (round {game.round}, {game.phase.name})")
        if rng.random() < 0.02:
            saves_and_reads_back(game)
    else:
        raise Broken("the game did not end")
    if not game.is_over:
        raise Broken(f"no decision pending, but the game is not over (phase {game.phase.name})")
    if not game.winners:
        raise Broken("the game is over without winners")
    saves_and_reads_back(game)


def saves_and_reads_back(game: Game) -> None:
    doc = game.to_json()
    try:
        again = Game.from_json(json.dumps(doc))
    except (InvalidStateError, ValueError) as exc:
        raise Broken(f"a position reached in play cannot be saved and read back: {exc}") from exc
    if again.to_json() != doc:
        raise Broken("a position reached in play does not read back identically")


def check_document(doc: Any, seed: int) -> str:
    """'rejected', 'played', or raises: ``Broken`` (accepted but misbehaved) or another exception."""
    try:
        game = Game.from_json(doc)
    except InvalidStateError as exc:
        assert str(exc).split(":")[0].strip(), "InvalidStateError without a field"
        return "rejected"
    try:
        play_to_end(game, seed)
    except Broken:
        raise
    except Exception as exc:
        raise Broken(f"{type(exc).__name__}: {str(exc)[:200]}") from exc
    return "played"


def mutated(choose: Chooser, log: list[str]) -> Any:
    players = choose.number(2, 5)
    expansion = choose.pick([False, True])
    seed = choose.number(0, 5)
    steps = choose.pick([0, 1, 3, 10, 30, 60, 100, 150, 200, 300, 450, 700, 1000])
    doc = document(players, seed, steps, expansion)
    log.append(f"document({players}, {seed}, {steps}, {expansion}): phase {doc['phase']}, pending {doc['pending']}")
    mutator = Mutator(choose, doc, log)
    for _ in range(choose.number(1, 3)):
        mutator.any()
    return as_text(doc, choose) if choose.pick([False, False, True]) else doc


# --- the property ----------------------------------------------------------------------------------------


_PROPERTY = settings(
    deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _mutated_document_plays(data: st.DataObject, seed: int) -> None:
    """Mutated base and expansion documents: ``InvalidStateError``, or a game that plays to the end intact."""
    log: list[str] = []
    doc = mutated(DataChooser(data), log)
    note("\n".join(log))
    check_document(doc, seed)


@settings(_PROPERTY, max_examples=40)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_accepted_documents_play_to_the_end(data: st.DataObject, seed: int) -> None:
    """40 mutated documents in the quick suite (each one plays a whole game with a save/reload check per step)."""
    _mutated_document_plays(data, seed)


@pytest.mark.slow
@settings(_PROPERTY, max_examples=300)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_accepted_documents_play_to_the_end_many(data: st.DataObject, seed: int) -> None:
    """The same property over 300 mutated documents (slow: CI runs it)."""
    _mutated_document_plays(data, seed)


# --- the mutations themselves never fail -------------------------------------------------------------------
# A mutation may leave anything anywhere (a huge integer as a card, a string as the board, a number as the players);
# the later mutations of the same document, and their log lines, must cope with it: the property fails otherwise.


class Scripted:
    """A chooser that gives the answers it was given, in order: each ``pick`` one of the options offered, each
    ``number`` one in the range asked for."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)

    def pick(self, options: Sequence[T]) -> T:
        answer = self.answers.pop(0)
        assert answer in options, f"{answer!r} is not among {options!r}"
        return answer  # type: ignore[no-any-return]

    def number(self, low: int, high: int) -> int:
        answer = self.answers.pop(0)
        assert low <= answer <= high, f"{answer} is not in {low}..{high}"
        return int(answer)


def test_a_huge_integer_moved_as_a_card_is_logged_by_its_size() -> None:
    doc: dict[str, Any] = {"draw_pile": [10**5000], "discard_pile": []}
    log: list[str] = []
    Mutator(Scripted(("draw_pile",), 0, ("discard_pile",)), doc, log).move_card()
    assert doc == {"draw_pile": [], "discard_pile": [10**5000]}
    assert log == ["move <integer of 16610 bits> from ('draw_pile',) to ('discard_pile',)"]


def test_card_lists_skip_a_board_and_players_of_another_type() -> None:
    assert _card_lists({"board": "senators:7", "players": 5, "draw_pile": ["senators:7"]}) == [("draw_pile",)]
    assert _card_lists({"board": [["senators:7"]], "players": "x", "staged": []}) == [("staged",)]


def test_followers_for_a_seat_without_a_player_entry_change_nothing() -> None:
    doc: dict[str, Any] = {"config": {"players": 3}, "players": [{}]}
    log: list[str] = []
    Mutator(Scripted(2, "to_place"), doc, log).followers()
    assert doc["players"] == [{}] and log == ["followers to_place seat 2"]


def test_flags_and_money_cope_with_what_other_mutations_left() -> None:
    doc: dict[str, Any] = {"phase": 10**5000, "players": 7}
    log: list[str] = []
    mutator = Mutator(Scripted("truncated"), doc, log)
    mutator.flags()
    mutator.money()
    assert doc == {"phase": 10**5000, "players": 7, "truncated": True}
    assert log == ["flag truncated: phase <integer of 16610 bits>", "money set to 0/1"]
    assert _short({"money": 10**5000}) == "<dict with a huge integer>"


@pytest.mark.parametrize("seed", [242265, 260440])
def test_mutated_documents_that_failed_to_be_made(seed: int) -> None:
    """Two documents of ``measure``'s chooser on which ``mutated`` itself raised (ValueError: a huge integer in a
    log line; AttributeError: the board swapped for a string): made now, and refused or played."""
    log: list[str] = []
    doc = mutated(RandomChooser(seed), log)
    assert log[0].startswith("document(")
    assert check_document(doc, seed) in ("rejected", "played")


# --- documents the property found ------------------------------------------------------------------------------


def test_a_phase_step_of_a_later_phase_left_out_is_refused() -> None:
    """Found by the property: a position in phase 2 without the Thermae's evaluation (``evaluate 0``) at the front of
    its agenda was read as if that step had run; in play a follower stood on the Thermae that no step sends home, and
    the position reached could not be read back. A step of a later phase has not run while the phase is this one."""
    doc = document(2, 2, 30, False)
    assert doc["phase"] == "follower_placement" and doc["agenda"][0] == ["evaluate", 0]
    assert check_document(copy.deepcopy(doc), 17) == "played"  # as saved, it plays to the end
    del doc["agenda"][0]
    with pytest.raises(InvalidStateError, match=r"phase steps \[\['evaluate', 0\]\] of a later phase are missing"):
        Game.from_json(doc)


def test_a_second_card_on_the_latrine_is_refused() -> None:
    """Found by the property: a Forum card moved onto the Latrine's field (two cards there) was accepted; its
    evaluation offered to buy the first card and took the second, whose price the occupant could not pay
    (RuntimeError). The Latrine holds one card face down."""
    doc = document(4, 1, 150, True)
    assert doc["phase"] == "follower_placement" and doc["followers"]["latrine:1"] == 1
    assert check_document(copy.deepcopy(doc), 326140) == "played"  # as saved, it plays to the end
    doc["board"]["latrine"][0].append(doc["board"]["forum"][0].pop())
    doc["board"]["forum"][0].append(doc["players"][1]["hand"].pop(doc["players"][1]["hand"].index("vestals:8")))
    with pytest.raises(InvalidStateError, match=r"^board\.latrine\[0\]: the Latrine holds one card face down, not 2"):
        Game.from_json(doc)


def test_augur_cards_without_his_keep_or_discard_are_refused() -> None:
    """Found by the property: a discarded card moved to ``augur_cards`` in phase 5, while the Augur is held, was
    accepted; the cards stayed there for good, and once nobody held the Augur the position reached could not be read
    back. The Augur's drawn cards are his only until his keep or discard (R39)."""
    doc = document(5, 3, 200, True)
    assert doc["phase"] == "faction_benefits" and doc["augur_cards"] == [] and doc["officials"]["augur"] is not None
    assert check_document(copy.deepcopy(doc), 1) == "played"  # as saved, it plays to the end
    doc["augur_cards"].append(doc["discard_pile"].pop(0))
    with pytest.raises(InvalidStateError, match=r"^augur_cards: cards drawn by the Augur need his keep or discard"):
        Game.from_json(doc)
    del doc["agenda"], doc["pending"]
    with pytest.raises(InvalidStateError, match=r"^augur_cards: cards in the middle of a decision need the agenda"):
        Game.from_json(doc)


def test_a_placement_of_this_turn_outside_the_princeps_turn_is_refused() -> None:
    """Found by the property: a document in the Princeps holder's turn after his first placement (R37), without its
    agenda and with the turn given to another seat, was accepted; that seat then counted as having placed once, and
    the position after its placement could not be read back. Only the Princeps holder's turn has a placement done."""
    doc = document(5, 3, 300, True)
    assert doc["placed_this_turn"] == 1 and doc["turn_seat"] == doc["officials"]["princeps"] == 3
    del doc["agenda"], doc["pending"]
    assert check_document(copy.deepcopy(doc), 0) == "played"  # his turn, resumed from the phase: it plays to the end
    doc["turn_seat"] = 0
    with pytest.raises(InvalidStateError, match=r"^placed_this_turn: only the Princeps holder places more than one"):
        Game.from_json(doc)


def test_a_set_up_in_a_later_round_is_refused() -> None:
    """Found by the property: a set-up document (round 0) with ``round`` 1 and ``round_limit`` 1 was accepted; the
    round starting after the set-up was round 2, past the limit, and that position could not be read back."""
    doc = document(2, 0, 0, False)
    assert doc["phase"] == "setup" and doc["round"] == 0
    doc["config"]["round_limit"] = 1
    assert check_document(copy.deepcopy(doc), 0) == "played"  # round 0: the one round is played
    doc["round"] = 1
    with pytest.raises(InvalidStateError, match=r"^round: a game in its set-up is in round 0, not 1"):
        Game.from_json(doc)
    del doc["round"]
    assert Game.from_json(doc).round == 0  # left out: the set-up's round


def _positions(players: int, expansion: bool, brutii: bool, seed: int, per_kind: int = 3) -> list[dict[str, Any]]:
    """The documents of the first ``per_kind`` positions of each decision kind in a random game (round limit 8):
    every kind of position, the ones with something in flight (a sealed bid, staged cards, pairs) included."""
    game = Game.new(players=players, seed=seed, expansion=expansion, brutii=brutii, round_limit=8)
    rng = random.Random(seed)
    seen: dict[DecisionKind, int] = {}
    docs = []
    while game.pending is not None:
        kind = game.pending.kind
        if seen.get(kind, 0) < per_kind:
            seen[kind] = seen.get(kind, 0) + 1
            docs.append(game.to_json())
        game.apply(rng.choice(game.legal_actions()))
    return docs


@pytest.mark.parametrize(
    ("players", "expansion", "brutii"), [(2, False, False), (5, False, False), (3, True, False), (5, True, True)]
)
def test_positions_rewritten_to_a_phase_start_are_refused_or_read_back(
    players: int, expansion: bool, brutii: bool
) -> None:
    """Every kind of position, rewritten to the start of every phase (``agenda`` and ``pending`` left out): refused
    with ``InvalidStateError``, or the loaded game saves and reads back at once (the first position reached)."""
    for doc in _positions(players, expansion, brutii, seed=players):
        for phase in PHASES:
            rewritten = {k: v for k, v in copy.deepcopy(doc).items() if k not in ("agenda", "pending")}
            rewritten["phase"] = phase
            try:
                game = Game.from_json(rewritten)
            except InvalidStateError:
                continue
            try:
                saves_and_reads_back(game)
            except Broken as exc:
                raise AssertionError(f"round {doc['round']}, {doc['pending']} rewritten to {phase}: {exc}") from exc


# --- measuring -------------------------------------------------------------------------------------------


def measure(count: int) -> dict[str, int]:
    """Run the mutator on ``count`` documents; count each outcome (and print the first of each failure)."""
    counts: dict[str, int] = {"rejected": 0, "played": 0, "broken": 0, "wrong_exception": 0}
    seen: set[str] = set()
    for i in range(count):
        log: list[str] = []
        doc = mutated(RandomChooser(i), log)
        try:
            counts[check_document(doc, i)] += 1
            continue
        except Broken as exc:
            kind, text = "broken", str(exc)
        except Exception as exc:
            kind, text = (
                "wrong_exception",
                f"{type(exc).__name__}: {str(exc)[:150]} at {traceback.extract_tb(exc.__traceback__)[-1].name}",
            )
        counts[kind] += 1
        key = text[:60]
        if key not in seen:
            seen.add(key)
            print(f"[{i}] {kind}: {text}\n    {log}", file=sys.stderr)
    return counts


if __name__ == "__main__":
    print(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3000))
