"""Expansion card kinds (R30; E4, E23, E24, E32-E35) and assassins in take-overs (R31; E36-E43; X1, X5, X7).

Positions are built from ``Game.new(..., expansion=True)`` by editing the state directly: every card goes back
to the draw pile, the position's cards are taken out of it, and the steps under test are pushed on the agenda.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tribune_env import Faction, Game, Region
from tribune_env.engine.actions import COMMIT, DECLINE, Action, Commit, PickCard, pick_card
from tribune_env.engine.decisions import DecisionKind, Phase, TakeoverRole
from tribune_env.engine.flow import advance
from tribune_env.engine.ops import beats, push
from tribune_env.engine.registry import DECISIONS
from tribune_env.engine.state import GameState, Task

SENATORS = Faction.SENATORS


def _blank(players: int = 4, seed: int = 0) -> Game:
    """An expansion game with every card in the draw pile and nothing scheduled."""
    game = Game.new(players=players, seed=seed, expansion=True, auto_forced=False)
    state = game.python_state()
    tables = state.tables
    for player in state.players:
        player.hand = [0] * tables.num_card_types
    state.draw = [c for c, n in enumerate(tables.card_copies) for _ in range(n)]
    state.discard = []
    for region in state.fields:
        for field in region:
            field.clear()
    state.sets = [[] for _ in state.sets]
    state.controller = [-1] * len(state.controller)
    state.first_laurel = [False] * len(state.first_laurel)
    state.spaces = [-1] * len(state.spaces)
    state.staged, state.contest, state.agenda = [], [], []
    state.pending = None
    state.legal_cache = None
    state.round = 1
    return game


def _take(state: GameState, label: str) -> int:
    card = state.tables.card_id(label)
    state.draw.remove(card)
    return card


def _cards(state: GameState, labels: list[str]) -> list[int]:
    return [_take(state, label) for label in labels]


def _hand(state: GameState, seat: int, labels: list[str]) -> None:
    for card in _cards(state, labels):
        state.players[seat].hand[card] += 1


def _control(state: GameState, seat: int, faction: int, labels: list[str]) -> None:
    state.controller[faction] = seat
    state.sets[faction] = _cards(state, labels)


def _stand(state: GameState, seat: int, faction: int, slot: int) -> None:
    state.spaces[state.tables.faction_spaces[faction][slot]] = seat


def _run(game: Game, *tasks: Task, phase: Phase) -> None:
    state = game.state
    state.phase = phase
    push(state, *tasks)
    advance(state)


def _ids(state: GameState, labels: list[str]) -> list[int]:
    return [state.tables.card_id(label) for label in labels]


def _pick(state: GameState, label: str) -> PickCard:
    return pick_card(state.tables.card_id(label))


def _counts_ok(state: GameState) -> bool:
    return state.card_counts() == list(state.tables.card_copies)


def _check_pending(state: GameState) -> str:
    pending = state.pending
    assert pending is not None
    return DECISIONS[pending.kind].check(state, pending)


# --- phase 1 and phase 3: slaves and assassins are ordinary cards elsewhere (R30) -------------------------------


def test_x1_assassin_ends_curia_filling_e23() -> None:
    """X1, E23, R6: an assassin (value 0) on a Curia field stops its filling below the threshold."""
    game = _blank(4)
    state = game.state
    top = [*["gladiators:2"] * 3, *["gladiators:3"] * 3, *["gladiators:4"] * 3]
    top += ["senators:4", "assassin:0", "senators:9", "vestals:5"]
    cards = _cards(state, top)
    state.draw.extend(reversed(cards))  # the top of the draw pile is its end
    _run(game, ("fill_board", 0), phase=Phase.CARD_PLACEMENT)
    curia = state.fields[Region.CURIA]
    assert curia[0] == _ids(state, ["senators:4", "assassin:0"])
    assert curia[1] == _ids(state, ["senators:9"])
    assert curia[2][0] == state.tables.card_id("vestals:5")
    assert _counts_ok(state)


def test_e24_slave_adds_its_value_on_the_curia() -> None:
    """E24: a slave counts with its value towards the Curia's fill sum."""
    game = _blank(4)
    state = game.state
    top = ["gladiators:2"] * 3 + ["gladiators:3"] * 3 + ["gladiators:4"] * 3 + ["nubian:3", "greek:2", "senators:9"]
    top += ["vestals:5"]
    state.draw.extend(reversed(_cards(state, top)))
    _run(game, ("fill_board", 0), phase=Phase.CARD_PLACEMENT)
    curia = state.fields[Region.CURIA]
    assert curia[0] == _ids(state, ["nubian:3", "greek:2"])
    assert curia[1] == _ids(state, ["senators:9"])


