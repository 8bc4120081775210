"""Expansion phase 6: the expansion board, regions IX Refugium, X Basilica, XI Capitoleum (E46-E60; R33, R34, R36).

The regions have follower spaces only, no card fields (E7), and are evaluated in the order IX, X, XI (E46);
occupants act in space order and the common ``end_region`` sends the followers home after each region.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations

from tribune_env.data import (
    Components,
    EmperorTile,
    ExpansionRegion,
    ExpansionRegionSpec,
    ExpansionSpec,
    Nationality,
    Official,
    Region,
    Requirement,
)
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    ChooseOfficial,
    ChooseOption,
    ChooseTile,
    Commit,
    Decline,
    PickCard,
    choose_official,
    choose_option,
    choose_tile,
    pick_card,
)
from tribune_env.engine.brutii_ops import brutii_tail, by_card
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.ops import (
    ask,
    card_names,
    give_laurels,
    give_legions,
    pay,
    seat_name,
    set_sum,
    stage,
    touch,
    unstage,
)
from tribune_env.engine.regions import free_spaces, on_slot, ordered_problem, paired_spaces
from tribune_env.engine.registry import CheckFn, DecisionRule, RegionRule, decision, region_rule, step
from tribune_env.engine.state import NO_TILE, GameState, Task

PATRON, PAIRS = 0, 1  # the options of a REFUGIUM_OPTION decision (R33)


def _spec(state: GameState) -> ExpansionSpec:
    spec = state.config.components.expansion
    assert spec is not None  # only expansion games have these regions
    return spec


def _region_spec(state: GameState, region: Region) -> ExpansionRegionSpec:
    return _spec(state).region(ExpansionRegion(region - Region.REFUGIUM))


def _occupant(state: GameState, region: Region, slot: int) -> int:
    return state.spaces[state.tables.region_spaces[region][slot]]


def _slots(state: GameState, region: Region) -> range:
    return range(len(state.tables.region_spaces[region]))


def _occupants(region: Region, step_name: str) -> Callable[[GameState], list[Task]]:
    """The evaluation of a region whose occupants act one by one in space order (E46)."""
    return lambda state: [*[(step_name, i) for i in _slots(state, region)], *brutii_tail(state, region)]


# --- IX: Refugium (R33, E47-E49) ---------------------------------------------------------------------


def _patron_supply(state: GameState) -> int:
    """Patron tiles left on the Refugium (E10)."""
    return _spec(state).patron_supply - sum(p.patrons for p in state.players)


def _patron_valid(state: GameState, seat: int, cards: list[int]) -> bool:
    """E47, R33: exactly ``patron_slaves`` slaves, or exactly ``patron_slaves_with_nubian`` with a Nubian among
    them, and the player can pay their total value."""
    numbers = _region_spec(state, Region.REFUGIUM).numbers
    nubian = any(state.tables.card_nationality[c] == Nationality.NUBIAN for c in cards)
    size = len(cards) == numbers["patron_slaves"] or (len(cards) == numbers["patron_slaves_with_nubian"] and nubian)
    return size and set_sum(state, cards) <= state.players[seat].money


def _slave_pool(state: GameState, seat: int, start: int, nationalities: tuple[int, ...]) -> list[int]:
    """The slave cards of ``nationalities`` in the hand of ``seat`` of type >= ``start``, one entry per card."""
    hand = state.players[seat].hand
    tables = state.tables
    return sorted(c for n in nationalities for c in tables.slave_cards[n] if c >= start for _ in range(hand[c]))


def _patron_completions(state: GameState, seat: int, staged: list[int]) -> set[tuple[int, ...]]:
    """Every ascending run of hand cards that turns ``staged`` into a valid, affordable patron set."""
    numbers = _region_spec(state, Region.REFUGIUM).numbers
    pool = _slave_pool(state, seat, staged[-1] if staged else 0, tuple(Nationality))
    out: set[tuple[int, ...]] = set()
    for size in {numbers["patron_slaves"], numbers["patron_slaves_with_nubian"]}:
        if size < len(staged):
            continue
        for extra in combinations(pool, size - len(staged)):
            if _patron_valid(state, seat, [*staged, *extra]):
                out.add(extra)
    return out


def _patron_offered(state: GameState, seat: int) -> bool:
    """R33: only to a player below the per-player limit, while the supply lasts, with an affordable valid set."""
    limit = _spec(state).patrons_per_player
    return (
        state.players[seat].patrons < limit and _patron_supply(state) > 0 and bool(_patron_completions(state, seat, []))
    )


def pairable_nationalities(state: GameState) -> tuple[int, ...]:
    """The nationalities with a pair reward (E48: not the Nubians)."""
    return tuple(int(n) for n in _region_spec(state, Region.REFUGIUM).pairs)


def _pair_picks(state: GameState, seat: int, staged: list[int]) -> list[int]:
    """Cards that keep "pairs of one nationality each" reachable, in ascending card-type order.

    Nationalities are contiguous in card-type order, so a nationality left behind must hold an even count.
    """
    tables = state.tables
    hand = state.players[seat].hand
    counts = Counter(tables.card_nationality[c] for c in staged)
    last = staged[-1] if staged else -1
    out: list[int] = []
    for card in _slave_pool(state, seat, max(last, 0), pairable_nationalities(state)):
        if card in out:
            continue
        n = tables.card_nationality[card]
        if any(k % 2 for m, k in counts.items() if m != n):
            continue
        if (counts[n] + 1) % 2 and hand[card] - 1 + sum(hand[c] for c in tables.slave_cards[n] if c > card) < 1:
            continue
        out.append(card)
    return out


def _pairs_complete(state: GameState, staged: list[int]) -> bool:
    """R33: one or more pairs, each of one nationality."""
    counts = Counter(state.tables.card_nationality[c] for c in staged)
    return bool(staged) and all(k % 2 == 0 for k in counts.values())


@step(slot_region=Region.REFUGIUM, expansion=True)
def refugium_space(state: GameState, slot: int) -> None:
    """R33: the occupant chooses patron, pairs or nothing (E49: one option only)."""
    seat = _occupant(state, Region.REFUGIUM, slot)
    if seat >= 0:
        state.staged = []
        ask(state, Pending(DecisionKind.REFUGIUM_OPTION, seat, index=slot))


def _legal_refugium_option(state: GameState, pending: Pending) -> list[Action]:
    seat = pending.seat
    options: list[Action] = []
    if _patron_offered(state, seat):
        options.append(choose_option(PATRON))
    if _pair_picks(state, seat, []):
        options.append(choose_option(PAIRS))
    options.append(DECLINE)
    return options


def _resolve_refugium_option(state: GameState, pending: Pending, action: ChooseOption | Decline) -> None:
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} uses no Refugium option")
        return
    kind = DecisionKind.REFUGIUM_PATRON if action.option == PATRON else DecisionKind.REFUGIUM_PAIRS
    state.staged = []
    ask(state, Pending(kind, seat, index=pending.index))


def _legal_patron(state: GameState, pending: Pending) -> list[Action]:
    completions = _patron_completions(state, pending.seat, state.staged)
    options: list[Action] = [pick_card(c) for c in sorted({run[0] for run in completions if run})]
    if () in completions:
        options.append(COMMIT)
    options.append(DECLINE)
    return options


def _staged_choice(
    state: GameState, pending: Pending, action: PickCard | Commit | Decline, declined: str
) -> list[int] | None:
    """The staging part of a Refugium choice: a card is staged (asked again), a decline returns the staged cards
    (logged as ``declined``); on commit the staged cards, taken off the table."""
    if isinstance(action, PickCard):
        stage(state, pending, action.card)
        return None
    if isinstance(action, Decline):
        unstage(state, pending.seat)
        state.log(pending.seat, f"{seat_name(pending.seat)} {declined}")
        return None
    cards, state.staged = state.staged, []
    return cards


def _resolve_patron(state: GameState, pending: Pending, action: PickCard | Commit | Decline) -> None:
    """E47, R33: the total value goes to the stock, the slaves to the discard pile; +1 patron tile."""
    seat = pending.seat
    cards = _staged_choice(state, pending, action, "takes no patron tile at the Refugium")
    if cards is None:
        return
    pay(state, seat, set_sum(state, cards), "Refugium patron, to the stock")
    state.discard.extend(cards)
    state.players[seat].patrons += 1
    touch(state, seat)
    state.log(seat, f"{seat_name(seat)} discards {card_names(state, cards)} and takes a patron tile (R33)")


def _legal_pairs(state: GameState, pending: Pending) -> list[Action]:
    options: list[Action] = [pick_card(c) for c in _pair_picks(state, pending.seat, state.staged)]
    if _pairs_complete(state, state.staged):
        options.append(COMMIT)
    options.append(DECLINE)
    return options


def _resolve_pairs(state: GameState, pending: Pending, action: PickCard | Commit | Decline) -> None:
    """E48, R33: each pair gives its nationality's reward; the slaves go to the discard pile; nothing is paid."""
    seat = pending.seat
    cards = _staged_choice(state, pending, action, "discards no pairs at the Refugium")
    if cards is None:
        return
    state.discard.extend(cards)
    state.log(seat, f"{seat_name(seat)} discards the pairs {card_names(state, cards)} at the Refugium")
    counts = Counter(state.tables.card_nationality[c] for c in cards)
    for nationality, reward in _region_spec(state, Region.REFUGIUM).pairs.items():
        pairs = counts[nationality] // 2
        why = f"{pairs} {nationality.key} pair(s) at the Refugium"
        give_laurels(state, seat, pairs * reward.laurels, why)
        give_legions(state, seat, pairs * reward.legions, why)


