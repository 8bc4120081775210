"""The ``heuristic`` agent's rules for the Brutii's own decisions (R44-R54; E76-E107).

The Brutii has no followers; in phase 2 each arrow disc lets him play one of his twelve action cards (R44). The
rules price every unplayed card under the current view (all prices in the utility points of
:class:`agents.strategy.Valuation`, so the victory card's objectives weigh them: a laurel is worth more to a
Brutii going for laurels) and play the best, holding back the cards whose worth the placements still to come will
show:

* **Cards** (R47): option 1 the Forum and Curia fields nobody stands on, each counted by the chance that it stays
  free to the end of phase 2 (an attractive field is taken sooner); option 2 a card per Curia occupant's discard
  and the Catacombs pile left after the purchases: each family occupant who can pay buys (the families buy to deny
  him), and while placements are to come the families are drawn to the free Catacombs spaces (``CATACOMBS_PULL``).
  The better option is the card's worth; at the start of phase 3 the same prices (now exact) choose the option.
* **Denarii** (R47, R49): the coin bowl's followers so far and those likely to come (the rate at which this
  round's placements went to the bowl), the Latrine card's average value (all of it on an empty Latrine, half with
  an occupant, who may buy it and pay him) and a share of the chariot payment of the rival most likely to bid.
* **Laurels**: his best pairs (a laurel and a little for the bonus each, less the cards), as many as the Field of
  Mars' spaces likely to stay empty.
* **Eternal Favor**: the favor times the chance that somebody stands on the Pantheon and that his hand holds a
  card of the kind the hidden card asks for (R13: nothing with a favor already).
* **Patron**: the better Refugium option with his slaves and money (the family rule, acting last).
* **Favor of the Emperor**: the face-up tile if he meets it and no occupant (present or likely) claims it first,
  or a Matrona tile he meets (R50).
* **Official**: the official he would choose after the occupants, who are likely to take the best ones first.
* **Faction Take-Over** (R48): per option, every faction his hand can take (with assassins, R31) times the
  chance that its field ends empty (option 1) or with a lone rival on "1" (option 2, who may answer him: half).
* **Buy a Legion** (R51): a legion against its price (his Legates set, or the printed price), if he can spare it.
* **Slave Cards** (R52): each face-up slave on a free Thermae, Forum or Curia field, against the two cards worth
  least that he must lay for it (laying is not optional once played).
* **Mass Murder** (R53): each displayed set of the printed size or more loses its highest card: the security
  lost (the evaluation's ``security`` of the set before and after) times the faction's worth, for a rival
  weighted by how close he stands to winning, against him for his own; a set his hand then beats counts more.
* **Veto** (R54): per region, what the rivals standing there would gain (weighted by their standing: the leader
  counts most), a part of what later placements there would gain, less what his own played cards would get
  there; the card is worth the best region.

Holding back (R44: at 5 seats he reveals all six discs and plays exactly four cards a round, at 6 seats three or
four of them, so the order matters more than the choice): of the cards he is sure enough (``SURE``) to play this
round anyway, the best is played once each is lowered by ``WAIT`` times its dependence on the placements to come
times the share of this round's placements still to come. The Veto depends fully (its worth grows as followers
arrive that it sends home), the location cards a little (their worth is an expectation that the placements make
surer), the immediate cards (Buy a Legion, Slave Cards, whose slaves the placements take away) and the Refugium's
patron not at all; so early turns take immediate or placement-independent worth and the Veto comes last. Measured
against heuristic families (400-600 games a variant, the same deals): holding the location cards back as strongly
as the Veto cost the Brutii 2-3 points of win share, the Veto played by worth alone about 4 points; the small
dependence of the location cards is neutral.

The other decisions: the option choices above, the Veto's region, the cards laid for slaves (the least useful
ones, in the ascending order the engine asks), the legion purchase (a legion against its price), and at the
chariot (in :mod:`agents.heuristic`) the opt-out when "Denarii" is played and a rival is likely to bid.

The last section holds the families' side: what their choices take from his face-up cards (R45: played cards,
chosen options, the board, his hand size and money are public; his hand, the disc order and the face-down cards are
never read), at his gain times ``DENY`` times his :func:`threat`:

* **Cards** (:func:`cards_denial`, :func:`purchase_denial`, :func:`curia_denial`): the cards a follower removes from
  the option he is likely to choose (a soft choice between the options' card counts, ``CARDS_SPREAD``): a Catacombs
  purchase from option 2, a Forum or Curia field from option 1 (a Curia discard adds one to option 2). Once he has
  chosen: buying at the Catacombs under option 2, discarding for a Curia field under option 1, keeping the card
  under option 2.
* **Denarii** (:func:`denarii_denial`, :func:`latrine_payment`): the Latrine card's value an empty Latrine gives him
  (the occupant takes the money, since a buyer pays him), the denarius a follower on the coin bowl gives him.
* **Faction Take-Over** (:func:`takeover_defence`): the fall of the better option's threat when the family stands on
  a faction field (on "1" of an empty field option 1 passes it and option 2 must get past the family; on "2" behind
  a lone "1" option 2 passes it); a faction's threat is the chance that a hand of his public size takes it
  (:func:`takeover_chance`: a binomial draw of the faction's share of the deck) times what it brings him.

Measured with every seat ``heuristic`` (``tribune tournament``, docs/agents/strength.md): nearly all of the effect is
the Catacombs under "Cards" (the families reacting to "Cards" alone bring him to the same share as all reactions);
one reacting family among three that do not wins more than they do, so the reaction is not mere altruism.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from agents.evaluation import security
from agents.heuristic_plans import (
    assassin_plan,
    chariot_amount,
    exposure,
    official_gain,
    pairs_plan,
    patron_plan,
    picks,
    sacrifice_kinds,
    spendable,
    tile_value,
)
from agents.strategy import BENEFIT_ROUNDS, OBJECTIVE_WORTH, Valuation, best_set, can_beat
from tribune_env.data import (
    EXPANSION_OBJECTIVES,
    OBJECTIVES,
    BrutiiCard,
    BrutiiDisc,
    BrutiiSpec,
    Components,
    ExpansionVictoryCard,
    Faction,
    Official,
    Region,
)
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    ChooseActionCard,
    ChooseOption,
    ChooseRegion,
    PickCard,
)
from tribune_env.engine.brutii_ops import CARDS_OPTION, TAKEOVER_OPTION
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.state import SCROLL, TRIBUNE
from tribune_env.engine.tables import SpaceKind, SpaceSpec, tables_for
from tribune_env.engine.view import HIDDEN, PlayerView

__all__ = [
    "RULES",
    "Outlook",
    "card_values",
    "cards_denial",
    "curia_denial",
    "denarii_denial",
    "latrine_payment",
    "option_values",
    "placement_denial",
    "purchase_denial",
    "takeover_chance",
    "takeover_defence",
    "veto_values",
]

WAIT = 0.5  # how much a card fully dependent on the placements to come waits at the start of the round
SURE = 0.8  # the chance of playing a card later at which holding it back is safe
DEPENDENCE: dict[BrutiiCard, float] = {
    BrutiiCard.PATRON: 0.0,
    BrutiiCard.FACTION_TAKEOVER: 0.2,
    BrutiiCard.ETERNAL_FAVOR: 0.2,
    BrutiiCard.FAVOR_OF_THE_EMPEROR: 0.2,
    BrutiiCard.OFFICIAL: 0.2,
    BrutiiCard.CARDS: 0.2,
    BrutiiCard.DENARII: 0.2,
    BrutiiCard.LAURELS: 0.2,
    BrutiiCard.BUY_A_LEGION: 0.0,
    BrutiiCard.SLAVE_CARDS: 0.0,
    BrutiiCard.MASS_MURDER: 0.2,
    BrutiiCard.VETO: 1.0,
}
"""How much a card's worth depends on the follower placements still to come this round (0: not at all)."""

