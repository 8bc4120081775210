"""The complete, mutable state of one game and its cheap copy.

Everything a game needs to continue lives here, including the chance key that
seeds the next shuffle and the agenda of steps still to run, so a state can be
cloned or written to JSON at any decision and continue identically.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from tribune_env.data import Region
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import Pending, Phase
from tribune_env.engine.tables import Tables

NO_TILE, SCROLL, TRIBUNE = 0, 1, 2
OPTED_OUT = -2  # the Brutii's sealed chariot choice "no bid" in ``GameState.bids`` (R49); -1 is "not yet"
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
        "emperor_tiles",
        "eternal_favor",
        "followers",
        "hand",
        "laurels",
        "legions",
        "markers",
        "money",
        "pantheon_seen",
        "patrons",
        "temporary_favor",
        "tile",
    )

    def __init__(self, num_card_types: int, num_factions: int, source: PlayerState | None = None) -> None:
        if source is not None:  # a copy; compiled (mypyc) classes allow no ``__new__`` without ``__init__``
            self._copy(source)
            return
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
        self.patrons = 0  # expansion: patron tiles (R33)
        self.emperor_tiles: list[int] = []  # expansion: claimed favor of the emperor tiles, by id (R34)

    def copy(self) -> PlayerState:
        return PlayerState(0, 0, self)

    def _copy(self, source: PlayerState) -> None:
        self.money = source.money
        self.laurels = source.laurels
        self.legions = source.legions
        self.markers = source.markers[:]
        self.tile = source.tile
        self.eternal_favor = source.eternal_favor
        self.temporary_favor = source.temporary_favor
        self.hand = source.hand[:]
        self.followers = source.followers
        self.pantheon_seen = source.pantheon_seen
        self.patrons = source.patrons
        self.emperor_tiles = source.emperor_tiles[:]

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    @property
    def num_markers(self) -> int:
        return sum(self.markers)


class Copy(Enum):
    """How :meth:`GameState.clone` copies a field."""

    SHARED = "shared"  # immutable or shared on purpose: the same object
    LIST = "list"  # a flat list: a shallow copy
    NESTED = "nested"  # a list of lists: copy each inner list
    NESTED2 = "nested2"  # a list of lists of lists (the board)
    PLAYERS = "players"  # the players' holdings: copy each


class StateField(NamedTuple):
    """One field of :class:`GameState`: how ``clone`` copies it, and the JSON key that holds it (``None``: not
    written, because it is derived from another field or is a cache that is empty between steps)."""

    name: str
    copy: Copy
    json: str | None
    expansion: bool = False  # only an expansion game uses (and writes) it
    brutii: bool = False  # only a game with the Brutii uses (and writes) it


FIELDS: tuple[StateField, ...] = (
    # in the order of the document's keys
    StateField("config", Copy.SHARED, "config"),
    StateField("victory_card", Copy.SHARED, "config"),
    StateField("tables", Copy.SHARED, None),
    StateField("round", Copy.SHARED, "round"),
    StateField("phase", Copy.SHARED, "phase"),
    StateField("start_seat", Copy.SHARED, "start_seat"),
    StateField("turn_seat", Copy.SHARED, "turn_seat"),
    StateField("players", Copy.PLAYERS, "players"),
    StateField("controller", Copy.LIST, "players"),
    StateField("sets", Copy.NESTED, "players"),
    StateField("first_laurel", Copy.LIST, "first_laurels"),
    StateField("fields", Copy.NESTED2, "board"),
    StateField("atrium_up", Copy.LIST, "atrium_up"),
    StateField("spaces", Copy.LIST, "followers"),
    StateField("coin_bowl", Copy.LIST, "coin_bowl"),
    StateField("colosseum", Copy.SHARED, "colosseum"),
    StateField("chariot", Copy.SHARED, "chariot"),
    StateField("proconsul", Copy.SHARED, "proconsul"),
    StateField("draw", Copy.LIST, "draw_pile"),
    StateField("discard", Copy.LIST, "discard_pile"),
    StateField("staged", Copy.LIST, "staged"),
    StateField("contest", Copy.LIST, "contest"),
    StateField("pairs", Copy.LIST, "pairs"),
    StateField("bids", Copy.LIST, "bids"),
    StateField("sacrificed", Copy.LIST, "sacrificed"),
    StateField("pending", Copy.SHARED, "pending"),
    StateField("legal_cache", Copy.SHARED, None),
    StateField("agenda", Copy.LIST, "agenda"),
    StateField("chance", Copy.SHARED, "chance"),
    StateField("clock", Copy.SHARED, "clock"),
    StateField("touched", Copy.SHARED, None),
    StateField("fulfilled_since", Copy.LIST, "fulfilled_since"),
    StateField("winners", Copy.SHARED, "winners"),
    StateField("truncated", Copy.SHARED, "truncated"),
    StateField("officials", Copy.LIST, "officials", True),
    StateField("officials_chosen", Copy.LIST, "officials_chosen", True),
    StateField("emperor_pile", Copy.LIST, "emperor_pile", True),
    StateField("emperor_up", Copy.SHARED, "emperor_up", True),
    StateField("matrona_tiles", Copy.LIST, "matrona_tiles", True),
    StateField("augur_cards", Copy.LIST, "augur_cards", True),
    StateField("placed_this_turn", Copy.SHARED, "placed_this_turn", True),
    StateField("benefit_blocked", Copy.LIST, "benefit_blocked", True),
    StateField("brutii", Copy.SHARED, "brutii", True, True),
    StateField("brutii_turns", Copy.SHARED, "brutii", True, True),
    StateField("brutii_revealed", Copy.LIST, "brutii", True, True),
    StateField("brutii_played", Copy.LIST, "brutii", True, True),
    StateField("brutii_options", Copy.LIST, "brutii", True, True),
    StateField("veto", Copy.SHARED, "brutii", True, True),
    StateField("events", Copy.LIST, "events"),
)
"""Every field of :class:`GameState`, declared once: ``__slots__`` and ``clone()`` are derived from it, and the
document writer writes the declared keys in this order (:func:`json_keys`), each with its codec in serialize.py."""


def json_keys(expansion: bool, brutii: bool = False) -> tuple[str, ...]:
    """The keys of a state document, in order: those of the fields a base (expansion, Brutii) game uses."""
    keys: dict[str, None] = {}
    for f in FIELDS:
        if f.json is not None and (expansion or not f.expansion) and (brutii or not f.brutii):
            keys[f.json] = None
    return tuple(keys)

COPY_EXPR = {
    Copy.SHARED: "source.{0}",
    Copy.LIST: "source.{0}[:]",
    Copy.NESTED: "[x[:] for x in source.{0}]",
    Copy.NESTED2: "[[y[:] for y in x] for x in source.{0}]",
    Copy.PLAYERS: "[p.copy() for p in source.{0}]",
}
"""How each :class:`Copy` kind is written in ``GameState._copy``, one line
``self.<name> = <expr>`` per field of :data:`FIELDS` in their order (a test checks the code against it)."""


class GameState:
    """All of a game. Mutated only by the engine's step functions.

    Card locations: ``draw`` (top is the end), ``discard``, each hand, each
    displayed set ``sets[f]``, the board ``fields[region][field]``, and the
    in-progress holdings ``staged`` (cards being assembled into a take-over set
    or a Field of Mars pair), ``contest`` (the committed set of the player on
    faction space "2", R15) and ``pairs`` (sealed Field of Mars pairs, R2).
    The fields are declared in :data:`FIELDS`.
    """

    __slots__ = tuple(f.name for f in FIELDS)

    def __init__(self, config: GameConfig, source: GameState | None = None) -> None:
        """A new state at setup for ``config``; with ``source``, a copy of it (see :meth:`clone`).

        A compiled (mypyc) class has no ``__new__`` that skips ``__init__``, so ``__init__`` does the copying.
        """
        if source is not None:
            self._copy(source)
            return
        tables = config.tables
        n_factions = len(tables.faction_cards)
        self.config = config
        self.tables: Tables = tables
        self.players = [PlayerState(tables.num_card_types, n_factions) for _ in range(config.players)]
        self.draw: list[int] = []
        self.discard: list[int] = []
        fields = [0 if r.expansion else config.components.region(r).fields for r in tables.regions]
        self.fields: list[list[list[int]]] = [[[] for _ in range(n)] for n in fields]
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
        # the expansion (empty in a base game)
        extra = config.components.expansion if config.expansion else None
        n_officials = len(extra.officials) if extra is not None else 0
        self.officials = [-1] * n_officials  # holder seat per Official, -1 on the Capitoleum (R36)
        self.officials_chosen = [False] * n_officials  # chosen at the Capitoleum this round (R36)
        self.emperor_pile: list[int] = []  # face-down favor of the emperor tiles; the top is the end (R35)
        self.emperor_up = -1  # the face-up tile at the Basilica, -1 if none (claimed this round or none left)
        self.matrona_tiles: list[int] = []  # tiles received by the Matrona holder in phase 8 (R35)
        self.augur_cards: list[int] = []  # the Augur's drawn cards before his discard (R39, private)
        self.placed_this_turn = 0  # followers placed in the running phase-2 turn (Princeps, R37)
        self.benefit_blocked = [False] * n_factions  # factions named for the Tribunus Plebis this phase (R38)
        # the Brutii variant (R42-R54; unused without the Brutii)
        self.brutii = -1  # the Brutii's seat, -1 without him
        self.brutii_turns = 0  # his phase-2 turns still to come this round (R44)
        self.brutii_revealed: list[int] = []  # BrutiiDisc symbols revealed this round, in order (R44; the rest lie
        # face down in no order anybody knows, R45: the next one is drawn by chance)
        self.brutii_played: list[int] = []  # BrutiiCard ids played this round, in order (public, R45)
        self.brutii_options = [-1, -1]  # his option for "Cards" and for "Faction Take-Over" this round, -1: none (R46)
        self.veto = -1  # the region named with "Veto" this round, -1: none (R54)

    def clone(self, events: bool = True) -> GameState:
        """An independent copy (every field as :data:`FIELDS` says); events are copied as a list of shared tuples,
        or, with ``events=False`` (search, which never reads the log), left out: the copy's log is empty and the
        copying costs nothing per logged event. Either copy plays on identically."""
        if events:
            return GameState(self.config, self)
        log = self.events
        self.events = []  # copied as an empty list; the original log is put back at once
        try:
            return GameState(self.config, self)
        finally:
            self.events = log

    def _copy(self, source: GameState) -> None:
        """Fill every field from ``source``, one line per field of :data:`FIELDS` as :data:`COPY_EXPR` writes it."""
        self.config = source.config
        self.victory_card = source.victory_card
        self.tables = source.tables
        self.round = source.round
        self.phase = source.phase
        self.start_seat = source.start_seat
        self.turn_seat = source.turn_seat
        self.players = [p.copy() for p in source.players]
        self.controller = source.controller[:]
        self.sets = [x[:] for x in source.sets]
        self.first_laurel = source.first_laurel[:]
        self.fields = [[y[:] for y in x] for x in source.fields]
        self.atrium_up = source.atrium_up[:]
        self.spaces = source.spaces[:]
        self.coin_bowl = source.coin_bowl[:]
        self.colosseum = source.colosseum
        self.chariot = source.chariot
        self.proconsul = source.proconsul
        self.draw = source.draw[:]
        self.discard = source.discard[:]
        self.staged = source.staged[:]
        self.contest = source.contest[:]
        self.pairs = source.pairs[:]
        self.bids = source.bids[:]
        self.sacrificed = source.sacrificed[:]
        self.pending = source.pending
        self.legal_cache = source.legal_cache
        self.agenda = source.agenda[:]
        self.chance = source.chance
        self.clock = source.clock
        self.touched = source.touched
        self.fulfilled_since = source.fulfilled_since[:]
        self.winners = source.winners
        self.truncated = source.truncated
        self.officials = source.officials[:]
        self.officials_chosen = source.officials_chosen[:]
        self.emperor_pile = source.emperor_pile[:]
        self.emperor_up = source.emperor_up
        self.matrona_tiles = source.matrona_tiles[:]
        self.augur_cards = source.augur_cards[:]
        self.placed_this_turn = source.placed_this_turn
        self.benefit_blocked = source.benefit_blocked[:]
        self.brutii = source.brutii
        self.brutii_turns = source.brutii_turns
        self.brutii_revealed = source.brutii_revealed[:]
        self.brutii_played = source.brutii_played[:]
        self.brutii_options = source.brutii_options[:]
        self.veto = source.veto
        self.events = source.events[:]

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.GAME_OVER

    # -- small shared helpers -------------------------------------------------

    def log(self, seat: int, text: str, private_to: int = -1) -> None:
        self.events.append(Event(self.round, int(self.phase), seat, text, private_to))

    def card_counts(self) -> list[int]:
        """How many cards of each type are in all locations together (conservation check)."""
        counts = [0] * self.tables.num_card_types
        for player in self.players:
            for card, n in enumerate(player.hand):
                counts[card] += n
        piles: list[list[int]] = [self.draw, self.discard, self.staged, self.contest, self.augur_cards, *self.sets]
        piles.extend(field for region in self.fields for field in region)
        for pile in piles:
            for card in pile:
                counts[card] += 1
        for _, a, b in self.pairs:
            counts[a] += 1
            counts[b] += 1
        return counts