def _refugium_labels(components: Components, faction: int) -> tuple[str, ...]:
    spec = components.expansion
    assert spec is not None  # an expansion decision
    refugium = spec.region(ExpansionRegion.REFUGIUM)
    numbers = refugium.numbers
    rewards = ", ".join(
        f"{n.key} pair = " + " + ".join(f"{v} {k}" for k, v in (("laurels", r.laurels), ("legions", r.legions)) if v)
        for n, r in refugium.pairs.items()
    )
    return (
        f"patron: discard {numbers['patron_slaves']} slaves (or {numbers['patron_slaves_with_nubian']} with a "
        "Nubian) and pay their value for a patron tile",
        f"pairs: discard pairs of slaves of one nationality ({rewards})",
    )


def _staged_problem(state: GameState, pending: Pending, allowed: tuple[int, ...]) -> str:
    tables = state.tables
    if any(tables.card_nationality[c] not in allowed for c in state.staged):
        return f"staged: a {pending.kind.key} decision stages slave cards of {[Nationality(n).key for n in allowed]}"
    if state.staged != sorted(state.staged):
        return "staged: cards are staged in ascending card-type order"
    return ""


def _refugium_check(kind: DecisionKind) -> CheckFn:
    """A loaded Refugium decision: the player on that space; only slave cards staged, and none before an option."""
    on_space = on_slot(Region.REFUGIUM)

    def check(state: GameState, pending: Pending) -> str:
        problem = on_space(state, pending)
        if problem:
            return problem
        if kind is DecisionKind.REFUGIUM_OPTION:
            return "staged: a refugium_option decision has no staged cards" if state.staged else ""
        pairable = pairable_nationalities(state) if kind is DecisionKind.REFUGIUM_PAIRS else tuple(Nationality)
        return _staged_problem(state, pending, pairable)

    return check


