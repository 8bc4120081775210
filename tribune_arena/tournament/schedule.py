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

The Brutii (``brutii``, R42-R54): every game seats the Brutii in the same seat (``GameConfig.brutii_seat``, by
default :data:`BRUTII_SEAT`, seat 0; the seat after him starts, R43), so the rotations make each entry the Brutii
in turn like any other seat: with one agent under test and N-1 reference agents the agent is the Brutii in 1/N of
the games, with the same deals from every seat. A deal of a Brutii tournament plays each *distinct* rotation once:
a lineup of one spec in every seat (the Brutii's balance measured between equal players) plays one game a deal
instead of N copies of the same seating.

The component set. A tournament may play another component set than the packaged one
(:class:`ComponentFile`): its definition stores the set's TOML text, the records' configs name the set, and the
workers, the results file and its replays play every game with it.

Game ids count from 0 in the order deal, table, rotation. Every seed comes
from the tournament seed by hashing (:func:`derive_seed`), so the schedule is
the same in every process and on every machine.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.specs import parse_spec
from tribune_env.data import ComponentError, Components, default_components, parse_components
from tribune_env.engine.config import DEFAULT_PLAYERS, GameConfig, RuleSet, config_fields, config_to_dict

Lineup = tuple[str, ...]
"""Agent specs by seat: ``lineup[s]`` plays seat ``s``."""

DEFAULT_GAMES = 100
"""Games of a tournament that names no number (rounded up to whole blocks)."""
DEFAULT_TIME_LIMIT = 10.0
"""The per-move limit in seconds of a tournament that names none."""


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


def default_players(specs: int, rules: RuleSet, components: Components | None = None) -> int:
    """Players per game of a tournament that names none: the number of specs, within the rule set's player counts
    and at most its default player count; with the Brutii at most the largest table (R42: 5 or 6 seats)."""
    comps = default_components() if components is None else components
    counts = rules.player_counts(comps)
    most = counts[-1] if rules.has_brutii else rules.default_players(comps)
    return max(counts[0], min(specs, most))


# -- the component set a results file stores ---------------------------------------------------------------------


def _parse_toml(text: str, source: str) -> Components:
    """The component set of the TOML ``text`` (``source`` names it in errors); ComponentError as for
    :func:`~tribune_env.data.load_components`."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ComponentError(f"{source}: tables or lists nested too deeply") from None
    try:
        return parse_components(doc, source)
    except ComponentError as exc:
        raise ComponentError(f"{source}: {exc}") from None


@dataclass(frozen=True)
class ComponentFile:
    """A component set with the TOML text it was read from: what a tournament played with a set other than the
    packaged one stores in its definition, so that its results file resumes and replays anywhere, without the file.

    Two component files are equal when their texts are; :attr:`components` is the set the text gives (parsed on
    creation: a :class:`~tribune_env.data.ComponentError`, a ValueError, names the bad field).
    """

    text: str
    source: str = field(default="<text>", compare=False)
    components: Components = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ValueError(f"components: expected the TOML text of a component file, got {type(self.text).__name__}")
        object.__setattr__(self, "components", _parse_toml(self.text, self.source))

    @classmethod
    def read(cls, path: str | Path) -> ComponentFile:
        """The component file at ``path``; ComponentError when it cannot be read or is not a component set."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ComponentError(f"cannot read component file {p}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ComponentError(f"{p}: not a text file (expected UTF-8 TOML)") from None
        return cls(text, str(p))

    @classmethod
    def of(cls, components: Components) -> ComponentFile:
        """The file ``components`` was read from (its ``source``), which must still hold that set; ValueError
        naming ``components`` otherwise."""
        try:
            found = cls.read(components.source)
        except ComponentError as exc:
            raise ValueError(
                f"components: a tournament stores the TOML text of its component set {components.name!r}, but its "
                f"file cannot be read again ({exc}); give the definition a ComponentFile"
            ) from None
        if found.components != components:
            raise ValueError(
                f"components: {components.source} no longer holds the component set {components.name!r} the game "
                "was made with; give the definition a ComponentFile"
            )
        return found

    def to_dict(self) -> dict[str, Any]:
        """The stored form: the set's ``name``, the ``sha256`` of the text (hex) and the ``toml`` text itself."""
        digest = hashlib.sha256(self.text.encode("utf-8")).hexdigest()
        return {"name": self.components.name, "sha256": digest, "toml": self.text}

    @classmethod
    def from_dict(cls, doc: object, source: str = "<stored component set>") -> ComponentFile:
        """Inverse of :meth:`to_dict`; ValueError naming ``components`` when the form is not one (a text that is
        not its ``sha256``'s, or of another set than its ``name``)."""
        if not isinstance(doc, Mapping) or not all(isinstance(doc.get(k), str) for k in ("name", "sha256", "toml")):
            raise ValueError(f"components: expected an object with name, sha256 and toml texts, got {doc!r:.80}")
        text: str = doc["toml"]
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != doc["sha256"]:
            raise ValueError("components: the stored TOML text is not the one its sha256 names (edited by hand?)")
        found = cls(text, source)
        if found.components.name != doc["name"]:
            raise ValueError(
                f"components: the stored TOML text is the set {found.components.name!r}, not {doc['name']!r}"
            )
        return found


# -- the definition ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentDefinition:
    """Everything that decides which games a tournament plays and how: specs are stored in canonical form.

    ``game`` is the game of every game (:meth:`create` makes it from GameConfig's keyword options, with the
    players of :func:`default_players` when none are named). A tournament draws the starting player from each
    deal's seed and applies forced decisions itself, so ``game`` has no ``start_seat`` and ``auto_forced`` on (a
    ValueError names the option otherwise); with the Brutii it seats him in ``game.brutii_seat``, which a game
    that leaves the seat open (``None``) gets as :data:`BRUTII_SEAT`. ``time_limit`` is the per-move limit in
    seconds (``None``: no limit). ``component_file`` is the file of a component set other than the packaged one,
    whose text the stored form keeps (by default read again from ``game.components.source``, see
    :meth:`ComponentFile.of`); with the packaged set it is ``None``.

    The stored form (:meth:`to_dict`) is flat, as it was before the definition held a GameConfig: the game's
    options under their GameConfig names; ``expansion`` and ``brutii`` only when true, so base results files
    written before the expansion existed read and resume unchanged; ``brutii_seat`` only when it is not
    :data:`BRUTII_SEAT` (naming that seat is the same tournament); ``components`` only with another component set.

    The constructor checks types and the player count against the specs; agent parameters, and whether the
    agents play the game, are checked when agents are built (:func:`~tribune_arena.tournament.play.agent_modules`).
    """

    specs: tuple[str, ...]
    game: GameConfig
    games: int = DEFAULT_GAMES
    seed: int = 0
    time_limit: float | None = DEFAULT_TIME_LIMIT
    component_file: ComponentFile | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(canonical_spec(s) for s in self.specs))
        object.__setattr__(self, "game", _tournament_game(self.game))
        for name in ("games", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name}: expected an integer, got {value!r}")
        if self.games < 1:
            raise ValueError(f"games: must be >= 1, got {self.games}")
        if self.time_limit is not None:
            limit = self.time_limit
            if isinstance(limit, bool) or not isinstance(limit, int | float) or not limit > 0:
                raise ValueError(f"time limit: must be > 0 seconds, got {self.time_limit!r}")
            object.__setattr__(self, "time_limit", float(self.time_limit))
        players = self.game.players
        if len(self.specs) < players:
            raise ValueError(
                f"{players}-player games need at least {players} agent specs, got {len(self.specs)} "
                "(repeat a spec to seat it several times, e.g. `heuristic random random random`)"
            )
        object.__setattr__(self, "component_file", self._component_file())

    def _component_file(self) -> ComponentFile | None:
        """The file of the game's component set: ``None`` for the packaged set, else the one given or
        :meth:`ComponentFile.of` the set; ValueError when the one given holds another set."""
        components, given = self.game.components, self.component_file
        if given is not None and (not isinstance(given, ComponentFile) or given.components != components):
            where = given.source if isinstance(given, ComponentFile) else type(given).__name__
            raise ValueError(f"components: {where} does not hold the game's component set {components.name!r}")
        if components == default_components():
            return None
        return given if given is not None else ComponentFile.of(components)

    @classmethod
    def create(
        cls,
        specs: Sequence[str],
        *,
        games: int = DEFAULT_GAMES,
        seed: int = 0,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        component_file: ComponentFile | None = None,
        **game_options: Any,
    ) -> TournamentDefinition:
        """The tournament of ``specs`` playing ``GameConfig(**game_options)``: ``players`` omitted (or ``None``,
        :data:`DEFAULT_PLAYERS`) is :func:`default_players` of the specs; ``component_file``'s set is the game's
        ``components`` unless they are given. ValueError names a bad option."""
        if component_file is not None:
            game_options.setdefault("components", component_file.components)
        players = game_options.get("players")
        if players is None or (type(players) is int and players == DEFAULT_PLAYERS):
            rules = RuleSet.of(game_options.get("expansion") is True, game_options.get("brutii") is True)
            game_options["players"] = default_players(len(specs), rules, game_options.get("components"))
        game = GameConfig(**game_options)
        return cls(tuple(specs), game, games, seed, time_limit, component_file)

    @classmethod
    def for_config(cls, specs: Sequence[str], config: GameConfig, **settings: Any) -> TournamentDefinition:
        """The tournament of ``specs`` playing ``config``'s game (its Brutii seat left open: :data:`BRUTII_SEAT`);
        ``settings`` are the other fields (``games``, ``seed``, ``time_limit``, ``component_file``). ValueError,
        naming the option, when ``config`` sets what a tournament does not play (a start seat, forced decisions
        left to the agents)."""
        return cls(tuple(specs), config, **settings)

    @property
    def rules(self) -> RuleSet:
        """The rule set of every game (a str: ``"brutii"``, ``"expansion"`` or ``"base"``)."""
        return self.game.rules

    def options(self) -> dict[str, Any]:
        """The options of every game in their public dictionary form (stored in each record's ``config``):
        :func:`~tribune_env.engine.config.config_to_dict` of :attr:`game`, without ``components`` with the packaged
        set (records written before other sets were stored name none); ``expansion`` only in an expansion
        tournament, ``brutii`` and ``brutii_seat`` only in a Brutii one."""
        options = config_to_dict(self.game)
        if self.component_file is None:
            del options["components"]
        return options

    def config(self) -> GameConfig:
        """The game of every game of the tournament: :attr:`game`."""
        return self.game

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, stored in the results file and compared on resume (see the class docstring):
        ``specs``, ``players``, ``games``, ``seed``, ``victory_card``, ``point_variant``, ``round_limit``,
        ``time_limit``, then ``expansion``, ``brutii``, ``brutii_seat`` and ``components``
        (:meth:`ComponentFile.to_dict`) where they apply, so a tournament's form (and its default results file name)
        is what it was before the definition held a GameConfig."""
        options = config_to_dict(self.game)  # the game's options have one writer (issue 36)
        doc: dict[str, Any] = {"specs": list(self.specs)}
        doc["players"] = options.pop("players")
        doc["games"] = self.games
        doc["seed"] = self.seed
        for name in ("victory_card", "point_variant", "round_limit"):
            doc[name] = options.pop(name)
        doc["time_limit"] = self.time_limit
        for name in ("expansion", "brutii"):
            if options.pop(name, False):
                doc[name] = True
        if "brutii_seat" in options and options["brutii_seat"] != BRUTII_SEAT:
            doc["brutii_seat"] = options["brutii_seat"]
        if self.component_file is not None:
            doc["components"] = self.component_file.to_dict()
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> TournamentDefinition:
        """Inverse of :meth:`to_dict`, reading every stored form written before too (one without ``expansion`` is
        a base tournament, one without ``brutii`` has no Brutii, one without ``components`` uses the packaged
        set); ValueError (KeyError without ``specs``) when ``doc`` is not a definition's form."""
        data = dict(doc)
        specs = tuple(data.pop("specs"))
        settings = {name: data.pop(name) for name in _SETTINGS if name in data}
        stored = data.pop("components", None)
        component_file = None if stored is None else ComponentFile.from_dict(stored)
        unknown = sorted(str(key) for key in data if key not in _STORED_OPTIONS)
        if unknown:
            known = ", ".join(("specs", *_SETTINGS, *_STORED_OPTIONS, "components"))
            raise ValueError(f"{unknown[0]}: not a key of a tournament definition; the keys are {known}")
        return cls.create(specs, component_file=component_file, **settings, **data)

    def tables(self) -> list[Lineup]:
        return tables(self.specs, self.game.players)

    def block_size(self) -> int:
        """Games per deal: the rotations of every table (the distinct ones in a Brutii tournament)."""
        return sum(len(rotations(lineup, self.game.brutii)) for lineup in self.tables())

    def total_games(self) -> int:
        """``games`` rounded up to whole blocks."""
        block = self.block_size()
        return math.ceil(self.games / block) * block

    def schedule(self) -> list[ScheduledGame]:
        return schedule(self.specs, self.game.players, self.games, self.seed, distinct=self.game.brutii)


