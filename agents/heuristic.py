"""``heuristic``: a rule-based strategy with a rule for every decision kind.

How it decides (all prices come from :class:`agents.strategy.Valuation`, which
reads the victory card and picks the objectives worth pursuing):

* **Follower placement.** Every legal space is priced and the best taken. A
  faction field is worth the faction (marker, first laurel, take-over benefit,
  two rounds of faction benefit) when the hand already holds a winning set,
  discounted when a rival stands on the other space of the field, and a part
  of it when one card is missing and such a card lies face up on the board.
  Thermae, Forum and Curia fields are worth their visible cards minus the
  price (denarii, or the cheapest card of the hand); the coin bowl its
  denarii; the Latrine, Atrium and Catacombs an expected card; the Pantheon
  the eternal favor times the chance of holding a card of the revealed
  faction; the Field of Mars a laurel when the hand holds a spare pair.
* **Cards.** A card is worth more when it closes the gap to a take-over the
  player can win (by count or by sum); discards and penalties give up the
  card worth least.
* **Take-overs.** The cheapest winning set (fewest cards, then lowest sum), then
  topped up to three cards with spare cards of the faction so it is harder to
  take back. Sets are built in ascending card order, as the engine asks.
* **Auctions.** Atrium bids are a share of what the cards are worth in
  denarii; the chariot is bid for (cheaply) only to protect a valuable
  faction with a small displayed set, and placed on the most exposed one.
* **Benefits and options.** Each option is priced (scroll, tribune, cards,
  laurels, favors, legions, denarii) under the current needs, the best taken.

Spec parameters: none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from agents.base import Agent, InfoSet
from agents.specs import no_more, register_agent
from agents.strategy import Valuation, beats, best_set
from tribune_env.data import Components, Faction, Region
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    Assassinate,
    Bid,
    ChooseFaction,
    ChooseOption,
    PickCard,
    PlaceFollower,
    bid,
)
from tribune_env.engine.decisions import DecisionKind, Pending, TakeoverRole
from tribune_env.engine.tables import SpaceKind, SpaceSpec
from tribune_env.engine.view import HIDDEN, PlayerView

TOP_UP = 3  # a won set is topped up to this many cards with spare cards of the faction


class HeuristicAgent(Agent):
    """Prices every legal choice with :class:`~agents.strategy.Valuation` and takes the best (module docstring)."""

    name = "heuristic"

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if len(legal) == 1:
            return legal[0]
        pending = view.pending
        assert pending is not None, "act() is called only at a decision"
        v = Valuation(view, self.config.components)
        choice = _HANDLERS[pending.kind](v, pending, legal)
        return choice if choice in legal else legal[0]


# -- helpers ---------------------------------------------------------------------------


def _picks(legal: Sequence[Action]) -> list[int]:
    return [a.card for a in legal if isinstance(a, PickCard)]


def _cheapest_pick(v: Valuation, legal: Sequence[Action]) -> Action:
    cards = _picks(legal)
    return PickCard(min(cards, key=v.card)) if cards else DECLINE


def _best_option(values: dict[int, float], legal: Sequence[Action]) -> Action:
    options = [a for a in legal if isinstance(a, ChooseOption)]
    return max(options, key=lambda a: values.get(a.option, 0.0))


# -- discards ----------------------------------------------------------------------------


def _discard(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    return _cheapest_pick(v, legal)


def _curia(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    field = v.view.board[Region.CURIA][pending.index]
    gain = sum(v.card(c) for c in field if c != HIDDEN)
    cards = _picks(legal)
    if not cards:
        return DECLINE
    give = min(cards, key=v.card)
    return PickCard(give) if gain > v.card(give) else DECLINE


def _tigellinus(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = _picks(legal)
    if cards and v.legion() > min(v.card(c) for c in cards):
        return PickCard(min(cards, key=v.card))
    return DECLINE


# -- phase 3 choices -----------------------------------------------------------------------


def _latrine(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    card = v.view.board[Region.LATRINE][0][0]
    price = v.tables.card_value[card]
    return _best_option({0: v.money(price), 1: v.card(card) - v.money(price)}, legal)


def _atrium_bid(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = [c for field in v.view.board[Region.ATRIUM] for c in field]
    worth = sum(v.card(c) if c != HIDDEN else v.average_card() for c in cards)
    amount = int(0.45 * worth / v.denarius())
    return _closest_bid(amount, legal)


def _closest_bid(amount: int, legal: Sequence[Action]) -> Action:
    bids = [a.amount for a in legal if isinstance(a, Bid)]
    return bid(min(bids, key=lambda b: abs(b - amount)))


def _catacombs(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = _picks(legal)
    if not cards:
        return DECLINE
    price = v.components.region(Region.CATACOMBS).prices[pending.index]
    best = max(cards, key=v.card)
    return PickCard(best) if v.card(best) > v.money(price) else DECLINE


def _pantheon(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = _picks(legal)
    if cards and v.favor(eternal=True) > min(v.card(c) for c in cards):
        return PickCard(min(cards, key=v.card))
    return DECLINE


def _mars(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = _picks(legal)
    if not cards:
        return COMMIT if COMMIT in legal else DECLINE
    staged = [c for c in v.view.staged if c != HIDDEN]
    if staged:  # the second card: the cheapest that finishes the pair
        return PickCard(min(cards, key=v.card))
    pair = _best_pair(v)
    if pair is None:
        return DECLINE
    return PickCard(min(pair))


def _best_pair(v: Valuation) -> tuple[int, int] | None:
    """The pair to discard on the Field of Mars, or None when no pair is worth a laurel."""
    if "pair" not in v.memo:
        v.memo["pair"] = _find_pair(v)
    return v.memo["pair"]  # type: ignore[return-value]


def _find_pair(v: Valuation) -> tuple[int, int] | None:
    best: tuple[float, tuple[int, int]] | None = None
    for f in Faction:
        held = sorted(v.faction_cards(f), key=v.card)
        if len(held) < 2:
            continue
        a, b = held[0], held[1]
        cost = v.card(a) + v.card(b)
        gain = v.laurel() * 1.3 + 0.05 * (v.tables.card_value[a] + v.tables.card_value[b])
        if gain - cost > 0 and (best is None or gain - cost > best[0]):
            best = (gain - cost, (a, b))
    return None if best is None else best[1]


# -- phase 4 -----------------------------------------------------------------------------------


def _takeover(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    f = pending.faction
    staged = sorted(c for c in v.view.staged if c != HIDDEN)
    # R15 (amended): "1" answering "2" has to beat "2"'s set only; the controller's set is already gone.
    if pending.index == TakeoverRole.FIRST_OVER_SECOND:
        targets = [list(v.view.contest)]
    else:
        targets = [list(v.view.sets[f])]
    pool = staged + v.faction_cards(f)
    plan = best_set(v.tables, pool, targets, v.components.min_set_size)
    if plan is None:
        return DECLINE
    plan = _top_up(v, plan, pool)
    remaining = Counter(plan)
    remaining.subtract(Counter(staged))
    if any(n < 0 for n in remaining.values()):  # staged cards outside the plan: finish as cheaply as legal
        return COMMIT if COMMIT in legal else _cheapest_pick(v, legal)
    todo = sorted(remaining.elements())
    if not todo:
        return COMMIT
    pick = PickCard(todo[0])
    if pick in legal:
        return pick
    return COMMIT if COMMIT in legal and beats(v.tables, staged, targets[0]) else _cheapest_pick(v, legal)


def _top_up(v: Valuation, plan: list[int], pool: list[int]) -> list[int]:
    spare = Counter(pool)
    spare.subtract(Counter(plan))
    extra = sorted(spare.elements(), key=lambda c: -v.tables.card_value[c])
    plan = list(plan)
    while len(plan) < TOP_UP and extra:
        plan.append(extra.pop(0))
    return sorted(plan)


def _penalty(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    return _cheapest_pick(v, legal)


def _assassin(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    targets = [a for a in legal if isinstance(a, Assassinate) and a.seat != v.seat]
    if not targets:
        return DECLINE

    def worth(a: Assassinate) -> float:
        gap = v.takeover_gap(v.faction_cards(a.faction), list(v.view.sets[a.faction]))
        return v.faction(a.faction) / (1 + gap)

    return max(targets, key=worth)


def _agrippa(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    return _best_option({0: v.scroll(), 1: v.average_card()}, legal)


def _cato(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    options = [a for a in legal if isinstance(a, ChooseFaction)]
    strength = v.tables.card_value

    def worth(a: ChooseFaction) -> float:  # a marker is a marker: prefer one that is hard to win by take-over
        return v.marker(a.faction) + 0.05 * sum(strength[c] for c in v.view.sets[a.faction])

    return max(options, key=worth)


# -- phase 5 -------------------------------------------------------------------------------------


def _benefit(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    f = pending.faction
    n = v.components.factions[f].numbers
    card = v.average_card()
    values: dict[int, float]
    if f == Faction.GLADIATORS:
        values = {0: v.money(v.view.colosseum), 1: card + 0.3}
    elif f == Faction.LEGATES:
        values = {0: v.scroll(), 1: card + 0.3 * v.legion()}
    elif f == Faction.PLEBEIANS:
        values = {0: card * n.get("benefit_cards", 1) + v.money(n.get("benefit_denarii", 0)), 1: v.tribune()}
    elif f == Faction.VESTALS:
        values = {0: n.get("benefit_laurels", 1) * v.laurel() + v.favor(eternal=False), 1: v.tribune()}
    else:
        values = {0: v.scroll(), 1: card * n.get("benefit_cards", 1)}
    return _best_option(values, legal)


def _legion_purchase(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cost = sum(v.tables.card_value[c] for c in v.view.sets[Faction.LEGATES])
    return COMMIT if v.legion() > v.money(cost) else DECLINE


# -- phase 6 ---------------------------------------------------------------------------------------


def _exposure(v: Valuation, f: int) -> float:
    """How much faction ``f`` (controlled by the player) is worth protecting with the chariot."""
    size = len(v.view.sets[f])
    return v.faction(f) * (0.6 if size <= 2 else 0.3 if size == 3 else 0.15)


def _chariot_bid(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    mine = [f for f in Faction if v.view.controller[f] == v.seat]
    if not mine:
        return _closest_bid(0, legal)
    worth = max(_exposure(v, f) for f in mine)
    return _closest_bid(min(4, int(0.3 * worth / v.denarius())), legal)


def _chariot_place(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    options = [a for a in legal if isinstance(a, ChooseFaction)]
    if not options:
        return DECLINE
    return max(options, key=lambda a: _exposure(v, a.faction))


# -- phase 2: follower placement ---------------------------------------------------------------


def _place(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    return _ranked_spaces(v, legal)[0]


def _ranked_spaces(v: Valuation, legal: Sequence[Action]) -> list[PlaceFollower]:
    spaces = [a for a in legal if isinstance(a, PlaceFollower)]
    budget = v.me.money - _committed(v)
    return sorted(spaces, key=lambda a: -_space_value(v, v.tables.spaces[a.space], budget))


def rank_placements(view: PlayerView, legal: Sequence[Action], components: Components) -> list[PlaceFollower]:
    """The legal follower placements, best first by the heuristic's prices (ties keep the order of ``legal``)."""
    return _ranked_spaces(Valuation(view, components), legal)


