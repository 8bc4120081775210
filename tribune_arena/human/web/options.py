"""What the new-game form of ``tribune serve`` offers: :func:`game_options` (rule sets, player counts, victory
cards) and the named opponent levels (:data:`LEVELS`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from agents.specs import agent_names, agent_supports
from tribune_env.data import default_components
from tribune_env.engine.config import (
    DEFAULT_ROUND_LIMIT,
    AnyVictoryCard,
    GameConfig,
    RuleSet,
    required_for,
    victory_cards_of,
)
from tribune_env.engine.names import victory_card_title

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
plays in the Brutii variant), and ``zero``, which searches with the ``zero-net`` networks, wins more against three
``heuristic`` than ``zero-net`` does: docs/agents/zero.md).
A spec whose agent does not play a rule set's default game falls back to :data:`FALLBACK_LEVEL_SPEC`."""
STRENGTH: Mapping[str, Mapping[str, str]] = {
    "random": dict.fromkeys(
        ("base", "expansion", "brutii"),
        "a random legal move each time; every other level wins all its games against it",
    ),
    "greedy": dict.fromkeys(
        ("base", "expansion", "brutii"),
        "the best-looking move now; wins all its games against three random players (400 games), finishes behind "
        "heuristic at one table",
    ),
    "heuristic": {
        "base": "hand-written rules; wins all its games against three random players (400 games): the yardstick below",
        "expansion": "hand-written rules; wins all its games against three random players (400 expansion games)",
        "brutii": "hand-written rules; as the Brutii at 5 seats among heuristic families it wins 17.5% (400 games)",
    },
    "zero-net": {
        "base": "a trained network; wins 72.7% of base games against three heuristic players (parity 25%)",
        "expansion": "a trained network; wins 58.9% of expansion games against three heuristic players (parity 25%)",
    },
    "ppo-brutii": {
        "brutii": "a trained network; wins 28.0% of 5-seat Brutii games against four heuristic players (parity 20%)",
    },
    "zero": {
        "base": "searches with the trained networks; wins 83.0% of 400 base games against three heuristic players",
        "expansion": "searches with the trained networks; wins 73.5% of 400 expansion games against three heuristic "
        "players",
        "brutii": "searches with the trained networks; as a family at 5 seats it wins 38.8% of its games against "
        "heuristic opponents (200 games)",
    },
}
"""What each level's agent is and how strong it measured, per rule set (docs/agents/strength.md, zero.md and the
benchmark records; win rates against three ``heuristic`` players unless said)."""
FALLBACK_LEVEL_SPEC = "heuristic"
DEFAULT_LEVEL = "strong"
"""The level the form starts with."""


@cache
def _level_spec(rule_set: RuleSet, wanted: str) -> str:
    """``wanted`` if its agent plays ``rule_set``'s default game (:func:`agent_supports`), else the fallback."""
    return wanted if agent_supports(wanted, GameConfig.for_rules(rule_set)) is None else FALLBACK_LEVEL_SPEC


def levels(rule_set: RuleSet) -> list[dict[str, str]]:
    """The named opponent levels of ``rule_set``, weakest first, each ``{"id", "label", "spec", "agent",
    "strength"}``: the label, the agent it plays and what that agent is and how strong it measured."""
    found = []
    for level, label, specs in LEVELS:
        spec = _level_spec(rule_set, specs[rule_set.value])
        strength = STRENGTH.get(spec, {}).get(rule_set.value, "not measured in this rule set")
        found.append({"id": level, "label": label, "spec": spec, "agent": spec, "strength": strength})
    return found


def agent_label(spec: str, rules: str) -> str:
    """How the page names a bot: its level and agent (``Strong (heuristic)``) when the spec is a level's, else the
    spec as typed."""
    try:
        rule_set = RuleSet.parse(rules)
    except ValueError:
        return spec
    for level in levels(rule_set):
        if level["spec"] == spec:
            return f"{level['label']} ({spec})"
    return spec


def card_title(card: AnyVictoryCard) -> str:
    """The victory card's one name (:func:`tribune_env.engine.names.victory_card_title`, the same as the terminal,
    ``tribune log`` and ``tribune replay`` print): ``Pecunia non olet (medium game)``, ``Tribune obligatory (medium
    game)``; it holds the game's length, so the page shows it alone."""
    return victory_card_title(card)


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
                "title": card_title(card),
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
