"""A compact text form of typed actions, for storing and replaying games.

``action_text`` and ``parse_action`` are inverse: ``place:12``, ``card:5``,
``commit``, ``decline``, ``bid:7``, ``option:1``, ``faction:3``,
``assassinate:2:6`` (absolute seat, faction), and in expansion games
``tile:4`` (a favor of the emperor tile by its printed id) and ``official:2``
(an official by its number, Princeps 0 ... Tribunus Plebis 4), and with the Brutii
``action_card:5`` (an action card by its number, Patron 0 ... Veto 11) and
``region:3`` (the region named with Veto, I-XI as 0-10). Numbers are the engine's ids
(space ids, card types), so a stored game replays exactly on the same
component set.
"""

from __future__ import annotations

from collections.abc import Callable

from tribune_env.engine.actions import (
    COMMIT,
    DECLINE,
    Action,
    Assassinate,
    Bid,
    ChooseActionCard,
    ChooseFaction,
    ChooseOfficial,
    ChooseOption,
    ChooseRegion,
    ChooseTile,
    Commit,
    Decline,
    PickCard,
    PlaceFollower,
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


def action_text(action: Action) -> str:
    """The compact text of ``action`` (see the module docstring)."""
    match action:
        case PlaceFollower(space):
            return f"place:{space}"
        case PickCard(card):
            return f"card:{card}"
        case Commit():
            return "commit"
        case Decline():
            return "decline"
        case Bid(amount):
            return f"bid:{amount}"
        case ChooseOption(option):
            return f"option:{option}"
        case ChooseFaction(faction):
            return f"faction:{faction}"
        case Assassinate(seat, faction):
            return f"assassinate:{seat}:{faction}"
        case ChooseTile(tile):
            return f"tile:{tile}"
        case ChooseOfficial(official):
            return f"official:{official}"
    return _brutii_text(action)


def _brutii_text(action: Action) -> str:
    """The Brutii's own actions: an action card (R44) and the vetoed region (R54)."""
    match action:
        case ChooseActionCard(card):
            return f"action_card:{card}"
        case ChooseRegion(region):
            return f"region:{region}"
    raise TypeError(f"not an action: {action!r}")


_ONE_NUMBER: dict[str, Callable[[int], Action]] = {
    "place": place_follower,
    "card": pick_card,
    "bid": bid,
    "option": choose_option,
    "faction": choose_faction,
    "tile": choose_tile,
    "official": choose_official,
    "action_card": choose_action_card,
    "region": choose_region,
}


def parse_action(text: str) -> Action:
    """The action written by :func:`action_text`; raises ``ValueError`` naming the bad text."""
    if not isinstance(text, str):
        raise ValueError(f"action text must be a string, got {text!r}")
    head, *rest = text.strip().split(":")
    try:
        numbers = [int(part) for part in rest]
    except ValueError:
        raise ValueError(f"bad action {text!r}: numbers expected after {head!r}") from None
    if any(n < 0 for n in numbers):
        raise ValueError(f"bad action {text!r}: numbers must be >= 0")
    if head in ("commit", "decline") and not numbers:
        return COMMIT if head == "commit" else DECLINE
    if head in _ONE_NUMBER and len(numbers) == 1:
        return _ONE_NUMBER[head](numbers[0])
    if head == "assassinate" and len(numbers) == 2:
        return Assassinate(numbers[0], numbers[1])
    raise ValueError(
        f"bad action {text!r}: expected one of place:N, card:N, commit, decline, bid:N, option:N, faction:N, "
        "assassinate:SEAT:FACTION, tile:N, official:N, action_card:N, region:N"
    )
