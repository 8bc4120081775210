"""The public handle on one game: :class:`Game`."""

from __future__ import annotations

import operator
from typing import Any, SupportsIndex

from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import Pending, Phase
from tribune_env.engine.describe import describe_action
from tribune_env.engine.flow import advance, apply_action, legal_actions
from tribune_env.engine.scoring import ranks, scores
from tribune_env.engine.serialize import state_from_json, state_to_json
from tribune_env.engine.setup import new_state
from tribune_env.engine.state import Event, GameState
from tribune_env.engine.text import render
from tribune_env.engine.view import PlayerView


class Game:
    """One game of Tribune, advanced from decision to decision.

    ``pending`` says who decides what; ``legal_actions()`` lists every legal
    choice; ``apply(action)`` plays one and runs everything automatic up to the
    next decision. Chance (shuffles, the Atrium flip) comes from a seeded key
    inside the state, so the same seed and choices always give the same game.
    """

    __slots__ = ("_views", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._views: list[PlayerView] = []  # views of the live state, detached before the next apply

    @classmethod
    def new(cls, config: GameConfig | None = None, seed: SupportsIndex = 0, **options: Any) -> Game:
        """A new game; ``options`` are :class:`GameConfig` fields when no config is given.

        ``seed`` is any integer, numpy's included (typed ``SupportsIndex`` so that the compiled build accepts them).
        """
        if config is None:
            config = GameConfig(**options)
        elif options:
            raise TypeError("give either a config or keyword options, not both")
        state = new_state(config, _seed(seed))
        advance(state)
        return cls(state)

    # -- decisions -------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for; ``None`` once the game is over."""
        return self.state.pending

    @property
    def current_seat(self) -> int:
        """The seat to decide, or -1 when the game is over."""
        pending = self.state.pending
        return -1 if pending is None else pending.seat

    def legal_actions(self) -> list[Action]:
        return legal_actions(self.state)

    def apply(self, action: object) -> None:
        """Play ``action``; raises :class:`IllegalActionError` (state unchanged) if it is not legal.

        Typed ``object``: anything else than a legal :data:`Action` (another type, ``None``) is an illegal action,
        in the compiled build too (mypyc would raise ``TypeError`` for a parameter typed ``Action``).
        """
        views = self._views
        if views:  # a view never changes: the unread ones get a copy of the state as it is now
            for view in views:
                view.detach()
            views.clear()
        apply_action(self.state, action, lambda a: describe_action(self.state, a))

    def describe(self, action: object) -> str:
        return describe_action(self.state, action)

    # -- status ----------------------------------------------------------------

    @property
    def config(self) -> GameConfig:
        return self.state.config

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def is_over(self) -> bool:
        return self.state.finished

    @property
    def truncated(self) -> bool:
        return self.state.truncated

    @property
    def winners(self) -> tuple[int, ...]:
        return self.state.winners

    def scores(self) -> list[int]:
        """Current scores by the scoring table, including the "first" bonus when it is held."""
        return scores(self.state)

    def ranks(self) -> list[int]:
        return ranks(self.state)

    @property
    def events(self) -> list[Event]:
        return self.state.events

    def log(self, seat: int | None = None) -> list[str]:
        """Readable event log; with ``seat``, only what that seat may read."""
        return [e.text for e in self.state.events if seat is None or e.private_to in (-1, seat)]

    # -- copies, views, documents ---------------------------------------------

    def clone(self, events: bool = True) -> Game:
        """An independent copy; ``events=False`` leaves the event log out (empty in the copy), which is cheaper
        for search and plays on identically."""
        return Game(self.state.clone(events))

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now; computed when first read (:class:`PlayerView`), so unread views are cheap."""
        view = PlayerView(self.state, seat)
        self._views.append(view)
        return view

    def to_json(self) -> dict[str, Any]:
        return state_to_json(self.state)

    @classmethod
    def from_json(cls, doc: object, components: object = None) -> Game:
        """The game of a state document (a dict or its JSON text); anything else is an :class:`InvalidStateError`."""
        return cls(state_from_json(doc, components))

    def render(self, seat: int | None = None) -> str:
        return render(self.state, seat)

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
