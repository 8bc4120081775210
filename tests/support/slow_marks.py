"""Marks shared by the tests: a family of parameters keeps a few quick representatives in the quick suite
(``-m "not slow"``); the others are marked ``slow`` and run in CI's slow run."""

from __future__ import annotations

from collections.abc import Collection, Iterable

import pytest
from _pytest.mark import ParameterSet


def slow_except(params: Iterable[ParameterSet], quick: Collection[str]) -> list[ParameterSet]:
    """``params`` with every one whose id is not in ``quick`` marked slow (each must have an id; every id in
    ``quick`` must be among them)."""
    out = []
    for param in params:
        assert param.id is not None, f"a parameter without an id: {param.values}"
        marks = param.marks if param.id in quick else (*param.marks, pytest.mark.slow)
        out.append(pytest.param(*param.values, id=param.id, marks=marks))
    unknown = set(quick) - {p.id for p in out}
    assert not unknown, f"no parameters with the ids {sorted(unknown)}"
    return out


def slow_except_values(values: Iterable[object], quick: Collection[object]) -> list[ParameterSet]:
    """Plain parameter ``values`` (ids: ``str(value)``), those not in ``quick`` marked slow."""
    return slow_except([pytest.param(v, id=str(v)) for v in values], {str(v) for v in quick})
