"""What one player may know (R1, R2): :class:`PlayerView`.

Hidden card identities are written as -1: other players' hands appear only as
sizes; face-down board cards appear as -1 unless this player may see them (the
Pantheon card after placing there, the Catacombs pile while choosing from it,
the Latrine and Pantheon cards once turned over); sealed choices of others
(bids, Field of Mars pairs, cards being staged) are not shown before they are
revealed. The draw and discard piles appear as sizes.

In an expansion game (R35, R36, R39) the officials and their holders, the
face-up favor of the emperor tile, the Matrona's tiles, every player's claimed
tiles and patron tiles, the factions named for the Tribunus Plebis and the
Princeps' placements are public; the emperor pile appears as its size only (its
order is hidden from everyone), and the Augur's drawn cards are shown to the
Augur only (others see one HIDDEN per card).

With the Brutii (R45) his seat, revealed discs, played cards (so also his unplayed ones), chosen options and
vetoed region are public; his face-down discs have no order anybody knows; his chariot opt-out is sealed like
a bid (``my_bid`` is ``OPTED_OUT`` to him only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tribune_env.data import Official, Region
from tribune_env.engine import rules  # noqa: F401  (the region records)
from tribune_env.engine.decisions import DecisionKind, Pending, Phase
from tribune_env.engine.registry import REGIONS
from tribune_env.engine.state import TRIBUNE, GameState

if TYPE_CHECKING:
    from tribune_env._core import Core

HIDDEN = -1
AUGUR = int(Official.AUGUR)
_R = TypeVar("_R")


@dataclass(frozen=True)
class PublicPlayer:
    """The public part of one player's holdings."""

    money: int
    laurels: int
    legions: int
    markers: tuple[bool, ...]
    tile: int
    eternal_favor: bool
    temporary_favor: bool
    hand_size: int  # as everybody sees it: see :func:`public_hand_size`
    followers: int
    fulfilled_since: int
    patrons: int = 0  # expansion: patron tiles (R33)
    emperor_tiles: tuple[int, ...] = ()  # expansion: claimed favor of the emperor tiles, by id (R35: public)


OBJECTIVE_NAMES: dict[str, str] = {
    "tribune": "tribune",
    "favor": "favor of the gods",
    "laurels": "laurels",
    "legions": "legions",
    "denarii": "denarii",
    "markers": "faction markers",
    "emperor_tiles": "emperor tiles",
    "patrons": "patron tiles",
}
"""The victory card objectives in words, by key (the keys of the card's thresholds and of :func:`objective_amounts`)."""


def objective_amounts(player: PublicPlayer) -> dict[str, int]:
    """What ``player`` holds towards each victory-card objective, by the objective's key (tribune and favor: 0 or
    1), from public information only; the terminal's words and the drawn board both read it."""
    return {
        "tribune": int(player.tile == TRIBUNE),
        "favor": int(player.eternal_favor or player.temporary_favor),
        "laurels": player.laurels,
        "legions": player.legions,
        "denarii": player.money,
        "markers": sum(player.markers),
        "emperor_tiles": len(player.emperor_tiles),
        "patrons": player.patrons,
    }


