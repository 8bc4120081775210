"""Training progress (issue 26): a progress bar on a terminal, else one line every minute (none in a short run), in
both backends (:meth:`training.trainer.Trainer.progress_bar`, :meth:`~training.trainer.Trainer.progress_lines`)."""

from __future__ import annotations

import io

from rich.console import Console

from training.config import config_from_dict


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_line_every_minute_with_the_rate_and_the_time_left() -> None:
    from training.trainer import PROGRESS_EVERY, StepProgress

    said: list[str] = []
    clock = Clock()
    lines = StepProgress(said.append, total=100_000, done=10_000, clock=clock)
    clock.now += PROGRESS_EVERY - 1
    lines.update(20_000)
    assert said == []  # nothing within the first minute
    clock.now += 1
    lines.update(22_000)
    assert said == ["trained 22,000 of 100,000 steps (22%), 200 steps/s, about 6 min left"]
    clock.now += 10
    lines.update(30_000)
    assert len(said) == 1  # the next one a minute later
    clock.now += PROGRESS_EVERY
    lines.update(100_000)
    assert said[-1] == "trained 100,000 of 100,000 steps (100%), 692 steps/s"


def test_a_bar_on_a_terminal_lines_elsewhere_nothing_when_switched_off() -> None:
    from training.trainer import StepProgress, Trainer

    def trainer(terminal: bool, bar: bool) -> Trainer:
        config = config_from_dict({"run": {"progress_bar": bar}})
        return Trainer(config, Console(file=io.StringIO(), force_terminal=terminal))

    on_terminal = trainer(terminal=True, bar=True)
    assert on_terminal.progress_bar() and on_terminal.progress_lines(0) is None
    in_a_log = trainer(terminal=False, bar=True)
    assert not in_a_log.progress_bar() and isinstance(in_a_log.progress_lines(0), StepProgress)
    off = trainer(terminal=True, bar=False)
    assert not off.progress_bar() and off.progress_lines(0) is None
