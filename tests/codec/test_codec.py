"""The integer action codec: a fixed ``Discrete(n)`` space and its bijection with typed actions.

Checked here: the block layout follows the component tables (and a user component
file), ``n`` does not depend on the player count, every index round-trips through
``decode``/``encode`` for every seat and player count, every action the engine
offers in random games has an index that decodes back to it, labels are unique
and readable, bids are capped at :data:`BID_CAP` (R11, R22: bids range over the
bidder's money, the codec expresses 0..60 of them), and bad integers are rejected
with :class:`ActionDecodeError`.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import position, random_game

from tribune_env import Assassinate, Bid, DecisionKind, Faction, Game, GameConfig, default_components, load_components
from tribune_env.codec import BID_CAP, ActionCodec, ActionDecodeError, codec_for
from tribune_env.data import Components
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    OPTIONS,
    Action,
    ChooseFaction,
    ChooseOption,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.registry import option_labels
from tribune_env.engine.tables import tables_for
from tribune_env.envs import Table

COMPONENTS = default_components()
CODEC = codec_for(COMPONENTS)
TABLES = tables_for(COMPONENTS)
PLAYER_COUNTS = COMPONENTS.player_counts
BLOCK_ORDER = ("card", "place", "bid", "commit", "decline", "option", "faction", "assassinate")
PACKAGED = Path(str(resources.files("tribune_env.data").joinpath("components.toml")))


# --- helpers -------------------------------------------------------------------------------------


def expected_sizes(components: Components) -> dict[str, int]:
    """Block sizes computed from the component file itself (not from the codec or hard-coded numbers)."""
    card_types = sum(len(set(spec.values)) for spec in components.factions)
    region_spaces = sum(spec.spaces for spec in components.regions)
    spaces = region_spaces + len(components.factions) * components.faction_field_spaces + 1  # + the coin bowl
    return {
        "card": card_types,
        "place": spaces,
        "bid": BID_CAP + 1,
        "commit": 1,
        "decline": 1,
        "option": OPTIONS,
        "faction": len(components.factions),
        "assassinate": max(components.player_counts) * len(components.factions),
    }


def assert_layout(codec: ActionCodec, components: Components) -> None:
    assert [b.name for b in codec.blocks] == list(BLOCK_ORDER)
    assert {b.name: b.size for b in codec.blocks} == expected_sizes(components)
    start = 0
    for block in codec.blocks:
        assert block.start == start, f"block {block.name} is not contiguous"
        assert block.stop == block.start + block.size
        assert codec.block[block.name] is block
        assert block.meaning
        start = block.stop
    assert codec.n == start == sum(expected_sizes(components).values())


def assert_index_roundtrip(codec: ActionCodec, num_players: int) -> None:
    """decode then encode is the identity on every index valid for ``num_players``; the others raise."""
    assassinate = codec.block["assassinate"]
    factions = codec.num_factions
    for seat in range(num_players):
        decoded: list[Action] = []
        for i in range(codec.n):
            if i >= assassinate.start and (i - assassinate.start) // factions >= num_players:
                with pytest.raises(ActionDecodeError, match="relative seat"):
                    codec.decode(i, seat, num_players)
                continue
            action = codec.decode(i, seat, num_players)
            assert codec.encode(action, seat, num_players) == i, (i, codec.label(i), action)
            decoded.append(action)
        assert len(set(decoded)) == len(decoded), "two indices decode to the same action"


def assert_engine_actions_roundtrip(codec: ActionCodec, game: Game, seen: Counter[str] | None = None) -> None:
    """Every legal action of the pending decision has an index that decodes back to it."""
    seat, n = game.current_seat, game.num_players
    legal = game.legal_actions()
    for action in legal:
        i = codec.encode(action, seat, n)
        if isinstance(action, Bid) and action.amount > codec.bid_cap:
            assert i == -1, action
            continue
        assert 0 <= i < codec.n, (action, i)
        assert codec.decode(i, seat, n) == action, (action, i, codec.label(i))
        if seen is not None:
            seen[type(action).__name__] += 1
            if isinstance(action, Assassinate) and action.seat != seat:
                seen["assassinate another seat"] += 1
    expressible = [a for a in legal if not (isinstance(a, Bid) and a.amount > codec.bid_cap)]
    assert codec.indices(legal, seat, n) == [codec.encode(a, seat, n) for a in expressible]



def modified_components(tmp_path: Path) -> Components:
    """A user file with one more card type, one more Thermae field (and space) and a 6-player count."""
    text = PACKAGED.read_text(encoding="utf-8")
    replacements = [
        ("values = [0, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10]", "values = [0, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10, 11]"),
        ("[regions.thermae]\nfields = 4", "[regions.thermae]\nfields = 5"),
        ("[followers]\n2 = 6\n3 = 6\n4 = 5\n5 = 4", "[followers]\n2 = 6\n3 = 6\n4 = 5\n5 = 4\n6 = 4"),
        ("[point_variant]\n2 = 7\n3 = 6\n4 = 6\n5 = 5", "[point_variant]\n2 = 7\n3 = 6\n4 = 6\n5 = 5\n6 = 5"),
        ("required = { 5 = 3 }", "required = { 5 = 3, 6 = 3 }"),
    ]
    for old, new in replacements:
        assert text.count(old) == 1, f"{old!r} not found once in components.toml"
        text = text.replace(old, new)
    path = tmp_path / "bigger.toml"
    path.write_text(text, encoding="utf-8")
    return load_components(path)


# --- layout --------------------------------------------------------------------------------------


def test_block_sizes_follow_the_component_tables() -> None:
    assert_layout(CODEC, COMPONENTS)
    assert CODEC.block["card"].size == TABLES.num_card_types
    assert CODEC.block["place"].size == len(TABLES.spaces)
    assert CODEC.block["faction"].size == len(Faction)
    assert CODEC.max_players == max(PLAYER_COUNTS)
    assert CODEC.bid_cap == BID_CAP == 60


def test_n_is_the_same_for_every_player_count() -> None:
    sizes = {players: Table(players=players).codec.n for players in PLAYER_COUNTS}
    assert set(sizes.values()) == {CODEC.n}, sizes
    assert all(Table(players=p).codec is CODEC for p in PLAYER_COUNTS), "one shared codec per component set"
    assert codec_for(COMPONENTS) is CODEC


def test_a_fresh_codec_equals_the_shared_one() -> None:
    fresh = ActionCodec(COMPONENTS)
    assert fresh.n == CODEC.n
    assert fresh.blocks == CODEC.blocks
    assert fresh.labels() == CODEC.labels()
    assert ActionCodec().labels() == CODEC.labels()  # no argument: the packaged components


# --- index <-> typed action ---------------------------------------------------------------------


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_index_roundtrips(num_players: int) -> None:
    assert_index_roundtrip(CODEC, num_players)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_decoded_families(num_players: int) -> None:
    """Each block decodes to its action family; seat-independent blocks ignore the seat."""
    b = CODEC.block
    for seat in range(num_players):
        assert [CODEC.decode(b["card"].start + c, seat, num_players) for c in range(b["card"].size)] == [
            PickCard(c) for c in range(TABLES.num_card_types)
        ]
        assert [CODEC.decode(b["place"].start + s, seat, num_players) for s in range(b["place"].size)] == [
            PlaceFollower(s) for s in range(len(TABLES.spaces))
        ]
        assert [CODEC.decode(b["bid"].start + k, seat, num_players) for k in range(BID_CAP + 1)] == [
            Bid(k) for k in range(BID_CAP + 1)
        ]
        assert CODEC.decode(b["commit"].start, seat, num_players) == COMMIT == Commit()
        assert CODEC.decode(b["decline"].start, seat, num_players) == DECLINE == Decline()
        assert [CODEC.decode(b["option"].start + o, seat, num_players) for o in range(OPTIONS)] == [
            ChooseOption(o) for o in range(OPTIONS)
        ]
        assert [CODEC.decode(b["faction"].start + f, seat, num_players) for f in range(len(Faction))] == [
            ChooseFaction(f) for f in Faction
        ]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_assassinate_names_relative_seats(num_players: int) -> None:
    """Relative seat 0 is the acting player (R16: a player may target its own set), 1 the next, ..."""
    start = CODEC.block["assassinate"].start
    f = len(Faction)
    for seat in range(num_players):
        for relative in range(num_players):
            for faction in Faction:
                index = start + relative * f + faction
                action = CODEC.decode(index, seat, num_players)
                assert action == Assassinate((seat + relative) % num_players, faction)
                assert CODEC.encode(action, seat, num_players) == index
        for relative in range(num_players, CODEC.max_players):
            with pytest.raises(ActionDecodeError) as info:
                CODEC.decode(start + relative * f, seat, num_players)
            assert str(relative) in str(info.value) and str(num_players) in str(info.value)


def test_engine_actions_roundtrip_in_random_games() -> None:
    """Every legal action at every decision of whole random games (all player counts) round-trips."""
    seen: Counter[str] = Counter()
    for players in PLAYER_COUNTS:
        for seed in (0, 1):
            game = Game.new(players=players, seed=100 + seed)
            rng = random.Random(seed)
            while not game.is_over:
                assert_engine_actions_roundtrip(CODEC, game, seen)
                game.apply(rng.choice(game.legal_actions()))
    families = {"PlaceFollower", "PickCard", "Commit", "Decline", "Bid", "ChooseOption", "ChooseFaction"}
    assert families <= set(seen), f"not every action family occurred: {seen}"
    assert seen["Assassinate"] > 0 and seen["assassinate another seat"] > 0, seen


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 2500))
def test_engine_actions_roundtrip_hypothesis(players: int, seed: int, steps: int) -> None:
    game = random_game(players, seed, steps)
    if not game.is_over:
        assert_engine_actions_roundtrip(CODEC, game)
        mask = CODEC.mask(game.legal_actions(), game.current_seat, players)
        assert mask.dtype == np.int8 and mask.shape == (CODEC.n,)
        assert mask.any()


# --- labels --------------------------------------------------------------------------------------


LABEL = re.compile(r"^[a-z_]+(:\+?[a-z_0-9]+)*$")


def test_labels_are_unique_and_readable() -> None:
    labels = CODEC.labels()
    assert len(labels) == CODEC.n
    assert len(set(labels)) == CODEC.n, [lab for lab, k in Counter(labels).items() if k > 1]
    assert all(LABEL.match(lab) for lab in labels), [lab for lab in labels if not LABEL.match(lab)]
    for block in CODEC.blocks:  # every label names its block
        assert all(labels[i].split(":")[0] == block.name for i in range(block.start, block.stop))


def test_label_examples() -> None:
    b = CODEC.block
    senators_7 = TABLES.card_by_label["senators:7"]
    curia_2 = next(s.id for s in TABLES.spaces if s.label == "curia:2")
    assert CODEC.label(b["card"].start + senators_7) == "card:senators:7"
    assert CODEC.label(b["card"].start) == "card:gladiators:0"
    assert CODEC.label(b["place"].start + curia_2) == "place:curia:2"
    assert CODEC.label(b["place"].start + TABLES.coin_bowl) == "place:coin_bowl"
    assert CODEC.label(b["bid"].start) == "bid:0"
    assert CODEC.label(b["bid"].stop - 1) == f"bid:{BID_CAP}"
    assert CODEC.label(b["commit"].start) == "commit"
    assert CODEC.label(b["decline"].start) == "decline"
    assert CODEC.label(b["option"].start + 1) == "option:1"
    assert CODEC.label(b["faction"].start + Faction.SENATORS) == "faction:senators"
    assert CODEC.label(b["assassinate"].start + 1 * len(Faction) + Faction.LEGATES) == "assassinate:+1:legates"
    assert CODEC.label(b["assassinate"].start) == "assassinate:+0:gladiators"
    assert CODEC.labels()[-1] == f"assassinate:+{CODEC.max_players - 1}:senators"


def test_labels_follow_the_tables() -> None:
    b = CODEC.block
    for c, card_label in enumerate(TABLES.card_label):
        assert CODEC.label(b["card"].start + c) == f"card:{card_label}"
    for spec in TABLES.spaces:
        assert CODEC.label(b["place"].start + spec.id) == f"place:{spec.label}"
    for k in range(BID_CAP + 1):
        assert CODEC.label(b["bid"].start + k) == f"bid:{k}"
    for f in Faction:
        assert CODEC.label(b["faction"].start + f) == f"faction:{f.key}"


def test_describe() -> None:
    """Readable texts exist for every index; with the decision kind, options are spelled out."""
    texts = [CODEC.describe(i) for i in range(CODEC.n)]
    assert all(isinstance(t, str) and t for t in texts)
    option = CODEC.block["option"].start
    for faction in (Faction.PLEBEIANS, Faction.SENATORS):
        labels = option_labels(COMPONENTS, DecisionKind.BENEFIT_OPTION, faction)
        assert labels is not None
        for o in range(OPTIONS):
            assert CODEC.describe(option + o, DecisionKind.BENEFIT_OPTION, faction) == labels[o]
    assert CODEC.describe(CODEC.block["bid"].start + 7) == "bid 7 denarii"
    assert "own" in CODEC.describe(CODEC.block["assassinate"].start)


# --- bids ----------------------------------------------------------------------------------------


def _bid_block(mask: np.ndarray) -> list[int]:
    bid = CODEC.block["bid"]
    return [int(k) for k in np.flatnonzero(mask[bid.start : bid.stop])]


@pytest.mark.parametrize("money", [0, 7, BID_CAP - 1, BID_CAP, BID_CAP + 1, 75, 250])
def test_chariot_bids_in_the_mask(money: int) -> None:
    """R22: bids range over 0..money; the mask shows 0..min(money, 60) and nothing outside the bid block."""
    game = position(
        [{"money": money, "markers": ["senators"], "sets": {"senators": ["senators:4", "senators:5"]}}, {"money": 3}],
        phase="chariot_auction",
    )
    assert game.pending.kind is DecisionKind.CHARIOT_BID and game.current_seat == 0
    legal = game.legal_actions()
    assert legal == [Bid(k) for k in range(money + 1)]
    mask = CODEC.mask(legal, 0, 2)
    assert _bid_block(mask) == list(range(min(money, BID_CAP) + 1))
    assert int(mask.sum()) == min(money, BID_CAP) + 1
    assert_engine_actions_roundtrip(CODEC, game)


def test_atrium_bids_above_the_cap() -> None:
    """R11: Atrium bids 0..money; above the cap they encode to -1 and leave the mask."""
    game = position(
        [{"money": 100}, {"money": 3}],
        phase="region_evaluation",
        followers={"atrium:1": 0, "atrium:2": 1},
        board={"atrium": [["senators:4"], ["senators:5"], ["vestals:3"]]},
    )
    assert game.pending.kind is DecisionKind.ATRIUM_BID and game.current_seat == 0
    legal = game.legal_actions()
    assert len(legal) == 101
    mask = CODEC.mask(legal, 0, 2)
    assert _bid_block(mask) == list(range(BID_CAP + 1))
    assert len(CODEC.indices(legal, 0, 2)) == BID_CAP + 1
    game.apply(CODEC.decode(CODEC.block["bid"].start + BID_CAP, 0, 2))  # the highest expressible bid is legal
    assert game.position().bids[0] == BID_CAP


@pytest.mark.parametrize("amount", [BID_CAP + 1, BID_CAP + 2, 1000, 10**9])
def test_bids_above_the_cap_encode_to_minus_one(amount: int) -> None:
    for players in PLAYER_COUNTS:
        for seat in range(players):
            assert CODEC.encode(Bid(amount), seat, players) == -1
            assert CODEC.indices([Bid(amount), Bid(0)], seat, players) == [CODEC.block["bid"].start]
            mask = CODEC.mask([Bid(amount)], seat, players)
            assert not mask.any()
    assert CODEC.encode(Bid(BID_CAP), 0, 2) == CODEC.block["bid"].stop - 1


# --- bad integers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("index", [-1, -5, CODEC.n, CODEC.n + 1, 10**12, -(10**12)])
def test_out_of_range_index_is_rejected(index: int) -> None:
    for players in PLAYER_COUNTS:
        with pytest.raises(ActionDecodeError) as info:
            CODEC.decode(index, 0, players)
        message = str(info.value)
        assert str(index) in message and f"0..{CODEC.n - 1}" in message, message
    assert issubclass(ActionDecodeError, ValueError)
    with pytest.raises(ActionDecodeError):
        CODEC.label(index)
    with pytest.raises(ActionDecodeError):
        CODEC.describe(index)


@pytest.mark.parametrize("kind", [np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64])
def test_numpy_integers_decode_like_ints(kind: type) -> None:
    """Environments receive numpy integers from learning code."""
    for i in (0, CODEC.block["bid"].start + 3, CODEC.block["decline"].start, CODEC.block["faction"].start + 2):
        assert CODEC.decode(kind(i), 1, 3) == CODEC.decode(i, 1, 3)
    i = CODEC.block["assassinate"].start + 2 * len(Faction) + 1
    assert CODEC.decode(kind(i), 1, 3) == CODEC.decode(i, 1, 3) == Assassinate(0, 1)
    with pytest.raises(ActionDecodeError):
        CODEC.decode(kind(CODEC.n), 0, 3)


@pytest.mark.parametrize("index", [1.5, 3.0, np.float64(2.0), "3", None, True, False, [1]])
def test_non_integer_index_is_rejected(index: object) -> None:
    with pytest.raises(ActionDecodeError) as info:
        CODEC.decode(index, 0, 2)  # type: ignore[arg-type]
    assert "integer" in str(info.value) or repr(index) in str(info.value)


@pytest.mark.parametrize(
    "action",
    [
        PickCard(-1),
        PickCard(TABLES.num_card_types),
        PlaceFollower(len(TABLES.spaces)),
        ChooseFaction(len(Faction)),
        ChooseOption(OPTIONS),
        Bid(-1),
    ],
    ids=repr,
)
def test_actions_outside_the_tables_are_not_expressible(action: Action) -> None:
    for players in PLAYER_COUNTS:
        assert CODEC.encode(action, 0, players) == -1
        assert CODEC.indices([action], 0, players) == []


@pytest.mark.parametrize(
    "action",
    [Assassinate(0, len(Faction)), Assassinate(0, -1), Assassinate(0, 40), Assassinate(2, 0), Assassinate(-1, 0)],
    ids=repr,
)
def test_encode_never_names_another_action(action: Action) -> None:
    """Whatever it is given, ``encode`` returns -1 or an index that decodes back to the same action."""
    index = CODEC.encode(action, 0, 2)
    assert index == -1 or (0 <= index < CODEC.n and CODEC.decode(index, 0, 2) == action)


# --- a user component file -----------------------------------------------------------------------


def test_user_component_file_changes_the_codec(tmp_path: Path) -> None:
    comps = modified_components(tmp_path)
    assert comps.player_counts == (*PLAYER_COUNTS, 6)
    codec = codec_for(comps)
    assert codec is not CODEC
    assert_layout(codec, comps)
    sizes, default = expected_sizes(comps), expected_sizes(COMPONENTS)
    assert sizes["card"] == default["card"] + 1  # senators:11
    assert sizes["place"] == default["place"] + 1  # thermae:5
    assert sizes["assassinate"] == default["assassinate"] + len(Faction)  # relative seat +5
    assert codec.n == CODEC.n + 1 + 1 + len(Faction)
    labels = codec.labels()
    assert len(set(labels)) == codec.n
    assert "card:senators:11" in labels and "place:thermae:5" in labels and "assassinate:+5:senators" in labels
    assert "card:senators:11" not in CODEC.labels() and "place:thermae:5" not in CODEC.labels()
    for players in comps.player_counts:
        assert_index_roundtrip(codec, players)


def test_user_component_file_game_actions_roundtrip(tmp_path: Path) -> None:
    """A 6-player game with the user file: every engine action round-trips through its codec."""
    comps = modified_components(tmp_path)
    codec = codec_for(comps)
    table = Table(players=6, components=comps)
    assert table.codec is codec
    game = Game.new(GameConfig(players=6, components=comps), seed=3)
    rng = random.Random(3)
    decisions = 0
    while not game.is_over and decisions < 600:
        assert_engine_actions_roundtrip(codec, game)
        game.apply(rng.choice(game.legal_actions()))
        decisions += 1
    assert decisions == 600 or game.is_over