def _pantheon(card: str, hand: list[str], eternal: bool = False) -> Game:
    game = _blank(4)
    state = game.state
    state.fields[Region.PANTHEON][0].extend(_cards(state, [card]))
    _hand(state, 0, hand)
    state.players[0].markers[Faction.VESTALS] = True
    state.players[0].eternal_favor = eternal
    state.spaces[state.tables.region_spaces[Region.PANTHEON][0]] = 0
    _run(game, ("pantheon_space", 0), ("pantheon_favor",), phase=Phase.REGION_EVALUATION)
    return game


def test_e33_pantheon_slave_asks_any_slave() -> None:
    """E33, R30: a slave on the Pantheon is answered by any slave card, of any nationality."""
    game = _pantheon("nubian:3", ["germanian:2", "greek:5", "assassin:0", "senators:4"])
    state = game.state
    assert game.legal_actions() == [_pick(state, "germanian:2"), _pick(state, "greek:5"), DECLINE]
    game.apply(_pick(state, "greek:5"))
    assert state.players[0].eternal_favor
    assert state.discard == _ids(state, ["greek:5"])


def test_e34_pantheon_assassin_asks_an_assassin() -> None:
    """E34, R30: an assassin on the Pantheon is answered only by an assassin card."""
    game = _pantheon("assassin:0", ["germanian:2", "assassin:0", "senators:4"])
    assert game.legal_actions() == [_pick(game.state, "assassin:0"), DECLINE]
    game.apply(_pick(game.state, "assassin:0"))
    assert game.state.players[0].eternal_favor


def test_e34_pantheon_without_the_kind_and_r13() -> None:
    """E33/E34 with no matching card: only Decline; R13: a player with an eternal favor is not asked."""
    game = _pantheon("assassin:0", ["nubian:1", "senators:4"])
    assert game.legal_actions() == [DECLINE]
    game = _pantheon("nubian:3", ["nubian:1"], eternal=True)
    assert game.pending is None


def test_e35_latrine_assassin_is_worth_nothing() -> None:
    """E35, R30: an assassin at the Latrine gives 0 denarii, or is taken for free."""
    for option, money, in_hand in ((0, 5, 0), (1, 0, 1)):
        game = _blank(4)
        state = game.state
        state.fields[Region.LATRINE][0].extend(_cards(state, ["assassin:0"]))
        state.players[0].money = money
        state.spaces[state.tables.region_spaces[Region.LATRINE][0]] = 0
        _run(game, ("latrine",), phase=Phase.REGION_EVALUATION)
        assert len(game.legal_actions()) == 2  # both options: buying costs 0
        game.apply(game.legal_actions()[option])
        assert state.players[0].money == money
        assert state.players[0].hand[state.tables.assassin_card] == in_hand
        assert _counts_ok(state)


def test_e32_no_field_of_mars_pair_of_slaves_or_assassins() -> None:
    """E32, E4: only faction cards form Field of Mars pairs."""
    game = _blank(4)
    state = game.state
    _hand(state, 0, ["nubian:1", "nubian:2", "assassin:0", "assassin:0", "senators:4", "senators:5"])
    state.spaces[state.tables.region_spaces[Region.FIELD_OF_MARS][0]] = 0
    _run(game, ("mars_space", 0), phase=Phase.REGION_EVALUATION)
    assert game.legal_actions() == [_pick(state, "senators:4"), DECLINE]


# --- phase 4: take-overs (R31) ------------------------------------------------------------------------------------


def _takeover(first: list[str] | None, second: list[str] | None, controller: list[str] | None) -> Game:
    """Senators take-over: P0 on "1" and P1 on "2" with the given hands (None: nobody there), P2 controlling."""
    game = _blank(4)
    state = game.state
    for seat, (slot, hand) in enumerate(((0, first), (1, second))):
        if hand is not None:
            _stand(state, seat, SENATORS, slot)
            _hand(state, seat, hand)
    if controller is not None:
        _control(state, 2, SENATORS, controller)
    _run(game, ("takeover", SENATORS), phase=Phase.TAKEOVERS)
    return game


def _play(game: Game, labels: list[str]) -> None:
    for label in labels:
        game.apply(_pick(game.state, label))


