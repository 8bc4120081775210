"""The agent interface: :class:`Agent`.

Contract. At every decision of its seat an agent's :meth:`Agent.act` gets

* ``view``: the seat's :class:`~tribune_env.engine.view.PlayerView`, exactly
  what the player may know (R1, R2);
* ``legal``: the typed legal choices of the pending decision (``view.pending``);
* ``info``: an :class:`~tribune_env.envs.infoset.InfoSet` for search and
  policy agents: ``info.sample(rng)`` deals a full game consistent with the
  view, ``info.observation()``/``info.action_mask()`` give the codec's arrays.

and returns one element of ``legal``. :meth:`Agent.reset` is called before
each game with the seat, the game's configuration and a seed; an agent draws
all its randomness from that seed, so a game replays exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence

from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.view import PlayerView
from tribune_env.envs.infoset import InfoSet

__all__ = ["Agent", "AgentError", "InfoSet"]


class AgentError(ValueError):
    """A bad agent spec or agent parameter; the message names the problem."""


class Agent(ABC):
    """Base class of all agents (see the module docstring for the contract)."""

    #: short name used in specs and tables; the registry sets :attr:`spec` to the full spec
    name: str = "agent"
    #: whether the agent can play expansion games (``GameConfig.expansion``)
    plays_expansion: bool = False
    #: whether the agent can play the Brutii variant (``GameConfig.brutii``), in either role (R42-R54)
    plays_brutii: bool = False

    def __init__(self, seed: int | None = None) -> None:
        self.spec = self.name
        self.seat = 0
        self.config = GameConfig()
        self.rng = random.Random(seed)

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        """Start a new game in ``seat``; all randomness of the game comes from ``seed``.

        Raises:
            AgentError: the game is an expansion game and the agent does not play the expansion, or a Brutii game
                and it does not play the Brutii variant.
        """
        if config.expansion and not self.plays_expansion:
            raise AgentError(f"agent {self.spec!r} does not play expansion games (heuristic, greedy, mcts, random do)")
        if config.brutii and not self.plays_brutii:
            raise AgentError(
                f"agent {self.spec!r} does not play the Brutii variant (heuristic, greedy, mcts, random do)"
            )
        self.seat = seat
        self.config = config
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        """One element of ``legal`` for the pending decision ``view.pending``."""

    def close(self) -> None:
        """Release resources (models, pools); called when the agent is no longer needed."""
        return None  # nothing to release by default

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"
