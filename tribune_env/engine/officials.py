"""Expansion officials and phase 8: Princeps (R37), Tribunus Plebis (R38), Augur (R39), Quaestor (R40), Matrona and
the emperor tile pile (R35).

(Skeleton: the records and steps are registered; their rules are filled in by the expansion work.)
"""

from __future__ import annotations

from tribune_env.engine.actions import Action
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.registry import DecisionRule, decision, step
from tribune_env.engine.state import GameState


def _todo_legal(state: GameState, pending: Pending) -> list[Action]:
    raise NotImplementedError(pending.kind.name)


def _todo_resolve(state: GameState, pending: Pending, action: Action) -> None:
    raise NotImplementedError(pending.kind.name)


@step
def tribunus_plebis(state: GameState) -> None:
    """R38: at the start of phase 5 the holder may name two controlled factions for a tribune."""


@step
def benefits_end(state: GameState) -> None:
    """The end of phase 5: the factions named for the Tribunus Plebis give benefits again."""
    state.benefit_blocked = [False] * len(state.benefit_blocked)


@step
def preparation(state: GameState) -> None:
    """Expansion phase 8 (R40 order): emperor tiles (R35), Augur (R39), Quaestor (R40)."""


for _kind in (DecisionKind.TRIBUNUS_PLEBIS, DecisionKind.AUGUR_DISCARD):
    decision(DecisionRule(_kind, _todo_legal, _todo_resolve, "", expansion=True))
