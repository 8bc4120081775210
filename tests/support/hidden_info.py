"""Re-dealing what a seat may not know (R1, R2; R35, R39 with the expansion), for the leak tests of views and
observations in every layer.

- :func:`hidden_slots` / :func:`expansion_hidden_slots`: the card lists whose identities a seat may not know,
  written from the rules (not from ``view.py``); :func:`redeal` shuffles them with the other hands and sealed pairs.
- :func:`hide_and_redeal` / :func:`redeal_everything_hidden`: a state the seat cannot tell from the given one.
- :func:`assert_no_leak`: the seat's observation is byte-identical after such a re-deal; :func:`leaky_encoder` makes
  an encoder that leaks, the control that shows the comparison is sensitive.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import numpy as np

from tribune_env import DecisionKind, Game, Region, default_components
from tribune_env.codec import ObservationEncoder, Space, encoder_for
from tribune_env.data import Official
from tribune_env.engine.config import DEFAULT_ROUND_LIMIT
from tribune_env.engine.state import GameState
from tribune_env.engine.view import player_view

Hidden = Callable[[GameState, int], list[list[int]]]
Hide = Callable[[GameState, int, random.Random], GameState]


def face_down_fields(state: GameState, seat: int) -> list[list[int]]:
    """Board fields whose cards ``seat`` may not see, by R1 (written from the rules, not from view.py)."""
    pending = state.pending
    kind = pending.kind if pending is not None else None
    mine = pending is not None and pending.seat == seat
    fields = state.fields
    hidden = [f for i, f in enumerate(fields[Region.ATRIUM]) if not state.atrium_up[i]]
    if kind is not DecisionKind.LATRINE_CHOICE:
        hidden += fields[Region.LATRINE]
    if not (kind is DecisionKind.CATACOMBS_PURCHASE and mine):
        hidden += fields[Region.CATACOMBS]
    if not (state.players[seat].pantheon_seen or kind is DecisionKind.PANTHEON_SACRIFICE):
        hidden += fields[Region.PANTHEON]
    return hidden


def hidden_slots(state: GameState, seat: int) -> list[list[int]]:
    """Every list of cards whose identities ``seat`` may not know (lists of the clone, edited in place)."""
    slots: list[list[int]] = [state.draw, state.discard, *face_down_fields(state, seat)]
    pending = state.pending
    if state.staged and (pending is None or pending.seat != seat):
        slots.append(state.staged)
    return slots


def expansion_hidden_slots(state: GameState, seat: int) -> list[list[int]]:
    """Every list of cards whose identities ``seat`` may not know, by the rules: the base ones (:func:`hidden_slots`)
    and the Augur's drawn cards unless ``seat`` is the Augur (R39). Others' staged slaves and assassins are in
    ``staged``."""
    slots = hidden_slots(state, seat)
    if state.augur_cards and state.officials[Official.AUGUR] != seat:
        slots.append(state.augur_cards)
    return slots


def redeal(state: GameState, seat: int, rng: random.Random, hidden: Hidden = hidden_slots) -> GameState:
    """A copy of ``state`` whose hidden cards (for ``seat``) are shuffled among the hidden places: other hands,
    other players' sealed pairs and the card lists ``hidden(copy, seat)`` (by default the base game's)."""
    other = state.clone()
    slots = hidden(other, seat)
    hands = {s: [c for c, n in enumerate(p.hand) for _ in range(n)] for s, p in enumerate(other.players) if s != seat}
    pairs = [(i, [a, b]) for i, (s, a, b) in enumerate(other.pairs) if s != seat]
    pool = [c for slot in slots for c in slot]
    pool += [c for hand in hands.values() for c in hand]
    pool += [c for _, pair in pairs for c in pair]
    rng.shuffle(pool)
    for slot in slots:
        slot[:] = [pool.pop() for _ in slot]
    for s, hand in hands.items():
        counts = [0] * len(other.players[s].hand)
        for _ in hand:
            counts[pool.pop()] += 1
        other.players[s].hand = counts
    for i, _ in pairs:
        owner = other.pairs[i][0]
        other.pairs[i] = (owner, pool.pop(), pool.pop())
    assert not pool
    return other


def hide_and_redeal(state: GameState, seat: int, rng: random.Random, hidden: Hidden = hidden_slots) -> GameState:
    """A state ``seat`` cannot tell from ``state``: hidden cards re-dealt (R1; ``hidden`` names the hidden card lists
    besides hands and pairs), others' sealed bids (R2), the chance key and others' private log lines changed."""
    other = redeal(state, seat, rng, hidden)
    for s, amount in enumerate(other.bids):
        if s != seat and amount >= 0:
            other.bids[s] = rng.randint(0, other.players[s].money)
    other.chance = rng.randrange(2**62)
    other.events = [e for e in other.events if e.private_to in (-1, seat)]  # others' private log lines
    other.legal_cache = None  # the cached choices of another seat would reflect its (old) hand
    return other


def redeal_everything_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state ``seat`` cannot tell from ``state``: what :func:`hide_and_redeal` changes, with the Augur's draws and
    others' staged slaves and assassins among the re-dealt cards, and the emperor pile reordered (R35)."""
    other = hide_and_redeal(state, seat, rng, expansion_hidden_slots)
    rng.shuffle(other.emperor_pile)
    return other