def _tournament_game(game: object) -> GameConfig:
    """``game`` as a tournament plays it: the Brutii in :data:`BRUTII_SEAT` when no seat is named; ValueError naming
    what a tournament does not play."""
    if not isinstance(game, GameConfig):
        raise ValueError(f"game: expected a GameConfig, got {type(game).__name__}")
    if game.start_seat is not None:
        raise ValueError(
            f"start_seat: a tournament plays None, not {game.start_seat} (each deal's seed draws the starting player, "
            "and the rotations rotate it with the seating)"
        )
    if not game.auto_forced:
        raise ValueError("auto_forced: a tournament plays True, not False (it applies forced decisions itself)")
    if game.brutii and game.brutii_seat is None:
        return dataclasses.replace(game, brutii_seat=BRUTII_SEAT)
    return game


_NOT_STORED = ("auto_forced", "start_seat", "components")
"""GameConfig's options a definition's stored form has no key of their own for (see :func:`_tournament_game`;
the component set is stored as a :class:`ComponentFile`)."""
_STORED_OPTIONS = tuple(name for name in config_fields() if name not in _NOT_STORED)
"""The game's options in a definition's stored form: ``players`` ... ``brutii_seat``."""
_SETTINGS = ("games", "seed", "time_limit")
"""The definition's own settings, beside the specs, the game and its component file."""


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