BOWL_PRIOR = (1.0, 6.0)  # coin-bowl placements, placements: the prior of the rate at which followers go to the bowl
LEFT_BY_OCCUPANT = 0.1  # share of an occupied field's cards its occupant leaves (does not buy or discard for)
LATRINE_BUY = 0.5  # chance that a Latrine occupant buys the card (and pays the Brutii, R47)
PAYMENT_SHARE = 0.6  # share of the likeliest rival bid he expects as the winner's payment (ties pay nothing, R49)
PAIR_BONUS = 0.15  # share of a laurel a pair adds for the chance of the bonus laurel (R14)
NEWCOMER_CLAIM = 0.4  # chance that a later Basilica occupant claims the face-up tile before him
OFFICIAL_TAKEN = 0.6  # share of the officials the choosers before him take from his wish list
MATRONA_KEEP = 0.5  # the Matrona's tiles in phase 8, which he receives only with this card (R50)
CONTESTED = 0.5  # option 2: the rival on "1" answers his set (R15)
LAID_LOSS = 0.1  # per card laid for a slave: a rival may take it with the field
MURDER_RIVAL = 0.6  # share of a rival's loss that is the Brutii's gain
MURDER_OPENS = 0.45  # share of a faction's worth a take-over that Mass Murder makes possible is worth
RIVAL_OBJECTIVE = 0.5 * OBJECTIVE_WORTH  # what an objective is worth to a rival, for the Veto's prices
PREVENTED = 0.3  # share of a later placement's gain that a Veto denies (the follower goes elsewhere)
OWN_SHARE = 0.5  # share of a played card's worth that one of its several regions carries
FAMILY_BUYS = 0.95  # chance that a family on the Catacombs that can pay buys (it denies him the card, R47)
CATACOMBS_PULL = 3.0  # how much more a free Catacombs space draws the families than an average one once "Cards" shows
# the families against his face-up cards (the last section)
DENY = 1.0  # share of the Brutii's gain (times his threat) that a family gives up its own gain to deny him
CARDS_SPREAD = 1.5  # cards by which one "Cards" option must lead for a family to be about 2:1 sure of his choice
TIE_BEATS = 0.4  # chance that his set of as many cards as the displayed one has the higher sum (R48)


# -- what the rest of phase 2 is likely to bring --------------------------------------------------------------------


@dataclass(frozen=True)
class Outlook:
    """The rest of the Brutii's phase 2, from the view.

    Attributes:
        placements: family followers still to place this round.
        placed: followers placed this round so far (spaces and the coin bowl).
        free: free follower spaces (the coin bowl and the vetoed region aside).
        bowl_rate: the expected share of placements that go to the coin bowl.
        more: the chance that he plays at least one more action card this round (R44).
        sure: the action cards he will play after this one with a chance of at least ``SURE``.
    """

    placements: int
    placed: int
    free: int
    bowl_rate: float
    more: float
    sure: int = 0

    @classmethod
    def of(cls, view: PlayerView, components: Components) -> Outlook:
        tables = tables_for(components, True)
        occupied = sum(1 for s in view.spaces if s >= 0)
        placed = occupied + len(view.coin_bowl)
        placements = sum(p.followers for s, p in enumerate(view.players) if s != view.brutii)
        free = sum(
            1
            for spec in tables.spaces
            if spec.kind is not SpaceKind.COIN_BOWL and view.spaces[spec.id] < 0 and not _vetoed(view, spec.region)
        )
        hits, total = BOWL_PRIOR
        rate = (len(view.coin_bowl) + hits) / (placed + total)
        spec = _spec(components)
        sure = 0
        while sure < view.brutii_turns and more_cards(view, spec, sure + 1) >= SURE:
            sure += 1
        return cls(placements, placed, free, rate, more_cards(view, spec), sure)

    def stays_free(self, weight: float = 1.0) -> float:
        """The chance that one free space (``weight``: how much more attractive than the average space) stays free
        to the end of phase 2."""
        q = min(0.9, weight / max(1, self.free))
        return float((1.0 - q) ** (self.placements * (1.0 - self.bowl_rate)))

    @property
    def left_share(self) -> float:
        """The share of this round's placements still to come."""
        return self.placements / max(1, self.placements + self.placed)


def _spec(components: Components) -> BrutiiSpec:
    spec = components.expansion
    assert spec is not None and spec.brutii is not None, "a Brutii game needs the Brutii's numbers"
    return spec.brutii


