"""Which agendas the engine can produce: the check that closes the family of "a document's agenda the engine never
writes" (issue 36, S2 and S3).

The agenda is a stack. At the bottom lies the rest of the round skeleton (:func:`~.rounds.round_tasks`); every step
that runs is popped and may push the steps it asks for on top (directly, or through a decision it asks). So an
agenda read in the order it runs is a run of *frames* above the skeleton's rest, each frame pushed by a step of the
frame below it (or by the skeleton step just before the rest), deeper and deeper towards the top.

:data:`PUSHES` says which steps each step may push (keyed by region for ``evaluate``, whose steps differ per region);
:func:`agenda_problem` parses a loaded agenda against it and refuses what no game can reach:

* the bottom is a suffix of the round's skeleton (or, between rounds and at the set-up, ``round_start`` alone);
* every step above it descends, frame by frame, from the skeleton step that was running (so ``round_start`` in a
  region's frame, a ``placement`` in the set-up, a ``brutii_lay`` anywhere but above its ``brutii_slave``'s
  decision are refused);
* a take-over's or an evaluation's steps are of its faction or region;
* the steps of :data:`ONCE` never stand twice in one agenda with the same arguments.

``tests/engine/test_agenda_shape.py`` re-derives the table from played games and checks it holds every push seen.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from tribune_env.data import Region
from tribune_env.engine.decisions import DecisionKind, Phase
from tribune_env.engine.registry import STEPS
from tribune_env.engine.rounds import ROUND_END, round_tasks
from tribune_env.engine.state import GameState, Task

NEW_GAME = "new_game"
"""The parent of the set-up's steps (:func:`~.setup.new_state` pushes them)."""

ROUND_START: Task = ("round_start",)

_REGION_ALWAYS = frozenset({"end_region", "brutii_at"})

PUSHES: dict[str, frozenset[str]] = {
    NEW_GAME: frozenset({"setup_discard", "setup_finish"}),
    "atrium": frozenset({"atrium_bid", "atrium_resolve"}),
    "attempt": frozenset({"attempt", "first_laurel", "leader", "marker", "takeover_benefit", "takeover_penalty"}),
    "augur_draw": frozenset({"cesura", "augur_draw"}),
    "benefit": frozenset({"assassin", "draw", "legion_offer"}),
    "brutii_at": frozenset({"brutii_mars"}),
    "brutii_card": frozenset({"brutii_legion", "brutii_slaves", "mass_murder"}),
    "brutii_mars": frozenset({"brutii_mars"}),
    "brutii_pass": frozenset({"place_next"}),
    "brutii_slave": frozenset({"brutii_lay"}),
    "brutii_slaves": frozenset({"brutii_slave"}),
    "cesura": frozenset({"cesura_discard"}),
    "cesura_discard": frozenset({"cesura_discard"}),
    "chariot": frozenset({"chariot_bid", "chariot_resolve"}),
    "draw": frozenset({"cesura", "draw"}),
    "fill_board": frozenset({"cesura", "fill_board"}),
    "leader": frozenset({"draw"}),
    "place_next": frozenset({"brutii_card", "brutii_pass", "brutii_proconsul", "place_next"}),
    "placement": frozenset({"place_next"}),
    "preparation": frozenset({"augur_draw", "augur_keep", "brutii_reset", "quaestor"}),
    "takeover": frozenset({"attempt", "end_takeover"}),
    "takeover_benefit": frozenset({"assassin", "draw"}),
    # evaluate, per region (RegionRule.evaluate, then end_region; with the Brutii, brutii_at, R47)
    "evaluate:atrium": frozenset({"atrium"}) | _REGION_ALWAYS,
    "evaluate:basilica": frozenset({"basilica_space"}) | _REGION_ALWAYS,
    "evaluate:capitoleum": frozenset({"capitoleum_space"}) | _REGION_ALWAYS,
    "evaluate:catacombs": frozenset({"catacombs_space"}) | _REGION_ALWAYS,
    "evaluate:curia": frozenset({"curia_field"}) | _REGION_ALWAYS,
    "evaluate:field_of_mars": frozenset({"mars_reveal", "mars_space"}) | _REGION_ALWAYS,
    "evaluate:forum": _REGION_ALWAYS,
    "evaluate:latrine": frozenset({"latrine"}) | _REGION_ALWAYS,
    "evaluate:pantheon": frozenset({"pantheon_favor", "pantheon_reveal", "pantheon_space"}) | _REGION_ALWAYS,
    "evaluate:refugium": frozenset({"refugium_space"}) | _REGION_ALWAYS,
    "evaluate:thermae": _REGION_ALWAYS,
}
"""The steps each step may push, by running or through the decision it asks (``round_start`` pushes the round
skeleton and ``round_end`` pushes ``round_start``: both are the skeleton's, checked apart)."""

ONCE = frozenset(
    {
        "atrium_bid", "atrium_resolve", "basilica_space", "brutii_at", "brutii_lay", "brutii_pass",
        "brutii_proconsul", "brutii_reset", "capitoleum_space", "catacombs_space", "cesura", "cesura_discard",
        "chariot_bid", "chariot_resolve", "curia_field", "end_region", "end_takeover", "first_laurel", "leader",
        "marker", "mars_reveal", "mars_space", "pantheon_favor", "pantheon_reveal", "pantheon_space", "place_next",
        "quaestor", "refugium_space", "setup_finish", "takeover_benefit", "augur_keep", "brutii_card",
        "brutii_slaves", "brutii_legion", "mass_murder", "latrine", "atrium", "takeover_penalty",
    }
)  # fmt: skip
"""Steps that no agenda holds twice with the same arguments (a frame pushes each once; frames of one parent never
stand together)."""

