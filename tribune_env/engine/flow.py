"""Running the game: advance through automatic steps to the next decision, apply a choice.

``advance`` pops agenda steps until a step asks a player for a decision. With
``auto_forced`` a decision with exactly one legal choice is applied at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from tribune_env.engine import rules  # noqa: F401  (registers and checks every record)
from tribune_env.engine.actions import Action
from tribune_env.engine.errors import GameOverError, IllegalActionError
from tribune_env.engine.registry import DECISIONS, LEGAL, RESOLVE, STEPS
from tribune_env.engine.scoring import end_step
from tribune_env.engine.state import GameState


def legal_actions(state: GameState) -> list[Action]:
    """The complete list of legal choices for the pending decision (empty once the game is over)."""
    return list(_choices(state))


def _choices(state: GameState) -> list[Action]:
    """Legal choices of the pending decision, computed once per decision (the state changes only by steps)."""
    pending = state.pending
    if pending is None:
        return []
    cache = state.legal_cache
    if cache is not None and cache[0] is pending:
        return cache[1]
    choices = LEGAL[pending.kind](state, pending)
    state.legal_cache = (pending, choices)
    return choices


def advance(state: GameState) -> None:
    """Run automatic steps until a decision is pending or the game is over."""
    agenda = state.agenda
    while True:
        pending = state.pending
        if pending is not None:
            if not state.config.auto_forced:
                return
            choices = _choices(state)
            if len(choices) != 1 or DECISIONS[pending.kind].always_asked:
                if not choices:
                    raise RuntimeError(f"no legal choice at {pending}")  # an engine bug, never a user error
                return
            _resolve(state, choices[0])
            continue
        if not agenda:
            return
        task = agenda.pop()
        STEPS[task[0]].run(state, *task[1:])
        end_step(state)
        agenda = state.agenda


def _resolve(state: GameState, action: Action) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    RESOLVE[pending.kind](state, pending, action)
    end_step(state)


def apply_action(state: GameState, action: object, describe: Callable[[object], str] = repr) -> None:
    """Apply a legal choice and advance to the next decision.

    Raises:
        GameOverError: the game has ended.
        IllegalActionError: ``action`` is not legal now; ``state`` is unchanged.
    """
    pending = state.pending
    if pending is None:
        raise GameOverError("the game is over: no decision is pending")
    choices = _choices(state)
    listed = listed_choice(action, choices)
    if listed is None:
        raise IllegalActionError(action, illegal_reason(state, action, choices), choices, describe)
    _resolve(state, listed)  # the engine's own instance: the caller's object is never used past this check
    advance(state)


def listed_choice(action: object, choices: list[Action]) -> Action | None:
    """The instance in ``choices`` that ``action`` stands for, or ``None``: the same object (legal lists hold shared
    instances), else one of exactly the same type whose fields equal by their engine type's own ``==``.

    Never by the ``==`` of ``action`` or of its fields: an object of the caller's making (``unittest.mock.ANY``, a
    subclass of an action type or of ``int``) may say that it equals anything.
    """
    for choice in choices:
        if choice is action:
            return choice
    for choice in choices:
        if _same_action(action, choice):
            return choice
    return None


def _same_action(action: object, choice: Action) -> bool:
    if type(action) is not type(choice):
        return False
    for item in fields(choice):
        mine, theirs = getattr(action, item.name), getattr(choice, item.name)
        kind = type(theirs)  # an engine value (int): compare with its type's ==, whatever ``mine`` overrides
        equal: Any = kind.__eq__  # unbound: the engine type's own comparison
        if not issubclass(type(mine), kind) or equal(mine, theirs) is not True:
            return False
    return True


def illegal_reason(state: GameState, action: object, choices: list[Action]) -> str:
    """Why ``action`` is not among ``choices`` (the message of :class:`IllegalActionError`)."""
    pending = state.pending
    assert pending is not None
    where = f"player {pending.seat} is to make a {pending.kind.key} decision"
    if not any(type(action) is type(c) for c in choices):
        return f"{type(action).__name__} is not a kind of choice here ({where})"
    return f"not allowed now ({where})"
