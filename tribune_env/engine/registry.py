"""The records that say what each agenda step, decision kind and board region *is*.

Every rule of the engine that depends on the kind of a decision or on a region
lives in one record here, registered by the phase module that implements it:

- :class:`StepRule`: an agenda step (its function, the bounds of its arguments,
  and the check that it fits a loaded position);
- :class:`DecisionRule`: a decision kind (legal choices, resolution, the check
  that a loaded pending decision fits the position, and its words);
- :class:`RegionRule`: a board region (evaluation steps, card-field fill rule,
  visibility, placement rule, what a placement triggers, clean-up, checks).

Nothing outside these records dispatches on a decision kind or a region.
:func:`check_complete` (run when :mod:`tribune_env.engine.flow` is imported)
asserts that every enum member has its record, so a kind or region added
without its rules fails at import instead of misbehaving in play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from tribune_env.data import Components, Region
from tribune_env.engine.actions import Action
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.state import GameState, Task

StepFn = Callable[..., None]
LegalFn = Callable[[GameState, Pending], list[Action]]
ResolveFn = Callable[[GameState, Pending, Any], None]
CheckFn = Callable[[GameState, Pending], str]
StepCheckFn = Callable[..., str]
OptionsFn = Callable[[Components, int], tuple[str, ...] | None]


def _no_problem(*_: Any) -> str:
    return ""


# --- agenda steps --------------------------------------------------------------------------


@dataclass(frozen=True)
class StepRule:
    """One agenda step.

    Attributes:
        name: the name in the agenda (the function name without a leading underscore).
        run: ``run(state, *args)``.
        slot_region: the region whose follower-space slot an argument named ``slot`` indexes.
        check: ``check(state, *args)``: why the step cannot run in a loaded position ('' when it can).
        expansion: only an expansion game runs the step.
    """

    name: str
    run: StepFn
    slot_region: Region | None = None
    check: StepCheckFn = _no_problem
    expansion: bool = False


STEPS: dict[str, StepRule] = {}


F = TypeVar("F", bound=StepFn)


@overload
def step(fn: F) -> F: ...


@overload
def step(
    *, slot_region: Region | None = None, check: StepCheckFn = _no_problem, expansion: bool = False
) -> Callable[[F], F]: ...


def step(
    fn: F | None = None,
    *,
    slot_region: Region | None = None,
    check: StepCheckFn = _no_problem,
    expansion: bool = False,
) -> F | Callable[[F], F]:
    """Register an agenda step under its function name; usable bare (``@step``) or with options."""

    def register(f: F) -> F:
        name = f.__name__.lstrip("_")
        if name in STEPS:
            raise RuntimeError(f"agenda step {name!r} registered twice")
        STEPS[name] = StepRule(name, f, slot_region, check, expansion)
        return f

    return register(fn) if fn is not None else register


# --- decision kinds ------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionRule:
    """Everything about one decision kind.

    Attributes:
        kind: the decision kind.
        legal: ``legal(state, pending)``: every legal choice, in a fixed order.
        resolve: ``resolve(state, pending, action)``: apply a legal choice.
        check: ``check(state, pending)``: why a pending decision read from a document does not fit the
            position ('' when it does); the legal list is checked to be non-empty afterwards.
        flow: ``flow(state, pending)``: why it does not fit the round's flow (its phase, whose turn it is),
            checked after ``check``.
        prompt: what the decision asks, in plain words.
        card_verb: what choosing a card does here ("discard", "buy", ...), '' for "choose".
        commit_words: what ``Commit`` means here ('' where it is not offered).
        decline_words: what ``Decline`` means here ('' where it is not offered).
        options: ``options(components, faction)``: the names of ``ChooseOption`` 0, 1, ... or ``None``.
        bid: the choice is a sealed bid in denarii (R2).
        stages: cards are staged one by one before the choice is committed (``state.staged``).
        always_asked: shown to the player even with a single legal choice (it carries information).
        expansion: only an expansion game has this decision kind.
    """

    kind: DecisionKind
    legal: LegalFn
    resolve: ResolveFn
    prompt: str
    check: CheckFn = _no_problem
    flow: CheckFn = _no_problem
    card_verb: str = ""
    commit_words: str = ""
    decline_words: str = ""
    options: OptionsFn | None = None
    bid: bool = False
    stages: bool = False
    always_asked: bool = False
    expansion: bool = False


def in_phase(*phases: Phase, then: CheckFn = _no_problem) -> CheckFn:
    """The check of a decision asked only in ``phases``, followed by its context check ``then``."""
    names = [p.name.lower() for p in phases]

    def check(state: GameState, pending: Pending) -> str:
        if state.phase not in phases:
            return f"pending.kind: a {pending.kind.key} decision is asked in phase {' or '.join(names)}, not here"
        return then(state, pending)

    return check


def agenda_has(state: GameState, *task: int | str) -> bool:
    """Whether ``task`` (a step name and its arguments) is still to run."""
    return tuple(task) in state.agenda


DECISIONS: dict[DecisionKind, DecisionRule] = {}
LEGAL: dict[DecisionKind, LegalFn] = {}
RESOLVE: dict[DecisionKind, ResolveFn] = {}


def decision(rule: DecisionRule) -> DecisionRule:
    """Register the record of a decision kind (once per kind)."""
    if rule.kind in DECISIONS:
        raise RuntimeError(f"decision kind {rule.kind.name} registered twice")
    DECISIONS[rule.kind] = rule
    LEGAL[rule.kind] = rule.legal
    RESOLVE[rule.kind] = rule.resolve
    return rule


def is_bid(kind: DecisionKind) -> bool:
    """Whether decisions of ``kind`` are sealed bids in denarii."""
    return DECISIONS[kind].bid


def option_labels(components: Components, kind: DecisionKind, faction: int) -> tuple[str, ...] | None:
    """Names of the options of a ``ChooseOption`` decision, with the amounts of the component set."""
    options = DECISIONS[kind].options
    return None if options is None else options(components, faction)


# --- regions -------------------------------------------------------------------------------


def _always(*_: Any) -> bool:
    return True


def _nothing(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class RegionRule:
    """Everything about one board region.

    Attributes:
        region: the region.
        evaluate: ``evaluate(state)``: the steps that evaluate the region (it may also act at once); the
            engine appends the common clean-up step after them.
        needs_card: ``needs_card(state, field)``: whether a card field takes another card in phase 1.
        visible: ``visible(state, seat, field_index)``: whether ``seat`` may see that field's cards now (R1).
        free_spaces: ``free_spaces(state, seat)``: the region's follower spaces ``seat`` may take now.
        placed: ``placed(state, seat, slot)``: what placing a follower on a space of the region sets off.
        cleared: ``cleared(state)``: region-specific clean-up after its evaluation (followers already home).
        check: ``check(state)``: why the followers on the region break a placement rule ('' when they do not).
        face_up: the region's cards are face up for everybody all the time (R1).
    """

    region: Region
    evaluate: Callable[[GameState], list[Task]]
    free_spaces: Callable[[GameState, int], list[int]]
    needs_card: Callable[[GameState, list[int]], bool] = field(default=lambda state, f: not f)
    visible: Callable[[GameState, int, int], bool] = _always
    placed: Callable[[GameState, int, int], None] = _nothing
    cleared: Callable[[GameState], None] = _nothing
    check: Callable[[GameState], str] = _no_problem
    face_up: bool = False


REGIONS: dict[Region, RegionRule] = {}


def region_rule(rule: RegionRule) -> RegionRule:
    """Register the record of a region (once per region)."""
    if rule.region in REGIONS:
        raise RuntimeError(f"region {rule.region.name} registered twice")
    REGIONS[rule.region] = rule
    return rule


def check_complete() -> None:
    """Every decision kind and every region has its record (run once the phase modules are imported)."""
    missing = [k.name for k in DecisionKind if k not in DECISIONS]
    missing += [r.name for r in Region if r not in REGIONS]
    if missing:
        raise RuntimeError(f"engine records missing for: {', '.join(missing)}")
