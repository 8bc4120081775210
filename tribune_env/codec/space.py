"""Which integer spaces an environment uses: :class:`Space`, the one place that maps a rule set to its spaces."""

from __future__ import annotations

from enum import StrEnum

from tribune_env.engine.config import RuleSet


class Space(StrEnum):
    """The action and observation spaces of the codec; the value is the space's name (``"base"``,
    ``"expansion"``), as checkpoints record it.

    ``BASE``: the spaces of ``tribune/Tribune-v0`` (docs/actions.md, docs/observation.md), for base games only.
    ``EXPANSION``: the spaces of ``tribune/TribuneExpansion-v0`` (docs/actions-expansion.md,
    docs/observation-expansion.md), one size for every rule set: expansion, Brutii and base games.
    """

    BASE = "base"
    EXPANSION = "expansion"

    @classmethod
    def for_rules(cls, rules: RuleSet | str) -> Space:
        """The spaces games of ``rules`` (a :class:`RuleSet` or its name) are played in by default: the expansion
        spaces for the expansion and the Brutii, the base spaces for the base game."""
        return cls.EXPANSION if RuleSet.parse(rules).uses_expansion else cls.BASE

    @classmethod
    def parse(cls, value: object) -> Space:
        """The space ``value`` names (a member is returned as it is); ValueError naming ``space`` otherwise (a
        boolean too: the old ``expansion`` flag of the codec is this parameter now)."""
        if isinstance(value, str):
            try:
                return cls(value)
            except ValueError:
                pass
        known = ", ".join(space.value for space in cls)
        raise ValueError(f"space: expected a Space ({known}), got {value!r:.60}")

    def serves(self, rules: RuleSet) -> bool:
        """Whether games of ``rules`` fit these spaces: the expansion spaces hold every rule set, the base spaces
        the base game only."""
        return self is Space.EXPANSION or not rules.uses_expansion
