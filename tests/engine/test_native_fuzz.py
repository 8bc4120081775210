"""Issue 41's fuzzers: no input kills the native core (tests/support/native_fuzz.py).

Every card type staged into every pending decision of real positions (``Game.from_json``), and every wrong shape of
every state field (``Game.from_state`` on both engines, and the native core's ``Core.from_fields``), run in a child
process on the native core: a signal there is a failure that names its case, and so is any exception other than
:class:`InvalidStateError` or the two engines disagreeing. The quick tier runs a few hundred cases of each family,
the slow tier 10,000 (the staged ones in four tests of a quarter each). Before issue 41's fixes the staged fuzzer
met SIGSEGV (N7) and the shape fuzzer SIGSEGV and heap overflows (N1).
"""

from __future__ import annotations

import functools
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.native_fuzz import positions, run_cases, shape_cases, stage, staged_cases

from tribune_env.engine import native
from tribune_env.engine.errors import InvalidStateError
from tribune_env.engine.game import Game
from tribune_env.engine.serialize import state_from_json

pytestmark = pytest.mark.skipif(not native.built(), reason=f"the native core is not built ({native.BUILD_ERROR})")

QUICK = int(os.environ.get("TRIBUNE_FUZZ_CASES", "200"))  # native/tools/sanitize.py may ask for more
SLOW = 10_000
PARTS = 4  # the slow staged fuzzer's parts (each a quarter of the same 10,000 cases)


@functools.cache
def quick_positions() -> list[dict[str, Any]]:
    """One position per (rule set, decision kind) of one game per rule set."""
    docs: list[dict[str, Any]] = positions(per_kind=1, seeds=range(1))
    return docs


@functools.cache
def slow_positions() -> list[dict[str, Any]]:
    """Up to three positions per (rule set, decision kind), from three games per rule set."""
    docs: list[dict[str, Any]] = positions(per_kind=3, seeds=range(3))
    return docs


def assert_clean(report: dict[str, Any], cases: int) -> None:
    counts = report["counts"]
    failures = report["failures"]
    print(f"{cases} cases: {counts}")  # shown with pytest -rP (native/tools/sanitize.py, the slow runs)
    shown = "\n".join(f"{case}: {outcome}" for case, outcome in failures[:10])
    assert not failures, f"{len(failures)} of {cases} cases failed ({counts}):\n{shown}"
    assert sum(counts.values()) == cases
    assert counts.get("refused", 0) and counts.get("played", 0)  # the cases reach both outcomes


def test_staged_cards_never_kill_the_core() -> None:
    docs = quick_positions()
    cases = staged_cases(docs, QUICK, seed=1)
    assert_clean(run_cases(docs, cases), len(cases))


@pytest.mark.parametrize("family", ["state", "fields"])
def test_wrong_shapes_never_kill_the_core(family: str) -> None:
    docs = quick_positions()
    cases = shape_cases(docs, QUICK, seed=2, family=family)
    assert_clean(run_cases(docs, cases), len(cases))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=lambda k: f"part{k + 1}of{PARTS}")
def test_ten_thousand_staged_cards_never_kill_the_core(part: int) -> None:
    """The 10,000 cases in :data:`PARTS` parts (one test each, so that pytest-xdist's workers share them)."""
    docs = slow_positions()
    cases = staged_cases(docs, SLOW, seed=3)
    assert len(cases) == SLOW
    mine = cases[part * SLOW // PARTS : (part + 1) * SLOW // PARTS]
    assert_clean(run_cases(docs, mine, timeout=3600), len(mine))


@pytest.mark.slow
@pytest.mark.parametrize("family", ["state", "fields"])
def test_ten_thousand_wrong_shapes_never_kill_the_core(family: str) -> None:
    docs = slow_positions()
    cases = shape_cases(docs, SLOW, seed=4, family=family)
    assert len(cases) == SLOW
    assert_clean(run_cases(docs, cases, timeout=3600), len(cases))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_python_engine_refuses_or_plays_every_staged_card(data: st.DataObject) -> None:
    """The same property on the Python engine, in this process (it cannot die of a signal): a staged card either
    makes the document refused (InvalidStateError) or a position whose legal choices play on."""
    docs = quick_positions()
    entry = data.draw(st.sampled_from(docs))
    doc = entry["doc"]
    labels = sorted({*doc["draw_pile"], *doc["discard_pile"], *[c for p in doc["players"] for c in p["hand"]]})
    label = data.draw(st.sampled_from(labels))
    how = data.draw(st.sampled_from(["swap", "add"] if doc["staged"] else ["add"]))
    try:
        state = state_from_json(stage(doc, label, how))
    except InvalidStateError:
        return
    game = Game(state)
    rng = random.Random(0)
    for _ in range(6):
        if game.is_over:
            break
        legal = game.legal_actions()
        assert legal
        game.apply(legal[rng.randrange(len(legal))])