@dataclass(frozen=True)
class ViewData:
    """The fields of a :class:`PlayerView`, all computed (see :func:`view_data`)."""

    seat: int
    num_players: int
    round: int
    phase: Phase
    start_seat: int
    turn_seat: int
    pending: Pending | None
    victory_card: str
    point_variant: bool
    players: tuple[PublicPlayer, ...]
    hand: tuple[int, ...]  # counts per card type
    controller: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]
    first_laurel: tuple[bool, ...]
    board: tuple[tuple[tuple[int, ...], ...], ...]  # [region][field] -> card types, HIDDEN if face down
    spaces: tuple[int, ...]  # occupant seat per follower space, -1 if empty
    coin_bowl: tuple[int, ...]
    colosseum: int
    chariot: int
    proconsul: int
    draw_size: int
    discard_size: int
    staged: tuple[int, ...]  # own cards being assembled (take-over set or pair); others: HIDDEN per card
    contest: tuple[int, ...]  # the set committed from faction space "2", face up (R15)
    my_pairs: tuple[tuple[int, int], ...]  # own sealed Field of Mars pairs
    my_bid: int  # own sealed bid, -1 if none
    sacrificed: tuple[bool, ...]
    truncated: bool
    winners: tuple[int, ...]
    # the expansion (empty in a base game)
    expansion: bool = False
    officials: tuple[int, ...] = ()  # holder seat per Official, -1 on the Capitoleum (R36)
    officials_chosen: tuple[bool, ...] = ()  # chosen at the Capitoleum this round
    emperor_up: int = -1  # the face-up tile's id, -1 if none
    emperor_pile_size: int = 0  # the pile's order is hidden from everyone (R35)
    matrona_tiles: tuple[int, ...] = ()  # public (R35)
    augur_cards: tuple[int, ...] = ()  # the Augur's drawn cards: HIDDEN per card unless seat is the Augur (R39)
    placed_this_turn: int = 0  # followers placed in the running phase-2 turn (Princeps, R37)
    benefit_blocked: tuple[bool, ...] = ()  # factions named for the Tribunus Plebis this phase (R38)
    # the Brutii variant (R45: all public; his face-down discs lie in an order nobody knows)
    brutii: int = -1  # the Brutii's seat, -1 without him
    brutii_turns: int = 0  # his phase-2 turns still to come this round
    brutii_revealed: tuple[int, ...] = ()  # BrutiiDisc symbols revealed this round, in order
    brutii_played: tuple[int, ...] = ()  # BrutiiCard ids played this round, in order
    brutii_options: tuple[int, ...] = ()  # options of Cards and Faction Take-Over, -1: none (R46)
    veto: int = -1  # the vetoed region this round, -1: none (R54)


