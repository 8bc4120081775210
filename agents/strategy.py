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

In an expansion game (R30-R41) the card is an expansion victory card (seven
objectives: no denarii, but emperor tiles and patrons) scored with the
expansion's table (patron 5, emperor tile 5, temporary favor 3), and the
valuation also prices a patron tile, a favor of the emperor tile (and the
chance to meet a tile's two requirements, R34), each official for the rounds
it is likely to be held (R36-R40), slave cards in hand (towards a patron set
of three slaves or two with a Nubian, and Greek or Germanian Refugium pairs,
R33) and assassin cards (the take-overs they open: each removes the target
set's highest card, never one of its protected lowest cards, R31). A base
game's prices are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from tribune_env.data import (
    EXPANSION_OBJECTIVES,
    OBJECTIVES,
    Components,
    EmperorTile,
    ExpansionRegion,
    ExpansionScoring,
    ExpansionSpec,
    ExpansionVictoryCard,
    Faction,
    Nationality,
    Official,
    Requirement,
    ScoringSpec,
)
from tribune_env.data.schema import find_card
from tribune_env.engine.config import AnyVictoryCard, required_for, victory_cards_of
from tribune_env.engine.state import NO_TILE, SCROLL, TRIBUNE
from tribune_env.engine.tables import CardKind, Tables, tables_for
from tribune_env.engine.view import PlayerView, PublicPlayer

OBJECTIVE_WORTH = 9.0  # utility of completing an objective the player is going for
BENEFIT_ROUNDS = 2.0  # rounds of faction benefit a take-over is expected to bring

# -- the expansion (R30-R41) -------------------------------------------------------------------
# How much easier than its plain progress each expansion objective is to reach (picks the objectives pursued).
EXPANSION_EASE = {
    "tribune": -0.35,
    "favor": -0.25,
    "laurels": 0.0,
    "legions": 0.05,
    "markers": 0.1,
    "emperor_tiles": 0.15,
    "patrons": 0.2,
}
PATRON_READY = 0.6  # share of a patron's worth that a ready patron set in hand is (a Refugium follower to come)
PATRON_ONE_SHORT = 0.25  # ... and a set one slave short
PAIR_READY = 0.55  # share of a Refugium pair's reward that a pair in hand is
OFFICIAL_ROUNDS = 2.5  # rounds an official is held on average (it stays until somebody takes it, R36)
PRINCEPS_WORTH = 1.2  # two placements a turn: the best spaces first (R37)
AUGUR_CHOICE = 0.5  # keeping the best two of three cards (R39)
TRIBUNUS_SURE = 1.2  # the Tribunus Plebis ready: a sure tribune next round, for good (R38)
# the point-value variant (E75): what scores in an expansion game, and objectives no player reaches
EXPANSION_POINT_OBJECTIVES = (*OBJECTIVES, "emperor_tiles", "patrons")
_OUT_OF_REACH = {"laurels": 99, "legions": 99, "denarii": 999, "emperor_tiles": 99, "patrons": 99}
# factions whose benefit may turn a scroll to the tribune (R19)
_TURNING = (Faction.PLEBEIANS, Faction.VESTALS)


@dataclass(frozen=True)
class Needs:
    """How much each objective matters to the player now: ``weight[o]`` in [0, 1]."""

    weight: dict[str, float]
    met: dict[str, bool]
    thresholds: dict[str, int]

    @classmethod
    def points(cls, objectives: Sequence[str], markers_goal: int) -> Needs:
        """The needs of the point-value variant: ``markers_goal`` markers end the game, the other ``objectives``
        only score."""
        weight = dict.fromkeys(objectives, 0.2)
        weight["markers"] = 1.0
        thresholds = {o: _OUT_OF_REACH[o] for o in objectives if o in _OUT_OF_REACH}
        thresholds["markers"] = markers_goal
        return cls(weight, dict.fromkeys(weight, False), thresholds)

    @classmethod
    def of(
        cls, view: PlayerView, card: AnyVictoryCard, required: int, prospects: dict[str, float] | None = None
    ) -> Needs:
        """The needs of the player of ``view`` on ``card``, of whose objectives ``required`` are needed;
        ``prospects`` adds to the progress by which an expansion card's objectives are picked (a patron set in
        hand)."""
        me = view.players[view.seat]
        if isinstance(card, ExpansionVictoryCard):
            return cls._expansion(view, card, required, prospects or {})
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
        chosen = list(card.obligatory)
        rest = sorted((o for o in OBJECTIVES if o not in chosen), key=lambda o: -(progress[o] + ease[o]))
        chosen += rest[: max(0, required - len(chosen))]
        spare = rest[max(0, required - len(card.obligatory)) :][:1]  # one fallback objective
        weight, met = _weigh(OBJECTIVES, progress, chosen, spare)
        return cls(weight, met, dict(t))

    @classmethod
    def _expansion(
        cls, view: PlayerView, card: ExpansionVictoryCard, required: int, prospects: dict[str, float]
    ) -> Needs:
        """An expansion victory card (E72, R41): seven objectives, no denarii; the emperor tiles count claimed ones."""
        me = view.players[view.seat]
        t = card.thresholds
        progress = {
            "tribune": 1.0 if me.tile == TRIBUNE else (0.45 if me.tile == SCROLL else 0.0),
            "favor": 1.0 if (me.eternal_favor or me.temporary_favor) else 0.0,
            "laurels": min(1.0, me.laurels / t["laurels"]),
            "legions": min(1.0, me.legions / t["legions"]),
            "markers": min(1.0, sum(me.markers) / t["markers"]),
            "emperor_tiles": min(1.0, len(me.emperor_tiles) / t["emperor_tiles"]),
            "patrons": min(1.0, me.patrons / t["patrons"]),
        }
        chosen = list(card.obligatory)

        def outlook(o: str) -> float:
            return progress[o] + EXPANSION_EASE[o] + prospects.get(o, 0.0)

        rest = sorted((o for o in EXPANSION_OBJECTIVES if o not in chosen), key=lambda o: -outlook(o))
        chosen += rest[: max(0, required - len(chosen))]
        spare = rest[max(0, required - len(card.obligatory)) :][:1]
        weight, met = _weigh(EXPANSION_OBJECTIVES, progress, chosen, spare)
        weight = {"denarii": 0.0, **weight}  # no denarii objective (E72): money is only points and means
        return cls(weight, met, dict(t))


def _weigh(
    objectives: Sequence[str], progress: dict[str, float], chosen: list[str], spare: list[str]
) -> tuple[dict[str, float], dict[str, bool]]:
    """Weights and met flags of ``objectives``: a met objective 0.15, one pursued 1, the fallback 0.4, others 0.1."""
    weight = {}
    for o in objectives:
        if progress[o] >= 1.0:
            weight[o] = 0.15
        elif o in chosen:
            weight[o] = 1.0
        elif o in spare:
            weight[o] = 0.4
        else:
            weight[o] = 0.1
    return weight, {o: progress[o] >= 1.0 for o in objectives}


@cache
def _victory_card(components: Components, card_id: str, expansion: bool) -> AnyVictoryCard:
    """The card ``card_id`` of a game with or without the expansion (R41: an expansion game's is an expansion card,
    or a configured base card)."""
    return find_card(victory_cards_of(components, expansion), card_id)


def patron_gap(tables: Tables, spec: ExpansionSpec, slaves: Sequence[int]) -> int:
    """Slave cards still missing for a patron set (R33: ``patron_slaves`` slaves, or ``patron_slaves_with_nubian``
    with a Nubian among them)."""
    numbers = spec.region(ExpansionRegion.REFUGIUM).numbers
    nubian = any(tables.card_nationality[c] == Nationality.NUBIAN for c in slaves)
    need = numbers["patron_slaves"]
    if nubian:
        need = min(need, numbers["patron_slaves_with_nubian"])
    return max(0, need - len(slaves))


def patron_sets(tables: Tables, spec: ExpansionSpec, slaves: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct valid patron set of ``slaves`` (ascending card types), whatever it costs (R33)."""
    numbers = spec.region(ExpansionRegion.REFUGIUM).numbers
    cards = sorted(slaves)
    out: list[tuple[int, ...]] = []
    for size in sorted({numbers["patron_slaves"], numbers["patron_slaves_with_nubian"]}):
        for combo in _combos(cards, size):
            nubian = any(tables.card_nationality[c] == Nationality.NUBIAN for c in combo)
            if size == numbers["patron_slaves"] or nubian:
                out.append(combo)
    return out


def weakened(tables: Tables, target: Sequence[int], assassins: int, protected: int) -> list[int]:
    """``target`` (ascending by value) after ``assassins`` assassins, each removing its highest card but never one
    of its ``protected`` lowest cards (R31): the removals stop at ``protected`` cards."""
    left = sorted(target, key=lambda c: tables.card_value[c])
    for _ in range(min(assassins, max(0, len(left) - protected))):
        left.pop()
    return left


class Valuation:
    """Prices in utility points for the player of ``view`` (see the module docstring)."""

    def __init__(self, view: PlayerView, components: Components) -> None:
        self.view = view
        self.components = components
        expansion = view.expansion  # the one question about the rule set: the tables, numbers and card follow
        self.spec: ExpansionSpec | None = components.expansion if expansion else None
        self.expansion = self.spec is not None
        self.tables: Tables = tables_for(components, expansion)
        self.seat = view.seat
        self.me = view.players[view.seat]
        self.hand = list(view.hand)
        self._card_cache: dict[int, float] = {}
        self._faction_cache: dict[int, float] = {}
        self._held: dict[int, list[int]] = {}
        self.memo: dict[str, object] = {}  # per-decision results of callers (this object lives for one decision)
        self.scoring: ScoringSpec | ExpansionScoring
        self.assassin = self.tables.assassin_card  # the assassin card type (-1 without the expansion, R31) ...
        self.assassins = self.hand[self.assassin] if self.assassin >= 0 else 0  # ... held
        self.protected = 0  # ... and the lowest cards of a set it never removes
        card_id = view.victory_card
        self.victory = None if view.point_variant or not card_id else _victory_card(components, card_id, expansion)
        #: objectives of the card a player needs: the "with Brutii" row in a Brutii game (E106); 0 without a card
        self.required = 0 if self.victory is None else required_for(self.victory, view.num_players, view.brutii >= 0)
        if self.spec is None:
            self.scoring = components.scoring
            self.needs = self._needs(OBJECTIVES, components.point_variant.get(view.num_players, 6), {})
            return
        self.scoring = self.spec.scoring
        self.protected = self.spec.assassins.protected
        markers_goal = self.spec.point_variant.get(view.num_players, 6)
        self.needs = self._needs(EXPANSION_POINT_OBJECTIVES, markers_goal, self._prospects())

    def _needs(self, scored: Sequence[str], markers_goal: int, prospects: dict[str, float]) -> Needs:
        """The needs on the card in play, or those of the point-value variant (``scored``: what scores in it)."""
        if self.victory is None:
            return Needs.points(scored, markers_goal)
        return Needs.of(self.view, self.victory, self.required, prospects)

    # -- resources ---------------------------------------------------------------

    def _objective_step(self, objective: str) -> float:
        """Utility of one more unit towards a numeric objective."""
        w = self.needs.weight.get(objective, 0.0)
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
        value = self.scoring.scroll + 0.4 * OBJECTIVE_WORTH * self.needs.weight["tribune"]
        # three emperor tiles ask for a scroll, and the Tribunus Plebis turns it (R34, R38; no weight in a base game)
        return value + 0.15 * OBJECTIVE_WORTH * self.needs.weight.get("emperor_tiles", 0.0)

    def tribune(self) -> float:
        if self.me.tile == TRIBUNE:
            return 0.0
        return self.scoring.tribune - self.scoring.scroll + OBJECTIVE_WORTH * self.needs.weight["tribune"]

    # -- the expansion: patrons, emperor tiles, officials (R33-R40) -------------------------

    def _prospects(self) -> dict[str, float]:
        """Progress in hand towards the expansion objectives, for picking the objectives pursued."""
        spec = self.spec
        assert spec is not None
        out: dict[str, float] = {}
        slaves = self.slave_cards()
        if slaves and self.me.patrons < spec.patrons_per_player:
            gap = patron_gap(self.tables, spec, slaves)
            out["patrons"] = 0.5 if gap == 0 else 0.25 if gap == 1 else 0.0
        up = self.view.emperor_up
        if up >= 0 and not self.me.emperor_tiles and self.tile_chance(up, self.seat) >= 0.5:
            out["emperor_tiles"] = 0.3
        return out

    def patron(self) -> float:
        """Utility of a patron tile (R33): its points, the patron objective, and the emperor tiles it opens."""
        spec = self.spec
        if spec is None or self.me.patrons >= spec.patrons_per_player:
            return 0.0
        if spec.patron_supply - sum(p.patrons for p in self.view.players) <= 0:
            return 0.0
        opens = 0.1 * OBJECTIVE_WORTH * self.needs.weight.get("emperor_tiles", 0.0)
        return spec.scoring.patron + self._objective_step("patrons") + opens

    def emperor_tile(self) -> float:
        """Utility of claiming a favor of the emperor tile (R34, R41: claimed tiles count)."""
        if self.spec is None:
            return 0.0
        return self.spec.scoring.emperor_tile + self._objective_step("emperor_tiles")

    def requirement_chance(self, requirement: Requirement, seat: int, money: int | None = None) -> float:
        """Chance that ``seat`` meets ``requirement`` when the Basilica is evaluated this round (R34), from what
        everybody sees (favors, tiles, patrons, the holdings compared by "most"); ``money`` overrides his denarii."""
        spec = self.spec
        assert spec is not None
        view = self.view
        p = view.players[seat]
        if requirement is Requirement.FAVOR:
            if p.eternal_favor or p.temporary_favor:
                return 1.0
            return 0.4 if view.controller[Faction.VESTALS] == seat else 0.0  # the Vestals' benefit comes first
        if requirement is Requirement.SCROLL:
            if p.tile != NO_TILE:
                return 1.0
            scrolls = view.controller[Faction.LEGATES] == seat or view.controller[Faction.SENATORS] == seat
            return 0.5 if scrolls else 0.0
        if requirement is Requirement.PATRON:
            return 1.0 if p.patrons else 0.0
        cash = p.money if money is None else money
        if requirement is Requirement.PAY:
            return 1.0 if cash >= spec.emperor_pay else 0.0
        amount = _MOST[requirement]
        mine = cash if requirement is Requirement.MOST_DENARII else amount(p)
        if mine < 1:
            return 0.0
        best = max((amount(q) for s, q in enumerate(view.players) if s != seat), default=0)
        if mine > best + 1:
            return 1.0
        if mine > best:
            return 0.85
        if mine == best:
            return 0.6
        return 0.2 if mine == best - 1 else 0.0

    def tile_chance(self, tile: int, seat: int, money: int | None = None) -> float:
        """Chance that ``seat`` meets both requirements of emperor tile ``tile`` at the Basilica this round."""
        spec = self.spec
        assert spec is not None
        chance = 1.0
        for requirement in _tiles(self.components)[tile].requires:
            chance *= self.requirement_chance(requirement, seat, money)
        return chance

    def tile_cost(self, tile: int) -> int:
        """Denarii a claim of ``tile`` costs (a "pay" requirement, R34)."""
        spec = self.spec
        assert spec is not None
        return spec.emperor_pay if Requirement.PAY in _tiles(self.components)[tile].requires else 0

    def unseen_tiles(self) -> list[int]:
        """The tiles of the emperor pile (its order is hidden from everyone, R35)."""
        spec = self.spec
        assert spec is not None
        seen = {self.view.emperor_up, *self.view.matrona_tiles}
        for p in self.view.players:
            seen.update(p.emperor_tiles)
        return [t.id for t in spec.emperor_tiles if t.id not in seen]

    def controlled(self) -> list[int]:
        return [f for f, c in enumerate(self.view.controller) if c == self.seat]

    def official(self, official: Official) -> float:
        """Utility of holding ``official`` for the rounds it is likely kept (R36-R40)."""
        cached = self.memo.get(f"official{int(official)}")
        if isinstance(cached, float):
            return cached
        value = self._official_value(official)
        self.memo[f"official{int(official)}"] = value
        return value

    def _official_value(self, official: Official) -> float:
        spec = self.spec
        assert spec is not None
        numbers = spec.official(official).numbers
        if official is Official.PRINCEPS:  # R37: the best spaces first, next round
            return OFFICIAL_ROUNDS * PRINCEPS_WORTH
        if official is Official.AUGUR:  # R39: draw 3, keep 2
            kept = numbers["draws"] - numbers["discards"]
            return OFFICIAL_ROUNDS * (kept * self.average_card() + AUGUR_CHOICE)
        if official is Official.QUAESTOR:  # R40: every opponent pays (the stock makes up a shortfall), and the stock
            others = self.view.num_players - 1
            income = others * spec.quaestor_payment(others) + numbers["stock"]
            return OFFICIAL_ROUNDS * self.money(income)
        if official is Official.MATRONA:  # R35: two tiles of the pile to claim at the Basilica next round
            pile = self.unseen_tiles()
            if not pile or self.emperor_tile() <= 0:
                return 0.0
            chance = sum(self.tile_chance(t, self.seat) for t in pile) / len(pile)
            k = min(numbers["tiles"], len(pile))
            return 0.6 * (1.0 - (1.0 - chance) ** k) * self.emperor_tile() + 0.3
        return self._tribunus_value(numbers["factions"])

    def _tribunus_value(self, need: int) -> float:
        """R38: a scroll and ``need`` controlled factions turn into the tribune, for those factions' benefits."""
        if self.me.tile == TRIBUNE:
            return 0.1
        gain = self.tribune()
        mine = self.controlled()
        if self.me.tile == SCROLL:
            if len(mine) >= need:
                costs = sorted(self.benefit(f) for f in mine)[:need]
                value = TRIBUNUS_SURE * gain - sum(costs)
                turning = [f for f in mine if f in _TURNING]
                if turning:  # the faction's own benefit turns the scroll for one benefit only
                    value -= max(0.0, TRIBUNUS_SURE * gain - min(self.benefit(f) for f in turning))
                return max(0.2, value)
            return 0.25 * gain if len(mine) == need - 1 else 0.1 * gain
        return 0.1 * gain if mine else 0.05 * gain

    def benefit(self, f: int) -> float:
        """Utility of one round of faction ``f``'s benefit."""
        return self._benefit(f, self.components.factions[f].numbers)

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
        if f < 0:  # a slave or an assassin (R30)
            return self._assassin_value() if self.tables.card_kind[c] is CardKind.ASSASSIN else self._slave_value(c)
        value = 0.6 + 0.04 * self.tables.card_value[c]
        if self.view.controller[f] == self.seat:
            return value + 0.2  # spare: a pair, a sacrifice, a later defence
        held = self.faction_cards(f)
        target = self.target(f)
        gap = self.takeover_gap(held, target)
        with_card = self.takeover_gap([*held, c], target)
        if with_card < gap:
            weight = 1.0 if with_card == 0 else 0.5
            value += weight * 0.45 * self.faction(f)
        elif gap == 0:
            value += 0.3
        return value

    def target(self, f: int) -> list[int]:
        """The displayed set of ``f`` a take-over must beat, after the assassins in hand hit it (R31)."""
        target = list(self.view.sets[f])
        if self.assassins:  # none without the expansion
            return weakened(self.tables, target, self.assassins, self.protected)
        return target

    def slave_cards(self) -> list[int]:
        """Slave card types in hand, with repeats, ascending (a fresh list)."""
        held = self._held.get(-1)
        if held is None:
            held = self._held[-1] = [c for cards in self.tables.slave_cards for c in cards for _ in range(self.hand[c])]
        return list(held)

    def pair_reward(self, nationality: int) -> float:
        """Utility of one Refugium pair of ``nationality`` (R33: Greeks 3 laurels, Germanians 1 legion)."""
        spec = self.spec
        assert spec is not None
        reward = spec.region(ExpansionRegion.REFUGIUM).pairs.get(Nationality(nationality))
        if reward is None:
            return 0.0
        return reward.laurels * self.laurel() + reward.legions * self.legion()

    def slave_potential(self, slaves: Sequence[int]) -> float:
        """What a hand's slaves promise: a patron set or Refugium pairs (one option a visit, E49)."""
        if self.spec is None or not slaves:
            return 0.0
        patron, pairs = self.patron_potential(slaves), self.pair_potential(slaves)
        return max(patron, pairs) + 0.25 * min(patron, pairs)

    def patron_potential(self, slaves: Sequence[int]) -> float:
        """The share of a patron's worth that ``slaves`` hold: a ready set, or one slave short (R33)."""
        spec = self.spec
        worth = self.patron()
        if spec is None or worth <= 0 or not slaves:
            return 0.0
        gap = patron_gap(self.tables, spec, slaves)
        return worth * (PATRON_READY if gap == 0 else PATRON_ONE_SHORT if gap == 1 else 0.0)

    def pair_potential(self, slaves: Sequence[int]) -> float:
        """The Refugium pairs ``slaves`` hold (and a little for an unpaired one), at their rewards (R33)."""
        counts = [0] * len(Nationality)
        for c in slaves:
            counts[self.tables.card_nationality[c]] += 1
        total = 0.0
        for n, k in enumerate(counts):
            if k:
                reward = self.pair_reward(n)
                total += (k // 2) * PAIR_READY * reward + (k % 2) * 0.1 * reward
        return total

    def _slave_value(self, c: int) -> float:
        """A slave card: a card (cheaper is better: a patron set costs its value), and what it adds to the slaves'
        potential (the hand without one copy of ``c``, with and without it)."""
        held = self.slave_cards()
        if c in held:
            held.remove(c)
        gain = self.slave_potential([*held, c]) - self.slave_potential(held)
        return 0.6 - 0.03 * self.tables.card_value[c] + gain

    def _assassin_value(self) -> float:
        """An assassin: worth a take-over it makes possible now (R31), or a later one against a big set."""
        spare = max(0, self.assassins - 1) if self.hand[self.assassin] else self.assassins
        best = 0.0
        smallest = self.components.min_set_size
        for f in Faction:
            owner = self.view.controller[f]
            target = self.view.sets[f]
            if owner < 0 or owner == self.seat or len(target) - self.protected <= spare:
                continue
            held = self.faction_cards(f)
            if len(held) < smallest:
                continue
            before = weakened(self.tables, target, spare, self.protected)
            after = weakened(self.tables, target, spare + 1, self.protected)
            if not can_beat(self.tables, held, before, smallest) and can_beat(self.tables, held, after, smallest):
                best = max(best, 0.45 * self.faction(f))
        return 0.9 + best

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


_MOST: dict[Requirement, Callable[[PublicPlayer], int]] = {
    Requirement.MOST_MARKERS: lambda p: sum(p.markers),
    Requirement.MOST_LAURELS: lambda p: p.laurels,
    Requirement.MOST_LEGIONS: lambda p: p.legions,
    Requirement.MOST_DENARII: lambda p: p.money,
}


@cache
def _tiles(components: Components) -> dict[int, EmperorTile]:
    spec = components.expansion
    return {t.id: t for t in spec.emperor_tiles} if spec is not None else {}