def more_cards(view: PlayerView, spec: BrutiiSpec, at_least: int = 1) -> float:
    """The chance of ``at_least`` more arrow discs in his turns left (R44: the face-down discs are drawn at random,
    without return: a hypergeometric draw)."""
    arrows = spec.discs[BrutiiDisc.ARROW] + spec.discs[BrutiiDisc.ARROW_FOLLOWER]
    arrows -= sum(1 for d in view.brutii_revealed if d != BrutiiDisc.CROSS)
    left = spec.disc_count - len(view.brutii_revealed)
    turns = max(0, min(view.brutii_turns, left))
    if at_least <= 0:
        return 1.0
    fewer = sum(math.comb(arrows, k) * math.comb(left - arrows, turns - k) for k in range(min(at_least, arrows + 1)))
    return 1.0 - fewer / math.comb(left, turns) if left > 0 else 0.0


def _vetoed(view: PlayerView, region: Region | None) -> bool:
    return region is not None and view.veto == int(region)


def _played(view: PlayerView, card: BrutiiCard) -> bool:
    """Whether the Brutii has played ``card`` this round (R45: public)."""
    return int(card) in view.brutii_played


def _outlook(v: Valuation) -> Outlook:
    cached = v.memo.get("brutii_outlook")
    if isinstance(cached, Outlook):
        return cached
    outlook = Outlook.of(v.view, v.components)
    v.memo["brutii_outlook"] = outlook
    return outlook


@cache
def _mean_card_value(components: Components) -> float:
    """The average printed value of a card of the expansion deck (a face-down card's expected value)."""
    tables = tables_for(components, True)
    total = sum(n * tables.card_value[c] for c, n in enumerate(tables.card_copies))
    return total / sum(tables.card_copies)


# -- the rivals -------------------------------------------------------------------------------------------------


def standing(v: Valuation, seat: int) -> float:
    """How close ``seat`` stands to winning, from public holdings: the best ``required`` of the victory card's
    objectives, each met (1) or part-way, over ``required`` (the markers share in the point-value variant)."""
    p = v.view.players[seat]
    card = v.victory
    if card is None:
        return min(1.0, sum(p.markers) / max(1, v.needs.thresholds.get("markers", 1)))
    t = card.thresholds
    amounts = {
        "tribune": 1.0 if p.tile == TRIBUNE else 0.4 if p.tile == SCROLL else 0.0,
        "favor": 1.0 if p.eternal_favor or p.temporary_favor else 0.0,
        "laurels": p.laurels / max(1, t.get("laurels", 1)),
        "legions": p.legions / max(1, t.get("legions", 1)),
        "denarii": p.money / max(1, t.get("denarii", 1)),
        "markers": sum(p.markers) / max(1, t.get("markers", 1)),
        "emperor_tiles": len(p.emperor_tiles) / max(1, t.get("emperor_tiles", 1)),
        "patrons": p.patrons / max(1, t.get("patrons", 1)),
    }
    objectives = EXPANSION_OBJECTIVES if isinstance(card, ExpansionVictoryCard) else OBJECTIVES
    progress = sorted((min(1.0, amounts[o]) for o in objectives), reverse=True)
    return sum(progress[: v.required]) / v.required


def threat(v: Valuation, seat: int) -> float:
    """How much hurting ``seat`` is worth to the Brutii: 0.5 for a rival at the start, 1.5 for one about to win,
    and a third more for the rival standing best."""
    rivals = [s for s in range(v.view.num_players) if s != v.seat]
    if seat not in rivals:
        return 0.0
    cached = v.memo.get("brutii_threat")
    if not isinstance(cached, dict):
        cached = {s: standing(v, s) for s in rivals}
        v.memo["brutii_threat"] = cached
    mine: float = cached[seat]
    leader = max(cached.values())
    return (0.5 + mine) * (1.33 if mine >= leader else 1.0)


# -- the prices of the cards ------------------------------------------------------------------------------------


def _field_worth(v: Valuation, field: Sequence[int]) -> float:
    return sum(v.card(c) if c != HIDDEN else v.average_card() for c in field)


def _free_field_share(v: Valuation, o: Outlook, region: Region) -> float:
    """The worth of the fields of ``region`` the Brutii is likely to take with "Cards" option 1 (R47)."""
    if _vetoed(v.view, region):
        return 0.0
    spaces = v.tables.region_spaces[region]
    total = 0.0
    for i, field in enumerate(v.view.board[region]):
        if not field:
            continue
        worth = _field_worth(v, field)
        if v.view.spaces[spaces[i]] >= 0:
            total += LEFT_BY_OCCUPANT * worth
        else:
            total += o.stays_free(worth / (2 * v.average_card())) * worth
    return total


def _cards_second(v: Valuation, o: Outlook) -> float:
    """The "Cards" option 2: a card per Curia occupant's discard, the Catacombs pile left after the purchases."""
    view = v.view
    cards = 0.0
    if not _vetoed(view, Region.CURIA):
        spaces = v.tables.region_spaces[Region.CURIA]
        for i, field in enumerate(view.board[Region.CURIA]):
            if field:
                cards += 1.0 if view.spaces[spaces[i]] >= 0 else 1.0 - o.stays_free()
    if not _vetoed(view, Region.CATACOMBS):
        pile = sum(len(f) for f in view.board[Region.CATACOMBS])
        cards += max(0.0, pile - contested(v, o))
    return cards * v.average_card()


def contested(v: Valuation, o: Outlook) -> float:
    """The Catacombs purchases before his pile (R47): each family occupant who can pay buys to deny him
    (:func:`purchase_denial`), and the free spaces draw the families once "Cards" shows (``CATACOMBS_PULL``)."""
    seat = v.seat
    seated = _catacombs_buyers(v, _occupants(v.view), lambda s: FAMILY_BUYS if s != seat else 0.0)
    free = sum(1 for s in v.tables.region_spaces[Region.CATACOMBS] if v.view.spaces[s] < 0)
    return seated + free * (1.0 - o.stays_free(CATACOMBS_PULL)) * FAMILY_BUYS


