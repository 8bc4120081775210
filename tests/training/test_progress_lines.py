"""Training progress (issue 26): a progress bar on a terminal, else one line every minute (none in a short run), in
both backends (:meth:`training.trainer.Trainer.progress_bar`, :meth:`~training.trainer.Trainer.progress_lines`)."""

from __future__ import annotations

import io
import math

import pytest
from rich.console import Console

from training.config import config_from_dict

pytestmark = pytest.mark.train


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_estimate_within_seconds_then_a_line_every_minute() -> None:
    from training.trainer import FIRST_ESTIMATE, PROGRESS_EVERY, StepProgress

    said: list[str] = []
    clock = Clock()
    lines = StepProgress(said.append, total=100_000, done=10_000, clock=clock)
    clock.now += FIRST_ESTIMATE - 1
    lines.update(11_000)
    assert said == []  # the rate is not measured yet
    clock.now += 1
    lines.update(12_000)
    assert said == ["trained 12,000 of 100,000 steps (12%), 200 steps/s, about 7 min left"]
    clock.now += PROGRESS_EVERY - 1
    lines.update(20_000)
    assert len(said) == 1  # the next one a minute later
    clock.now += 1
    lines.update(22_000)
    assert said[-1] == "trained 22,000 of 100,000 steps (22%), 171 steps/s, about 8 min left"
    clock.now += PROGRESS_EVERY
    lines.update(100_000)
    assert said[-1] == "trained 100,000 of 100,000 steps (100%), 692 steps/s"


def test_the_estimate_counts_the_evaluations_to_come_and_leaves_out_those_done() -> None:
    from training.trainer import FIRST_ESTIMATE, StepProgress

    said: list[str] = []
    clock = Clock()
    timing = lambda steps: (5.0, 300.0)  # noqa: E731
    lines = StepProgress(said.append, total=100_000, clock=clock, every=math.inf, evaluations=timing)
    clock.now += FIRST_ESTIMATE + 5  # 5 s of it evaluating: 10 s of training
    lines.update(2_000)
    assert said == ["trained 2,000 of 100,000 steps (2%), 200 steps/s, about 13 min left, 5 min of it evaluating"]
    clock.now += 3600
    lines.update(50_000)
    assert len(said) == 1  # every=inf: the estimate only


def test_the_evaluations_left_follow_the_schedule() -> None:
    from training.trainer import Trainer

    config = config_from_dict({"run": {"total_timesteps": 10_000}, "eval": {"every": 3_000, "games": 10}})
    trainer = Trainer(config, Console(file=io.StringIO()))
    assert trainer.evaluation_time(0) == (0.0, 0.0)  # no evaluation timed yet
    trainer.eval_seconds_per_game, trainer.eval_spent = 2.0, 7.0
    assert trainer.evaluation_time(0) == (7.0, 4 * 10 * 2.0)  # at 3k, 6k, 9k and the end
    assert trainer.evaluation_time(6_500) == (7.0, 2 * 10 * 2.0)
    plan = trainer.plan()
    assert "10,000 steps" in plan and "5 evaluations of 10 games" in plan and "every 3,000 steps" in plan


def test_a_bar_on_a_terminal_lines_elsewhere_the_estimate_always() -> None:
    from training.trainer import PROGRESS_EVERY, Trainer

    def trainer(terminal: bool, bar: bool) -> Trainer:
        config = config_from_dict({"run": {"progress_bar": bar}})
        return Trainer(config, Console(file=io.StringIO(), force_terminal=terminal))

    on_terminal = trainer(terminal=True, bar=True)
    assert on_terminal.progress_bar() and on_terminal.progress_lines(0).every == math.inf
    in_a_log = trainer(terminal=False, bar=True)
    assert not in_a_log.progress_bar() and in_a_log.progress_lines(0).every == PROGRESS_EVERY
    off = trainer(terminal=True, bar=False)
    assert not off.progress_bar() and off.progress_lines(0).every == math.inf