# --- X: Basilica (R34, E50-E55) ------------------------------------------------------------------------


def _tile(state: GameState, tile: int) -> EmperorTile:
    return next(t for t in _spec(state).emperor_tiles if t.id == tile)


_MOST: dict[Requirement, Callable[[GameState, int], int]] = {
    Requirement.MOST_MARKERS: lambda state, seat: state.players[seat].num_markers,
    Requirement.MOST_LAURELS: lambda state, seat: state.players[seat].laurels,
    Requirement.MOST_LEGIONS: lambda state, seat: state.players[seat].legions,
    Requirement.MOST_DENARII: lambda state, seat: state.players[seat].money,
}


def _meets(state: GameState, seat: int, requirement: Requirement) -> bool:
    """R34: one requirement of a favor of the emperor tile (E51, E52)."""
    player = state.players[seat]
    if requirement is Requirement.FAVOR:
        return player.eternal_favor or player.temporary_favor
    if requirement is Requirement.SCROLL:
        return player.tile != NO_TILE  # the tile on either side: a tribune was a scroll
    if requirement is Requirement.PATRON:
        return player.patrons > 0
    if requirement is Requirement.PAY:
        return player.money >= _spec(state).emperor_pay
    amount = _MOST[requirement]
    mine = amount(state, seat)
    return mine >= 1 and all(amount(state, other) <= mine for other in range(state.num_players))  # E52: a tie is enough