def cards_options(v: Valuation, o: Outlook) -> tuple[float, float]:
    """The worth of "Cards" option 1 and option 2 (R46, R47)."""
    first = _free_field_share(v, o, Region.FORUM) + _free_field_share(v, o, Region.CURIA)
    return first, _cards_second(v, o)


def _cards(v: Valuation, o: Outlook) -> float:
    return max(cards_options(v, o))


def _latrine_money(v: Valuation, o: Outlook) -> float:
    """Denarii the Latrine is likely to pay him (R47): the card's value if it stays empty, the price when an
    occupant buys."""
    view = v.view
    if _vetoed(view, Region.LATRINE) or not view.board[Region.LATRINE] or not view.board[Region.LATRINE][0]:
        return 0.0
    value = _mean_card_value(v.components)
    if view.spaces[v.tables.region_spaces[Region.LATRINE][0]] >= 0:
        return LATRINE_BUY * value
    free = o.stays_free()
    return free * value + (1.0 - free) * LATRINE_BUY * value


def _rival_bid(v: Valuation, seat: int) -> int:
    """What a family heuristic in ``seat`` is likely to bid for the chariot: the family rule on its most exposed
    faction (:func:`agents.heuristic.chariot_amount`), seen with the Brutii's prices."""
    mine = [f for f in Faction if v.view.controller[f] == seat]
    if not mine:
        return 0
    return min(chariot_amount(v, max(exposure(v, f) for f in mine)), v.view.players[seat].money)


def chariot_payment(v: Valuation) -> float:
    """The denarii a "Denarii" opt-out is likely to bring (R49): a share of the highest likely rival bid."""
    bids = [_rival_bid(v, s) for s in range(v.view.num_players) if s != v.seat]
    return PAYMENT_SHARE * max(bids, default=0)


def _denarii(v: Valuation, o: Outlook) -> float:
    bowl = len(v.view.coin_bowl) + o.placements * o.bowl_rate
    return v.money(1) * (bowl + _latrine_money(v, o) + chariot_payment(v))


def pair_gains(v: Valuation) -> list[float]:
    """What each pair of his hand would bring on the Field of Mars (a laurel, a share of the bonus, less the two
    cards), best first, the pairs worth nothing left out."""
    gains = []
    for f in Faction:
        held = sorted(v.faction_cards(f), key=v.card)
        for a, b in zip(held[0::2], held[1::2], strict=False):
            gain = (1 + PAIR_BONUS) * v.laurel() - v.card(a) - v.card(b)
            if gain > 0:
                gains.append(gain)
    return sorted(gains, reverse=True)


def _laurels(v: Valuation, o: Outlook) -> float:
    if _vetoed(v.view, Region.FIELD_OF_MARS):
        return 0.0
    spaces = v.tables.region_spaces[Region.FIELD_OF_MARS]
    room = sum(o.stays_free() for s in spaces if v.view.spaces[s] < 0)
    return sum((g * min(1.0, max(0.0, room - i)) for i, g in enumerate(pair_gains(v))), 0.0)


def _eternal_favor(v: Valuation, o: Outlook) -> float:
    view = v.view
    if v.me.eternal_favor or _vetoed(view, Region.PANTHEON):
        return 0.0
    spaces = v.tables.region_spaces[Region.PANTHEON]
    if any(view.spaces[s] >= 0 for s in spaces):
        present = 1.0
    else:
        present = 1.0 - math.prod(o.stays_free() for _ in spaces)
    kinds = sacrifice_kinds(v)
    held = {kinds[c] for c in v.hand_cards()}
    deck = v.tables.card_copies
    chance = sum(n for c, n in enumerate(deck) if kinds[c] in held) / sum(deck)
    cheapest = min((v.card(c) for c in v.hand_cards()), default=0.0)
    return present * chance * max(0.0, v.favor(eternal=True) - cheapest)


def _patron(v: Valuation, o: Outlook) -> float:
    if _vetoed(v.view, Region.REFUGIUM):
        return 0.0
    patron = patron_plan(v, v.me.money)
    pairs, cards = pairs_plan(v)
    return max(0.0, patron[0] if patron is not None else 0.0, pairs if cards else 0.0)


def _emperor(v: Valuation, o: Outlook) -> float:
    view = v.view
    if _vetoed(view, Region.BASILICA):
        return 0.0
    best = 0.0
    if view.emperor_up >= 0:
        up = view.emperor_up
        unclaimed = 1.0
        for s in v.tables.region_spaces[Region.BASILICA]:
            occupant = view.spaces[s]
            if occupant >= 0:
                unclaimed *= 1.0 - v.tile_chance(up, occupant)
            else:
                unclaimed *= 1.0 - (1.0 - o.stays_free()) * NEWCOMER_CLAIM
        best = unclaimed * v.tile_chance(up, v.seat) * tile_value(v, up)
    if view.officials[Official.MATRONA] == v.seat:
        for tile in view.matrona_tiles:
            best = max(best, v.tile_chance(tile, v.seat) * tile_value(v, tile))
        best += MATRONA_KEEP
    return max(0.0, best)


def _official(v: Valuation, o: Outlook) -> float:
    view = v.view
    if _vetoed(view, Region.CAPITOLEUM):
        return 0.0
    chosen = view.officials_chosen
    gains = sorted(
        (official_gain(v, int(off), 0.0) for off in Official if not (int(off) < len(chosen) and chosen[off])),
        reverse=True,
    )
    if not gains:
        return 0.0
    spaces = v.tables.region_spaces[Region.CAPITOLEUM]
    before = sum(1.0 if view.spaces[s] >= 0 else 1.0 - o.stays_free() for s in spaces)
    return max(0.0, gains[min(len(gains) - 1, round(OFFICIAL_TAKEN * before))])


