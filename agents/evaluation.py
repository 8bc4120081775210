"""A hand-written evaluation of a Tribune position: :func:`evaluate` and :func:`evaluate_all`.

Used as the greedy agent's one-step evaluation and as a leaf value for search.
Pure functions of a :class:`~tribune_env.engine.state.GameState`; nothing is
cached between calls except per-component-set lookup tables.

The formula
-----------
For each seat ``s`` a *potential* ``phi_s`` is computed, then turned into a
win-probability-like value by a softmax over the seats::

    value_s = exp(BETA * phi_s) / sum_j exp(BETA * phi_j)

A finished game is scored exactly instead: 1/k for each of k winners, 0 for
the others.

The potential adds up four parts::

    phi = F + FULFIL_BONUS * fulfils_now + SCORE_WEIGHT * score / SCORE_SCALE + means

where ``fulfils_now`` says the seat meets the victory card with its real
holdings, ``score`` is :func:`~tribune_env.engine.scoring.scores` (it decides
between fulfillers), and ``F`` and ``means`` are explained below.

*Expected holdings.* Each of the card's quantities (laurels, legions, denarii,
markers) is its current amount plus the expected near-term additions:

* the benefit of each controlled faction for ``HORIZON`` rounds, times the
  set's security ``sigma`` (bigger and higher sets are harder to beat; the
  chariot on the faction makes it safe);
* take-overs the hand makes possible: for every faction the seat does not
  control, the hand's set (count, sum) is compared with the controller's set;
  a winning set is *ready* (r = 1), one card short is r = 0.3. Its gains
  (marker if lacking, first-controller laurel, take-over benefit, leader in
  the set, then the faction's benefit flow) count with weight ``r * rho``,
  ``rho = RHO_CLAIM`` when the seat stands on the faction's field this round,
  ``RHO_HAND`` otherwise;
* followers standing on the board (claims still to be resolved): cards of
  Thermae/Forum/Curia/Atrium fields join the hand (for the readiness above)
  at their price, the Latrine and Catacombs count as money or a card, a
  Pantheon follower as a chance of the favor, a Field of Mars follower with a
  pair in hand (or its own sealed pair) as a laurel.

*Objective progress F.* Per objective, progress ``p`` = expected amount /
threshold, capped at ``UNMET_CAP`` while the real amount is short of it and
1 once met (plus a small slope above, a safety margin). The tile counts 1 for
the tribune, about 0.5 for a scroll (more when the seat holds a pair of
factions whose benefit turns it over); the favor 1 eternal, 0.8 temporary,
less for a way to it (Vestal marker for the Pantheon). Obligatory objectives
always count; the others are sorted and the best ``required - obligatory``
count fully, the next one with ``NEXT_WEIGHT``, the rest with
``REST_WEIGHT``; the sum is divided by ``required``. In the point-value
variant ``phi`` is the marker progress (markers that end the game as the
threshold) plus twice the score and means terms.

*Means.* Cards in hand (``CARD_VALUE`` each, up to ``CARD_CAP``) and money
(``MONEY_VALUE`` per denarius up to ``MONEY_CAP``), which buy later progress.

*Expansion* (R30-R41). An expansion victory card has seven objectives (no
denarii; emperor tiles and patrons, each counted like the others: actual plus
prospect over the threshold). The patron prospect is ``PATRON_HAND`` for a
ready, affordable patron set in hand (``PATRON_CLAIM`` with a follower on the
Refugium, ``PATRON_SHORT`` one slave short); Greek and Germanian pairs in hand
add their laurels and legions with ``PAIR_HAND`` (``PATRON_CLAIM`` on the
Refugium). A Basilica follower meeting the requirements of a tile he may claim
(the face-up one unless the player on "1" meets it first, his Matrona tiles)
is ``TILE_CLAIM`` of a tile; a Matrona tile he meets ``MATRONA_TILE``. Each
official held adds ``OFFICIAL_VALUE`` to the means (half that for a follower
still to choose at the Capitoleum), the Augur its cards and the Quaestor half
his income; the Tribunus Plebis with a scroll and two factions counts the tile
as nearly a tribune. Assassins in hand lower the sets a take-over must beat
(R31); slaves and assassins are never part of a faction's count. The scores
use the expansion's table. For the other seats a patron prospect grows with
the hidden hand's size (``OPPONENT_PATRON_PER_CARD``).

*The Brutii* (R44-R54). His played action cards count like followers at their locations until those are
evaluated: "Cards" the Forum and Curia fields nobody stands on (option 1) or the Curia discards and the Catacombs
pile left (option 2), "Denarii" the coin bowl's followers and the Latrine (``LATRINE_MONEY``, half of it with an
occupant), "Laurels" a Field of Mars claim per empty space, "Eternal Favor" a Pantheon claim once somebody stands
there, "Patron" a Refugium follower, "Favor of the Emperor" a Basilica claim (``TILE_CLAIM`` when no occupant meets
the face-up tile and he does), "Official" a Capitoleum follower, "Faction Take-Over" a claim on every faction its
option (either, before he chooses) lets him attempt.

Only what the evaluated seat may know is read: for the other seats (in
:func:`evaluate`, or in :func:`evaluate_all` with ``viewer``) the hand enters
through its public size alone (``OPPONENT_READY_PER_CARD`` ready take-overs
per card), never through its cards, and their sealed Field of Mars choices
count as half a laurel per follower whatever they were (R2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress

from agents.view_position import seat_position
from tribune_env.data import (
    EXPANSION_OBJECTIVES,
    BrutiiCard,
    Components,
    ExpansionRegion,
    ExpansionVictoryCard,
    Faction,
    Nationality,
    Official,
    Region,
    RegionSpec,
    Requirement,
)
from tribune_env.data.schema import find_card
from tribune_env.engine.brutii_ops import CARDS_OPTION, TAKEOVER_OPTION
from tribune_env.engine.config import required_for, victory_cards_of
from tribune_env.engine.decisions import DecisionKind, Phase
from tribune_env.engine.game import Game
from tribune_env.engine.scoring import scores
from tribune_env.engine.state import NO_TILE, SCROLL, TRIBUNE, GameState, PlayerState
from tribune_env.engine.tables import CardKind, SpaceKind, tables_for
from tribune_env.engine.view import public_hand_size

__all__ = ["evaluate", "evaluate_all", "evaluate_game", "potentials", "security"]

# -- weights (see the module docstring) ---------------------------------------------
BETA = 5.0
FULFIL_BONUS = 0.5
SCORE_WEIGHT = 0.15
SCORE_SCALE = 20.0
UNMET_CAP = 0.9
ABOVE_SLOPE = 0.05
NEXT_WEIGHT = 0.3
REST_WEIGHT = 0.1
HORIZON = 1.5
RHO_CLAIM = 0.85
RHO_CONTESTED = 0.6
RHO_HAND = 0.3
ONE_SHORT = 0.3
CARD_VALUE = 0.008
CARD_CAP = 10
MONEY_VALUE = 0.003
MONEY_CAP = 25
LATRINE_MONEY = 3.0
CATACOMBS_CARDS = 1.5
PATRICIAN_FOLLOWER_MONEY = 4.0
OPPONENT_READY_PER_CARD = 1.0 / 6.0  # expected ready take-overs per card of a hidden hand
# the expansion (see "Expansion" in the module docstring)
PATRON_HAND = 0.45  # a patron set ready in hand, no Refugium follower yet
PATRON_CLAIM = 0.85  # ... with a follower on the Refugium this round
PATRON_SHORT = 0.15  # one slave short of a set
PAIR_HAND = 0.35  # a Refugium pair in hand (RHO-like weight; a follower there raises it to PATRON_CLAIM)
TILE_CLAIM = 0.9  # a Basilica follower meeting a tile's requirements
MATRONA_TILE = 0.3  # a Matrona tile whose requirements the holder meets (claimed next round from the Basilica)
OFFICIAL_VALUE = 0.012  # means: an official held (cards, money, placements to come)
OPPONENT_PATRON_PER_CARD = 0.03  # patron prospect per card of a hidden hand

# Indices of the expected-additions accumulator of a seat.
LAURELS, LEGIONS, MONEY, MARKERS, CARDS = range(5)
Items = tuple[tuple[int, float], ...]  # sparse additions: (accumulator index, amount)

_OBJ_INDEX = {"tribune": 0, "favor": 1, "laurels": 2, "legions": 3, "denarii": 4, "markers": 5}
_EXP_INDEX = {o: i for i, o in enumerate(EXPANSION_OBJECTIVES)}  # tribune 0, favor 1, ..., emperor_tiles 5, patrons 6


# -- tables derived from the components ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Prep:
    """Lookup tables derived once per component set."""

    values: tuple[int, ...]
    faction_of: tuple[int, ...]
    leader: tuple[int, ...]
    gain: tuple[tuple[Items, Items], ...]  # per faction: take-over gains, leader not in / in the set
    flow: tuple[tuple[Items, Items], ...]  # per faction: benefit per round, without / with a tile
    space_kind: tuple[int, ...]  # a Region, or -1 for faction fields and -2 for the coin bowl
    space_arg: tuple[int, ...]  # card field of a region space, or the faction of a faction-field space
    space_cost: tuple[int, ...]
    faction_spaces: tuple[tuple[int, ...], ...]
    first_laurels: int
    # the expansion (empty / -1 in a base game)
    slaves: tuple[int, ...] = ()  # per card type: its slave nationality, or -1
    assassin: int = -1


_FACTION_SPACE, _COIN_BOWL = -1, -2


def _sparse(values: Sequence[float]) -> Items:
    return tuple((i, float(x)) for i, x in enumerate(values) if x)


def _gain_items(faction: Faction, numbers: dict[str, int], leader: bool) -> Items:
    total = [0.0] * 5
    for prefix in ("takeover", "leader") if leader else ("takeover",):
        total[LAURELS] += numbers.get(f"{prefix}_laurels", 0)
        total[LEGIONS] += numbers.get(f"{prefix}_legions", 0)
        total[MONEY] += numbers.get(f"{prefix}_denarii", 0)
        total[CARDS] += numbers.get(f"{prefix}_cards", 0)
    if leader and faction is Faction.SENATORS:  # Cato: one more marker
        total[MARKERS] += 1.0
    return _sparse(total)


def _flow_items(faction: Faction, numbers: dict[str, int], tile: bool) -> Items:
    """One round of the faction's benefit (the Gladiators' Colosseum money is added at run time)."""
    total = [0.0] * 5
    cards = numbers.get("benefit_cards", 0)
    if faction is Faction.GLADIATORS:
        total[CARDS] = 0.5 * cards
    elif faction is Faction.PRAETORIANS:
        total[LEGIONS] = numbers.get("benefit_legions", 0)
    elif faction is Faction.PLEBEIANS:
        total[MONEY], total[CARDS] = numbers.get("benefit_denarii", 0), cards
    elif faction is Faction.PATRICIANS:
        total[MONEY] = PATRICIAN_FOLLOWER_MONEY
    elif faction is Faction.VESTALS:
        total[LAURELS] = numbers.get("benefit_laurels", 0)
    elif tile:  # Legates, Senators: a scroll (counted by the tile) until the player has a tile
        total[CARDS] = cards
        total[LEGIONS] = 0.4 * numbers.get("benefit_legions", 0)
    return _sparse(total)


@cache
def _prep(components: Components, expansion: bool = False) -> _Prep:
    tables = tables_for(components, expansion)
    printed = {spec.region: spec for spec in components.regions}  # the base board's regions, with their prices
    kinds: list[int] = []
    args: list[int] = []
    costs: list[int] = []
    for spec in tables.spaces:
        if spec.kind is SpaceKind.REGION and spec.region is not None:
            kinds.append(int(spec.region))
            args.append(spec.slot)
            costs.append(_space_cost(printed.get(spec.region), spec.slot))
        else:
            kinds.append(_FACTION_SPACE if spec.kind is SpaceKind.FACTION else _COIN_BOWL)
            args.append(int(spec.faction) if spec.faction is not None else -1)
            costs.append(0)
    factions = [(Faction(i), spec.numbers) for i, spec in enumerate(components.factions)]
    return _Prep(
        values=tables.card_value,
        faction_of=tables.card_faction,
        leader=tables.leader_card,
        gain=tuple((_gain_items(f, n, False), _gain_items(f, n, True)) for f, n in factions),
        flow=tuple((_flow_items(f, n, False), _flow_items(f, n, True)) for f, n in factions),
        space_kind=tuple(kinds),
        space_arg=tuple(args),
        space_cost=tuple(costs),
        faction_spaces=tables.faction_spaces,
        first_laurels=components.starting_laurels,
        slaves=tuple(
            n if kind is CardKind.SLAVE else -1
            for n, kind in zip(tables.card_nationality, tables.card_kind, strict=True)
        )
        if expansion
        else (),
        assassin=tables.assassin_card,
    )


def _space_cost(region: RegionSpec | None, slot: int) -> int:
    """Denarii a follower on ``slot`` of ``region`` pays; regions IX-XI (not printed on the base board) are
    follower spaces only, with nothing to pay (E7)."""
    if region is None:
        return 0
    return region.prices[slot] if region.prices else region.numbers.get("cost", 0)


@dataclass(frozen=True, slots=True)
class _Card:
    """A victory card for one player count: thresholds, objectives required, obligatory objective indices."""

    laurels: int
    legions: int
    denarii: int
    markers: int
    required: int
    obligatory: tuple[int, ...]  # indices into the progress list: tribune 0, favor 1, laurels 2, ...
    free: tuple[int, ...]  # the other indices

    def progress(self, state: GameState, seat: int, player: PlayerState, work: _Seat) -> tuple[float, ...]:
        """The progress on each objective, in the order of the card's objectives (:data:`_OBJ_INDEX`)."""
        acc = work.acc
        return (
            _tile(state, seat, player),
            _favor(player, work),
            _progress(player.laurels, acc[LAURELS], self.laurels),
            _progress(player.legions, acc[LEGIONS], self.legions),
            _progress(player.money, acc[MONEY], self.denarii),
            _progress(player.num_markers, acc[MARKERS], self.markers),
        )


