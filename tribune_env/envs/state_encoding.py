"""The global state vector of the AEC environments (``state()``, ``state_space``): PRIVILEGED information.

PettingZoo's optional ``state()`` gives one vector of the whole game for *centralised* training: a critic (value
function) that sees everything while the actors see only their own observations (MAPPO and other centralised-
training, decentralised-execution methods). It holds every player's private information and the hidden order of the
draw pile, so it must never be given to a policy acting at the table: a policy that reads it plays with knowledge no
player has, and cannot be used in a real game, a tournament or ``tribune play``.

Layout (all float32, every entry inside ``[0, high]``, see :attr:`StateEncoder.high`):

* ``seats``: for every absolute seat ``0 .. max_players - 1``, that seat's own observation vector (the observation
  encoder's output for that seat, ``docs/observation.md``), ``max_players * encoder.size`` entries; seats beyond the
  player count are zero. Together these hold every hand, sealed bid, staged set, pair and the Augur's cards.
* ``draw_counts``: the draw pile's cards, count per card type (no seat sees them).
* ``draw_top``: the next :data:`DRAW_TOP` cards of the draw pile, top first, one-hot per card type (all zero where
  the pile is shorter): the hidden order that the counts do not show.
* ``discard_counts``: the discard pile, count per card type.
* ``board_all``: every region field's cards, face-down ones included, count per card type.
* expansion spaces only: ``emperor_next`` (one-hot: the next face-down emperor tile, last entry: none) and
  ``emperor_pile`` (which tiles lie in the face-down pile).

Sizes come from the observation encoder and its tables, so the state has one size per environment (player count
included), like the observation.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from tribune_env.codec import ObservationEncoder, Space
from tribune_env.codec.observation import Piece
from tribune_env.engine.state import GameState

DRAW_TOP = 8
"""How many of the draw pile's next cards the state shows in order (the rest only as counts)."""


class StateEncoder:
    """Builds the privileged global state vector of one observation encoder (module docstring)."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        c = encoder.tables.num_card_types
        tiles = len(encoder.tile_ids)
        spec: list[tuple[str, int, str, bool]] = [
            ("seats", encoder.max_players * encoder.size, "per absolute seat: that seat's observation", False),
            ("draw_counts", c, "draw pile: count per card type", True),
            ("draw_top", DRAW_TOP * c, f"next {DRAW_TOP} cards of the draw pile, top first: one-hot per card", False),
            ("discard_counts", c, "discard pile: count per card type", True),
            ("board_all", len(encoder.fields) * c, "every field's cards (face-down too): count per card type", True),
        ]
        if encoder.space is Space.EXPANSION:
            spec += [
                ("emperor_next", tiles + 1, "one-hot next face-down emperor tile (component order), last: none", False),
                ("emperor_pile", tiles, "emperor tiles in the face-down pile", False),
            ]
        pieces: list[Piece] = []
        start = 0
        for name, size, meaning, counts in spec:
            pieces.append(Piece(name, start, size, meaning, counts))
            start += size
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.piece: dict[str, Piece] = {p.name: p for p in pieces}
        self.size = start
        high = np.ones(self.size, dtype=np.float32)
        high[: self.piece["seats"].stop] = np.tile(encoder.high, encoder.max_players)
        copies = np.asarray(encoder.tables.card_copies, dtype=np.float32)
        for piece in pieces:
            if piece.counts:
                high[piece.start : piece.stop] = np.tile(copies, piece.size // c)
        self.high = high
        self._tile_slot = {t: k for k, t in enumerate(encoder.tile_ids)}

    def encode(self, state: GameState) -> np.ndarray:
        """The global state of ``state`` (float32, shape ``(size,)``, inside ``[0, high]``)."""
        encoder = self.encoder
        out = np.zeros(self.size, dtype=np.float32)
        size = encoder.size
        for seat in range(state.num_players):
            out[seat * size : (seat + 1) * size] = encoder.encode(state, seat)
        c = encoder.tables.num_card_types
        p = self.piece
        _count(out, p["draw_counts"].start, state.draw)
        top = p["draw_top"].start
        for k, card in enumerate(reversed(state.draw[-DRAW_TOP:])):  # the top of the pile is the list's end
            out[top + k * c + card] = 1.0
        _count(out, p["discard_counts"].start, state.discard)
        board = p["board_all"].start
        for slot, (region, i) in enumerate(encoder.fields):
            _count(out, board + slot * c, state.fields[region][i])
        if encoder.space is Space.EXPANSION:
            tiles = len(encoder.tile_ids)
            pile = state.emperor_pile if state.config.expansion else []
            tile_slot = self._tile_slot
            out[p["emperor_next"].start + (tile_slot[pile[-1]] if pile else tiles)] = 1.0
            for tile in pile:
                out[p["emperor_pile"].start + tile_slot[tile]] = 1.0
        return out


def _count(out: np.ndarray, base: int, cards: list[int]) -> None:
    for card in cards:
        out[base + card] += 1.0


def state_encoder_for(encoder: ObservationEncoder) -> StateEncoder:
    """The shared state encoder of an observation encoder."""
    return _state_encoder(encoder)


@cache
def _state_encoder(encoder: ObservationEncoder) -> StateEncoder:
    return StateEncoder(encoder)
