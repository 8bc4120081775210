"""One game of ``tribune serve``: :class:`PlaySession` (kept by :class:`~.manager.GameManager`).

A person sits in one seat; bots (any spec of :mod:`agents.specs`) fill the others and play server-side between
the person's decisions, each move in a worker process under a per-move time limit (:mod:`.bots`; a bot that fails
or overruns plays its first legal choice, and the page says so). Every request is checked before anything changes:
a bad one raises :class:`~.checks.WebError` and leaves the game as it was.

Every game is durable: each move is committed to the server's games database (:mod:`.store`) as it is played, and
a game not in memory (the server restarted, or it was dropped from memory for newer ones) is rebuilt from it by
replaying its moves, under the same id and at the same step. A game ends when it is over, when the person resigns
(saved as a record with the person's forfeit) or when they abandon it (recorded, no result).

A decision (:meth:`PlaySession.act`) is exactly one of ``choice`` (the index of a choice listed in the game's state),
``bid`` (an amount of denarii) or ``action`` (the engine's action text, e.g. ``place:5``); optionally ``step``, the
state's ``step`` the person decided on (another one means the request is stale: 409).

Statuses: 400 body not a JSON object, 404 unknown game id, 409 the game is over, resigned, abandoned, busy or has
moved on, or the action is not legal now, 422 a field missing, of the wrong type or out of range, 503 the games
database could not be written (the move is undone).

A finished or resigned game is saved (:class:`~.saving.SaveDir`) as a :class:`~tribune_arena.records.GameRecord` in
an SQLite results file of its rule set, ``tribune-serve-<rules>.sqlite``, which ``tribune replay FILE --game N``
reads. The end is stored first (status and the record's planned number, one transaction), then the record, then
its number as done: a server killed anywhere in between finds the game ended on restart and completes the save
under the same number, never a second time (:meth:`PlaySession.complete_save`).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents import AgentError
from tribune_arena.human import explain
from tribune_arena.human.bot import bot_move
from tribune_arena.human.web import views
from tribune_arena.human.web.bots import BotPool, Decision, RemoteBot, decision_seed
from tribune_arena.human.web.checks import NewGame, WebError, check_int, check_keys, check_object
from tribune_arena.human.web.choices import amounts
from tribune_arena.human.web.saving import SaveDir
from tribune_arena.human.web.store import (
    ABANDONED,
    OVER,
    PLAYING,
    RESIGNED,
    GameStore,
    StoredGame,
    StoredMove,
    StoreError,
    key_hash,
)
from tribune_arena.records import Forfeit, GameRecord, SeatTiming
from tribune_arena.tournament.play import agent_modules
from tribune_arena.tournament.store import expected_outcome
from tribune_env.engine.actions import Action, Bid
from tribune_env.engine.config import config_from_dict
from tribune_env.engine.errors import TribuneError
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.registry import is_bid

HUMAN = "human"
"""The seating name of the person's seat in a saved record."""