@dataclass(frozen=True, slots=True)
class _ExpansionCard(_Card):
    """An expansion victory card (E72): no denarii; emperor tiles and patrons."""

    emperor_tiles: int
    patrons: int

    def progress(self, state: GameState, seat: int, player: PlayerState, work: _Seat) -> tuple[float, ...]:
        """The progress on each of the seven objectives, in the order of EXPANSION_OBJECTIVES."""
        acc = work.acc
        return (
            _tile(state, seat, player),
            _favor(player, work),
            _progress(player.laurels, acc[LAURELS], self.laurels),
            _progress(player.legions, acc[LEGIONS], self.legions),
            _progress(player.num_markers, acc[MARKERS], self.markers),
            _progress(len(player.emperor_tiles), work.emperor, self.emperor_tiles),
            _progress(player.patrons, work.patron, self.patrons),
        )


@cache
def _card(components: Components, card_id: str, players: int, expansion: bool = False, brutii: bool = False) -> _Card:
    """The victory card ``card_id`` at ``players`` seats; with the Brutii its "with Brutii" row (E106)."""
    if expansion:
        found = find_card(victory_cards_of(components, True), card_id)
        if isinstance(found, ExpansionVictoryCard):
            t = found.thresholds
            obligatory = tuple(sorted(_EXP_INDEX[o] for o in found.obligatory))
            free = tuple(i for i in range(len(_EXP_INDEX)) if i not in obligatory)
            required = required_for(found, players, brutii)
            return _ExpansionCard(
                t["laurels"], t["legions"], 0, t["markers"], required, obligatory, free,
                t["emperor_tiles"], t["patrons"],
            )  # fmt: skip
    card = components.victory_card(card_id)
    t = card.thresholds
    obligatory = tuple(sorted(_OBJ_INDEX[o] for o in card.obligatory))
    free = tuple(i for i in range(len(_OBJ_INDEX)) if i not in obligatory)
    return _Card(t["laurels"], t["legions"], t["denarii"], t["markers"], card.required[players], obligatory, free)


