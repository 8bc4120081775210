"""``python -m tribune_arena.bench.learners``: the tournament, search and MaskablePPO figures (issue 16)."""

from __future__ import annotations

import pytest

from tribune_arena.bench.learners import VEC_KINDS, main, mcts_rate, sb3_rate, tournament_rate


def test_tournament_and_search_rates_are_measured() -> None:
    assert tournament_rate(0.05) > 0
    assert mcts_rate(iterations=5, positions=2) > 0
    figures = main(["--seconds", "0.05", "--mcts-iterations", "5", "--json"])
    assert set(figures) == {"compiled", "tournament_games_per_s", "mcts_iterations_per_s"}


def test_bad_options_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["--seconds", "0"])
    with pytest.raises(ValueError, match="unknown vector environment"):
        sb3_rate("nothing", 8, 8)


@pytest.mark.slow
@pytest.mark.parametrize("kind", [k for k in VEC_KINDS if k != "subproc2"])
def test_maskable_ppo_trains_on_each_vector_environment(kind: str) -> None:
    assert sb3_rate(kind, timesteps=64, rollout=64) > 0
