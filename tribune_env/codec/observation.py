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
players' hands, bids, staged cards and sealed pairs only as sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace

import numpy as np

from tribune_env.data import OBJECTIVES, Components, Faction, Region, VictoryCard
from tribune_env.engine.decisions import DecisionKind, Phase, TakeoverRole
from tribune_env.engine.scoring import first_fulfillers, scores
from tribune_env.engine.state import TILE_NAMES, TRIBUNE, GameState, PlayerState
from tribune_env.engine.tables import Tables, tables_for
from tribune_env.engine.view import ALWAYS_FACE_UP, field_visible


@dataclass(frozen=True)
class Piece:
    """A named slice of the observation vector."""

    name: str
    start: int
    size: int
    meaning: str
    high: float = 1.0  # upper bound of every entry; card counts use per-entry bounds instead

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


PER_PLAYER = (
    ("present", 1, "1 if this seat is in the game"),
    ("money", 1, "denarii / scale.money"),
    ("laurels", 1, "laurels / scale.laurels"),
    ("legions", 1, "legions / scale.legions"),
    ("markers", len(Faction), "faction markers held, by faction"),
    ("tile", len(TILE_NAMES), "one-hot: no tile, scroll, tribune"),
    ("eternal_favor", 1, "holds the eternal favor"),
    ("temporary_favor", 1, "holds the temporary favor"),
    ("hand_size", 1, "cards in hand / scale.cards"),
    ("followers", 1, "followers still to place / scale.followers"),
    ("controls", len(Faction), "factions this player controls"),
    ("progress", len(OBJECTIVES), "per objective of the victory card: met (tribune, favor) or value/threshold"),
    ("fulfils", 1, "meets the victory card now"),
    ("first", 1, "holds the first-to-fulfil bonus"),
    ("score", 1, "current score / scale.score"),
    ("start_player", 1, "is the starting player of the round"),
    ("proconsul", 1, "holds the proconsul"),
    ("sacrificed", 1, "made a Pantheon sacrifice this round"),
    ("coin_bowl", 1, "followers in the coin bowl / scale.followers"),
    ("to_act", 1, "is the player the game waits for"),
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
        self.pieces: tuple[Piece, ...] = ()
        self._player_offsets: tuple[int, ...] = ()
        self._build_layout()
        self.size = self.pieces[-1].stop
        self.piece = {p.name: p for p in self.pieces}
        self.high = self._highs()
        self._start = {p.name: p.start for p in self.pieces}
        board = self._start["board"]
        self._field_info: tuple[tuple[Region, int, int, bool], ...] = tuple(
            (region, i, board + slot * self.tables.num_card_types, region in ALWAYS_FACE_UP)
            for slot, (region, i) in enumerate(self.fields)
        )
        self._field_offsets = SimpleNamespace(**dict(zip(_PLAYER_FIELD, self.player_field_offset, strict=True)))
        self._cards_by_id: dict[str, VictoryCard] = {}

    # -- layout ---------------------------------------------------------------

    def _build_layout(self) -> None:
        t = self.tables
        c = t.num_card_types
        f = len(Faction)
        n = self.max_players
        copies = float(max(t.card_copies))
        max_index = max(
            max(spec.fields for spec in self.components.regions),
            max(spec.spaces for spec in self.components.regions),
            len(TakeoverRole),
        )
        spec: list[tuple[str, int, str, float]] = [
            ("round", 1, "round / round limit", 1.0),
            ("phase", len(Phase), "one-hot phase", 1.0),
            ("victory_card", len(self.victory_ids), "one-hot victory card (all zero in the point variant)", 1.0),
            ("point_variant", 1, "playing the point-value variant", 1.0),
            ("thresholds", 4, "laurels, legions, denarii, markers needed, each / its scale", 1.0),
            ("obligatory", len(OBJECTIVES), "objectives the victory card makes obligatory", 1.0),
            ("required", 1, "objectives required at this player count / number of objectives", 1.0),
            ("pending_kind", len(DecisionKind), "one-hot kind of the pending decision", 1.0),
            ("pending_seat", n, "one-hot relative seat of the deciding player", 1.0),
            ("pending_faction", f, "one-hot faction of the decision (take-over, benefit, penalty)", 1.0),
            ("pending_index", max_index, "one-hot kind-specific index (field, space slot, take-over role)", 1.0),
            ("hand", c, "own hand: count per card type", copies),
            ("staged", c, "own cards staged for a take-over set or pair: count per card type", copies),
            ("staged_size", 1, "cards staged by the deciding player / scale.cards", 1.0),
            ("contest", c, "set committed from faction space 2, to beat (R15): count per card type", copies),
            ("my_pairs", c, "own sealed Field of Mars pairs: count per card type", copies),
            ("sealed_pairs", 1, "sealed pairs of all players / scale.followers", 1.0),
            ("my_bid", 2, "own sealed bid: [has bid, amount / scale.money]", 1.0),
            ("sets", c, "displayed sets: count per card type", copies),
            ("first_laurel", f, "first-controller laurel still on the faction field", 1.0),
            ("chariot", f + 1, "one-hot faction holding the chariot, last entry: none", 1.0),
            ("colosseum", 1, "denarii in the Colosseum / scale.money", 1.0),
            ("piles", 2, "draw pile, discard pile sizes / deck size", 1.0),
            ("spaces", len(t.spaces) * n, "follower space x relative seat occupying it", 1.0),
            ("board", len(self.fields) * c, "face-up cards of each region field: count per card type", copies),
            ("board_hidden", len(self.fields), "face-down cards of each region field / scale.cards", 1.0),
            ("players", n * sum(s for _, s, _ in PER_PLAYER), "per relative seat: the player block", 1.0),
        ]
        pieces: list[Piece] = []
        start = 0
        for name, size, meaning, high in spec:
            pieces.append(Piece(name, start, size, meaning, high))
            start += size
        self.pieces = tuple(pieces)
        per = sum(s for _, s, _ in PER_PLAYER)
        base = pieces[-1].start
        self.player_size = per
        self._player_offsets = tuple(base + k * per for k in range(n))
        offsets = []
        o = 0
        for _, size, _ in PER_PLAYER:
            offsets.append(o)
            o += size
        self.player_field_offset = tuple(offsets)

    def _highs(self) -> np.ndarray:
        high = np.ones(self.size, dtype=np.float32)
        copies = np.asarray(self.tables.card_copies, dtype=np.float32)
        for piece in self.pieces:
            if piece.name in ("hand", "staged", "contest", "my_pairs", "sets"):
                high[piece.start : piece.stop] = copies
            elif piece.name == "board":
                high[piece.start : piece.stop] = np.tile(copies, len(self.fields))
        return high

    def layout_rows(self) -> list[tuple[str, int, int, str]]:
        """(name, start, size, meaning) of every piece, then of every per-player field (slot 0)."""
        rows = [(p.name, p.start, p.size, p.meaning) for p in self.pieces]
        base = self._player_offsets[0]
        for (name, size, meaning), off in zip(PER_PLAYER, self.player_field_offset, strict=True):
            rows.append((f"players[0].{name}", base + off, size, meaning))
        return rows

    # -- encoding -------------------------------------------------------------
    #
    # One-hots and card counts are written into a bytearray (cheap per entry in
    # Python), converted once; the few scaled amounts are set afterwards.

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (float32, shape ``(size,)``, inside ``[0, high]``)."""
        buf = bytearray(self.size)
        idx: list[int] = []  # entries set to a scaled amount
        val: list[float] = []
        self._global(state, seat, buf, idx, val)
        self._cards(state, seat, buf, idx, val)
        self._board(state, seat, buf, idx, val)
        self._players(state, seat, buf, idx, val)
        obs = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        obs[idx] = val
        np.minimum(obs, self.high, out=obs)
        return obs

    def _victory(self, state: GameState) -> VictoryCard | None:
        if state.config.point_variant:
            return None
        card = self._cards_by_id.get(state.victory_card)
        if card is None:
            card = self._cards_by_id[state.victory_card] = self.components.victory_card(state.victory_card)
        return card

    def _global(self, state: GameState, seat: int, buf: bytearray, idx: list[int], val: list[float]) -> None:
        start = self._start
        sc = self.scales
        n = state.num_players
        idx.append(start["round"])
        val.append(state.round / sc.rounds)
        buf[start["phase"] + int(state.phase)] = 1
        card = self._victory(state)
        thresholds = start["thresholds"]
        if card is None:
            buf[start["point_variant"]] = 1
            idx.append(thresholds + 3)
            val.append(self.components.point_variant[n] / len(Faction))
        else:
            buf[start["victory_card"] + self.victory_ids.index(card.id)] = 1
            t = card.thresholds
            idx.extend((thresholds, thresholds + 1, thresholds + 2, thresholds + 3, start["required"]))
            val.extend(
                (
                    t["laurels"] / sc.laurels,
                    t["legions"] / sc.legions,
                    t["denarii"] / sc.money,
                    t["markers"] / len(Faction),
                    card.required[n] / len(OBJECTIVES),
                )
            )
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
        deck = float(self.tables.deck_size)
        idx.extend((start["colosseum"], start["piles"], start["piles"] + 1))
        val.extend((state.colosseum / sc.money, len(state.draw) / deck, len(state.discard) / deck))

    def _cards(self, state: GameState, seat: int, buf: bytearray, idx: list[int], val: list[float]) -> None:
        start = self._start
        hand = start["hand"]
        buf[hand : hand + self.tables.num_card_types] = bytes(state.players[seat].hand)
        pending = state.pending
        if state.staged:
            idx.append(start["staged_size"])
            val.append(len(state.staged) / self.scales.cards)
            if pending is not None and pending.seat == seat:
                staged = start["staged"]
                for c in state.staged:
                    buf[staged + c] += 1
        contest = start["contest"]
        for c in state.contest:
            buf[contest + c] += 1
        if state.pairs:
            pairs = start["my_pairs"]
            for s, a, b in state.pairs:
                if s == seat:
                    buf[pairs + a] += 1
                    buf[pairs + b] += 1
            idx.append(start["sealed_pairs"])
            val.append(len(state.pairs) / self.scales.followers)
        own_bid = state.bids[seat]
        if own_bid >= 0:
            buf[start["my_bid"]] = 1
            idx.append(start["my_bid"] + 1)
            val.append(own_bid / self.scales.money)
        sets = start["sets"]
        for cards in state.sets:
            for c in cards:
                buf[sets + c] += 1

    def _board(self, state: GameState, seat: int, buf: bytearray, idx: list[int], val: list[float]) -> None:
        hidden = self._start["board_hidden"]
        cards_scale = self.scales.cards
        fields = state.fields
        for slot, (region, i, base, always) in enumerate(self._field_info):
            cards = fields[region][i]
            if cards:
                if always or field_visible(state, seat, region, i):
                    for card in cards:
                        buf[base + card] += 1
                else:
                    idx.append(hidden + slot)
                    val.append(len(cards) / cards_scale)
        n = state.num_players
        spaces = self._start["spaces"]
        per_space = self.max_players
        for space, occupant in enumerate(state.spaces):
            if occupant >= 0:
                buf[spaces + space * per_space + (occupant - seat) % n] = 1

    def _players(self, state: GameState, seat: int, buf: bytearray, idx: list[int], val: list[float]) -> None:
        n = state.num_players
        sc = self.scales
        o = self._field_offsets
        card = self._victory(state)
        firsts = first_fulfillers(state) if card is not None else []
        total = scores(state)
        pending_seat = state.pending.seat if state.pending is not None else -1
        bowl = state.coin_bowl
        controller = state.controller
        for s, p in enumerate(state.players):
            base = self._player_offsets[(s - seat) % n]
            buf[base + o.present] = 1
            idx.extend((base + o.money, base + o.laurels, base + o.legions, base + o.hand_size, base + o.followers))
            val.extend(
                (
                    p.money / sc.money,
                    p.laurels / sc.laurels,
                    p.legions / sc.legions,
                    sum(p.hand) / sc.cards,
                    p.followers / sc.followers,
                )
            )
            if total[s] > 0:
                idx.append(base + o.score)
                val.append(total[s] / sc.score)
            markers = base + o.markers
            for f, held in enumerate(p.markers):
                if held:
                    buf[markers + f] = 1
            buf[base + o.tile + p.tile] = 1
            if p.eternal_favor:
                buf[base + o.eternal_favor] = 1
            if p.temporary_favor:
                buf[base + o.temporary_favor] = 1
            if state.fulfilled_since[s] >= 0:
                buf[base + o.fulfils] = 1
            if s in firsts:
                buf[base + o.first] = 1
            if state.start_seat == s:
                buf[base + o.start_player] = 1
            if state.proconsul == s:
                buf[base + o.proconsul] = 1
            if state.sacrificed[s]:
                buf[base + o.sacrificed] = 1
            if pending_seat == s:
                buf[base + o.to_act] = 1
            controls = base + o.controls
            for f, owner in enumerate(controller):
                if owner == s:
                    buf[controls + f] = 1
            if bowl:
                idx.append(base + o.coin_bowl)
                val.append(bowl.count(s) / sc.followers)
            if card is not None:
                _progress(base + o.progress, p, card.thresholds, buf, idx, val)


def _progress(base: int, p: PlayerState, t: dict[str, int], buf: bytearray, idx: list[int], val: list[float]) -> None:
    """Objective progress in :data:`OBJECTIVES` order: met flags, then value / threshold (1 if no threshold)."""
    if p.tile == TRIBUNE:
        buf[base] = 1
    if p.eternal_favor or p.temporary_favor:
        buf[base + 1] = 1
    idx.extend((base + 2, base + 3, base + 4, base + 5))
    val.extend(
        (
            min(p.laurels / t["laurels"], 1.0) if t["laurels"] else 1.0,
            min(p.legions / t["legions"], 1.0) if t["legions"] else 1.0,
            min(p.money / t["denarii"], 1.0) if t["denarii"] else 1.0,
            min(p.num_markers / t["markers"], 1.0) if t["markers"] else 1.0,
        )
    )


@cache
def encoder_for(components: Components, round_limit: int = 60) -> ObservationEncoder:
    """The shared encoder of a component set and round limit."""
    return ObservationEncoder(components, round_limit)
