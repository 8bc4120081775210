"""Inputs that must never kill the native core (issue 41), run in a child process where a signal is a failure.

Three families of cases, each a plain JSON value so that a child process can run it:

* ``staged``: a real position whose pending decision gets one card type staged (swapped with the last staged
  card, or added), card conservation kept; loaded with ``Game.from_json`` on the native core and played on.
* ``state``: a real position read into a :class:`GameState`, one field given a wrong shape or value
  (:data:`MUTATIONS`), then ``Game.from_state`` on each engine: both must refuse it with
  :class:`InvalidStateError`, or both accept it and play on.
* ``fields``: the same mutations on the plain values given to the native core's ``Core.from_fields``.

:func:`run_cases` runs cases in a child process (``TRIBUNE_ENGINE=native``); a child killed by a signal names the
case it was running, and the rest run in a new child. A case's outcome is ``refused``, ``played`` or a failure:
``error: ...`` (an exception other than InvalidStateError), ``differs: ...`` (the engines disagree) or
``signal N``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CONFIGS: dict[str, dict[str, Any]] = {
    "base-4": {"players": 4},
    "base-2": {"players": 2},
    "expansion-3": {"players": 3, "expansion": True},
    "brutii-5": {"players": 5, "expansion": True, "brutii": True},
    "brutii-6": {"players": 6, "expansion": True, "brutii": True},
}
PLAY_STEPS = 12  # decisions played after a position is accepted
TESTS = Path(__file__).resolve().parent.parent


# --- positions --------------------------------------------------------------------------------------------------


def positions(per_kind: int, seeds: range = range(3)) -> list[dict[str, Any]]:
    """Documents of real positions: up to ``per_kind`` per (rule set, pending decision kind), from random games of
    every rule set of :data:`CONFIGS` (one per seed), in a fixed order."""
    from tribune_env.engine.game import Game

    docs: list[dict[str, Any]] = []
    for name, options in CONFIGS.items():
        seen: dict[str, int] = {}
        for seed in seeds:
            game = Game.new(seed=seed, **options)
            rng = random.Random(seed)
            while not game.is_over:
                pending = game.pending
                assert pending is not None
                key = pending.kind.key
                if seen.get(key, 0) < per_kind and (game.position().staged or rng.random() < 0.2):
                    seen[key] = seen.get(key, 0) + 1
                    docs.append({"rules": name, "doc": game.to_json()})
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
    return docs


# --- staged cards -------------------------------------------------------------------------------------------------


def staged_cases(docs: list[dict[str, Any]], limit: int, seed: int = 0) -> list[dict[str, Any]]:
    """Every card type staged into every position of ``docs`` (swapped with the last staged card, or added), in a
    random order from ``seed``, at most ``limit``."""
    cases = []
    for i, entry in enumerate(docs):
        doc = entry["doc"]
        labels = sorted({label for label in _all_labels(doc)})
        for label in labels:
            for how in ("swap", "add") if doc["staged"] else ("add",):
                cases.append({"family": "staged", "position": i, "card": label, "how": how})
    random.Random(seed).shuffle(cases)
    return cases[:limit]


def _all_labels(doc: dict[str, Any]) -> Iterator[str]:
    yield from doc["draw_pile"]
    yield from doc["discard_pile"]
    for player in doc["players"]:
        yield from player["hand"]


def stage(doc: dict[str, Any], label: str, how: str) -> dict[str, Any]:
    """``doc`` with ``label`` staged: taken from the draw pile, the discard pile or a hand (the first that holds
    it), and, for ``swap``, the last staged card put where it was."""
    doc = json.loads(json.dumps(doc))
    piles = [doc["draw_pile"], doc["discard_pile"], *[p["hand"] for p in doc["players"]]]
    pile = next(p for p in piles if label in p)
    at = pile.index(label)
    if how == "swap":
        pile[at] = doc["staged"][-1]
        doc["staged"][-1] = label
    else:
        del pile[at]
        doc["staged"].append(label)
    return doc


# --- wrong shapes -------------------------------------------------------------------------------------------------

HUGE = 10**9
MUTATIONS = {
    "list": ["empty", "drop_last", "add_copy", "elem_huge", "elem_neg", "elem_2_31", "elem_none", "to_none", "to_int"],
    "nested": ["inner_empty", "inner_add_huge", "inner_drop"],
    "int": ["huge", "neg", "2_31", "2_63", "none", "float", "str"],
    "bool": ["int2", "none"],
    "str": ["surrogate", "int"],
    "pending": ["seat_9", "seat_neg", "kind_99", "faction_99", "faction_neg", "index_2_40", "to_tuple"],
    "agenda": ["unknown_step", "arg_huge", "arg_neg", "drop_args", "extra_arg"],
    "events": ["surrogate_text", "round_2_31", "short_event"],
    "tuple": ["empty", "to_none", "elem_huge"],
}
SKIP = {"config", "tables", "legal_cache", "touched"}


def value_kind(name: str, value: Any) -> str | None:
    """Which mutations of :data:`MUTATIONS` fit a field of this name and value."""
    if name in ("pending", "agenda", "events"):
        return name
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, tuple):
        return "tuple"
    if isinstance(value, list):
        return "nested" if value and isinstance(value[0], list) else "list"
    return None


def shape_cases(docs: list[dict[str, Any]], limit: int, seed: int = 0, family: str = "state") -> list[dict[str, Any]]:
    """Every mutation of every field (and of every player field of one seat) of every position, in a random order
    from ``seed``, at most ``limit``; ``family`` is ``state`` (``Game.from_state``) or ``fields``
    (``Core.from_fields``)."""
    from tribune_env.engine.serialize import state_from_json
    from tribune_env.engine.state import FIELDS, PlayerState

    cases = []
    for i, entry in enumerate(docs):
        state = state_from_json(entry["doc"])
        targets: list[tuple[str, str, Any]] = [("state", f.name, getattr(state, f.name)) for f in FIELDS]
        seat = i % state.num_players
        targets += [("player", name, getattr(state.players[seat], name)) for name in PlayerState.__slots__]
        for target, name, value in targets:
            if name in SKIP:
                continue
            kind = value_kind(name, value)
            hows = MUTATIONS.get(kind or "", [])
            if kind == "nested":
                hows = hows + MUTATIONS["list"]
            if name == "players":
                hows = ["empty", "drop_last", "add_copy", "to_none"]
            for how in hows:
                cases.append(
                    {"family": family, "position": i, "target": target, "seat": seat, "field": name, "how": how}
                )
    random.Random(seed).shuffle(cases)
    return cases[:limit]


def mutate_value(value: Any, how: str) -> Any:  # noqa: C901 - one table of small cases
    """``value`` changed as ``how`` says (a copy; :data:`MUTATIONS`)."""
    value = json.loads(json.dumps(value)) if isinstance(value, (list, tuple)) and not _has_objects(value) else value
    scalars = {"huge": HUGE, "neg": -9, "2_31": 2**31, "2_63": 2**63, "none": None, "float": 1.5, "str": "x"}
    if how in scalars:
        return scalars[how]
    if how == "int2":
        return 2
    if how == "surrogate":
        return "\ud800"
    if how == "int":
        return 7
    if how == "to_none":
        return None
    if how == "to_int":
        return 3
    if isinstance(value, list):
        items = list(value)
        if how == "empty":
            return []
        if how == "drop_last":
            return items[:-1]
        if how == "add_copy":
            return [*items, items[-1] if items else 0]
        if how.startswith("elem_"):
            new = {"elem_huge": HUGE, "elem_neg": -5, "elem_2_31": 2**31, "elem_none": None}[how]
            return [new, *items[1:]] if items else [new]
        if how == "inner_empty":
            return [[], *items[1:]]
        if how == "inner_add_huge":
            return [[*items[0], HUGE], *items[1:]]
        if how == "inner_drop":
            return [items[0][:-1] if items[0] else [], *items[1:]]
    if isinstance(value, tuple):
        if how == "empty":
            return ()
        if how == "elem_huge":
            return (HUGE, *value[1:])
    return value


def _has_objects(value: Any) -> bool:
    return any(not isinstance(v, (int, str, bool, list, tuple, type(None))) for v in value)


def mutate_state(state: Any, case: dict[str, Any]) -> None:
    """Apply a ``state`` case's mutation to a :class:`GameState` in place."""
    from tribune_env.engine.decisions import Pending

    name, how = case["field"], case["how"]
    owner = state.players[case["seat"]] if case["target"] == "player" else state
    value = getattr(owner, name)
    if name == "pending":
        setattr(owner, name, _mutate_pending(value, how, Pending))
    elif name == "agenda":
        setattr(owner, name, _mutate_agenda(value, how))
    elif name == "events":
        setattr(owner, name, _mutate_events(value, how, state))
    else:
        setattr(owner, name, mutate_value(value, how))