def _card_in_play(state: GameState) -> _Card | None:
    """The victory card of ``state``'s game (None in the point-value variant)."""
    config = state.config
    if config.point_variant:
        return None
    return _card(config.components, state.victory_card, config.players, config.expansion, config.brutii)


class _Seat:
    """Working values of one seat: expected additions, prospective cards, board claims."""

    __slots__ = (
        "acc",
        "claims",
        "emperor",
        "extra",
        "favor",
        "mars",
        "mars_done",
        "means",
        "pairs",
        "pantheon",
        "patron",
        "refugium",
    )

    def __init__(self) -> None:
        self.emperor = 0.0  # expansion: prospect of an emperor tile (Basilica follower, Matrona tiles)
        self.patron = 0.0  # expansion: prospect of a patron tile
        self.refugium = False  # expansion: a follower on the Refugium this round
        self.means = 0.0  # expansion: officials held and to be chosen
        self.acc = [0.0, 0.0, 0.0, 0.0, 0.0]
        self.extra: list[int] = []  # cards the seat is about to hold (claimed fields, staged, contest)
        self.claims: list[tuple[int, bool]] = []  # (faction, contested) of its faction-field followers
        self.favor = 0.0  # best prospect of a favor from the board
        self.mars = 0  # Field of Mars followers whose pair is still to be chosen
        self.mars_done = 0  # Field of Mars followers whose choice is made (sealed: a pair or nothing)
        self.pairs = 0  # sealed Field of Mars pairs (hidden from the other seats, R2)
        self.pantheon = False


