"""The messages of the language-neutral agent protocol ``tribune-agent/1`` (docs/agent-protocol.md).

This module only builds and reads messages (plain JSON-ready dicts); :mod:`agents.subprocess_agent` carries them
over a bot process's stdin and stdout. What a decision message holds is what the seat may know (R1, R2): its
:class:`~tribune_env.engine.view.PlayerView` as JSON (:func:`view_to_json`), the legal choices by their notation
(:func:`~tribune_env.engine.notation.action_text`) with words (:func:`~tribune_env.engine.describe.describe_action`),
and, for learners, the codec's observation and mask (:class:`~tribune_env.envs.infoset.InfoSet`).

The view's JSON has one key per :class:`~tribune_env.engine.view.ViewData` field, named as the field, with the
values written in the names of the state document (docs/state-format.md): cards as ``"faction:value"`` labels,
factions, regions, officials and phases by their lower-case keys, follower spaces by label, seats as integers; a
card the seat may not see is ``null``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tribune_env.data import BrutiiCard, BrutiiDisc, Faction, Official, Region
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig, RuleSet, config_to_dict
from tribune_env.engine.decisions import Pending
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text
from tribune_env.engine.state import TILE_NAMES
from tribune_env.engine.tables import Tables
from tribune_env.engine.view import HIDDEN, PlayerView, PublicPlayer, ViewData
from tribune_env.envs.infoset import InfoSet

__all__ = [
    "PROTOCOL",
    "VIEW_KEYS",
    "ProtocolError",
    "choices_to_json",
    "decision_message",
    "decode",
    "encode",
    "floats_json",
    "game_over_message",
    "hello_message",
    "pending_to_json",
    "read_hello",
    "reset_message",
    "result_to_json",
    "shown",
    "view_to_json",
]

PROTOCOL = "tribune-agent/1"
"""The protocol's name and major version: both sides name it in ``hello``; a change that breaks a bot bumps it."""

_WORDS_RNG = random.Random(0)
"""Draws the determinization whose only use is the words of the choices (they read no hidden information)."""


# -- the view ----------------------------------------------------------------------------------


def _card(tables: Tables, card: int) -> str | None:
    return None if card == HIDDEN else tables.card_label[card]


def _cards(tables: Tables, cards: Sequence[int]) -> list[str | None]:
    return [_card(tables, c) for c in cards]


def _hand(tables: Tables, counts: Sequence[int]) -> list[str]:
    """The cards of a count vector over card types, as labels (a label repeats for copies)."""
    return [tables.card_label[c] for c, n in enumerate(counts) for _ in range(n)]


def _flagged(flags: Sequence[bool], keys: Callable[[int], str]) -> list[str]:
    return [keys(i) for i, on in enumerate(flags) if on]


def _seat_or_null(seat: int) -> int | None:
    return seat if seat >= 0 else None


def _faction_key(i: int) -> str:
    return Faction(i).key


def _official_key(i: int) -> str:
    return Official(i).key


def _player(player: PublicPlayer) -> dict[str, Any]:
    return {
        "money": player.money,
        "laurels": player.laurels,
        "legions": player.legions,
        "markers": _flagged(player.markers, _faction_key),
        "tile": TILE_NAMES[player.tile],
        "eternal_favor": player.eternal_favor,
        "temporary_favor": player.temporary_favor,
        "hand_size": player.hand_size,
        "followers": player.followers,
        "fulfilled_since": player.fulfilled_since,
        "patrons": player.patrons,
        "emperor_tiles": list(player.emperor_tiles),
    }


def pending_to_json(pending: Pending | None) -> dict[str, Any] | None:
    """The pending decision as the state document writes it: ``kind``, ``seat``, ``faction`` (key or null),
    ``index``."""
    if pending is None:
        return None
    return {
        "kind": pending.kind.key,
        "seat": pending.seat,
        "faction": Faction(pending.faction).key if pending.faction >= 0 else None,
        "index": pending.index,
    }


def _board(data: ViewData, tables: Tables) -> dict[str, list[list[str | None]]]:
    return {r.key: [_cards(tables, f) for f in data.board[r]] for r in tables.regions if r < len(data.board)}


def _brutii_options(options: Sequence[int]) -> dict[str, int | None]:
    """R46: the options of "Cards" and "Faction Take-Over" as the printed numbers 1 and 2 (null: none yet)."""
    keys = ("cards", "takeover")
    return {key: (options[i] + 1 if options[i] >= 0 else None) for i, key in enumerate(keys) if i < len(options)}


