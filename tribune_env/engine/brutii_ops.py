"""Small queries on the Brutii's state, shared by the phase modules (R42-R54).

The Brutii acts at a region through an action card, after every follower there (R47); such a decision is
asked with ``pending.index == BRUTII_SLOT`` (he stands on no follower space).
"""

from __future__ import annotations

from tribune_env.data import BrutiiCard, BrutiiSpec, Region
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.state import GameState, Task

BRUTII_SLOT = -1
"""``pending.index`` of a region decision that the Brutii takes through an action card (R47)."""

CARDS_OPTION, TAKEOVER_OPTION = 0, 1
"""Positions in ``GameState.brutii_options``: the options of "Cards" and of "Faction Take-Over" (R46)."""

OPTION_OF: dict[BrutiiCard, int] = {BrutiiCard.CARDS: CARDS_OPTION, BrutiiCard.FACTION_TAKEOVER: TAKEOVER_OPTION}
"""The cards whose option the Brutii chooses at the start of a phase, and where it is kept (R46)."""

OPTION_PHASE: dict[BrutiiCard, Phase] = {
    BrutiiCard.CARDS: Phase.REGION_EVALUATION,
    BrutiiCard.FACTION_TAKEOVER: Phase.TAKEOVERS,
}
"""The phase at whose start the Brutii chooses the option of each such card (R46)."""

REGION_CARDS: dict[Region, tuple[BrutiiCard, int]] = {
    Region.FORUM: (BrutiiCard.CARDS, 0),
    Region.LATRINE: (BrutiiCard.DENARII, -1),
    Region.CURIA: (BrutiiCard.CARDS, 0),
    Region.CATACOMBS: (BrutiiCard.CARDS, 1),
    Region.PANTHEON: (BrutiiCard.ETERNAL_FAVOR, -1),
    Region.FIELD_OF_MARS: (BrutiiCard.LAURELS, -1),
    Region.REFUGIUM: (BrutiiCard.PATRON, -1),
    Region.BASILICA: (BrutiiCard.FAVOR_OF_THE_EMPEROR, -1),
    Region.CAPITOLEUM: (BrutiiCard.OFFICIAL, -1),
}
"""Where the Brutii acts after the occupants (R47): the card that lets him, and the option it needs (-1: any)."""

AS_OCCUPANT = frozenset({Region.PANTHEON, Region.REFUGIUM, Region.BASILICA, Region.CAPITOLEUM})
"""Where the card lets him act like an occupant (R47, E96, E99-E101): with his own proconsul on a space there he
already acts as one, and the card adds no second turn."""


def brutii_spec(state: GameState) -> BrutiiSpec:
    spec = state.config.components.expansion
    assert spec is not None and spec.brutii is not None  # GameConfig(brutii=True) checks it
    return spec.brutii


def is_brutii(state: GameState, seat: int) -> bool:
    return seat >= 0 and seat == state.brutii


def played(state: GameState, card: BrutiiCard) -> bool:
    """Whether the Brutii has played ``card`` this round (always false without him)."""
    return state.brutii >= 0 and int(card) in state.brutii_played


def option(state: GameState, card: BrutiiCard) -> int:
    """The option chosen for ``card`` this round (0 or 1), or -1 (not played, or not chosen yet)."""
    return state.brutii_options[OPTION_OF[card]] if played(state, card) else -1


def acts_at(state: GameState, region: Region) -> bool:
    """Whether the Brutii's played cards let him act at ``region`` after its occupants (R47)."""
    rule = REGION_CARDS.get(region)
    if rule is None or state.veto == int(region):
        return False
    card, needed = rule
    if not played(state, card) or (region in AS_OCCUPANT and _stands_at(state, region)):
        return False
    return needed < 0 or option(state, card) == needed


def _stands_at(state: GameState, region: Region) -> bool:
    """Whether the Brutii's proconsul is on a follower space of ``region``."""
    return any(state.spaces[s] == state.brutii for s in state.tables.region_spaces[region])


def brutii_tail(state: GameState, region: Region) -> list[Task]:
    """The step by which the Brutii acts at ``region`` after its occupants, if his cards let him (R47)."""
    return [("brutii_at", int(region))] if acts_at(state, region) else []


def by_card(state: GameState, pending: Pending) -> bool:
    """Whether ``pending`` is the Brutii's and off the follower spaces (:data:`BRUTII_SLOT`): at a region, a decision
    he takes through an action card (the region's check also asks for the card, R47)."""
    return pending.index == BRUTII_SLOT and is_brutii(state, pending.seat)


THROUGH_A_CARD = frozenset(
    {
        DecisionKind.PANTHEON_SACRIFICE,
        DecisionKind.FIELD_OF_MARS_PAIR,
        DecisionKind.REFUGIUM_OPTION,
        DecisionKind.REFUGIUM_PATRON,
        DecisionKind.REFUGIUM_PAIRS,
        DecisionKind.BASILICA_CLAIM,
        DecisionKind.OFFICIAL_CHOICE,
    }
)
"""The existing decision kinds the Brutii answers at a location through an action card (R47)."""


def through_a_card(state: GameState, pending: Pending) -> bool:
    """Whether ``pending`` is the Brutii acting at a location through an action card (R47)."""
    return pending.kind in THROUGH_A_CARD and by_card(state, pending)
