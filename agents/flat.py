"""Flat Monte Carlo search over the heuristic's best placements: the ``search=flat`` mode of ``mcts``.

A rollout algorithm in the sense of policy improvement: the base policy is the
``heuristic`` agent, and search only decides where it matters most, at
follower placement (every other decision is the heuristic's). At a placement
the candidates are the heuristic's ``candidates`` best spaces (its own choice
first). Each iteration samples one determinization from the
:class:`~tribune_env.envs.infoset.InfoSet` (hidden cards, sealed bids and
future shuffles dealt afresh from the view), applies every candidate to a
copy of that same sample (common random numbers: the candidates differ only
by the move), and plays each copy to the end of the game with the heuristic in
every seat. A playout is worth the agent's win share (1/k of a shared win) plus
``MARGIN`` times its final score minus the best other score, which separates
candidates that all win or all lose. The candidate with the best mean is
played; a tie keeps the heuristic's choice.

Budget: ``iterations`` samples per decision, stopped early when the next
sample would overrun ``seconds`` (measured per sample), so a decision stays
within the time budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from agents.base import Agent, InfoSet
from agents.heuristic import HeuristicAgent, rank_placements
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.game import Game
from tribune_env.engine.view import PlayerView

MARGIN = 0.02  # value of one point of final score lead, next to a win worth 1


class FlatSearch:
    """The search of one seat (see the module docstring); ``act`` is called only for that seat."""

    def __init__(self, agent: Agent, iterations: int, seconds: float | None, candidates: int) -> None:
        self.agent = agent
        self.iterations = iterations
        self.seconds = seconds
        self.candidates = candidates
        self.base = HeuristicAgent()
        self.pool: list[HeuristicAgent] = []
        #: samples run by the last search (for measurements)
        self.last_iterations = 0

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        self.base.reset(seat, config, seed)
        self.pool = [HeuristicAgent() for _ in range(config.players)]
        for s, agent in enumerate(self.pool):
            agent.reset(s, config, seed)

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet) -> Action:
        pending = view.pending
        if pending is None or pending.kind is not DecisionKind.PLACE_FOLLOWER:
            return self.base.act(view, legal, info)
        # the heuristic's own placement is the first of its ranking
        moves: list[Action] = list(rank_placements(view, legal, self.agent.config.components)[: self.candidates])
        if len(moves) == 1:
            return moves[0]
        totals = self._search(info, moves)
        best = max(range(len(moves)), key=lambda i: (totals[i], i == 0))
        return moves[best]

    def _search(self, info: InfoSet, moves: list[Action]) -> list[float]:
        totals = [0.0] * len(moves)
        start = time.perf_counter()
        budget = math.inf if self.seconds is None else self.seconds
        done = 0
        longest = 0.0
        while done < self.iterations:
            began = time.perf_counter()
            if done and began - start + longest > budget:
                break
            sample = info.sample(self.agent.rng)
            for i, move in enumerate(moves):
                game = sample.clone()
                game.apply(move)
                totals[i] += self._playout(game, info.seat)
            done += 1
            longest = max(longest, time.perf_counter() - began)
        self.last_iterations = done
        return totals

    def _playout(self, game: Game, seat: int) -> float:
        pool = self.pool
        while not game.is_over:
            s = game.current_seat
            game.apply(pool[s].act(game.view(s), game.legal_actions()))
        scores = game.scores()
        lead = scores[seat] - max(x for s, x in enumerate(scores) if s != seat)
        share = 1.0 / len(game.winners) if seat in game.winners else 0.0
        return share + MARGIN * lead
