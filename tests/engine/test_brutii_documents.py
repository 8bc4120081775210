"""Documents, determinization and text of games with the Brutii (R42-R54, E76-E107).

Round trips at every decision of random Brutii games at 5 and 6 seats, hand-written Brutii positions with their
defaults, a refused document for each rule the reader checks (naming the field), fuzzed Brutii documents (a clear
error or a game that plays on, never a crash), samples of the hidden information that keep everything public, and
the words of every Brutii decision in the board text, the action labels and the action notation.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given, note
from hypothesis import strategies as st
from test_expansion_documents import check_expansion_holdings, redeal
from test_expansion_documents import play as play_expansion
from test_fuzz_documents import Mutator, check_from_json, fuzz, short

from tribune_env import DecisionKind, Game, Phase, default_components
from tribune_env.data import BrutiiCard, BrutiiDisc, Faction, Region
from tribune_env.engine.actions import (
    ChooseActionCard,
    ChooseOption,
    ChooseRegion,
    Commit,
    Decline,
    choose_action_card,
    choose_region,
)
from tribune_env.engine.brutii_ops import REGION_CARDS, TAKEOVER_OPTION, through_a_card
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS
from tribune_env.engine.determinize import resample
from tribune_env.engine.errors import InvalidStateError
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.registry import DECISIONS, option_labels
from tribune_env.engine.rounds import round_tasks
from tribune_env.engine.serialize import state_to_json
from tribune_env.engine.state import OPTED_OUT, GameState
from tribune_env.engine.tables import tables_for
from tribune_env.engine.view import player_view

EXPANSION_TABLES = tables_for(default_components(), expansion=True)
SEAT = 2  # the Brutii of the hand-written positions
SEAT_COUNTS = (5, 6)  # R42


def play(
    players: int, seed: int, round_limit: int = 6, brutii_seat: int | None = None
) -> tuple[Game, list[Any], list[Game]]:
    """A random Brutii game: the final game, its actions, and the game at each decision (as clones)."""
    return play_expansion(players, seed, round_limit, brutii=True, brutii_seat=brutii_seat)


@functools.cache
def _games() -> tuple[Game, ...]:
    """Decisions of random Brutii games at 5 and 6 seats (shared by the tests below; never changed by them)."""
    out: list[Game] = []
    for players in SEAT_COUNTS:
        for seed in range(4):
            out.extend(play(players, 40 + seed, round_limit=12)[2])
    return tuple(out)


def find(predicate: Callable[[Game], bool]) -> Game:
    """A clone of the first decision of :func:`_games` that satisfies ``predicate``."""
    for game in _games():
        if predicate(game):
            return game.clone()
    raise AssertionError("no such decision in the sample games")


def asking(kind: DecisionKind) -> Callable[[Game], bool]:
    """The predicate: ``kind`` is pending."""
    return lambda game: game.pending is not None and game.pending.kind is kind


def brutii_pending(game: Game) -> bool:
    pending = game.pending
    return pending is not None and pending.seat == game.position().brutii


# --- round trips ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", SEAT_COUNTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_brutii_round_trip_at_every_decision_continues_identically(players: int, seed: int) -> None:
    """R42-R54: at every decision, to_json -> JSON text -> from_json gives the same document; from a dozen of them
    the same actions end in the same final document as the original game and as a clone."""
    final, actions, states = play(players, seed)
    final_doc = final.to_json()
    assert final_doc["config"]["brutii"] is True and final_doc["version"] == 2
    for i, game in enumerate(states):
        doc = game.to_json()
        loaded = Game.from_json(json.dumps(doc))
        assert loaded.to_json() == doc, f"decision {i}"
    step = max(1, len(states) // 12)
    for i in [*range(0, len(states), step), len(states) - 1]:
        loaded = Game.from_json(json.dumps(states[i].to_json()))
        check_expansion_holdings(loaded.position())
        clone = states[i].clone()
        for action in actions[i:]:
            loaded.apply(action)
            clone.apply(action)
        assert loaded.to_json() == final_doc, f"decision {i}"
        assert clone.to_json() == final_doc, f"decision {i}"


def _kind_key(game: Game) -> str:
    pending = game.pending
    assert pending is not None
    return pending.kind.key + (" (through a card)" if through_a_card(game.position(), pending) else "")


def test_every_brutii_decision_met_round_trips() -> None:
    """Each decision the Brutii takes (his own kinds, acting at a location through a card, the proconsul, the
    chariot choice) is written and read back identically."""
    seen: set[str] = set()
    for game in _games():
        if brutii_pending(game) and _kind_key(game) not in seen:
            seen.add(_kind_key(game))
            doc = game.to_json()
            assert Game.from_json(doc).to_json() == doc
    assert {k.key for k in BRUTII_DECISION_KINDS} <= seen
    assert {"chariot_bid", "place_follower", "official_choice (through a card)"} <= seen


def test_the_document_holds_the_brutii_public_state_by_keys() -> None:
    """R45, R46, R54: seat, turns, revealed discs, played cards (keys), options 1/2, the vetoed region's key."""
    game = find(lambda g: g.position().veto >= 0 and min(g.position().brutii_options) >= 0)
    state = game.position()
    raw = game.to_json()["brutii"]
    assert raw["seat"] == state.brutii and raw["turns"] == state.brutii_turns
    assert raw["revealed"] == [BrutiiDisc(d).key for d in state.brutii_revealed]
    assert raw["played"] == [BrutiiCard(c).key for c in state.brutii_played]
    assert raw["options"] == {"cards": state.brutii_options[0] + 1, "takeover": state.brutii_options[1] + 1}
    assert raw["veto"] == Region(state.veto).key


