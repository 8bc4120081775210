"""The heuristic's plans that the Brutii's rules share (:mod:`agents.heuristic`, :mod:`agents.brutii_rules`).

What an assassin, a patron set, a Field of Mars pair, a sacrifice, an official or an emperor tile is worth to the
player to move, what it may spend, the chariot bid and the exposure of a set: priced with
:class:`~agents.strategy.Valuation`. Both rule sets build on this module and neither on the other's internals, so the
two import no private name of each other (issue 36).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from agents.strategy import Valuation, best_set, patron_sets, weakened
from tribune_env.data import BrutiiCard, Nationality, Official, Region
from tribune_env.engine.actions import (
    Action,
    PickCard,
)
from tribune_env.engine.tables import CardKind, SpaceSpec
from tribune_env.engine.view import HIDDEN

ASSASSIN_WORTH = 0.8  # an assassin is played when this share of the faction is worth more than the assassins kept


CHARIOT_SHARE = 0.3  # share of a controlled faction's exposure bid for the chariot


CHARIOT_CAP = 4  # the highest chariot bid


def picks(legal: Sequence[Action]) -> list[int]:
    return [a.card for a in legal if isinstance(a, PickCard)]


def assassin_plan(
    v: Valuation, f: int, pool: list[int], target: list[int], available: int
) -> tuple[list[int], int] | None:
    """The cheapest winning set of ``pool`` and the assassins it needs (R31): none when a set wins without them,
    otherwise the fewest that make one win, if faction ``f`` is worth them; None when no set wins."""
    smallest = v.components.min_set_size
    plan = best_set(v.tables, pool, [target], smallest)
    if plan is not None:
        return plan, 0
    room = max(0, len(target) - v.protected)
    for k in range(1, min(available, room) + 1):
        plan = best_set(v.tables, pool, [weakened(v.tables, target, k, v.protected)], smallest)
        if plan is not None:
            return (plan, k) if ASSASSIN_WORTH * v.faction(f) > k * v.card(v.assassin) else None
    return None


def exposure(v: Valuation, f: int) -> float:
    """How much faction ``f`` (controlled by the player) is worth protecting with the chariot."""
    size = len(v.view.sets[f])
    return v.faction(f) * (0.6 if size <= 2 else 0.3 if size == 3 else 0.15)


def chariot_amount(v: Valuation, worth: float) -> int:
    """The chariot bid for protecting a faction whose exposure is ``worth``: a share of it, at most
    :data:`CHARIOT_CAP`."""
    return min(CHARIOT_CAP, int(CHARIOT_SHARE * worth / v.denarius()))


def sacrifice_kinds(v: Valuation) -> list[int]:
    """Per card type, what a Pantheon card of that type asks for (R30): its faction, any slave (-1), an assassin
    (-2)."""
    kinds = v.tables.card_kind
    return [f if f >= 0 else (-1 if kinds[c] is CardKind.SLAVE else -2) for c, f in enumerate(v.tables.card_faction)]


def spendable(v: Valuation) -> int:
    """Denarii free to spend now: less what phase 6 will ask for (:func:`reserve`; nothing in a base game)."""
    return v.me.money - reserve(v)


def reserve(v: Valuation) -> int:
    """Denarii the player's followers on the Refugium and the Basilica will need in phase 6: the patron set's value
    (R33) and a tile's payment (R34)."""
    cached = v.memo.get("reserve")
    if isinstance(cached, int):
        return cached
    total = 0
    spaces = v.tables.region_spaces
    if any(v.view.spaces[s] == v.seat for s in spaces[Region.REFUGIUM]):
        plan = patron_plan(v, v.me.money)
        if plan is not None and plan[0] > 0:
            total += sum(v.tables.card_value[c] for c in plan[1])
    for s in spaces[Region.BASILICA]:
        if v.view.spaces[s] == v.seat:
            tile = target_tile(v, v.tables.spaces[s], v.me.money)
            total += v.tile_cost(tile) if tile >= 0 else 0
    if v.view.brutii == v.seat:
        total += brutii_reserve(v)
    v.memo["reserve"] = total
    return total


def brutii_reserve(v: Valuation) -> int:
    """What the Brutii's played "Patron" and "Favor of the Emperor" will ask in phase 6 (R47, R50): the patron set's
    value and the face-up tile's payment, when he is likely to claim them."""
    played = v.view.brutii_played
    total = 0
    if int(BrutiiCard.PATRON) in played:
        plan = patron_plan(v, v.me.money)
        if plan is not None and plan[0] > 0:
            total += sum(v.tables.card_value[c] for c in plan[1])
    up = v.view.emperor_up
    if int(BrutiiCard.FAVOR_OF_THE_EMPEROR) in played and up >= 0 and v.tile_chance(up, v.seat) >= 0.5:
        total += v.tile_cost(up)
    return total