_Writer = Callable[[ViewData, Tables], Any]
_VIEW_WRITERS: dict[str, _Writer] = {
    "seat": lambda d, t: d.seat,
    "num_players": lambda d, t: d.num_players,
    "round": lambda d, t: d.round,
    "phase": lambda d, t: d.phase.name.lower(),
    "start_seat": lambda d, t: d.start_seat,
    "turn_seat": lambda d, t: d.turn_seat,
    "pending": lambda d, t: pending_to_json(d.pending),
    "victory_card": lambda d, t: d.victory_card or None,
    "point_variant": lambda d, t: d.point_variant,
    "players": lambda d, t: [_player(p) for p in d.players],
    "hand": lambda d, t: _hand(t, d.hand),
    "controller": lambda d, t: {Faction(f).key: _seat_or_null(s) for f, s in enumerate(d.controller)},
    "sets": lambda d, t: {Faction(f).key: _cards(t, cards) for f, cards in enumerate(d.sets) if cards},
    "first_laurel": lambda d, t: _flagged(d.first_laurel, _faction_key),
    "board": _board,
    "spaces": lambda d, t: {t.spaces[i].label: s for i, s in enumerate(d.spaces) if s >= 0},
    "coin_bowl": lambda d, t: list(d.coin_bowl),
    "colosseum": lambda d, t: d.colosseum,
    "chariot": lambda d, t: Faction(d.chariot).key if d.chariot >= 0 else None,
    "proconsul": lambda d, t: _seat_or_null(d.proconsul),
    "draw_size": lambda d, t: d.draw_size,
    "discard_size": lambda d, t: d.discard_size,
    "staged": lambda d, t: _cards(t, d.staged),
    "contest": lambda d, t: _cards(t, d.contest),
    "my_pairs": lambda d, t: [_cards(t, pair) for pair in d.my_pairs],
    "my_bid": lambda d, t: d.my_bid,
    "sacrificed": lambda d, t: list(d.sacrificed),
    "truncated": lambda d, t: d.truncated,
    "winners": lambda d, t: list(d.winners),
    "expansion": lambda d, t: d.expansion,
    "officials": lambda d, t: {Official(o).key: _seat_or_null(s) for o, s in enumerate(d.officials)},
    "officials_chosen": lambda d, t: _flagged(d.officials_chosen, _official_key),
    "emperor_up": lambda d, t: d.emperor_up if d.emperor_up >= 0 else None,
    "emperor_pile_size": lambda d, t: d.emperor_pile_size,
    "matrona_tiles": lambda d, t: list(d.matrona_tiles),
    "augur_cards": lambda d, t: _cards(t, d.augur_cards),
    "placed_this_turn": lambda d, t: d.placed_this_turn,
    "benefit_blocked": lambda d, t: _flagged(d.benefit_blocked, _faction_key),
    "brutii": lambda d, t: _seat_or_null(d.brutii),
    "brutii_turns": lambda d, t: d.brutii_turns,
    "brutii_revealed": lambda d, t: [BrutiiDisc(x).key for x in d.brutii_revealed],
    "brutii_played": lambda d, t: [BrutiiCard(x).key for x in d.brutii_played],
    "brutii_options": lambda d, t: _brutii_options(d.brutii_options),
    "veto": lambda d, t: Region(d.veto).key if d.veto >= 0 else None,
}
"""How each :class:`ViewData` field is written (a test checks that every field has its writer)."""

VIEW_KEYS = tuple(f.name for f in dataclasses.fields(ViewData))
"""The keys of a view's JSON, in order: the fields of :class:`ViewData`."""


def view_to_json(view: PlayerView, config: GameConfig) -> dict[str, Any]:
    """The JSON object of ``view`` in the game ``config`` (its component set names the cards and spaces)."""
    data = view.data
    tables = config.tables
    return {key: _VIEW_WRITERS[key](data, tables) for key in VIEW_KEYS}


# -- the choices, the observation ----------------------------------------------------------------


def choices_to_json(legal: Sequence[Action], info: InfoSet | None, players: int, indices: bool) -> list[dict[str, Any]]:
    """One ``{"id", "words"}`` object per legal choice, in the order of ``legal``; with ``indices`` also the
    choice's ``index`` in the action space of :attr:`InfoSet.space` (``null`` if the space cannot express it).

    The words come from a determinization of ``info`` (they read only public information); without ``info``
    they are the ids.
    """
    game: Game | None = info.sample(_WORDS_RNG) if info is not None else None
    out: list[dict[str, Any]] = []
    for action in legal:
        text = action_text(action)
        out.append({"id": text, "words": game.describe(action) if game is not None else text})
    if indices and info is not None:
        codec = info.codec
        for entry, action in zip(out, legal, strict=True):
            index = codec.encode(action, info.seat, players)
            entry["index"] = index if index >= 0 else None
    return out


_FLOAT_TEXT: dict[float, str] = {}
_FLOAT_TEXT_LIMIT = 1 << 16


def floats_json(values: np.ndarray) -> str:
    """A float32 vector as a JSON array text, each number in its shortest form that reads back to the same float32
    (``0`` and ``1`` without a decimal point)."""
    cache = _FLOAT_TEXT
    if len(cache) > _FLOAT_TEXT_LIMIT:
        cache.clear()
    parts = []
    for x in values.tolist():
        text = cache.get(x)
        if text is None:
            text = cache[x] = np.format_float_positional(np.float32(x), unique=True, trim="-")
        parts.append(text)
    return "[" + ",".join(parts) + "]"


# -- the messages ------------------------------------------------------------------------------


