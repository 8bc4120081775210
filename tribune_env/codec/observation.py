"""The observation vector: what one player may know, as a flat float32 array.

The vector is the concatenation of named *pieces* (:class:`Piece`), built once per
component set by :class:`ObservationEncoder`; ``docs/observation.md`` is generated
from that layout. Every entry lies in ``[0, high]`` where ``high`` is 1 except for
card counts, whose bound is the number of copies of that card type.

Seats are relative: slot 0 is the observing player, slot 1 the next player in
turn order, and so on; slots beyond the player count are zero with their
``present`` flag off, so the vector has the same size for 2 to 5 players.
Unbounded amounts (denarii, laurels, ...) are divided by a scale derived from
the component file and clipped at 1 (:class:`Scales`).

Only what the player may know is read (R1, R2): face-down board cards only as
counts unless :func:`tribune_env.engine.view.field_visible` allows them, other
players' hands only as sizes, counting cards staged or sealed in unrevealed
pairs as still held (R2), and their bids and staged cards not at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace

import numpy as np

from tribune_env.data import OBJECTIVES, Components, Faction, Region, VictoryCard
from tribune_env.engine.decisions import BASE_DECISION_KINDS, BASE_PHASES, TakeoverRole
from tribune_env.engine.scoring import first_fulfillers, scores, victory_card
from tribune_env.engine.state import TILE_NAMES, TRIBUNE, GameState
from tribune_env.engine.tables import Tables, tables_for
from tribune_env.engine.view import face_up, field_visible, public_hand_size


@dataclass(frozen=True)
class Piece:
    """A named slice of the observation vector."""

    name: str
    start: int
    size: int
    meaning: str
    counts: bool = False  # card counts per card type, bounded by the copies of each type (else bounded by 1)

    @property
    def stop(self) -> int:
        return self.start + self.size


@dataclass(frozen=True)
class Scales:
    """Divisors of unbounded amounts (values are clipped at 1 after dividing).

    Each is twice the largest target any victory card sets for that amount, so
    that the whole range a game plausibly reaches stays distinguishable.
    """

    money: float
    laurels: float
    legions: float
    cards: float  # hand sizes, staged cards
    followers: float
    score: float
    rounds: float

    @classmethod
    def of(cls, components: Components, round_limit: int) -> Scales:
        cards = components.victory_cards

        def most(key: str) -> float:
            return float(2 * max(c.thresholds[key] for c in cards))

        s = components.scoring
        score = (
            s.tribune
            + s.eternal_favor
            + s.temporary_favor
            + s.first_bonus
            + s.laurel * most("laurels")
            + s.legion * most("legions")
            + most("denarii") / s.denarii_per_point
            + s.marker * len(Faction)
        )
        return cls(
            money=most("denarii"),
            laurels=most("laurels"),
            legions=most("legions"),
            cards=float(2 * components.hand_limit),
            followers=float(max(components.followers.values()) + 1),
            score=float(score),
            rounds=float(round_limit),
        )


PLAYER_FLAGS = (
    "present",
    "eternal_favor",
    "temporary_favor",
    "fulfils",
    "start_player",
    "proconsul",
    "sacrificed",
    "to_act",
)
"""The per-player yes/no entries, in order: seat in the game, holds the eternal favor, holds the temporary
favor, meets the victory card now, starts the round, holds the proconsul, sacrificed in the Pantheon this
round, is the player the game waits for."""

PER_PLAYER = (
    ("flags", len(PLAYER_FLAGS), "yes/no: " + ", ".join(PLAYER_FLAGS)),
    ("money", 1, "denarii / scale.money"),
    ("laurels", 1, "laurels / scale.laurels"),
    ("legions", 1, "legions / scale.legions"),
    ("hand_size", 1, "cards in hand as everybody sees it (sealed, unrevealed pairs still count) / scale.cards"),
    ("followers", 1, "followers still to place / scale.followers"),
    ("score", 1, "current score / scale.score"),
    ("coin_bowl", 1, "followers in the coin bowl / scale.followers"),
    ("markers", len(Faction), "faction markers held, by faction"),
    ("tile", len(TILE_NAMES), "one-hot: no tile, scroll, tribune"),
    ("controls", len(Faction), "factions this player controls"),
    ("first", 1, "holds the first-to-fulfil bonus"),
    ("progress", len(OBJECTIVES), "per objective of the victory card: met (tribune, favor) or value/threshold"),
)
_PLAYER_FIELD = {name: i for i, name in enumerate(n for n, _, _ in PER_PLAYER)}


class ObservationEncoder:
    """Builds observation vectors of one component set and round limit."""

    def __init__(self, components: Components, round_limit: int = 60) -> None:
        self.components = components
        self.tables: Tables = tables_for(components)
        self.scales = Scales.of(components, round_limit)
        self.max_players = max(components.player_counts)
        self.victory_ids = tuple(c.id for c in components.victory_cards)
        self.fields: tuple[tuple[Region, int], ...] = tuple(
            (Region(r), i) for r, spec in enumerate(components.regions) for i in range(spec.fields)
        )
        self.field_slot = {key: k for k, key in enumerate(self.fields)}
        self.pieces: tuple[Piece, ...] = self._build_layout()
        self.size = self.pieces[-1].stop
        self.piece: dict[str, Piece] = {p.name: p for p in self.pieces}
        self.high = self._highs()
        self._start: dict[str, int] = {p.name: p.start for p in self.pieces}
        board = self._start["board"]
        self._field_info: tuple[tuple[Region, int, int, bool], ...] = tuple(
            (region, i, board + slot * self.tables.num_card_types, face_up(region))
            for slot, (region, i) in enumerate(self.fields)
        )
        self._field_offsets = SimpleNamespace(**dict(zip(_PLAYER_FIELD, self.player_field_offset, strict=True)))
        self._deck_size = float(self.tables.deck_size)
        spaces_at, per_space = self._start["spaces"], self.max_players
        self._space_bases = tuple(spaces_at + space * per_space for space in range(len(self.tables.spaces)))
        self._relative_slots = {
            n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in components.player_counts
        }
        self._amount_index_cache: dict[tuple[int, int], np.ndarray] = {}

    # -- layout ---------------------------------------------------------------

    def _build_layout(self) -> tuple[Piece, ...]:
        """The pieces in order; also sets the per-player block offsets."""
        t = self.tables
        c = t.num_card_types
        f = len(Faction)
        n = self.max_players
        max_index = max(
            max(spec.fields for spec in self.components.regions),
            max(spec.spaces for spec in self.components.regions),
            len(TakeoverRole),
        )
        spec: list[tuple[str, int, str, bool]] = [
            ("round", 1, "round / round limit", False),
            ("phase", len(BASE_PHASES), "one-hot phase", False),
            ("victory_card", len(self.victory_ids), "one-hot victory card (all zero in the point variant)", False),
            ("point_variant", 1, "playing the point-value variant", False),
            ("thresholds", 4, "laurels, legions, denarii, markers needed, each / its scale", False),
            ("obligatory", len(OBJECTIVES), "objectives the victory card makes obligatory", False),
            ("required", 1, "objectives required at this player count / number of objectives", False),
            ("pending_kind", len(BASE_DECISION_KINDS), "one-hot kind of the pending decision", False),
            ("pending_seat", n, "one-hot relative seat of the deciding player", False),
            ("pending_faction", f, "one-hot faction of the decision (take-over, benefit, penalty)", False),
            ("pending_index", max_index, "one-hot kind-specific index (field, space slot, take-over role)", False),
            ("hand", c, "own hand: count per card type", True),
            ("staged", c, "own cards staged for a take-over set or pair: count per card type", True),
            ("staged_size", 1, "own cards staged / scale.cards", False),
            ("contest", c, "set committed from faction space 2, to beat (R15): count per card type", True),
            ("my_pairs", c, "own sealed Field of Mars pairs: count per card type", True),
            ("my_bid", 2, "own sealed bid: [has bid, amount / scale.money]", False),
            ("sets", c, "displayed sets: count per card type", True),
            ("first_laurel", f, "first-controller laurel still on the faction field", False),
            ("chariot", f + 1, "one-hot faction holding the chariot, last entry: none", False),
            ("colosseum", 1, "denarii in the Colosseum / scale.money", False),
            ("piles", 2, "draw pile, discard pile sizes / deck size", False),
            ("spaces", len(t.spaces) * n, "follower space x relative seat occupying it", False),
            ("board", len(self.fields) * c, "face-up cards of each region field: count per card type", True),
            ("board_hidden", len(self.fields), "face-down cards of each region field / scale.cards", False),
            ("players", n * sum(s for _, s, _ in PER_PLAYER), "per relative seat: the player block", False),
        ]
        pieces: list[Piece] = []
        start = 0
        for name, size, meaning, counts in spec:
            pieces.append(Piece(name, start, size, meaning, counts))
            start += size
        per = sum(s for _, s, _ in PER_PLAYER)
        base = pieces[-1].start
        self.player_size = per
        self._player_offsets: tuple[int, ...] = tuple(base + k * per for k in range(n))
        offsets = []
        o = 0
        for _, size, _ in PER_PLAYER:
            offsets.append(o)
            o += size
        self.player_field_offset = tuple(offsets)
        return tuple(pieces)

    def _highs(self) -> np.ndarray:
        high = np.ones(self.size, dtype=np.float32)
        copies = np.asarray(self.tables.card_copies, dtype=np.float32)
        for piece in self.pieces:
            if piece.counts:
                high[piece.start : piece.stop] = np.tile(copies, piece.size // len(copies))
        return high

    def layout_rows(self) -> list[tuple[str, int, int, str]]:
        """(name, start, size, meaning) of every piece, then of every per-player field (slot 0)."""
        rows = [(p.name, p.start, p.size, p.meaning) for p in self.pieces]
        base = self._player_offsets[0]
        for (name, size, meaning), off in zip(PER_PLAYER, self.player_field_offset, strict=True):
            rows.append((f"players[0].{name}", base + off, size, meaning))
        return rows

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Name every part of an observation (for debugging agents): each piece, and the player block
        as ``players[k].<field>`` for relative seat ``k``. The arrays are views into ``obs``."""
        if obs.shape != (self.size,):
            raise ValueError(f"expected an observation of shape ({self.size},), got {obs.shape}")
        out = {p.name: obs[p.start : p.stop] for p in self.pieces if p.name != "players"}
        for k, base in enumerate(self._player_offsets):
            for (name, size, _), offset in zip(PER_PLAYER, self.player_field_offset, strict=True):
                out[f"players[{k}].{name}"] = obs[base + offset : base + offset + size]
        return out

    # -- encoding -------------------------------------------------------------
    #
    # One-hots and card counts go into a bytearray (cheap per entry in Python)
    # that is converted once. Scaled amounts always occupy the same entries for a
    # given (player count, observer), so their indices are one cached array and
    # their values one list in that order: global amounts, then per seat.

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (float32, shape ``(size,)``, inside ``[0, high]``).

        Card counts never exceed the copies of their type (the engine conserves
        cards), so only the scaled amounts need clipping.
        """
        buf = bytearray(self.size)
        card = victory_card(state)
        if card is not None and not isinstance(card, VictoryCard):
            raise ValueError("this observation encodes base games; an expansion card needs the expansion encoder")
        values = self._global(state, seat, card, buf)
        self._cards(state, seat, buf)
        self._board(state, seat, buf, values)
        self._player_flags(state, seat, buf)
        self._player_amounts(state, card, values)
        obs = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        obs[self._amount_indices(state.num_players, seat)] = np.minimum(values, 1.0)
        return obs

    def _relative(self, n: int, seat: int) -> tuple[int, ...]:
        """Relative slot of every absolute seat, for ``n`` players seen from ``seat``."""
        return self._relative_slots[n][seat]

    def _amount_indices(self, n: int, seat: int) -> np.ndarray:
        key = (n, seat)
        found = self._amount_index_cache.get(key)
        if found is None:
            start = self._start
            o = self._field_offsets
            out = [
                start["round"],
                *range(start["thresholds"], start["thresholds"] + 4),
                start["required"],
                start["colosseum"],
                start["piles"],
                start["piles"] + 1,
                start["staged_size"],
                start["my_bid"] + 1,
                *range(start["board_hidden"], start["board_hidden"] + len(self.fields)),
            ]
            per_seat = (o.money, o.laurels, o.legions, o.hand_size, o.followers, o.score, o.coin_bowl)
            for s in range(n):
                base = self._player_offsets[(s - seat) % n]
                out.extend(base + k for k in per_seat)
                out.extend(range(base + o.progress + 2, base + o.progress + 6))
            found = self._amount_index_cache[key] = np.asarray(out, dtype=np.intp)
        return found

    def _global(self, state: GameState, seat: int, card: VictoryCard | None, buf: bytearray) -> list[float]:
        """Set the global one-hots; return the global amounts (the start of the amounts list)."""
        start = self._start
        sc = self.scales
        n = state.num_players
        buf[start["phase"] + int(state.phase)] = 1
        if card is None:
            buf[start["point_variant"]] = 1
            goals = [0.0, 0.0, 0.0, self.components.point_variant[n] / len(Faction), 0.0]
        else:
            buf[start["victory_card"] + self.victory_ids.index(card.id)] = 1
            t = card.thresholds
            goals = [
                t["laurels"] / sc.laurels,
                t["legions"] / sc.legions,
                t["denarii"] / sc.money,
                t["markers"] / len(Faction),
                card.required[n] / len(OBJECTIVES),
            ]
            for o in card.obligatory:
                buf[start["obligatory"] + OBJECTIVES.index(o)] = 1
        pending = state.pending
        if pending is not None:
            buf[start["pending_kind"] + int(pending.kind)] = 1
            buf[start["pending_seat"] + (pending.seat - seat) % n] = 1
            if pending.faction >= 0:
                buf[start["pending_faction"] + pending.faction] = 1
            if pending.index >= 0:
                buf[start["pending_index"] + pending.index] = 1
        buf[start["chariot"] + (state.chariot if state.chariot >= 0 else len(Faction))] = 1
        first_laurel = start["first_laurel"]
        for f, up in enumerate(state.first_laurel):
            if up:
                buf[first_laurel + f] = 1
        own_bid = state.bids[seat]
        if own_bid >= 0:
            buf[start["my_bid"]] = 1
        deck = self._deck_size
        return [
            state.round / sc.rounds,
            *goals,
            state.colosseum / sc.money,
            len(state.draw) / deck,
            len(state.discard) / deck,
            (len(state.staged) if pending is not None and pending.seat == seat else 0) / sc.cards,
            max(own_bid, 0) / sc.money,
        ]

    def _cards(self, state: GameState, seat: int, buf: bytearray) -> None:
        start = self._start
        hand = start["hand"]
        buf[hand : hand + self.tables.num_card_types] = bytes(state.players[seat].hand)
        pending = state.pending
        if state.staged and pending is not None and pending.seat == seat:
            staged = start["staged"]
            for c in state.staged:
                buf[staged + c] += 1
        contest = start["contest"]
        for c in state.contest:
            buf[contest + c] += 1
        pairs = start["my_pairs"]
        for s, a, b in state.pairs:
            if s == seat:
                buf[pairs + a] += 1
                buf[pairs + b] += 1
        sets = start["sets"]
        for cards in state.sets:
            for c in cards:
                buf[sets + c] += 1

    def _board(self, state: GameState, seat: int, buf: bytearray, values: list[float]) -> None:
        """Face-up cards as counts per field; face-down fields only as their size (``board_hidden``, amounts)."""
        fields = state.fields
        scale = self.scales.cards
        for region, i, base, always in self._field_info:
            cards = fields[region][i]
            if cards and (always or field_visible(state, seat, region, i)):
                for card in cards:
                    buf[base + card] += 1
                values.append(0.0)
            else:
                values.append(len(cards) / scale)
        rel = self._relative(state.num_players, seat)
        bases = self._space_bases
        for space in [s for s, occupant in enumerate(state.spaces) if occupant >= 0]:
            buf[bases[space] + rel[state.spaces[space]]] = 1

    def _player_flags(self, state: GameState, seat: int, buf: bytearray) -> None:
        n = state.num_players
        o = self._field_offsets
        flags_at, markers_at, tile_at, progress_at = o.flags, o.markers, o.tile, o.progress
        count = len(PLAYER_FLAGS)
        pending_seat = state.pending.seat if state.pending is not None else -1
        for s, p in enumerate(state.players):
            base = self._player_offsets[(s - seat) % n]
            buf[base + flags_at : base + flags_at + count] = bytes(
                (
                    True,
                    p.eternal_favor,
                    p.temporary_favor,
                    state.fulfilled_since[s] >= 0,
                    state.start_seat == s,
                    state.proconsul == s,
                    state.sacrificed[s],
                    pending_seat == s,
                )
            )
            buf[base + markers_at : base + markers_at + len(p.markers)] = bytes(p.markers)
            buf[base + tile_at + p.tile] = 1
            if p.tile == TRIBUNE:
                buf[base + progress_at] = 1
            if p.eternal_favor or p.temporary_favor:
                buf[base + progress_at + 1] = 1
        for f, owner in enumerate(state.controller):
            if owner >= 0:
                buf[self._player_offsets[(owner - seat) % n] + o.controls + f] = 1
        if not state.config.point_variant:
            for s in first_fulfillers(state):
                buf[self._player_offsets[(s - seat) % n] + o.first] = 1

    def _player_amounts(self, state: GameState, card: VictoryCard | None, values: list[float]) -> None:
        sc = self.scales
        bowl = state.coin_bowl
        total = scores(state)
        goals = card.thresholds if card is not None else None
        if goals is not None:
            laurels, legions, denarii, markers = (goals[k] for k in ("laurels", "legions", "denarii", "markers"))
        for s, p in enumerate(state.players):
            values.extend(
                (
                    p.money / sc.money,
                    p.laurels / sc.laurels,
                    p.legions / sc.legions,
                    public_hand_size(state, s) / sc.cards,
                    p.followers / sc.followers,
                    max(total[s], 0) / sc.score,
                    bowl.count(s) / sc.followers,
                )
            )
            if goals is None:
                values.extend((0.0, 0.0, 0.0, 0.0))
            else:
                values.extend(
                    (
                        _ratio(p.laurels, laurels),
                        _ratio(p.legions, legions),
                        _ratio(p.money, denarii),
                        _ratio(p.num_markers, markers),
                    )
                )


def _ratio(value: int, goal: int) -> float:
    """Progress towards ``goal`` (1 when there is no goal; clipped at 1 by the encoder)."""
    return value / goal if goal else 1.0


@cache
def encoder_for(components: Components, round_limit: int = 60) -> ObservationEncoder:
    """The shared encoder of a component set and round limit."""
    return ObservationEncoder(components, round_limit)
