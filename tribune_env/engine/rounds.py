"""The round skeleton, written once: the phases of a round and the agenda steps that open each.

:func:`round_tasks` gives the agenda of a whole round (``round_start``) or of the
rest of a round from the start of a given phase (a position read without its
agenda).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tribune_env.data import BrutiiCard, Faction
from tribune_env.engine.decisions import Phase
from tribune_env.engine.state import GameState, Task

TaskFn = Callable[[GameState], list[Task]]


@dataclass(frozen=True)
class PhaseSteps:
    """The steps of one phase. ``resume``: the steps that continue a position saved at the phase's start
    (after anything the phase hands out at its start has been handed out); ``None`` means ``start``."""

    phase: Phase
    start: TaskFn
    resume: TaskFn | None = None


ROUND: tuple[PhaseSteps, ...] = (
    PhaseSteps(Phase.CARD_PLACEMENT, lambda state: [("fill_board", 0)]),
    PhaseSteps(Phase.FOLLOWER_PLACEMENT, lambda state: [("placement",)], lambda state: [("place_next",)]),
    PhaseSteps(Phase.REGION_EVALUATION, lambda state: [("evaluate", int(r)) for r in state.tables.regions]),
    PhaseSteps(Phase.TAKEOVERS, lambda state: [("takeover", int(f)) for f in Faction]),
    PhaseSteps(Phase.FACTION_BENEFITS, lambda state: [("benefit", int(f)) for f in Faction]),
    PhaseSteps(Phase.CHARIOT_AUCTION, lambda state: [("chariot",)]),
)
"""The phases of a round, in order."""

def _brutii(state: GameState, *tasks: Task) -> list[Task]:
    """``tasks`` in a game with the Brutii, else none."""
    return list(tasks) if state.brutii >= 0 else []


EXPANSION_ROUND: tuple[PhaseSteps, ...] = (
    ROUND[0],
    PhaseSteps(
        Phase.FOLLOWER_PLACEMENT,
        lambda state: [("placement",), *_brutii(state, ("brutii_bowl",))],
        lambda state: [("place_next",), *_brutii(state, ("brutii_bowl",))],
    ),
    PhaseSteps(
        Phase.REGION_EVALUATION,
        lambda state: [
            *_brutii(state, ("brutii_option", int(BrutiiCard.CARDS))),
            *[("evaluate", int(r)) for r in state.tables.regions if not r.expansion],
        ],
    ),
    PhaseSteps(
        Phase.TAKEOVERS,
        lambda state: [
            *_brutii(state, ("brutii_option", int(BrutiiCard.FACTION_TAKEOVER))),
            *[("takeover", int(f)) for f in Faction],
        ],
    ),
    PhaseSteps(
        Phase.FACTION_BENEFITS,
        lambda state: [("tribunus_plebis",), *[("benefit", int(f)) for f in Faction], ("benefits_end",)],
    ),
    PhaseSteps(
        Phase.EXPANSION_EVALUATION, lambda state: [("evaluate", int(r)) for r in state.tables.regions if r.expansion]
    ),
    ROUND[5],
    PhaseSteps(Phase.PREPARATION, lambda state: [("preparation",)]),
)
"""The eight phases of an expansion round (E20): phase 6 evaluates the expansion board, phase 8 prepares the next
round (R35, R39, R40); the Tribunus Plebis acts at the start of phase 5 (R38). With the Brutii, phase 2 ends with his
coin-bowl money (R47) and phases 3 and 4 open with his options (R46)."""

ROUND_END: Task = ("round_end",)


def round_phases(state: GameState) -> tuple[PhaseSteps, ...]:
    """The phases of a round of this game."""
    return EXPANSION_ROUND if state.config.expansion else ROUND


def round_tasks(state: GameState, resume_from: Phase | None = None) -> list[Task]:
    """The agenda of a round: all of it, or the rest of it from the start of phase ``resume_from``.

    Raises:
        ValueError: ``resume_from`` is not a phase of a round.
    """
    phases = round_phases(state)
    if resume_from is None:
        return [task for p in phases for task in p.start(state)] + [ROUND_END]
    at = next((i for i, p in enumerate(phases) if p.phase is resume_from), None)
    if at is None:
        raise ValueError(f"{resume_from.name.lower()} is not a phase of a round")
    first = phases[at]
    tasks = (first.resume or first.start)(state)
    for p in phases[at + 1 :]:
        tasks.extend(p.start(state))
    return [*tasks, ROUND_END]
