"""A document's agenda must be one the engine can produce (issue 36, S2 and S3; :mod:`tribune_env.engine.agenda_shape`).

The reproducers of the campaign's findings (each loaded before the shape check and broke later), the table of pushes
re-derived from played games, and a seeded mutation fuzz of ``Game.from_json`` over base, expansion and Brutii
documents: the quick tier runs a few hundred documents, the slow tier ``TRIBUNE_FUZZ_DOCUMENTS`` (default 20,000, in
four tests of a quarter each).
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import os
import random
import traceback
from collections import defaultdict
from typing import Any

import pytest

from tribune_env import Game, InvalidStateError
from tribune_env.data import BrutiiCard, BrutiiDisc
from tribune_env.engine import agenda_shape, serialize
from tribune_env.engine.registry import RESOLVE, STEPS, StepRule
from tribune_env.engine.state import GameState, Task


@pytest.fixture(autouse=True)
def _python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read and patch the Python engine (the specification); the native core reads documents through it."""
    monkeypatch.setenv("TRIBUNE_ENGINE", "python")


def _played(seed: int, steps: int, rng_seed: int, **options: Any) -> dict[str, Any]:
    game = Game.new(seed=seed, **options)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game.to_json()


def _until(seed: int, found: Any, **options: Any) -> dict[str, Any]:
    """The first saved position of a random game (seeded) for which ``found(doc)`` holds."""
    game = Game.new(seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over:
        doc = game.to_json()
        if found(doc):
            return doc
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no such position in the game")


def _unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader as it was before the shape check (to show that a reproducer reproduces)."""
    monkeypatch.setattr(serialize, "agenda_problem", lambda state: "")


def _refused(doc: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidStateError, match="no game reaches this agenda") as info:
        Game.from_json(doc)
    assert words in str(info.value)


# --- S3: a base document with round_start inside a region's frame ----------------------------------------------


def _s3_document() -> dict[str, Any]:
    doc = _until(3, lambda d: d["phase"] == "region_evaluation" and d["agenda"][0][0] == "end_region", players=4)
    doc["agenda"].insert(1, ["round_start"])  # after the Latrine's end_region: a new round inside this one
    return doc


def test_s3_round_start_inside_a_region_frame_is_refused() -> None:
    _refused(_s3_document(), "are not the end of a round")


def test_s3_the_old_reader_took_it_and_started_a_second_round_inside_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    _unchecked(monkeypatch)
    game = Game.from_json(_s3_document())
    round_ = game.state.round
    for _ in range(60):  # the rest of the Latrine's evaluation, then the injected round_start
        game.apply(game.legal_actions()[0])
        if game.state.round > round_:
            break
    assert game.state.round == round_ + 1
    assert ("round_end",) in game.state.agenda[:-1], "the old round's end still waits under the new round"


# --- S2: mutated Brutii documents ------------------------------------------------------------------------------


def _s2_turn_document() -> dict[str, Any]:
    """The campaign's ``brutii_turn`` finding, found again by the fuzz below: ``round_start`` among the phase steps
    of a Brutii game in its take-overs; the next round gave the Brutii turns with every disc already revealed."""
    doc = _played(0, 300, 300, players=6, expansion=True, brutii=True, round_limit=8)
    assert doc["phase"] == "takeovers" and doc["agenda"][5] == ["tribunus_plebis"]
    doc["agenda"].insert(5, ["round_start"])
    return doc


def test_s2_brutii_turn_document_is_refused() -> None:
    _refused(_s2_turn_document(), "are not the end of a round")


def test_s2_brutii_turn_document_crashed_the_old_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    _unchecked(monkeypatch)
    game = Game.from_json(_s2_turn_document())
    rng = random.Random(439)
    with pytest.raises(ValueError, match="empty range"):
        for _ in range(2000):
            game.apply(rng.choice(game.legal_actions()))


def _s2_lay_document(how: str) -> dict[str, Any]:
    """The Brutii choosing the cards he lays for a slave (R52), with a second lay or a second take of that slave."""
    doc = _until(
        0,
        lambda d: d["pending"] is not None and d["pending"]["kind"] == "brutii_slaves" and not d["staged"],
        players=5,
        expansion=True,
        brutii=True,
        round_limit=8,
    )
    lay = doc["agenda"][0]
    assert lay[0] == "brutii_lay"
    doc["agenda"].insert(1, list(lay) if how == "lay" else ["brutii_slave", *lay[1:]])
    return doc


@pytest.mark.parametrize(("how", "words"), [("lay", "stands twice"), ("slave", "take the slave card")])
def test_s2_brutii_lay_documents_are_refused(how: str, words: str) -> None:
    _refused(_s2_lay_document(how), words)


@pytest.mark.parametrize("how", ["lay", "slave"])
def test_s2_brutii_lay_documents_crashed_the_old_reader(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _unchecked(monkeypatch)
    game = Game.from_json(_s2_lay_document(how))
    rng = random.Random(1)
    with pytest.raises(ValueError, match=r"list\.remove"):
        for _ in range(300):
            game.apply(rng.choice(game.legal_actions()))


def test_a_placement_in_the_set_up_is_refused() -> None:
    """The fuzz's second ``brutii_turn`` crash: a set-up agenda with a phase-2 step and a second round_start."""
    doc = _played(0, 0, 0, players=5, expansion=True, brutii=True)
    doc["agenda"].insert(len(doc["agenda"]) - 2, ["placement"])
    _refused(doc, "no step still running")


@pytest.mark.parametrize(
    ("where", "task", "words"),
    [
        (0, ["end_takeover", 5], "stands in the frame of"),
        (0, ["curia_field", 0], "no step still running"),
        (1, ["end_region", 2], "stands twice"),
    ],
)
def test_steps_outside_their_frame_are_refused(where: int, task: list[Any], words: str) -> None:
    doc = _s3_document()
    doc["agenda"].remove(["round_start"])
    assert doc["agenda"][0] == ["end_region", 2]
    if task[0] == "end_takeover":  # a take-over's frame, with a step of another faction
        doc = _until(3, lambda d: d["phase"] == "takeovers" and d["agenda"][0][0] == "end_takeover", players=4)
        task = ["end_takeover", (doc["agenda"][0][1] + 1) % 7]
    doc["agenda"].insert(where, task)
    _refused(doc, words)


# --- the table of pushes is the engine's ---------------------------------------------------------------------


def _traced_pushes(monkeypatch: pytest.MonkeyPatch, games: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Which steps each step pushed (running, or through the decision it asked) in ``games`` played at random."""
    pushed: dict[str, set[str]] = defaultdict(set)
    running: list[Task] = [("new_game",)]

    def traced(name: str, rule: StepRule) -> StepRule:
        def run(state: GameState, *args: int) -> None:
            before = list(state.agenda)
            running[0] = (name, *args)
            rule.run(state, *args)
            if state.agenda[: len(before)] == before:
                pushed[agenda_shape.key(running[0])].update(t[0] for t in state.agenda[len(before) :])

        return StepRule(name, run, rule.slot_region, rule.check, rule.expansion)

    def resolving(fn: Any) -> Any:
        def resolve(state: GameState, pending: Any, action: Any) -> None:
            before = list(state.agenda)
            fn(state, pending, action)
            if state.agenda[: len(before)] == before:
                pushed[agenda_shape.key(running[0])].update(t[0] for t in state.agenda[len(before) :])

        return resolve

    for name, rule in list(STEPS.items()):
        monkeypatch.setitem(STEPS, name, traced(name, rule))
    for kind, fn in list(RESOLVE.items()):
        monkeypatch.setitem(RESOLVE, kind, resolving(fn))
    for options in games:
        game = Game.new(**options)
        rng = random.Random(options["seed"])
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
    return pushed


def test_the_table_holds_every_push_of_played_games(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [
        {"players": 3, "seed": 1},
        {"players": 4, "seed": 2, "expansion": True},
        {"players": 5, "seed": 3, "expansion": True, "brutii": True},
        {"players": 6, "seed": 4, "expansion": True, "brutii": True},
    ]
    pushed = _traced_pushes(monkeypatch, games)
    for parent, children in pushed.items():
        if parent in ("round_start", "round_end"):
            continue  # the skeleton and the next round: checked apart
        allowed = agenda_shape.PUSHES.get(parent, frozenset())
        assert children <= allowed, f"{parent} pushed {children - allowed}"
    assert pushed["round_end"] == {"round_start"}


def test_the_table_names_only_steps() -> None:
    names = set(STEPS) | {agenda_shape.NEW_GAME}
    for parent, children in agenda_shape.PUSHES.items():
        assert parent.split(":")[0] in names
        assert children <= set(STEPS)
    assert agenda_shape.ONCE <= set(STEPS)


# --- the fuzz: mutated documents load with a clear error or play on --------------------------------------------

SEAT_COUNTS = {"base": (3, 4, 5), "expansion": (3, 4, 5), "brutii": (5, 6)}


@functools.cache
def _bases() -> list[tuple[str, str]]:
    out = []
    for kind, counts in SEAT_COUNTS.items():
        options: dict[str, Any] = {"expansion": kind != "base", "brutii": kind == "brutii", "round_limit": 8}
        for players in counts:
            for seed in range(2):
                for steps in (0, 1, 20, 60, 150, 300, 600):
                    doc = _played(seed, steps, seed * 7919 + steps, players=players, **options)
                    out.append((kind, json.dumps(doc)))
    return out


def _random_step(rng: random.Random, players: int) -> list[Any]:
    name = rng.choice(sorted(STEPS))
    ranges = {"seat": players, "faction": 7, "region": 11, "role": 3, "after_cesura": 2, "card": 6, "i": 3, "slot": 6}
    args = []
    for param in list(inspect.signature(STEPS[name].run).parameters)[1:]:
        args.append(rng.randint(1, 3) if param == "n" else rng.randrange(ranges.get(param, 60)))
    return [name, *args]


def _mutate(rng: random.Random, doc: dict[str, Any]) -> str:
    """One mutation aimed at the flow: the agenda (mostly), the Brutii's public state, the seat or phase."""
    players = len(doc["players"])
    agenda = doc["agenda"]
    roll = rng.random()
    if roll < 0.6:
        return _mutate_agenda(rng, agenda, players)
    if "brutii" in doc and roll < 0.8:
        return _mutate_brutii(rng, doc["brutii"])
    field = rng.choice(["phase", "turn_seat", "followers", "pending"])
    if field == "phase":
        doc["phase"] = rng.choice(["card_placement", "follower_placement", "region_evaluation", "takeovers"])
    elif field == "turn_seat":
        doc["turn_seat"] = rng.randrange(players)
    elif field == "followers":
        doc["players"][rng.randrange(players)]["followers"] = rng.randint(0, 9)
    elif isinstance(doc.get("pending"), dict):
        doc["pending"]["seat"] = rng.randrange(players)
    return field


def _mutate_agenda(rng: random.Random, agenda: list[Any], players: int) -> str:
    op = rng.choice(["insert", "duplicate", "delete", "swap", "move", "argument"])
    if op == "insert" or not agenda:
        agenda.insert(rng.randint(0, len(agenda)), _random_step(rng, players))
    elif op == "duplicate":
        agenda.insert(rng.randint(0, len(agenda)), copy.deepcopy(rng.choice(agenda)))
    elif op == "delete":
        del agenda[rng.randrange(len(agenda))]
    elif op == "swap" and len(agenda) > 1:
        i, j = rng.sample(range(len(agenda)), 2)
        agenda[i], agenda[j] = agenda[j], agenda[i]
    elif op == "move":
        agenda.insert(rng.randint(0, len(agenda) - 1), agenda.pop(rng.randrange(len(agenda))))
    elif op == "argument":
        task = rng.choice(agenda)
        if len(task) > 1:
            task[rng.randrange(1, len(task))] = rng.randint(-1, 8)
    return f"agenda {op}"


def _mutate_brutii(rng: random.Random, brutii: dict[str, Any]) -> str:
    field = rng.choice(["turns", "revealed", "played", "options", "veto"])
    if field == "turns":
        brutii[field] = rng.randint(0, 7)
    elif field == "revealed":
        brutii[field] = [rng.choice([d.key for d in BrutiiDisc]) for _ in range(rng.randint(0, 7))]
    elif field == "played":
        brutii[field] = rng.sample([c.key for c in BrutiiCard], rng.randint(0, 4))
    elif field == "options":
        brutii[field] = {"cards": rng.choice([None, 1, 2]), "takeover": rng.choice([None, 1, 2])}
    else:
        brutii[field] = rng.choice([None, "curia", "forum", "thermae"])
    return f"brutii.{field} = {brutii[field]}"


def fuzz_from_json(count: int, seed: int, start: int = 0) -> tuple[int, list[str]]:
    """``count`` mutated documents, numbers ``start``... of the run of ``seed`` (each number's document is the
    same whatever the part it is run in): each is refused with InvalidStateError, or loads, plays on (up to 400
    random decisions) and reads back. Returns how many loaded and the failures (at most one per place)."""
    bases = _bases()
    failures: dict[tuple[str, str], str] = {}
    loaded = 0
    for i in range(start, start + count):
        rng = random.Random(seed * 10**6 + i)
        kind, text = bases[i % len(bases)]
        doc = json.loads(text)
        mutations = [_mutate(rng, doc) for _ in range(rng.randint(1, 3))]
        try:
            game = Game.from_json(doc)
        except InvalidStateError:
            continue
        except Exception as exc:
            place = traceback.extract_tb(exc.__traceback__)[-1].name
            failures.setdefault(("load", place), f"#{i} {kind} {mutations}: {type(exc).__name__}: {exc}")
            continue
        loaded += 1
        try:
            for _ in range(400):
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_actions()))
            Game.from_json(game.to_json())
        except Exception as exc:
            place = traceback.extract_tb(exc.__traceback__)[-1].name
            failures.setdefault(("play", place), f"#{i} {kind} {mutations}: {type(exc).__name__}: {exc}")
    return loaded, list(failures.values())


def test_fuzz_from_json_quick() -> None:
    loaded, failures = fuzz_from_json(150, seed=36)
    assert not failures
    assert loaded > 10  # the mutations leave some documents loadable: the play-on half is exercised


FUZZ_PARTS = 4  # the slow fuzz's parts: one test each, so that pytest-xdist's workers share the documents


@pytest.mark.slow
@pytest.mark.parametrize("part", range(FUZZ_PARTS), ids=lambda k: f"part{k + 1}of{FUZZ_PARTS}")
def test_fuzz_from_json_many(part: int) -> None:
    """``TRIBUNE_FUZZ_DOCUMENTS`` (default 20,000) documents in all, a quarter in each part."""
    count = int(os.environ.get("TRIBUNE_FUZZ_DOCUMENTS", "20000"))
    start, end = part * count // FUZZ_PARTS, (part + 1) * count // FUZZ_PARTS
    _, failures = fuzz_from_json(end - start, seed=int(os.environ.get("TRIBUNE_FUZZ_SEED", "1")), start=start)
    assert not failures, "\n".join(failures)
