"""What ``tribune bench`` can measure, and the check of its options: light enough for the CLI's parser, which
builds every command at start-up without importing the environments (:mod:`tribune_arena.bench.environments`)."""

from __future__ import annotations

import math

PEERS = ("tictactoe_v3", "connect_four_v3", "texas_holdem_v4")
"""The reference PettingZoo environments the figures are compared with."""
PLAYER_COUNTS = (2, 3, 4, 5)
BATCH = 16
"""Games in the batched-environment figure."""
BATCH_API = 64
"""Games in the native batched API's figure (``_core.Batch``)."""


def check_options(seconds: float, seed: int, players: tuple[int, ...], peers: tuple[str, ...]) -> None:
    """``ValueError`` naming the first option :func:`bench` cannot use."""
    if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"seconds: must be a finite number > 0, got {seconds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError(f"seed: must be an integer in 0..2**63-1, got {seed!r}")
    bad = [n for n in players if n not in PLAYER_COUNTS]
    if bad or not players:
        raise ValueError(f"players: must be among {PLAYER_COUNTS}, got {list(players)}")
    unknown = [p for p in peers if p not in PEERS]
    if unknown:
        raise ValueError(f"peers: unknown {unknown}; choose from {PEERS}")