def differing_pieces(a: np.ndarray, b: np.ndarray, encoder: ObservationEncoder | None = None) -> list[str]:
    """The names of the observation pieces in which ``a`` and ``b`` differ (``encoder``: the base game's)."""
    pieces = (encoder or encoder_for(default_components())).pieces
    return [p.name for p in pieces if not np.array_equal(a[p.start : p.stop], b[p.start : p.stop])]


def assert_no_leak(
    encoder: ObservationEncoder,
    state: GameState,
    seat: int,
    rng: random.Random,
    tries: int = 2,
    hide: Hide = hide_and_redeal,
) -> None:
    """R1/R2: re-dealing what ``seat`` cannot know (``hide``) leaves its observation byte-identical."""
    base = encoder.encode(state, seat)
    view = player_view(state, seat)
    for _ in range(tries):
        other = hide(state, seat, rng)
        assert other.card_counts() == state.card_counts()
        assert player_view(other, seat) == view, "the re-deal must be consistent with the observer's view"
        obs = encoder.encode(other, seat)
        assert obs.tobytes() == base.tobytes(), (
            f"P{seat}'s observation depends on hidden information at {state.pending}: "
            f"pieces {differing_pieces(base, obs, encoder)} changed"
        )


def leaky_encoder(leak: Callable[[np.ndarray, GameState, int], None]) -> ObservationEncoder:
    """An expansion-space encoder of the packaged components that calls ``leak(obs, state, seat)`` on every
    observation it makes (the leak tests must catch it)."""
    encoder = ObservationEncoder(default_components(), DEFAULT_ROUND_LIMIT, Space.EXPANSION)
    plain = encoder.encode

    def encode(state: GameState, seat: int) -> np.ndarray:
        obs = plain(state, seat)
        leak(obs, state, seat)
        return obs

    encoder.encode = encode  # type: ignore[method-assign]
    return encoder


def walk_checking_leaks(
    game: Game,
    play: random.Random,
    special: Callable[[GameState], set[str]],
    common: set[str],
    every: int,
    check: Callable[[GameState], None],
) -> Counter[str]:
    """Play ``game`` to its end with ``play``'s random choices, calling ``check(state)`` at every ``every``-th
    decision and wherever ``special(state)`` holds a situation not in ``common`` (the rare hidden information);
    returns how often each special situation was met at the checked decisions."""
    seen: Counter[str] = Counter()
    step = 0
    while not game.is_over:
        situations = special(game.position())
        if situations - common or step % every == 0:
            seen.update(situations)
            check(game.position())
        game.apply(play.choice(game.legal_actions()))
        step += 1
    return seen
