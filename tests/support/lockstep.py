"""Lockstep runs: one seeded game stepped on the Python engine and the native core side by side.

At every decision the two must agree on the pending decision, the legal choices (in order), every field of the
state and the log; a random legal choice (from a seeded generator) is then applied to both. The first difference
raises :class:`Divergence` naming the game, the step, the decision and the first differing field.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tribune_env.engine import native
from tribune_env.engine.config import GameConfig
from tribune_env.engine.flow import advance, apply_action, legal_actions
from tribune_env.engine.setup import new_state
from tribune_env.engine.state import GameState


class Divergence(AssertionError):
    """The two engines differ."""


@dataclass
class Totals:
    games: int = 0
    decisions: int = 0


def _first_difference(a: Any, b: Any, path: str) -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}: only in {'python' if key in a else 'native'}"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} (python) != {len(b)} (native); python {str(a)[:300]} native {str(b)[:300]}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if a != b or (type(a) is not type(b) and not (isinstance(a, int) and isinstance(b, int))):
        return f"{path}: python {a!r:.300} != native {b!r:.300}"
    return None


def compare(state: GameState, core: Any, where: str, events: bool = True) -> None:
    """Raise :class:`Divergence` at the first field where ``state`` and ``core`` differ."""
    mine = native.fields_of(state, events=False)
    theirs = core.fields()
    found = _first_difference(mine, theirs, "state")
    if found is None and events:
        found = _first_difference([tuple(e) for e in state.events], [tuple(e) for e in core.events()], "events")
    if found:
        raise Divergence(f"{where}: {found}")


def run_game(
    config: GameConfig, seed: int, choice_seed: int, events: bool = True, every: int = 1, legal_every: int = 1
) -> int:
    """Play one game in lockstep from its deal (:func:`run_from`); returns its number of decisions."""
    state = new_state(config, seed)
    advance(state)
    where = f"game {config.rules.value} players={config.players} seed={seed} choices={choice_seed}"
    return run_from(
        state, native.new_core(config, seed), choice_seed, where, every=every, legal_every=legal_every, events=events
    )


def run_many(
    config: GameConfig, games: int, first_seed: int = 0, events: bool = True, every: int = 1, legal_every: int = 1
) -> Totals:
    totals = Totals()
    for g in range(games):
        totals.decisions += run_game(config, first_seed + g, 10_000 + first_seed + g, events, every, legal_every)
        totals.games += 1
    return totals


def run_from(
    state: GameState,
    core: Any,
    choice_seed: int,
    where: str,
    steps: int = 10**9,
    every: int = 10,
    legal_every: int = 1,
    events: bool = True,
) -> int:
    """Continue a game from ``state`` (Python) and ``core`` (native) in lockstep for ``steps`` decisions or to its
    end; returns the decisions played. ``every``: compare the full state every N decisions and at the end;
    ``legal_every``: compare the legal lists every N decisions (their lengths, the pending decision and the chosen
    action at every one)."""
    rng = random.Random(choice_seed)
    decisions = 0
    while decisions < steps:
        at = f"{where} decision {decisions}"
        if decisions % every == 0 or state.pending is None:
            compare(state, core, at, events)
        if state.pending is None:
            return decisions
        at += f" ({state.pending.kind.key}, seat {state.pending.seat})"
        legal = legal_actions(state)
        theirs = core.legal()
        pending = state.pending
        if (int(pending.kind), pending.seat, pending.faction, pending.index) != core.pending():
            raise Divergence(f"{at}: pending differs: python {pending} native {core.pending()}")
        if len(legal) != len(theirs) or decisions % legal_every == 0:
            mine = [native.action_tuple(a) for a in legal]
            if mine != [tuple(a) for a in theirs]:
                raise Divergence(f"{at}: legal choices differ: python {mine} native {theirs}")
        k = rng.randrange(len(legal))
        chosen = native.action_tuple(legal[k])
        if chosen != tuple(theirs[k]):
            raise Divergence(f"{at}: choice {k} differs: python {chosen} native {theirs[k]}")
        apply_action(state, legal[k])
        if not core.apply(*chosen):
            raise Divergence(f"{at}: the native core refused {chosen}")
        decisions += 1
    compare(state, core, f"{where} decision {decisions}", events)
    return decisions
