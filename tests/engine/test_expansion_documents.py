"""Expansion documents (format version 2), hidden information of the expansion (R1, R35, R39) and its readable
text: round trips over random expansion games, hand-written positions with defaults, refused documents naming
their field, views that ignore every hidden thing, and determinizations that re-deal it."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hidden_info import face_down_fields
from paths import ROOT
from slow_marks import slow_except_values

from tribune_env import DecisionKind, Game, Phase
from tribune_env.data import Official
from tribune_env.engine.actions import ChooseOfficial, ChooseTile
from tribune_env.engine.determinize import resample
from tribune_env.engine.errors import InvalidStateError
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.serialize import state_to_json
from tribune_env.engine.state import GameState
from tribune_env.engine.view import HIDDEN, player_view

DOC = ROOT / "docs" / "state-format.md"
AUGUR = int(Official.AUGUR)
TILE_IDS = list(range(1, 11))


def check_expansion_holdings(state: GameState) -> None:
    """118 cards and the emperor tiles each in exactly one place; one official per player at most (E1, R35, R36)."""
    assert state.card_counts() == list(state.tables.card_copies)
    tiles = [*state.emperor_pile, *state.matrona_tiles, *([state.emperor_up] if state.emperor_up >= 0 else [])]
    for p in state.players:
        tiles += p.emperor_tiles
    assert sorted(tiles) == TILE_IDS
    holders = [h for h in state.officials if h >= 0]
    assert len(holders) == len(set(holders))


def play(players: int, seed: int, round_limit: int = 30, **options: Any) -> tuple[Game, list[Any], list[Game]]:
    """A random expansion game (``options``: more :class:`GameConfig` fields, e.g. the Brutii's): the final game, its
    actions, and the game at each decision (as clones)."""
    game = Game.new(
        players=players, seed=seed, expansion=True, round_limit=round_limit, auto_forced=seed % 2 == 0, **options
    )
    rng = random.Random(seed)
    actions: list[Any] = []
    states: list[Game] = []
    while not game.is_over:
        states.append(game.clone())
        action = rng.choice(game.legal_actions())
        actions.append(action)
        game.apply(action)
    return game, actions, states


# --- round trips -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", slow_except_values([2, 3, 4, 5], quick=[2, 3]))
@pytest.mark.parametrize("seed", [0, 1])
def test_expansion_round_trip_continues_identically(players: int, seed: int) -> None:
    """At many decisions: to_json -> JSON text -> from_json gives the same document, and continuing with the same
    actions ends in the same final document as the original game (and as a clone)."""
    final, actions, states = play(players, seed)
    final_doc = final.to_json()
    assert final_doc["version"] == 2 and final_doc["config"]["expansion"] is True
    step = max(1, len(states) // 12)
    for i in [*range(0, len(states), step), len(states) - 1]:
        doc = states[i].to_json()
        loaded = Game.from_json(json.dumps(doc))
        assert loaded.to_json() == doc, f"decision {i}"
        check_expansion_holdings(loaded.position())
        clone = states[i].clone()
        for action in actions[i:]:
            loaded.apply(action)
            clone.apply(action)
        assert loaded.to_json() == final_doc, f"decision {i}"
        assert clone.to_json() == final_doc, f"decision {i}"


def test_every_expansion_decision_kind_met_round_trips() -> None:
    """Each expansion decision kind reached in random games is written and read back identically (R33-R39)."""
    seen: set[DecisionKind] = set()
    for seed in range(8):
        _, _, states = play(3 + seed % 3, 100 + seed, round_limit=20)
        for game in states:
            pending = game.pending
            if pending is not None and pending.kind.expansion and pending.kind not in seen:
                seen.add(pending.kind)
                doc = game.to_json()
                assert Game.from_json(doc).to_json() == doc
    assert DecisionKind.OFFICIAL_CHOICE in seen


def test_base_documents_stay_version_1() -> None:
    game = Game.new(players=3, seed=2)
    doc = game.to_json()
    assert doc["version"] == 1 and "expansion" not in doc["config"]
    assert "refugium" not in json.dumps(doc)


# --- hand-written positions --------------------------------------------------------------------------------


def _minimal(**top: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"config": {"players": 3, "victory_card": "sic_transit", "expansion": True}}
    doc["players"] = [{}, {}, {}]
    doc.update(top)
    return doc


def test_minimal_expansion_position_gets_every_default() -> None:
    """Only config and players: officials on the Capitoleum, the emperor tiles shuffled with the top one face up
    (E10-E12), 118 cards in the draw pile and the board filled."""
    game = Game.from_json(_minimal())
    state = game.position()
    assert state.config.expansion
    assert state.officials == [-1] * len(Official)
    assert state.emperor_up in TILE_IDS and len(state.emperor_pile) == 9
    check_expansion_holdings(state)
    assert game.to_json()["version"] == 2


def test_version_may_be_left_out_and_rest_pile_is_seeded_by_chance() -> None:
    a = Game.from_json(_minimal(chance=5)).position()
    b = Game.from_json(_minimal(chance=5, version=2)).position()
    c = Game.from_json(_minimal(chance=6)).position()
    assert (a.emperor_pile, a.emperor_up) == (b.emperor_pile, b.emperor_up)
    assert (a.emperor_pile, a.emperor_up, a.draw) != (c.emperor_pile, c.emperor_up, c.draw)


def test_explicit_emperor_pile_keeps_its_order_and_no_face_up_default() -> None:
    doc = _minimal(emperor_pile=[3, 1, 2, 4, 5, 6, 7, 8], matrona_tiles=[9], officials={"matrona": 1})
    doc["players"][0]["emperor_tiles"] = [10]
    state = Game.from_json(doc).position()
    assert state.emperor_pile[:2] == [3, 1] or state.round >= 1  # the pile is bottom first
    assert state.players[0].emperor_tiles == [10] and state.matrona_tiles == [9]
    check_expansion_holdings(state)


def _doc_example() -> dict[str, Any]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)
    docs = [json.loads(b) for b in blocks]
    return next(d for d in docs if d.get("config", {}).get("expansion"))


def test_state_format_expansion_example_loads_and_plays_on() -> None:
    """The expansion example of docs/state-format.md loads as described, and plays to the end."""
    doc = _doc_example()
    original = copy.deepcopy(doc)
    game = Game.from_json(doc)
    assert doc == original
    state = game.position()
    assert game.pending is not None and game.pending.seat == 1 and game.pending.kind is DecisionKind.PLACE_FOLLOWER
    assert state.officials[Official.PRINCEPS] == 1 and state.officials[Official.MATRONA] == 0
    assert state.emperor_up == 7 and state.matrona_tiles == [4, 9] and state.players[2].emperor_tiles == [2]
    assert state.players[1].patrons == 1
    check_expansion_holdings(state)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        check_expansion_holdings(game.position())


# --- refused documents -------------------------------------------------------------------------------------


def _player(seat: int, **keys: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["players"][seat].update(keys)


def _top(**keys: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.update(keys)


def _both(*mods: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(d: dict[str, Any]) -> None:
        for mod in mods:
            mod(d)

    return apply


def _base(d: dict[str, Any]) -> None:
    d["config"].pop("expansion")
    d["config"]["victory_card"] = "alea_long"


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("extra slave copy", _player(0, hand=["nubian:1", "nubian:1"]), "cards:"),
    ("unknown slave", _player(0, hand=["nubian:9"]), "players[0].hand[0]:"),
    ("augur cards without augur", _top(augur_cards=["greek:1"]), "augur_cards:"),
    ("unknown augur card", _top(augur_cards=["romans:1"], officials={"augur": 0}), "augur_cards[0]:"),
    ("tile in two places", _both(_top(emperor_up=3), _player(0, emperor_tiles=[3])), "emperor_up:"),
    ("tile twice for a player", _player(1, emperor_tiles=[4, 4]), "players[1].emperor_tiles[1]:"),
    ("unknown tile", _top(matrona_tiles=[42], officials={"matrona": 0}), "matrona_tiles[0]:"),
    ("tile as text", _player(0, emperor_tiles=["3"]), "players[0].emperor_tiles[0]:"),
    ("explicit pile missing tiles", _top(emperor_pile=[1, 2, 3], emperor_up=4), "emperor_pile:"),
    ("pile not a list", _top(emperor_pile="shuffled"), "emperor_pile:"),
    ("matrona tiles without matrona", _top(matrona_tiles=[2]), "matrona_tiles:"),
    ("official holder out of range", _top(officials={"augur": 3}), "officials.augur:"),
    ("two officials for one player", _top(officials={"augur": 0, "princeps": 0}), "officials:"),
    ("unknown official", _top(officials={"consul": 0}), "officials:"),
    ("unknown chosen official", _top(officials_chosen=["consul"]), "officials_chosen[0]:"),
    ("official chosen twice", _top(officials_chosen=["augur", "augur"]), "officials_chosen:"),
    ("patrons above the limit", _player(1, patrons=2), "players[1].patrons:"),
    ("negative patrons", _player(1, patrons=-1), "players[1].patrons:"),
    ("placements above the princeps'", _top(placed_this_turn=3), "placed_this_turn:"),
    ("blocked without tribunus", _top(benefit_blocked=["senators"]), "benefit_blocked:"),
    (
        "three blocked factions",
        _top(benefit_blocked=["senators", "legates", "vestals"], officials={"tribunus_plebis": 0}),
        "benefit_blocked:",
    ),
    ("two followers of one player on IX", _top(followers={"refugium:1": 0, "refugium:2": 0}), "followers:"),
    ("expansion space skipped", _top(followers={"capitoleum:2": 1}), "followers:"),
    ("version 2 without expansion", _both(_base, _top(version=2)), "format:"),
    ("expansion as version 1", _top(version=1), "version:"),
    ("expansion not a boolean", lambda d: d["config"].update(expansion="yes"), "config.expansion:"),
    ("expansion key in a base document", _both(_base, _top(officials={})), "officials:"),
    ("player expansion key in a base document", _both(_base, _player(0, patrons=0)), "players[0].patrons:"),
    ("expansion phase in a base document", _both(_base, _top(phase="preparation")), "phase:"),
    (
        "expansion decision in a base document",
        _both(_base, _top(pending={"kind": "basilica_claim", "seat": 0}, agenda=[["round_end"]])),
        "pending.kind:",
    ),
    (
        "expansion step in a base document",
        _both(_base, _top(phase="chariot_auction", agenda=[["preparation"], ["round_end"]])),
        "agenda[0]:",
    ),
    ("slave card in a base document", _both(_base, _player(0, hand=["greek:2"])), "players[0].hand[0]:"),
    ("expansion space in a base document", _both(_base, _top(followers={"refugium:1": 0})), "followers:"),
]


@pytest.mark.parametrize(("mod", "field"), [(m, f) for _, m, f in BAD], ids=[i for i, _, _ in BAD])
def test_bad_expansion_document_is_refused_naming_the_field(mod: Callable[[dict[str, Any]], None], field: str) -> None:
    """A refused load names the field first and changes nothing: neither the document nor a loaded game."""
    doc = _minimal()
    mod(doc)
    before = copy.deepcopy(doc)
    reference = Game.from_json(_minimal(chance=9))
    reference_doc = reference.to_json()
    for source in (doc, json.dumps(doc)):
        with pytest.raises(InvalidStateError) as info:
            Game.from_json(source)
        assert str(info.value).startswith(field), str(info.value)
    assert doc == before
    assert reference.to_json() == reference_doc
    assert Game.from_json(_minimal(chance=9)).to_json() == reference_doc


# --- hidden information (R1, R35, R39) ---------------------------------------------------------------------


def redeal(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` with everything hidden from ``seat`` moved (written from the rules, not from view.py):
    other hands, the piles, face-down fields, others' staged cards, the Augur's drawn cards (unless ``seat`` is the
    Augur, R39) and the emperor pile order (R35)."""
    other = state.clone()
    pending = other.pending
    slots: list[list[int]] = [other.draw, other.discard, *face_down_fields(other, seat)]
    if other.staged and (pending is None or pending.seat != seat):
        slots.append(other.staged)
    if other.augur_cards and other.officials[AUGUR] != seat:
        slots.append(other.augur_cards)
    hands = {s: p.hand_size for s, p in enumerate(other.players) if s != seat}
    pool = [c for slot in slots for c in slot]
    pool += [c for s in hands for c, n in enumerate(other.players[s].hand) for _ in range(n)]
    pairs = [i for i, (s, _, _) in enumerate(other.pairs) if s != seat]
    pool += [c for i in pairs for c in other.pairs[i][1:]]
    rng.shuffle(pool)
    for slot in slots:
        slot[:] = [pool.pop() for _ in slot]
    for s, size in hands.items():
        hand = [0] * len(other.players[s].hand)
        for _ in range(size):
            hand[pool.pop()] += 1
        other.players[s].hand = hand
    for i in pairs:
        other.pairs[i] = (other.pairs[i][0], pool.pop(), pool.pop())
    rng.shuffle(other.emperor_pile)
    return other


def _interesting_states(players: int, seed: int) -> list[GameState]:
    """States along a random game: every 9th decision and every expansion decision."""
    _, _, games = play(players, seed, round_limit=15)
    return [
        g.position() for i, g in enumerate(games) if i % 9 == 0 or (g.pending is not None and g.pending.kind.expansion)
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_expansion_views_ignore_hidden_things(players: int) -> None:
    """Two states that differ only in things hidden from a seat give that seat the same view (R1, R35, R39)."""
    rng = random.Random(players)
    moved_pile = False
    for state in _interesting_states(players, 40 + players):
        for seat in range(players):
            other = redeal(state, seat, rng)
            moved_pile |= other.emperor_pile != state.emperor_pile
            assert player_view(other, seat) == player_view(state, seat)
            assert Game(other).render(seat) == Game(state).render(seat)
    assert moved_pile


def test_augur_cards_are_seen_by_the_augur_only() -> None:
    """R39: the Augur's drawn cards are his alone; the others see how many there are."""
    for seed in range(30):
        for game in play(3, 200 + seed, round_limit=15)[2]:
            pending = game.pending
            if pending is None or pending.kind is not DecisionKind.AUGUR_DISCARD:
                continue
            state = game.position()
            augur = state.officials[AUGUR]
            assert augur == pending.seat and state.augur_cards
            for seat in range(3):
                shown = player_view(state, seat).augur_cards
                if seat == augur:
                    assert shown == tuple(state.augur_cards)
                else:
                    assert shown == (HIDDEN,) * len(state.augur_cards)
            sample = resample(state, (augur + 1) % 3, random.Random(1))
            assert len(sample.augur_cards) == len(state.augur_cards)
            assert resample(state, augur, random.Random(1)).augur_cards == state.augur_cards
            return
    pytest.skip("no Augur discard reached in these games")


def test_view_shows_the_public_expansion_pieces() -> None:
    game = Game.from_json(_doc_example())
    view = game.view(2)
    state = game.position()
    assert view.expansion and view.officials == tuple(state.officials)
    assert view.emperor_up == 7 and view.emperor_pile_size == len(state.emperor_pile)
    assert view.matrona_tiles == (4, 9)
    assert view.players[2].emperor_tiles == (2,) and view.players[1].patrons == 1
    assert not Game.new(players=3, seed=1).view(0).expansion


@pytest.mark.parametrize("players", [2, 4])
def test_resample_re_deals_everything_hidden_and_depends_only_on_the_view(players: int) -> None:
    """A sample keeps the seat's view, every count and every tile; re-dealing the hidden things of the true state
    first gives the very same sample; the emperor pile order is dealt afresh (R35)."""
    changed_pile = False
    for k, state in enumerate(_interesting_states(players, 60 + players)[::3]):
        for seat in range(players):
            sample = resample(state, seat, random.Random(k))
            assert sample.card_counts() == state.card_counts()
            assert sorted(sample.emperor_pile) == sorted(state.emperor_pile)
            assert player_view(sample, seat) == player_view(state, seat)
            changed_pile |= sample.emperor_pile != state.emperor_pile
            other = resample(redeal(state, seat, random.Random(k + 1)), seat, random.Random(k))
            assert state_to_json(other) == state_to_json(sample)
    assert changed_pile


def test_samples_continue_as_legal_expansion_games() -> None:
    for state in _interesting_states(3, 77)[::10]:
        game = Game(resample(state, 0, random.Random(0)))
        rng = random.Random(1)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        check_expansion_holdings(game.position())


# --- readable text -----------------------------------------------------------------------------------------


def test_render_shows_the_expansion_board() -> None:
    text = Game.from_json(_doc_example()).render(0)
    assert "refugium       followers [1:P0, 2:-, 3:-]" in text
    assert "face up #7 (patron + pay 12)" in text and "pile 6" in text
    assert "Matrona's #4 (most legions + most denarii) #9 (scroll + pay 12)" in text
    assert "Princeps P1" in text and "Matrona P0" in text and "Augur Capitoleum" in text
    assert "patrons 1, emperor tiles -" in text and "patrons 0, emperor tiles #2" in text
    assert "emperor" not in Game.new(players=3, seed=0).render()


def test_expansion_actions_are_described_and_written_readably() -> None:
    """ChooseTile/ChooseOfficial get names from the components; every legal action's text round-trips."""
    described = {ChooseTile: False, ChooseOfficial: False}
    for seed in range(4):
        for game in play(3, 300 + seed, round_limit=12)[2]:
            for action in game.legal_actions():
                assert parse_action(action_text(action)) == action
                label = game.describe(action)
                assert not label.startswith(type(action).__name__), label
                if isinstance(action, ChooseTile | ChooseOfficial):
                    described[type(action)] = True
    game = Game.new(players=3, seed=0, expansion=True)
    assert game.describe(ChooseTile(2)) == "claim the favor of the emperor tile #2 (patron + most laurels)"
    assert game.describe(ChooseOfficial(int(Official.TRIBUNUS_PLEBIS))) == "choose the Tribunus Plebis"
    assert game.describe(ChooseTile(99)) == repr(ChooseTile(99))
    assert described[ChooseOfficial]


def test_phases_of_expansion_documents() -> None:
    """A hand-written expansion position may start at the expansion phases (R35)."""
    for phase in ("expansion_evaluation", "preparation"):
        game = Game.from_json(_minimal(phase=phase))
        assert game.position().round >= 1
        check_expansion_holdings(game.position())
    assert Phase.PREPARATION.expansion