def _committed(v: Valuation) -> int:
    """Denarii the player's followers already placed this round will cost."""
    total = 0
    for spec in v.tables.spaces:
        if v.view.spaces[spec.id] == v.seat and spec.kind is SpaceKind.REGION and spec.region is not None:
            total += _price(v, spec)
    return total


def _price(v: Valuation, spec: SpaceSpec) -> int:
    region = spec.region
    if region in (Region.THERMAE, Region.FORUM):
        return int(v.components.region(region).numbers["cost"])
    if region is Region.CATACOMBS:
        return int(v.components.region(region).prices[spec.slot])
    return 0


def _space_value(v: Valuation, spec: SpaceSpec, budget: int) -> float:
    if spec.kind is SpaceKind.COIN_BOWL:
        amount = v.components.coin_bowl_later if v.view.coin_bowl else v.components.coin_bowl_first
        return v.money(amount) * (1.0 if budget >= 0 else 1.3)
    if spec.kind is SpaceKind.FACTION:
        assert spec.faction is not None
        return _faction_space_value(v, spec)
    assert spec.region is not None
    price = _price(v, spec)
    if price > budget:
        return -1.0
    return _REGION_VALUE[spec.region](v, spec) - v.money(price)


def _faction_space_value(v: Valuation, spec: SpaceSpec) -> float:
    f = int(spec.faction)  # type: ignore[arg-type]
    held = v.faction_cards(f)
    target = list(v.view.sets[f])
    others = [v.view.spaces[s] for s in v.tables.faction_spaces[f] if s != spec.id]
    rival = any(s >= 0 and s != v.seat for s in others)
    plan = best_set(v.tables, held, [target], v.components.min_set_size)
    if plan is not None:
        cost = 0.5 * sum(v.card(c) for c in plan)
        risk = (0.75 if spec.slot == 0 else 0.5) if rival else 1.0
        return risk * v.faction(f) - cost
    if v.takeover_gap(held, target) == 1 and _on_board(v, f):
        return 0.3 * v.faction(f)
    return -0.5