def test_the_chariot_opt_out_round_trips() -> None:
    """R49: the Brutii's sealed opt-out is written as -2 in ``bids`` and read back as the opt-out."""
    game = find(lambda g: OPTED_OUT in g.position().bids)
    doc = game.to_json()
    assert doc["bids"][game.position().brutii] == OPTED_OUT
    loaded = Game.from_json(json.dumps(doc))
    assert loaded.position().bids == game.position().bids and loaded.to_json() == doc


def test_a_drawn_brutii_seat_round_trips_as_null() -> None:
    """R43: without a configured seat, config.brutii_seat is null and brutii.seat holds the drawn seat."""
    game = Game.new(players=6, seed=11, expansion=True, brutii=True)
    doc = game.to_json()
    assert doc["config"]["brutii_seat"] is None and doc["brutii"]["seat"] == game.position().brutii
    assert Game.from_json(doc).to_json() == doc
    fixed = Game.new(players=5, seed=11, expansion=True, brutii=True, brutii_seat=4).to_json()
    assert fixed["config"]["brutii_seat"] == 4 and fixed["brutii"]["seat"] == 4


# --- hand-written positions -----------------------------------------------------------------------------------


def _minimal(**top: Any) -> dict[str, Any]:
    config = {"players": 5, "victory_card": "sic_transit", "expansion": True, "brutii": True, "brutii_seat": SEAT}
    doc: dict[str, Any] = {"config": config, "players": [{} for _ in range(5)]}
    doc.update(top)
    return doc


def test_minimal_brutii_position_gets_every_default_and_plays_on() -> None:
    """R43: the seat from the config; nothing revealed or played; the game plays to its end."""
    game = Game.from_json(_minimal())
    state = game.position()
    assert state.brutii == SEAT and state.config.brutii and state.config.followers == 6
    assert game.phase is Phase.FOLLOWER_PLACEMENT  # the round went on to the first placement
    assert len(state.brutii_revealed) + state.brutii_turns == state.config.followers  # R44
    assert (state.brutii_options, state.veto) == ([-1, -1], -1)
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    check_expansion_holdings(game.position())


def test_brutii_seat_may_be_given_in_the_brutii_key_only() -> None:
    doc = _minimal(brutii={"seat": 4})
    del doc["config"]["brutii_seat"]
    game = Game.from_json(doc)
    assert game.position().brutii == 4 and game.position().config.brutii_seat is None


def test_the_proconsul_lets_the_brutii_stand_on_a_region() -> None:
    """R44 (proconsul special case): the Brutii holding the proconsul stands on one region space."""
    game = Game.from_json(_minimal(phase="region_evaluation", proconsul=SEAT, followers={"curia:1": SEAT}))
    assert game.position().brutii == SEAT