# -- public API -------------------------------------------------------------------


def evaluate(state: GameState, seat: int) -> float:
    """How good ``state`` is for ``seat``: a win-probability-like number in [0, 1].

    Reads other players' hands only through their sizes. A finished game gives
    1/k to each of k winners and 0 to the others.
    """
    return evaluate_all(state, viewer=seat)[seat]


def evaluate_game(game: Game, seat: int) -> float:
    """:func:`evaluate` of ``game``'s position for ``seat``, on either engine with the same result.

    On a native game the position is built from the seat's view (:func:`agents.view_position.seat_position`, no
    copy of every field), or, where the view cannot give it, read whole (:meth:`Game.position`).
    """
    core = game.native_core
    if core is not None:
        position = seat_position(core, seat)
        if position is not None:
            return evaluate(position, seat)
    return evaluate(game.position(), seat)


def evaluate_all(state: GameState, viewer: int | None = None) -> list[float]:
    """The value of ``state`` for every seat; the values sum to 1.

    With ``viewer=None`` each seat's potential uses its own hand (a full game,
    such as a determinization, in which every seat knows its hand); with a
    ``viewer`` only that seat's hand is read and the others' by their sizes.
    """
    if state.finished:
        winners = state.winners
        share = 1.0 / len(winners) if winners else 0.0
        return [share if s in winners else 0.0 for s in range(state.num_players)]
    phi = potentials(state, viewer)
    top = max(phi)
    exps = [math.exp(BETA * (x - top)) for x in phi]
    total = sum(exps)
    return [e / total for e in exps]


def potentials(state: GameState, viewer: int | None = None) -> list[float]:
    """The potential ``phi`` of every seat (see the module docstring); ``viewer`` as in :func:`evaluate_all`."""
    config = state.config
    prep = _prep(config.components, config.expansion)
    n = state.num_players
    seats = [_Seat() for _ in range(n)]
    _board_claims(state, prep, seats, viewer)
    values = prep.values
    targets = [(len(cards), sum(values[c] for c in cards)) for cards in state.sets]
    _officials(state, seats)  # none in a base game
    _brutii_claims(state, prep, seats)  # none without the Brutii
    card = _card_in_play(state)
    total = scores(state)
    out = []
    for s in range(n):
        work = seats[s]
        player = state.players[s]
        _control_flows(state, prep, s, player, work, targets)
        if viewer is None or viewer == s:
            _hand(state, prep, s, player, work, targets)
        else:
            _hand_estimate(state, s, player, work)
        out.append(_phi(state, s, player, work, card, total[s]))
    return out


# -- board claims -------------------------------------------------------------------


def _board_claims(state: GameState, prep: _Prep, seats: list[_Seat], viewer: int | None) -> None:
    """Followers on the board, sealed pairs, sacrifices, staged and contested cards.

    Staged cards join the prospective hand of their owner only where that hand
    is read (``viewer`` as in :func:`evaluate_all`); for the others the public
    hand size already counts them.
    """
    spaces = state.spaces
    for space, occupant in enumerate(spaces):
        if occupant >= 0:
            kind = prep.space_kind[space]
            if kind == _FACTION_SPACE:
                faction = prep.space_arg[space]
                first, second = prep.faction_spaces[faction]
                seats[occupant].claims.append((faction, spaces[first] >= 0 and spaces[second] >= 0))
            else:
                _REGION_CLAIMS[kind](state, prep, space, seats[occupant], occupant)
    for owner, _, _ in state.pairs:
        seats[owner].pairs += 1
    for s, done in enumerate(state.sacrificed):
        if done:
            seats[s].favor = max(seats[s].favor, 0.95)
    pending = state.pending
    if pending is None:
        return
    if state.staged and (viewer is None or viewer == pending.seat):
        seats[pending.seat].extra.extend(state.staged)
    if state.contest and pending.faction >= 0:
        second = spaces[prep.faction_spaces[pending.faction][1]]
        if second >= 0:
            seats[second].extra.extend(state.contest)


ClaimFn = Callable[[GameState, _Prep, int, _Seat, int], None]


def _paid_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    """Thermae, Forum (R10): the field's card at the printed cost."""
    field = state.fields[prep.space_kind[space]][prep.space_arg[space]]
    cost = prep.space_cost[space]
    if field and state.players[seat].money >= cost:
        work.extra.extend(field)
        work.acc[MONEY] -= cost


