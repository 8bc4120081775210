"""Small helpers for building hand-written Tribune positions in tests.

``position(...)`` fills the boring parts of a state document (config, draw
pile) and loads it with :meth:`Game.from_json`; the other helpers turn labels
such as ``"senators:7"`` or ``"curia:2"`` into engine ids and read holdings back
as labels, so tests can be written in the rulebook's terms.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from tribune_env import Action, Faction, Game, PickCard, PlaceFollower, Region, default_components
from tribune_env.engine.tables import tables_for

TABLES = tables_for(default_components())
HIDDEN = -1


def _used_labels(doc: dict[str, Any]) -> Counter[str]:
    """Every card label placed somewhere in ``doc`` (hands, sets, board, piles)."""
    used: Counter[str] = Counter()
    for player in doc.get("players", []):
        used.update(player.get("hand", []))
        for cards in player.get("sets", {}).values():
            used.update(cards)
    for fields in doc.get("board", {}).values():
        for cards in fields:
            used.update(cards)
    used.update(doc.get("discard_pile", []))
    draw = doc.get("draw_pile", "rest")
    if draw != "rest":
        used.update(draw)
    return used


def all_cards() -> list[str]:
    """One label per physical card (100 in the base game), in card-type order."""
    return [TABLES.card_label[c] for c, n in enumerate(TABLES.card_copies) for _ in range(n)]


def remaining_cards(doc: dict[str, Any], also: Iterable[str] = ()) -> list[str]:
    """Labels of the cards not placed in ``doc`` nor listed in ``also`` (sorted, deterministic)."""
    left = Counter(all_cards())
    left.subtract(_used_labels(doc))
    left.subtract(Counter(also))
    bad = [label for label, n in left.items() if n < 0]
    if bad:
        raise ValueError(f"more copies placed than exist: {bad}")
    out = []
    for name in all_cards():
        if left[name] > 0:
            left[name] -= 1
            out.append(name)
    return out


def position(
    players: int | list[dict[str, Any]] = 2,
    *,
    victory_card: str | None = "alea_long",
    auto_forced: bool = False,
    config: dict[str, Any] | None = None,
    draw_top: list[str] | None = None,
    **fields: Any,
) -> Game:
    """Load a hand-written position.

    ``players`` is a player count (players with default holdings) or the list
    of player documents. ``fields`` are further top-level keys of the state
    document (``phase``, ``board``, ``followers`` ...). By default the draw
    pile holds every card placed nowhere else, shuffled. With ``draw_top`` the
    draw pile is explicit: the rest of the deck at the bottom and the
    ``draw_top`` cards on top, ``draw_top[0]`` being drawn first.
    """
    player_docs = [{} for _ in range(players)] if isinstance(players, int) else players
    cfg: dict[str, Any] = {"players": len(player_docs), "victory_card": victory_card, "auto_forced": auto_forced}
    cfg.update(config or {})
    doc: dict[str, Any] = {"config": cfg, "round": 1, "players": player_docs, "draw_pile": "rest"}
    doc.update(fields)
    if draw_top is not None:
        doc["draw_pile"] = []
        doc["draw_pile"] = remaining_cards(doc, also=draw_top) + list(reversed(draw_top))
    return Game.from_json(doc)


def card(g: Game | None, label: str) -> int:
    """Card type id of ``"faction:value"``."""
    tables = g.tables if g is not None else TABLES
    return tables.card_id(label)


def label(card_type: int) -> str:
    return TABLES.card_label[card_type]


def space(g: Game | None, name: str) -> int:
    """Follower space id of a label such as ``"curia:2"``, ``"faction:senators:1"`` or ``"coin_bowl"``."""
    tables = g.tables if g is not None else TABLES
    for spec in tables.spaces:
        if spec.label == name:
            return spec.id
    raise ValueError(f"unknown follower space {name!r}")


def place(g: Game, name: str) -> PlaceFollower:
    return PlaceFollower(space(g, name))


def pick(g: Game, label_: str) -> PickCard:
    return PickCard(card(g, label_))


def hand(g: Game, seat: int) -> list[str]:
    """Sorted labels of the cards in ``seat``'s hand (with repeats)."""
    counts = g.position().players[seat].hand
    return sorted(label(c) for c, n in enumerate(counts) for _ in range(n))


def labels(cards: Iterable[int]) -> list[str]:
    return sorted(label(c) for c in cards)


def set_of(g: Game, faction: Faction) -> list[str]:
    return labels(g.position().sets[faction])


def field(g: Game, region: Region, i: int = 0) -> list[str]:
    """Labels of the cards on card field ``i`` of ``region``, bottom first (not sorted)."""
    return [label(c) for c in g.position().fields[region][i]]


def discard(g: Game) -> list[str]:
    return labels(g.position().discard)


def play(g: Game, *actions: Action) -> None:
    """Apply several actions in order."""
    for action in actions:
        g.apply(action)


def total_cards(g: Game) -> int:
    return sum(g.position().card_counts())


def random_game(
    players: int, seed: int, steps: int, expansion: bool = False, brutii: bool = False, brutii_seat: int | None = None
) -> Game:
    """A game after up to ``steps`` uniformly random legal decisions (fewer if it ends first); ``brutii``: the Brutii
    variant (an expansion game at 5 or 6 seats, R42), with the Brutii at ``brutii_seat`` (default: drawn, R43)."""
    options: dict[str, Any] = {"brutii": True, "brutii_seat": brutii_seat} if brutii else {}
    game = Game.new(players=players, seed=seed, expansion=expansion or brutii, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game