def test_hand_written_phase_two_turns_are_played() -> None:
    """R44: turns left in phase 2 are taken as disc reveals."""
    doc = _minimal(phase="follower_placement", brutii={"turns": 2, "revealed": ["cross", "arrow"], "played": ["veto"]})
    game = Game.from_json(doc)
    assert game.position().brutii_played[0] == BrutiiCard.VETO
    rng = random.Random(1)
    while game.phase is Phase.FOLLOWER_PLACEMENT:
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.position().brutii_revealed) == 4 and game.position().brutii_turns == 0


# --- refused documents -----------------------------------------------------------------------------------------


def _brutii(**keys: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.setdefault("brutii", {}).update(keys)


def _top(**keys: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.update(keys)


def _player(seat: int, **keys: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["players"][seat].update(keys)


def _config(**keys: Any) -> Callable[[dict[str, Any]], None]:
    def apply(d: dict[str, Any]) -> None:
        for key, value in keys.items():
            if value is None:
                d["config"].pop(key, None)
            else:
                d["config"][key] = value

    return apply


def _both(*mods: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def apply(d: dict[str, Any]) -> None:
        for mod in mods:
            mod(d)

    return apply


_NO_BRUTII = _config(brutii=None, brutii_seat=None)
_PHASE2 = _top(phase="follower_placement")
_PHASE3 = _top(phase="region_evaluation")
_PHASE4 = _top(phase="takeovers")


def _phase2_agenda() -> list[list[Any]]:
    """The rest of a round from phase 2 of the minimal position, as a document's agenda (top first)."""
    state = Game.from_json(_minimal()).position()
    return [list(t) for t in round_tasks(state, resume_from=Phase.FOLLOWER_PLACEMENT)]


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    # the cards and discs (R44, E81)
    (
        "card played twice",
        _both(_PHASE3, _brutii(revealed=["arrow", "arrow"], played=["veto", "veto"])),
        "brutii.played:",
    ),
    ("unknown action card", _both(_PHASE3, _brutii(revealed=["arrow"], played=["sword"])), "brutii.played[0]:"),
    ("played not a list", _brutii(played="veto"), "brutii.played:"),
    ("unknown disc", _both(_PHASE2, _brutii(revealed=["star"])), "brutii.revealed[0]:"),
    (
        "more discs than the component file",
        _both(_PHASE2, _brutii(revealed=["arrow_follower"] * 2)),
        "brutii.revealed:",
    ),
    ("turns beyond the table", _both(_PHASE2, _brutii(turns=6, revealed=["cross"])), "brutii.turns:"),
    ("turns above a round's", _both(_PHASE2, _brutii(turns=7)), "brutii.turns:"),
    ("turns outside phase 2", _both(_PHASE3, _brutii(turns=1)), "brutii.turns:"),
    ("disc revealed in phase 1", _both(_top(phase="card_placement"), _brutii(revealed=["cross"])), "brutii.revealed:"),
    (
        "more cards than arrows",
        _both(_PHASE3, _brutii(revealed=["cross", "arrow"], played=["veto", "cards"])),
        "brutii.played:",
    ),
    ("card without a disc", _both(_PHASE3, _brutii(played=["denarii"])), "brutii.played:"),
    ("unknown key", _brutii(hand=[]), "brutii:"),
    ("brutii not an object", _top(brutii=[SEAT]), "brutii:"),
    # the options (R46)
    (
        "option of an unplayed card",
        _both(_PHASE4, _brutii(revealed=["arrow"], played=["veto"], options={"cards": 1})),
        "brutii.options.cards:",
    ),
    (
        "option 3",
        _both(_PHASE4, _brutii(revealed=["arrow"], played=["cards"], options={"cards": 3})),
        "brutii.options.cards:",
    ),
    (
        "option 0",
        _both(_PHASE4, _brutii(revealed=["arrow"], played=["cards"], options={"cards": 0})),
        "brutii.options.cards:",
    ),
    (
        "option before its phase",
        _both(_PHASE3, _brutii(revealed=["arrow"], played=["faction_takeover"], options={"takeover": 1})),
        "brutii.options.takeover:",
    ),
    ("option of a card without options", _brutii(options={"veto": 1}), "brutii.options:"),
    # the veto (R54)
    ("veto without the card", _both(_PHASE3, _brutii(veto="curia")), "brutii.veto:"),
    (
        "unknown vetoed region",
        _both(_PHASE3, _brutii(revealed=["arrow"], played=["veto"], veto="rome")),
        "brutii.veto:",
    ),
    # the seat (R43)
    ("seat other than the config's", _brutii(seat=1), "brutii.seat:"),
    ("no seat", _config(brutii_seat=None), "brutii.seat:"),
    ("seat out of range", _both(_config(brutii_seat=None), _brutii(seat=5)), "brutii.seat:"),
    ("config seat out of range", _config(brutii_seat=5), "config:"),
    ("config seat as text", _config(brutii_seat="2"), "config:"),
    # the kind of document (R42)
    ("brutii key without the Brutii", _both(_NO_BRUTII, _top(brutii={"seat": 1})), "brutii:"),
    (
        "Brutii seat without the expansion",
        _both(_NO_BRUTII, _config(expansion=None, brutii_seat=1)),
        "config.brutii_seat:",
    ),
    ("Brutii at four seats", lambda d: d.update(players=[{}] * 4, config={**d["config"], "players": 4}), "config:"),
    ("Brutii not a boolean", _config(brutii="yes"), "config:"),
    (
        "Brutii decision without the Brutii",
        _both(_NO_BRUTII, _top(pending={"kind": "brutii_card", "seat": 0}, agenda=[["round_end"]])),
        "pending.kind:",
    ),
    (
        "Brutii step without the Brutii",
        _both(
            _NO_BRUTII,
            _top(phase="chariot_auction", agenda=[["mass_murder"], ["chariot"], ["preparation"], ["round_end"]]),
        ),
        "agenda[0]:",
    ),
    # the agenda's Brutii steps
    (
        "action card out of range in a step",
        _both(
            _top(phase="chariot_auction", agenda=[["brutii_option", 12], ["chariot"], ["preparation"], ["round_end"]])
        ),
        "agenda[0][1]:",
    ),
    (
        "card field out of range in a step",
        _both(
            _top(
                phase="chariot_auction", agenda=[["brutii_slave", 0, 9, 0], ["chariot"], ["preparation"], ["round_end"]]
            )
        ),
        "agenda[0][2]:",
    ),
    (
        "Brutii decision without its card",
        lambda d: d.update(
            phase="follower_placement", agenda=_phase2_agenda(), pending={"kind": "brutii_legion", "seat": SEAT}
        ),
        "brutii.played:",
    ),
    (
        "Brutii decision for a family",
        lambda d: d.update(
            phase="follower_placement", agenda=_phase2_agenda(), pending={"kind": "brutii_card", "seat": 0}
        ),
        "pending.seat:",
    ),
    # the chariot opt-out (R49)
    ("a family opts out", _top(bids=[OPTED_OUT, -1, -1, -1, -1]), "bids[0]:"),
    ("below the opt-out", _top(bids=[-1, -1, OPTED_OUT - 1, -1, -1]), "bids[2]:"),
    ("opt-out without an auction", _top(bids=[-1, -1, OPTED_OUT, -1, -1]), f"bids[{SEAT}]:"),
    (
        "opt-out outside the chariot auction",
        lambda d: d.update(phase="follower_placement", agenda=_phase2_agenda(), bids=[-1, -1, OPTED_OUT, -1, -1]),
        "bids:",
    ),
    # no followers but the proconsul (R43, R44, R48)
    ("followers without the proconsul", _both(_PHASE2, _player(SEAT, followers=1)), f"players[{SEAT}].followers:"),
    (
        "two followers with the proconsul",
        _both(_PHASE2, _top(proconsul=SEAT), _player(SEAT, followers=2)),
        f"players[{SEAT}].followers:",
    ),
    ("on a region without the proconsul", _both(_PHASE3, _top(followers={"curia:1": SEAT})), "followers:"),
    (
        "on two regions with the proconsul",
        _both(_PHASE3, _top(proconsul=SEAT, followers={"curia:1": SEAT, "forum:1": SEAT})),
        "followers:",
    ),
    ("on a faction outside a take-over", _both(_PHASE4, _top(followers={"faction:senators:1": SEAT})), "followers:"),
    ("on the coin bowl without the proconsul", _both(_PHASE3, _top(coin_bowl=[SEAT])), "followers:"),
]


@pytest.mark.parametrize(("mod", "field"), [(m, f) for _, m, f in BAD], ids=[i for i, _, _ in BAD])
def test_bad_brutii_document_is_refused_naming_the_field(mod: Callable[[dict[str, Any]], None], field: str) -> None:
    """Every rule the reader checks for the Brutii, with a document that breaks only it: refused with the field's
    path first, and the document unchanged."""
    doc = _minimal()
    mod(doc)
    before = copy.deepcopy(doc)
    for source in (doc, json.dumps(doc)):
        with pytest.raises(InvalidStateError) as info:
            Game.from_json(source)
        assert str(info.value).startswith(field), str(info.value)
    assert doc == before


def test_the_bad_documents_break_one_rule_each() -> None:
    """The refused documents above differ from accepted ones only in the broken rule."""
    accepted = [
        _both(_PHASE3, _brutii(revealed=["arrow", "arrow"], played=["veto", "cards"])),
        _both(_PHASE2, _brutii(turns=5, revealed=["cross"])),
        _both(_PHASE4, _brutii(revealed=["arrow"], played=["cards"], options={"cards": 2})),
        # after phase 4: a document starting phase 4 itself has the option still to choose (it was asked again, and
        # the game's own document was refused: issue 25)
        _both(
            _top(phase="faction_benefits"),
            _brutii(revealed=["arrow"], played=["faction_takeover"], options={"takeover": 1}),
        ),
        _both(_PHASE4, _brutii(revealed=["arrow"], played=["faction_takeover"])),
        _both(_PHASE3, _brutii(revealed=["arrow"], played=["veto"], veto="curia")),
        _both(_PHASE2, _top(proconsul=SEAT), _player(SEAT, followers=1)),
        _both(_PHASE3, _top(proconsul=SEAT, followers={"forum:1": SEAT})),
        _both(_PHASE4, _top(proconsul=SEAT, followers={"faction:senators:1": SEAT})),
        _both(_PHASE3, _top(proconsul=SEAT, coin_bowl=[SEAT])),
    ]
    for mod in accepted:
        doc = _minimal()
        mod(doc)
        Game.from_json(doc)


def _stand(game: Game) -> tuple[int, int] | None:
    """(faction, space) where the Brutii stands for the take-over under way (R48), found from the rules."""
    state = game.position()
    option = state.brutii_options[TAKEOVER_OPTION]
    if state.phase is not Phase.TAKEOVERS or option < 0 or state.proconsul == state.brutii:
        return None
    for faction, ids in enumerate(state.tables.faction_spaces):
        under_way = ("end_takeover", faction) in state.agenda and ("takeover", faction) not in state.agenda
        if under_way and state.spaces[ids[option]] == state.brutii and state.brutii not in state.coin_bowl:
            return faction, ids[option]
    return None


def test_the_take_over_stand_is_accepted_only_where_it_stands() -> None:
    """R48: in phase 4 the Brutii with Faction Take-Over stands on "1" (option 1) or "2" (option 2) of the faction
    whose take-over is under way; the same follower under the other option, or on another faction, is refused."""
    game = find(lambda g: _stand(g) is not None and sum(s == g.position().brutii for s in g.position().spaces) == 1)
    found = _stand(game)
    assert found is not None
    faction, space = found
    doc = game.to_json()
    assert Game.from_json(doc).to_json() == doc
    other = copy.deepcopy(doc)
    option = other["brutii"]["options"]["takeover"]
    other["brutii"]["options"]["takeover"] = 3 - option
    with pytest.raises(InvalidStateError, match=r"^followers: the Brutii"):
        Game.from_json(other)
    state = game.position()
    later = [
        f
        for f in Faction
        if f > faction and state.chariot != f and all(state.spaces[s] < 0 for s in state.tables.faction_spaces[f])
    ]
    if later and option == 1:
        moved = copy.deepcopy(doc)
        label = game.tables.spaces[space].label
        moved["followers"].pop(label)
        moved["followers"][f"faction:{later[-1].key}:1"] = game.position().brutii
        with pytest.raises(InvalidStateError, match=r"^followers: the Brutii"):
            Game.from_json(moved)


# --- fuzzing ---------------------------------------------------------------------------------------------------


@functools.cache
def _saved_brutii_text(players: int, seed: int, steps: int) -> str:
    game = Game.new(players=players, seed=seed, expansion=True, brutii=True, round_limit=8)
    rng = random.Random(seed * 1000 + steps)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return json.dumps(game.to_json(), separators=(",", ":"))


class BrutiiMutator(Mutator):
    """Adds mutations aimed at the Brutii's pieces: his key, his bid, his followers."""

    def __init__(self, data: st.DataObject, doc: dict[str, Any], log: list[str]) -> None:
        super().__init__(data, doc, len(doc["players"]), log)
        # the seat before any mutation
        self.brutii_seat = doc["brutii"]["seat"] if "brutii" in doc else doc["config"]["brutii_seat"]

    def brutii(self) -> None:
        doc = self.doc
        raw = doc.get("brutii")
        if not isinstance(raw, dict):
            raw = {}
            doc["brutii"] = raw
        key = self.draw(st.sampled_from(["seat", "turns", "revealed", "played", "options", "veto", "bid", "follower"]))
        cards = [c.key for c in BrutiiCard]
        values: dict[str, st.SearchStrategy[Any]] = {
            "seat": st.integers(-1, self.players + 1),
            "turns": st.integers(-1, 7),
            "revealed": st.lists(st.sampled_from([d.key for d in BrutiiDisc] + ["x"]), max_size=7),
            "played": st.lists(st.sampled_from([*cards, "x"]), max_size=5),
            "options": st.fixed_dictionaries(
                {}, optional={"cards": st.sampled_from([None, 0, 1, 2, 3]), "takeover": st.sampled_from([None, 1, 2])}
            ),
            "veto": st.sampled_from([None, "curia", "capitoleum", "rome", 3]),
        }
        if key in values:
            value = self.draw(values[key])
            raw[key] = value
            self.record(f"set brutii.{key} = {short(value)}")
        elif key == "bid" and isinstance(doc.get("bids"), list) and doc["bids"]:
            i = self.draw(st.integers(0, len(doc["bids"]) - 1))
            self.set(("bids", i), self.draw(st.sampled_from([OPTED_OUT, OPTED_OUT - 1, -1, 0, 3])))
        elif key == "follower":
            labels = [s.label for s in EXPANSION_TABLES.spaces if s.label != "coin_bowl"]
            followers = doc.setdefault("followers", {})
            if isinstance(followers, dict):
                label = self.draw(st.sampled_from(labels))
                followers[label] = self.brutii_seat
                self.record(f"set followers.{label} = the Brutii")

    def any(self) -> None:
        if self.draw(st.integers(0, 2), "Brutii mutation?") == 0:
            self.brutii()
        else:
            super().any()


saved_brutii_games = st.tuples(
    st.sampled_from(SEAT_COUNTS), st.integers(0, 2), st.sampled_from([0, 1, 30, 120, 300, 600])
)


@fuzz(50)
@given(origin=saved_brutii_games, data=st.data(), n=st.integers(1, 3), play_seed=st.integers(0, 2**16))
def test_mutated_brutii_documents_get_a_clear_error_or_play_on(
    origin: tuple[int, int, int], data: st.DataObject, n: int, play_seed: int
) -> None:
    """Random mutations of saved Brutii games: from_json raises InvalidStateError or the game plays on, is saved and
    read back; it never crashes and never changes its input."""
    doc = json.loads(_saved_brutii_text(*origin))
    log = [f"saved Brutii game {origin}"]
    note(f"document: {origin}: round {doc['round']}, phase {doc['phase']}, pending {doc['pending']}")
    mutator = BrutiiMutator(data, doc, log)
    for _ in range(n):
        mutator.any()
    game = check_from_json(doc, log, play_seed, as_text=data.draw(st.booleans(), "as JSON text"))
    event("loaded" if game is not None else "refused")


@fuzz(40)
@given(data=st.data(), n=st.integers(0, 3), play_seed=st.integers(0, 2**16))
def test_mutated_minimal_brutii_documents_get_a_clear_error_or_play_on(
    data: st.DataObject, n: int, play_seed: int
) -> None:
    doc = _minimal(phase=data.draw(st.sampled_from([p.name.lower() for p in Phase])))
    log = [short(doc)]
    mutator = BrutiiMutator(data, doc, log)
    for _ in range(n):
        mutator.any()
    game = check_from_json(doc, log, play_seed)
    event("loaded" if game is not None else "refused")


# --- determinization (R45, R49) --------------------------------------------------------------------------------


def redeal_brutii(state: GameState, seat: int, rng: random.Random) -> GameState:
    """:func:`redeal` (everything hidden from ``seat`` moved, written from the rules) plus the Brutii's sealed
    chariot choice made anew (R49: bid or opt-out, hidden like a bid)."""
    other = redeal(state, seat, rng)
    brutii = other.brutii
    if seat != brutii and other.bids[brutii] != -1 and ("chariot_resolve",) in other.agenda:
        other.bids[brutii] = rng.choice([OPTED_OUT, *range(other.players[brutii].money + 1)])
    return other


def _sample_states() -> list[GameState]:
    """Every 11th decision and every decision of the Brutii, or while his chariot choice is sealed."""
    return [
        g.position()
        for i, g in enumerate(_games())
        if i % 11 == 0 or brutii_pending(g) or g.position().bids[g.position().brutii] != -1
    ][::3]


def test_resample_keeps_everything_public_and_depends_only_on_the_view() -> None:
    """R45: a sample keeps each seat's view (the Brutii's seat, discs, cards, options and veto included), every
    card count and the emperor tiles; re-dealing the hidden things first gives the very same sample."""
    for k, state in enumerate(_sample_states()):
        for seat in range(state.num_players):
            sample = resample(state, seat, random.Random(k))
            assert sample.card_counts() == state.card_counts()
            assert player_view(sample, seat) == player_view(state, seat)
            public = ("brutii", "brutii_turns", "brutii_revealed", "brutii_played", "brutii_options", "veto")
            assert [getattr(sample, f) for f in public] == [getattr(state, f) for f in public]
            other = resample(redeal_brutii(state, seat, random.Random(k + 1)), seat, random.Random(k))
            assert state_to_json(other) == state_to_json(sample)


def test_the_brutii_hand_and_sealed_choice_are_dealt_again_for_others_only() -> None:
    """R45: his hand (the Catacombs' cards in it) is private; R49: his opt-out is sealed like a bid. Other seats'
    samples vary both, his own keeps them."""
    state = find(lambda g: g.position().bids[g.position().brutii] == OPTED_OUT and g.pending is not None).position()
    brutii = state.brutii
    other_seat = (brutii + 1) % state.num_players
    choices, hands = set(), set()
    for k in range(40):
        sample = resample(state, other_seat, random.Random(k))
        choices.add(sample.bids[brutii] == OPTED_OUT)
        hands.add(tuple(sample.players[brutii].hand))
        own = resample(state, brutii, random.Random(k))
        assert own.bids[brutii] == OPTED_OUT and own.players[brutii].hand == state.players[brutii].hand
    assert choices == {True, False} and len(hands) > 1


def test_samples_of_brutii_games_continue_legally_and_read_back() -> None:
    """A sample is a game that plays to its end; where no other seat is in mid-choice it is also a valid document."""
    for k, state in enumerate(_sample_states()[::8]):
        seat = k % state.num_players
        sample = resample(state, seat, random.Random(k))
        if not sample.staged or (sample.pending is not None and sample.pending.seat == seat):
            doc = state_to_json(sample)
            assert state_to_json(Game.from_json(doc).position()) == doc
        game = Game(sample)
        rng = random.Random(k)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        check_expansion_holdings(game.position())


# --- words: board text, action labels, notation ----------------------------------------------------------------


def test_every_brutii_decision_is_shown_and_described_in_words() -> None:
    """Each decision the Brutii meets: the board names him and how he acts (through which card, R47; the
    proconsul, R44; the sealed chariot choice, R49); each legal choice has words (never a raw action) and a
    notation that reads back."""
    met: set[str] = set()
    for game in _games():
        if not brutii_pending(game):
            continue
        pending = game.pending
        assert pending is not None
        key = _kind_key(game)
        if key in met:
            continue
        met.add(key)
        text = game.render()
        assert f"Waiting for P{pending.seat}: {pending.kind.key}" in text and " (the Brutii" in text, key
        if key.endswith("(through a card)"):
            assert "through the action card" in text and "after the occupants" in text, text
        for action in game.legal_actions():
            words = game.describe(action)
            assert not words.startswith(type(action).__name__), (key, words)
            assert parse_action(action_text(action)) == action
    assert {k.key for k in BRUTII_DECISION_KINDS} <= met


def test_brutii_actions_have_their_own_words() -> None:
    """R44, R46, R49, R51, R54: the Brutii's choices read as what they do."""
    card = find(asking(DecisionKind.BRUTII_CARD))
    assert card.describe(choose_action_card(int(BrutiiCard.VETO))) == 'play the action card "veto"'
    assert card.describe(ChooseActionCard(99)) == repr(ChooseActionCard(99))
    veto = find(asking(DecisionKind.BRUTII_VETO))
    assert veto.describe(choose_region(int(Region.CURIA))).startswith("veto curia")
    assert veto.describe(choose_region(int(Region.FIELD_OF_MARS))).startswith("veto field of mars")
    legion = find(asking(DecisionKind.BRUTII_LEGION))
    rule = DECISIONS[DecisionKind.BRUTII_LEGION]
    assert legion.describe(Commit()) == rule.commit_words and legion.describe(Decline()) == rule.decline_words
    chariot = find(lambda g: brutii_pending(g) and asking(DecisionKind.CHARIOT_BID)(g))
    assert chariot.describe(Decline()).startswith("opt out of the chariot auction")
    family = find(lambda g: not brutii_pending(g) and asking(DecisionKind.CHARIOT_BID)(g))
    assert Decline() not in family.legal_actions()
    for kind in (DecisionKind.BRUTII_CARDS_OPTION, DecisionKind.BRUTII_TAKEOVER_OPTION):
        game = find(asking(kind))
        labels = option_labels(game.config.components, kind, -1)
        assert labels is not None
        assert [game.describe(ChooseOption(i)) for i in range(2)] == list(labels)
    assert action_text(ChooseRegion(10)) == "region:10" and parse_action("action_card:11") == ChooseActionCard(11)
    with pytest.raises(ValueError, match="action_card:N"):
        parse_action("action_card:1:2")


def test_board_text_shows_the_brutii_public_state() -> None:
    """R45: his seat, turns, revealed discs and face-down count, played and unplayed cards, options and veto, for
    everybody; a game without him shows none of it."""
    game = find(lambda g: g.position().veto >= 0 and min(g.position().brutii_options) >= 0)
    state = game.position()
    for seat in (None, state.brutii, (state.brutii + 1) % state.num_players):
        text = game.render(seat)
        assert f"  Brutii: P{state.brutii}; phase-2 turns left {state.brutii_turns}" in text
        assert f"  P{state.brutii} (Brutii): " in text
        assert f"veto: {Region(state.veto).key}" in text
        assert f"cards option {state.brutii_options[0] + 1}" in text
        assert f"faction takeover option {state.brutii_options[1] + 1}" in text
        played = ", ".join(BrutiiCard(c).key.replace("_", " ") for c in state.brutii_played)
        assert f"action cards played: {played}; unplayed: " in text
    spec = state.config.components.expansion
    assert spec is not None and spec.brutii is not None
    face_down = spec.brutii.disc_count - len(state.brutii_revealed)
    assert f"face down {face_down}" in game.render()
    assert "Brutii" not in Game.new(players=5, seed=0, expansion=True).render()


@pytest.mark.parametrize(
    "kind",
    [
        DecisionKind.PANTHEON_SACRIFICE,
        DecisionKind.FIELD_OF_MARS_PAIR,
        DecisionKind.REFUGIUM_OPTION,
        DecisionKind.BASILICA_CLAIM,
        DecisionKind.OFFICIAL_CHOICE,
    ],
)
def test_a_decision_through_a_card_needs_the_card_played(kind: DecisionKind) -> None:
    """R47: the Brutii acts at a location off its spaces only through its action card; a document whose card is
    missing from ``played`` is refused, naming the card."""
    game = find(lambda g: asking(kind)(g) and through_a_card(g.position(), g.pending))  # type: ignore[arg-type]
    doc = game.to_json()
    region = next(t[-1] for t in reversed(game.position().agenda) if t[0] == "end_region")
    card = REGION_CARDS[Region(region)][0].key
    assert card in doc["brutii"]["played"]
    doc["brutii"]["played"].remove(card)
    with pytest.raises(InvalidStateError, match=f"through the action card {card}"):
        Game.from_json(doc)