def hello_message() -> dict[str, Any]:
    """The host's first message; the bot answers with its own ``hello`` (see :func:`read_hello`)."""
    return {"type": "hello", "protocol": PROTOCOL}


def reset_message(game: int, seat: int, config: GameConfig, seed: int) -> dict[str, Any]:
    """A new game: its number in this session (from 1), the bot's seat, the rule set, the options
    (:func:`config_to_dict`) and the seed of the bot's randomness; the bot answers ``ready``."""
    return {
        "type": "reset",
        "game": game,
        "seat": seat,
        "rules": str(config.rules),
        "config": config_to_dict(config),
        "seed": seed,
    }


def decision_message(
    game: int,
    decision: int,
    view: PlayerView,
    legal: Sequence[Action],
    info: InfoSet | None,
    config: GameConfig,
    observation: bool,
) -> dict[str, Any]:
    """A decision of the bot's seat (the ``decision``-th of game ``game``); the bot answers ``action``.

    With ``observation`` (the bot asked for it in its ``hello``) the message also holds the codec's
    ``observation`` and ``mask`` and each choice's ``index``; their ``space`` is named. The observation is left
    as a :class:`numpy.ndarray`: :func:`encode` writes it compactly.
    """
    message: dict[str, Any] = {
        "type": "act",
        "game": game,
        "decision": decision,
        "view": view_to_json(view, config),
        "legal": choices_to_json(legal, info, config.players, observation),
    }
    if observation:
        message["space"] = str(info.space) if info is not None else None
        message["observation"] = info.observation() if info is not None else None
        message["mask"] = info.action_mask().tolist() if info is not None else None
    return message


def result_to_json(game: Game) -> dict[str, Any] | None:
    """The result of a finished game (public to all at its end), or ``None`` when the game did not reach its end
    (cut short by a forfeit, or left)."""
    if not game.is_over:
        return None
    return {
        "scores": list(game.scores()),
        "ranks": list(game.ranks()),
        "winners": list(game.winners),
        "rounds": game.round,
        "truncated": game.truncated,
    }


def game_over_message(game: int, result: dict[str, Any] | None) -> dict[str, Any]:
    """The game ``game`` is over; ``result`` from :func:`result_to_json` (``null``: it did not reach its end).
    The bot does not answer."""
    return {"type": "game_over", "game": game, "result": result}


# -- the wire ---------------------------------------------------------------------------------


class ProtocolError(ValueError):
    """A bot's message that breaks the protocol; the message says how."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line: compact ASCII JSON and ``\\n`` (an ``observation`` array as :func:`floats_json`)."""
    observation = message.get("observation")
    if isinstance(observation, np.ndarray):
        rest = {key: value for key, value in message.items() if key != "observation"}
        text = json.dumps(rest, separators=(",", ":"), allow_nan=False)
        text = f'{text[:-1]},"observation":{floats_json(observation)}}}'
    else:
        text = json.dumps(message, separators=(",", ":"), allow_nan=False)
    return text.encode("ascii") + b"\n"


def decode(line: bytes, expected: str) -> dict[str, Any]:
    """The bot's message on ``line`` (without its newline), which must be a JSON object of type ``expected`` or
    ``error``; :class:`ProtocolError` otherwise."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        message = None
    if not isinstance(message, dict):
        raise ProtocolError(f"answered {shown(line)}, which is not a JSON object (expected the {expected!r} message)")
    kind = message.get("type")
    if kind not in (expected, "error"):
        raise ProtocolError(f"answered a message of type {shown(kind)}, expected {expected!r}")
    return message


def shown(value: object, limit: int = 120) -> str:
    """``value`` for a message: its ``repr`` (bytes as text), control characters escaped, cut to ``limit``."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "backslashreplace")
    text = repr(value) if not isinstance(value, str) or len(value) <= limit else repr(value[:limit]) + "..."
    return text.encode("ascii", "backslashreplace").decode("ascii")[: limit + 40]


def read_hello(message: dict[str, Any]) -> tuple[str, frozenset[RuleSet], bool]:
    """``(name, rule sets, observation)`` from the bot's ``hello``; :class:`ProtocolError` names a bad field."""
    protocol = message.get("protocol")
    if protocol != PROTOCOL:
        raise ProtocolError(f"hello: speaks protocol {shown(protocol)}, this host speaks {PROTOCOL!r}")
    name = message.get("name", "bot")
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError(f"hello: 'name' must be a non-empty string, got {shown(name)}")
    rules = message.get("rules")
    if not isinstance(rules, list) or not rules:
        raise ProtocolError(
            f"hello: 'rules' must list the rule sets the bot plays (base, expansion, brutii), got {shown(rules)}"
        )
    try:
        rule_sets = frozenset(RuleSet.parse(r) for r in rules)
    except ValueError as exc:
        raise ProtocolError(f"hello: 'rules': {exc}") from None
    observation = message.get("observation", False)
    if not isinstance(observation, bool):
        raise ProtocolError(f"hello: 'observation' must be true or false, got {shown(observation)}")
    return name.strip(), rule_sets, observation