def test_e4_no_slave_or_assassin_in_a_set_of_an_uncontrolled_faction() -> None:
    """E4, R30, R31: slaves are never offered; with no target (uncontrolled faction) no assassin is offered."""
    game = _takeover(["senators:4", "senators:5", "assassin:0", "nubian:5", "greek:1"], None, None)
    state = game.state
    assert game.legal_actions() == [_pick(state, "senators:4"), DECLINE]
    _play(game, ["senators:4"])
    assert game.legal_actions() == [_pick(state, "senators:5"), DECLINE]
    _play(game, ["senators:5"])
    assert game.legal_actions() == [COMMIT, DECLINE]
    game.apply(COMMIT)
    assert state.sets[SENATORS] == _ids(state, ["senators:4", "senators:5"])
    assert state.players[0].hand[state.tables.assassin_card] == 1


def test_x5_assassin_makes_a_lone_takeover_possible() -> None:
    """X5, E37, E38, E41, R31."""
    game = _takeover(["senators:8", "senators:10", "assassin:0"], None, ["senators:4", "senators:7", "senators:9"])
    state = game.state
    assert game.pending is not None and game.pending.index == TakeoverRole.ALONE
    assert game.legal_actions() == [_pick(state, "senators:8"), DECLINE]
    _play(game, ["senators:8"])
    assert game.legal_actions() == [_pick(state, "senators:10"), DECLINE]
    _play(game, ["senators:10"])
    assert game.legal_actions() == [_pick(state, "assassin:0"), DECLINE]  # no Commit without the assassin
    _play(game, ["assassin:0"])
    assert _check_pending(state) == ""
    assert game.legal_actions() == [COMMIT, DECLINE]
    laurels = state.players[0].laurels
    game.apply(COMMIT)
    assert state.discard == _ids(state, ["senators:9", "assassin:0", "senators:4", "senators:7"])
    assert state.controller[SENATORS] == 0
    assert state.sets[SENATORS] == _ids(state, ["senators:8", "senators:10"])
    assert state.players[0].laurels == laurels + 1
    assert state.players[0].markers[SENATORS]
    assert any("assassin" in line and "Senators 9" in line for line in game.log())
    assert _counts_ok(state)


def test_x7_contested_assassin_example() -> None:
    """X7, E38, E43, R15 (amended), R31: Julia's assassin hits Markus's committed set on "2"."""
    game = _takeover(
        ["senators:8", "senators:10", "assassin:0"],
        ["senators:4", "senators:5", "senators:9"],
        ["senators:6", "senators:7"],
    )
    state = game.state
    assert game.pending is not None and game.pending.seat == 1
    assert _pick(state, "assassin:0") not in game.legal_actions()
    _play(game, ["senators:4", "senators:5", "senators:9"])
    game.apply(COMMIT)
    assert state.controller[SENATORS] == -1  # Christoph's set left at once
    assert state.discard == _ids(state, ["senators:6", "senators:7"])
    assert game.pending is not None and game.pending.seat == 0
    assert game.pending.index == TakeoverRole.FIRST_OVER_SECOND
    _play(game, ["senators:8", "senators:10"])
    assert COMMIT not in game.legal_actions()
    _play(game, ["assassin:0"])
    assert game.legal_actions() == [COMMIT, DECLINE]
    game.apply(COMMIT)
    assert state.contest == _ids(state, ["senators:4", "senators:5"])
    assert state.controller[SENATORS] == 0
    assert state.sets[SENATORS] == _ids(state, ["senators:8", "senators:10"])
    assert game.pending is not None and game.pending.kind is DecisionKind.TAKEOVER_PENALTY
    game.apply(_pick(state, "senators:4"))
    assert sorted(state.discard) == sorted(
        _ids(state, ["senators:6", "senators:7", "senators:9", "assassin:0", "senators:4"])
    )
    assert state.players[1].hand[state.tables.card_id("senators:5")] == 1
    assert state.players[0].laurels == 1
    assert _counts_ok(state)


def test_e40_three_card_target_allows_one_assassin() -> None:
    """E40, E39, R31: k assassins need a target of k+2 cards; a 3-card set loses at most one card."""
    game = _takeover(
        ["senators:8", "senators:9", "assassin:0", "assassin:0"], None, ["senators:4", "senators:6", "senators:7"]
    )
    state = game.state
    _play(game, ["senators:8", "senators:9"])
    assert game.legal_actions() == [_pick(state, "assassin:0"), DECLINE]
    _play(game, ["assassin:0"])
    assert game.legal_actions() == [COMMIT, DECLINE]  # no second assassin
    game.apply(COMMIT)
    assert state.players[0].hand[state.tables.assassin_card] == 1
    assert _counts_ok(state)