def _mutate_pending(value: Any, how: str, pending_type: Any) -> Any:
    if value is None:
        return (0, 0, -1, -1) if how == "to_tuple" else None
    fields = {"kind": int(value.kind), "seat": value.seat, "faction": value.faction, "index": value.index}
    change = {
        "seat_9": ("seat", 9),
        "seat_neg": ("seat", -3),
        "kind_99": ("kind", 99),
        "faction_99": ("faction", 99),
        "faction_neg": ("faction", -4),
        "index_2_40": ("index", 2**40),
    }
    if how == "to_tuple":
        return tuple(fields.values())
    key, new = change[how]
    fields[key] = new
    kind = value.kind if key != "kind" else new  # an unknown kind as a plain int
    return pending_type(kind, fields["seat"], fields["faction"], fields["index"])


def _mutate_agenda(value: list[Any], how: str) -> list[Any]:
    agenda = list(value)
    if not agenda:
        return [("no_such_step",)] if how == "unknown_step" else agenda
    task = agenda[-1]
    if how == "unknown_step":
        agenda[-1] = ("no_such_step", *task[1:])
    elif how == "arg_huge":
        agenda[-1] = (task[0], HUGE, *task[2:]) if len(task) > 1 else (task[0], HUGE)
    elif how == "arg_neg":
        agenda[-1] = (task[0], -7, *task[2:]) if len(task) > 1 else (task[0], -7)
    elif how == "drop_args":
        agenda[-1] = (task[0],)
    elif how == "extra_arg":
        agenda[-1] = (*task, 1)
    return agenda


