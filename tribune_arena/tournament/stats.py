"""The win-rate interval of every tournament, role table, training evaluation, plot and document.

:func:`win_rate_interval` is the one interval: the **95% Wilson score interval** of a binomial proportion, from
scipy (``scipy.stats.binomtest(wins, games).proportion_ci(method="wilson")``). Unlike a percentile bootstrap it
never collapses to a point: 0 wins of 80 give 0-4.6%, 8 of 8 give 67.6-100%. It is the interval Brown, Cai and
DasGupta (Statistical Science 16, 2001) recommend for small counts, where the normal (Wald) interval and the
bootstrap fail; Clopper-Pearson ("exact") would be wider than its stated confidence needs.

The unit is the *seat-game*, the unit of ``wins / games`` in every table: an entry's interval is Wilson of exactly
the ``wins`` and ``games`` printed beside it. Two dependences are accepted, both documented here:

* an entry holding several seats of one game (``random`` twice at one table, the ``players - 1`` copies of a
  reference agent) has seats that are negatively correlated (usually one seat wins a game), so the binomial
  variance over its seat-games overstates the true one: the interval is conservative (a shared win, which counts
  for every winning seat, is the rare exception);
* the games of one duplicate deal (its seat rotations) share the deal; the rotations are there to cancel the deal's
  luck, and the games are counted as independent trials (the bootstrap this replaced resampled games too).

Measured (``tribune tournament greedy heuristic heuristic heuristic --games 200``, 50 deals, 2026-11-25): the
variance of the win rate with the deal as the unit was 0.95 times the binomial one for ``greedy`` (one seat a
game) and 0.12 times for ``heuristic`` (three seats a game).

A fractional count (a win *share*: 1/k of a k-way shared win) gets the union of the Wilson intervals of the whole
counts on either side of it, which is exact for a whole count and never narrower than the interval it stands for.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

CONFIDENCE = 0.95
"""The confidence level of every interval."""
METHOD = "wilson"
"""scipy's name of the method (``BinomTestResult.proportion_ci(method=...)``)."""
UNIT = "seat-game"
"""What one trial is: one seat of an entry in one game."""
INTERVAL_NAME = f"{CONFIDENCE:.0%} Wilson interval"
"""The interval's name where people read it (tables, plots, printed lines, the docs)."""
INTERVAL_HEADER = f"{CONFIDENCE:.0%}\nWilson"
"""The heading of a table's interval column."""


def win_rate_interval(wins: float, games: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the win rate ``wins / games`` (see the module docstring).

    ``0 <= wins <= games``; ``wins`` may be fractional (a win share). ``low < high`` whenever ``games > 0``, and
    ``low <= wins / games <= high``; no games give ``(0.0, 1.0)``. ValueError names a bad argument.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number >= 0, got {games!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    count = round(float(wins), 9)  # a sum of 1/k shares, such as 2.9999999999999996, is the whole count 3
    if not 0 <= count <= games:
        raise ValueError(f"wins must be between 0 and games ({games}), got {wins!r}")
    if games == 0:
        return (0.0, 1.0)
    low = _wilson(math.floor(count), games, confidence)[0]
    high = _wilson(math.ceil(count), games, confidence)[1]
    return (low, high)


@lru_cache(maxsize=4096)
def _wilson(wins: int, games: int, confidence: float) -> tuple[float, float]:
    from scipy.stats import binomtest  # imported when first needed: scipy.stats takes a second or more to import

    ci: Any = binomtest(wins, games).proportion_ci(confidence_level=confidence, method=METHOD)
    return (min(max(float(ci.low), 0.0), 1.0), min(max(float(ci.high), 0.0), 1.0))


def interval_meta() -> dict[str, Any]:
    """How the intervals of a results document were made (its ``interval`` key)."""
    return {"method": METHOD, "confidence": CONFIDENCE, "unit": UNIT, "library": "scipy.stats.binomtest"}


def fixed(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals, a negative value that rounds to zero written ``0.0`` (never ``-0.0``, as
    a rating of -0.04 would print in a leaderboard)."""
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def percent_range(interval: tuple[float, float], digits: int = 0) -> str:
    """``"60-86%"``: the interval in percent with at least ``digits`` decimals, and more where fewer would print
    its two ends alike (0 of 1000 is ``"0.0-0.4%"``, never ``"0-0%"``)."""
    low, high = (100 * x for x in interval)
    for places in range(digits, 7):
        a, b = f"{low:.{places}f}", f"{high:.{places}f}"
        if a != b:
            return f"{a}-{b}%"
    return f"{low:.6f}-{high:.6f}%"
