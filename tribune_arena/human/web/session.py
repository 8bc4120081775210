"""The games of ``tribune serve``: one :class:`PlaySession` per game, kept by a :class:`GameManager`.

A person sits in one seat; bots (any spec of :mod:`agents.specs`) fill the others and play server-side between
the person's decisions, each move in a worker process under a per-move time limit (:mod:`.bots`; a bot that fails
or overruns plays its first legal choice, and the page says so). Every request is checked before anything changes:
a bad one raises :class:`WebError` (an HTTP status and a message naming the problem) and leaves the game as it was.
Each game has its own lock, so several games run at once and two requests to one game never interleave.

Every game is durable: each move is committed to the server's games database (:mod:`.store`) as it is played, and
a game not in memory (the server restarted, or it was dropped from memory for newer ones) is rebuilt from it by
replaying its moves, under the same id and at the same step. A game ends when it is over, when the person resigns
(saved as a record with the person's forfeit) or when they abandon it (recorded, no result).

The JSON bodies (all keys optional unless said):

- new game (:func:`parse_new_game`): ``players`` (default: the rule set's, :meth:`RuleSet.default_players`),
  ``seat`` (default 0), ``opponents`` (a list of specs in seat order, or one spec for every other seat; default
  ``heuristic``, ``random`` in expansion games; a spec asking for more ``seconds`` per move than the server's bot
  limit is refused), ``rules`` (a :class:`RuleSet` name: ``base``, ``expansion`` or ``brutii``; default ``base``),
  ``victory_card`` (an id, ``null`` for a random valid one), ``point_variant``, ``round_limit`` (default
  :data:`DEFAULT_ROUND_LIMIT`), ``brutii_seat``, ``seed`` (default: random); the game's options are checked by
  :class:`GameConfig`, whose message names the bad one;
- a decision (:meth:`PlaySession.act`): exactly one of ``choice`` (the index of a choice listed in the game's
  state), ``bid`` (an amount of denarii) or ``action`` (the engine's action text, e.g. ``place:5``); optionally
  ``step``, the state's ``step`` the person decided on (another one means the request is stale: 409).

Statuses: 400 body not a JSON object, 404 unknown game id, 409 the game is over, resigned, abandoned, busy or has
moved on, or the action is not legal now, 422 a field missing, of the wrong type or out of range, 503 the games
database could not be written (the move is undone).

A finished or resigned game is saved (:class:`SaveDir`) as a :class:`~tribune_arena.records.GameRecord` in an
SQLite results file of its rule set, ``tribune-serve-<rules>.sqlite``, which ``tribune replay FILE --game N`` reads.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from agents import AgentError
from agents.specs import agent_names, agent_supports, parse_spec
from tribune_arena.human import explain
from tribune_arena.human.bot import bot_move
from tribune_arena.human.web.bots import (
    DEFAULT_BOT_SECONDS,
    DEFAULT_BOT_WORKERS,
    BotPool,
    Decision,
    RemoteBot,
    decision_seed,
)
from tribune_arena.human.web.store import (
    ABANDONED,
    OVER,
    PLAYING,
    RESIGNED,
    GameStore,
    StoredGame,
    StoredMove,
    StoreError,
)
from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.tournament.play import agent_modules
from tribune_arena.tournament.store import ResultStore, expected_outcome
from tribune_env.board import board_svg
from tribune_env.data import Faction, Official, Region, default_components
from tribune_env.engine.actions import (
    Action,
    Bid,
    ChooseFaction,
    ChooseOfficial,
    ChooseRegion,
    ChooseTile,
    Decline,
    PickCard,
    PlaceFollower,
)
from tribune_env.engine.config import (
    DEFAULT_ROUND_LIMIT,
    GameConfig,
    RuleSet,
    config_fields,
    config_from_dict,
    config_to_dict,
    required_for,
    victory_cards_of,
)
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.errors import TribuneError
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.registry import DECISIONS, is_bid
from tribune_env.engine.tables import CardKind, SpaceKind

HUMAN = "human"
"""The seating name of the person's seat in a saved record."""
LOCK_WAIT = 60.0
"""Seconds a request waits for a game another request is busy with before it gets a 409."""
MAX_SEED = 2**31 - 1


