"""Expansion phase 6: the expansion board, regions IX Refugium, X Basilica, XI Capitoleum (R33, R34, R36).

(Skeleton: the records are registered; their rules are filled in by the expansion work.)
"""

from __future__ import annotations

from tribune_env.data import Region
from tribune_env.engine.actions import Action
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.registry import DecisionRule, RegionRule, decision, region_rule
from tribune_env.engine.state import GameState


def _todo_legal(state: GameState, pending: Pending) -> list[Action]:
    raise NotImplementedError(pending.kind.name)


def _todo_resolve(state: GameState, pending: Pending, action: Action) -> None:
    raise NotImplementedError(pending.kind.name)


for _region in (Region.REFUGIUM, Region.BASILICA, Region.CAPITOLEUM):
    region_rule(RegionRule(_region, lambda state: [], lambda state, seat: [], visible=lambda state, seat, i: False))

for _kind in (
    DecisionKind.REFUGIUM_OPTION,
    DecisionKind.REFUGIUM_PATRON,
    DecisionKind.REFUGIUM_PAIRS,
    DecisionKind.BASILICA_CLAIM,
    DecisionKind.OFFICIAL_CHOICE,
):
    decision(DecisionRule(_kind, _todo_legal, _todo_resolve, "", expansion=True))
