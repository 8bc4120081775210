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

The expansion encoder (``ObservationEncoder(components, space=Space.EXPANSION)``, the
observation of the ``TribuneExpansion`` environments) has every base piece, sized
for the expansion (all phases and decision kinds, slave and assassin card types,
the expansion follower spaces, six seats, base and expansion victory cards and
the union of their objectives), and adds the expansion pieces: the emperor
tiles (face-up, pile size, Matrona's, claimed per player), the officials and
their holders, patrons, the Augur's cards (to the Augur only, R39), the factions
named by the Tribunus Plebis, and the Brutii variant's public state (R45): his
seat (a player flag), the decision kinds only he faces (``pending_brutii``; the
one-hot ``pending_kind`` covers the others), his played action cards, revealed
discs and chosen options. His face-down discs have no order to show (nobody
knows it); his sealed chariot opt-out shows to him only, as a bid of 0. The
vetoed region (R54) has no entry: it shows in the masks, which offer no space
there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from tribune_env.codec.space import Space
from tribune_env.data import (
    EXPANSION_OBJECTIVES,
    OBJECTIVES,
    BrutiiCard,
    BrutiiDisc,
    Components,
    ExpansionScoring,
    ExpansionVictoryCard,
    Faction,
    Official,
    Region,
    ScoringSpec,
    VictoryCard,
)
from tribune_env.engine import native
from tribune_env.engine.config import DEFAULT_ROUND_LIMIT, victory_cards_of
from tribune_env.engine.decisions import (
    BASE_DECISION_KINDS,
    BASE_PHASES,
    BRUTII_DECISION_KINDS,
    FAMILY_DECISION_KINDS,
    DecisionKind,
    Phase,
    TakeoverRole,
)
from tribune_env.engine.game import Game
from tribune_env.engine.scoring import first_fulfillers, scores, victory_card
from tribune_env.engine.state import OPTED_OUT, TILE_NAMES, TRIBUNE, GameState, PlayerState
from tribune_env.engine.tables import Tables, tables_for
from tribune_env.engine.view import face_up, field_visible


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
    tiles: float = 1.0  # expansion: claimed emperor tiles
    patrons: float = 1.0  # expansion: patron tiles

    @classmethod
    def of(cls, components: Components, round_limit: int, expansion: bool = False) -> Scales:
        cards = victory_cards_of(components, expansion)

        def most(key: str) -> float:
            return float(2 * max(c.thresholds.get(key, 0) for c in cards))

        def top_score(s: ScoringSpec | ExpansionScoring) -> float:
            """Every scoring item of table ``s`` at the scales above."""
            return (
                s.tribune
                + s.eternal_favor
                + s.temporary_favor
                + s.first_bonus
                + s.laurel * most("laurels")
                + s.legion * most("legions")
                + most("denarii") / s.denarii_per_point
                + s.marker * len(Faction)
            )

        score = top_score(components.scoring)
        followers = max(components.followers.values())
        extra = components.expansion if expansion else None
        if extra is not None:
            x = extra.scoring
            score = max(score, top_score(x) + x.emperor_tile * most("emperor_tiles") + x.patron * most("patrons"))
            followers = max(followers, max(extra.followers.values()))
        return cls(
            money=most("denarii"),
            laurels=most("laurels"),
            legions=most("legions"),
            cards=float(2 * components.hand_limit),
            followers=float(followers + 1),
            score=float(score),
            rounds=float(round_limit),
            tiles=most("emperor_tiles") if extra is not None else 1.0,
            patrons=most("patrons") if extra is not None else 1.0,
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
ALL_OBJECTIVES = OBJECTIVES + tuple(o for o in EXPANSION_OBJECTIVES if o not in OBJECTIVES)
"""The objectives an expansion observation tracks: the base ones, then emperor tiles and patrons."""

AMOUNTS = ("laurels", "legions", "denarii", "markers")
"""The numeric objectives of a base observation, in order (their thresholds and progress)."""
EXPANSION_AMOUNTS = (*AMOUNTS, "emperor_tiles", "patrons")


def _per_player(expansion: bool, tiles: int) -> tuple[tuple[str, int, str], ...]:
    """The player block's fields: :data:`PER_PLAYER`, or its expansion form (more objectives, expansion holdings)."""
    if not expansion:
        return PER_PLAYER
    out = [
        (
            name,
            len(ALL_OBJECTIVES),
            meaning.replace("per objective", "per objective (tribune, favor, " + ", ".join(EXPANSION_AMOUNTS) + ")"),
        )
        if name == "progress"
        else (name, size, meaning)
        for name, size, meaning in PER_PLAYER
    ]
    out += [
        ("patrons", 1, "patron tiles / scale.patrons"),
        ("emperor_tiles", tiles, "claimed favors of the emperor tiles, by tile (component order)"),
        ("officials", len(Official), "officials held, by official"),
        ("brutii", 1, "this seat is the Brutii (R42)"),
    ]
    return tuple(out)


AnyCard = VictoryCard | ExpansionVictoryCard

OPTION_CARDS = (BrutiiCard.CARDS, BrutiiCard.FACTION_TAKEOVER)
"""The Brutii's cards with two options, in the order of ``GameState.brutii_options`` (R46)."""


class ObservationEncoder:
    """Builds observation vectors of one component set, round limit and :class:`Space` (module docstring).

    Raises:
        ValueError: ``space`` is not a :class:`Space` (or its name), or the expansion space with a component set that
            has no expansion tables.
    """

    def __init__(
        self, components: Components, round_limit: int = DEFAULT_ROUND_LIMIT, space: Space | str = Space.BASE
    ) -> None:
        self.space = Space.parse(space)
        wide = self._wide = self.space is Space.EXPANSION  # the expansion layout
        extra = components.expansion if wide else None
        if wide and extra is None:
            raise ValueError("an expansion observation needs a component file with [expansion] tables")
        self.components = components
        self.round_limit = round_limit
        self._native: Any = None  # the native core's encoder, made when a native game is first encoded
        self.tables: Tables = tables_for(components, wide)
        self.scales = Scales.of(components, round_limit, wide)
        self.max_players = max(extra.seat_counts) if extra is not None else max(components.player_counts)
        self.victory_ids = tuple(c.id for c in components.victory_cards)
        if extra is not None:
            self.victory_ids += tuple(c.id for c in extra.victory_cards)
        self.objectives = ALL_OBJECTIVES if wide else OBJECTIVES
        self.amounts = EXPANSION_AMOUNTS if wide else AMOUNTS
        self.phases: tuple[Phase, ...] = tuple(Phase) if wide else BASE_PHASES
        # the Brutii's own decision kinds have their one-hot apart (pending_brutii), so pending_kind keeps its size
        self.kinds: tuple[DecisionKind, ...] = FAMILY_DECISION_KINDS if wide else BASE_DECISION_KINDS
        self.brutii_kinds: tuple[DecisionKind, ...] = BRUTII_DECISION_KINDS if wide else ()
        self._kind_slot = {kind: k for k, kind in enumerate(self.kinds)}
        self._brutii_kind_slot = {kind: k for k, kind in enumerate(self.brutii_kinds)}
        brutii = extra.brutii if extra is not None else None
        #: copies of each disc symbol (``brutii_discs`` counts the revealed ones against them)
        self.disc_copies: tuple[int, ...] = tuple(brutii.discs[d] for d in BrutiiDisc) if brutii is not None else ()
        self.tile_ids: tuple[int, ...] = tuple(t.id for t in extra.emperor_tiles) if extra is not None else ()
        self._tile_slot = {t: k for k, t in enumerate(self.tile_ids)}
        self.per_player = _per_player(wide, len(self.tile_ids))
        self.fields: tuple[tuple[Region, int], ...] = tuple(
            (Region(r), i) for r, spec in enumerate(components.regions) for i in range(spec.fields)
        )
        self.field_slot = {key: k for k, key in enumerate(self.fields)}
        self.pieces: tuple[Piece, ...] = self._build_layout()
        self.size = self.pieces[-1].stop
        self.piece: dict[str, Piece] = {p.name: p for p in self.pieces}
        self.high = self._highs()
        self._start: dict[str, int] = {p.name: p.start for p in self.pieces}
        start = self._start
        board = start["board"]
        card_types = self.tables.num_card_types
        #: face-up fields (their ``board_hidden`` entry is always 0): (region, field, first board entry)
        self._open_fields: tuple[tuple[int, int, int], ...] = tuple(
            (int(region), i, board + slot * card_types)
            for slot, (region, i) in enumerate(self.fields)
            if face_up(region)
        )
        #: fields that may be face down: (region, field, first board entry)
        self._closed_fields: tuple[tuple[Region, int, int], ...] = tuple(
            (region, i, board + slot * card_types)
            for slot, (region, i) in enumerate(self.fields)
            if not face_up(region)
        )
        names = [name for name, _, _ in self.per_player]
        self._field_offset: dict[str, int] = dict(zip(names, self.player_field_offset, strict=True))
        self._deck_size = float(self.tables.deck_size)
        spaces_at, per_space = start["spaces"], self.max_players
        self._space_bases = tuple(spaces_at + space * per_space for space in range(len(self.tables.spaces)))
        counts = extra.seat_counts if extra is not None else components.player_counts
        self._relative_slots = {n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in counts}
        self._amount_index_cache: dict[tuple[int, int], np.ndarray] = {}
        self._victory_slot = {card_id: k for k, card_id in enumerate(self.victory_ids)}
        self._objective_slot = {o: k for k, o in enumerate(self.objectives)}
        sc = self.scales
        amount_scale = {
            "laurels": sc.laurels,
            "legions": sc.legions,
            "denarii": sc.money,
            "markers": float(len(Faction)),
            "emperor_tiles": sc.tiles,
            "patrons": sc.patrons,
        }
        self._amount_scales: tuple[float, ...] = tuple(amount_scale[k] for k in self.amounts)
        self._at_phase = start["phase"]
        self._at_pending_kind = start["pending_kind"]
        self._at_pending_brutii = start["pending_brutii"] if self._wide else -1
        self._at_pending_seat = start["pending_seat"]
        self._at_pending_faction = start["pending_faction"]
        self._at_pending_index = start["pending_index"]
        self._at_chariot = start["chariot"]
        self._at_first_laurel = start["first_laurel"]
        self._at_my_bid = start["my_bid"]
        self._at_hand = start["hand"]
        self._at_staged = start["staged"]
        self._at_contest = start["contest"]
        self._at_pairs = start["my_pairs"]
        self._at_sets = start["sets"]

    # -- layout ---------------------------------------------------------------

    def _build_layout(self) -> tuple[Piece, ...]:
        """The pieces in order; also sets the per-player block offsets."""
        t = self.tables
        c = t.num_card_types
        f = len(Faction)
        n = self.max_players
        regions = list(self.components.regions)
        max_index = max(
            max(spec.fields for spec in regions),
            max(spec.spaces for spec in regions),
            max((spec.spaces for spec in self.components.expansion.regions), default=0)
            if self._wide and self.components.expansion is not None
            else 0,
            len(TakeoverRole),
        )
        amounts = ", ".join(self.amounts)
        spec: list[tuple[str, int, str, bool]] = [
            ("round", 1, "round / round limit", False),
            ("phase", len(self.phases), "one-hot phase", False),
            ("victory_card", len(self.victory_ids), "one-hot victory card (all zero in the point variant)", False),
            ("point_variant", 1, "playing the point-value variant", False),
            ("thresholds", len(self.amounts), f"{amounts} needed, each / its scale", False),
            ("obligatory", len(self.objectives), "objectives the victory card makes obligatory", False),
            ("required", 1, "objectives required at this player count / number of objectives", False),
            ("pending_kind", len(self.kinds), self._pending_kind_meaning(), False),
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
        ]
        if self._wide:
            spec += self._expansion_pieces()
        per = sum(s for _, s, _ in self.per_player)
        spec.append(("players", n * per, "per relative seat: the player block", False))
        pieces: list[Piece] = []
        start = 0
        for name, size, meaning, is_count in spec:
            pieces.append(Piece(name, start, size, meaning, is_count))
            start += size
        base = pieces[-1].start
        self.player_size = per
        self._player_offsets: tuple[int, ...] = tuple(base + k * per for k in range(n))
        offsets = []
        o = 0
        for _, size, _ in self.per_player:
            offsets.append(o)
            o += size
        self.player_field_offset = tuple(offsets)
        return tuple(pieces)

    def _pending_kind_meaning(self) -> str:
        if not self._wide:
            return "one-hot kind of the pending decision"
        return "one-hot kind of the pending decision, unless only the Brutii faces it (then `pending_brutii`)"

    def _expansion_pieces(self) -> list[tuple[str, int, str, bool]]:
        tiles = len(self.tile_ids)
        n = self.max_players
        officials = len(Official)
        cards = len(BrutiiCard)
        options = len(OPTION_CARDS) * 2  # two options each (R46)
        discs = ", ".join(d.key for d in BrutiiDisc)
        return [
            ("emperor_up", tiles + 1, "one-hot face-up favor of the emperor tile (component order), last: none", False),
            ("emperor_pile", 1, "face-down emperor tiles in the pile / tiles (their order is hidden, R35)", False),
            ("matrona_tiles", tiles, "tiles lying with the Matrona (R35)", False),
            ("officials", officials * (n + 1), "per official: one-hot relative holder, last: on the Capitoleum", False),
            ("officials_chosen", officials, "officials chosen at the Capitoleum this round", False),
            ("placed_this_turn", 1, "followers placed this turn (Princeps, R37) / scale.followers", False),
            ("benefit_blocked", len(Faction), "factions named for the Tribunus Plebis this round (R38)", False),
            ("augur_cards", self.tables.num_card_types, "the Augur's drawn cards, to the Augur only (R39)", True),
            ("augur_drawn", 1, "cards the Augur holds drawn, as everybody sees it / scale.cards", False),
            ("patron_supply", 1, "patron tiles left in the supply / supply", False),
            ("pending_brutii", len(self.brutii_kinds), "one-hot kind of a decision only the Brutii faces", False),
            ("brutii_played", cards, "the Brutii's action cards played this round, by card (R45)", False),
            ("brutii_discs", len(BrutiiDisc), f"the Brutii's revealed discs per symbol ({discs}) / copies", False),
            (
                "brutii_options",
                options,
                "options chosen this round: Cards 1, Cards 2, Faction Take-Over 1, Faction Take-Over 2 (R46)",
                False,
            ),
        ]

    def _highs(self) -> np.ndarray:
        high = np.ones(self.size, dtype=np.float32)
        copies = np.asarray(self.tables.card_copies, dtype=np.float32)
        for piece in self.pieces:
            if piece.counts:
                high[piece.start : piece.stop] = np.tile(copies, piece.size // len(copies))
        return high

    def scale_values(self) -> dict[str, float]:
        """The scales this encoding divides by, by name (the expansion ones only in the expansion encoder)."""
        values = dataclasses.asdict(self.scales)
        if not self._wide:
            values.pop("tiles")
            values.pop("patrons")
        return {name: float(v) for name, v in values.items()}

    def layout_rows(self) -> list[tuple[str, int, int, str]]:
        """(name, start, size, meaning) of every piece, then of every per-player field (slot 0)."""
        rows = [(p.name, p.start, p.size, p.meaning) for p in self.pieces]
        base = self._player_offsets[0]
        for (name, size, meaning), off in zip(self.per_player, self.player_field_offset, strict=True):
            rows.append((f"players[0].{name}", base + off, size, meaning))
        return rows

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Name every part of an observation (for debugging agents): each piece, and the player block
        as ``players[k].<field>`` for relative seat ``k``. The arrays are views into ``obs``."""
        if obs.shape != (self.size,):
            raise ValueError(f"expected an observation of shape ({self.size},), got {obs.shape}")
        out = {p.name: obs[p.start : p.stop] for p in self.pieces if p.name != "players"}
        for k, base in enumerate(self._player_offsets):
            for (name, size, _), offset in zip(self.per_player, self.player_field_offset, strict=True):
                out[f"players[{k}].{name}"] = obs[base + offset : base + offset + size]
        return out

    # -- encoding -------------------------------------------------------------
    #
    # One-hots and card counts go into a bytearray (cheap per entry in Python)
    # that is converted once. Scaled amounts always occupy the same entries for a
    # given (player count, observer), so their indices are one cached array and
    # their values one list in that order: global amounts, then per seat.

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the native core's object (made again when first needed)."""
        state = self.__dict__.copy()
        state["_native"] = None
        return state

    def encode_game(self, game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` in ``game`` (as :meth:`encode`): a native game's is written by the native
        core's encoder (identical entries, tests/native), into ``out`` (float32, length ``size``) when given."""
        core = game.native_core
        if core is None:
            row = self.encode(game.state, seat)
            if out is None:
                return row
            out[:] = row
            return out
        encoder = self._native or self.native_encoder()
        if out is None:
            result: np.ndarray = encoder.encode(core, seat)
            return result
        encoder.encode_into(core, seat, out)
        return out

    def native_encoder(self) -> Any:
        """The native core's encoder of the same components, round limit and space (identical entries, tests/native)."""
        if self._native is None:
            self._native = native.core_module.ObservationEncoder(self.components, self.round_limit, self.space.value)
        return self._native

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (float32, shape ``(size,)``, inside ``[0, high]``).

        Card counts never exceed the copies of their type (the engine conserves
        cards), so only the scaled amounts need clipping.

        Raises:
            ValueError: a base encoder given an expansion game (its cards and pieces have no entries here).
        """
        if state.config.expansion and not self._wide:
            raise ValueError("this observation encodes base games; an expansion game needs the expansion encoder")
        buf = bytearray(self.size)
        card = victory_card(state)
        values = self._global(state, seat, card, buf)
        self._cards(state, seat, buf)
        self._board(state, seat, buf, values)
        if self._wide:
            self._expansion(state, seat, buf, values)
        self._players(state, seat, card, buf, values)
        obs = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        obs[self._amount_indices(state.num_players, seat)] = np.minimum(values, 1.0)
        return obs

    def _relative(self, n: int, seat: int) -> tuple[int, ...]:
        """Relative slot of every absolute seat, for ``n`` players seen from ``seat``."""
        return self._relative_slots[n][seat]

    def _amount_indices(self, n: int, seat: int) -> np.ndarray:
        """Where the scaled amounts go, in the order :meth:`encode` lists their values (cached per ``(n, seat)``).

        The ``board_hidden`` entries of face-up fields are always 0 and have no value in the list.
        """
        key = (n, seat)
        found = self._amount_index_cache.get(key)
        if found is None:
            start = self._start
            o = self._field_offset
            hidden = start["board_hidden"]
            out = [
                start["round"],
                *range(start["thresholds"], start["thresholds"] + len(self.amounts)),
                start["required"],
                start["colosseum"],
                start["piles"],
                start["piles"] + 1,
                start["staged_size"],
                start["my_bid"] + 1,
                *(hidden + slot for slot, (region, _) in enumerate(self.fields) if not face_up(region)),
            ]
            if self._wide:
                out += [start[name] for name in ("emperor_pile", "placed_this_turn", "augur_drawn", "patron_supply")]
                out += range(start["brutii_discs"], start["brutii_discs"] + len(BrutiiDisc))
            names = ["money", "laurels", "legions", "hand_size", "followers", "score", "coin_bowl"]
            if self._wide:
                names.append("patrons")
            per_seat = [o[name] for name in names]
            progress = o["progress"]
            for s in range(n):
                base = self._player_offsets[(s - seat) % n]
                out.extend(base + k for k in per_seat)
                out.extend(range(base + progress + 2, base + progress + 2 + len(self.amounts)))
            found = self._amount_index_cache[key] = np.asarray(out, dtype=np.intp)
        return found

    def _goals(self, state: GameState, card: AnyCard | None, buf: bytearray) -> list[float]:
        """The card's thresholds (each / its scale) and required objectives; sets the card's one-hots."""
        start = self._start
        n = state.num_players
        if card is None:
            buf[start["point_variant"]] = 1
            markers = state.config.point_variant_markers if self._wide else self.components.point_variant[n]
            return [markers / len(Faction) if k == "markers" else 0.0 for k in self.amounts] + [0.0]
        buf[start["victory_card"] + self._victory_slot[card.id]] = 1
        obligatory = start["obligatory"]
        slot = self._objective_slot
        for o in card.obligatory:
            buf[obligatory + slot[o]] = 1
        t = card.thresholds
        goals = [t.get(k, 0) / scale for k, scale in zip(self.amounts, self._amount_scales, strict=True)]
        goals.append(card.required.get(n, 0) / len(self.objectives))
        return goals

    def _global(self, state: GameState, seat: int, card: AnyCard | None, buf: bytearray) -> list[float]:
        """Set the global one-hots; return the global amounts (the start of the amounts list)."""
        sc = self.scales
        n = state.num_players
        buf[self._at_phase + int(state.phase)] = 1
        values = [state.round / sc.rounds]
        values += self._goals(state, card, buf)
        pending = state.pending
        if pending is not None:
            slot = self._kind_slot.get(pending.kind)
            if slot is not None:
                buf[self._at_pending_kind + slot] = 1
            else:
                buf[self._at_pending_brutii + self._brutii_kind_slot[pending.kind]] = 1
            buf[self._at_pending_seat + (pending.seat - seat) % n] = 1
            if pending.faction >= 0:
                buf[self._at_pending_faction + pending.faction] = 1
            if pending.index >= 0:
                buf[self._at_pending_index + pending.index] = 1
        buf[self._at_chariot + (state.chariot if state.chariot >= 0 else len(Faction))] = 1
        first_laurel = self._at_first_laurel
        for f, up in enumerate(state.first_laurel):
            if up:
                buf[first_laurel + f] = 1
        own_bid = state.bids[seat]
        if own_bid >= 0 or own_bid == OPTED_OUT:  # the Brutii's sealed opt-out (R49): a bid of 0 to him
            buf[self._at_my_bid] = 1
        deck = self._deck_size
        values.append(state.colosseum / sc.money)
        values.append(len(state.draw) / deck)
        values.append(len(state.discard) / deck)
        values.append((len(state.staged) if pending is not None and pending.seat == seat else 0) / sc.cards)
        values.append(max(own_bid, 0) / sc.money)
        return values

    def _cards(self, state: GameState, seat: int, buf: bytearray) -> None:
        hand = self._at_hand
        own = state.players[seat].hand  # shorter than the piece when base rules play through the expansion encoder
        buf[hand : hand + len(own)] = bytes(own)
        pending = state.pending
        if state.staged and pending is not None and pending.seat == seat:
            staged = self._at_staged
            for c in state.staged:
                buf[staged + c] += 1
        contest = self._at_contest
        for c in state.contest:
            buf[contest + c] += 1
        if state.pairs:
            pairs = self._at_pairs
            for s, a, b in state.pairs:
                if s == seat:
                    buf[pairs + a] += 1
                    buf[pairs + b] += 1
        sets = self._at_sets
        for cards in state.sets:
            for c in cards:
                buf[sets + c] += 1

    def _board(self, state: GameState, seat: int, buf: bytearray, values: list[float]) -> None:
        """Face-up cards as counts per field; face-down fields only as their size (``board_hidden``, amounts)."""
        fields = state.fields
        for region, i, base in self._open_fields:
            for card in fields[region][i]:
                buf[base + card] += 1
        scale = self.scales.cards
        for closed, i, base in self._closed_fields:  # not ``region``: compiled, that local is an int (loop above)
            cards = fields[closed][i]
            if cards and field_visible(state, seat, closed, i):
                for card in cards:
                    buf[base + card] += 1
                values.append(0.0)
            else:
                values.append(len(cards) / scale)
        rel = self._relative(state.num_players, seat)
        bases = self._space_bases
        for space, occupant in enumerate(state.spaces):
            if occupant >= 0:
                buf[bases[space] + rel[occupant]] = 1

    def _expansion(self, state: GameState, seat: int, buf: bytearray, values: list[float]) -> None:
        """The expansion pieces (R33-R40): one-hots into ``buf``, amounts appended to ``values``."""
        start = self._start
        sc = self.scales
        n = state.num_players
        spec = self.components.expansion
        assert spec is not None  # an expansion encoder
        tiles = len(self.tile_ids)
        if not state.config.expansion:  # base rules through the expansion ids: no expansion piece is in play
            buf[start["emperor_up"] + tiles] = 1
            for official in range(len(Official)):
                buf[start["officials"] + official * (self.max_players + 1) + self.max_players] = 1
            values.extend((0.0,) * (4 + len(BrutiiDisc)))
            return
        slot = self._tile_slot
        buf[start["emperor_up"] + (slot[state.emperor_up] if state.emperor_up >= 0 else tiles)] = 1
        for tile in state.matrona_tiles:
            buf[start["matrona_tiles"] + slot[tile]] = 1
        rel = self._relative(n, seat)
        holders = start["officials"]
        for official, holder in enumerate(state.officials):
            buf[holders + official * (self.max_players + 1) + (rel[holder] if holder >= 0 else self.max_players)] = 1
        for official, chosen in enumerate(state.officials_chosen):
            if chosen:
                buf[start["officials_chosen"] + official] = 1
        for f, blocked in enumerate(state.benefit_blocked):
            if blocked:
                buf[start["benefit_blocked"] + f] = 1
        if state.officials[Official.AUGUR] == seat:  # R39: only the Augur sees what he drew
            augur = start["augur_cards"]
            for c in state.augur_cards:
                buf[augur + c] += 1
        patrons = sum(p.patrons for p in state.players)
        supply = spec.patron_supply
        values.extend(
            (
                len(state.emperor_pile) / max(1, tiles),
                state.placed_this_turn / sc.followers,
                len(state.augur_cards) / sc.cards,
                (supply - patrons) / supply if supply else 0.0,
            )
        )
        self._brutii(state, buf, values)

    def _brutii(self, state: GameState, buf: bytearray, values: list[float]) -> None:
        """The Brutii's public state (R45): played cards, options (into ``buf``), revealed discs per symbol
        (amounts appended to ``values``); zero without him. His face-down discs have no order to encode."""
        if state.brutii < 0:
            values.extend((0.0,) * len(BrutiiDisc))
            return
        start = self._start
        for card in state.brutii_played:
            buf[start["brutii_played"] + card] = 1
        for k, chosen in enumerate(state.brutii_options):
            if chosen >= 0:
                buf[start["brutii_options"] + 2 * k + chosen] = 1
        revealed = state.brutii_revealed
        values.extend(revealed.count(d) / copies for d, copies in zip(BrutiiDisc, self.disc_copies, strict=True))

    def _players(self, state: GameState, seat: int, card: AnyCard | None, buf: bytearray, values: list[float]) -> None:
        """The player blocks: flags, markers, tile, controls, first bonus (into ``buf``); amounts to ``values``."""
        n = state.num_players
        o = self._field_offset
        flags_at, markers_at, tile_at, progress_at = o["flags"], o["markers"], o["tile"], o["progress"]
        count = len(PLAYER_FLAGS)
        pending_seat = state.pending.seat if state.pending is not None else -1
        offsets = self._player_offsets
        rel = self._relative(n, seat)
        sc = self.scales
        money, laurels, legions, cards = sc.money, sc.laurels, sc.legions, sc.cards
        followers, score = sc.followers, sc.score
        bowl = state.coin_bowl
        total = scores(state)
        goals = [card.thresholds.get(k, 0) for k in self.amounts] if card is not None else None
        # cards out of the hand that still count as held (public_hand_size): sealed pairs, the decider's staged cards
        held_back = [0] * n
        for owner, _, _ in state.pairs:
            held_back[owner] += 2
        if state.pending is not None:
            held_back[state.pending.seat] += len(state.staged)
        wide = self._wide
        no_progress = [0.0] * len(self.amounts)
        fulfilled = state.fulfilled_since
        for s, p in enumerate(state.players):
            base = offsets[rel[s]]
            buf[base + flags_at : base + flags_at + count] = bytes(
                (
                    True,
                    p.eternal_favor,
                    p.temporary_favor,
                    fulfilled[s] >= 0,
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
            values += (
                p.money / money,
                p.laurels / laurels,
                p.legions / legions,
                (p.hand_size + held_back[s]) / cards,
                p.followers / followers,
                max(total[s], 0) / score,
                bowl.count(s) / followers if bowl else 0.0,
            )
            if wide:
                values.append(p.patrons / sc.patrons)
            values += self._progress(p, goals) if goals is not None else no_progress
        controls = o["controls"]
        for f, owner in enumerate(state.controller):
            if owner >= 0:
                buf[offsets[rel[owner]] + controls + f] = 1
        if not state.config.point_variant:
            first = o["first"]
            for s in first_fulfillers(state):
                buf[offsets[rel[s]] + first] = 1
        if wide and state.config.expansion:
            self._expansion_holdings(state, seat, buf)

    def _progress(self, p: PlayerState, goals: list[int]) -> tuple[float, ...]:
        """Progress of ``p`` towards each amount objective of the card (unclipped)."""
        if not self._wide:  # no goal: 1 (met)
            g0, g1, g2, g3 = goals
            return (
                p.laurels / g0 if g0 else 1.0,
                p.legions / g1 if g1 else 1.0,
                p.money / g2 if g2 else 1.0,
                p.num_markers / g3 if g3 else 1.0,
            )
        # an objective missing from the card (denarii on an expansion card) shows no progress
        held = (p.laurels, p.legions, p.money, p.num_markers, len(p.emperor_tiles), p.patrons)
        return tuple(h / g if g else 0.0 for h, g in zip(held, goals, strict=True))

    def _expansion_holdings(self, state: GameState, seat: int, buf: bytearray) -> None:
        """Claimed emperor tiles and held officials in the player blocks (both public, R35, R36)."""
        n = state.num_players
        o = self._field_offset
        offsets = self._player_offsets
        slot = self._tile_slot
        for s, p in enumerate(state.players):
            base = offsets[(s - seat) % n] + o["emperor_tiles"]
            for tile in p.emperor_tiles:
                buf[base + slot[tile]] = 1
        for official, holder in enumerate(state.officials):
            if holder >= 0:
                buf[offsets[(holder - seat) % n] + o["officials"] + official] = 1
        if state.brutii >= 0:
            buf[offsets[(state.brutii - seat) % n] + o["brutii"]] = 1


def encoder_for(
    components: Components, round_limit: int = DEFAULT_ROUND_LIMIT, space: Space | str = Space.BASE
) -> ObservationEncoder:
    """The shared encoder of a component set, round limit and :class:`Space`; ValueError as
    :class:`ObservationEncoder`."""
    return _encoder(components, round_limit, Space.parse(space))


@cache
def _encoder(components: Components, round_limit: int, space: Space) -> ObservationEncoder:
    return ObservationEncoder(components, round_limit, space)
