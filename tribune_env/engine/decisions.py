"""The single answer to "who decides what now": :class:`Pending`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Phase(IntEnum):
    SETUP = 0
    CARD_PLACEMENT = 1
    FOLLOWER_PLACEMENT = 2
    REGION_EVALUATION = 3
    TAKEOVERS = 4
    FACTION_BENEFITS = 5
    CHARIOT_AUCTION = 6
    GAME_OVER = 7
    EXPANSION_EVALUATION = 8  # expansion phase 6: regions IX..XI
    PREPARATION = 9  # expansion phase 8: next-round preparation

    @property
    def expansion(self) -> bool:
        """Whether only an expansion game has this phase."""
        return self >= Phase.EXPANSION_EVALUATION


BASE_PHASES: tuple[Phase, ...] = tuple(p for p in Phase if not p.expansion)
"""The phases of a base game (``int(phase)`` runs 0..len-1: the base observation's one-hot)."""


class DecisionKind(IntEnum):
    """Every kind of decision a player can face."""

    SETUP_DISCARD = 0
    PLACE_FOLLOWER = 1
    LATRINE_CHOICE = 2
    CURIA_DISCARD = 3
    ATRIUM_BID = 4
    CATACOMBS_PURCHASE = 5
    PANTHEON_SACRIFICE = 6
    FIELD_OF_MARS_PAIR = 7
    TAKEOVER_SET = 8
    TAKEOVER_PENALTY = 9
    ASSASSIN_TARGET = 10
    TIGELLINUS_DISCARD = 11
    AGRIPPA_CHOICE = 12
    CATO_MARKER = 13
    BENEFIT_OPTION = 14
    LEGION_PURCHASE = 15
    CHARIOT_BID = 16
    CHARIOT_PLACEMENT = 17
    CESURA_DISCARD = 18
    # the expansion (E1-E75)
    REFUGIUM_OPTION = 19  # R33: patron, pairs or nothing
    REFUGIUM_PATRON = 20  # R33: stage the slaves for a patron tile
    REFUGIUM_PAIRS = 21  # R33: stage pairs of slaves
    BASILICA_CLAIM = 22  # R34: claim an emperor tile or decline
    OFFICIAL_CHOICE = 23  # R36: choose an official or decline
    TRIBUNUS_PLEBIS = 24  # R38: name two controlled factions (one at a time) or decline
    AUGUR_DISCARD = 25  # R39: discard one of the drawn cards
    # the Brutii variant (E76-E107)
    BRUTII_CARD = 26  # R44: the Brutii chooses an unplayed action card (arrow disc)
    BRUTII_CARDS_OPTION = 27  # R46: option 1 or 2 of "Cards", at the start of phase 3
    BRUTII_TAKEOVER_OPTION = 28  # R46, R48: option 1 or 2 of "Faction Take-Over", at the start of phase 4
    BRUTII_VETO = 29  # R54: name the vetoed region
    BRUTII_SLAVES = 30  # R52: lay cards from the hand on a field to take its slave, one card at a time
    BRUTII_LEGION = 31  # R51: buy a legion, or not

    @property
    def expansion(self) -> bool:
        """Whether only an expansion game has decisions of this kind."""
        return self >= DecisionKind.REFUGIUM_OPTION

    @property
    def brutii(self) -> bool:
        """Whether only the Brutii, in a game with him, faces decisions of this kind."""
        return self >= DecisionKind.BRUTII_CARD

    @property
    def key(self) -> str:
        return self.name.lower()


class TakeoverRole(IntEnum):
    """Context of a TAKEOVER_SET decision (R15)."""

    ALONE = 0  # the only attempt on the faction (or "1" after "2" declined)
    SECOND_FIRST = 1  # the player on space "2", who acts first
    FIRST_OVER_SECOND = 2  # the player on "1", answering a sufficient set from "2"


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the game waits for.

    Attributes:
        kind: what is decided.
        seat: the absolute seat deciding.
        faction: the faction concerned (take-over, benefit, penalty), or -1.
        index: a kind-specific position: the card field (Curia), the follower
            space slot (Atrium, Catacombs, Pantheon, Field of Mars, expansion
            regions; -1 for the Brutii acting there through an action card),
            the :class:`TakeoverRole` (take-over sets), or -1.
    """

    kind: DecisionKind
    seat: int
    faction: int = -1
    index: int = -1


BASE_DECISION_KINDS: tuple[DecisionKind, ...] = tuple(k for k in DecisionKind if not k.expansion)
"""The decision kinds of a base game (``int(kind)`` runs 0..len-1: the base observation's one-hot)."""

FAMILY_DECISION_KINDS: tuple[DecisionKind, ...] = tuple(k for k in DecisionKind if not k.brutii)
"""The decision kinds of an expansion game without the Brutii (the Brutii also faces many of them)."""

BRUTII_DECISION_KINDS: tuple[DecisionKind, ...] = tuple(k for k in DecisionKind if k.brutii)
"""The decision kinds only the Brutii faces."""
