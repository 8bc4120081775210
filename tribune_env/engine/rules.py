"""Loads every phase module, so that all step, decision and region records are registered, and checks them.

Import this module (not a phase module alone) wherever the records are looked up.
"""

from __future__ import annotations

from tribune_env.engine import (  # noqa: F401  (modules register their records on import)
    benefits,
    brutii,
    card_placement,
    chariot,
    drawing,
    expansion_board,
    follower_placement,
    officials,
    regions,
    rewards,
    setup,
    takeovers,
)
from tribune_env.engine.registry import check_complete

check_complete()