def _latrine_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    if state.fields[Region.LATRINE][0]:
        work.acc[MONEY] += LATRINE_MONEY


def _curia_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    """The field's cards for one card of the hand."""
    field = state.fields[Region.CURIA][prep.space_arg[space]]
    if field and state.players[seat].hand_size:
        work.extra.extend(field)
        work.acc[CARDS] -= 1.0


def _atrium_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    """Face-up cards join the hand of a lone bidder; otherwise each card is half a card."""
    slot = prep.space_arg[space]
    other = state.spaces[space + 1 if slot == 0 else space - 1]
    for i, field in enumerate(state.fields[Region.ATRIUM]):
        if not field:
            continue
        if other < 0 and state.atrium_up[i]:
            work.extra.extend(field)
        else:
            work.acc[CARDS] += 0.8 if other < 0 else 0.4


def _catacombs_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    cost = prep.space_cost[space]
    if state.fields[Region.CATACOMBS][0] and state.players[seat].money >= cost:
        work.acc[CARDS] += CATACOMBS_CARDS
        work.acc[MONEY] -= cost


def _pantheon_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    work.pantheon = True


def _mars_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    """Spaces are decided in slot order: those before the pending one are done."""
    pending = state.pending
    if (
        pending is not None
        and pending.kind == DecisionKind.FIELD_OF_MARS_PAIR
        and prep.space_arg[space] < pending.index
    ):
        work.mars_done += 1
    else:
        work.mars += 1


def _decided(state: GameState, kinds: frozenset[DecisionKind], slot: int) -> bool:
    """Whether the occupant of ``slot`` has already acted in the running evaluation of an expansion region."""
    pending = state.pending
    return pending is not None and pending.kind in kinds and slot < pending.index


_REFUGIUM_KINDS = frozenset({DecisionKind.REFUGIUM_OPTION, DecisionKind.REFUGIUM_PATRON, DecisionKind.REFUGIUM_PAIRS})


def _refugium_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    if not _decided(state, _REFUGIUM_KINDS, prep.space_arg[space]):
        work.refugium = True


def _basilica_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    """R34: the face-up tile (unless "1" before him meets it) or one of his Matrona tiles, if he meets it."""
    slot = prep.space_arg[space]
    if _decided(state, frozenset({DecisionKind.BASILICA_CLAIM}), slot):
        return
    tiles = []
    up = state.emperor_up
    if up >= 0:
        first = state.spaces[space - slot]
        if slot == 0 or first < 0 or first == seat or not _meets_tile(state, first, up):
            tiles.append(up)
    if state.officials[Official.MATRONA] == seat:
        tiles += state.matrona_tiles
    if any(_meets_tile(state, seat, t) for t in tiles):
        work.emperor = max(work.emperor, TILE_CLAIM)


def _capitoleum_claim(state: GameState, prep: _Prep, space: int, work: _Seat, seat: int) -> None:
    if not _decided(state, frozenset({DecisionKind.OFFICIAL_CHOICE}), prep.space_arg[space]):
        work.means += 0.5 * OFFICIAL_VALUE


_REGION_CLAIMS: dict[int, ClaimFn] = {
    Region.THERMAE: _paid_claim,
    Region.FORUM: _paid_claim,
    Region.LATRINE: _latrine_claim,
    Region.CURIA: _curia_claim,
    Region.ATRIUM: _atrium_claim,
    Region.CATACOMBS: _catacombs_claim,
    Region.PANTHEON: _pantheon_claim,
    Region.FIELD_OF_MARS: _mars_claim,
    Region.REFUGIUM: _refugium_claim,
    Region.BASILICA: _basilica_claim,
    Region.CAPITOLEUM: _capitoleum_claim,
}


# -- the Brutii's played action cards (R47, R48) ----------------------------------------------------------------


def _to_come(state: GameState, region: Region) -> bool:
    """Whether ``region`` is still to be evaluated this round, and not vetoed (R54)."""
    if state.veto == int(region):
        return False
    if state.phase is Phase.FOLLOWER_PLACEMENT:
        return True
    agenda = state.agenda
    return ("evaluate", int(region)) in agenda or ("end_region", int(region)) in agenda


def _brutii_claims(state: GameState, prep: _Prep, seats: list[_Seat]) -> None:
    """What the Brutii's played cards promise at their locations (see "The Brutii" in the module docstring)."""
    for card in state.brutii_played:
        claim = _BRUTII_CLAIMS.get(BrutiiCard(card))
        if claim is not None:
            claim(state, prep, seats[state.brutii])


def _free_fields(state: GameState, region: Region) -> list[list[int]]:
    """The card fields of ``region`` with cards and no follower on their space."""
    spaces = state.tables.region_spaces[region]
    return [f for i, f in enumerate(state.fields[region]) if f and state.spaces[spaces[i]] < 0]


def _occupants(state: GameState, region: Region) -> list[int]:
    return [state.spaces[s] for s in state.tables.region_spaces[region] if state.spaces[s] >= 0]