def test_e40_two_card_target_is_immune() -> None:
    """E40, R31: no assassin is offered against a 2-card set."""
    game = _takeover(["senators:4", "senators:5", "senators:6", "assassin:0"], None, ["senators:9", "senators:10"])
    state = game.state
    actions = [game.legal_actions()]
    _play(game, ["senators:4", "senators:5", "senators:6"])
    actions.append(game.legal_actions())
    assert actions[-1] == [COMMIT, DECLINE]
    assert all(_pick(state, "assassin:0") not in legal for legal in actions)


def test_e40_no_attempt_when_even_assassins_are_not_enough() -> None:
    """R31: a hand whose best set with every allowed assassin cannot win makes no attempt (logged as a refusal)."""
    game = _takeover(["senators:7", "senators:8", "assassin:0", "assassin:0"], None, ["senators:9", "senators:10"])
    assert game.pending is None
    assert game.state.controller[SENATORS] == 2


def test_e42_assassin_of_second_cannot_hit_the_answer_of_first() -> None:
    """E42, E38, R31: "2"'s assassin hits the controller's set; "1"'s later set stays whole."""
    game = _takeover(
        ["senators:9", "senators:10"],
        ["senators:7", "senators:8", "assassin:0", "assassin:0"],
        ["senators:4", "senators:5", "senators:6"],
    )
    state = game.state
    _play(game, ["senators:7", "senators:8"])
    assert game.legal_actions() == [_pick(state, "assassin:0"), DECLINE]
    _play(game, ["assassin:0"])
    assert game.legal_actions() == [COMMIT, DECLINE]  # room for one assassin only
    game.apply(COMMIT)
    assert state.contest == _ids(state, ["senators:7", "senators:8"])
    assert sorted(state.discard) == sorted(_ids(state, ["senators:6", "assassin:0", "senators:4", "senators:5"]))
    assert game.pending is not None and game.pending.seat == 0
    _play(game, ["senators:9", "senators:10"])
    game.apply(COMMIT)
    assert state.sets[SENATORS] == _ids(state, ["senators:9", "senators:10"])
    assert state.players[1].hand[state.tables.assassin_card] == 1  # no later use of "2"'s assassin
    assert game.pending is not None and game.pending.kind is DecisionKind.TAKEOVER_PENALTY


def test_r31_decline_returns_assassins_to_the_hand() -> None:
    """R31: on decline the staged assassins go back to the hand; the target keeps its cards."""
    game = _takeover(["senators:8", "senators:10", "assassin:0"], None, ["senators:4", "senators:7", "senators:9"])
    state = game.state
    hand = state.players[0].hand[:]
    _play(game, ["senators:8", "senators:10", "assassin:0"])
    game.apply(DECLINE)
    assert state.players[0].hand == hand
    assert state.staged == [] and state.discard == []
    assert state.sets[SENATORS] == _ids(state, ["senators:4", "senators:7", "senators:9"])
    assert state.controller[SENATORS] == 2


def test_r31_check_set_accepts_staged_assassins_only_after_faction_cards() -> None:
    """_check_set: staged assassins are valid after the faction cards, within the target's room (R31)."""
    game = _takeover(["senators:8", "senators:10", "assassin:0"], None, ["senators:4", "senators:7", "senators:9"])
    state = game.state
    assassin = state.tables.assassin_card
    state.staged = [assassin, state.tables.card_id("senators:8")]
    assert "after the faction cards" in _check_pending(state)
    state.staged = [state.tables.card_id("senators:8"), assassin, assassin]
    assert "more assassins" in _check_pending(state)
    state.staged = [state.tables.card_id("nubian:1")]
    assert "attacked faction" in _check_pending(state)


# --- property: every committed set beats its weakened target; cards are conserved --------------------------------

_VALUES = (0, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10)  # the Senators cards (components)