def takeover_gain(v: Valuation, f: int) -> float:
    """What taking faction ``f`` with his hand is worth (its worth less half the cards of the cheapest winning set,
    assassins included, R31); 0 when his hand cannot take it."""
    view = v.view
    if view.controller[f] == v.seat or view.chariot == f:
        return 0.0
    held = v.faction_cards(f)
    target = list(view.sets[f])
    plan = best_set(v.tables, held, [target], v.components.min_set_size)
    cost = 0.0
    if plan is None and v.assassins and view.controller[f] >= 0:
        found = assassin_plan(v, f, held, target, v.assassins)
        if found is not None:
            plan, k = found
            cost = 0.5 * k * v.card(v.assassin)
    if plan is None:
        return 0.0
    return max(0.0, v.faction(f) - cost - 0.5 * sum(v.card(c) for c in plan))


def takeover_options(v: Valuation, o: Outlook) -> tuple[float, float]:
    """The worth of "Faction Take-Over" option 1 (fields with no follower) and option 2 (a lone follower on "1",
    who may answer him) (R48)."""
    first = second = 0.0
    for f in Faction:
        gain = takeover_gain(v, f)
        if gain <= 0:
            continue
        one, two = (v.view.spaces[s] for s in v.tables.faction_spaces[f])
        if two >= 0 or one == v.seat:
            continue
        free_two = o.stays_free()
        if one < 0:
            free_one = o.stays_free()
            first += free_one * free_two * gain
            second += (1.0 - free_one) * free_two * CONTESTED * gain
        else:
            second += free_two * CONTESTED * gain
    return first, second


def _takeover(v: Valuation, o: Outlook) -> float:
    return max(takeover_options(v, o))


def legion_price(v: Valuation) -> int:
    """R51: the sum of his displayed Legates set, or the printed price without one."""
    if v.view.controller[Faction.LEGATES] == v.seat:
        return sum(v.tables.card_value[c] for c in v.view.sets[Faction.LEGATES])
    return _spec(v.components).legion_price


def _legion(v: Valuation, o: Outlook) -> float:
    price = legion_price(v)
    if price > spendable(v):
        return 0.0
    return max(0.0, v.legion() - v.money(price))


def free_slaves(v: Valuation) -> list[int]:
    """The face-up slaves on Thermae, Forum and Curia fields with no follower, in board order (R52)."""
    view = v.view
    out: list[int] = []
    for region in (Region.THERMAE, Region.FORUM, Region.CURIA):
        if _vetoed(view, region):
            continue
        spaces = v.tables.region_spaces[region]
        for i, field in enumerate(view.board[region]):
            if view.spaces[spaces[i]] < 0:
                out.extend(c for c in field if c != HIDDEN and v.tables.is_slave(c))
    return out


def _slaves(v: Valuation, o: Outlook) -> float:
    """R52: each slave taken for the ``slave_lay`` cards worth least, while he holds enough (not optional)."""
    lay = _spec(v.components).slave_lay
    hand = v.hand_cards()
    total = 0.0
    for slave in free_slaves(v):
        if len(hand) < lay:
            break
        laid = sorted(hand, key=v.card)[:lay]
        total += v.card(slave) - sum(v.card(c) + LAID_LOSS for c in laid)
        for c in laid:
            hand.remove(c)
        hand.append(slave)
    return total


def _murder(v: Valuation, o: Outlook) -> float:
    """R53: the security each set of the printed size or more loses, his loss on his own sets, his gain (weighted by
    the owner's standing) on a rival's, more where his hand then takes the faction."""
    view = v.view
    least = _spec(v.components).mass_murder_set
    values = v.tables.card_value
    takeover = 1.0 if _played(view, BrutiiCard.FACTION_TAKEOVER) else 0.5 * o.more
    total = 0.0
    for f, cards in enumerate(view.sets):
        if len(cards) < least:
            continue
        ordered = sorted(values[c] for c in cards)
        lost = security(len(ordered), sum(ordered)) - security(len(ordered) - 1, sum(ordered[:-1]))
        harm = lost * v.faction(f)
        owner = view.controller[f]
        if owner == v.seat:
            total -= harm
            continue
        if owner >= 0:
            total += MURDER_RIVAL * threat(v, owner) * harm
        weaker = sorted(cards, key=lambda c: values[c])[:-1]
        held = v.faction_cards(f)
        smallest = v.components.min_set_size
        if not can_beat(v.tables, held, cards, smallest) and can_beat(v.tables, held, weaker, smallest):
            total += takeover * MURDER_OPENS * v.faction(f)
    return total


def _veto(v: Valuation, o: Outlook) -> float:
    return max(veto_values(v, o).values(), default=0.0)


# -- the Veto (R54) ---------------------------------------------------------------------------------------------


def _rival_gain(v: Valuation, region: Region, slot: int, occupant: int) -> float:
    """What a follower of ``occupant`` (-1: one still to come) on space ``slot`` of ``region`` would gain."""
    view = v.view
    board = view.board[region]
    field = board[slot] if slot < len(board) else ()
    card = v.average_card()
    if region in (Region.THERMAE, Region.FORUM):
        return _field_worth(v, field)
    if region is Region.CURIA:
        return max(0.0, _field_worth(v, field) - card)
    if region is Region.ATRIUM:
        return 0.5 * sum(_field_worth(v, f) for f in board)
    if region is Region.LATRINE:
        return v.money(1) * _mean_card_value(v.components)
    if region is Region.CATACOMBS:
        return card
    return _board_gain(v, region, occupant)


def _board_gain(v: Valuation, region: Region, occupant: int) -> float:
    """The Pantheon, Field of Mars and the expansion board, in rough points and objectives of a rival."""
    view = v.view
    scoring = v.scoring
    if region is Region.PANTHEON:
        if occupant >= 0 and view.players[occupant].eternal_favor:
            return 0.0
        return 0.5 * (scoring.eternal_favor + RIVAL_OBJECTIVE)
    if region is Region.FIELD_OF_MARS:
        return scoring.laurel * (1 + PAIR_BONUS) + RIVAL_OBJECTIVE / max(1, v.needs.thresholds.get("laurels", 1))
    spec = v.spec
    if spec is None:
        return 0.0
    if region is Region.REFUGIUM:
        return 0.5 * (spec.scoring.patron + RIVAL_OBJECTIVE)
    if region is Region.BASILICA:
        up = view.emperor_up
        chance = v.tile_chance(up, occupant) if up >= 0 and occupant >= 0 else 0.3
        return chance * (spec.scoring.emperor_tile + RIVAL_OBJECTIVE)
    return 2.0  # the Capitoleum: an official for a round or more