@dataclass
class Clock:
    moves: list[int]
    total: list[float]
    longest: list[float]

    @classmethod
    def of(cls, players: int) -> Clock:
        return cls([0] * players, [0.0] * players, [0.0] * players)

    def add(self, seat: int, seconds: float) -> None:
        self.moves[seat] += 1
        self.total[seat] += seconds
        self.longest[seat] = max(self.longest[seat], seconds)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (as saved in records' ``agent_seeds``)."""
    return seed * 1000 + seat


@dataclass
class PlaySession:
    """One game: people in the seats ``humans`` (``seat``: the one who created it), bots elsewhere (run by
    ``bots``), every move written to ``store``. Each human seat has a key (``keys``: their hashes; the keys
    themselves are handed out once, in :attr:`new_keys`). Use :meth:`create` or :meth:`restore`; hold :attr:`lock`
    around calls (:meth:`GameManager.locked` does). The methods that play or show the game take the seat they are
    for (default: ``seat``)."""

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
    humans: tuple[int, ...] = ()
    keys: dict[int, str] = field(default_factory=dict)
    new_keys: dict[int, str] = field(default_factory=dict)
    """The seats' keys in clear, only on the session that created the game (for the creator to hand out)."""
    ended_by: int | None = None
    """The seat that resigned or abandoned the game."""
    marks: dict[int, explain.Mark] = field(default_factory=dict)
    """Each human seat's last decision point ("since your last decision" counts from there)."""
    shown: dict[int, int] = field(default_factory=dict)
    """The events each human seat had seen at its last decision."""
    people: dict[int, str] = field(default_factory=dict)
    """The names the people gave (seat: name; each seat once, shown to everyone)."""
    _asked: float = field(default_factory=time.monotonic)
    _clock: Clock | None = None

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
        humans = request.people
        names = [HUMAN if s in humans else next(others) for s in range(config.players)]
        keys = {s: secrets.token_urlsafe(18) for s in humans}
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
            humans=humans,
            keys={s: key_hash(k) for s, k in keys.items()},
            new_keys=keys,
        )
        session._clock = Clock.of(config.players)
        for s in humans:
            session.marks[s], session.shown[s] = explain.mark(session.game, s), 0
        try:
            store.add_game(
                session.id,
                session.rules,
                session.options,
                session.seed,
                session.seat,
                names,
                modules,
                humans,
                session.keys,
            )
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
            humans=stored.humans or (stored.seat,),
            keys=dict(stored.keys),
            ended_by=stored.ended_by,
            people=store.people(stored.id),
        )
        session._replay(stored.moves)
        return session

    def _replay(self, moves: Sequence[StoredMove]) -> None:
        game = self.game
        clock = self._clock = Clock.of(game.num_players)
        last_own = {seat: max((i for i, m in enumerate(moves) if m.seat == seat), default=-1) for seat in self.humans}
        for seat in self.humans:
            self.marks[seat], self.shown[seat] = explain.mark(game, seat), len(game.events)
        for i, move in enumerate(moves):
            pending = game.pending
            try:
                if pending is None or pending.seat != move.seat or move.step != i:
                    raise ValueError(f"stored move {i} ({move.action!r} by P{move.seat}) is not the game's next")
                if last_own.get(move.seat) == i:  # "since your last decision" counts from here
                    self.marks[move.seat], self.shown[move.seat] = explain.mark(game, move.seat), len(game.events)
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
            decision_seed(agent_seed(self.seed, seat), self.step),
            self.modules,
        )
        action, problem = bot_move(RemoteBot(self.bots, decision), self.game, seat)
        note = None
        if problem is not None:
            note = f"P{seat} {self.names[seat]} {problem:.200}; it played its first legal choice instead"
        self._play(action, seat, time.monotonic() - start, note)

    def seat_of(self, key: str) -> int | None:
        """The human seat whose key ``key`` is (compared in constant time), or ``None``."""
        hashed = key_hash(key)
        found = None
        for seat, kept in self.keys.items():
            if secrets.compare_digest(hashed, kept):
                found = seat
        return found

    def keyless(self, seat: int) -> bool:
        """Whether ``seat`` is a human seat without a key (a game stored before seats had keys)."""
        return seat in self.humans and seat not in self.keys

    def waiting_for(self) -> int | None:
        """The human seat whose decision the game waits for (``None``: a bot's, or the game is over)."""
        pending = self.game.pending
        if self.status != PLAYING or pending is None or pending.seat not in self.humans:
            return None
        return pending.seat

    def _advance(self) -> None:
        """Let the bots play until a person decides or the game ends (then save it)."""
        while (pending := self.game.pending) is not None and pending.seat not in self.humans:
            self._agent_move(pending.seat)
        self._asked = time.monotonic()
        if self.game.is_over:
            self._finish(OVER)

    def resume(self) -> None:
        """Bring a created or restored game to the person's decision: the bots play if the next decision is theirs,
        a game that ended before its end was recorded is recorded now, and an ended game whose record was not yet
        saved (the server died in between) is saved now."""
        pending = self.game.pending
        if self.status == PLAYING and (pending is None or pending.seat not in self.humans):
            self._advance()
        elif self.unsaved:
            self.complete_save()

    @property
    def unsaved(self) -> bool:
        """The game ended with a result that is to be saved and is not yet (or not known to be) in its file."""
        ended = self.status in (OVER, RESIGNED) and self.save_dir is not None
        return ended and (self.saved is None or bool(self.saved.get("pending")))

    def _store_end(self, saved: dict[str, Any] | None) -> None:
        try:
            self.store.set_status(self.id, self.status, saved, self.ended_by)
        except StoreError as exc:
            self.broken = True
            raise WebError(503, f"the end of the game could not be stored ({exc}); reload the game") from None
        self.saved = saved

    def _finish(self, status: str, by: int | None = None) -> None:
        """End the game as ``status`` (``by``: the seat that resigned or abandoned it). The end is stored first,
        with the number its record will have in the results file (one transaction), then the record is saved
        (unless abandoned): see :meth:`complete_save`."""
        self.status = status
        self.ended_by = by
        self.close()
        planned = None
        if self.unsaved:
            assert self.save_dir is not None
            try:
                path, number = self.save_dir.reserve(self.rules)
            except Exception as exc:  # a full disk or a locked file must not lose the finished game's page
                self.save_error = f"the game could not be saved: {exc}"
            else:
                planned = {"path": str(path), "game_id": number, "replay": "", "pending": True}
        self._store_end(planned)
        if planned is not None:
            self.complete_save()

    def complete_save(self) -> None:
        """Save the ended game's record under its planned number, once: if an earlier try (a server killed before
        it could say so) stored it there already, it is not stored again (:meth:`SaveDir.save_as`)."""
        assert self.save_dir is not None
        try:
            if self.saved is None:
                number = self.save_dir.reserve(self.rules)[1]
                self._store_end({"path": str(self.save_dir.file(self.rules)), "game_id": number, "pending": True})
            assert self.saved is not None
            path, number = self.save_dir.save_as(self.rules, self.record(), int(self.saved["game_id"]))
        except WebError:
            raise
        except Exception as exc:  # a full disk or a locked file must not lose the finished game's page
            self.save_error = f"the game could not be saved: {exc}"
            return
        self.save_error = None
        self._store_end({"path": str(path), "game_id": number, "replay": f"tribune replay {path} --game {number}"})

    def _chosen(self, doc: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
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
                bids = amounts(legal)
                raise WebError(409, f"you cannot bid {value} now; bids from {bids[0]} to {bids[-1]}")
            return Bid(value)
        choices = self.choices(seat)
        if not 0 <= value < len(choices):
            raise WebError(409, f"there is no choice {value} now; choices are 0 to {len(choices) - 1}")
        return choices[value]

    def _check_playing(self) -> None:
        if self.status != PLAYING:
            raise WebError(409, f"the game was {self.status}; start a new game")
        if self.game.pending is None:
            raise WebError(409, "the game is over; start a new game")

    def act(self, body: object, seat: int | None = None) -> None:
        """Play ``seat``'s decision in ``body`` (see the module docstring), then the bots up to a person's next
        decision; each move is stored as it is played. Raises :class:`WebError` and changes nothing for a bad or
        stale request, or one from a seat whose turn it is not (409)."""
        seat = self.seat if seat is None else seat
        doc = check_object(body)
        check_keys(doc, ("choice", "bid", "action", "step"))
        step = check_int(doc, "step", None, 0, 10**9)
        self._check_playing()
        if step is not None and step != self.step:
            raise WebError(409, f"stale request: it answers step {step} but the game is at step {self.step}; reload")
        pending = self.game.pending
        if pending is None or pending.seat != seat:
            waiting = "" if pending is None else f"; the game waits for P{pending.seat}"
            raise WebError(409, f"it is not P{seat}'s decision now{waiting}")
        action = self._chosen(doc, self.game.legal_actions(), seat)
        self.marks[seat] = explain.mark(self.game, seat)
        self.shown[seat] = len(self.game.events)
        try:
            self._play(action, seat, time.monotonic() - self._asked)
        except TribuneError as exc:  # not expected: the action was checked against the legal list
            raise WebError(409, f"illegal action: {exc}") from None
        self._advance()

    def resign(self, seat: int | None = None) -> None:
        """``seat`` gives the game up: it ends as that seat's forfeit (reason ``resigned``; it ranks last, the
        others by score) and is saved as a replayable record like a finished game."""
        self._check_playing()
        self._finish(RESIGNED, self.seat if seat is None else seat)

    def abandon(self, seat: int | None = None) -> None:
        """``seat`` leaves the game unfinished, for everyone at the table: recorded as abandoned (no result, no
        record); it stays readable."""
        self._check_playing()
        self._finish(ABANDONED, self.seat if seat is None else seat)

    def choices(self, seat: int | None = None) -> list[Action]:
        """``seat``'s choices in order: every legal action, bids left out (they go through ``bid``)."""
        seat = self.seat if seat is None else seat
        pending = self.game.pending
        if self.status != PLAYING or pending is None or pending.seat != seat:
            return []
        legal = self.game.legal_actions()
        if is_bid(pending.kind):
            return [a for a in legal if not isinstance(a, Bid)]
        return legal

    # -- what the page shows ----------------------------------------------------------------

    def state(self, viewer: int | None = -1) -> dict[str, Any]:
        """Everything the page shows, as seen by seat ``viewer`` (nothing its view hides); ``None``: as a
        spectator sees it (public information only); ``-1`` (the default): as the creator's seat sees it."""
        return views.state(self, self.seat if viewer == -1 else viewer)

    def record(self, forfeit: Forfeit | None = None) -> GameRecord:
        """The finished (or resigned) game as a replayable record (game id 0 until :class:`SaveDir` numbers it)."""
        game = self.game
        forfeit = forfeit or views.forfeit(self)
        clock = self._clock or Clock.of(game.num_players)
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
            agent_seeds=tuple(agent_seed(self.seed, s) for s in range(game.num_players)),
        )