def _mutate_events(value: list[Any], how: str, state: Any) -> list[Any]:
    from tribune_env.engine.state import Event

    events = list(value) or [Event(1, 0, -1, "x", -1)]
    first = events[0]
    if how == "surrogate_text":
        events[0] = first._replace(text="a \ud800 b")
    elif how == "round_2_31":
        events[0] = first._replace(round=2**31)
    elif how == "short_event":
        events[0] = tuple(first)[:3]
    return events


def mutate_fields(fields: dict[str, Any], case: dict[str, Any]) -> None:
    """Apply a ``fields`` case's mutation to the plain values of ``Core.from_fields`` in place."""
    name, how = case["field"], case["how"]
    owner = fields["players"][case["seat"]] if case["target"] == "player" else fields
    if name not in owner:
        return
    value = owner[name]
    if name == "pending":
        if value is None:
            owner[name] = (0, 0, -1, -1) if how == "to_tuple" else None
            return
        kind, seat, faction, index = value
        change = {"seat_9": (1, 9), "seat_neg": (1, -3), "kind_99": (0, 99), "faction_99": (2, 99)}
        change |= {"faction_neg": (2, -4), "index_2_40": (3, 2**40)}
        if how in change:
            at, new = change[how]
            items = [kind, seat, faction, index]
            items[at] = new
            owner[name] = tuple(items)
    elif name == "agenda":
        owner[name] = _mutate_agenda(value, how)
    elif name == "events":
        events = [tuple(e) for e in value] or [(1, 0, -1, "x", -1)]
        first = events[0]
        if how == "surrogate_text":
            events[0] = (*first[:3], "a \ud800 b", first[4])
        elif how == "round_2_31":
            events[0] = (2**31, *first[1:])
        elif how == "short_event":
            events[0] = first[:3]
        owner[name] = events
    elif name == "phase":
        owner[name] = mutate_value(int(value), how)
    else:
        owner[name] = mutate_value(value, how)