def planned(v: Valuation, o: Outlook) -> list[BrutiiCard]:
    """The cards he has played and those he is sure enough to play after this one (the best ``o.sure`` unplayed
    location cards by worth, the Veto aside)."""
    cached = v.memo.get("brutii_planned")
    if isinstance(cached, list):
        return cached
    played = [BrutiiCard(c) for c in v.view.brutii_played]
    unplayed = {c: _PRICES[c](v, o) for c, _ in _PLACE_PRICE if c not in played}
    later = sorted((c for c, x in unplayed.items() if x > 0), key=lambda c: -unplayed[c])[: o.sure]
    out = played + later
    v.memo["brutii_planned"] = out
    return out


def _own_loss(v: Valuation, o: Outlook, region: Region) -> float:
    """What the Brutii would lose in ``region``: what his played and planned cards would get there, his own
    follower there."""
    view = v.view
    loss = 0.0
    for card in planned(v, o):
        price = _PLACE_PRICE.get((card, region))
        if price is not None:
            loss += price(v, o)
    for slot, s in enumerate(v.tables.region_spaces[region]):
        if view.spaces[s] == v.seat:
            loss += _rival_gain(v, region, slot, v.seat)
    return loss


def veto_values(v: Valuation, o: Outlook) -> dict[Region, float]:
    """The worth of vetoing each region (R54): the rivals' gains there (by their standing), a part of later
    placements' gains, less his own."""
    view = v.view
    mean_threat = sum(threat(v, s) for s in range(view.num_players)) / max(1, view.num_players - 1)
    out: dict[Region, float] = {}
    for region in v.tables.regions:
        value = -_own_loss(v, o, region)
        for slot, s in enumerate(v.tables.region_spaces[region]):
            occupant = view.spaces[s]
            if occupant >= 0 and occupant != v.seat:
                value += threat(v, occupant) * _rival_gain(v, region, slot, occupant)
            elif occupant < 0:
                later = 1.0 - o.stays_free()
                value += PREVENTED * later * mean_threat * _rival_gain(v, region, slot, -1)
        out[region] = value
    return out


PriceFn = Callable[[Valuation, Outlook], float]

_PRICES: dict[BrutiiCard, PriceFn] = {
    BrutiiCard.PATRON: _patron,
    BrutiiCard.FACTION_TAKEOVER: _takeover,
    BrutiiCard.ETERNAL_FAVOR: _eternal_favor,
    BrutiiCard.FAVOR_OF_THE_EMPEROR: _emperor,
    BrutiiCard.OFFICIAL: _official,
    BrutiiCard.CARDS: _cards,
    BrutiiCard.DENARII: _denarii,
    BrutiiCard.LAURELS: _laurels,
    BrutiiCard.BUY_A_LEGION: _legion,
    BrutiiCard.SLAVE_CARDS: _slaves,
    BrutiiCard.MASS_MURDER: _murder,
    BrutiiCard.VETO: _veto,
}

_PLACE_PRICE: dict[tuple[BrutiiCard, Region], PriceFn] = {
    (BrutiiCard.CARDS, Region.FORUM): lambda v, o: OWN_SHARE * _cards(v, o),
    (BrutiiCard.CARDS, Region.CURIA): lambda v, o: OWN_SHARE * _cards(v, o),
    (BrutiiCard.CARDS, Region.CATACOMBS): lambda v, o: OWN_SHARE * _cards(v, o),
    (BrutiiCard.DENARII, Region.LATRINE): lambda v, o: v.money(1) * _latrine_money(v, o),
    (BrutiiCard.LAURELS, Region.FIELD_OF_MARS): _laurels,
    (BrutiiCard.ETERNAL_FAVOR, Region.PANTHEON): _eternal_favor,
    (BrutiiCard.PATRON, Region.REFUGIUM): _patron,
    (BrutiiCard.FAVOR_OF_THE_EMPEROR, Region.BASILICA): _emperor,
    (BrutiiCard.OFFICIAL, Region.CAPITOLEUM): _official,
}
"""The part of a played card's worth that one region carries (what a Veto there costs him)."""


def card_values(v: Valuation) -> dict[BrutiiCard, float]:
    """The worth of every unplayed action card under the current view (before holding back)."""
    o = _outlook(v)
    played = set(v.view.brutii_played)
    return {card: price(v, o) for card, price in _PRICES.items() if int(card) not in played}


def option_values(v: Valuation, card: BrutiiCard) -> tuple[float, float]:
    """The worth of option 1 and option 2 of "Cards" or "Faction Take-Over" (R46)."""
    o = _outlook(v)
    return cards_options(v, o) if card is BrutiiCard.CARDS else takeover_options(v, o)


# -- the decisions ----------------------------------------------------------------------------------------------


def held_back(v: Valuation, card: BrutiiCard, value: float) -> float:
    """``value`` lowered by ``WAIT`` times the card's dependence on the placements to come times the share of this
    round's placements still to come (module docstring)."""
    return value * (1.0 - WAIT * DEPENDENCE[card] * _outlook(v).left_share)


