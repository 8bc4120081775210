"""The complete, mutable state of one game and its cheap copy.

Everything a game needs to continue lives here, including the chance key that
seeds the next shuffle and the agenda of steps still to run, so a state can be
cloned or written to JSON at any decision and continue identically.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tribune_env.data import Region
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import Pending, Phase
from tribune_env.engine.tables import Tables, tables_for

NO_TILE, SCROLL, TRIBUNE = 0, 1, 2
TILE_NAMES = ("none", "scroll", "tribune")
Task = tuple[str, *tuple[int, ...]]  # (step name, integer arguments...)


class Event(NamedTuple):
    """One line of the game log. ``private_to`` is -1 for public events, else the only seat that may read it."""

    round: int
    phase: int
    seat: int
    text: str
    private_to: int = -1


class PlayerState:
    """One player's holdings. ``hand`` counts cards per card type."""

    __slots__ = (
        "eternal_favor",
        "followers",
        "hand",
        "laurels",
        "legions",
        "markers",
        "money",
        "pantheon_seen",
        "temporary_favor",
        "tile",
    )

    def __init__(self, num_card_types: int, num_factions: int) -> None:
        self.money = 0
        self.laurels = 0
        self.legions = 0
        self.markers = [False] * num_factions
        self.tile = NO_TILE
        self.eternal_favor = False
        self.temporary_favor = False
        self.hand = [0] * num_card_types
        self.followers = 0  # followers still to place in phase 2
        self.pantheon_seen = False

    def copy(self) -> PlayerState:
        other = PlayerState.__new__(PlayerState)
        other.money = self.money
        other.laurels = self.laurels
        other.legions = self.legions
        other.markers = self.markers[:]
        other.tile = self.tile
        other.eternal_favor = self.eternal_favor
        other.temporary_favor = self.temporary_favor
        other.hand = self.hand[:]
        other.followers = self.followers
        other.pantheon_seen = self.pantheon_seen
        return other

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    @property
    def num_markers(self) -> int:
        return sum(self.markers)


class GameState:
    """All of a game. Mutated only by the engine's step functions.

    Card locations: ``draw`` (top is the end), ``discard``, each hand, each
    displayed set ``sets[f]``, the board ``fields[region][field]``, and the
    in-progress holdings ``staged`` (cards being assembled into a take-over set
    or a Field of Mars pair), ``contest`` (the committed set of the player on
    faction space "2", R15) and ``pairs`` (sealed Field of Mars pairs, R2).
    """

    __slots__ = (
        "agenda",
        "atrium_up",
        "bids",
        "chance",
        "chariot",
        "clock",
        "coin_bowl",
        "colosseum",
        "config",
        "contest",
        "controller",
        "discard",
        "draw",
        "events",
        "fields",
        "first_laurel",
        "fulfilled_since",
        "legal_cache",
        "pairs",
        "pending",
        "phase",
        "players",
        "proconsul",
        "round",
        "sacrificed",
        "sets",
        "spaces",
        "staged",
        "start_seat",
        "tables",
        "touched",
        "truncated",
        "turn_seat",
        "victory_card",
        "winners",
    )

    def __init__(self, config: GameConfig) -> None:
        tables = tables_for(config.components)
        n_factions = len(tables.faction_cards)
        self.config = config
        self.tables: Tables = tables
        self.players = [PlayerState(tables.num_card_types, n_factions) for _ in range(config.players)]
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.fields: list[list[list[int]]] = [[[] for _ in range(spec.fields)] for spec in config.components.regions]
        self.atrium_up = [False] * len(self.fields[Region.ATRIUM])
        self.spaces = [-1] * len(tables.spaces)
        self.coin_bowl: list[int] = []
        self.colosseum = 0
        self.controller = [-1] * n_factions
        self.sets: list[list[int]] = [[] for _ in range(n_factions)]
        self.first_laurel = [True] * n_factions
        self.chariot = -1
        self.proconsul = -1
        self.staged: list[int] = []
        self.contest: list[int] = []
        self.pairs: list[tuple[int, int, int]] = []  # (seat, card, card)
        self.bids = [-1] * config.players
        self.sacrificed = [False] * config.players
        self.round = 0
        self.phase = Phase.SETUP
        self.start_seat = 0
        self.turn_seat = 0
        self.victory_card = ""
        self.pending: Pending | None = None
        self.legal_cache: tuple[Pending, list[Any]] | None = None  # legal choices of ``pending``, computed once
        self.agenda: list[Task] = []
        self.chance = 0
        self.clock = 0
        self.touched = 0  # bit per seat whose holdings changed in the running step; 0 between steps
        self.fulfilled_since = [-1] * config.players
        self.winners: tuple[int, ...] = ()
        self.truncated = False
        self.events: list[Event] = []

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def clone(self) -> GameState:
        """An independent copy; the event log is shared until either copy logs again."""
        other = GameState.__new__(GameState)
        other.config = self.config
        other.tables = self.tables
        other.players = [p.copy() for p in self.players]
        other.draw = self.draw[:]
        other.discard = self.discard[:]
        other.fields = [[f[:] for f in region] for region in self.fields]
        other.atrium_up = self.atrium_up[:]
        other.spaces = self.spaces[:]
        other.coin_bowl = self.coin_bowl[:]
        other.colosseum = self.colosseum
        other.controller = self.controller[:]
        other.sets = [s[:] for s in self.sets]
        other.first_laurel = self.first_laurel[:]
        other.chariot = self.chariot
        other.proconsul = self.proconsul
        other.staged = self.staged[:]
        other.contest = self.contest[:]
        other.pairs = self.pairs[:]
        other.bids = self.bids[:]
        other.sacrificed = self.sacrificed[:]
        other.round = self.round
        other.phase = self.phase
        other.start_seat = self.start_seat
        other.turn_seat = self.turn_seat
        other.victory_card = self.victory_card
        other.pending = self.pending
        other.legal_cache = self.legal_cache
        other.agenda = self.agenda[:]
        other.chance = self.chance
        other.clock = self.clock
        other.touched = self.touched
        other.fulfilled_since = self.fulfilled_since[:]
        other.winners = self.winners
        other.truncated = self.truncated
        other.events = self.events[:]
        return other

    # -- small shared helpers -------------------------------------------------

    def log(self, seat: int, text: str, private_to: int = -1) -> None:
        self.events.append(Event(self.round, int(self.phase), seat, text, private_to))

    def card_counts(self) -> list[int]:
        """How many cards of each type are in all locations together (conservation check)."""
        counts = [0] * self.tables.num_card_types
        for player in self.players:
            for card, n in enumerate(player.hand):
                counts[card] += n
        piles: list[list[int]] = [self.draw, self.discard, self.staged, self.contest, *self.sets]
        piles.extend(field for region in self.fields for field in region)
        for pile in piles:
            for card in pile:
                counts[card] += 1
        for _, a, b in self.pairs:
            counts[a] += 1
            counts[b] += 1
        return counts
