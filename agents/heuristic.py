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

In an expansion game (R30-R41) the victory card's seven objectives (emperor
tiles and patrons instead of denarii) set the needs, and:

* **Refugium** (R33). The patron is priced against the slaves it costs (as
  cards, and the Refugium pairs they could still make) and the denarii paid;
  the pairs (Greeks 3 laurels, Germanians 1 legion) one by one while a pair's
  reward beats its cards and the patron chance they carry; the better option
  is taken, or none. Slaves are staged in ascending order: the patron set worth
  most (usually the cheapest), the pairs highest slaves first.
* **Basilica** (R34). The tile worth most is claimed: an emperor tile (5 points
  and an objective) against the 12 denarii of a "pay" tile, a Matrona tile
  needing no payment before the face-up one.
* **Capitoleum** (R36-R40). Each official is priced for the rounds it is held:
  the Augur's cards, the Quaestor's denarii, the Princeps' placements, the
  Matrona's tiles (by the chance to meet a tile of the pile), the Tribunus
  Plebis' tribune (ready with a scroll and two factions, unless the Plebeians
  or Vestals turn the scroll anyway); one taken from a rival counts a little
  more, the official returned counts against, and the own official is chosen
  again only while rivals choose after us.
* **Tribunus Plebis** (R38): the two controlled factions whose benefits are
  worth least are named when the tribune is worth more than those benefits.
  **Augur** (R39): the drawn card worth least is discarded.
* **Assassins** (R31). A take-over uses the fewest assassins that make a set
  win, only when no set wins without them and the faction is worth them; a
  faction field is priced with them too.
* **Placement.** The Refugium is worth its better option with the hand as it
  is and the denarii left, the Basilica the tile the player meets (the face-up
  one unless the player on "1" before him meets it too), the Capitoleum the
  best official (less on a later space). Denarii that the Refugium's patron
  set and a Basilica payment will need in phase 6 are kept: nothing spent
  earlier in the round (Latrine, Catacombs, Atrium, legions) touches them.

