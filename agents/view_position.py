"""The position a seat's evaluation reads, built from the native core's view: :func:`seat_position`.

:func:`agents.evaluation.evaluate` (``evaluate(state, seat)``) reads only what ``seat`` may know, plus a few hidden
values (below). On a native game the whole position costs a copy of every field (``Core.fields()``, about 20 µs, as
much as a trial move of the Python engine); the seat's view (``Core.view``, about 3 µs) holds nearly all of what the
evaluation reads. :func:`seat_position` builds from it a :class:`GameState` holding just those fields, equal to the
game's where the evaluation reads them, so that ``evaluate(seat_position(core, seat), seat)`` is exactly
``evaluate(game.position(), seat)`` (tests/agents/test_agents_native.py compares the two on every rule set).

What the view does not say, and how it is filled:

* another seat's hand: only its size is read (the public size, :func:`~tribune_env.engine.view.public_hand_size`,
  which counts its sealed Field of Mars pairs and its staged cards), except by the Curia claim, which asks whether
  an occupant of a Curia field holds a card at all: where that occupant may have sealed pairs (it stands on the Field
  of Mars too, or is the Brutii) its exact size is read from its own view, and its pairs are the difference;
* the Atrium's face-up flags: a field is shown exactly when it is face up (R1);
* the Pantheon card, read for the seat when it stands there: it has looked at it (R1); should the view still hide
  it, there is no such position (``None``);
* the agenda, read by the claims of the Brutii's played action cards (R47, R48): a position with a played card is
  not built (``None``).

Every other field is left unset, so that an evaluation reading more fails loudly (``AttributeError``) instead of
reading a wrong value. The position is for reading by the evaluation only: it is no game.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from tribune_env.data import Region
from tribune_env.engine.decisions import Phase
from tribune_env.engine.native import pending_of
from tribune_env.engine.state import GameState, PlayerState
from tribune_env.engine.tables import Tables
from tribune_env.engine.view import HIDDEN, PublicPlayer, ViewData

if TYPE_CHECKING:
    from tribune_env._core import Core

Board = tuple[tuple[tuple[int, ...], ...], ...]

VIEW_ORDER = (
    "seat", "num_players", "round", "phase", "start_seat", "turn_seat", "pending", "victory_card", "point_variant",
    "players", "hand", "controller", "sets", "first_laurel", "board", "spaces", "coin_bowl", "colosseum", "chariot",
    "proconsul", "draw_size", "discard_size", "staged", "contest", "my_pairs", "my_bid", "sacrificed", "truncated",
    "winners", "expansion", "officials", "officials_chosen", "emperor_up", "emperor_pile_size", "matrona_tiles",
    "augur_cards", "placed_this_turn", "benefit_blocked", "brutii", "brutii_turns", "brutii_revealed", "brutii_played",
    "brutii_options", "veto",
)  # fmt: skip
"""The values of ``Core.view`` in the order they are unpacked here: :class:`ViewData`'s fields (checked below)."""
PLAYER_ORDER = (
    "money", "laurels", "legions", "markers", "tile", "eternal_favor", "temporary_favor", "hand_size", "followers",
    "fulfilled_since", "patrons", "emperor_tiles",
)  # fmt: skip
"""A public player's values in the order they are unpacked here: :class:`PublicPlayer`'s fields."""

if VIEW_ORDER != tuple(f.name for f in dataclasses.fields(ViewData)) or PLAYER_ORDER != tuple(
    f.name for f in dataclasses.fields(PublicPlayer)
):  # a changed view must change the unpacking below with it
    raise ImportError("agents.view_position: ViewData or PublicPlayer changed; update VIEW_ORDER and PLAYER_ORDER")

_PHASES = sorted(Phase, key=int)
_HAND = VIEW_ORDER.index("hand")