_BOUND = {"takeover": "faction", "evaluate": "region"}
"""Skeleton steps whose frames belong to one faction or region: a step above with that argument has its value."""

_TOP_ONLY = {"brutii_lay": DecisionKind.BRUTII_SLAVES}
"""Steps pushed together with a decision they wait for: they stand on top of the agenda while it is pending."""


def key(task: Task) -> str:
    """The name under which :data:`PUSHES` lists what ``task`` pushes."""
    if task[0] == "evaluate":
        return f"evaluate:{Region(task[1:][0]).key}"
    return task[0]


def _params(name: str) -> list[str]:
    """The argument names of step ``name``."""
    return list(inspect.signature(STEPS[name].run).parameters)[1:]


def _descendants(parents: set[str]) -> set[str]:
    """``parents`` and every step that one of them may push, and so on down."""
    out = set(parents)
    todo = list(parents)
    while todo:
        for child in PUSHES.get(todo.pop(), ()):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def agenda_problem(state: GameState) -> str:
    """Why no game reaches this agenda ('' when one can): its frames, parsed against :data:`PUSHES`."""
    agenda = list(reversed(state.agenda))  # in the order the steps run
    full = round_tasks(state)
    skeleton = set(full) | {ROUND_START}
    at = len(agenda)
    while at > 0 and agenda[at - 1] in skeleton:
        at -= 1
    above, rest = agenda[:at], agenda[at:]
    parent, problem = _bottom(state, above, rest, full)
    checks: tuple[Callable[[], str], ...] = (
        lambda: problem,
        lambda: _frames_problem(above, parent),
        lambda: _once_problem(agenda),
        lambda: _slaves_problem(state, agenda),
        lambda: _top_problem(state, agenda),
    )
    for check in checks:
        found = check()
        if found:
            return found
    return ""


def _bottom(state: GameState, above: list[Task], rest: list[Task], full: list[Task]) -> tuple[str, str]:
    """The step whose frame lies on the skeleton's ``rest`` (the one that ran last of the skeleton), and why the
    bottom is impossible ('' when it is not)."""
    if rest == [ROUND_START]:
        return (NEW_GAME if state.phase is Phase.SETUP else ROUND_END[0]), ""
    if state.phase is Phase.SETUP:
        return "", "a game in its set-up has the set-up's steps and then round_start only"
    if not rest or rest != full[len(full) - len(rest) :]:
        return "", f"the round's steps at its bottom, {[list(t) for t in rest]}, are not the end of a round"
    if len(rest) == len(full):
        return "", ""  # nothing of the round has run: nothing stands above it
    pred = full[len(full) - len(rest) - 1]
    param = _BOUND.get(pred[0])
    if param is not None:  # a take-over's or an evaluation's frames are of its faction or region
        for task in above:
            params = _params(task[0])
            if param in params and task[1:][params.index(param)] != pred[1:][0]:
                return "", f"{list(task)} stands in the frame of {list(pred)}"
    return key(pred), ""


def _once_problem(agenda: list[Task]) -> str:
    seen: set[Task] = set()
    for task in agenda:
        if task[0] in ONCE and task in seen:
            return f"{list(task)} stands twice"
        seen.add(task)
    return ""


def _top_problem(state: GameState, agenda: list[Task]) -> str:
    for i, task in enumerate(agenda):
        kind = _TOP_ONLY.get(task[0])
        if kind is not None and (i != 0 or state.pending is None or state.pending.kind is not kind):
            return f"{list(task)} stands only on top of the agenda, while its {kind.key} decision is pending"
    return ""


def _slaves_problem(state: GameState, agenda: list[Task]) -> str:
    """R52: each slave the Brutii is still to take (``brutii_slave``) or is taking (``brutii_lay``) lies on its field,
    one card for each such step (:func:`~.brutii.brutii_slaves` queues one per card; the lay removes it)."""
    wanted: dict[tuple[int, int, int], int] = {}
    for task in agenda:
        if task[0] in ("brutii_slave", "brutii_lay"):
            region, i, slave = (int(a) for a in task[1:])
            wanted[region, i, slave] = wanted.get((region, i, slave), 0) + 1
    for (region, i, slave), n in wanted.items():
        fields = state.fields[region]
        there = fields[i].count(slave) if 0 <= i < len(fields) else 0
        if n > there:
            where = f"{Region(region).key} field {i + 1}"
            return f"{n} step(s) take the slave card {slave} from {where}, which holds {there}"
    return ""


def _frames_problem(above: list[Task], parent: str) -> str:
    """Whether the steps above the skeleton (in running order) nest in frames pushed from ``parent`` downwards."""
    possible = {parent}
    for task in reversed(above):  # from the bottom frame up: each frame lies on the one that pushed it
        reach = _descendants(possible)
        possible = {p for p in reach if task[0] in PUSHES.get(p, ())}
        if not possible:
            return f"{list(task)}: no step still running at this point of the round pushes it"
    return ""
