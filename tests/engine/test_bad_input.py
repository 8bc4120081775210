"""Bad input: illegal actions leave the game untouched, and malformed positions are rejected by name."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from tribune_env import (
    COMMIT,
    DECLINE,
    Assassinate,
    Bid,
    ChooseFaction,
    ChooseOption,
    Game,
    GameOverError,
    IllegalActionError,
    InvalidStateError,
    PickCard,
    PlaceFollower,
    TribuneError,
)

# --- illegal actions -------------------------------------------------------------------------------


def _game_at(kind: str, seed: int = 3, players: int = 3) -> Game:
    """A game paused at the first decision of ``kind``."""
    game = Game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while game.pending.kind.key != kind:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _snapshot(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def _assert_rejected(game: Game, action: Any, *fragments: str) -> IllegalActionError:
    before = _snapshot(game)
    legal = game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    err = info.value
    message = str(err)
    assert "Legal choices" in message
    assert err.legal == tuple(legal)
    # the message shows the legal choices in words
    assert game.describe(legal[0]) in message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert _snapshot(game) == before, "an illegal action changed the game"
    assert game.legal_actions() == legal
    return err


@pytest.mark.parametrize("action", ["place", None, 3, 2.5, ("PlaceFollower", 0), {"space": 0}, [0]])
def test_wrong_type_is_rejected(action: Any) -> None:
    game = _game_at("place_follower")
    err = _assert_rejected(game, action, "not a kind of choice", "place_follower")
    assert isinstance(err, ValueError) and isinstance(err, TribuneError)


@pytest.mark.parametrize(
    "action",
    [Bid(0), COMMIT, DECLINE, ChooseOption(0), ChooseFaction(0), PickCard(0), Assassinate(0, 0)],
    ids=repr,
)
def test_action_of_another_decision_is_rejected(action: Any) -> None:
    """A well-formed action that belongs to a decision which is not pending."""
    game = _game_at("place_follower")
    _assert_rejected(game, action, "not a kind of choice", f"player {game.current_seat}")


def test_card_not_in_hand_is_rejected() -> None:
    game = _game_at("setup_discard")
    hand = game.position().players[game.current_seat].hand
    missing = next(c for c, n in enumerate(hand) if n == 0)
    _assert_rejected(game, PickCard(missing), "not allowed now", "setup_discard")


def test_occupied_space_is_rejected() -> None:
    game = _game_at("place_follower")
    rng = random.Random(0)
    while not any(seat >= 0 for seat in game.position().spaces) or game.pending.kind.key != "place_follower":
        game.apply(rng.choice(game.legal_actions()))
    taken = next(s for s, seat in enumerate(game.position().spaces) if seat >= 0)
    _assert_rejected(game, PlaceFollower(taken), "not allowed now")


def test_bid_above_money_is_rejected() -> None:
    game = _game_at("chariot_bid")
    money = game.position().players[game.current_seat].money
    _assert_rejected(game, Bid(money + 1), "not allowed now", "chariot_bid")
    _assert_rejected(game, Bid(-1), "not allowed now")


@pytest.mark.parametrize(
    ("kind", "action"),
    [("place_follower", PlaceFollower(-1)), ("setup_discard", PickCard(-1)), ("chariot_bid", Bid(-1))],
    ids=repr,
)
def test_negative_payload_is_rejected(kind: str, action: Any) -> None:
    game = _game_at(kind)
    _assert_rejected(game, action, "not allowed now")


@pytest.mark.parametrize(
    ("kind", "action"),
    [
        ("setup_discard", PickCard(10_000)),
        ("place_follower", PlaceFollower(10_000)),
        ("place_follower", ChooseFaction(99)),
        ("place_follower", Assassinate(9, 99)),
    ],
    ids=repr,
)
def test_out_of_range_payload_is_an_illegal_action(kind: str, action: Any) -> None:
    game = _game_at(kind)
    _assert_rejected(game, action)


def test_illegal_message_lists_many_choices_compactly() -> None:
    game = _game_at("chariot_bid")
    legal = game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(PlaceFollower(0))
    message = str(info.value)
    if len(legal) > 40:
        assert f"({len(legal)} in all)" in message
    assert "bid 0" in message


def test_apply_after_game_over() -> None:
    game = Game.new(players=2, seed=5, round_limit=1)
    rng = random.Random(5)
    last = None
    while not game.is_over:
        last = rng.choice(game.legal_actions())
        game.apply(last)
    assert game.truncated or game.winners
    before = _snapshot(game)
    assert game.pending is None and game.legal_actions() == [] and game.current_seat == -1
    for action in (last, DECLINE, PlaceFollower(0), "anything"):
        with pytest.raises(GameOverError):
            game.apply(action)
    assert isinstance(GameOverError("x"), TribuneError)
    assert _snapshot(game) == before
    # a finished game read back from JSON refuses actions too
    with pytest.raises(GameOverError):
        Game.from_json(game.to_json()).apply(DECLINE)


# --- malformed positions -----------------------------------------------------------------------------

BASE: dict[str, Any] = {"config": {"players": 2, "victory_card": "alea_long"}, "players": [{}, {}]}
SENATORS = ["senators:4", "senators:5"]


def _set(seat: int, **fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["players"][seat].update(fields)


def _top(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.update(fields)


def _both(*mods: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def run(d: dict[str, Any]) -> None:
        for mod in mods:
            mod(d)

    return run


def _config(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d["config"].update(fields)


# (id, change to BASE, fragments the message must contain: the field first)
BAD_DOCS: list[tuple[str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = [
    ("player count", lambda d: d["players"].append({}), ("players", "2 players but 3")),
    ("too few players", lambda d: d["players"].pop(), ("players", "2 players but 1")),
    ("negative money", _set(0, money=-3), ("players[0].money", ">= 0", "-3")),
    ("negative laurels", _set(1, laurels=-1), ("players[1].laurels",)),
    ("negative legions", _set(1, legions=-1), ("players[1].legions",)),
    ("money not an integer", _set(0, money="12"), ("players[0].money", "integer")),
    ("money a bool", _set(0, money=True), ("players[0].money", "integer")),
    ("unknown card label", _set(0, hand=["senators:11"]), ("players[0].hand[0]", "senators:11", "faction:value")),
    ("card label not a string", _set(0, hand=[7]), ("players[0].hand[0]",)),
    ("unknown card in a pile", _top(discard_pile=["romans:1"]), ("discard_pile[0]", "romans:1")),
    ("too many copies", _set(0, hand=["senators:10", "senators:10"]), ("cards", "senators:10", "2 copies")),
    (
        "too many copies across places",
        _both(_set(0, hand=["vestals:9"]), _top(discard_pile=["vestals:9"])),
        ("cards", "vestals:9"),
    ),
    ("missing cards with explicit draw pile", _top(draw_pile=[]), ("cards", "100 card(s)", '"draw_pile": "rest"')),
    (
        "two controllers",
        _both(_set(0, sets={"senators": SENATORS}), _set(1, sets={"senators": ["senators:6", "senators:7"]})),
        ("players[1].sets.senators", "at most one controller"),
    ),
    ("set of one card", _set(0, sets={"senators": ["senators:4"]}), ("players[0].sets.senators", "at least 2")),
    (
        "set with another faction's card",
        _set(0, sets={"senators": ["senators:4", "vestals:5"]}),
        ("players[0].sets.senators", "vestals:5"),
    ),
    ("set of unknown faction", _set(0, sets={"romans": SENATORS}), ("players[0].sets", "romans")),
    ("unknown follower space", _top(followers={"curia:9": 0}), ("followers", "curia:9")),
    ("follower of unknown seat", _top(followers={"curia:1": 2}), ("followers.curia:1",)),
    (
        "follower on own faction",
        _both(_set(0, sets={"senators": SENATORS}), _top(followers={"faction:senators:1": 0})),
        ("followers", "controls the senators"),
    ),
    ("faction space 2 without 1", _top(followers={"faction:senators:2": 0}), ("followers", "faction:senators:1")),
    (
        "one player on both faction spaces",
        _top(followers={"faction:senators:1": 0, "faction:senators:2": 0}),
        ("followers", "faction:senators:2"),
    ),
    ("atrium 2 without 1", _top(followers={"atrium:2": 1}), ("followers", "atrium:1")),
    ("pantheon without vestal marker", _top(followers={"pantheon:1": 0}), ("followers", "Pantheon", "Vestal")),
    (
        "both pantheon spaces",
        _both(_set(0, markers=["vestals"]), _top(followers={"pantheon:1": 0, "pantheon:2": 0})),
        ("followers", "Pantheon"),
    ),
    (
        "chariot blocks followers",
        _top(chariot="senators", followers={"faction:senators:1": 0}),
        ("followers", "chariot"),
    ),
    (
        "temporary with eternal favor",
        _set(0, eternal_favor=True, temporary_favor=True),
        ("players[0].temporary_favor", "eternal"),
    ),
    (
        "two temporary favors",
        _both(_set(0, temporary_favor=True), _set(1, temporary_favor=True)),
        ("players", "temporary favor", "[0, 1]"),
    ),
    ("temporary favor without the vestals", _set(1, temporary_favor=True), ("players", "Vestal")),
    ("duplicate marker", _set(0, markers=["vestals", "vestals"]), ("players[0].markers",)),
    ("unknown marker", _set(0, markers=["romans"]), ("players[0].markers[0]", "romans")),
    ("unknown tile", _set(0, tile="crown"), ("players[0].tile", "crown")),
    ("unknown player key", _set(0, colour="red"), ("players[0]", "colour")),
    ("unknown top-level key", _top(colour="red"), ("top-level", "colour")),
    ("unknown phase", _top(phase="lunch"), ("phase", "lunch")),
    ("setup phase without agenda", _top(phase="setup"), ("phase", "agenda")),
    ("game over without agenda", _top(phase="game_over"), ("phase", "agenda")),
    ("unknown victory card", _config(victory_card="nope"), ("config", "victory card", "nope")),
    ("victory card missing", lambda d: d["config"].pop("victory_card"), ("config.victory_card",)),
    ("victory card of other player count", _config(victory_card="card_e"), ("config", "victory_card", "card_e")),
    ("unsupported player count", _config(players=7), ("config", "players", "7")),
    ("unknown config key", _config(colour="red"), ("config", "colour")),
    ("other component set", _config(components="custom"), ("config.components", "custom")),
    ("config missing", lambda d: d.pop("config"), ("config",)),
    ("wrong format", _top(format="chess"), ("format",)),
    ("wrong version", _top(version=2), ("format", "version")),
    ("pending without agenda", _top(pending={"kind": "place_follower", "seat": 0}), ("pending", "agenda")),
    (
        "unknown pending kind",
        _top(pending={"kind": "dance", "seat": 0}, agenda=[]),
        ("pending.kind", "dance"),
    ),
    ("pending seat out of range", _top(pending={"kind": "place_follower", "seat": 5}, agenda=[]), ("pending.seat",)),
    ("unknown agenda step", _top(agenda=[["dance"]]), ("agenda[0]", "dance")),
    ("empty agenda and no decision", _top(agenda=[]), ("agenda", "no pending decision")),
    ("board region unknown", _top(board={"moon": []}), ("board", "moon")),
    ("board field count", _top(board={"thermae": [[]]}), ("board.thermae", "4")),
    ("atrium_up length", _top(atrium_up=[True]), ("atrium_up", "3")),
    ("negative round", _top(round=-1), ("round",)),
    ("start seat out of range", _top(start_seat=2), ("start_seat",)),
    ("unknown chariot faction", _top(chariot="romans"), ("chariot", "romans")),
    ("bids length", _top(bids=[0]), ("bids",)),
    ("pair shape", _top(pairs=[[0, "senators:4"]]), ("pairs[0]",)),
    ("event shape", _top(events=[["hello"]]), ("events",)),
]


@pytest.mark.parametrize(("mod", "fragments"), [(m, f) for _, m, f in BAD_DOCS], ids=[i for i, _, _ in BAD_DOCS])
def test_malformed_position_is_rejected(mod: Callable[[dict[str, Any]], None], fragments: tuple[str, ...]) -> None:
    doc = copy.deepcopy(BASE)
    mod(doc)
    for source in (doc, json.dumps(doc)):  # as a dict and as JSON text
        with pytest.raises(InvalidStateError) as info:
            Game.from_json(source)
        message = str(info.value)
        for fragment in fragments:
            assert fragment in message, f"{fragment!r} not in {message!r}"
    assert isinstance(info.value, ValueError)


def test_base_position_is_valid() -> None:
    """Every bad document above is BASE with one thing broken: BASE itself loads."""
    game = Game.from_json(copy.deepcopy(BASE))
    assert game.pending.kind.key == "place_follower"
    assert game.position().card_counts() == list(game.tables.card_copies)


@pytest.mark.parametrize(
    "text",
    ["{not json", "", "[1, 2]", '"a string"', "null", "42"],
    ids=["broken", "empty", "list", "string", "null", "number"],
)
def test_not_a_json_object(text: str) -> None:
    with pytest.raises(InvalidStateError, match="JSON"):
        Game.from_json(text)


@pytest.mark.parametrize("value", [[1, 2], None, 42])
def test_top_level_not_an_object(value: Any) -> None:
    with pytest.raises(InvalidStateError, match="JSON object"):
        Game.from_json(value)


def test_controller_on_own_field_at_start_of_takeovers_is_rejected() -> None:
    doc = copy.deepcopy(BASE)
    doc["phase"] = "takeovers"
    doc["players"][0].update(
        hand=["senators:8", "senators:9", "senators:10"], sets={"senators": SENATORS}, markers=["senators"]
    )
    doc["followers"] = {"faction:senators:1": 0}
    with pytest.raises(InvalidStateError, match="followers"):
        Game.from_json(doc)


def test_agenda_without_pending_runs_to_the_first_decision() -> None:
    doc = copy.deepcopy(BASE)
    doc.update(phase="chariot_auction", agenda=[["chariot"], ["round_end"]])
    for player in doc["players"]:
        player["money"] = 5  # with money the bid is a real choice, not applied by auto_forced
    game = Game.from_json(doc)
    assert not game.is_over
    assert game.pending is not None and game.pending.kind.key == "chariot_bid"
    assert game.legal_actions()


# --- documents are not mutated --------------------------------------------------------------------


def test_hand_written_doc_is_not_mutated() -> None:
    doc = copy.deepcopy(BASE)
    doc["players"][0].update(hand=["senators:4"], sets={"vestals": ["vestals:3", "vestals:4"]}, markers=["vestals"])
    doc["followers"] = {"curia:1": 1}
    doc["phase"] = "follower_placement"
    original = copy.deepcopy(doc)
    game = Game.from_json(doc)
    assert doc == original
    game.apply(game.legal_actions()[0])
    assert doc == original


def test_saved_doc_is_not_mutated_and_not_shared() -> None:
    game = Game.new(players=4, seed=9)
    rng = random.Random(9)
    for _ in range(300):
        game.apply(rng.choice(game.legal_actions()))
    doc = game.to_json()
    original = copy.deepcopy(doc)
    loaded = Game.from_json(doc)
    assert doc == original
    # playing the loaded game does not write into the document it came from
    while not loaded.is_over:
        loaded.apply(rng.choice(loaded.legal_actions()))
    assert doc == original
    # nor does playing the original write into a document it produced earlier
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert doc == original


def test_failed_load_does_not_mutate() -> None:
    doc = copy.deepcopy(BASE)
    doc["players"][0]["money"] = -1
    original = copy.deepcopy(doc)
    with pytest.raises(InvalidStateError):
        Game.from_json(doc)
    assert doc == original


def test_shape_errors_name_the_path_of_the_value() -> None:
    """serialize's shape check: an integer past 64 bits and nesting past MAX_DEPTH are refused, naming where."""
    from tribune_env.engine.errors import InvalidStateError
    from tribune_env.engine.serialize import MAX_DEPTH, MAX_INTEGER, _check_shape

    _check_shape({"players": [{"hand": [1, 2, MAX_INTEGER]}], "flag": True, "none": None})
    with pytest.raises(InvalidStateError, match=r"^players\[1\]\.money: an integer of 64 bits"):
        _check_shape({"players": [{"money": 1}, {"money": MAX_INTEGER + 1}]})
    deep: dict[str, object] = {"x": 0}
    for _ in range(MAX_DEPTH - 1):
        deep = {"a": deep}
    _check_shape(deep)  # the leaf at depth MAX_DEPTH holds
    with pytest.raises(InvalidStateError, match=r"^d\[0\](\.a)+: nested deeper than 32 levels$"):
        _check_shape({"d": [deep]})
