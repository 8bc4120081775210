"""What a tournament plays: :class:`TournamentDefinition` and its schedule of :class:`ScheduledGame` s.

Tables. With exactly ``players`` specs there is one table, the specs in the
given order (the same spec may appear several times). With more specs, every
combination of ``players`` distinct entries (by position) is a table.

Seat rotation and duplicate deals. A *deal* is one engine seed. In every deal
each table plays all ``players`` cyclic rotations of its lineup on the same
engine seed, so every entry sits in every seat equally often and meets the
same luck of the draw from every seat (the start seat is drawn from the seed,
so rotating the seating rotates who starts too). A *block* is one deal of all
tables; ``games`` is rounded up to whole blocks.

The Brutii (``brutii``, R42-R54): every game seats the Brutii in seat 0 (``GameConfig.brutii_seat``; seat 1
starts, R43), so the rotations make each entry the Brutii in turn like any other seat: with one agent under test
and N-1 reference agents the agent is the Brutii in 1/N of the games, with the same deals from every seat. A deal
of a Brutii tournament plays each *distinct* rotation once: a lineup of one spec in every seat (the Brutii's
balance measured between equal players) plays one game a deal instead of N copies of the same seating.

Game ids count from 0 in the order deal, table, rotation. Every seed comes
from the tournament seed by hashing (:func:`derive_seed`), so the schedule is
the same in every process and on every machine.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from agents.specs import parse_spec
from tribune_env.data import default_components
from tribune_env.engine.config import GameConfig, victory_cards_of

Lineup = tuple[str, ...]
"""Agent specs by seat: ``lineup[s]`` plays seat ``s``."""


class TournamentError(Exception):
    """A tournament cannot be set up or run; the message says why."""


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed derived from the tournament ``seed`` and ``parts`` (stable across processes and versions)."""
    text = ":".join(str(p) for p in ("tribune-tournament", seed, *parts))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def canonical_spec(text: str) -> str:
    """The normal form of a spec (``"MCTS:iterations=4"`` -> ``"mcts:iterations=4"``); ``AgentError`` if malformed."""
    return str(parse_spec(text))


BRUTII_SEAT = 0
"""The Brutii's seat in every game of a Brutii tournament (the rotations move the entries through it)."""


def rules_name(expansion: bool, brutii: bool = False) -> str:
    """``"brutii"``, ``"expansion"`` or ``"base"``: the name of a rule set in results files and messages."""
    if brutii:
        return "brutii"
    return "expansion" if expansion else "base"


def victory_card_hint(card_id: str | None, expansion: bool) -> str:
    """``"; ... add --expansion"`` when ``card_id`` is an expansion victory card (of the packaged components) and
    the games are base games, else ``""``: appended to the engine's "unknown victory card" message."""
    if card_id is None or expansion:
        return ""
    components = default_components()
    base = {card.id for card in victory_cards_of(components, expansion=False)}
    if card_id not in base and card_id in {card.id for card in victory_cards_of(components, expansion=True)}:
        return f"; {card_id!r} is an expansion victory card: add --expansion"
    return ""


