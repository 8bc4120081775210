"""Checking the requests of ``tribune serve`` before anything changes: :class:`WebError` (an HTTP status and a
message naming the problem) and the new-game request (:func:`parse_new_game`).

The new-game body (all keys optional): ``players`` (default: the rule set's, :meth:`RuleSet.default_players`),
``seat`` (the creator's seat, default 0), ``humans`` (the seats people play, default ``[seat]``; each gets its own
key), ``opponents`` (a list of specs for the other seats in seat order, or one spec for every one; default
``heuristic``, ``random`` in expansion games; a spec asking for more ``seconds`` per move than the server's bot limit
is refused, and so is a ``cmd:`` program unless the server was started allowing them), ``rules`` (a
:class:`RuleSet` name: ``base``, ``expansion`` or ``brutii``; default ``base``), ``victory_card`` (an id, ``null``
for a random valid one), ``point_variant``, ``round_limit`` (default :data:`DEFAULT_ROUND_LIMIT`), ``brutii_seat``,
``seed`` (default: random); the game's options are checked by :class:`GameConfig`, whose message names the bad one.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents import AgentError
from agents.specs import parse_spec
from tribune_env.engine.config import MAX_ROUND_LIMIT, GameConfig, RuleSet, config_fields, config_to_dict

MAX_SEED = 2**31 - 1
"""The largest seed a new-game request may choose (whoever chooses a game's seed can deal every hand of it)."""
RANDOM_SEEDS = 2**53
"""The server draws a game's seed below this when the request gives none: too many to try one by one against the
face-up cards a spectator sees (2**31 seeds took about 11 core-hours at 18 µs a deal, issue 42), and still an exact
integer in JSON and JavaScript, with room for the agents' seeds derived from it (``seed * 1000 + seat``)."""


class WebError(Exception):
    """A request that cannot be served: ``status`` (4xx) and a message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[type[WebError], tuple[int, str]]:
        return (type(self), (self.status, self.message))  # pickled and copied with both fields


# -- request checking ---------------------------------------------------------------------


def check_int(
    body: Mapping[str, Any], key: str, default: int | None, low: int, high: int, nullable: bool = True
) -> int | None:
    value = body.get(key, default)
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebError(422, f"{key}: expected an integer, got {value!r:.60}")
    if not low <= value <= high:
        raise WebError(422, f"{key}: must be from {low} to {high}, got {value}")
    return value


def check_bool(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise WebError(422, f"{key}: expected true or false, got {value!r:.60}")
    return value


def check_object(body: object) -> Mapping[str, Any]:
    if not isinstance(body, dict):
        raise WebError(400, f"the request body must be a JSON object, got {type(body).__name__}")
    return body


def check_keys(body: Mapping[str, Any], known: Sequence[str]) -> None:
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise WebError(422, f"unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")


MAX_NAME = 24
"""The longest name a seat's person may give (characters)."""
_NAME = re.compile(r"[^\W_](?:[\w .'-]*[^\W_])?")


def check_person_name(body: object) -> str:
    """The ``name`` of a naming request (``{"name": "Ada"}``), spaces around it dropped: 1 to :data:`MAX_NAME`
    letters or digits, with spaces, ``.``, ``'``, ``-`` and ``_`` between them; :class:`WebError` 422 naming the
    field otherwise (400 for a body that is not an object)."""
    doc = check_object(body)
    check_keys(doc, ("name",))
    value = doc.get("name")
    if not isinstance(value, str):
        raise WebError(422, f"name: expected a string such as 'Ada', got {value!r:.40}")
    name = " ".join(value.split())
    if not 0 < len(name) <= MAX_NAME or _NAME.fullmatch(name) is None:
        raise WebError(
            422,
            f"name: 1 to {MAX_NAME} letters or digits, with spaces, '.', \"'\", '-' or '_' between them; "
            f"got {value!r:.40}",
        )
    return name


NEW_GAME_KEYS = (
    "players",
    "seat",
    "humans",
    "opponents",
    "rules",
    "victory_card",
    "point_variant",
    "round_limit",
    "brutii_seat",
    "seed",
)
GAME_KEYS = tuple(key for key in NEW_GAME_KEYS if key in config_fields())
"""The keys of a new-game request that are :class:`GameConfig` options (``rules`` names the rule set)."""
COMMAND_AGENTS = frozenset({"cmd"})
"""Agents that run a program of the request's choosing (:mod:`agents.subprocess_agent`)."""
MAX_PLAYERS = 64
"""A bound on the player count a request may name (the rule sets' own bounds are lower; GameConfig names them)."""


@dataclass(frozen=True)
class NewGame:
    """A checked new-game request: the game, the creator's seat, the seats people play (the creator's among them),
    the opponents' specs for the other seats in seat order and the seed."""

    config: GameConfig
    seat: int
    opponents: tuple[str, ...]
    seed: int
    humans: tuple[int, ...] = ()

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people play, in order (``(seat,)`` when none were named)."""
        return self.humans or (self.seat,)

    @property
    def options(self) -> dict[str, Any]:
        """The game's options, JSON-ready: its public dictionary form (:func:`config_to_dict`)."""
        return config_to_dict(self.config)


def _opponents(
    body: Mapping[str, Any], players: int, people: int, expansion: bool, allow_paths: bool, allow_cmd: bool
) -> tuple[str, ...]:
    value = body.get("opponents")
    if value is None or value == [] or value == "":
        value = "random" if expansion else "heuristic"
    bots = players - people
    if isinstance(value, str):
        value = [value] * bots
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise WebError(422, f"opponents: expected a list of agent specs or one spec, got {value!r:.80}")
    if len(value) == 1:
        value = value * bots
    if len(value) != bots:
        raise WebError(
            422, f"opponents: {players} players with {people} people need {bots} opponents (or one), got {len(value)}"
        )
    for spec in value:
        try:
            parsed = parse_spec(spec)
        except AgentError as exc:
            raise WebError(422, f"opponents: {exc}") from None
        if not allow_paths and any(key == "path" or "/" in v for key, v in parsed.params):
            raise WebError(422, f"opponents: {spec!r}: agents loaded from a path are refused on a remote server")
        if not allow_cmd and parsed.name in COMMAND_AGENTS:
            raise WebError(
                422,
                f"opponents: {spec!r:.80}: this server does not run bot programs; its owner can allow them by "
                "starting it with `tribune serve --allow-cmd-bots`",
            )
    return tuple(value)


def parse_new_game(body: object, allow_paths: bool = True, allow_cmd: bool = False) -> NewGame:
    """Check a new-game request (see the module docstring); :class:`WebError` names what is wrong.

    ``allow_paths=False`` refuses agent specs that name a file (a server open to other machines); ``allow_cmd``:
    accept ``cmd:`` bot programs (only when the server's own command line allows them, never a request)."""
    doc = check_object(body)
    check_keys(doc, NEW_GAME_KEYS)
    config = _game(doc)
    players = config.players
    humans = _humans(doc, players)
    seat = check_int(doc, "seat", humans[0] if humans else 0, 0, players - 1, nullable=False)
    seed = check_int(doc, "seed", None, 0, MAX_SEED)
    assert seat is not None
    if humans and seat not in humans:
        raise WebError(422, f"seat: the creator's seat {seat} is not one of the human seats {list(humans)}")
    people = len(humans) or 1
    return NewGame(
        config,
        seat,
        _opponents(doc, players, people, config.rules.uses_expansion, allow_paths, allow_cmd),
        secrets.randbelow(RANDOM_SEEDS) if seed is None else seed,
        humans,
    )


def _humans(doc: Mapping[str, Any], players: int) -> tuple[int, ...]:
    """The ``humans`` of a new-game request: distinct seats, sorted (``()``: not given)."""
    value = doc.get("humans")
    if value is None:
        return ()
    if not isinstance(value, list) or not value or any(isinstance(s, bool) or not isinstance(s, int) for s in value):
        raise WebError(422, f"humans: expected a non-empty list of seats, got {value!r:.60}")
    if len(set(value)) != len(value) or not all(0 <= s < players for s in value):
        raise WebError(422, f"humans: expected distinct seats from 0 to {players - 1}, got {value!r:.60}")
    return tuple(sorted(value))


def _game(doc: Mapping[str, Any]) -> GameConfig:
    """The game a new-game request asks for: ``rules`` (default: the base game) with the :data:`GAME_KEYS` given;
    what is left out is :class:`GameConfig`'s default (the rule set's player count, the round limit)."""
    options = {key: doc[key] for key in GAME_KEYS if key in doc}
    if options.get("victory_card") == "":
        options["victory_card"] = None  # a random card, as null
    check_int(options, "round_limit", None, 1, MAX_ROUND_LIMIT)
    check_int(options, "players", None, 1, MAX_PLAYERS)  # 0 is a count, not "the default" (that is null or no key)
    try:
        return GameConfig.for_rules(RuleSet.parse(doc.get("rules", RuleSet.BASE.value)), **options)
    except ValueError as exc:  # names the option
        raise WebError(422, str(exc)) from None


def check_budgets(specs: Sequence[str], limit: float) -> None:
    """Refuse a spec that asks for more thinking time per move (``seconds=``) than the server's bots have."""
    for spec in specs:
        for key, value in parse_spec(spec).params:
            if key != "seconds":
                continue
            try:
                seconds = float(value)
            except ValueError:
                continue  # the agent's own check names it
            if not seconds <= limit:
                raise WebError(
                    422,
                    f"opponents: {spec!r} thinks {value} s per move, above this server's limit of {limit:g} s per "
                    "bot move (tribune serve --bot-seconds)",
                )