class PlayerView:
    """Everything ``seat`` may know. Seats are absolute; encoders rotate them.

    The fields are computed on the first read of any of them (:class:`ViewData`), so an agent that reads none pays
    almost nothing. A view from :meth:`Game.view` reads the live game: :meth:`Game.apply` gives each such view
    that is still unread a private copy of the position first (:meth:`detach`), so a view never changes after it
    was made. On the native core the view reads the core itself (``_core.Core.view``, native/src/view.cpp): no
    Python copy of the position is made, and the fields equal the Python engine's (tests/engine/test_view_native.py).
    :func:`player_view` returns a computed view.

    Raises:
        RuntimeError: on the first read, when the game changed after the view was made but not through
            :meth:`Game.apply` (engine functions run on the state, or the native core stepped, directly): the view
            cannot be computed.
    """

    __slots__ = ("_clock", "_core", "_data", "_seat", "_state")

    def __init__(self, state: GameState | ViewData, seat: int) -> None:
        """The view of ``seat`` in ``state``, or, given its computed fields (a :class:`ViewData`), that view."""
        self._seat = seat
        if isinstance(state, ViewData):  # computed already (unpickling, copying)
            if state.seat != seat:
                raise ValueError(f"seat {seat} given with the fields of seat {state.seat}'s view")
            self._state: GameState | None = None
            self._core: Core | None = None
            self._clock = -1
            self._data: ViewData | None = state
            return
        if not 0 <= seat < state.num_players:
            raise ValueError(f"seat must be in 0..{state.num_players - 1}, got {seat}")
        self._state = state
        self._core = None
        self._clock = state.clock
        self._data = None

    @classmethod
    def of_core(cls, core: Core, seat: int) -> PlayerView:
        """The view of ``seat`` in the native game ``core``, read from the core when first read (nothing is copied
        now). ValueError for a seat that is not at the game."""
        players = core.config.players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1}, got {seat}")
        view = cls.__new__(cls)
        view._seat = seat
        view._state = None
        view._core = core
        view._clock = core.clock
        view._data = None
        return view

    def _get(self) -> ViewData:
        data = self._data
        if data is None:
            core = self._core
            if core is not None:
                if core.clock != self._clock:
                    raise RuntimeError("this view's game changed outside Game.apply() before the view was read")
                data = self._data = native_view_data(core, self._seat)
                self._core = None
                return data
            state = self._state
            assert state is not None
            if state.clock != self._clock:
                raise RuntimeError("this view's game changed outside Game.apply() before the view was read")
            data = self._data = view_data(state, self._seat)
            self._state = None
        return data

    def detach(self) -> None:
        """Keep a private copy of the position unless the fields are computed already: the live game may change
        (a copy of the state, or of the native game without its log)."""
        if self._data is not None:
            return
        if self._state is not None:
            self._state = self._state.clone(events=False)
        elif self._core is not None:
            self._core = self._core.clone(False)

    @property
    def data(self) -> ViewData:
        """Every field, computed."""
        return self._get()

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def num_players(self) -> int:
        return self._get().num_players

    @property
    def round(self) -> int:
        return self._get().round

    @property
    def phase(self) -> Phase:
        return self._get().phase

    @property
    def start_seat(self) -> int:
        return self._get().start_seat

    @property
    def turn_seat(self) -> int:
        return self._get().turn_seat

    @property
    def pending(self) -> Pending | None:
        return self._get().pending

    @property
    def victory_card(self) -> str:
        return self._get().victory_card

    @property
    def point_variant(self) -> bool:
        return self._get().point_variant

    @property
    def players(self) -> tuple[PublicPlayer, ...]:
        return self._get().players

    @property
    def hand(self) -> tuple[int, ...]:
        return self._get().hand

    @property
    def controller(self) -> tuple[int, ...]:
        return self._get().controller

    @property
    def sets(self) -> tuple[tuple[int, ...], ...]:
        return self._get().sets

    @property
    def first_laurel(self) -> tuple[bool, ...]:
        return self._get().first_laurel

    @property
    def board(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        return self._get().board

    @property
    def spaces(self) -> tuple[int, ...]:
        return self._get().spaces

    @property
    def coin_bowl(self) -> tuple[int, ...]:
        return self._get().coin_bowl

    @property
    def colosseum(self) -> int:
        return self._get().colosseum

    @property
    def chariot(self) -> int:
        return self._get().chariot

    @property
    def proconsul(self) -> int:
        return self._get().proconsul

    @property
    def draw_size(self) -> int:
        return self._get().draw_size

    @property
    def discard_size(self) -> int:
        return self._get().discard_size

    @property
    def staged(self) -> tuple[int, ...]:
        return self._get().staged

    @property
    def contest(self) -> tuple[int, ...]:
        return self._get().contest

    @property
    def my_pairs(self) -> tuple[tuple[int, int], ...]:
        return self._get().my_pairs

    @property
    def my_bid(self) -> int:
        return self._get().my_bid

    @property
    def sacrificed(self) -> tuple[bool, ...]:
        return self._get().sacrificed

    @property
    def truncated(self) -> bool:
        return self._get().truncated

    @property
    def winners(self) -> tuple[int, ...]:
        return self._get().winners

    @property
    def expansion(self) -> bool:
        return self._get().expansion

    @property
    def officials(self) -> tuple[int, ...]:
        return self._get().officials

    @property
    def officials_chosen(self) -> tuple[bool, ...]:
        return self._get().officials_chosen

    @property
    def emperor_up(self) -> int:
        return self._get().emperor_up

    @property
    def emperor_pile_size(self) -> int:
        return self._get().emperor_pile_size

    @property
    def matrona_tiles(self) -> tuple[int, ...]:
        return self._get().matrona_tiles

    @property
    def augur_cards(self) -> tuple[int, ...]:
        return self._get().augur_cards

    @property
    def placed_this_turn(self) -> int:
        return self._get().placed_this_turn

    @property
    def benefit_blocked(self) -> tuple[bool, ...]:
        return self._get().benefit_blocked

    @property
    def brutii(self) -> int:
        return self._get().brutii

    @property
    def brutii_turns(self) -> int:
        return self._get().brutii_turns

    @property
    def brutii_revealed(self) -> tuple[int, ...]:
        return self._get().brutii_revealed

    @property
    def brutii_played(self) -> tuple[int, ...]:
        return self._get().brutii_played

    @property
    def brutii_options(self) -> tuple[int, ...]:
        return self._get().brutii_options

    @property
    def veto(self) -> int:
        return self._get().veto

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self._get() == other._get()

    def __hash__(self) -> int:
        return hash(self._get())

    def __repr__(self) -> str:
        return repr(self._get()).replace("ViewData(", "PlayerView(", 1)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy as the computed view (a copy never reads the live state)."""
        return (PlayerView, (self._get(), self._seat))


def face_up(region: Region) -> bool:
    """Whether everybody sees the cards of ``region`` all the time (R1)."""
    return REGIONS[region].face_up


def field_visible(state: GameState, seat: int, region: Region, i: int) -> bool:
    """Whether ``seat`` may see the cards of field ``i`` of ``region`` now (R1): the region record decides."""
    rule = REGIONS[region]
    return rule.face_up or rule.visible(state, seat, i)


def _visible_field(state: GameState, seat: int, region: Region, i: int, cards: list[int]) -> tuple[int, ...]:
    return tuple(cards) if field_visible(state, seat, region, i) else (HIDDEN,) * len(cards)


def public_hand_size(state: GameState, seat: int) -> int:
    """Hand size as everybody sees it: cards being staged and sealed, unrevealed Field of Mars pairs still
    count as held, so a simultaneous choice shows nothing before all have chosen (R1, R2)."""
    size = state.players[seat].hand_size
    if state.pairs:
        size += 2 * sum(1 for s, _, _ in state.pairs if s == seat)
    pending = state.pending
    if pending is not None and pending.seat == seat:
        size += len(state.staged)
    return size


def native_view_data(core: Core, seat: int) -> ViewData:
    """The fields of the view of ``seat`` in the native game ``core``, as :func:`view_data` computes them on the
    Python engine: the core writes them (``Core.view``, in :class:`ViewData`'s order), this turns its plain values
    into the view's records (``phase``, ``pending`` and the players; the immutable ones are shared)."""
    values = core.view(seat)  # a new list
    values[3] = _PHASES[values[3]]
    pending = values[6]
    if pending is not None:
        values[6] = _shared(_PENDINGS, pending, _pending)
    values[9] = tuple([_shared(_PLAYERS, p, _public_player) for p in values[9]])
    return _record(ViewData, _VIEW_FIELDS, values)


_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(ViewData))
_PLAYER_FIELDS = tuple(f.name for f in dataclasses.fields(PublicPlayer))
_PHASES = sorted(Phase, key=int)
_PENDINGS: dict[tuple[Any, ...], Pending] = {}
_PLAYERS: dict[tuple[Any, ...], PublicPlayer] = {}
_SHARED_LIMIT = 50_000  # records kept per table (cleared when full): players' holdings are open-ended


def _pending(values: tuple[Any, ...]) -> Pending:
    return Pending(DecisionKind(values[0]), *values[1:])


def _public_player(values: tuple[Any, ...]) -> PublicPlayer:
    return _record(PublicPlayer, _PLAYER_FIELDS, values)


def _shared(table: dict[tuple[Any, ...], _R], values: tuple[Any, ...], make: Callable[[tuple[Any, ...]], _R]) -> _R:
    """The record of ``values``, made once and shared (the records are frozen: equal values, equal records; most of
    a view's players are unchanged from one decision to the next)."""
    record = table.get(values)
    if record is None:
        if len(table) >= _SHARED_LIMIT:
            table.clear()
        record = table[values] = make(values)
    return record


def _record(cls: type[_R], names: tuple[str, ...], values: Iterable[object]) -> _R:
    """An instance of the frozen dataclass ``cls`` holding ``values`` in the order of its fields ``names`` (as many),
    made without its generated ``__init__`` (which sets each field through ``object.__setattr__``, a third of a
    native view's cost). Only for the records here: they have no ``__post_init__`` and no checks to skip, and the
    result is equal to (and hashes as) ``cls(*values)`` (tests/engine/test_view_native.py)."""
    record = object.__new__(cls)
    record.__dict__.update(zip(names, values, strict=True))
    return record


def player_view(state: GameState, seat: int) -> PlayerView:
    """The view of ``seat``, computed now; it contains nothing that seat may not know."""
    view = PlayerView(state, seat)
    view.data  # noqa: B018 (computes the fields)
    return view


def view_data(state: GameState, seat: int) -> ViewData:
    """The fields of the view of ``seat``."""
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat must be in 0..{state.num_players - 1}, got {seat}")
    players = tuple(
        PublicPlayer(
            p.money,
            p.laurels,
            p.legions,
            tuple(p.markers),
            p.tile,
            p.eternal_favor,
            p.temporary_favor,
            public_hand_size(state, s),
            p.followers,
            state.fulfilled_since[s],
            p.patrons,
            tuple(p.emperor_tiles),
        )
        for s, p in enumerate(state.players)
    )
    board = tuple(
        tuple(_visible_field(state, seat, Region(r), i, field) for i, field in enumerate(fields))
        for r, fields in enumerate(state.fields)
    )
    pending = state.pending
    own_staging = pending is not None and pending.seat == seat
    return ViewData(
        seat=seat,
        num_players=state.num_players,
        round=state.round,
        phase=state.phase,
        start_seat=state.start_seat,
        turn_seat=state.turn_seat,
        pending=pending,
        victory_card=state.victory_card,
        point_variant=state.config.point_variant,
        players=players,
        hand=tuple(state.players[seat].hand),
        controller=tuple(state.controller),
        sets=tuple(tuple(s) for s in state.sets),
        first_laurel=tuple(state.first_laurel),
        board=board,
        spaces=tuple(state.spaces),
        coin_bowl=tuple(state.coin_bowl),
        colosseum=state.colosseum,
        chariot=state.chariot,
        proconsul=state.proconsul,
        draw_size=len(state.draw),
        discard_size=len(state.discard),
        staged=tuple(state.staged) if own_staging else (HIDDEN,) * len(state.staged),
        contest=tuple(state.contest),
        my_pairs=tuple((a, b) for s, a, b in state.pairs if s == seat),
        my_bid=state.bids[seat],
        sacrificed=tuple(state.sacrificed),
        truncated=state.truncated,
        winners=state.winners,
        **_expansion_view(state, seat),
    )


def _expansion_view(state: GameState, seat: int) -> dict[str, Any]:
    """The expansion fields of the view (R35-R39); nothing in a base game."""
    if not state.config.expansion:
        return {}
    augur = state.officials[AUGUR]
    return {
        "expansion": True,
        "officials": tuple(state.officials),
        "officials_chosen": tuple(state.officials_chosen),
        "emperor_up": state.emperor_up,
        "emperor_pile_size": len(state.emperor_pile),
        "matrona_tiles": tuple(state.matrona_tiles),
        "augur_cards": tuple(state.augur_cards) if augur == seat else (HIDDEN,) * len(state.augur_cards),
        "placed_this_turn": state.placed_this_turn,
        "benefit_blocked": tuple(state.benefit_blocked),
        "brutii": state.brutii,
        "brutii_turns": state.brutii_turns,
        "brutii_revealed": tuple(state.brutii_revealed),
        "brutii_played": tuple(state.brutii_played),
        "brutii_options": tuple(state.brutii_options),
        "veto": state.veto,
    }