def _card(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R44: of the cards worth most that he is sure enough to play this round anyway (this one and ``sure`` more),
    the best once held back: the others wait for the board to show."""
    values = card_values(v)
    cards = [a for a in legal if isinstance(a, ChooseActionCard)]
    ranked = sorted(cards, key=lambda a: -values.get(BrutiiCard(a.card), 0.0))
    kept = ranked[: 1 + _outlook(v).sure]
    return max(kept, key=lambda a: held_back(v, BrutiiCard(a.card), values.get(BrutiiCard(a.card), 0.0)))


def _option(card: BrutiiCard) -> Callable[[Valuation, Pending, Sequence[Action]], Action]:
    def choose(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
        first, second = option_values(v, card)
        options = [a for a in legal if isinstance(a, ChooseOption)]
        return max(options, key=lambda a: (second if a.option == 1 else first, -a.option))

    return choose


def _veto_region(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R54: the region whose veto is worth most."""
    values = veto_values(v, _outlook(v))
    regions = [a for a in legal if isinstance(a, ChooseRegion)]
    return max(regions, key=lambda a: values.get(Region(a.region), 0.0))


def _lay(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R52: lay the cards worth least, in ascending card order (the order the engine asks)."""
    cards = picks(legal)
    if not cards:
        return legal[0]
    if any(c != HIDDEN for c in v.view.staged):  # the next card: the least useful one still offered
        return PickCard(min(cards, key=lambda c: (v.card(c), c)))
    lay = _spec(v.components).slave_lay
    plan = sorted(sorted(v.hand_cards(), key=lambda c: (v.card(c), c))[:lay])
    first = PickCard(plan[0])
    return first if first in legal else PickCard(min(cards, key=lambda c: (v.card(c), c)))


def _buy_legion(v: Valuation, pending: Pending, legal: Sequence[Action]) -> Action:
    """R51: a legion when it is worth its price and the price can be spared."""
    price = legion_price(v)
    return COMMIT if v.legion() > v.money(price) and price <= spendable(v) else DECLINE


Rule = Callable[[Valuation, Pending, Sequence[Action]], Action]
RULES: dict[DecisionKind, Rule] = {
    DecisionKind.BRUTII_CARD: _card,
    DecisionKind.BRUTII_CARDS_OPTION: _option(BrutiiCard.CARDS),
    DecisionKind.BRUTII_TAKEOVER_OPTION: _option(BrutiiCard.FACTION_TAKEOVER),
    DecisionKind.BRUTII_VETO: _veto_region,
    DecisionKind.BRUTII_SLAVES: _lay,
    DecisionKind.BRUTII_LEGION: _buy_legion,
}
"""A rule for each decision only the Brutii faces."""


def opts_out(v: Valuation, protection: float) -> bool:
    """R49: whether the Brutii opts out of the chariot auction: with "Denarii" played, when the likely winner's
    payment is worth more than the ``protection`` a bid would buy."""
    if not _played(v.view, BrutiiCard.DENARII):
        return False
    payment = v.money(1) * chariot_payment(v)
    return payment > 0 and payment >= protection


# -- the families against his played cards (R45: his played cards are public) ----------------------------------------
#
# What a family's choice takes from the Brutii is priced in his gains (cards, denarii, factions) as the family's own
# valuation prices them, times ``DENY`` times his threat (:func:`threat`: more as he nears a win). Only the view is
# read: his played cards and chosen options, the board, his public hand size and money (R45); his hand, his unplayed
# discs and the face-down cards are never looked at.


def against(v: Valuation) -> int:
    """The Brutii's seat when the player of ``v`` is a family facing him, else -1 (no reaction)."""
    brutii = v.view.brutii
    return brutii if brutii >= 0 and brutii != v.seat else -1


def deny_weight(v: Valuation) -> float:
    """What one utility point of the Brutii's gain is worth to deny, to the family of ``v``."""
    cached = v.memo.get("deny_weight")
    if isinstance(cached, float):
        return cached
    weight = DENY * threat(v, v.view.brutii)
    v.memo["deny_weight"] = weight
    return weight


def _cards_up(view: PlayerView) -> bool:
    """Whether "Cards" lies face up with its option still to choose (R46: chosen at the start of phase 3)."""
    return _played(view, BrutiiCard.CARDS) and view.brutii_options[CARDS_OPTION] < 0


Occupants = Callable[[int], int]
"""The seat on a follower space (-1: free), the view's or with a family's placement considered."""


def _occupants(view: PlayerView, space: int = -1, seat: int = -1) -> Occupants:
    return lambda s: seat if s == space else view.spaces[s]


def _catacombs_buyers(v: Valuation, on: Occupants, chance: Callable[[int], float]) -> float:
    """The purchases the Catacombs occupants of ``on`` who can pay are likely to make (``chance`` by seat, R47)."""
    spaces = v.tables.region_spaces[Region.CATACOMBS]
    prices = v.components.region(Region.CATACOMBS).prices
    money = [p.money for p in v.view.players]
    return sum(chance(on(s)) for slot, s in enumerate(spaces) if on(s) >= 0 and money[on(s)] >= prices[slot])


def cards_take(v: Valuation, on: Occupants) -> tuple[float, float]:
    """The cards "Cards" brings him under option 1 (the free Forum and Curia fields) and option 2 (a Curia
    occupant's discard each, the Catacombs pile less the occupants who can pay), with the followers of ``on``
    (R47). Every card counts one; the face-down ones are counted, never looked at."""
    view, spaces = v.view, v.tables.region_spaces
    first = second = 0.0
    for region in (Region.FORUM, Region.CURIA):
        if _vetoed(view, region):
            continue
        for i, field in enumerate(view.board[region]):
            if on(spaces[region][i]) < 0:
                first += len(field)
            elif region is Region.CURIA and field:
                second += 1.0
    if not _vetoed(view, Region.CATACOMBS):
        pile = sum(len(f) for f in view.board[Region.CATACOMBS])
        second += max(0.0, pile - _catacombs_buyers(v, on, lambda seat: float(seat != view.brutii)))
    return first, second


def expected_take(first: float, second: float) -> float:
    """What he takes with the option he is likely to choose: the better one, softly (``CARDS_SPREAD``)."""
    p = 1.0 / (1.0 + math.exp(-(second - first) / CARDS_SPREAD))
    return p * second + (1.0 - p) * first


def cards_denial(v: Valuation, space: int) -> float:
    """What the family's follower on ``space`` takes from a face-up "Cards" (R47; E92, E94, E95), in points: the
    cards it removes from the option he is likely to choose (a Forum or Curia field of option 1, a Catacombs
    purchase of option 2; a Curia discard adds one to option 2)."""
    if not _cards_up(v.view):
        return 0.0
    before = expected_take(*cards_take(v, _occupants(v.view)))
    after = expected_take(*cards_take(v, _occupants(v.view, space, v.seat)))
    return deny_weight(v) * v.average_card() * (before - after)


def denarii_denial(v: Valuation, spec: SpaceSpec) -> float:
    """What the family's follower on ``spec`` takes from a face-up "Denarii" (R47; E93, E98): on the Latrine the value
    of the card he gets from an empty one (the family takes the money), on the coin bowl the denarius it gives him."""
    view = v.view
    if not _played(view, BrutiiCard.DENARII):
        return 0.0
    if spec.kind is SpaceKind.COIN_BOWL:
        return -deny_weight(v) * v.money(1)
    if spec.region is Region.LATRINE and not _vetoed(view, Region.LATRINE):
        return deny_weight(v) * v.money(1) * _mean_card_value(v.components)
    return 0.0


@cache
def _faction_share(components: Components, faction: int) -> float:
    """The share of the expansion deck's cards that belong to ``faction``."""
    tables = tables_for(components, True)
    copies = tables.card_copies
    return sum(copies[c] for c in tables.faction_cards[faction]) / sum(copies)


def _at_least(n: int, p: float, k: int) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1.0 - p) ** (n - i) for i in range(max(0, k), n + 1))