def _on_board(v: Valuation, f: int) -> bool:
    """Whether a face-up card of faction ``f`` lies on a region a follower can still take it from."""
    for region in (Region.THERMAE, Region.FORUM, Region.CURIA, Region.ATRIUM):
        for slot, field in enumerate(v.view.board[region]):
            if region is not Region.ATRIUM and v.view.spaces[v.tables.region_spaces[region][slot]] >= 0:
                continue
            if any(c != HIDDEN and v.tables.card_faction[c] == f for c in field):
                return True
    return False


def _field_cards(v: Valuation, region: Region, slot: int) -> float:
    fields = v.view.board[region]
    if slot >= len(fields):
        return 0.0
    return sum(v.card(c) if c != HIDDEN else v.average_card() for c in fields[slot])


def _thermae(v: Valuation, spec: SpaceSpec) -> float:
    return _field_cards(v, spec.region, spec.slot)  # type: ignore[arg-type]


def _curia_space(v: Valuation, spec: SpaceSpec) -> float:
    if "cheapest" not in v.memo:
        hand = v.hand_cards()
        v.memo["cheapest"] = min((v.card(c) for c in set(hand)), default=None)
    cheapest = v.memo["cheapest"]
    if cheapest is None:
        return -1.0
    return _field_cards(v, Region.CURIA, spec.slot) - cheapest  # type: ignore[operator]