def _claimable(state: GameState, pending: Pending) -> list[int]:
    """E54, E55: the face-up tile (unclaimed this round), and the Matrona holder's own tiles, whose requirements
    the deciding seat meets, in that order.

    R50 (amended), E100: the Brutii claiming through "Favor of the Emperor" gets neither once the face-up tile is
    gone. He acts after every occupant, so it was claimed by another player this round: a tile claimed in an earlier
    round is replaced in phase 8 unless the pile is empty, and then the Matrona was dealt no tiles either (R35).
    """
    seat = pending.seat
    if state.emperor_up < 0 and by_card(state, pending):
        return []
    tiles = [state.emperor_up] if state.emperor_up >= 0 else []
    if state.officials[Official.MATRONA] == seat:
        tiles += sorted(state.matrona_tiles)
    return [t for t in tiles if all(_meets(state, seat, r) for r in _tile(state, t).requires)]


@step(slot_region=Region.BASILICA, expansion=True)
def basilica_space(state: GameState, slot: int) -> None:
    """E50: "1" may claim a tile, then "2"."""
    seat = _occupant(state, Region.BASILICA, slot)
    if seat >= 0:
        ask(state, Pending(DecisionKind.BASILICA_CLAIM, seat, index=slot))


def _legal_basilica(state: GameState, pending: Pending) -> list[Action]:
    return [*(choose_tile(t) for t in _claimable(state, pending)), DECLINE]


def _resolve_basilica(state: GameState, pending: Pending, action: ChooseTile | Decline) -> None:
    """R34: every requirement was checked (legal list); a "pay" requirement is then paid to the stock (E53)."""
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} claims no emperor tile at the Basilica")
        return
    tile = action.tile
    if Requirement.PAY in _tile(state, tile).requires:
        pay(state, seat, _spec(state).emperor_pay, f"emperor tile {tile}, to the stock")
    if tile == state.emperor_up:
        state.emperor_up = -1  # E54: the next tile stays face down until phase 8
        source = "the face-up"
    else:
        state.matrona_tiles.remove(tile)
        source = "his Matrona"
    state.players[seat].emperor_tiles.append(tile)
    touch(state, seat)
    state.log(seat, f"{seat_name(seat)} claims {source} favor of the emperor tile {tile} (R34)")


# --- XI: Capitoleum (R36, E56-E60) ---------------------------------------------------------------------


@step(slot_region=Region.CAPITOLEUM, expansion=True)
def capitoleum_space(state: GameState, slot: int) -> None:
    """E56: "1", "2", "3" may each choose an official."""
    seat = _occupant(state, Region.CAPITOLEUM, slot)
    if seat >= 0:
        ask(state, Pending(DecisionKind.OFFICIAL_CHOICE, seat, index=slot))


def _legal_official(state: GameState, pending: Pending) -> list[Action]:
    """E57, R36: every official not chosen this round, wherever it is (his own included)."""
    return [
        *(choose_official(o) for o, chosen in enumerate(state.officials_chosen) if not chosen),
        DECLINE,
    ]


def _resolve_official(state: GameState, pending: Pending, action: ChooseOfficial | Decline) -> None:
    """R36, E58: the chooser's earlier official returns to the Capitoleum once he would hold more than allowed;
    one held by another player is taken from him."""
    seat = pending.seat
    if isinstance(action, Decline):
        state.log(seat, f"{seat_name(seat)} chooses no official")
        return
    chosen = Official(action.official)
    name = _spec(state).official(chosen).name
    limit = _region_spec(state, Region.CAPITOLEUM).numbers["officials_per_player"]
    held = [o for o, h in enumerate(state.officials) if h == seat and o != chosen]
    for official in held[: max(0, len(held) + 1 - limit)]:
        state.officials[official] = -1
        state.log(seat, f"{seat_name(seat)} returns the {_spec(state).official(Official(official)).name} (R36)")
    previous = state.officials[chosen]
    state.officials[chosen] = seat
    state.officials_chosen[chosen] = True
    touch(state, seat)
    if previous >= 0 and previous != seat:
        touch(state, previous)
        state.log(seat, f"{seat_name(seat)} takes the {name} from {seat_name(previous)} (R36)")
    else:
        state.log(seat, f"{seat_name(seat)} chooses the {name}")