@dataclass(frozen=True)
class TournamentDefinition:
    """Everything that decides which games a tournament plays and how: specs are stored in canonical form.

    ``time_limit`` is the per-move limit in seconds (``None``: no limit).
    ``expansion`` plays every game with the Tribune Expansion (``GameConfig.expansion``); a base
    tournament's definition and game options carry no ``expansion`` key at all, so base results files
    written before the expansion existed read and resume unchanged. ``brutii`` (with ``expansion``, 5 or 6
    players) plays the Brutii variant with the Brutii in seat :data:`BRUTII_SEAT`; likewise only a Brutii
    tournament's definition and options carry a ``brutii`` key. The constructor checks types and the
    player count against the specs; agent parameters, and whether the agents play the expansion and the
    Brutii, are checked when agents are built (:func:`~tribune_arena.tournament.play.agent_modules`).
    """

    specs: tuple[str, ...]
    players: int = 4
    games: int = 100
    seed: int = 0
    victory_card: str | None = None
    point_variant: bool = False
    round_limit: int = 60
    time_limit: float | None = 10.0
    expansion: bool = False
    brutii: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(canonical_spec(s) for s in self.specs))
        for name in ("players", "games", "seed", "round_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name}: expected an integer, got {value!r}")
        if self.games < 1:
            raise ValueError(f"games: must be >= 1, got {self.games}")
        for flag in ("expansion", "brutii"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag}: expected true or false, got {getattr(self, flag)!r}")
        if self.time_limit is not None:
            limit = self.time_limit
            if isinstance(limit, bool) or not isinstance(limit, int | float) or not limit > 0:
                raise ValueError(f"time limit: must be > 0 seconds, got {self.time_limit!r}")
            object.__setattr__(self, "time_limit", float(self.time_limit))
        if len(self.specs) < self.players:
            raise ValueError(
                f"{self.players}-player games need at least {self.players} agent specs, got {len(self.specs)} "
                "(repeat a spec to seat it several times, e.g. `heuristic random random random`)"
            )
        try:
            self.config()
        except ValueError as exc:  # names the bad game option
            raise ValueError(f"{exc}{victory_card_hint(self.victory_card, self.expansion)}") from None

    @property
    def rules(self) -> str:
        """The rule set of every game: ``"brutii"``, ``"expansion"`` or ``"base"``."""
        return rules_name(self.expansion, self.brutii)

    def options(self) -> dict[str, Any]:
        """The keyword options of :class:`GameConfig` of every game (stored in each record's ``config``);
        ``expansion`` only in an expansion tournament, ``brutii`` and ``brutii_seat`` only in a Brutii one."""
        options: dict[str, Any] = {
            "players": self.players,
            "victory_card": self.victory_card,
            "point_variant": self.point_variant,
            "round_limit": self.round_limit,
            "auto_forced": True,
        }
        if self.expansion:
            options["expansion"] = True
        if self.brutii:
            options.update(brutii=True, brutii_seat=BRUTII_SEAT)
        return options

    def config(self) -> GameConfig:
        return GameConfig(**self.options())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in the results file and compared on resume); ``expansion`` and ``brutii`` only
        when true, so a base or expansion tournament's form (and its default results file name) is what it was
        before them."""
        doc = asdict(self)
        doc["specs"] = list(self.specs)
        for flag in ("expansion", "brutii"):
            if not doc[flag]:
                del doc[flag]
        return doc

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> TournamentDefinition:
        """Inverse of :meth:`to_dict`; a form without ``expansion`` is a base tournament, one without ``brutii``
        has no Brutii."""
        return cls(**{**doc, "specs": tuple(doc["specs"])})

    def tables(self) -> list[Lineup]:
        return tables(self.specs, self.players)

    def block_size(self) -> int:
        """Games per deal: the rotations of every table (the distinct ones in a Brutii tournament)."""
        return sum(len(rotations(lineup, self.brutii)) for lineup in self.tables())

    def total_games(self) -> int:
        """``games`` rounded up to whole blocks."""
        block = self.block_size()
        return math.ceil(self.games / block) * block

    def schedule(self) -> list[ScheduledGame]:
        return schedule(self.specs, self.players, self.games, self.seed, distinct=self.brutii)


@dataclass(frozen=True)
class ScheduledGame:
    """One game to play: ``seating[s]`` is the spec of seat ``s``, ``agent_seeds[s]`` its agent's seed."""

    game_id: int
    deal: int
    table: int
    rotation: int
    seed: int
    seating: Lineup
    agent_seeds: tuple[int, ...]


def tables(specs: Sequence[str], players: int) -> list[Lineup]:
    """The lineups that play: the specs as given if there are exactly ``players``, else every combination."""
    if players < 1 or len(specs) < players:
        raise ValueError(f"{players}-player tables need at least {players} agent specs, got {len(specs)}")
    if len(specs) == players:
        return [tuple(specs)]
    return [tuple(specs[i] for i in combo) for combo in itertools.combinations(range(len(specs)), players)]


def rotations(lineup: Lineup, distinct: bool = False) -> list[Lineup]:
    """The cyclic rotations of ``lineup``, itself first: rotation ``r`` seats ``lineup[i]`` in seat ``(i + r) % n``;
    with ``distinct`` each seating once (a repeated rotation left out)."""
    n = len(lineup)
    seatings = [tuple(lineup[(s - r) % n] for s in range(n)) for r in range(n)]
    return list(dict.fromkeys(seatings)) if distinct else seatings


def schedule(specs: Sequence[str], players: int, games: int, seed: int, distinct: bool = False) -> list[ScheduledGame]:
    """Every game of the tournament by game id, ``games`` rounded up to whole blocks (see the module docstring);
    ``distinct``: each deal plays the distinct rotations of each table only (a Brutii tournament)."""
    lineups = tables(specs, players)
    block = sum(len(rotations(lineup, distinct)) for lineup in lineups)
    deals = math.ceil(games / block)
    out: list[ScheduledGame] = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        for table, lineup in enumerate(lineups):
            for rotation, seating in enumerate(rotations(lineup, distinct)):
                game_id = len(out)
                agent_seeds = tuple(derive_seed(seed, "agent", game_id, s) for s in range(players))
                out.append(ScheduledGame(game_id, deal, table, rotation, deal_seed, seating, agent_seeds))
    return out
