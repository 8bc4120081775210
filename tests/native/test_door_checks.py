"""Issue 41: no input kills the native core. Every door into the core checks what it copies, and both engines
refuse the same inputs with :class:`InvalidStateError` naming the field.

N7 a staged card that does not fit its decision (a slave in a Field of Mars pair), N1 and N4 states of the wrong
shape given to ``Game.from_state`` or ``Core.from_fields``, N3 documents the native core could not copy, N6 deals
for a seat that is not deciding. Each test here failed before its fix (N7 and N1 with SIGSEGV on the native core);
the fuzzers of tests/engine/test_native_fuzz.py search the same doors at random, in a child process.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.errors import InvalidStateError
from tribune_env.engine.game import Game
from tribune_env.engine.regions import _legal_pair_cards
from tribune_env.engine.serialize import state_from_json
from tribune_env.engine.state import Event, GameState

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built ({native.BUILD_ERROR})")

ENGINES = ("python", "native")
EXPANSION = GameConfig(players=4, expansion=True)


def first_position(config: GameConfig, seed: int, wanted: Callable[[Game], bool], limit: int = 4000) -> Game:
    """The first decision of a random game of ``config`` where ``wanted`` holds."""
    for attempt in range(20):
        game = Game.new(config, seed=seed + attempt)
        rng = random.Random(seed + attempt)
        for _ in range(limit):
            if game.is_over:
                break
            if wanted(game):
                return game
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no such position")


def mars_pair_doc() -> dict[str, Any]:
    """A document at a Field of Mars pair decision of an expansion game, one card staged."""
    game = first_position(
        EXPANSION, 3, lambda g: g.pending is not None and g.pending.kind is DecisionKind.FIELD_OF_MARS_PAIR
    )
    doc = game.to_json()
    if not doc["staged"]:  # stage the lowest faction card of the hand, as the player could have
        hand = doc["players"][game.pending.seat]["hand"]  # type: ignore[union-attr]
        card = next(c for c in sorted(hand, key=lambda label: game.tables.card_by_label[label]) if ":" in c)
        hand.remove(card)
        doc["staged"] = [card]
    return doc


def swap_staged(doc: dict[str, Any], label: str) -> dict[str, Any]:
    """``doc`` with ``label`` staged in place of its staged card (taken from where ``label`` lies)."""
    piles = [doc["draw_pile"], doc["discard_pile"], *[p["hand"] for p in doc["players"]]]
    pile = next(p for p in piles if label in p)
    pile[pile.index(label)] = doc["staged"][0]
    doc["staged"] = [label]
    return doc


@pytest.mark.parametrize("engine", ENGINES)
def test_a_slave_staged_in_a_field_of_mars_pair_is_refused(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """N7: the document was accepted and the native legal_actions() died (faction -1 in legal_pair_cards)."""
    monkeypatch.setenv(native.ENGINE_ENV, engine)
    base = mars_pair_doc()
    Game.from_json(base).legal_actions()  # the real position plays
    tables = state_from_json(base).tables
    for card in (tables.slave_cards[0][0], tables.assassin_card):
        doc = swap_staged(mars_pair_doc(), tables.card_label[card])
        with pytest.raises(InvalidStateError, match="staged: a Field of Mars pair holds faction cards only"):
            Game.from_json(doc)


def test_both_engines_offer_no_pair_card_after_a_staged_slave() -> None:
    """N7 behind the door: the Python engine read faction -1 as the last faction; the native core indexed -1.
    Given such a state unchecked, both offer only to lay no pair."""
    state = state_from_json(mars_pair_doc())
    slave = state.tables.slave_cards[0][0]
    state.staged = [slave]
    assert _legal_pair_cards(state, state.pending.seat) == []  # type: ignore[union-attr]
    core = native.core_module.Core.from_fields(
        native.rules_for(state.config), state.config, native.fields_of(state), check=False
    )
    assert core.legal() == [(3, 0, 0)]  # Decline only


def shapes() -> dict[str, Callable[[GameState], None]]:
    """The wrong shapes of issue 41's N1 and N4, each a change to a state of a 4-player expansion game."""

    def setter(name: str, value: Any) -> Callable[[GameState], None]:
        return lambda s: setattr(s, name, value)

    def player(name: str, value: Any) -> Callable[[GameState], None]:
        return lambda s: setattr(s.players[1], name, value)

    def pending_seat(s: GameState) -> None:
        assert s.pending is not None
        s.pending = Pending(s.pending.kind, 9, s.pending.faction, s.pending.index)

    def huge_card(s: GameState) -> None:
        s.draw = [*s.draw[:-1], 10**6]

    return {
        "players[1].hand": player("hand", []),
        "players[1].markers": player("markers", []),
        "controller": setter("controller", []),
        "fields": setter("fields", []),
        "fields[0]": lambda s: s.fields.__setitem__(0, []),
        "spaces": setter("spaces", []),
        "draw[": huge_card,
        "pending.seat": pending_seat,
        "players": lambda s: setattr(s, "players", s.players[:1]),  # N4: 4 players given 1
        "sets": setter("sets", []),  # N4
        "officials": setter("officials", []),  # N4
        "coin_bowl": setter("coin_bowl", None),  # N4
        "events[0].text": lambda s: s.events.insert(0, Event(1, 1, -1, "a \ud800 b", -1)),  # N3
        "events[0].round": lambda s: s.events.insert(0, Event(2**31, 1, -1, "x", -1)),  # N3
    }


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("field", list(shapes()))
def test_a_state_of_the_wrong_shape_is_refused_naming_the_field(
    engine: str, field: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """N1, N4: the native core copied these unchecked (SIGSEGV, heap overflow) or played on, the Python engine
    raised IndexError or refused: both now raise InvalidStateError naming the field."""
    monkeypatch.setenv(native.ENGINE_ENV, engine)
    state = Game.new(EXPANSION, seed=2).position().clone()
    Game.from_state(state.clone())  # the real state is accepted
    shapes()[field](state)
    with pytest.raises(InvalidStateError, match=f"^{field.split('.')[0].split('[')[0]}"):
        Game.from_state(state)


@pytest.mark.parametrize("field", ["players", "controller", "fields", "spaces", "pending", "draw", "events"])
def test_the_cores_own_door_checks_plain_values(field: str) -> None:
    """N1 at ``Core.from_fields``: the plain values are checked by the same checks (InvalidStateError)."""
    state = Game.new(EXPANSION, seed=2).position()
    fields = native.fields_of(state)
    wrong = {
        "players": fields["players"][:1],
        "controller": [],
        "fields": [[]],
        "spaces": [-1],
        "pending": (int(DecisionKind.PLACE_FOLLOWER), 9, -1, -1),
        "draw": [10**6],
        "events": [(1, 1, -1, "a \ud800 b", -1)],
    }
    fields[field] = wrong[field]
    with pytest.raises(InvalidStateError, match=field):
        native.core_module.Core.from_fields(native.rules_for(state.config), state.config, fields)


@pytest.mark.parametrize("engine", ENGINES)
def test_documents_the_core_could_not_copy_are_refused(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """N3: the Python engine accepted these documents and the native from_json raised RuntimeError ("Unable to
    cast"); both now refuse them as documents."""
    monkeypatch.setenv(native.ENGINE_ENV, engine)
    doc = Game.new(EXPANSION, seed=4).to_json()
    surrogate = {**doc, "events": [[1, 1, -1, "a \ud800 b", -1], *doc["events"]]}
    with pytest.raises(InvalidStateError, match=r"events\[0\]\[3\]: not valid Unicode"):
        Game.from_json(surrogate)
    big = {**doc, "events": [[2**31, 1, -1, "x", -1], *doc["events"]]}
    with pytest.raises(InvalidStateError, match=r"events\[0\]\[0\]"):
        Game.from_json(big)
    pending = dict(doc["pending"], index=2**31)
    with pytest.raises(InvalidStateError, match=r"pending\.index"):
        Game.from_json({**doc, "pending": pending})


@pytest.mark.parametrize("engine", ENGINES)
def test_deals_for_a_seat_that_is_not_deciding_are_games(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """N6: the decider's staged cards were dealt like any hidden card, so a take-over set could hold another
    faction's cards, a pair a slave (N7's first document), the Refugium non-slaves: measured before the fix, 2,299
    of 4,480 deals for a seat not deciding, at positions with cards staged (4 rule sets, 3 random games each),
    were no game. Now they are dealt from the cards the decision may stage: every deal reads back as a document."""
    monkeypatch.setenv(native.ENGINE_ENV, engine)
    kinds: set[DecisionKind] = set()
    dealt = 0
    for config in (GameConfig(players=4), GameConfig(players=5, expansion=True, brutii=True)):
        for seed in range(1):
            game = Game.new(config, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                position = game.position()
                if position.staged and position.pending is not None:
                    kinds.add(position.pending.kind)
                    for seat in range(config.players):
                        if seat == position.pending.seat or rng.random() < 0.5:
                            continue
                        sample = game.determinized(seat, random.Random(rng.random()))
                        assert Game.from_json(sample.to_json()).legal_actions()
                        dealt += 1
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
    assert dealt > 30 and kinds >= {DecisionKind.TAKEOVER_SET, DecisionKind.FIELD_OF_MARS_PAIR}
