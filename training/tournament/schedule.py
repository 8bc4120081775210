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


def rules_name(expansion: bool) -> str:
    """``"expansion"`` or ``"base"``: the name of a rule set in results files and messages."""
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
    written before the expansion existed read and resume unchanged. The constructor checks types and the
    player count against the specs; agent parameters, and whether the agents play the expansion, are
    checked when agents are built (:func:`~training.tournament.play.agent_modules`).
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(canonical_spec(s) for s in self.specs))
        for name in ("players", "games", "seed", "round_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name}: expected an integer, got {value!r}")
        if self.games < 1:
            raise ValueError(f"games: must be >= 1, got {self.games}")
        if not isinstance(self.expansion, bool):
            raise ValueError(f"expansion: expected true or false, got {self.expansion!r}")
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
        """The rule set of every game: ``"expansion"`` or ``"base"``."""
        return rules_name(self.expansion)

    def options(self) -> dict[str, Any]:
        """The keyword options of :class:`GameConfig` of every game (stored in each record's ``config``);
        ``expansion`` only in an expansion tournament."""
        options: dict[str, Any] = {
            "players": self.players,
            "victory_card": self.victory_card,
            "point_variant": self.point_variant,
            "round_limit": self.round_limit,
            "auto_forced": True,
        }
        if self.expansion:
            options["expansion"] = True
        return options

    def config(self) -> GameConfig:
        return GameConfig(**self.options())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in the results file and compared on resume); ``expansion`` only when true,
        so a base tournament's form (and its default results file name) is what it was before the expansion."""
        doc = asdict(self)
        doc["specs"] = list(self.specs)
        if not self.expansion:
            del doc["expansion"]
        return doc

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> TournamentDefinition:
        """Inverse of :meth:`to_dict`; a form without ``expansion`` is a base tournament."""
        return cls(**{**doc, "specs": tuple(doc["specs"])})

    def tables(self) -> list[Lineup]:
        return tables(self.specs, self.players)

    def block_size(self) -> int:
        """Games per deal: tables x rotations."""
        return len(self.tables()) * self.players

    def total_games(self) -> int:
        """``games`` rounded up to whole blocks."""
        block = self.block_size()
        return math.ceil(self.games / block) * block

    def schedule(self) -> list[ScheduledGame]:
        return schedule(self.specs, self.players, self.games, self.seed)


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


def rotations(lineup: Lineup) -> list[Lineup]:
    """The cyclic rotations of ``lineup``, itself first: rotation ``r`` seats ``lineup[i]`` in seat ``(i + r) % n``."""
    n = len(lineup)
    return [tuple(lineup[(s - r) % n] for s in range(n)) for r in range(n)]


def schedule(specs: Sequence[str], players: int, games: int, seed: int) -> list[ScheduledGame]:
    """Every game of the tournament by game id, ``games`` rounded up to whole blocks (see the module docstring)."""
    lineups = tables(specs, players)
    block = len(lineups) * players
    deals = math.ceil(games / block)
    out: list[ScheduledGame] = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        for table, lineup in enumerate(lineups):
            for rotation, seating in enumerate(rotations(lineup)):
                game_id = len(out)
                agent_seeds = tuple(derive_seed(seed, "agent", game_id, s) for s in range(players))
                out.append(ScheduledGame(game_id, deal, table, rotation, deal_seed, seating, agent_seeds))
    return out