With the Brutii (R42-R54) the victory card's "with Brutii" row sets the objectives needed (E106), and the Brutii's
own decisions (his action cards, their options, the Veto's region, the cards laid for slaves, the legion) follow
:mod:`agents.brutii_rules`. Where he acts at a location through a card (after the occupants) the family rules
apply; he chooses an official last, keeps the denarii his played "Patron" and "Favor of the Emperor" will ask for,
and at the chariot opts out when "Denarii" is played and the likely winner's payment beats the protection a bid
would buy (R49).

A family facing the Brutii reacts to his face-up cards with public information only (R45; the rules in
:mod:`agents.brutii_rules`, "the families against his played cards"): what a choice takes from him is priced at his
gain times his threat (more as he nears a win). With "Cards" face up a placement is worth the cards it removes from
the option he is likely to choose (a Catacombs purchase from option 2's pile, a Forum or Curia field from option 1);
once he has chosen, a Catacombs occupant buys to deny him a card of option 2, and a Curia occupant discards for its
field under option 1 and keeps its card under option 2 (R47). With "Denarii" face up the Latrine occupant takes the
money (a buyer pays him) and the coin bowl counts the denarius it gives him (R47). With "Faction Take-Over" face up
a faction space is worth the fall of the threat of his better option: the factions his hand (by its public size) may
take behind an empty field or a lone follower (R48).

Spec parameters: none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from agents.base import Agent, InfoSet
from agents.heuristic_plans import (
    CHARIOT_SHARE,
    assassin_plan,
    chariot_amount,
    exposure,
    official_gain,
    own_staged,
    pairs_plan,
    patron_plan,
    picks,
    reserve,
    sacrifice_kinds,
    spendable,
    tile_prospect,
    tile_value,
)
from agents.specs import no_more, register_agent
from agents.strategy import Valuation, beats, best_set, weakened
from tribune_env.data import Components, Faction, Official, Region
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    Assassinate,
    Bid,
    ChooseFaction,
    ChooseOfficial,
    ChooseOption,
    ChooseTile,
    PickCard,
    PlaceFollower,
    bid,
)
from tribune_env.engine.config import RuleSet
from tribune_env.engine.decisions import BRUTII_DECISION_KINDS, DecisionKind, Pending, TakeoverRole
from tribune_env.engine.tables import SpaceKind, SpaceSpec
from tribune_env.engine.view import HIDDEN, PlayerView

TOP_UP = 3  # a won set is topped up to this many cards with spare cards of the faction
OFFICIAL_THREAT = 0.45  # chance that one rival choosing after us at the Capitoleum takes our official (R36)


class HeuristicAgent(Agent):
    """Prices every legal choice with :class:`~agents.strategy.Valuation` and takes the best (module docstring)."""

    name = "heuristic"
    rule_sets = frozenset(RuleSet)  # every rule set, the Brutii in both roles (R42-R54)

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if len(legal) == 1:
            return legal[0]
        pending = view.pending
        assert pending is not None, "act() is called only at a decision"
        v = Valuation(view, self.config.components)
        choice = _HANDLERS[pending.kind](v, pending, legal)
        return choice if choice in legal else legal[0]


# -- helpers ---------------------------------------------------------------------------


def _cheapest_pick(v: Valuation, legal: Sequence[Action]) -> Action:
    cards = picks(legal)
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
    from agents.brutii_rules import curia_denial  # the Brutii's rules build on this module's

    gain += curia_denial(v, field)  # R47: nothing unless a family faces his "Cards"
    cards = picks(legal)
    if not cards:
        return DECLINE
    give = min(cards, key=v.card)
    return PickCard(give) if gain > v.card(give) else DECLINE


def _tigellinus(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = picks(legal)
    if cards and v.legion() > min(v.card(c) for c in cards):
        return PickCard(min(cards, key=v.card))
    return DECLINE


# -- phase 3 choices -----------------------------------------------------------------------


def _latrine(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    card = v.view.board[Region.LATRINE][0][0]
    price = v.tables.card_value[card]
    buy = v.card(card) - v.money(price) if price <= spendable(v) else -1.0
    if price <= spendable(v):  # R47: with "Denarii" face up the buyer pays the Brutii (nothing without him)
        from agents.brutii_rules import latrine_payment  # the Brutii's rules build on this module's

        buy -= latrine_payment(v, price)
    return _best_option({0: v.money(price), 1: buy}, legal)


def _atrium_bid(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = [c for field in v.view.board[Region.ATRIUM] for c in field]
    worth = sum(v.card(c) if c != HIDDEN else v.average_card() for c in cards)
    amount = int(0.45 * worth / v.denarius())
    return _closest_bid(max(0, min(amount, spendable(v))), legal)


def _closest_bid(amount: int, legal: Sequence[Action]) -> Action:
    bids = [a.amount for a in legal if isinstance(a, Bid)]
    return bid(min(bids, key=lambda b: abs(b - amount)))


def _catacombs(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = picks(legal)
    if not cards:
        return DECLINE
    price = v.components.region(Region.CATACOMBS).prices[pending.index]
    best = max(cards, key=v.card)
    gain = v.card(best)
    from agents.brutii_rules import purchase_denial  # the Brutii's rules build on this module's

    gain += purchase_denial(v)  # R47: with "Cards" option 2 a purchase is a card less of his pile (0 without him)
    return PickCard(best) if gain > v.money(price) and price <= spendable(v) else DECLINE


def _pantheon(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = picks(legal)
    if cards and v.favor(eternal=True) > min(v.card(c) for c in cards):
        return PickCard(min(cards, key=v.card))
    return DECLINE


def _mars(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    cards = picks(legal)
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
    """The cheapest winning set, topped up, with assassins staged after the faction cards only when no set wins
    without them and the faction is worth them (R31; X5, X7; a base game has none)."""
    f = pending.faction
    staged = sorted(c for c in v.view.staged if c != HIDDEN)
    # R15 (amended): "1" answering "2" has to beat "2"'s set only; the controller's set is already gone.
    target = list(v.view.contest) if pending.index == TakeoverRole.FIRST_OVER_SECOND else list(v.view.sets[f])
    a = v.assassin
    staged_cards = [c for c in staged if c != a]
    staged_assassins = len(staged) - len(staged_cards)
    pool = staged_cards + v.faction_cards(f)
    found = assassin_plan(v, f, pool, target, staged_assassins + v.assassins)
    if found is None:
        return DECLINE
    plan, k = found
    plan = _top_up(v, plan, pool)
    return _follow(
        v,
        [*plan, *[a] * k],
        staged,
        legal,
        lambda: beats(v.tables, staged_cards, weakened(v.tables, target, staged_assassins, v.protected)),
    )


def _follow(
    v: Valuation, plan: list[int], staged: list[int], legal: Sequence[Action], wins: Callable[[], bool]
) -> Action:
    """The next card of ``plan`` not staged yet, or COMMIT once all are; when the staged cards left the plan or its
    next card is not offered, COMMIT if the staged set ``wins()``, else the cheapest legal pick."""
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
    return COMMIT if COMMIT in legal and wins() else _cheapest_pick(v, legal)


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
    return COMMIT if v.legion() > v.money(cost) and cost <= spendable(v) else DECLINE


# -- phase 6 ---------------------------------------------------------------------------------------


def _chariot_bid(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """A share of the most exposed controlled faction (at most 4); the Brutii opts out instead when "Denarii" would
    bring him more (R49, :func:`agents.brutii_rules.opts_out`)."""
    mine = [f for f in Faction if v.view.controller[f] == v.seat]
    worth = max((exposure(v, f) for f in mine), default=0.0)
    if DECLINE in legal:  # only the Brutii may opt out (R49)
        from agents.brutii_rules import opts_out  # the Brutii's rules build on this module's

        if opts_out(v, CHARIOT_SHARE * worth):
            return DECLINE
    if not mine:
        return _closest_bid(0, legal)
    return _closest_bid(chariot_amount(v, worth), legal)


def _chariot_place(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    options = [a for a in legal if isinstance(a, ChooseFaction)]
    if not options:
        return DECLINE
    return max(options, key=lambda a: exposure(v, a.faction))


# -- phase 2: follower placement ---------------------------------------------------------------


def _place(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    return _ranked_spaces(v, legal)[0]


def _ranked_spaces(v: Valuation, legal: Sequence[Action]) -> list[PlaceFollower]:
    spaces = [a for a in legal if isinstance(a, PlaceFollower)]
    budget = v.me.money - _committed(v)
    v.memo["budget"] = budget
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
    return total + reserve(v)


def _price(v: Valuation, spec: SpaceSpec) -> int:
    region = spec.region
    if region in (Region.THERMAE, Region.FORUM):
        return int(v.components.region(region).numbers["cost"])
    if region is Region.CATACOMBS:
        return int(v.components.region(region).prices[spec.slot])
    return 0


def _space_value(v: Valuation, spec: SpaceSpec, budget: int) -> float:
    """The placement on ``spec``: its own worth, and for a family facing the Brutii what it takes from his face-up
    cards (R45, R47, R48: :func:`agents.brutii_rules.placement_denial`; nothing without him)."""
    value = _own_space_value(v, spec, budget)
    if v.view.brutii < 0 or v.view.brutii == v.seat or (spec.kind is SpaceKind.REGION and _price(v, spec) > budget):
        return value  # no Brutii to react to, or a region space the family cannot pay for
    from agents.brutii_rules import placement_denial  # the Brutii's rules build on this module's

    return value + placement_denial(v, spec)


def _own_space_value(v: Valuation, spec: SpaceSpec, budget: int) -> float:
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
    cost = 0.0
    if plan is None and v.assassins and v.view.controller[f] >= 0:
        found = assassin_plan(v, f, held, target, v.assassins)  # R31: assassins open the take-over
        if found is not None:
            plan, k = found
            cost = 0.5 * k * v.card(v.assassin)
    if plan is not None:
        cost += 0.5 * sum(v.card(c) for c in plan)
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
    kinds = sacrifice_kinds(v)
    held_kinds = {kinds[c] for c in v.hand_cards()}
    chance = sum(n for c, n in enumerate(deck) if kinds[c] in held_kinds) / sum(deck)
    return chance * v.favor(eternal=True) - 0.5


def _mars_space(v: Valuation, spec: SpaceSpec) -> float:
    mine = sum(1 for s in v.tables.region_spaces[Region.FIELD_OF_MARS] if v.view.spaces[s] == v.seat)
    pairs = sum(len(v.faction_cards(f)) // 2 for f in Faction)
    if pairs <= mine or _best_pair(v) is None:
        return -1.0
    return 0.8 * v.laurel()


# -- the expansion board (phase 6, R33-R36) ------------------------------------------------------


def _budget(v: Valuation) -> int:
    budget = v.memo.get("budget")
    return budget if isinstance(budget, int) else v.me.money


def _refugium_option(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R33, E49: the patron, the pairs, or neither, whichever is worth most."""
    patron = patron_plan(v, v.me.money)
    pairs, cards = pairs_plan(v)
    values = {0: patron[0] if patron is not None else -1.0, 1: pairs if cards else -1.0}
    options = [a for a in legal if isinstance(a, ChooseOption) and values.get(a.option, -1.0) > 0]
    return max(options, key=lambda a: values[a.option]) if options else DECLINE


def _stage_plan(v: Valuation, plan: Sequence[int] | None, legal: Sequence[Action]) -> Action:
    """Stage ``plan`` in ascending card order, then commit; DECLINE without a plan."""
    if plan is None:
        return DECLINE
    remaining = Counter(plan)
    remaining.subtract(Counter(own_staged(v)))
    if any(n < 0 for n in remaining.values()):  # staged cards outside the plan: finish as legal
        return COMMIT if COMMIT in legal else _cheapest_pick(v, legal)
    todo = sorted(remaining.elements())
    if not todo:
        return COMMIT if COMMIT in legal else DECLINE
    pick = PickCard(todo[0])
    return pick if pick in legal else (COMMIT if COMMIT in legal else DECLINE)


def _refugium_patron(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    plan = patron_plan(v, v.me.money)
    return _stage_plan(v, plan[1] if plan is not None and plan[0] > 0 else None, legal)


def _refugium_pairs(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    _, cards = pairs_plan(v)
    return _stage_plan(v, cards or None, legal)


def _basilica(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R34: the tile worth most (no payment first); the face-up one before a Matrona tile, which waits (R35)."""
    tiles = [a for a in legal if isinstance(a, ChooseTile)]
    if not tiles:
        return DECLINE

    def worth(a: ChooseTile) -> float:
        return tile_value(v, a.tile) + (0.1 if a.tile == v.view.emperor_up else 0.0)

    best = max(tiles, key=worth)
    return best if worth(best) > 0 else DECLINE


def _official(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R36: the official worth most, counting what is taken from a rival and what is returned; the own official
    again only while rivals choose after us."""
    options = [a for a in legal if isinstance(a, ChooseOfficial)]
    if not options:
        return DECLINE
    spaces = v.tables.region_spaces[Region.CAPITOLEUM]
    later = spaces[pending.index + 1 :] if pending.index >= 0 else ()  # the Brutii chooses last (R47)
    rivals = sum(1 for s in later if v.view.spaces[s] >= 0 and v.view.spaces[s] != v.seat)
    threat = min(0.9, OFFICIAL_THREAT * rivals)
    best = max(options, key=lambda a: official_gain(v, a.official, threat))
    return best if official_gain(v, best.official, threat) > 0 else DECLINE


def _tribunus_pair(v: Valuation) -> tuple[int, int] | None:
    """The two controlled factions whose benefits cost least to give up (R38), in board order."""
    mine = sorted(v.controlled(), key=v.benefit)
    if len(mine) < 2:
        return None
    a, b = sorted(mine[:2])
    return a, b


def _tribunus(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R38: become tribune when the tile is worth more than this phase's benefits of the two factions named."""
    names = [a for a in legal if isinstance(a, ChooseFaction)]
    if not names:
        return DECLINE
    if pending.faction >= 0:  # the second name: the cheapest remaining benefit
        return min(names, key=lambda a: v.benefit(a.faction))
    pair = _tribunus_pair(v)
    if pair is None or v.tribune() <= v.benefit(pair[0]) + v.benefit(pair[1]):
        return DECLINE
    first = ChooseFaction(pair[0])
    return first if first in legal else min(names, key=lambda a: v.benefit(a.faction))


def _augur(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R39: discard the drawn card worth least."""
    return _cheapest_pick(v, legal)


def _refugium_space(v: Valuation, spec: SpaceSpec) -> float:
    """The better Refugium option with the hand as it is (R33)."""
    patron = patron_plan(v, _budget(v))
    pairs, cards = pairs_plan(v)
    best = max(patron[0] if patron is not None else 0.0, pairs if cards else 0.0)
    return best - 0.3 if best > 0 else -1.0


def _basilica_space(v: Valuation, spec: SpaceSpec) -> float:
    """The tile that may be claimed (R34): the face-up one (unless "1" before us will claim it) or a Matrona tile."""
    value, _ = tile_prospect(v, spec, _budget(v))
    return value - 0.2


def _capitoleum_space(v: Valuation, spec: SpaceSpec) -> float:
    """The official to be chosen (R36): the best gain, less for a later space (the earlier choosers come first)."""
    threat = OFFICIAL_THREAT * 0.6  # who else comes is not known yet
    gains = [official_gain(v, o, threat) for o in range(len(Official)) if not _chosen(v, o)]
    if not gains:
        return -1.0
    return (1.0, 0.8, 0.65)[min(spec.slot, 2)] * max(gains) - 0.3


def _chosen(v: Valuation, official: int) -> bool:
    chosen = v.view.officials_chosen
    return official < len(chosen) and chosen[official]


_REGION_VALUE: dict[Region, Callable[[Valuation, SpaceSpec], float]] = {
    Region.THERMAE: _thermae,
    Region.FORUM: _thermae,
    Region.LATRINE: _latrine_space,
    Region.CURIA: _curia_space,
    Region.ATRIUM: _atrium_space,
    Region.CATACOMBS: _catacombs_space,
    Region.PANTHEON: _pantheon_space,
    Region.FIELD_OF_MARS: _mars_space,
    Region.REFUGIUM: _refugium_space,
    Region.BASILICA: _basilica_space,
    Region.CAPITOLEUM: _capitoleum_space,
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
    DecisionKind.REFUGIUM_OPTION: _refugium_option,
    DecisionKind.REFUGIUM_PATRON: _refugium_patron,
    DecisionKind.REFUGIUM_PAIRS: _refugium_pairs,
    DecisionKind.BASILICA_CLAIM: _basilica,
    DecisionKind.OFFICIAL_CHOICE: _official,
    DecisionKind.TRIBUNUS_PLEBIS: _tribunus,
    DecisionKind.AUGUR_DISCARD: _augur,
}


def _brutii(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """The decisions only the Brutii faces (R44-R54): the rules of :mod:`agents.brutii_rules`."""
    from agents.brutii_rules import RULES  # they build on this module's rules

    return RULES[pending.kind](v, pending, legal)


_HANDLERS.update(dict.fromkeys(BRUTII_DECISION_KINDS, _brutii))


def _make(params: dict[str, str], seed: int | None) -> Agent:
    no_more("heuristic", params)
    return HeuristicAgent(seed)


register_agent("heuristic", _make)