def _latrine_space(v: Valuation, spec: SpaceSpec) -> float:
    return v.money(4)


def _atrium_space(v: Valuation, spec: SpaceSpec) -> float:
    worth = _field_cards(v, Region.ATRIUM, 0) + _field_cards(v, Region.ATRIUM, 1) + _field_cards(v, Region.ATRIUM, 2)
    first = v.view.spaces[v.tables.region_spaces[Region.ATRIUM][0]]
    if spec.slot == 0:
        return 0.7 * worth - v.money(1)
    return 0.45 * worth if first >= 0 else -1.0


def _catacombs_space(v: Valuation, spec: SpaceSpec) -> float:
    return 1.5 * v.average_card() + 0.4


def _pantheon_space(v: Valuation, spec: SpaceSpec) -> float:
    if v.me.eternal_favor:
        return -1.0
    deck = v.tables.card_copies
    total = sum(deck)
    held = {v.tables.card_faction[c] for c in v.hand_cards()}
    chance = sum(n for c, n in enumerate(deck) if v.tables.card_faction[c] in held) / total
    return chance * v.favor(eternal=True) - 0.5


def _mars_space(v: Valuation, spec: SpaceSpec) -> float:
    mine = sum(1 for s in v.tables.region_spaces[Region.FIELD_OF_MARS] if v.view.spaces[s] == v.seat)
    pairs = sum(len(v.faction_cards(f)) // 2 for f in Faction)
    if pairs <= mine or _best_pair(v) is None:
        return -1.0
    return 0.8 * v.laurel()


_REGION_VALUE: dict[Region, Callable[[Valuation, SpaceSpec], float]] = {
    Region.THERMAE: _thermae,
    Region.FORUM: _thermae,
    Region.LATRINE: _latrine_space,
    Region.CURIA: _curia_space,
    Region.ATRIUM: _atrium_space,
    Region.CATACOMBS: _catacombs_space,
    Region.PANTHEON: _pantheon_space,
    Region.FIELD_OF_MARS: _mars_space,
}

Handler = Callable[[Valuation, Pending, Sequence[Action]], Action]
_HANDLERS: dict[DecisionKind, Handler] = {
    DecisionKind.SETUP_DISCARD: _discard,
    DecisionKind.PLACE_FOLLOWER: _place,
    DecisionKind.LATRINE_CHOICE: _latrine,
    DecisionKind.CURIA_DISCARD: _curia,
    DecisionKind.ATRIUM_BID: _atrium_bid,
    DecisionKind.CATACOMBS_PURCHASE: _catacombs,
    DecisionKind.PANTHEON_SACRIFICE: _pantheon,
    DecisionKind.FIELD_OF_MARS_PAIR: _mars,
    DecisionKind.TAKEOVER_SET: _takeover,
    DecisionKind.TAKEOVER_PENALTY: _penalty,
    DecisionKind.ASSASSIN_TARGET: _assassin,
    DecisionKind.TIGELLINUS_DISCARD: _tigellinus,
    DecisionKind.AGRIPPA_CHOICE: _agrippa,
    DecisionKind.CATO_MARKER: _cato,
    DecisionKind.BENEFIT_OPTION: _benefit,
    DecisionKind.LEGION_PURCHASE: _legion_purchase,
    DecisionKind.CHARIOT_BID: _chariot_bid,
    DecisionKind.CHARIOT_PLACEMENT: _chariot_place,
    DecisionKind.CESURA_DISCARD: _discard,
}


def _make(params: dict[str, str], seed: int | None) -> Agent:
    no_more("heuristic", params)
    return HeuristicAgent(seed)


register_agent("heuristic", _make)
