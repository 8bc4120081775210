"""Dispatch tables: agenda steps by name, decision kinds to their legal-choice and resolve functions.

Phase modules register into these tables; :mod:`tribune_env.engine.flow` runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribune_env.engine.actions import Action
from tribune_env.engine.decisions import DecisionKind, Pending
from tribune_env.engine.state import GameState

StepFn = Callable[..., None]
LegalFn = Callable[[GameState, Pending], list[Action]]
ResolveFn = Callable[[GameState, Pending, Any], None]

STEPS: dict[str, StepFn] = {}
LEGAL: dict[DecisionKind, LegalFn] = {}
RESOLVE: dict[DecisionKind, ResolveFn] = {}


def step(fn: StepFn) -> StepFn:
    """Register an agenda step under its function name (without a leading underscore)."""
    STEPS[fn.__name__.lstrip("_")] = fn
    return fn


def legal(kind: DecisionKind) -> Callable[[LegalFn], LegalFn]:
    def register(fn: LegalFn) -> LegalFn:
        LEGAL[kind] = fn
        return fn

    return register


def resolve(kind: DecisionKind) -> Callable[[ResolveFn], ResolveFn]:
    def register(fn: ResolveFn) -> ResolveFn:
        RESOLVE[kind] = fn
        return fn

    return register