def own_staged(v: Valuation) -> list[int]:
    return sorted(c for c in v.view.staged if c != HIDDEN)


def slave_pool(v: Valuation) -> list[int]:
    """The slaves in hand and those staged in the running Refugium choice."""
    return sorted([*v.slave_cards(), *own_staged(v)])


def without(pool: Sequence[int], cards: Sequence[int]) -> list[int]:
    rest = Counter(pool)
    rest.subtract(Counter(cards))
    return sorted(rest.elements())


def slave_keep(v: Valuation, card: int) -> float:
    """What a slave is worth as an ordinary card, apart from the Refugium (a patron set costs its value)."""
    return 0.6 - 0.03 * v.tables.card_value[card]


def patron_plan(v: Valuation, money: int) -> tuple[float, tuple[int, ...]] | None:
    """The patron set worth most (R33: three slaves, or two with a Nubian, paying their value): the patron's worth
    minus the slaves as cards, the pairs they held and the denarii; None when no set is affordable."""
    spec = v.spec
    worth = v.patron()
    if spec is None or worth <= 0:
        return None
    pool = slave_pool(v)
    pairs = v.pair_potential(pool)
    best: tuple[float, tuple[int, ...]] | None = None
    for combo in patron_sets(v.tables, spec, pool):
        price = sum(v.tables.card_value[c] for c in combo)
        if price > money:
            continue
        kept = pairs - v.pair_potential(without(pool, combo))
        gain = worth - sum(slave_keep(v, c) for c in combo) - kept - v.money(price)
        if best is None or gain > best[0]:
            best = (gain, combo)
    return best


def pairs_plan(v: Valuation) -> tuple[float, list[int]]:
    """The Refugium pairs worth discarding (R33: one nationality each; Greeks 3 laurels, Germanians 1 legion; no
    Nubians): the highest slaves of a nationality first (low ones are the cheaper patron set), each pair only while
    its reward beats the cards and the patron chance they take with them."""
    pool = slave_pool(v)
    chosen: list[int] = []
    total = 0.0
    for n in Nationality:
        reward = v.pair_reward(n)
        if reward <= 0:
            continue
        cards = sorted((c for c in pool if v.tables.card_nationality[c] == n), key=lambda c: -v.tables.card_value[c])
        while len(cards) >= 2:
            pair = cards[:2]
            rest = without(pool, [*chosen, *pair])
            lost = v.patron_potential(without(pool, chosen)) - v.patron_potential(rest)
            gain = reward - sum(slave_keep(v, c) for c in pair) - lost
            if gain <= 0:
                break
            chosen += pair
            total += gain
            cards = cards[2:]
    return total, sorted(chosen)


def tile_value(v: Valuation, tile: int) -> float:
    """A claim of ``tile`` now: the tile less the denarii a "pay" requirement costs (R34)."""
    return v.emperor_tile() - v.money(v.tile_cost(tile))


def official_gain(v: Valuation, official: int, threat: float) -> float:
    """Choosing ``official`` (R36) rather than nothing: its worth (a little more when taken from a rival) less the
    official returned for it, which would otherwise be kept unless a later chooser takes it (``threat``); choosing
    one's own official again only protects it from that."""
    mine = [o for o, h in enumerate(v.view.officials) if h == v.seat]
    value = v.official(Official(official))
    if official in mine:
        return threat * value
    holder = v.view.officials[official]
    if holder >= 0:
        value *= 1.25  # taken from a rival
    for o in mine:
        value -= (1.0 - threat) * v.official(Official(o))
    return value


def basilica_tiles(v: Valuation, spec: SpaceSpec) -> list[tuple[int, float]]:
    """The tiles the player on ``spec`` may claim (R34) with the chance each is still there: the face-up one (unless
    "1" before him will claim it) and his Matrona tiles."""
    view = v.view
    tiles: list[tuple[int, float]] = []
    if view.emperor_up >= 0:
        taken = 0.0
        first = view.spaces[v.tables.region_spaces[Region.BASILICA][0]]
        if spec.slot > 0 and first >= 0 and first != v.seat:
            taken = v.tile_chance(view.emperor_up, first)
        tiles.append((view.emperor_up, 1.0 - taken))
    if view.officials[Official.MATRONA] == v.seat:
        tiles += [(t, 1.0) for t in view.matrona_tiles]
    return tiles


def tile_prospect(v: Valuation, spec: SpaceSpec, money: int) -> tuple[float, int]:
    """The best expected claim from ``spec`` with ``money`` denarii, and its tile (-1: none)."""
    best, choice = -1.0, -1
    for tile, free in basilica_tiles(v, spec):
        value = free * v.tile_chance(tile, v.seat, money) * tile_value(v, tile)
        if value > best:
            best, choice = value, tile
    return best, choice


def target_tile(v: Valuation, spec: SpaceSpec, money: int) -> int:
    value, tile = tile_prospect(v, spec, money)
    return tile if value > 0 else -1
