"""The integer action space: one fixed ``Discrete(n)`` for every player count and decision kind.

The space is a sequence of contiguous blocks, each the image of one typed action
family; sizes come from the component tables, so another component file gives
another (still fixed) layout:

====================  =============================================================
block                 meaning of ``index - start``
====================  =============================================================
``card``              card type (faction, value) as in :mod:`tribune_env.engine.tables`
``place``             follower space id
``bid``               amount in denarii, 0..``bid_cap``
``commit``            finish a take-over set / Field of Mars pair, buy the legion
``decline``           the "no" of an optional choice
``option``            option 0 or 1 of a two-option choice
``faction``           a faction (Cato's marker, the chariot)
``assassinate``       ``relative_seat * factions + faction``; relative seat 0 is the
                      acting player, 1 the next in turn order, ...
====================  =============================================================

The expansion codec (``ActionCodec(components, space=Space.EXPANSION)``, the space of
the ``TribuneExpansion`` environments) keeps every block above at the same indices and
appends:

====================  =============================================================
``card_x``            expansion card type (slaves, then the assassin) minus the number
                      of base card types
``place_x``           expansion follower space (Refugium, Basilica, Capitoleum)
``assassinate_x``     assassin against relative seats beyond the base game's largest
                      count (the sixth seat of a Brutii game)
``tile``              claim an emperor tile (component-file order)
``official``          choose an official (Capitoleum order)
``brutii_card``       the Brutii plays one of his action cards (:class:`BrutiiCard`, R44)
``veto``              the region his Veto names (R54): one entry per region of the
                      expansion board, in evaluation order
====================  =============================================================

so one ``Discrete(n)`` serves every seat count of the expansion (2-6), with or
without the Brutii, and base-rule games played through the expansion ids. The
Brutii's other decisions use the shared blocks: his options (R46) ``option``, the
legion of "Buy a Legion" (R51) ``commit``/``decline``, his chariot opt-out (R49)
``decline``, the cards he lays for a slave (R52) ``card``/``card_x``.

Only seat-naming actions depend on who acts: :meth:`ActionCodec.decode` and
:meth:`ActionCodec.encode` take the acting seat and the player count. Everything
else is a tuple lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, SupportsIndex

import numpy as np

from tribune_env.codec.space import Space
from tribune_env.data import BrutiiCard, Components, Faction, Official, Region, default_components
from tribune_env.data.schema import python_class
from tribune_env.engine import native
from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    OPTIONS,
    Action,
    Assassinate,
    bid,
    choose_action_card,
    choose_faction,
    choose_official,
    choose_option,
    choose_region,
    choose_tile,
    pick_card,
    place_follower,
)
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.game import Game
from tribune_env.engine.registry import option_labels
from tribune_env.engine.tables import Tables, tables_for

BID_CAP = 60
"""Highest bid the codec can express. Denarii score one point per ten, so a bid
above 60 costs more points than any auction in the game can return; engine bids
above the cap are left out of the mask (documented in ``docs/actions.md``)."""


@python_class  # a Python class in the compiled build too: pickles and copies with its fields
class ActionDecodeError(ValueError):
    """An integer that is not an action of the codec."""


@dataclass(frozen=True)
class Block:
    """One contiguous block of the action space."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class ActionCodec:
    """Bijection between integer actions and typed actions, for one component set and :class:`Space`.

    ``n`` is the size of the action space. It does not depend on the player
    count: seat-naming blocks are sized for the largest supported count.
    In :attr:`Space.EXPANSION` the expansion blocks are appended (module docstring).

    Raises:
        ValueError: ``space`` is not a :class:`Space` (or its name), or the expansion space with a component set that
            has no expansion tables.
    """

    def __init__(
        self, components: Components | None = None, bid_cap: int = BID_CAP, space: Space | str = Space.BASE
    ) -> None:
        components = components if components is not None else default_components()
        self.space = Space.parse(space)
        wide = self._wide = self.space is Space.EXPANSION  # the expansion blocks
        if wide and components.expansion is None:
            raise ValueError("an expansion action space needs a component file with [expansion] tables")
        self.components = components
        self._native: Any = None  # the native core's codec, made when a native game is first read
        self.tables: Tables = tables_for(components, wide)
        base = tables_for(components)
        self.bid_cap = bid_cap
        self.num_factions = len(Faction)
        self.base_players = max(components.player_counts)
        extra = components.expansion
        self.max_players = max(extra.seat_counts) if wide and extra is not None else self.base_players
        self.tile_ids: tuple[int, ...] = tuple(t.id for t in extra.emperor_tiles) if wide and extra else ()
        #: the regions a Veto may name (R54): every region of the expansion board, in evaluation order
        self.veto_regions: tuple[Region, ...] = self.tables.regions if wide else ()
        sizes = [
            ("card", base.num_card_types, "choose a card type (faction, value)"),
            ("place", len(base.spaces), "place a follower on a space"),
            ("bid", bid_cap + 1, f"bid 0..{bid_cap} denarii"),
            ("commit", 1, "commit the staged set or pair; buy the offered legion"),
            ("decline", 1, "decline the optional choice"),
            ("option", OPTIONS, "option 0 or 1 of a two-option choice"),
            ("faction", self.num_factions, "name a faction"),
            ("assassinate", self.base_players * self.num_factions, "assassin against (relative seat, faction)"),
        ]
        if wide:
            sizes += [
                ("card_x", self.tables.num_card_types - base.num_card_types, "choose a slave or assassin card"),
                ("place_x", len(self.tables.spaces) - len(base.spaces), "place a follower on an expansion space"),
                (
                    "assassinate_x",
                    (self.max_players - self.base_players) * self.num_factions,
                    f"assassin against (relative seat {self.base_players}.., faction)",
                ),
                ("tile", len(self.tile_ids), "claim a favor of the emperor tile"),
                ("official", len(Official), "choose an official"),
                ("brutii_card", len(BrutiiCard), "the Brutii plays one of his action cards (R44)"),
                ("veto", len(self.veto_regions), "the region the Brutii's Veto names (R54)"),
            ]
        blocks: list[Block] = []
        start = 0
        for name, size, meaning in sizes:
            blocks.append(Block(name, start, size, meaning))
            start += size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.block: dict[str, Block] = {b.name: b for b in blocks}
        self.n = start
        self._fixed: tuple[Action | None, ...] = self._fixed_actions(base.num_card_types, len(base.spaces))
        self._index: dict[Action, int] = {a: i for i, a in enumerate(self._fixed) if a is not None}
        # The engine hands out shared action instances (cached constructors), so a lookup by identity
        # finds almost every legal action without hashing a dataclass; the instances live for the process.
        self._by_id: dict[int, int] = {id(a): i for a, i in self._index.items()}
        self._assassinate = self.block["assassinate"].start
        self._assassinate_x = self.block["assassinate_x"].start if wide else -1

    def _fixed_actions(self, base_cards: int, base_spaces: int) -> tuple[Action | None, ...]:
        """The seat-independent action of every index (``None`` in the seat-relative blocks)."""
        out: list[Action | None] = []
        out.extend(pick_card(c) for c in range(base_cards))
        out.extend(place_follower(s) for s in range(base_spaces))
        out.extend(bid(b) for b in range(self.bid_cap + 1))
        out.append(COMMIT)
        out.append(DECLINE)
        out.extend(choose_option(o) for o in range(OPTIONS))
        out.extend(choose_faction(f) for f in range(self.num_factions))
        out.extend([None] * self.block["assassinate"].size)
        if self._wide:
            out.extend(pick_card(c) for c in range(base_cards, self.tables.num_card_types))
            out.extend(place_follower(s) for s in range(base_spaces, len(self.tables.spaces)))
            out.extend([None] * self.block["assassinate_x"].size)
            out.extend(choose_tile(t) for t in self.tile_ids)
            out.extend(choose_official(o) for o in Official)
            out.extend(choose_action_card(c) for c in BrutiiCard)
            out.extend(choose_region(int(r)) for r in self.veto_regions)
        return tuple(out)

    # -- integer <-> typed ----------------------------------------------------

    def decode(self, index: SupportsIndex, seat: int, num_players: int) -> Action:
        """The typed action of ``index`` (an integer, numpy's included) for the player at absolute ``seat``.

        Raises:
            ActionDecodeError: ``index`` is not an integer, is outside ``0..n-1`` or names a seat not in the game.
        """
        index = self._check_index(index)  # the user's value: typed SupportsIndex so compiled code accepts numpy's
        action = self._fixed[index]
        if action is not None:
            return action
        if index >= self._assassinate_x >= 0:
            relative, faction = divmod(index - self._assassinate_x, self.num_factions)
            relative += self.base_players
        else:
            relative, faction = divmod(index - self._assassinate, self.num_factions)
        if relative >= num_players:
            raise ActionDecodeError(f"action {index} names relative seat {relative}, but the game has {num_players}")
        return Assassinate((seat + relative) % num_players, faction)

    def encode(self, action: Action, seat: int, num_players: int) -> int:
        """Index of ``action`` for the player at ``seat``; -1 if the codec cannot express it (bid above the cap)."""
        index = self._index.get(action)
        if index is not None:
            return index
        if (
            isinstance(action, Assassinate)
            and 0 <= action.seat < num_players
            and 0 <= seat < num_players
            and 0 <= action.faction < self.num_factions
        ):
            relative = (action.seat - seat) % num_players
            if relative < self.base_players:
                return self._assassinate + relative * self.num_factions + action.faction
            if self._assassinate_x >= 0 and relative < self.max_players:
                return self._assassinate_x + (relative - self.base_players) * self.num_factions + action.faction
        return -1

    def indices(self, actions: Iterable[Action], seat: int, num_players: int) -> list[int]:
        """Indices of the expressible ``actions`` (bids above the cap are dropped)."""
        by_id = self._by_id
        out: list[int] = []
        for action in actions:
            i = by_id.get(id(action))
            if i is None:
                i = self.encode(action, seat, num_players)
                if i < 0:
                    continue
            out.append(i)
        return out

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied without the native core's object (made again when first needed)."""
        state = self.__dict__.copy()
        state["_native"] = None
        return state

    def native_codec(self) -> Any:
        """The native core's codec of the same component set, space and bid cap (identical ids, tests/native)."""
        if self._native is None:
            self._native = native.core_module.ActionCodec(self.components, self.space.value, self.bid_cap)
        return self._native

    def mask_game(self, game: Game, seat: int) -> np.ndarray:
        """The mask of ``seat`` in ``game`` (int8; all zero when another seat or nobody is to act), written by the
        native core's codec on a native game."""
        core = game.native_core
        if core is None:
            if game.current_seat != seat:
                return np.zeros(self.n, dtype=np.int8)
            return self.mask(game.legal_actions(), seat, game.num_players)
        result: np.ndarray = (self._native or self.native_codec()).mask_of_seat(core, seat)
        return result

    def mask(self, actions: Sequence[Action], seat: int, num_players: int) -> np.ndarray:
        """An int8 vector of length ``n`` with 1 at every expressible action in ``actions``."""
        out = np.zeros(self.n, dtype=np.int8)
        out[self.indices(actions, seat, num_players)] = 1
        return out

    # -- labels ---------------------------------------------------------------

    def _check_index(self, index: object) -> int:
        """``index`` as an ``int``; :class:`ActionDecodeError` unless it is an integer (not a bool) in ``0..n-1``."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise ActionDecodeError(f"action {index!r} is not an integer (expected 0..{self.n - 1})")
        if not 0 <= index < self.n:
            raise ActionDecodeError(f"action {index!r} is outside the action space 0..{self.n - 1}")
        return int(index)

    def block_of(self, index: SupportsIndex) -> Block:
        index = self._check_index(index)
        return next(b for b in self.blocks if b.start <= index < b.stop)

    def _relative_seat(self, block: Block, offset: int) -> tuple[int, int]:
        """(relative seat, faction) of an assassin index's offset in ``block``."""
        relative, faction = divmod(offset, self.num_factions)
        return (relative + self.base_players if block.name == "assassinate_x" else relative), faction

    def label(self, index: SupportsIndex) -> str:
        """A unique, context-free label such as ``card:senators:7`` or ``assassinate:+1:legates``."""
        index = self._check_index(index)
        block = self.block_of(index)
        offset = index - block.start
        factions = self.components.factions
        name = block.name
        if name in ("card", "card_x"):
            return f"card:{self.tables.card_label[self._card(name, offset)]}"
        if name in ("place", "place_x"):
            return f"place:{self.tables.spaces[self._space(name, offset)].label}"
        if name == "bid":
            return f"bid:{offset}"
        if name in ("commit", "decline"):
            return name
        if name == "option":
            return f"option:{offset}"
        if name == "faction":
            return f"faction:{factions[offset].faction.key}"
        if name == "tile":
            return f"tile:{self.tile_ids[offset]}"
        if name == "official":
            return f"official:{Official(offset).key}"
        if name == "brutii_card":
            return f"brutii_card:{BrutiiCard(offset).key}"
        if name == "veto":
            return f"veto:{self.veto_regions[offset].key}"
        relative, faction = self._relative_seat(block, offset)
        return f"assassinate:+{relative}:{factions[faction].faction.key}"

    def _card(self, name: str, offset: int) -> int:
        """The card type of ``offset`` in the ``card`` or ``card_x`` block."""
        return offset if name == "card" else self.block["card"].size + offset

    def _space(self, name: str, offset: int) -> int:
        """The follower space of ``offset`` in the ``place`` or ``place_x`` block."""
        return offset if name == "place" else self.block["place"].size + offset

    def describe(self, index: SupportsIndex, kind: DecisionKind | None = None, faction: int = -1) -> str:
        """A readable label; with the decision ``kind`` (and its faction) options are spelled out."""
        index = self._check_index(index)
        block = self.block_of(index)
        offset = index - block.start
        factions = self.components.factions
        name = block.name
        if name in ("card", "card_x"):
            return f"choose {self.tables.card_name(self._card(name, offset))}"
        if name in ("place", "place_x"):
            return f"place a follower on {self.tables.spaces[self._space(name, offset)].label}"
        if name == "bid":
            return f"bid {offset} denarii"
        if name == "option":
            labels = option_labels(self.components, kind, faction) if kind is not None else None
            return labels[offset] if labels is not None else f"option {offset}"
        if name == "faction":
            return f"choose {factions[offset].name}"
        if name == "tile":
            return f"claim the favor of the emperor tile {self.tile_ids[offset]}"
        if name == "official":
            spec = self.components.expansion
            assert spec is not None  # the block exists only with the expansion tables
            return f"choose the {spec.official(Official(offset)).name}"
        if name == "brutii_card":
            return f"play the action card {BrutiiCard(offset).key.replace('_', ' ')} (the Brutii)"
        if name == "veto":
            region = self.veto_regions[offset].key.replace("_", " ")
            return f"veto {region}: no follower goes there this round and it is not evaluated (the Brutii)"
        if name in ("assassinate", "assassinate_x"):
            relative, target = self._relative_seat(block, offset)
            who = "your own" if relative == 0 else f"the player {relative} seat(s) after you: their"
            return f"send the assassin against {who} {factions[target].name}"
        return name

    def labels(self) -> list[str]:
        return [self.label(i) for i in range(self.n)]


def codec_for(components: Components, space: Space | str = Space.BASE) -> ActionCodec:
    """The shared codec of a component set and :class:`Space` (codecs are immutable); ValueError as
    :class:`ActionCodec`."""
    return _codec(components, Space.parse(space))


@cache
def _codec(components: Components, space: Space) -> ActionCodec:
    return ActionCodec(components, space=space)
