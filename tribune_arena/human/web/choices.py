"""How the page of ``tribune serve`` shows a choice: the board elements that play it when clicked
(:func:`targets`) and the heading its button sits under (:func:`group`)."""

from __future__ import annotations

from collections.abc import Sequence

from tribune_env.data import Faction, Official, Region
from tribune_env.engine.actions import (
    Action,
    Bid,
    ChooseFaction,
    ChooseOfficial,
    ChooseRegion,
    ChooseTile,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.game import Game
from tribune_env.engine.tables import CardKind, SpaceKind

_NOT_FROM_HAND = {
    DecisionKind.CATACOMBS_PURCHASE: "",
    DecisionKind.TAKEOVER_PENALTY: "",
    DecisionKind.AUGUR_DISCARD: "augur",
}
"""Card decisions that do not pick from the person's hand: where their cards lie (``""``: anywhere on the board)."""


def targets(game: Game, seat: int, action: Action) -> list[str]:
    """CSS selectors of the board elements that play ``action`` when clicked, the most precise first (the page uses
    the first one that matches anything); ``[]``: a button only."""
    match action:
        case PlaceFollower(space):
            return [f'.space[data-space-id="{space}"]']
        case PickCard(card):
            tables = game.tables
            if not 0 <= card < len(tables.card_label):
                return []
            anywhere = f'.card[data-card="{tables.card_label[card]}"]'
            pending = game.pending
            where = _NOT_FROM_HAND.get(pending.kind, "hand") if pending is not None else ""
            if not where:
                return [anywhere]
            mine = f'[data-seat="{seat}"]' if where == "hand" else ""
            return [f'{anywhere}[data-where="{where}"]{mine}', anywhere]
        case ChooseFaction(faction):
            return [f'.faction[data-faction="{Faction(faction).key}"]']
        case ChooseOfficial(official):
            return [f'.official[data-official="{Official(official).key}"]']
        case ChooseTile(tile):
            return [f'.emperor-tile[data-tile="{tile}"]']
        case ChooseRegion(region):
            return [f'.region[data-region="{Region(region).key}"]']
    return []


def group(game: Game, action: Action) -> str:
    """The heading the page groups ``action``'s button under: where it acts (the kind of place, the faction of a
    card), else what it is."""
    tables = game.tables
    match action:
        case PlaceFollower(space) if 0 <= space < len(tables.spaces):
            place = tables.spaces[space].kind
            return {SpaceKind.COIN_BOWL: "The coin bowl", SpaceKind.FACTION: "Faction fields"}.get(place, "Regions")
        case PickCard(card) if 0 <= card < len(tables.card_kind):
            kind = tables.card_kind[card]
            if kind is CardKind.FACTION:
                return f"{game.config.components.factions[tables.card_faction[card]].name} cards"
            return "Slave cards" if kind is CardKind.SLAVE else "Assassin cards"
        case ChooseFaction():
            return "Factions"
        case ChooseOfficial():
            return "Officials"
        case ChooseTile():
            return "Favor of the emperor tiles"
        case ChooseRegion():
            return "Regions"
        case Decline():
            return "Pass"
    return "Choices"


def amounts(legal: Sequence[Action]) -> list[int]:
    return sorted(a.amount for a in legal if isinstance(a, Bid))