def takeover_chance(v: Valuation, f: int) -> float:
    """The chance that his hand takes faction ``f`` (R48, E102), from what everybody sees: his hand size, the deck's
    share of the faction, the displayed set to beat (more cards, or as many with a higher sum). None of his own
    factions nor the chariot's."""
    view = v.view
    brutii = view.brutii
    if view.controller[f] == brutii or view.chariot == f:
        return 0.0
    smallest = v.components.min_set_size
    target = len(view.sets[f]) if view.controller[f] >= 0 else 0
    n, p = view.players[brutii].hand_size, _faction_share(v.components, f)
    chance = _at_least(n, p, max(smallest, target + 1))
    if target >= smallest:
        chance += TIE_BEATS * (_at_least(n, p, target) - _at_least(n, p, target + 1))
    return chance


def brutii_faction_gain(v: Valuation, f: int) -> float:
    """What taking faction ``f`` brings him, in the family's points: his marker (if new, with its share of the
    markers objective), the first laurel, the take-over's legions and laurels, the rounds of benefit (as the family
    prices them)."""
    view = v.view
    n = v.components.factions[f].numbers
    gain = BENEFIT_ROUNDS * v.benefit(f)
    if view.first_laurel[f]:
        gain += v.scoring.laurel * v.components.starting_laurels
    if not view.players[view.brutii].markers[f]:
        gain += v.scoring.marker + RIVAL_OBJECTIVE / max(1, v.needs.thresholds.get("markers", 1))
    return gain + n.get("takeover_legions", 0) * v.scoring.legion + n.get("takeover_laurels", 0) * v.scoring.laurel


def takeover_threat(v: Valuation, on: Occupants) -> tuple[float, float]:
    """What "Faction Take-Over" threatens under option 1 (fields with no follower) and option 2 (a lone follower of
    another player on "1", who may answer him: ``CONTESTED``) with the followers of ``on`` (R48, E102)."""
    first = second = 0.0
    for f in Faction:
        one, two = (on(s) for s in v.tables.faction_spaces[f])
        if two >= 0 or one == v.view.brutii:
            continue
        worth = _faction_worth(v, f)
        if one < 0:
            first += worth
        else:
            second += CONTESTED * worth
    return first, second


def _faction_worth(v: Valuation, f: int) -> float:
    cached = v.memo.get(f"brutii_faction{f}")
    if isinstance(cached, float):
        return cached
    chance = takeover_chance(v, f)
    worth = chance * deny_weight(v) * brutii_faction_gain(v, f) if chance else 0.0
    v.memo[f"brutii_faction{f}"] = worth
    return worth


def takeover_defence(v: Valuation, space: int) -> float:
    """What the family's follower on faction space ``space`` takes from a face-up "Faction Take-Over" (R48, E102): the
    fall of the better option's threat (R46: the option is chosen at the start of phase 4, every follower placed)."""
    view = v.view
    if not _played(view, BrutiiCard.FACTION_TAKEOVER) or view.brutii_options[TAKEOVER_OPTION] >= 0:
        return 0.0
    before = max(takeover_threat(v, _occupants(view)))
    after = max(takeover_threat(v, _occupants(view, space, v.seat)))
    return before - after


def placement_denial(v: Valuation, spec: SpaceSpec) -> float:
    """What a family's follower on ``spec`` takes from the Brutii's face-up cards (0 for the Brutii himself and
    without him): "Cards" (Forum, Curia, Catacombs), "Denarii" (Latrine, coin bowl), "Faction Take-Over"."""
    if against(v) < 0 or not v.view.brutii_played:
        return 0.0
    if spec.kind is SpaceKind.FACTION:
        return takeover_defence(v, spec.id)
    value = denarii_denial(v, spec)
    if spec.region in (Region.FORUM, Region.CURIA, Region.CATACOMBS):
        value += cards_denial(v, spec.id)
    return value


def purchase_denial(v: Valuation) -> float:
    """What a family's Catacombs purchase takes from him (R47, E95): a card of the pile "Cards" option 2 gives him."""
    if against(v) < 0 or not _played(v.view, BrutiiCard.CARDS) or v.view.brutii_options[CARDS_OPTION] != 1:
        return 0.0
    return deny_weight(v) * v.average_card()


def curia_denial(v: Valuation, field: Sequence[int]) -> float:
    """What a family's Curia discard for ``field`` takes from him (R47, E94): with "Cards" option 1 the field he gets if
    nobody discards for it; with option 2 minus the discarded card he gets."""
    if against(v) < 0 or not _played(v.view, BrutiiCard.CARDS):
        return 0.0
    option = v.view.brutii_options[CARDS_OPTION]
    if option == 0:
        return deny_weight(v) * v.average_card() * len(field)
    return -deny_weight(v) * v.average_card() if option == 1 else 0.0


def latrine_payment(v: Valuation, price: int) -> float:
    """What buying the Latrine card gives him with "Denarii" face up (R47, E93: the buyer pays him, not the stock)."""
    if against(v) < 0 or not _played(v.view, BrutiiCard.DENARII):
        return 0.0
    return deny_weight(v) * v.money(price)
