"""``random``: uniform over the legal choices, from the agent's seeded generator.

Spec parameters: none.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.base import Agent, InfoSet
from agents.specs import no_more, register_agent
from tribune_env.engine.actions import Action
from tribune_env.engine.config import RuleSet
from tribune_env.engine.view import PlayerView


class RandomAgent(Agent):
    """Picks each legal choice with equal probability."""

    name = "random"
    rule_sets = frozenset(RuleSet)  # any legal choice is a move of every rule set

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        return legal[self.rng.randrange(len(legal))]


def _make(params: dict[str, str], seed: int | None) -> Agent:
    no_more("random", params)
    return RandomAgent(seed)


register_agent("random", _make)