class WebError(Exception):
    """A request that cannot be served: ``status`` (4xx) and a message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[type[WebError], tuple[int, str]]:
        return (type(self), (self.status, self.message))  # pickled and copied with both fields


# -- request checking ---------------------------------------------------------------------


def _int(
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


def _bool(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise WebError(422, f"{key}: expected true or false, got {value!r:.60}")
    return value


def _object(body: object) -> Mapping[str, Any]:
    if not isinstance(body, dict):
        raise WebError(400, f"the request body must be a JSON object, got {type(body).__name__}")
    return body


def _check_keys(body: Mapping[str, Any], known: Sequence[str]) -> None:
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise WebError(422, f"unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")


NEW_GAME_KEYS = (
    "players",
    "seat",
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
MAX_ROUND_LIMIT = 1000
"""The highest round limit a request may ask for (a bound on one game's work on the server)."""


@dataclass(frozen=True)
class NewGame:
    """A checked new-game request: the game, the person's seat, the opponents' specs in seat order and the seed."""

    config: GameConfig
    seat: int
    opponents: tuple[str, ...]
    seed: int

    @property
    def options(self) -> dict[str, Any]:
        """The game's options, JSON-ready: its public dictionary form (:func:`config_to_dict`)."""
        return config_to_dict(self.config)


def _opponents(body: Mapping[str, Any], players: int, expansion: bool, allow_paths: bool) -> tuple[str, ...]:
    value = body.get("opponents")
    if value is None or value == [] or value == "":
        value = "random" if expansion else "heuristic"
    if isinstance(value, str):
        value = [value] * (players - 1)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise WebError(422, f"opponents: expected a list of agent specs or one spec, got {value!r:.80}")
    if len(value) == 1:
        value = value * (players - 1)
    if len(value) != players - 1:
        raise WebError(422, f"opponents: {players} players need {players - 1} opponents (or one), got {len(value)}")
    for spec in value:
        try:
            parsed = parse_spec(spec)
        except AgentError as exc:
            raise WebError(422, f"opponents: {exc}") from None
        if not allow_paths and any(key == "path" or "/" in v for key, v in parsed.params):
            raise WebError(422, f"opponents: {spec!r}: agents loaded from a path are refused on a remote server")
    return tuple(value)


def parse_new_game(body: object, allow_paths: bool = True) -> NewGame:
    """Check a new-game request (see the module docstring); :class:`WebError` names what is wrong.

    ``allow_paths=False`` refuses agent specs that name a file (a server open to other machines)."""
    doc = _object(body)
    _check_keys(doc, NEW_GAME_KEYS)
    config = _game(doc)
    players = config.players
    seat = _int(doc, "seat", 0, 0, players - 1, nullable=False)
    seed = _int(doc, "seed", None, 0, MAX_SEED)
    assert seat is not None
    return NewGame(
        config,
        seat,
        _opponents(doc, players, config.rules.uses_expansion, allow_paths),
        secrets.randbelow(MAX_SEED) if seed is None else seed,
    )


def _game(doc: Mapping[str, Any]) -> GameConfig:
    """The game a new-game request asks for: ``rules`` (default: the base game) with the :data:`GAME_KEYS` given;
    what is left out is :class:`GameConfig`'s default (the rule set's player count, the round limit)."""
    options = {key: doc[key] for key in GAME_KEYS if key in doc}
    if options.get("victory_card") == "":
        options["victory_card"] = None  # a random card, as null
    _int(options, "round_limit", None, 1, MAX_ROUND_LIMIT)
    try:
        return GameConfig.for_rules(RuleSet.parse(doc.get("rules", RuleSet.BASE.value)), **options)
    except ValueError as exc:  # names the option
        raise WebError(422, str(exc)) from None


LEVELS: tuple[tuple[str, str, Mapping[str, str]], ...] = (
    ("beginner", "Beginner", {"base": "random", "expansion": "random", "brutii": "random"}),
    ("intermediate", "Intermediate", {"base": "greedy", "expansion": "greedy", "brutii": "greedy"}),
    ("strong", "Strong", {"base": "heuristic", "expansion": "heuristic", "brutii": "heuristic"}),
    ("expert", "Expert", {"base": "zero-net", "expansion": "zero-net", "brutii": "ppo-brutii"}),
    ("strongest", "Strongest", {"base": "zero", "expansion": "zero", "brutii": "zero"}),
)
"""The opponents the new-game form offers by name, weakest first: (id, label, agent spec per rule set). The order is
the measured one (docs/agents/strength.md: ``greedy`` and ``heuristic`` win every game against ``random``, ``greedy``
finishes behind ``heuristic`` at one table, the shipped networks win well above parity against three ``heuristic``
(``zero-net``, the strongest network alone in base and expansion games; ``ppo-brutii``, the network ``zero-net``
plays in the Brutii variant), and ``zero``, which searches with the ``ppo`` networks, beats ``ppo`` at one table:
docs/agents/zero.md).
A spec whose agent does not play a rule set's default game falls back to :data:`FALLBACK_LEVEL_SPEC`."""
FALLBACK_LEVEL_SPEC = "heuristic"
DEFAULT_LEVEL = "strong"
"""The level the form starts with."""


@cache
def _level_spec(rule_set: RuleSet, wanted: str) -> str:
    """``wanted`` if its agent plays ``rule_set``'s default game (:func:`agent_supports`), else the fallback."""
    return wanted if agent_supports(wanted, GameConfig.for_rules(rule_set)) is None else FALLBACK_LEVEL_SPEC


def levels(rule_set: RuleSet) -> list[dict[str, str]]:
    """The named opponent levels of ``rule_set``, weakest first, each ``{"id", "label", "spec"}``."""
    return [
        {"id": level, "label": label, "spec": _level_spec(rule_set, specs[rule_set.value])}
        for level, label, specs in LEVELS
    ]


def game_options() -> dict[str, Any]:
    """What the new-game form offers: agent names, the rule sets of the packaged components (each with its player
    counts, default player count, victory cards and named opponent levels), the default level and round limit."""
    components = default_components()
    rules: dict[str, Any] = {}
    for rule_set in RuleSet:
        try:
            counts = rule_set.player_counts(components)
        except ValueError:  # the component set lacks this rule set's tables
            continue
        brutii = rule_set.has_brutii
        cards = [
            {
                "id": card.id,
                "title": card.title,
                "length": card.length,
                "required": {str(n): required_for(card, n, brutii) for n in counts if n in card.required},
            }
            for card in victory_cards_of(components, rule_set.uses_expansion)
        ]
        rules[rule_set.value] = {
            "players": list(counts),
            "default_players": rule_set.default_players(components),
            "victory_cards": cards,
            "levels": levels(rule_set),
        }
    return {
        "agents": agent_names(),
        "rules": rules,
        "round_limit": DEFAULT_ROUND_LIMIT,
        "default_level": DEFAULT_LEVEL,
    }


# -- choices ------------------------------------------------------------------------------


_NOT_FROM_HAND = {
    DecisionKind.CATACOMBS_PURCHASE: "",
    DecisionKind.TAKEOVER_PENALTY: "",
    DecisionKind.AUGUR_DISCARD: "augur",
}
"""Card decisions that do not pick from the person's hand: where their cards lie (``""``: anywhere on the board)."""


def _targets(game: Game, seat: int, action: Action) -> list[str]:
    """CSS selectors of the board elements that play ``action`` when clicked, the most precise first (the page uses
    the first one that matches anything); ``[]``: a button only."""
    match action:
        case PlaceFollower(space):
            return [f'.space[data-space-id="{space}"]']
        case PickCard(card):
            tables = game.state.tables
            if not 0 <= card < len(tables.card_label):
                return []
            anywhere = f'.card[data-card="{tables.card_label[card]}"]'
            pending = game.pending
            where = _NOT_FROM_HAND.get(pending.kind, "hand") if pending is not None else ""
            if not where:
                return [anywhere]
            mine = f'[data-seat="{seat}"]' if where == "hand" else ""
            return [f'{anywhere}[data-where="{where}"]{mine}', anywhere]
        case ChooseFaction(faction):
            return [f'.faction[data-faction="{Faction(faction).key}"]']
        case ChooseOfficial(official):
            return [f'.official[data-official="{Official(official).key}"]']
        case ChooseTile(tile):
            return [f'.emperor-tile[data-tile="{tile}"]']
        case ChooseRegion(region):
            return [f'.region[data-region="{Region(region).key}"]']
    return []


def _group(game: Game, action: Action) -> str:
    """The heading the page groups ``action``'s button under: where it acts (the kind of place, the faction of a
    card), else what it is."""
    tables = game.state.tables
    match action:
        case PlaceFollower(space) if 0 <= space < len(tables.spaces):
            place = tables.spaces[space].kind
            return {SpaceKind.COIN_BOWL: "The coin bowl", SpaceKind.FACTION: "Faction fields"}.get(place, "Regions")
        case PickCard(card) if 0 <= card < len(tables.card_kind):
            kind = tables.card_kind[card]
            if kind is CardKind.FACTION:
                return f"{game.config.components.factions[tables.card_faction[card]].name} cards"
            return "Slave cards" if kind is CardKind.SLAVE else "Assassin cards"
        case ChooseFaction():
            return "Factions"
        case ChooseOfficial():
            return "Officials"
        case ChooseTile():
            return "Favor of the emperor tiles"
        case ChooseRegion():
            return "Regions"
        case Decline():
            return "Pass"
    return "Choices"


def _amounts(legal: Sequence[Action]) -> list[int]:
    return sorted(a.amount for a in legal if isinstance(a, Bid))


# -- saving ---------------------------------------------------------------------------------


class SaveDir:
    """Where finished games go: one results file per rule set in ``path`` (created when first needed)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def file(self, rules: str) -> Path:
        return self.path / f"tribune-serve-{rules}.sqlite"

    def save(self, rules: str, record: GameRecord) -> tuple[Path, int]:
        """Store ``record`` under the next free game id of its rule set's file; returns the file and the id."""
        rule_set = RuleSet.parse(rules)
        definition = {"source": "tribune serve", "expansion": rule_set.uses_expansion, "brutii": rule_set.has_brutii}
        path = self.file(rules)
        with self._lock, ResultStore(path, definition) as store:
            while True:
                game_id = max(store.done_ids(), default=-1) + 1
                numbered = replace(record, game_id=game_id)
                if store.add(numbered):
                    return path, game_id


# -- one game -------------------------------------------------------------------------------


@dataclass
class _Clock:
    moves: list[int]
    total: list[float]
    longest: list[float]

    @classmethod
    def of(cls, players: int) -> _Clock:
        return cls([0] * players, [0.0] * players, [0.0] * players)

    def add(self, seat: int, seconds: float) -> None:
        self.moves[seat] += 1
        self.total[seat] += seconds
        self.longest[seat] = max(self.longest[seat], seconds)


def _agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (as saved in records' ``agent_seeds``)."""
    return seed * 1000 + seat


@dataclass
class PlaySession:
    """One game: the person in ``seat``, bots elsewhere (run by ``bots``), every move written to ``store``. Use
    :meth:`create` or :meth:`restore`; hold :attr:`lock` around calls (:meth:`GameManager.locked` does)."""

    id: str
    game: Game
    seat: int
    seed: int
    options: dict[str, Any]
    names: list[str]
    store: GameStore
    bots: BotPool
    modules: tuple[str, ...] = ()
    save_dir: SaveDir | None = None
    status: str = PLAYING
    created: float = field(default_factory=time.time)
    actions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    touched: float = field(default_factory=time.monotonic)
    saved: dict[str, Any] | None = None
    save_error: str | None = None
    closed: bool = False
    evicted: bool = False
    """Dropped from the server's memory: a request holding it must fetch the game again."""
    broken: bool = False
    """A move could not be written: the game in memory is ahead of the database and must be reloaded."""
    _mark: explain.Mark | None = None
    _shown: int = 0
    _asked: float = field(default_factory=time.monotonic)
    _clock: _Clock | None = None

    @classmethod
    def create(cls, request: NewGame, store: GameStore, bots: BotPool, save_dir: SaveDir | None = None) -> PlaySession:
        """A new game, stored (no move played yet: :meth:`resume` lets the bots play up to the person's first
        decision); :class:`WebError` (422) for an agent that cannot be built or does not play this game
        (``opponents:`` and :meth:`~agents.Agent.supports`'s message)."""
        config = request.config
        try:
            modules = agent_modules(request.opponents, config)
        except AgentError as exc:
            raise WebError(422, f"opponents: {exc}") from None
        others = iter(request.opponents)
        names = [HUMAN if s == request.seat else next(others) for s in range(config.players)]
        session = cls(
            id=secrets.token_hex(8),
            game=Game.new(config, seed=request.seed),
            seat=request.seat,
            seed=request.seed,
            options=request.options,
            names=names,
            store=store,
            bots=bots,
            modules=modules,
            save_dir=save_dir,
        )
        session._clock = _Clock.of(config.players)
        session._mark = explain.mark(session.game, session.seat)
        try:
            store.add_game(session.id, session.rules, session.options, session.seed, session.seat, names, modules)
        except StoreError as exc:
            raise WebError(503, f"the game could not be stored: {exc}") from None
        return session

    @classmethod
    def restore(cls, stored: StoredGame, store: GameStore, bots: BotPool, save_dir: SaveDir | None) -> PlaySession:
        """The stored game rebuilt by replaying its moves from its seed (its events, the person's last decision
        point and the decision times with it); :class:`WebError` (409) if they do not replay."""
        try:
            config = config_from_dict(stored.config)
            game = Game.new(config, seed=stored.seed)
        except ValueError as exc:
            raise WebError(409, f"game {stored.id}: its stored options do not make a game: {exc}") from None
        session = cls(
            id=stored.id,
            game=game,
            seat=stored.seat,
            seed=stored.seed,
            options=dict(stored.config),
            names=list(stored.seating),
            store=store,
            bots=bots,
            modules=stored.modules,
            save_dir=save_dir,
            status=stored.status,
            created=stored.created,
            saved=stored.saved,
        )
        session._replay(stored.moves)
        return session

    def _replay(self, moves: Sequence[StoredMove]) -> None:
        game, seat = self.game, self.seat
        clock = self._clock = _Clock.of(game.num_players)
        last_own = max((i for i, move in enumerate(moves) if move.seat == seat), default=-1)
        self._mark, self._shown = explain.mark(game, seat), len(game.events)
        for i, move in enumerate(moves):
            pending = game.pending
            try:
                if pending is None or pending.seat != move.seat or move.step != i:
                    raise ValueError(f"stored move {i} ({move.action!r} by P{move.seat}) is not the game's next")
                if i == last_own:  # "since your last decision" counts from here
                    self._mark, self._shown = explain.mark(game, seat), len(game.events)
                game.apply(parse_action(move.action))
            except (ValueError, TribuneError) as exc:
                raise WebError(409, f"game {self.id} cannot be restored: {exc}") from None
            self.actions.append(move.action)
            clock.add(move.seat, move.seconds)
            if move.note:
                self.notes.append(move.note)

    @property
    def step(self) -> int:
        """Decisions played so far (by anyone): the token a decision request may carry to detect staleness."""
        return len(self.actions)

    @property
    def rules(self) -> str:
        """The name of the game's rule set (``base``, ``expansion`` or ``brutii``)."""
        return self.game.config.rules.value

    @property
    def over(self) -> bool:
        """No decision is left: the game ended, or the person resigned or abandoned it."""
        return self.status != PLAYING or self.game.is_over

    def close(self) -> None:
        """Mark the session closed (its bots run in the :class:`BotPool`; the game stays readable)."""
        self.closed = True

    # -- playing --------------------------------------------------------------------------

    def _play(self, action: Action, seat: int, seconds: float, note: str | None = None) -> None:
        """Apply ``action`` and commit it to the store before anything else happens."""
        step = len(self.actions)
        self.game.apply(action)
        text = action_text(action)
        self.actions.append(text)
        if self._clock is not None:
            self._clock.add(seat, seconds)
        if note is not None:
            self.notes.append(note)
        try:
            self.store.add_move(self.id, StoredMove(step, seat, text, seconds, note), self.game.round)
        except StoreError as exc:
            self.broken = True
            raise WebError(503, f"the move could not be saved, so it is undone ({exc}); reload the game") from None

    def _agent_move(self, seat: int) -> None:
        start = time.monotonic()
        decision = Decision(
            self.id,
            self.options,
            self.seed,
            tuple(self.actions),
            seat,
            self.names[seat],
            decision_seed(_agent_seed(self.seed, seat), self.step),
            self.modules,
        )
        action, problem = bot_move(RemoteBot(self.bots, decision), self.game, seat)
        note = None
        if problem is not None:
            note = f"P{seat} {self.names[seat]} {problem:.200}; it played its first legal choice instead"
        self._play(action, seat, time.monotonic() - start, note)

    def _advance(self) -> None:
        """Let the bots play until the person decides or the game ends (then save it)."""
        while (pending := self.game.pending) is not None and pending.seat != self.seat:
            self._agent_move(pending.seat)
        self._asked = time.monotonic()
        if self.game.is_over:
            self._finish(OVER)

    def resume(self) -> None:
        """Bring a created or restored game to the person's decision: the bots play if the next decision is theirs,
        and a game that ended before its end was recorded is recorded now."""
        pending = self.game.pending
        if self.status == PLAYING and (pending is None or pending.seat != self.seat):
            self._advance()

    def _finish(self, status: str, forfeit: Forfeit | None = None) -> None:
        """End the game as ``status``: save its record (unless abandoned) and record how it ended."""
        self.status = status
        self.close()
        if status != ABANDONED and self.save_dir is not None and self.saved is None:
            try:
                path, game_id = self.save_dir.save(self.rules, self.record(forfeit))
            except Exception as exc:  # a full disk or a locked file must not lose the finished game's page
                self.save_error = f"the game could not be saved: {exc}"
            else:
                replay = f"tribune replay {path} --game {game_id}"
                self.saved = {"path": str(path), "game_id": game_id, "replay": replay}
        try:
            self.store.set_status(self.id, status, self.saved)
        except StoreError as exc:
            self.broken = True
            raise WebError(503, f"the end of the game could not be stored ({exc}); reload the game") from None

    def _chosen(self, doc: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        given = [key for key in ("choice", "bid", "action") if key in doc]
        if len(given) != 1:
            raise WebError(422, "give exactly one of 'choice' (an index), 'bid' (denarii) or 'action' (action text)")
        key = given[0]
        value = doc[key]
        bidding = is_bid(self.game.pending.kind) if self.game.pending is not None else False
        if key == "action":
            if not isinstance(value, str):
                raise WebError(422, f"action: expected the action's text such as 'place:5', got {value!r:.60}")
            try:
                action = parse_action(value)
            except ValueError as exc:
                raise WebError(422, f"action: {exc}") from None
            if action not in legal:
                raise WebError(409, f"action {value!r:.60} is not legal now")
            return action
        if isinstance(value, bool) or not isinstance(value, int):
            raise WebError(422, f"{key}: expected an integer, got {value!r:.60}")
        if key == "bid":
            if not bidding:
                raise WebError(409, "this decision is not a bid; send 'choice'")
            if Bid(value) not in legal:
                amounts = _amounts(legal)
                raise WebError(409, f"you cannot bid {value} now; bids from {amounts[0]} to {amounts[-1]}")
            return Bid(value)
        choices = self.choices()
        if not 0 <= value < len(choices):
            raise WebError(409, f"there is no choice {value} now; choices are 0 to {len(choices) - 1}")
        return choices[value]

    def _check_playing(self) -> None:
        if self.status != PLAYING:
            raise WebError(409, f"the game was {self.status}; start a new game")
        if self.game.pending is None:
            raise WebError(409, "the game is over; start a new game")

    def act(self, body: object) -> None:
        """Play the person's decision in ``body`` (see the module docstring), then the bots up to the person's
        next decision; each move is stored as it is played. Raises :class:`WebError` and changes nothing for a bad
        or stale request."""
        doc = _object(body)
        _check_keys(doc, ("choice", "bid", "action", "step"))
        step = _int(doc, "step", None, 0, 10**9)
        self._check_playing()
        if step is not None and step != self.step:
            raise WebError(409, f"stale request: it answers step {step} but the game is at step {self.step}; reload")
        action = self._chosen(doc, self.game.legal_actions())
        self._mark = explain.mark(self.game, self.seat)
        self._shown = len(self.game.events)
        try:
            self._play(action, self.seat, time.monotonic() - self._asked)
        except TribuneError as exc:  # not expected: the action was checked against the legal list
            raise WebError(409, f"illegal action: {exc}") from None
        self._advance()

    def resign(self) -> None:
        """The person gives the game up: it ends as their forfeit (reason ``resigned``; they rank last, the others
        by score) and is saved as a replayable record like a finished game."""
        self._check_playing()
        message = f"the person resigned in round {self.game.round}, at step {self.step}"
        self._finish(RESIGNED, Forfeit(self.seat, RESIGNED, message))

    def abandon(self) -> None:
        """The person leaves the game unfinished: recorded as abandoned (no result, no record); it stays readable."""
        self._check_playing()
        self._finish(ABANDONED)

    def choices(self) -> list[Action]:
        """The person's choices in order: every legal action, bids left out (they go through ``bid``)."""
        pending = self.game.pending
        if self.status != PLAYING or pending is None or pending.seat != self.seat:
            return []
        legal = self.game.legal_actions()
        if is_bid(pending.kind):
            return [a for a in legal if not isinstance(a, Bid)]
        return legal

    # -- what the page shows ----------------------------------------------------------------

    def _decision(self) -> dict[str, Any] | None:
        game = self.game
        pending = game.pending
        if self.status != PLAYING or pending is None or pending.seat != self.seat:
            return None
        rule = DECISIONS[pending.kind]
        faction = f" ({game.config.components.factions[pending.faction].name})" if pending.faction >= 0 else ""
        legal = game.legal_actions()
        choices = []
        for index, action in enumerate(self.choices()):
            text = explain.explain_choice(game, self.seat, action)
            choices.append(
                {
                    "index": index,
                    "words": text.words,
                    "detail": text.detail,
                    "action": action_text(action),
                    "targets": _targets(game, self.seat, action),
                    "card": isinstance(action, PickCard),
                    "decline": isinstance(action, Decline),
                    "group": _group(game, action),
                }
            )
        bid = None
        if is_bid(pending.kind):
            amounts = _amounts(legal)
            bid = {"min": amounts[0], "max": amounts[-1], "stake": explain.auction_line(game, self.seat)}
        staged = ""
        if rule.stages:
            tables = game.state.tables
            cards = [tables.card_name(c) for c in game.view(self.seat).staged if 0 <= c < tables.num_card_types]
            staged = "Chosen so far: " + (", ".join(cards) if cards else "nothing")
        return {
            "kind": pending.kind.name.lower(),
            "question": f"Round {game.round}{faction}: {rule.prompt}",
            "choices": choices,
            "bid": bid,
            "staged": staged,
            "takeover": explain.takeover_lines(game, self.seat),
        }

    def _forfeit(self) -> Forfeit | None:
        if self.status != RESIGNED:
            return None
        return Forfeit(self.seat, RESIGNED, f"the person resigned in round {self.game.round}, at step {self.step}")

    def _result(self) -> dict[str, Any] | None:
        game = self.game
        if self.status == ABANDONED:
            verdict = f"You abandoned this game in round {game.round}; it has no result and is not saved as one."
            return {
                "scores": game.scores(),
                "ranks": [],
                "winners": [],
                "truncated": False,
                "verdict": verdict,
                "lines": [],
            }
        if not self.over:
            return None
        scores, ranks, winners = expected_outcome(game, self._forfeit())
        lines = [
            f"rank {ranks[s]}: P{s} {'you' if s == self.seat else self.names[s]}, score {scores[s]}"
            + ("  (winner)" if s in winners else "")
            for s in sorted(range(game.num_players), key=lambda s: (ranks[s], s))
        ]
        if self.seat in winners:
            verdict = "You win!" if len(winners) == 1 else "You share the win!"
        else:
            verdict = "Winner(s): " + ", ".join(f"P{s} {self.names[s]}" for s in winners)
        if self.status == RESIGNED:
            verdict = f"You resigned. {verdict}"
        return {
            "scores": list(scores),
            "ranks": list(ranks),
            "winners": list(winners),
            "truncated": self.status == OVER and game.truncated,
            "verdict": verdict + (" (round limit reached)" if self.status == OVER and game.truncated else ""),
            "lines": lines,
        }

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as seen by the person's seat (nothing their view hides)."""
        game = self.game
        assert self._mark is not None
        progress = [
            {"seat": p.seat, "met": p.met, "required": p.required, "fulfils": p.fulfils, "text": p.text()}
            for p in explain.victory_progress(game, self.seat)
        ]
        log = [e.text for e in game.events[self._shown :] if e.private_to in (-1, self.seat)]
        return {
            "id": self.id,
            "step": self.step,
            "seat": self.seat,
            "names": [("you" if s == self.seat else name) for s, name in enumerate(self.names)],
            "rules": self.rules,
            "seed": self.seed,
            "round": game.round,
            "status": self.status,
            "over": self.over,
            "decision": self._decision(),
            "victory": explain.victory_lines(game, self.seat),
            "progress": progress,
            "progress_line": explain.progress_line(game, self.seat),
            "changes": explain.changes_since(game, self.seat, self._mark),
            "log": log[-60:],
            "notes": self.notes[-10:],
            "board": board_svg(game, viewer=self.seat),
            "result": self._result(),
            "saved": self.saved,
            "save_error": self.save_error,
        }

    def record(self, forfeit: Forfeit | None = None) -> GameRecord:
        """The finished (or resigned) game as a replayable record (game id 0 until :class:`SaveDir` numbers it)."""
        game = self.game
        forfeit = forfeit or self._forfeit()
        clock = self._clock or _Clock.of(game.num_players)
        timings = tuple(SeatTiming(m, t, x) for m, t, x in zip(clock.moves, clock.total, clock.longest, strict=True))
        scores, ranks, winners = expected_outcome(game, forfeit)
        return GameRecord(
            game_id=0,
            deal=0,
            seed=self.seed,
            seating=tuple(self.names),
            config=dict(self.options),
            actions=tuple(self.actions),
            scores=scores,
            ranks=ranks,
            winners=winners,
            rounds=game.round,
            decisions=len(self.actions),
            truncated=forfeit is None and game.truncated,
            timings=timings,
            forfeit=forfeit,
            seconds=max(0.0, time.time() - self.created),
            agent_seeds=tuple(_agent_seed(self.seed, s) for s in range(game.num_players)),
        )


# -- the games of one server ----------------------------------------------------------------


class GameManager:
    """The games of one server: every game is in ``store`` (the save directory's games database, or one in memory
    without a save directory), so none is ever lost; at most ``max_games`` are kept in memory (the least recently
    used one that no request holds is dropped, and rebuilt from the store when asked for again). Bots move in a
    :class:`BotPool` of ``bot_workers`` processes, ``bot_seconds`` per move."""

    def __init__(
        self,
        save_dir: SaveDir | None = None,
        max_games: int = 64,
        allow_paths: bool = True,
        bot_seconds: float = DEFAULT_BOT_SECONDS,
        bot_workers: int = DEFAULT_BOT_WORKERS,
        store: GameStore | None = None,
    ) -> None:
        self.save_dir = save_dir
        self.max_games = max(1, max_games)
        self.allow_paths = allow_paths
        self.store = store or GameStore(save_dir.path if save_dir is not None else None)
        try:
            self.bots = BotPool(bot_seconds, bot_workers)
        except BaseException:
            self.store.close()
            raise
        self._games: OrderedDict[str, PlaySession] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, body: object) -> PlaySession:
        """A new game from a new-game request (:func:`parse_new_game`), stored; the bots play up to the person's
        turn (each move stored as it is played)."""
        request = parse_new_game(body, self.allow_paths)
        _check_budgets(request.opponents, self.bots.seconds)
        session = PlaySession.create(request, self.store, self.bots, self.save_dir)
        self._keep(session)
        with self.locked(session.id) as held:
            return held

    def _keep(self, session: PlaySession) -> None:
        """Hold ``session`` in memory as the most recently used game, dropping the least recently used games that no
        request holds beyond :attr:`max_games`."""
        with self._lock:
            self._games[session.id] = session
            self._games.move_to_end(session.id)
            for victim in list(self._games.values()):
                if len(self._games) <= self.max_games:
                    break
                if victim is session or not victim.lock.acquire(blocking=False):
                    continue
                victim.evicted = True
                del self._games[victim.id]
                victim.lock.release()

    def _session(self, game_id: str) -> PlaySession:
        """The game ``game_id`` from memory or, rebuilt, from the store; :class:`WebError` 404 if there is none."""
        with self._lock:
            session = self._games.get(game_id)
            if session is not None:
                self._games.move_to_end(game_id)
                session.touched = time.monotonic()
                return session
        stored = self.store.game(game_id) if isinstance(game_id, str) and len(game_id) <= 64 else None
        if stored is None:
            raise WebError(404, f"unknown game id {game_id!r:.40}")
        restored = PlaySession.restore(stored, self.store, self.bots, self.save_dir)
        with self._lock:
            session = self._games.get(game_id)  # another request may have restored it meanwhile
            if session is None:
                self._games[game_id] = session = restored
        return session

    @contextmanager
    def locked(self, game_id: str) -> Iterator[PlaySession]:
        """The game ``game_id``, held (its lock) and brought to the person's decision (:meth:`PlaySession.resume`);
        404 for an unknown id, 409 when another request holds it for :data:`LOCK_WAIT` seconds."""
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            session = self._session(game_id)
            if not session.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise WebError(409, "the game is busy with another request; try again")
            if not session.evicted:
                break
            session.lock.release()
        try:
            self._keep(session)
            self._resume(session)
            yield session
        finally:
            if session.broken:  # what is in memory is ahead of the store: rebuild it from the store next time
                session.evicted = True
                with self._lock:
                    if self._games.get(session.id) is session:
                        del self._games[session.id]
            session.lock.release()

    def _resume(self, session: PlaySession) -> None:
        try:
            session.resume()
        except WebError:
            raise
        except Exception:  # the game must be rebuilt from what the store holds before it is used again
            session.broken = True
            raise

    def get(self, game_id: str) -> PlaySession:
        """The game ``game_id`` (not held: prefer :meth:`locked`)."""
        with self.locked(game_id) as session:
            return session

    def resign(self, game_id: str) -> PlaySession:
        with self.locked(game_id) as session:
            session.resign()
            return session

    def abandon(self, game_id: str) -> PlaySession:
        with self.locked(game_id) as session:
            session.abandon()
            return session

    def remove(self, game_id: str) -> None:
        """Abandon a game (kept for ``DELETE /api/games/<id>``; the game stays in the store as abandoned)."""
        self.abandon(game_id)

    def unfinished(self) -> list[dict[str, Any]]:
        """The games still being played (from the store), the most recently played first."""
        return [game.summary() for game in self.store.unfinished()]

    def ids(self) -> list[str]:
        """The ids of the games still being played."""
        return [game["id"] for game in self.unfinished()]

    def live(self) -> list[str]:
        """The ids of the games held in memory, the least recently used first."""
        with self._lock:
            return list(self._games)

    def close(self) -> None:
        """End the bots' processes and close the store (the games stay in it)."""
        with self._lock:
            games, self._games = list(self._games.values()), OrderedDict()
        for session in games:
            session.close()
        self.bots.close()
        self.store.close()


def _check_budgets(specs: Sequence[str], limit: float) -> None:
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
