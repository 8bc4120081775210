"""Sampling a full game state consistent with one player's information (for search agents).

:func:`resample` is the engine's "information-set sampler": it keeps everything
``seat`` may know (its :class:`~tribune_env.engine.view.PlayerView`) and deals
everything else afresh from a generator: the cards of other hands, the draw and
discard piles, face-down board cards, other players' sealed Field of Mars pairs
and staged cards, other players' sealed bids, and the chance key of future
shuffles. The result depends only on the view and the generator, never on where
the hidden cards really are, so a search over sampled states cannot learn more
than the player knows (R1, R2).
"""

from __future__ import annotations

import random

from tribune_env.data import Region
from tribune_env.engine.state import GameState
from tribune_env.engine.view import field_visible


def _hidden_fields(state: GameState, seat: int) -> list[list[int]]:
    """Board fields whose cards ``seat`` may not see now (lists of ``state``, edited in place)."""
    return [
        field
        for region in Region
        for i, field in enumerate(state.fields[region])
        if field and not field_visible(state, seat, region, i)
    ]


def resample(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` with everything hidden from ``seat`` dealt again from ``rng``.

    Card counts per location, everything in ``seat``'s view and the pending
    decision are kept. The event log of the copy is emptied (it may hold
    private lines of other players).
    """
    other = state.clone()
    other.events = []
    pending = other.pending
    slots: list[list[int]] = [other.draw, other.discard, *_hidden_fields(other, seat)]
    if other.staged and (pending is None or pending.seat != seat):
        slots.append(other.staged)
    hands = [s for s in range(other.num_players) if s != seat]
    pool = [c for slot in slots for c in slot]
    for s in hands:
        pool.extend(c for c, n in enumerate(other.players[s].hand) for _ in range(n))
    sealed = [i for i, (owner, _, _) in enumerate(other.pairs) if owner != seat]
    for i in sealed:
        pool.extend(other.pairs[i][1:])
    pool.sort()  # forget where the cards were: the deal depends on the view and ``rng`` only
    rng.shuffle(pool)
    for slot in slots:
        slot[:] = [pool.pop() for _ in slot]
    for s in hands:
        player = other.players[s]
        size = player.hand_size
        hand = [0] * len(player.hand)
        for _ in range(size):
            hand[pool.pop()] += 1
        player.hand = hand
    for i in sealed:
        other.pairs[i] = (other.pairs[i][0], pool.pop(), pool.pop())
    for s in hands:
        if other.bids[s] >= 0:
            other.bids[s] = rng.randint(0, other.players[s].money)
    other.chance = rng.getrandbits(63)
    other.legal_cache = None
    return other
