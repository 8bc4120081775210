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
from collections.abc import Callable, Sequence

from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig, RuleSet
from tribune_env.engine.view import PlayerView
from tribune_env.envs.infoset import InfoSet

__all__ = ["Agent", "AgentError", "InfoSet"]


_PLAYING: list[Callable[[RuleSet], list[str]]] = [lambda rules: []]
"""Who lists the registered agents that play a rule set: :func:`agents.specs.agents_playing`, which the registry
sets with :func:`set_lister` (the registry builds agents, so it imports this module and not the other way round)."""


def set_lister(lister: Callable[[RuleSet], list[str]]) -> None:
    """Name the function that lists the registered agents playing a rule set (the registry calls this once)."""
    _PLAYING[0] = lister


class AgentError(ValueError):
    """A bad agent spec or agent parameter; the message names the problem."""


_GAMES_OF = {RuleSet.BASE: "base games", RuleSet.EXPANSION: "expansion games", RuleSet.BRUTII: "the Brutii variant"}
"""How refusals name the games of each rule set ("agent 'x' does not play expansion games; ...")."""


class Agent(ABC):
    """Base class of all agents (see the module docstring for the contract)."""

    #: short name used in specs and tables; the registry sets :attr:`spec` to the full spec
    name: str = "agent"
    #: the rule sets (``GameConfig.rules``) whose games the agent plays; with the Brutii in either role (R42-R54).
    #: A class declares it; an agent whose games depend on what it loaded (a trained policy) sets it per instance.
    rule_sets: frozenset[RuleSet] = frozenset({RuleSet.BASE})

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for flag in ("plays_expansion", "plays_brutii"):
            if flag in vars(cls):
                raise TypeError(f"{cls.__name__}.{flag} is derived from rule_sets; declare rule_sets instead")

    def __init__(self, seed: int | None = None) -> None:
        self.spec = self.name
        self.seat = 0
        self.config = GameConfig()
        self.rng = random.Random(seed)

    @property
    def plays_expansion(self) -> bool:
        """Whether the agent plays expansion games (read-only: :attr:`rule_sets` decides)."""
        return RuleSet.EXPANSION in self.rule_sets

    @property
    def plays_brutii(self) -> bool:
        """Whether the agent plays the Brutii variant, in either role (read-only: :attr:`rule_sets` decides)."""
        return RuleSet.BRUTII in self.rule_sets

    def supports(self, config: GameConfig) -> str | None:
        """``None`` when the agent plays the game ``config``, else why not, in one message that names the
        registered agents which do play its rule set (:func:`agents.specs.agents_playing`), e.g. ``agent 'ppo'
        does not play the Brutii variant; agents that do: greedy, heuristic, mcts, random``.

        The answer depends on :attr:`rule_sets`; subclasses may refuse more (a policy trained for other spaces).
        Every place that asks "does this agent play this game" asks this, and :meth:`reset` refuses with it.
        """
        rules = config.rules
        if rules in self.rule_sets:
            return None
        others = ", ".join(_PLAYING[0](rules)) or "none is registered"
        return f"agent {self.spec!r} does not play {_GAMES_OF[rules]}; agents that do: {others}"

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        """Start a new game in ``seat``; all randomness of the game comes from ``seed``.

        Raises:
            AgentError: the agent does not play this game; the message is :meth:`supports`'s.
        """
        problem = self.supports(config)
        if problem is not None:
            raise AgentError(problem)
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