def _capitoleum_cleared(state: GameState) -> None:
    state.officials_chosen = [False] * len(state.officials_chosen)


# --- placement rules (E25-E28) -------------------------------------------------------------------------


def _refugium_spaces(state: GameState, seat: int) -> list[int]:
    """E26, R33: any free space, one per player."""
    if any(state.spaces[s] == seat for s in state.tables.region_spaces[Region.REFUGIUM]):
        return []
    return free_spaces(state, Region.REFUGIUM)


def _refugium_problem(state: GameState) -> str:
    seats = [state.spaces[s] for s in state.tables.region_spaces[Region.REFUGIUM] if state.spaces[s] >= 0]
    return "one player on two refugium spaces (E26)" if len(set(seats)) != len(seats) else ""


def _ordered_spaces(state: GameState, region: Region, seat: int) -> list[int]:
    """E28: the spaces are filled "1", "2", "3" in order, one per player."""
    ids = state.tables.region_spaces[region]
    if any(state.spaces[s] == seat for s in ids):
        return []
    return next(([s] for s in ids if state.spaces[s] < 0), [])


region_rule(
    RegionRule(
        Region.REFUGIUM,
        _occupants(Region.REFUGIUM, "refugium_space"),
        _refugium_spaces,
        visible=lambda state, seat, i: False,
        check=_refugium_problem,
    )
)
region_rule(
    RegionRule(
        Region.BASILICA,
        _occupants(Region.BASILICA, "basilica_space"),
        lambda state, seat: paired_spaces(state, state.tables.region_spaces[Region.BASILICA], seat),  # E27
        visible=lambda state, seat, i: False,
        check=lambda state: ordered_problem(state, state.tables.region_spaces[Region.BASILICA], "basilica"),
    )
)
region_rule(
    RegionRule(
        Region.CAPITOLEUM,
        _occupants(Region.CAPITOLEUM, "capitoleum_space"),
        lambda state, seat: _ordered_spaces(state, Region.CAPITOLEUM, seat),
        visible=lambda state, seat, i: False,
        cleared=_capitoleum_cleared,
        check=lambda state: ordered_problem(state, state.tables.region_spaces[Region.CAPITOLEUM], "capitoleum"),
    )
)

decision(
    DecisionRule(
        DecisionKind.REFUGIUM_OPTION,
        _legal_refugium_option,
        _resolve_refugium_option,
        "Refugium: take a patron tile, discard pairs of slaves, or neither (one option only).",
        check=_refugium_check(DecisionKind.REFUGIUM_OPTION),
        decline_words="use neither option",
        options=_refugium_labels,
        expansion=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.REFUGIUM_PATRON,
        _legal_patron,
        _resolve_patron,
        "Refugium patron: add a slave to the set you discard, pay its value for a patron tile (commit), or give up.",
        check=_refugium_check(DecisionKind.REFUGIUM_PATRON),
        card_verb="add to the patron set:",
        commit_words="discard the chosen slaves, pay their value and take a patron tile",
        decline_words="take no patron tile (chosen cards go back to your hand)",
        stages=True,
        expansion=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.REFUGIUM_PAIRS,
        _legal_pairs,
        _resolve_pairs,
        "Refugium pairs: add a slave to your pairs, discard the pairs for their rewards (commit), or give up.",
        check=_refugium_check(DecisionKind.REFUGIUM_PAIRS),
        card_verb="add to your pairs:",
        commit_words="discard the chosen pairs for their rewards",
        decline_words="discard no pairs (chosen cards go back to your hand)",
        stages=True,
        expansion=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.BASILICA_CLAIM,
        _legal_basilica,
        _resolve_basilica,
        "Basilica: claim a favor of the emperor tile whose requirements you meet, or not.",
        check=on_slot(Region.BASILICA),
        decline_words="claim no tile",
        expansion=True,
    )
)
decision(
    DecisionRule(
        DecisionKind.OFFICIAL_CHOICE,
        _legal_official,
        _resolve_official,
        "Capitoleum: choose an official not chosen this round (yours returns to the Capitoleum), or none.",
        check=on_slot(Region.CAPITOLEUM),
        decline_words="choose no official",
        expansion=True,
    )
)