def seat_position(core: Core, seat: int) -> GameState | None:
    """The position of the native game ``core`` as ``evaluate(position, seat)`` reads it (see the module docstring),
    or ``None`` where the view cannot give it (a Brutii action card played this round; a hidden Pantheon card the
    seat would read). ``seat`` must be a seat of the game (ValueError from the core otherwise)."""
    (
        _, _, round_, phase, start_seat, turn_seat, pending_values, victory_card, _, publics, hand, controller, sets,
        first_laurel, board, spaces, coin_bowl, colosseum, chariot, proconsul, _, _, staged, contest, my_pairs, _,
        sacrificed, truncated, winners, _, officials, _, emperor_up, _, matrona_tiles, _, _, _, brutii, _, _,
        brutii_played, brutii_options, veto,
    ) = core.view(seat)  # fmt: skip
    if brutii_played:
        return None
    config = core.config
    tables = config.tables
    if _hidden_pantheon(board, spaces, tables, seat):
        return None
    state = GameState.__new__(GameState)
    state.config = config
    state.tables = tables
    state.victory_card = victory_card
    state.round = round_
    state.phase = _PHASES[phase]
    state.start_seat = start_seat
    state.turn_seat = turn_seat
    pending = state.pending = pending_of(pending_values)
    # the view's tuples stand for the state's lists: they are read, never changed
    state.controller = controller
    state.sets = sets
    state.first_laurel = first_laurel
    state.fields = board
    state.atrium_up = [bool(field) and field[0] != HIDDEN for field in board[Region.ATRIUM]]
    state.spaces = spaces
    state.coin_bowl = coin_bowl
    state.colosseum = colosseum
    state.chariot = chariot
    state.proconsul = proconsul
    state.staged = staged
    state.contest = contest
    state.sacrificed = sacrificed
    state.truncated = truncated
    state.winners = winners
    state.officials = officials
    state.emperor_up = emperor_up
    state.matrona_tiles = matrona_tiles
    state.brutii = brutii
    state.brutii_played = brutii_played
    state.brutii_options = brutii_options
    state.veto = veto
    pairs = [(seat, a, b) for a, b in my_pairs]
    exact = _exact_hand_sizes(core, board, spaces, tables, seat, brutii)
    staging = pending.seat if pending is not None else -1
    players = []
    fulfilled = []
    for s, public in enumerate(publics):
        (
            money, laurels, legions, markers, tile, eternal_favor, temporary_favor, hand_size, followers,
            fulfilled_since, patrons, emperor_tiles,
        ) = public  # fmt: skip
        player = PlayerState.__new__(PlayerState)
        player.money = money
        player.laurels = laurels
        player.legions = legions
        player.markers = markers
        player.tile = tile
        player.eternal_favor = eternal_favor
        player.temporary_favor = temporary_favor
        player.followers = followers
        player.patrons = patrons
        player.emperor_tiles = emperor_tiles
        if s == seat:
            player.hand = hand
        else:  # its size only; its staged cards apart, as public_hand_size counts them
            size = hand_size - len(staged) if s == staging else hand_size
            held = exact.get(s)
            if held is not None:  # the rest of the public size is its sealed Field of Mars pairs
                pairs += [(s, HIDDEN, HIDDEN)] * ((size - held) // 2)
                size = held
            player.hand = [size]
        players.append(player)
        fulfilled.append(fulfilled_since)
    state.players = players
    state.pairs = pairs
    state.fulfilled_since = fulfilled
    return state


def _hidden_pantheon(board: Board, spaces: tuple[int, ...], tables: Tables, seat: int) -> bool:
    """Whether ``seat`` stands on the Pantheon while its view hides the card there (the evaluation reads it)."""
    field = board[Region.PANTHEON][0]
    return bool(field) and field[0] == HIDDEN and any(spaces[s] == seat for s in tables.region_spaces[Region.PANTHEON])


def _exact_hand_sizes(
    core: Core, board: Board, spaces: tuple[int, ...], tables: Tables, seat: int, brutii: int
) -> dict[int, int]:
    """The exact hand sizes, read from their own views, of the other seats on a Curia field with cards (the Curia
    claim asks whether they hold a card) whose public size may count sealed Field of Mars pairs: those standing on
    the Field of Mars too, and the Brutii. Nobody else lays a pair."""
    exact: dict[int, int] = {}
    curia = tables.region_spaces[Region.CURIA]
    fields = board[Region.CURIA]
    for i, space in enumerate(curia):
        occupant = spaces[space]
        if occupant < 0 or occupant == seat or not fields[i] or occupant in exact:
            continue
        if occupant == brutii or any(spaces[s] == occupant for s in tables.region_spaces[Region.FIELD_OF_MARS]):
            exact[occupant] = sum(core.view(occupant)[_HAND])
    return exact