def _cards_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    """Cards: option 1 the free Forum and Curia fields' cards, option 2 the Curia discards and the Catacombs pile
    left (one card bought per occupant); the better one before he chooses."""
    first = [c for r in (Region.FORUM, Region.CURIA) if _to_come(state, r) for f in _free_fields(state, r) for c in f]
    second = 0
    if _to_come(state, Region.CURIA):
        spaces = state.tables.region_spaces[Region.CURIA]
        second += sum(1 for i, f in enumerate(state.fields[Region.CURIA]) if f and state.spaces[spaces[i]] >= 0)
    if _to_come(state, Region.CATACOMBS):
        pile = sum(len(f) for f in state.fields[Region.CATACOMBS])
        second += max(0, pile - len(_occupants(state, Region.CATACOMBS)))
    choice = state.brutii_options[CARDS_OPTION]
    if choice == 0 or (choice < 0 and len(first) >= second):
        work.extra.extend(first)
    else:
        work.acc[CARDS] += second


def _denarii_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    """Denarii: a denarius per follower on the coin bowl (paid at the end of phase 2) and the Latrine's card."""
    if state.phase is Phase.FOLLOWER_PLACEMENT:
        work.acc[MONEY] += len(state.coin_bowl)
    if _to_come(state, Region.LATRINE) and state.fields[Region.LATRINE][0]:
        work.acc[MONEY] += LATRINE_MONEY * (0.5 if _occupants(state, Region.LATRINE) else 1.0)


def _laurels_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    """Laurels: a pair per empty Field of Mars space (his hand decides how many he lays)."""
    if _to_come(state, Region.FIELD_OF_MARS):
        spaces = state.tables.region_spaces[Region.FIELD_OF_MARS]
        work.mars += sum(1 for s in spaces if state.spaces[s] < 0)


def _favor_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    """Eternal Favor: a Pantheon claim once another player stands there."""
    if _to_come(state, Region.PANTHEON) and _occupants(state, Region.PANTHEON):
        work.pantheon = True


def _patron_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    if _to_come(state, Region.REFUGIUM):
        work.refugium = True


def _emperor_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    """Favor of the Emperor: the face-up tile when no occupant meets it and he does (or a Matrona tile he meets)."""
    if not _to_come(state, Region.BASILICA):
        return
    seat = state.brutii
    tiles = list(state.matrona_tiles) if state.officials[Official.MATRONA] == seat else []
    up = state.emperor_up
    if up >= 0 and not any(_meets_tile(state, s, up) for s in _occupants(state, Region.BASILICA)):
        tiles.append(up)
    if any(_meets_tile(state, seat, t) for t in tiles):
        work.emperor = max(work.emperor, TILE_CLAIM)


def _official_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    if _to_come(state, Region.CAPITOLEUM):
        work.means += 0.5 * OFFICIAL_VALUE


def _takeover_claim(state: GameState, prep: _Prep, work: _Seat) -> None:
    """Faction Take-Over (R48): a claim on each faction its option lets him attempt (either option before he
    chooses); option 2 is contested by the follower on "1"."""
    if state.phase not in (Phase.FOLLOWER_PLACEMENT, Phase.REGION_EVALUATION):
        return
    seat, choice = state.brutii, state.brutii_options[TAKEOVER_OPTION]
    for f, (first, second) in enumerate(prep.faction_spaces):
        if state.controller[f] == seat or state.chariot == f or state.spaces[second] >= 0:
            continue
        alone = state.spaces[first] < 0
        if choice < 0 or choice == (0 if alone else 1):
            work.claims.append((f, not alone))


_BRUTII_CLAIMS: dict[BrutiiCard, Callable[[GameState, _Prep, _Seat], None]] = {
    BrutiiCard.CARDS: _cards_claim,
    BrutiiCard.DENARII: _denarii_claim,
    BrutiiCard.LAURELS: _laurels_claim,
    BrutiiCard.ETERNAL_FAVOR: _favor_claim,
    BrutiiCard.PATRON: _patron_claim,
    BrutiiCard.FAVOR_OF_THE_EMPEROR: _emperor_claim,
    BrutiiCard.OFFICIAL: _official_claim,
    BrutiiCard.FACTION_TAKEOVER: _takeover_claim,
}


# -- control and hand -----------------------------------------------------------------


def security(count: int, total: int) -> float:
    """How likely a displayed set of ``count`` cards summing to ``total`` survives the next take-overs."""
    return min(0.95, max(0.3, 0.25 + 0.2 * (count - 2) + 0.03 * total))


def _add_flow(
    state: GameState, prep: _Prep, faction: int, player: PlayerState, weight: float, acc: list[float]
) -> None:
    """Add ``weight`` rounds of the benefit of ``faction`` to ``acc``."""
    for i, x in prep.flow[faction][player.tile != NO_TILE]:
        acc[i] += weight * x
    if faction == Faction.GLADIATORS:
        acc[MONEY] += 0.5 * min(state.colosseum, 12) * weight


def _control_flows(
    state: GameState, prep: _Prep, seat: int, player: PlayerState, work: _Seat, targets: list[tuple[int, int]]
) -> None:
    for faction, holder in enumerate(state.controller):
        if holder == seat:
            sigma = 1.0 if state.chariot == faction else security(*targets[faction])
            _add_flow(state, prep, faction, player, HORIZON * sigma, work.acc)


