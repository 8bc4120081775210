"""What the new-game form of ``tribune serve`` offers: :func:`game_options` (rule sets, player counts, victory
cards) and the named opponent levels (:data:`LEVELS`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from agents.specs import agent_names, agent_supports
from tribune_env.data import default_components
from tribune_env.engine.config import DEFAULT_ROUND_LIMIT, GameConfig, RuleSet, required_for, victory_cards_of

LEVELS: tuple[tuple[str, str, Mapping[str, str]], ...] = (
    ("beginner", "Beginner", {"base": "random", "expansion": "random", "brutii": "random"}),
    ("intermediate", "Intermediate", {"base": "greedy", "expansion": "greedy", "brutii": "greedy"}),
    ("strong", "Strong", {"base": "heuristic", "expansion": "heuristic", "brutii": "heuristic"}),
    ("expert", "Expert", {"base": "zero-net", "expansion": "zero-net", "brutii": "ppo-brutii"}),
    ("strongest", "Strongest", {"base": "zero", "expansion": "zero", "brutii": "zero"}),
)
"""The opponents the new-game form offers by name, weakest first: (id, label, agent spec per rule set). The order is
the measured one (docs/agents/strength.md: ``greedy`` and ``heuristic`` win every game against ``random``, ``greedy``
finishes behind ``heuristic`` at one table, the shipped networks win well above parity against three ``heuristic``
(``zero-net``, the strongest network alone in base and expansion games; ``ppo-brutii``, the network ``zero-net``
plays in the Brutii variant), and ``zero``, which searches with the ``ppo`` networks, beats ``ppo`` at one table:
docs/agents/zero.md).
A spec whose agent does not play a rule set's default game falls back to :data:`FALLBACK_LEVEL_SPEC`."""
FALLBACK_LEVEL_SPEC = "heuristic"
DEFAULT_LEVEL = "strong"
"""The level the form starts with."""


@cache
def _level_spec(rule_set: RuleSet, wanted: str) -> str:
    """``wanted`` if its agent plays ``rule_set``'s default game (:func:`agent_supports`), else the fallback."""
    return wanted if agent_supports(wanted, GameConfig.for_rules(rule_set)) is None else FALLBACK_LEVEL_SPEC


def levels(rule_set: RuleSet) -> list[dict[str, str]]:
    """The named opponent levels of ``rule_set``, weakest first, each ``{"id", "label", "spec"}``."""
    return [
        {"id": level, "label": label, "spec": _level_spec(rule_set, specs[rule_set.value])}
        for level, label, specs in LEVELS
    ]


def game_options() -> dict[str, Any]:
    """What the new-game form offers: agent names, the rule sets of the packaged components (each with its player
    counts, default player count, victory cards and named opponent levels), the default level and round limit."""
    components = default_components()
    rules: dict[str, Any] = {}
    for rule_set in RuleSet:
        try:
            counts = rule_set.player_counts(components)
        except ValueError:  # the component set lacks this rule set's tables
            continue
        brutii = rule_set.has_brutii
        cards = [
            {
                "id": card.id,
                "title": card.title,
                "length": card.length,
                "required": {str(n): required_for(card, n, brutii) for n in counts if n in card.required},
            }
            for card in victory_cards_of(components, rule_set.uses_expansion)
        ]
        rules[rule_set.value] = {
            "players": list(counts),
            "default_players": rule_set.default_players(components),
            "victory_cards": cards,
            "levels": levels(rule_set),
        }
    return {
        "agents": agent_names(),
        "rules": rules,
        "round_limit": DEFAULT_ROUND_LIMIT,
        "default_level": DEFAULT_LEVEL,
    }