# --- running cases in a child --------------------------------------------------------------------------------------


def run_cases(docs: list[dict[str, Any]], cases: list[dict[str, Any]], timeout: float = 1200) -> dict[str, Any]:
    """Run ``cases`` on positions ``docs`` in child processes on the native core (a new child after a signal).

    Returns ``{"counts": {outcome kind: n}, "failures": [(case, outcome), ...]}``; outcome kinds are ``refused``,
    ``played`` and, for failures, ``error``, ``differs`` and ``signal``."""
    counts: dict[str, int] = {}
    failures: list[tuple[dict[str, Any], str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cases.json"
        path.write_text(json.dumps({"docs": docs, "cases": cases}))
        start = 0
        while start < len(cases):
            env = dict(os.environ, TRIBUNE_ENGINE="native", PYTHONPATH=os.pathsep.join([str(TESTS), *sys.path]))
            code = "import sys; from support.native_fuzz import child_main; child_main(sys.argv[1], int(sys.argv[2]))"
            run = subprocess.run(
                [sys.executable, "-c", code, str(path), str(start)],
                capture_output=True,
                text=True,
                env=env,
                timeout=timeout,
            )
            done = start
            running = None
            for line in run.stdout.splitlines():
                tag, _, rest = line.partition(" ")
                if tag == "S":
                    running = int(rest)
                elif tag == "R":
                    index, _, outcome = rest.partition(" ")
                    kind = outcome.split(":")[0]
                    counts[kind] = counts.get(kind, 0) + 1
                    if kind not in ("refused", "played"):
                        failures.append((cases[int(index)], outcome))
                    done = int(index) + 1
                    running = None
            if run.returncode == 0 and done >= len(cases):
                break
            if running is None:  # died between cases, or before the first
                raise RuntimeError(f"the child stopped (status {run.returncode}): {run.stderr[-2000:]}")
            outcome = f"signal {-run.returncode}" if run.returncode < 0 else f"error: exit {run.returncode}"
            counts[outcome.split(" ")[0].rstrip(":")] = counts.get(outcome.split(" ")[0].rstrip(":"), 0) + 1
            failures.append((cases[running], outcome + " " + run.stderr[-300:]))
            start = running + 1
    return {"counts": counts, "failures": failures}


def child_main(path: str, start: int) -> None:
    """The child: run cases ``start``... of the file, printing ``S i`` before and ``R i outcome`` after each."""
    data = json.loads(Path(path).read_text())
    docs, cases = data["docs"], data["cases"]
    for i in range(start, len(cases)):
        print(f"S {i}", flush=True)
        outcome = run_case(docs, cases[i])
        print(f"R {i} {outcome}", flush=True)


def run_case(docs: list[dict[str, Any]], case: dict[str, Any]) -> str:
    """One case's outcome (module docstring)."""
    doc = docs[case["position"]]["doc"]
    family = case["family"]
    if family == "staged":
        return _staged_outcome(stage(doc, case["card"], case["how"]))
    if family == "state":
        return _on_both(lambda engine: _load_state(doc, case, engine))
    return _outcome(lambda: _load_fields(doc, case))


def _staged_outcome(doc: dict[str, Any]) -> str:
    """A staged document's outcome on both engines. ``Game.from_json`` reads a document with the Python engine's
    reader on either engine (the native core copies the state read), so one read decides a refusal for both, and
    a refused document never reaches the core: the document is read once here; one that reads is loaded with
    ``Game.from_json`` on each engine and played on both (:func:`_on_both`). Its two reads were 90% of a case."""
    from tribune_env.engine.serialize import state_from_json

    read = _outcome(lambda: state_from_json(doc) is None)  # "played: False" when read (no state's repr made)
    if not read.startswith("played"):  # refused (both engines), or an exception other than InvalidStateError
        return read
    return _on_both(lambda engine: _load_json(doc, engine))


def _on_both(load: Any) -> str:
    """The outcome of ``load(engine)`` on the native core, compared with the Python engine's."""
    native = _outcome(lambda: load("native"))
    python = _outcome(lambda: load("python"))
    if native.split(":")[0] != python.split(":")[0] or (native.startswith("played") and native != python):
        return f"differs: native {native[:200]!r}, python {python[:200]!r}"
    return native


def _outcome(run: Any) -> str:
    from tribune_env.engine.errors import InvalidStateError

    try:
        return "played: " + str(run())
    except InvalidStateError:
        return "refused"
    except Exception as exc:  # every other exception is a failure to report
        return f"error: {type(exc).__name__}: {str(exc)[:200]!r}"


def _with_engine(engine: str) -> None:
    os.environ["TRIBUNE_ENGINE"] = engine


def _load_json(doc: dict[str, Any], engine: str) -> str:
    from tribune_env.engine.game import Game

    _with_engine(engine)
    return _play(Game.from_json(doc))


_PARSED: dict[int, tuple[dict[str, Any], Any]] = {}
"""Each position's document read into a :class:`GameState` once per process (keyed by the document's id; the
document is kept alongside so that its id cannot be reused)."""


def parsed_state(doc: dict[str, Any]) -> Any:
    """A fresh, independent :class:`GameState` of the unmutated position ``doc``: read once per process, then
    cloned for each case (reading the document took 97% of a ``state`` case's time, and is the same every time)."""
    from tribune_env.engine.serialize import state_from_json

    entry = _PARSED.get(id(doc))
    if entry is None or entry[0] is not doc:
        entry = _PARSED[id(doc)] = (doc, state_from_json(doc))
    return entry[1].clone()


def _load_state(doc: dict[str, Any], case: dict[str, Any], engine: str) -> str:
    from tribune_env.engine.game import Game

    state = parsed_state(doc)
    mutate_state(state, case)
    _with_engine(engine)
    return _play(Game.from_state(state))


def _load_fields(doc: dict[str, Any], case: dict[str, Any]) -> str:
    from tribune_env.engine import native
    from tribune_env.engine.game import Game

    state = parsed_state(doc)
    fields = native.fields_of(state)
    mutate_fields(fields, case)
    core = native.core_module.Core.from_fields(native.rules_for(state.config), state.config, fields)
    return _play(Game(core=core))


def _play(game: Any) -> str:
    """Play :data:`PLAY_STEPS` decisions with a fixed generator; the legal lists' lengths, as the outcome."""
    rng = random.Random(0)
    lengths = []
    for _ in range(PLAY_STEPS):
        if game.is_over:
            break
        legal = game.legal_actions()
        lengths.append(len(legal))
        game.apply(legal[rng.randrange(len(legal))])
    return ",".join(map(str, lengths))


# --- one pool from several threads ---------------------------------------------------------------------------------

POOL_CHILD = """
import sys, threading
import numpy as np
from tribune_env.envs.pool import TribunePool

threads, rounds, native_threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
pool = TribunePool(8, players=4, threads=native_threads)
errors = []

def work(k):
    rng = np.random.default_rng(k)
    try:
        if k % 2:
            pool.reset(seed=k)
        for r in range(rounds):
            if (r + k) % 3 == 0:
                pool.step_random(2)
            else:
                mask = pool._pool.mask.copy()
                actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask], np.int32)
                pool.step(actions)  # rows another thread stepped may make these illegal: flagged, not fatal
            if r % 5 == 0:
                pool.game(r % 8).legal_actions()
                pool.episode_seeds()
    except RuntimeError as exc:  # before the first reset: the pool's own exception
        if "reset" not in str(exc):
            errors.append(repr(exc))
    except Exception as exc:
        errors.append(repr(exc))

pool.reset(seed=0)
workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
for w in workers:
    w.start()
for w in workers:
    w.join()
print("errors", errors)
sys.exit(1 if errors else 0)
"""


def run_pool_threads(threads: int, rounds: int, native_threads: int = 2, timeout: float = 600) -> tuple[int, str]:
    """Step one :class:`TribunePool` from ``threads`` Python threads in a child process; its exit status (negative:
    the signal that killed it) and the end of its output."""
    env = dict(os.environ, TRIBUNE_ENGINE="native", PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run(
        [sys.executable, "-c", POOL_CHILD, str(threads), str(rounds), str(native_threads)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    return run.returncode, (run.stdout + run.stderr)[-2000:]
