"""Typed actions: the choices a player makes at a pending decision.

Integers appear here only as payloads with a rules meaning (a card type, a
follower space, an amount of denarii, a seat). The integer action space of the
RL environments is a separate codec built on top of these types.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache


@dataclass(frozen=True, slots=True)
class PlaceFollower:
    """Phase 2: put one follower on a follower space (id from the space table)."""

    space: int


@dataclass(frozen=True, slots=True)
class PickCard:
    """Choose one card (by card type) from the hand, a pile or a set, depending on the decision."""

    card: int


@dataclass(frozen=True, slots=True)
class Commit:
    """Finish a multi-step choice (play the staged take-over set) or accept an offer (buy the legion)."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline an optional choice (no take-over, no purchase, no sacrifice, chariot off the board, ...)."""


@dataclass(frozen=True, slots=True)
class Bid:
    """A sealed bid in denarii (Atrium Auctionorum or chariot auction)."""

    amount: int


@dataclass(frozen=True, slots=True)
class ChooseOption:
    """Pick option 0 or 1 of a two-option choice (faction benefit, Latrine, Agrippa)."""

    option: int


@dataclass(frozen=True, slots=True)
class ChooseFaction:
    """Name a faction (Cato's marker, where to put the chariot)."""

    faction: int


@dataclass(frozen=True, slots=True)
class Assassinate:
    """Send the assassin against the displayed set of ``faction`` controlled by absolute ``seat``."""

    seat: int
    faction: int


@dataclass(frozen=True, slots=True)
class ChooseTile:
    """Expansion: claim the favor of the emperor tile ``tile`` (its id) at the Basilica (R34)."""

    tile: int


@dataclass(frozen=True, slots=True)
class ChooseOfficial:
    """Expansion: choose the official ``official`` (an :class:`~tribune_env.data.Official`) at the Capitoleum."""

    official: int


@dataclass(frozen=True, slots=True)
class ChooseActionCard:
    """Brutii: play the action card ``card`` (a :class:`~tribune_env.data.BrutiiCard`) face up (R44)."""

    card: int


@dataclass(frozen=True, slots=True)
class ChooseRegion:
    """Brutii: name the region ``region`` (a :class:`~tribune_env.data.Region`, I-XI) with "Veto" (R54)."""

    region: int


Action = (
    PlaceFollower | PickCard | Commit | Decline | Bid | ChooseOption | ChooseFaction | Assassinate | ChooseTile
    | ChooseOfficial | ChooseActionCard | ChooseRegion
)

COMMIT = Commit()
DECLINE = Decline()


@cache
def place_follower(space: int) -> PlaceFollower:
    """Shared instance of ``PlaceFollower(space)`` (actions are immutable)."""
    return PlaceFollower(space)


@cache
def pick_card(card: int) -> PickCard:
    """Shared instance of ``PickCard(card)``."""
    return PickCard(card)


@lru_cache(maxsize=4096)
def bid(amount: int) -> Bid:
    """Shared instance of ``Bid(amount)`` (bounded: money has no printed limit)."""
    return Bid(amount)


OPTIONS = 2
"""Number of options of a two-option choice (:class:`ChooseOption` takes 0 or 1)."""


@cache
def choose_option(option: int) -> ChooseOption:
    """Shared instance of ``ChooseOption(option)``."""
    return ChooseOption(option)


@cache
def choose_faction(faction: int) -> ChooseFaction:
    """Shared instance of ``ChooseFaction(faction)``."""
    return ChooseFaction(faction)


@cache
def choose_tile(tile: int) -> ChooseTile:
    """Shared instance of ``ChooseTile(tile)``."""
    return ChooseTile(tile)


@cache
def choose_official(official: int) -> ChooseOfficial:
    """Shared instance of ``ChooseOfficial(official)``."""
    return ChooseOfficial(official)


@cache
def choose_action_card(card: int) -> ChooseActionCard:
    """Shared instance of ``ChooseActionCard(card)``."""
    return ChooseActionCard(card)


@cache
def choose_region(region: int) -> ChooseRegion:
    """Shared instance of ``ChooseRegion(region)``."""
    return ChooseRegion(region)