def _weakened(state: GameState, target: list[int], k: int) -> list[int]:
    value = state.tables.card_value
    left = sorted(target, key=lambda c: value[c])
    return left[: len(left) - k]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    controller=st.integers(min_value=0, max_value=5),
    contested=st.booleans(),
)
def test_property_commits_beat_the_weakened_target(seed: int, controller: int, contested: bool) -> None:
    """R31 property: each COMMIT's faction cards beat the target after its assassins' removals; at most
    len(target) - 2 assassins; the displayed set holds faction cards only; cards are conserved throughout."""
    rng = random.Random(seed)
    deck = [f"senators:{v}" for v in _VALUES]
    rng.shuffle(deck)
    assassins = ["assassin:0"] * 3
    rng.shuffle(assassins)
    own = deck[: controller if controller >= 2 else 0]
    rest = deck[len(own) :]
    cut = rng.randint(0, len(rest))
    slaves = ["nubian:1", "greek:2", "germanian:3"]
    n_a = rng.randint(0, 3)
    first = rest[:cut] + assassins[:n_a] + slaves[:1]
    second = rest[cut:] + assassins[n_a:] + slaves[1:] if contested else None
    game = _takeover(first, second, own or None)
    state = game.state
    assert _counts_ok(state)
    steps = 0
    while game.pending is not None:
        steps += 1
        assert steps < 200
        pending = game.pending
        legal = game.legal_actions()
        if pending.kind is DecisionKind.TAKEOVER_SET:
            assert _check_pending(state) == ""
            if not state.staged:
                found: set[tuple[int, ...]] = set()
                _explore(game, found)
                assert found == _committable(state.clone(), pending.seat, pending.index)
            picks = [a.card for a in legal if isinstance(a, PickCard)]
            assert all(c == state.tables.assassin_card or state.tables.card_faction[c] == SENATORS for c in picks)
        action: Action = rng.choice(legal)
        if isinstance(action, Commit):
            _assert_commit_beats(state, pending.index)
        game.apply(action)
        assert _counts_ok(state)
        assert all(state.tables.card_faction[c] == SENATORS for c in state.sets[SENATORS])
        assert all(state.tables.card_faction[c] == SENATORS for c in state.contest)


def _explore(game: Game, found: set[tuple[int, ...]]) -> bool:
    """Walk every staging sequence of the pending take-over set (clones); collect the committable sets. Each offered
    PickCard must lead to a COMMIT, and each COMMIT must beat the weakened target (R31)."""
    reachable = False
    for action in game.legal_actions():
        if isinstance(action, Commit):
            _assert_commit_beats(game.state, game.state.pending.index if game.state.pending else -1)
            found.add(tuple(game.state.staged))
            reachable = True
        elif isinstance(action, PickCard):
            child = game.clone()
            child.apply(action)
            assert _explore(child, found), f"PickCard({action.card}) leads to no committable set"
            reachable = True
    return reachable


def _committable(state: GameState, seat: int, role: int) -> set[tuple[int, ...]]:
    """Brute force: every multiset of the hand's Senators cards and assassins that may be committed (R31)."""
    tables = state.tables
    hand = state.players[seat].hand
    pool = [c for c in tables.faction_cards[SENATORS] for _ in range(hand[c])]
    pool += [tables.assassin_card] * hand[tables.assassin_card]
    out: set[tuple[int, ...]] = set()
    for mask in range(1 << len(pool)):
        chosen = tuple(sorted(pool[i] for i in range(len(pool)) if mask >> i & 1))
        state.staged = list(chosen)
        if _commit_ok(state, role):
            out.add(chosen)
    state.staged = []
    return out


def _target_of(state: GameState, role: int) -> list[int] | None:
    if role == TakeoverRole.FIRST_OVER_SECOND:
        return state.contest
    return state.sets[SENATORS] if state.controller[SENATORS] >= 0 else None


def _commit_ok(state: GameState, role: int) -> bool:
    assassin = state.tables.assassin_card
    cards = [c for c in state.staged if c != assassin]
    k = state.staged.count(assassin)
    target = _target_of(state, role)
    if len(cards) < state.config.components.min_set_size:
        return False
    if target is None:
        return k == 0
    return k <= max(0, len(target) - 2) and beats(state, cards, _weakened(state, target, k))


def _assert_commit_beats(state: GameState, role: int) -> None:
    assert _commit_ok(state, role), f"committed {state.staged} against {_target_of(state, role)}"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_base_game_takeover_lists_unchanged(seed: int) -> None:
    """Base games (no assassin type): a take-over offers faction cards only, as before."""
    game = Game.new(players=3, seed=seed, auto_forced=False)
    assert game.tables.assassin_card == -1
    rng = random.Random(seed)
    while game.pending is not None and game.round < 3:
        legal = game.legal_actions()
        if game.pending.kind is DecisionKind.TAKEOVER_SET:
            assert all(
                game.tables.card_faction[a.card] == game.pending.faction for a in legal if isinstance(a, PickCard)
            )
        game.apply(rng.choice(legal))