def _hand(
    state: GameState, prep: _Prep, seat: int, player: PlayerState, work: _Seat, targets: list[tuple[int, int]]
) -> None:
    """Take-overs the seat's own (prospective) hand makes possible; Field of Mars and Pantheon claims."""
    counts = [0] * len(targets)
    sums = [0] * len(targets)
    faction_of, values = prep.faction_of, prep.values
    hand = player.hand
    for c in compress(range(len(hand)), hand):  # the card types held
        k = hand[c]
        f = faction_of[c]
        if f < 0:  # a slave or an assassin (R30): see _expansion_hand
            continue
        counts[f] += k
        sums[f] += k * values[c]
    extra = work.extra
    for c in extra:
        f = faction_of[c]
        if f < 0:
            continue
        counts[f] += 1
        sums[f] += values[c]
    work.acc[CARDS] += player.hand_size + len(extra)
    if prep.slaves:
        targets = _expansion_hand(state, prep, seat, player, work, targets)
    controller = state.controller
    for f, c in enumerate(counts):
        if c and controller[f] != seat:
            r = _readiness(c, sums[f], targets[f], controller[f] >= 0)
            if r:
                leader = hand[prep.leader[f]] > 0 or prep.leader[f] in extra
                _takeover(state, prep, f, player, leader, r * _rho(work, f), security(c, sums[f]), work)
    work.acc[LAURELS] += work.pairs
    if work.mars:
        work.acc[LAURELS] += min(work.mars, sum(c // 2 for c in counts))
    if work.pantheon:
        field = state.fields[Region.PANTHEON][0]
        if field:
            work.favor = max(work.favor, 0.9 if counts[faction_of[field[0]]] else 0.05)


def _readiness(count: int, total: int, target: tuple[int, int], controlled: bool) -> float:
    """1 when the cards take the faction now, ONE_SHORT when one more card likely would, else 0."""
    target_cnt, target_sum = target if controlled else (1, -1)
    if count >= 2 and (count > target_cnt or total > target_sum):
        return 1.0
    if count + 1 > target_cnt or total + 5 > target_sum:
        return ONE_SHORT
    return 0.0


def _rho(work: _Seat, faction: int) -> float:
    """Chance to play a set on ``faction``: higher with a follower on its field this round."""
    for f, contested in work.claims:
        if f == faction:
            return RHO_CONTESTED if contested else RHO_CLAIM
    return RHO_HAND


def _takeover(
    state: GameState,
    prep: _Prep,
    faction: int,
    player: PlayerState,
    leader: bool,
    weight: float,
    sigma: float,
    work: _Seat,
) -> None:
    """Add ``weight`` times the gains of taking ``faction`` (R17) and of holding it for a while."""
    acc = work.acc
    for i, x in prep.gain[faction][leader]:
        acc[i] += weight * x
    if state.first_laurel[faction]:
        acc[LAURELS] += weight * prep.first_laurels
    if not player.markers[faction]:
        acc[MARKERS] += weight
    if leader and faction == Faction.VESTALS:
        work.favor = max(work.favor, 0.8 * weight)
    _add_flow(state, prep, faction, player, weight * HORIZON * sigma, acc)


def _expansion_hand(
    state: GameState, prep: _Prep, seat: int, player: PlayerState, work: _Seat, targets: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Slaves towards a patron set or Refugium pairs (R33); the targets as the assassins in hand leave them (R31)."""
    hand = player.hand
    nationality = prep.slaves
    slaves = [c for c in range(len(hand)) if nationality[c] >= 0 for _ in range(hand[c])]
    slaves += [c for c in work.extra if nationality[c] >= 0]
    spec = state.config.components.expansion
    assert spec is not None  # an expansion game
    if slaves:
        refugium = spec.region(ExpansionRegion.REFUGIUM)
        if player.patrons < spec.patrons_per_player and sum(p.patrons for p in state.players) < spec.patron_supply:
            gap = _patron_gap(refugium.numbers, [nationality[c] for c in slaves])
            if gap == 0 and sum(sorted(prep.values[c] for c in slaves)[:2]) <= player.money:
                work.patron = max(work.patron, PATRON_CLAIM if work.refugium else PATRON_HAND)
            elif gap <= 1:
                work.patron = max(work.patron, PATRON_SHORT)
        weight = PATRON_CLAIM if work.refugium else PAIR_HAND
        for n, reward in refugium.pairs.items():
            pairs = sum(1 for c in slaves if nationality[c] == n) // 2
            if pairs:
                work.acc[LAURELS] += weight * pairs * reward.laurels
                work.acc[LEGIONS] += weight * pairs * reward.legions
    assassins = hand[prep.assassin] + work.extra.count(prep.assassin)
    if not assassins:
        return targets
    out = []
    protected = spec.assassins.protected
    for cards in state.sets:
        left = sorted(prep.values[c] for c in cards)
        del left[len(left) - min(assassins, max(0, len(left) - protected)) :]
        out.append((len(left), sum(left)))
    return out


def _patron_gap(numbers: dict[str, int], nationalities: list[int]) -> int:
    """Slaves missing for a patron set (R33: ``patron_slaves``, or ``patron_slaves_with_nubian`` with a Nubian)."""
    need = numbers["patron_slaves"]
    if Nationality.NUBIAN in nationalities:
        need = min(need, numbers["patron_slaves_with_nubian"])
    return max(0, need - len(nationalities))


def _meets(state: GameState, seat: int, requirement: Requirement) -> bool:
    """R34: one requirement of an emperor tile, from public holdings."""
    player = state.players[seat]
    if requirement is Requirement.FAVOR:
        return player.eternal_favor or player.temporary_favor
    if requirement is Requirement.SCROLL:
        return player.tile != NO_TILE
    if requirement is Requirement.PATRON:
        return player.patrons > 0
    spec = state.config.components.expansion
    assert spec is not None
    if requirement is Requirement.PAY:
        return player.money >= spec.emperor_pay
    amount = _AMOUNT[requirement]
    mine = amount(player)
    return mine >= 1 and all(amount(p) <= mine for p in state.players)


_AMOUNT: dict[Requirement, Callable[[PlayerState], int]] = {
    Requirement.MOST_MARKERS: lambda p: p.num_markers,
    Requirement.MOST_LAURELS: lambda p: p.laurels,
    Requirement.MOST_LEGIONS: lambda p: p.legions,
    Requirement.MOST_DENARII: lambda p: p.money,
}


@cache
def _tile_requirements(components: Components) -> dict[int, tuple[Requirement, ...]]:
    spec = components.expansion
    return {t.id: tuple(t.requires) for t in spec.emperor_tiles} if spec is not None else {}


def _meets_tile(state: GameState, seat: int, tile: int) -> bool:
    return all(_meets(state, seat, r) for r in _tile_requirements(state.config.components)[tile])


def _officials(state: GameState, seats: list[_Seat]) -> None:
    """Officials held (R36-R40): means for each, the Quaestor's and Augur's phase-8 income, the Matrona's tiles;
    nothing in a base game, which has no officials."""
    spec = state.config.components.expansion
    n = state.num_players
    for official, holder in enumerate(state.officials):
        if holder < 0:
            continue
        assert spec is not None  # officials come with the expansion's tables
        work = seats[holder]
        work.means += OFFICIAL_VALUE
        if official == Official.QUAESTOR:
            work.acc[MONEY] += 0.5 * (
                (n - 1) * spec.quaestor_payment(n - 1) + spec.official(Official.QUAESTOR).numbers["stock"]
            )
        elif official == Official.AUGUR:
            numbers = spec.official(Official.AUGUR).numbers
            work.acc[CARDS] += numbers["draws"] - numbers["discards"]
        elif official == Official.MATRONA and any(_meets_tile(state, holder, t) for t in state.matrona_tiles):
            work.emperor = max(work.emperor, MATRONA_TILE)


def _hand_estimate(state: GameState, seat: int, player: PlayerState, work: _Seat) -> None:
    """An opponent's hand by its public size only: the take-overs a hand of that size allows on average."""
    size = public_hand_size(state, seat)
    if not player.patrons:  # read by an expansion card's patron objective only
        work.patron = max(work.patron, OPPONENT_PATRON_PER_CARD * min(size, 10) + (0.3 if work.refugium else 0.0))
    ready = RHO_HAND * OPPONENT_READY_PER_CARD * min(size, 10)
    acc = work.acc
    acc[CARDS] += size + len(work.extra)
    markers = player.markers
    acc[MARKERS] += ready * (len(markers) - sum(markers)) / len(markers)
    acc[LAURELS] += ready * 1.5
    claims = len(work.claims)
    if claims:
        acc[MARKERS] += 0.3 * claims
        acc[LAURELS] += 0.5 * claims
    mars = work.mars + work.mars_done
    if mars:
        acc[LAURELS] += 0.5 * mars
    if work.pantheon:
        work.favor = max(work.favor, 0.4)


# -- objectives -------------------------------------------------------------------------


def _progress(actual: int, extra: float, threshold: int) -> float:
    if actual >= threshold:
        return 1.0 + ABOVE_SLOPE * min(1.0, (actual - threshold) / threshold)
    return max(0.0, min(UNMET_CAP, (actual + extra) / threshold))


def _tile(state: GameState, seat: int, player: PlayerState) -> float:
    """1 for the tribune; a scroll is half-way, more with a faction pair whose benefit turns it (R19)."""
    if player.tile == TRIBUNE:
        return 1.0
    c = state.controller
    if player.tile == SCROLL:
        plebeians, patricians = c[Faction.PLEBEIANS] == seat, c[Faction.PATRICIANS] == seat
        vestals, senators = c[Faction.VESTALS] == seat, c[Faction.SENATORS] == seat
        if (plebeians and patricians) or (vestals and senators):
            return 0.85
        if state.officials and state.officials[Official.TRIBUNUS_PLEBIS] == seat and c.count(seat) >= 2:
            return 0.85  # R38: the Tribunus Plebis turns it at the next phase 5
        return 0.6 if plebeians or patricians or vestals or senators else 0.5
    return 0.25 if c[Faction.LEGATES] == seat or c[Faction.SENATORS] == seat else 0.0


def _favor(player: PlayerState, work: _Seat) -> float:
    if player.eternal_favor:
        return 1.0
    base = 0.8 if player.temporary_favor else 0.15 if player.markers[Faction.VESTALS] else 0.0
    return max(base, work.favor)


def _phi(state: GameState, seat: int, player: PlayerState, work: _Seat, card: _Card | None, score: int) -> float:
    acc = work.acc
    means = CARD_VALUE * min(acc[CARDS], CARD_CAP) + MONEY_VALUE * min(player.money + acc[MONEY], MONEY_CAP)
    means += work.means  # officials: none in a base game
    bonus = SCORE_WEIGHT * score / SCORE_SCALE + means
    if card is None:  # point-value variant: markers end the game, the score decides
        need = state.config.point_variant_markers
        return _progress(player.num_markers, acc[MARKERS], need) + 2.0 * bonus
    progress = card.progress(state, seat, player, work)
    met = sum(x >= 1.0 for x in progress)
    total = 0.0
    for o in card.obligatory:
        total += progress[o]
        if progress[o] < 1.0:
            met = -1  # an unmet obligatory objective: not fulfilled
    rest = sorted([progress[o] for o in card.free], reverse=True)
    free = card.required - len(card.obligatory)
    total += sum(rest[:free])
    if free < len(rest):
        total += NEXT_WEIGHT * rest[free] + REST_WEIGHT * sum(rest[free + 1 :])
    return total / card.required + (FULFIL_BONUS if met >= card.required else 0.0) + bonus
