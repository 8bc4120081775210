"""What things are worth to one player: the valuation behind the ``heuristic`` agent.

Everything is measured in *utility points*, roughly victory points: a laurel is
worth its point plus its share of the laurel objective when that objective is
one the player is going for. :class:`Needs` picks the objectives of the victory
card the player pursues (the obligatory ones, then those closest to done) and
turns the distance to each threshold into a weight. :class:`Valuation` prices
resources (denarii, laurels, legions, markers, favors, tiles), single cards in
hand (through the take-overs they make possible and Field of Mars pairs), and
factions (marker, first laurel, take-over benefit, a few rounds of faction
benefit). It reads only the player's :class:`~tribune_env.engine.view.PlayerView`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from tribune_env.data import OBJECTIVES, Components, Faction, VictoryCard
from tribune_env.engine.state import SCROLL, TRIBUNE
from tribune_env.engine.tables import Tables, tables_for
from tribune_env.engine.view import PlayerView

OBJECTIVE_WORTH = 9.0  # utility of completing an objective the player is going for
BENEFIT_ROUNDS = 2.0  # rounds of faction benefit a take-over is expected to bring


@dataclass(frozen=True)
class Needs:
    """How much each objective matters to the player now: ``weight[o]`` in [0, 1]."""

    weight: dict[str, float]
    met: dict[str, bool]
    thresholds: dict[str, int]

    @classmethod
    def of(cls, view: PlayerView, card: VictoryCard | None, markers_goal: int) -> Needs:
        me = view.players[view.seat]
        if card is None:  # point-value variant: markers end the game, everything else is points
            weight = dict.fromkeys(OBJECTIVES, 0.2)
            weight["markers"] = 1.0
            thresholds = {"laurels": 99, "legions": 99, "denarii": 999, "markers": markers_goal}
            return cls(weight, dict.fromkeys(OBJECTIVES, False), thresholds)
        t = card.thresholds
        progress = {
            "tribune": 1.0 if me.tile == TRIBUNE else (0.45 if me.tile == SCROLL else 0.0),
            "favor": 1.0 if (me.eternal_favor or me.temporary_favor) else 0.0,
            "laurels": min(1.0, me.laurels / t["laurels"]),
            "legions": min(1.0, me.legions / t["legions"]),
            "denarii": min(1.0, me.money / t["denarii"]),
            "markers": min(1.0, sum(me.markers) / t["markers"]),
        }
        ease = {"tribune": -0.35, "favor": -0.25, "laurels": 0.0, "legions": 0.05, "denarii": 0.1, "markers": 0.1}
        required = card.required[view.num_players]
        chosen = list(card.obligatory)
        rest = sorted((o for o in OBJECTIVES if o not in chosen), key=lambda o: -(progress[o] + ease[o]))
        chosen += rest[: max(0, required - len(chosen))]
        spare = rest[max(0, required - len(card.obligatory)) :][:1]  # one fallback objective
        weight = {}
        for o in OBJECTIVES:
            if progress[o] >= 1.0:
                weight[o] = 0.15
            elif o in chosen:
                weight[o] = 1.0
            elif o in spare:
                weight[o] = 0.4
            else:
                weight[o] = 0.1
        met = {o: progress[o] >= 1.0 for o in OBJECTIVES}
        return cls(weight, met, dict(t))


@cache
def _victory_card(components: Components, card_id: str) -> VictoryCard:
    return components.victory_card(card_id)


class Valuation:
    """Prices in utility points for the player of ``view`` (see the module docstring)."""

    def __init__(self, view: PlayerView, components: Components) -> None:
        self.view = view
        self.components = components
        self.tables: Tables = tables_for(components)
        self.seat = view.seat
        self.me = view.players[view.seat]
        card = None if view.point_variant or not view.victory_card else _victory_card(components, view.victory_card)
        self.victory = card
        self.needs = Needs.of(view, card, components.point_variant.get(view.num_players, 6))
        self.scoring = components.scoring
        self.hand = list(view.hand)
        self._card_cache: dict[int, float] = {}
        self._faction_cache: dict[int, float] = {}
        self._held: dict[int, list[int]] = {}
        self.memo: dict[str, object] = {}  # per-decision results of callers (this object lives for one decision)

    # -- resources ---------------------------------------------------------------

    def _objective_step(self, objective: str) -> float:
        """Utility of one more unit towards a numeric objective."""
        w = self.needs.weight[objective]
        return w * OBJECTIVE_WORTH / max(1, self.needs.thresholds.get(objective, 1))

    def denarius(self) -> float:
        base = 1.0 / self.scoring.denarii_per_point + self._objective_step("denarii")
        return base + (0.12 if self.me.money < 8 else 0.04)  # money also buys cards and bids

    def money(self, amount: int) -> float:
        return amount * self.denarius()

    def laurel(self) -> float:
        return self.scoring.laurel + self._objective_step("laurels")

    def legion(self) -> float:
        return self.scoring.legion + self._objective_step("legions")

    def marker(self, faction: int) -> float:
        if self.me.markers[faction]:
            return 0.0
        value = self.scoring.marker + self._objective_step("markers")
        if faction == Faction.VESTALS and not self.me.eternal_favor:
            value += 0.8 * self.needs.weight["favor"]  # opens the Pantheon
        return value

    def favor(self, eternal: bool) -> float:
        if self.me.eternal_favor:
            return 0.0
        points = self.scoring.eternal_favor if eternal else self.scoring.temporary_favor
        goal = 0.0 if self.me.temporary_favor else OBJECTIVE_WORTH * self.needs.weight["favor"]
        return points + goal

    def scroll(self) -> float:
        if self.me.tile != 0:
            return 0.0
        return self.scoring.scroll + 0.4 * OBJECTIVE_WORTH * self.needs.weight["tribune"]

    def tribune(self) -> float:
        if self.me.tile == TRIBUNE:
            return 0.0
        return self.scoring.tribune - self.scoring.scroll + OBJECTIVE_WORTH * self.needs.weight["tribune"]

    # -- factions -------------------------------------------------------------------

    def faction(self, f: int) -> float:
        """Utility of taking faction ``f`` now: marker, first laurel, take-over benefit, benefits to come."""
        cached = self._faction_cache.get(f)
        if cached is None:
            cached = self._faction_cache[f] = self._faction_value(f)
        return cached

    def _faction_value(self, f: int) -> float:
        n = self.components.factions[f].numbers
        first = self.laurel() * self.components.starting_laurels if self.view.first_laurel[f] else 0.0
        value = self.marker(f) + first
        value += self._takeover_benefit(f, n)
        value += BENEFIT_ROUNDS * self._benefit(f, n)
        owner = self.view.controller[f]
        if owner >= 0 and owner != self.seat:
            value += 0.25 * BENEFIT_ROUNDS * self._benefit(f, n)  # denied to a rival
        return value

    def _takeover_benefit(self, f: int, n: dict[str, int]) -> float:
        return (
            n.get("takeover_legions", 0) * self.legion()
            + n.get("takeover_laurels", 0) * self.laurel()
            + n.get("takeover_cards", 0) * self.average_card()
            + self.money(n.get("takeover_denarii", 0))
        )

    def _benefit(self, f: int, n: dict[str, int]) -> float:
        card = self.average_card()
        if f == Faction.GLADIATORS:
            return max(self.money(max(2, self.view.colosseum)), card)
        if f == Faction.LEGATES:
            return max(self.scroll(), card + 0.3 * self.legion())
        if f == Faction.PRAETORIANS:
            return n.get("benefit_legions", 1) * self.legion()
        if f == Faction.PLEBEIANS:
            return max(card + self.money(n.get("benefit_denarii", 0)), 0.5 * self.tribune() if self.me.tile else 0.0)
        if f == Faction.PATRICIANS:
            return 2.0  # an extra follower next round
        if f == Faction.VESTALS:
            return n.get("benefit_laurels", 1) * self.laurel() + 0.5 * self.favor(eternal=False)
        return max(self.scroll(), n.get("benefit_cards", 2) * card)

    # -- cards ------------------------------------------------------------------------

    def average_card(self) -> float:
        return 1.6

    def card(self, c: int) -> float:
        """Utility of holding one more card of type ``c``."""
        cached = self._card_cache.get(c)
        if cached is None:
            cached = self._card_cache[c] = self._card_value(c)
        return cached

    def _card_value(self, c: int) -> float:
        f = self.tables.card_faction[c]
        value = 0.6 + 0.04 * self.tables.card_value[c]
        if self.view.controller[f] == self.seat:
            return value + 0.2  # spare: a pair, a sacrifice, a later defence
        held = self.faction_cards(f)
        target = self.view.sets[f]
        gap = self.takeover_gap(held, list(target))
        with_card = self.takeover_gap([*held, c], list(target))
        if with_card < gap:
            weight = 1.0 if with_card == 0 else 0.5
            value += weight * 0.45 * self.faction(f)
        elif gap == 0:
            value += 0.3
        return value

    def faction_cards(self, f: int) -> list[int]:
        """Card types of faction ``f`` in hand, with repeats, ascending (a fresh list)."""
        held = self._held.get(f)
        if held is None:
            held = self._held[f] = [c for c in self.tables.faction_cards[f] for _ in range(self.hand[c])]
        return list(held)

    def takeover_gap(self, held: Sequence[int], target: Sequence[int]) -> int:
        """Cards still missing before ``held`` can beat ``target`` (0: a winning set exists)."""
        smallest = self.components.min_set_size
        if can_beat(self.tables, held, target, smallest):
            return 0
        need = max(smallest, len(target) + 1)
        return max(1, need - len(held))

    def hand_cards(self) -> list[int]:
        return [c for c, n in enumerate(self.hand) for _ in range(n)]

    def cheapest_cards(self, cards: Sequence[int], k: int) -> list[int]:
        """The ``k`` cards of ``cards`` that are worth least to keep."""
        return sorted(cards, key=self.card)[:k]


def beats(tables: Tables, cards: Sequence[int], other: Sequence[int]) -> bool:
    value = tables.card_value
    return len(cards) > len(other) or sum(value[c] for c in cards) > sum(value[c] for c in other)


def can_beat(tables: Tables, held: Sequence[int], target: Sequence[int], min_size: int) -> bool:
    """Whether some set of ``held`` beats ``target``: by count, or by the sum of its highest cards."""
    if len(held) < min_size:
        return False
    if len(held) > len(target):
        return True
    value = tables.card_value
    top = sorted((value[c] for c in held), reverse=True)[: max(min_size, len(target))]
    return sum(top) > sum(value[c] for c in target)


def best_set(
    tables: Tables, held: Sequence[int], targets: Sequence[Sequence[int]], min_size: int, margin: int = 0
) -> list[int] | None:
    """The cheapest multiset of ``held`` that beats every target set (fewest cards, then lowest sum), or None.

    With ``margin`` the set must also have ``margin`` more cards or sum than needed where it can afford it.
    """
    value = tables.card_value
    cards = sorted(held, key=lambda c: value[c])
    best: tuple[int, int] | None = None
    choice: list[int] | None = None
    for k in range(min_size, len(cards) + 1):
        for combo in _combos(cards, k):
            if all(beats(tables, combo, t) for t in targets):
                key = (k, sum(value[c] for c in combo))
                if best is None or key < best:
                    best, choice = key, list(combo)
        if choice is not None:
            break
    return choice


def _combos(cards: list[int], k: int) -> list[tuple[int, ...]]:
    """The distinct ``k``-card multisets of ``cards`` (sorted input gives sorted tuples)."""
    return list(dict.fromkeys(combinations(cards, k)))
