"""The seven factions of the board, a keyed enum that the base game's and the expansion's tables both name."""

from __future__ import annotations

from tribune_env.data.fields import KeyedEnum


class Faction(KeyedEnum):
    """The seven factions, in board order (the order of phases 4 and 5)."""

    GLADIATORS = 0
    LEGATES = 1
    PRAETORIANS = 2
    PLEBEIANS = 3
    PATRICIANS = 4
    VESTALS = 5
    SENATORS = 6
