"""The public handle on one game: :class:`Game`."""

from __future__ import annotations

import operator
import random
import warnings
from typing import TYPE_CHECKING, Any, SupportsIndex

from tribune_env.engine import native
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import Pending, Phase
from tribune_env.engine.describe import describe_action
from tribune_env.engine.determinize import resample
from tribune_env.engine.errors import GameOverError, IllegalActionError
from tribune_env.engine.flow import advance, apply_action, illegal_reason, legal_actions, listed_choice
from tribune_env.engine.scoring import ranks, scores
from tribune_env.engine.serialize import check_state, state_from_json, state_to_json
from tribune_env.engine.setup import new_state
from tribune_env.engine.state import Event, GameState
from tribune_env.engine.tables import Tables
from tribune_env.engine.text import render
from tribune_env.engine.view import PlayerView

if TYPE_CHECKING:
    from tribune_env._core import Core


class Game:
    """One game of Tribune, advanced from decision to decision.

    ``pending`` says who decides what; ``legal_actions()`` lists every legal
    choice; ``apply(action)`` plays one and runs everything automatic up to the
    next decision. Chance (shuffles, the Atrium flip) comes from a seeded key
    inside the state, so the same seed and choices always give the same game.

    Two engines play it, identically (tests/native): the Python engine (the specification) and the native core
    (C++). :meth:`new`, :meth:`from_json` and :meth:`from_state` take ``engine``: ``"python"``, ``"native"``, or
    ``None`` for what ``TRIBUNE_ENGINE`` says (:func:`tribune_env.engine.native.resolve_engine`). A game made from a
    :class:`GameState` (``Game(state)``) plays on the Python engine.

    Everything but the Python engine's live state reads a native game where it is (views, documents, the log,
    rendering, :meth:`position`: a copy to read). Code that needs the live, mutable state asks for it by name:
    :meth:`python_state`, which hands a native game over to the Python engine for good. The older :attr:`state`
    does the same, with a ``DeprecationWarning`` on a native game (a silent hand-over made native games slow
    without a trace). Fast callers use :attr:`native_core`.
    """

    __slots__ = ("_core", "_events", "_legal", "_legal_native", "_snapshot", "_views", "state_")

    def __init__(self, state: GameState | None = None, core: Any = None) -> None:
        if (state is None) == (core is None):
            raise TypeError("Game: give a GameState or a native core, not both")
        self.state_ = state  # the Python engine's live state, or None on the native core
        self._core = core  # the native game, or None
        self._snapshot: GameState | None = None  # native: the Python copy of the position, made when first read
        self._legal: list[Action] | None = None  # native: the typed legal choices of this decision
        self._legal_native: list[tuple[int, int, int]] = []  # native: the same choices as the core lists them
        self._events: list[Event] = []  # native: the log as read so far (it only grows), extended when read
        self._views: list[PlayerView] = []  # views of the live state, detached before the next apply

    @classmethod
    def new(
        cls, config: GameConfig | None = None, seed: SupportsIndex = 0, *, engine: str | None = None, **options: Any
    ) -> Game:
        """A new game; ``options`` are :class:`GameConfig` fields when no config is given.

        ``seed`` is any integer, numpy's included (typed ``SupportsIndex`` so that the compiled build accepts them).
        ``engine``: ``"python"``, ``"native"`` or ``None`` (``TRIBUNE_ENGINE``); the same seed and options give the
        same game on both.

        Raises:
            ValueError: a bad ``engine`` (or ``TRIBUNE_ENGINE``) or option.
            NativeUnavailableError: the native engine asked for where it is not built.
        """
        if config is None:
            config = GameConfig(**options)
        elif options:
            raise TypeError("give either a config or keyword options, not both")
        seed = _seed(seed)
        if native.use_native(engine):
            return cls(core=native.new_core(config, seed))
        state = new_state(config, seed)
        advance(state)
        return cls(state)

    @property
    def engine(self) -> str:
        """The engine this game runs on: ``"native"`` or ``"python"``."""
        return "python" if self._core is None else "native"

    @property
    def native_core(self) -> Core | None:
        """The native game (``tribune_env._core.Core``), or ``None`` on the Python engine: the fast path of the
        batched environments and of search."""
        core: Core | None = self._core
        return core

    @property
    def state(self) -> GameState:
        """The Python engine's live state (:meth:`python_state`); on a native game a ``DeprecationWarning`` first:
        call :meth:`python_state` to hand it over on purpose, or :meth:`position` to read it."""
        if self.state_ is None:
            warnings.warn(
                "Game.state on a native game hands it over to the Python engine; call game.python_state() for that, "
                "or game.position() to read the position",
                DeprecationWarning,
                stacklevel=2,
            )
        return self.python_state()

    def python_state(self) -> GameState:
        """The Python engine's live, mutable state. A native game is handed over to the Python engine first, for
        good (:attr:`engine` is ``"python"`` afterwards; it plays on identically, at the Python engine's speed)."""
        if self.state_ is None:  # a fresh copy: views already handed out keep what they read
            self._detach_views()
            self.state_ = native.state_of(self._core, self.config, self._native_log())
            self._core = None
            self._snapshot = None
            self._legal = None
        return self.state_

    def position(self) -> GameState:
        """The position as a :class:`GameState` to read, not to change: the live state on the Python engine; on the
        native core a copy made when first read after a change (cached until the next apply), the game stays
        native."""
        if self.state_ is not None:
            return self.state_
        if self._snapshot is None:
            self._snapshot = native.state_of(self._core, self.config, self._native_log())
        return self._snapshot

    def determinized(self, seat: int, rng: random.Random) -> Game:
        """A game consistent with everything ``seat`` knows, all else dealt again from ``rng``
        (:func:`~tribune_env.engine.determinize.resample`; its engine as :meth:`from_state` chooses). On a native
        game the core deals it, with the same draws from ``rng`` in the same order: the same deal either way."""
        if self._core is not None:
            return Game(core=self._core.resample(seat, rng))
        sample = resample(self.position(), seat, rng)  # a position of the game by construction: not checked again
        if native.resolve_engine() == "native":
            return Game(core=native.core_of(sample, checked=True))
        return Game(sample)

    def _native_log(self) -> list[Event]:
        """The native game's log, converted once per event (the core's log only grows)."""
        log, core = self._events, self._core
        if core.num_events > len(log):
            log.extend(native.events_of(core, len(log)))
        return log

    # -- decisions -------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for; ``None`` once the game is over."""
        if self.state_ is not None:
            return self.state_.pending
        return native.pending_of(self._core.pending())

    @property
    def current_seat(self) -> int:
        """The seat to decide, or -1 when the game is over."""
        if self.state_ is not None:
            pending = self.state_.pending
            return -1 if pending is None else pending.seat
        seat: int = self._core.current_seat
        return seat

    def legal_actions(self) -> list[Action]:
        if self.state_ is not None:
            return legal_actions(self.state_)
        legal = self._legal
        if legal is None:
            legal = self._native_legal()
        return list(legal)

    def _native_legal(self) -> list[Action]:
        """The typed legal choices of the native game's decision, read once per decision beside the core's own
        ``(type, a, b)`` forms (kept for :meth:`apply`)."""
        natives = self._core.legal()
        known, action_of = native._TYPED.get, native.action_of  # typed once, shared: actions are immutable
        legal = [known(a) or action_of(a) for a in natives]
        self._legal, self._legal_native = legal, natives
        return legal

    def apply(self, action: object) -> None:
        """Play ``action``; raises :class:`IllegalActionError` (state unchanged) if it is not legal.

        Typed ``object``: anything else than a legal :data:`Action` (another type, ``None``) is an illegal action,
        in the compiled build too (mypyc would raise ``TypeError`` for a parameter typed ``Action``).
        """
        self._detach_views()
        if self.state_ is not None:
            apply_action(self.state_, action, lambda a: describe_action(self.state_, a))  # type: ignore[arg-type]
            return
        self._apply_native(action)

    def _apply_native(self, action: object) -> None:
        core = self._core
        if core.current_seat < 0:
            raise GameOverError("the game is over: no decision is pending")
        choices = self._legal if self._legal is not None else self._native_legal()
        index = self._listed_index(action, choices)
        if not core.apply(*self._legal_native[index]):
            raise RuntimeError(f"the native core refused the legal choice {choices[index]!r}")  # an engine bug
        self.apply_native_done()

    def _listed_index(self, action: object, choices: list[Action]) -> int:
        """Where ``action`` is among ``choices`` (the same object, which agents usually give back, else
        :func:`listed_choice`); :class:`IllegalActionError` saying why when it is not there."""
        for index, choice in enumerate(choices):
            if choice is action:
                return index
        listed = listed_choice(action, choices)
        if listed is None:
            state = self.position()
            shown = list(choices)
            raise IllegalActionError(
                action, illegal_reason(state, action, shown), shown, lambda a: describe_action(state, a)
            )
        return choices.index(listed)

    def _detach_views(self) -> None:
        """A view never changes: the unread ones get a copy of the position as it is now, before a step."""
        views = self._views
        if views:
            for view in views:
                view.detach()
            views.clear()

    def apply_native(self, action: tuple[int, int, int]) -> bool:
        """Play a native ``(type, a, b)`` action on a native game (the fast path of the environments); ``False``
        (the game unchanged) when it is not legal: :meth:`apply` then says why."""
        if self._core is None:
            return False
        self._detach_views()
        if not self._core.apply(*action):
            return False
        self.apply_native_done()
        return True

    def apply_native_done(self) -> None:
        """Say that :attr:`native_core` was stepped directly (its cached copies are dropped). Views taken before
        such a step and not read yet cannot be read afterwards (RuntimeError): read them first."""
        self._snapshot = None
        self._legal = None
        self._views.clear()

    def describe(self, action: object) -> str:
        return describe_action(self.position(), action)

    # -- status ----------------------------------------------------------------

    @property
    def config(self) -> GameConfig:
        if self.state_ is not None:
            return self.state_.config
        config: GameConfig = self._core.config
        return config

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    def tables(self) -> Tables:
        """The card-type and follower-space tables of this game (shared, read-only)."""
        return self.config.tables

    @property
    def round(self) -> int:
        if self.state_ is not None:
            return self.state_.round
        value: int = self._core.round
        return value

    @property
    def phase(self) -> Phase:
        if self.state_ is not None:
            return self.state_.phase
        return Phase(self._core.phase)

    @property
    def is_over(self) -> bool:
        if self.state_ is not None:
            return self.state_.finished
        finished: bool = self._core.finished
        return finished

    @property
    def truncated(self) -> bool:
        if self.state_ is not None:
            return self.state_.truncated
        truncated: bool = self._core.truncated
        return truncated

    @property
    def brutii_seat(self) -> int:
        """The Brutii's seat, or -1 in a game without him (R43)."""
        if self.state_ is not None:
            return self.state_.brutii
        seat: int = self._core.brutii
        return seat

    @property
    def winners(self) -> tuple[int, ...]:
        if self.state_ is not None:
            return self.state_.winners
        return tuple(self._core.winners)

    def scores(self) -> list[int]:
        """Current scores by the scoring table, including the "first" bonus when it is held."""
        if self.state_ is not None:
            return scores(self.state_)
        return list(self._core.scores())

    def ranks(self) -> list[int]:
        if self.state_ is not None:
            return ranks(self.state_)
        return list(self._core.ranks())

    @property
    def events(self) -> list[Event]:
        if self.state_ is not None:
            return self.state_.events
        return list(self._native_log())

    def log(self, seat: int | None = None) -> list[str]:
        """Readable event log; with ``seat``, only what that seat may read."""
        return [e.text for e in self.events if seat is None or e.private_to in (-1, seat)]

    # -- copies, views, documents ---------------------------------------------

    def clone(self, events: bool = True) -> Game:
        """An independent copy; ``events=False`` leaves the event log out (empty in the copy), which is cheaper
        for search and plays on identically."""
        if self.state_ is not None:
            return Game(self.state_.clone(events))
        copy = Game(core=self._core.clone(events))
        if events:
            copy._events = list(self._events)
        return copy

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now; computed when first read (:class:`PlayerView`), so unread views are cheap. On
        the native core the view reads the core (no copy of the position), equal to the Python engine's."""
        state = self.state_
        view = PlayerView.of_core(self._core, seat) if state is None else PlayerView(state, seat)
        self._views.append(view)
        return view

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self.position())

    @classmethod
    def from_state(cls, state: GameState, engine: str | None = None) -> Game:
        """A game that plays on from ``state`` on ``engine`` (as :meth:`new`; ``state`` is the game's afterwards: the
        Python engine plays it, the native core copies it); ``Game(state)`` is always Python.

        ``state`` is checked first, on either engine, as a document is
        (:func:`~tribune_env.engine.serialize.check_state`): a state of the wrong shape or no position of the game
        raises :class:`InvalidStateError` naming the field."""
        chosen = native.resolve_engine(engine)  # a bad engine is named before the state is read
        check_state(state)
        if chosen == "native":
            return cls(core=native.core_of(state, checked=True))
        return cls(state)

    @classmethod
    def from_json(cls, doc: object, components: object = None, engine: str | None = None) -> Game:
        """The game of a state document (a dict or its JSON text); anything else is an :class:`InvalidStateError`.

        The document is read and checked by the Python engine (the specification); the game then runs on
        ``engine`` (as :meth:`new`)."""
        chosen = native.resolve_engine(engine)  # a bad engine is named before the document is read
        state = state_from_json(doc, components)
        if chosen == "native":
            return cls(core=native.core_of(state, checked=True))
        return cls(state)

    def render(self, seat: int | None = None) -> str:
        return render(self.position(), seat)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied with its views on the Python engine; a native game as the position it holds, played
        natively again when read back."""
        if self._core is None:
            return {"state": self.state_, "views": self._views}
        return {"native_state": self.position().clone()}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self._snapshot = None
        self._legal = None
        self._legal_native = []
        self._events = []
        if "native_state" in saved:
            self.state_ = None
            self._core = native.core_of(saved["native_state"])
            self._views = []
        else:
            self.state_ = saved["state"]
            self._core = None
            self._views = saved["views"]

    def __repr__(self) -> str:
        return f"Game(players={self.num_players}, round={self.round}, phase={self.phase.name}, pending={self.pending})"


def _seed(seed: SupportsIndex) -> int:
    """``seed`` as an ``int`` (``bool`` and ``int`` as they are; numpy integers by ``__index__``)."""
    if isinstance(seed, int):
        return seed
    try:
        return operator.index(seed)
    except TypeError:
        raise TypeError(f"seed: expected an integer, got {seed!r}") from None
