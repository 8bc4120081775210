"""Sampling a full game state consistent with one player's information (for search agents).

:func:`resample` is the engine's "information-set sampler": it keeps everything
``seat`` may know (its :class:`~tribune_env.engine.view.PlayerView`) and deals
everything else afresh from a generator: the cards of other hands, the draw and
discard piles, face-down board cards, other players' sealed bids, and the
chance key of future shuffles. Other players' sealed Field of Mars pairs go
back into their hands (whether they laid one is hidden until the reveal), so
samples never show a laid pair of another player. The cards another player is
staging for his pending decision (a take-over set, a pair, slaves) are dealt
first, each from the cards that decision may stage, so that every sample is a
position of the game whatever seat it is dealt for (issue 41, N6).
In an expansion game the Augur's drawn cards (when ``seat`` is not the Augur)
are dealt like the other hidden cards, and the emperor pile is put in a fresh
order (R35: its order is hidden from everyone, R39).
With the Brutii (R45) his hand is private like any hand (the cards he took from
the Catacombs are in it), and his sealed chariot choice is dealt again among a
bid and the opt-out (R49). His face-down discs need nothing: their order is not
stored, the next one is drawn by the chance key, which every sample draws afresh.
The result depends only on the view and the generator, never on where the
hidden cards really are, so a search over sampled states cannot learn more than
the player knows (R1, R2).
"""

from __future__ import annotations

import random

from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.state import OPTED_OUT, GameState
from tribune_env.engine.tables import CardKind
from tribune_env.engine.view import AUGUR, field_visible


def _hidden_fields(state: GameState, seat: int) -> list[list[int]]:
    """Board fields whose cards ``seat`` may not see now (lists of ``state``, edited in place)."""
    return [
        field
        for region in state.tables.regions
        for i, field in enumerate(state.fields[region])
        if field and not field_visible(state, seat, region, i)
    ]


def resample(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` with everything hidden from ``seat`` dealt again from ``rng``.

    Card counts per location, everything in ``seat``'s view and the pending
    decision are kept. The event log of the copy is emptied (it may hold
    private lines of other players).
    """
    other = state.clone(events=False)
    pending = other.pending
    slots: list[list[int]] = [other.draw, other.discard, *_hidden_fields(other, seat)]
    staged = len(other.staged) if pending is not None and pending.seat != seat else 0  # hidden staged cards
    if other.augur_cards and other.officials[AUGUR] != seat:
        slots.append(other.augur_cards)  # R39: private to the Augur
    hands = [s for s in range(other.num_players) if s != seat]
    pool = [c for slot in slots for c in slot] + (other.staged if staged else [])
    sizes = {s: other.players[s].hand_size for s in hands}
    for s in hands:
        pool.extend(c for c, n in enumerate(other.players[s].hand) for _ in range(n))
    # Whether another player laid a sealed pair is hidden until the reveal (R2): its cards go back to that
    # hand, so every sample reads as "no pair laid" whatever was chosen.
    for owner, a, b in other.pairs:
        if owner != seat:
            pool.extend((a, b))
            sizes[owner] += 2
    other.pairs = [pair for pair in other.pairs if pair[0] == seat]
    pool.sort()  # forget where the cards were: the deal depends on the view and ``rng`` only
    rng.shuffle(pool)
    if staged:
        assert pending is not None  # staged counts only another player's pending decision
        other.staged = _deal_staged(other, pending, pool, staged)
    for slot in slots:
        slot[:] = [pool.pop() for _ in slot]
    for s in hands:
        player = other.players[s]
        hand = [0] * len(player.hand)
        for _ in range(sizes[s]):
            hand[pool.pop()] += 1
        player.hand = hand
    for s in hands:
        if other.bids[s] != -1:  # a sealed choice was made (public); what it is, is not (R2, R49)
            other.bids[s] = _sealed_choice(other, s, rng)
    if other.emperor_pile:  # R35: the pile's order is known to nobody
        other.emperor_pile.sort()
        rng.shuffle(other.emperor_pile)
    other.chance = rng.getrandbits(63)
    other.legal_cache = None
    return other


def _deal_staged(state: GameState, pending: Pending, pool: list[int], count: int) -> list[int]:
    """Another player's ``count`` staged cards, dealt first from the shuffled ``pool`` (taken out of it) so that
    his pending decision keeps its constraints (issue 41, N6): each is the last card of the pool that the decision
    may stage next (:func:`_fits`); for the Brutii's Slave Cards the lowest card of the pool, so that the cards
    left to him can always finish the lay (R52). The pool always holds such cards: the real staged cards are in
    it. Returned in the decision's staging order (ascending; a take-over set's assassins last, R31)."""
    picks: list[int] = []
    for _ in range(count):
        if pending.kind is DecisionKind.BRUTII_SLAVES:
            at = pool.index(min(pool))
        else:
            fitting = (i for i in range(len(pool) - 1, -1, -1) if _fits(state, pending, pool[i], picks))
            at = next(fitting, -1)
            if at < 0:  # never in a position of the game (its real staged cards are in the pool)
                raise RuntimeError("resample: no card fits the pending decision's staged cards")
        picks.append(pool.pop(at))
    assassin = state.tables.assassin_card
    return sorted(c for c in picks if c != assassin) + [c for c in picks if c == assassin]


def _fits(state: GameState, pending: Pending, card: int, picks: list[int]) -> bool:
    """Whether ``card`` may be staged after ``picks`` in ``pending``: a take-over set holds the attacked faction's
    cards and as many assassins as its target allows (R31); a Field of Mars pair, cards of one faction (R14); the
    Refugium, slaves (of a nationality with a pair reward for pairs, E48)."""
    from tribune_env.engine.expansion_board import pairable_nationalities
    from tribune_env.engine.takeovers import assassin_room, takeover_target

    tables, kind = state.tables, pending.kind
    if kind is DecisionKind.TAKEOVER_SET:
        if card == tables.assassin_card:
            return picks.count(card) < assassin_room(state, takeover_target(state, pending.faction, pending.index))
        return tables.card_faction[card] == pending.faction
    if kind is DecisionKind.FIELD_OF_MARS_PAIR:
        faction = tables.card_faction[card]
        return faction >= 0 and (not picks or tables.card_faction[picks[0]] == faction)
    if kind in (DecisionKind.REFUGIUM_PATRON, DecisionKind.REFUGIUM_PAIRS):
        slave = tables.card_kind[card] is CardKind.SLAVE
        patron = kind is DecisionKind.REFUGIUM_PATRON
        return slave and (patron or tables.card_nationality[card] in pairable_nationalities(state))
    return True


def _sealed_choice(state: GameState, seat: int, rng: random.Random) -> int:
    """A sealed bid for ``seat``; the Brutii's chariot choice may also be the opt-out (R49)."""
    money = state.players[seat].money
    if seat != state.brutii or ("chariot_resolve",) not in state.agenda:  # he opts out of the chariot only
        return rng.randint(0, money)
    choice = rng.randint(-1, money)
    return OPTED_OUT if choice < 0 else choice
