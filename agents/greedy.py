"""``greedy``: one-step lookahead with the hand-written evaluation of :mod:`agents.evaluation`.

At each decision the agent deals ``samples`` full games consistent with its
view (``info.sample``), plays each candidate action on a copy and scores the
result with :func:`~agents.evaluation.evaluate`; the best total wins, ties are
broken by the agent's seeded generator.

Refinements over a plain one-step lookahead:

* **Multi-step choices.** A take-over set and a Field of Mars pair are built
  one ``PickCard`` at a time and the same seat is asked again, so a partial
  set shows no gain yet. A card pick is scored by its best completion: the
  continuation of the same decision is searched exhaustively (depth first)
  within a budget of ``COMPLETION_BUDGET`` positions per sample, after which
  the partial position is scored as it stands (staged cards count as held).
* **Sealed bids.** A seat that controls no faction bids 0 for the chariot (it
  could not place it), otherwise at most :data:`CHARIOT_BID_CAP`. Only a few
  amounts are tried (:data:`BID_LEVELS` up to the bidder's money or the cap,
  and the largest of those). The other sealed bids of a sampled game are
  random, so each amount is scored over ``BID_DRAWS`` plays of the rest of the
  auction (other bidders bid uniformly at random, the same draws for every
  amount); when the agent wins the chariot its placement is chosen greedily.
* **Contested take-overs.** After a set committed from faction space "2", the
  answer of the player on "1" (and the penalty) is played out at random before
  scoring.
* **The expansion.** Assassins staged with a take-over set (R31) and the
  slaves of a Refugium patron set or pairs (R33) are card picks like the
  above; a Refugium option is scored by the best staging that follows it, and
  the first faction named for the Tribunus Plebis by the best second name
  (R38). The evaluation counts patrons, emperor tiles and officials.
* **The Brutii** (R44-R54). An action card is scored after what it asks at once (the Veto's region, the legion,
  the cards laid for slaves); the evaluation counts what his played cards promise at their locations. His
  chariot opt-out is tried beside the bids.

Spec parameters: ``samples`` (determinizations per decision, default 1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from agents.base import Agent, AgentError, InfoSet
from agents.evaluation import evaluate_game
from agents.specs import no_more, register_agent, take_int
from tribune_env.engine.actions import Action, Bid, PickCard
from tribune_env.engine.config import RuleSet
from tribune_env.engine.decisions import DecisionKind
from tribune_env.engine.game import Game
from tribune_env.engine.registry import DECISIONS, is_bid
from tribune_env.engine.view import PlayerView

BID_LEVELS = (0, 1, 2, 3, 5, 8, 12, 17, 23, 30, 40)
CHARIOT_BID_CAP = 12  # a one-round block is never worth more (and every tried amount costs a play-out)
BID_DRAWS = 3
COMPLETION_BUDGET = 96
_CONTEST_KINDS = frozenset({DecisionKind.TAKEOVER_SET, DecisionKind.TAKEOVER_PENALTY})
# Expansion choices made in several steps by the same seat: an option then its staging (R33), two names (R38); the
# Brutii's action card then what it asks at once (R51, R52, R54).
_CONTINUED = {
    DecisionKind.REFUGIUM_OPTION: frozenset({DecisionKind.REFUGIUM_PATRON, DecisionKind.REFUGIUM_PAIRS}),
    DecisionKind.TRIBUNUS_PLEBIS: frozenset({DecisionKind.TRIBUNUS_PLEBIS}),
    DecisionKind.BRUTII_CARD: frozenset(
        {DecisionKind.BRUTII_VETO, DecisionKind.BRUTII_LEGION, DecisionKind.BRUTII_SLAVES}
    ),
}


def bid_candidates(legal: Sequence[Action], cap: int | None = None) -> list[Action]:
    """The bids worth trying among ``legal``: the :data:`BID_LEVELS` and the largest legal bid, all up to ``cap``;
    a choice that is not a bid (the Brutii's chariot opt-out, R49) is always tried."""
    amounts = {a.amount for a in legal if isinstance(a, Bid) and (cap is None or a.amount <= cap)}
    keep = {b for b in BID_LEVELS if b in amounts} | {max(amounts)}
    return [a for a in legal if not isinstance(a, Bid) or a.amount in keep]


class _Lookahead:
    """Scores actions of ``seat`` on sampled games (one decision's worth of search)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.budget = COMPLETION_BUDGET
        self.draws: list[int] = []  # seeds of the other bidders' random bids, shared by all amounts

    def value(self, game: Game, action: Action) -> float:
        """The evaluation after ``action`` (and the settling described in the module docstring)."""
        pending = game.pending
        assert pending is not None
        if is_bid(pending.kind):
            if not self.draws:
                self.draws = [self.rng.getrandbits(32) for _ in range(BID_DRAWS)]
            return sum(self._after(game, action, random.Random(d)) for d in self.draws) / BID_DRAWS
        return self._after(game, action, self.rng)

    def _after(self, game: Game, action: Action, rng: random.Random) -> float:
        pending = game.pending
        assert pending is not None
        g = game.clone(events=False)  # search never reads the log
        g.apply(action)
        self._settle(g, pending.kind, pending.faction, rng)
        nxt = g.pending
        if nxt is None or nxt.seat != self.seat:
            return evaluate_game(g, self.seat)
        if nxt.kind == pending.kind and DECISIONS[nxt.kind].stages and isinstance(action, PickCard):
            return self._complete(g, rng)
        if nxt.kind in _CONTINUED.get(pending.kind, ()):
            return self._complete(g, rng)
        if nxt.kind == DecisionKind.CHARIOT_PLACEMENT and pending.kind == DecisionKind.CHARIOT_BID:
            return max(self._after(g, a, rng) for a in g.legal_actions())
        return evaluate_game(g, self.seat)

    def _complete(self, game: Game, rng: random.Random) -> float:
        """Best value over the completions of a take-over set or pair being built."""
        self.budget -= 1
        if self.budget <= 0:
            return evaluate_game(game, self.seat)
        return max(self._after(game, a, rng) for a in game.legal_actions())

    def _settle(self, game: Game, kind: DecisionKind, faction: int, rng: random.Random) -> None:
        """Play the other seats' part of the choice just made: the rest of a sealed auction or a contest."""
        while True:
            nxt = game.pending
            if nxt is None or nxt.seat == self.seat:
                return
            same_auction = is_bid(kind) and nxt.kind == kind
            contest = kind == DecisionKind.TAKEOVER_SET and nxt.kind in _CONTEST_KINDS and nxt.faction == faction
            if not (same_auction or contest):
                return
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


class GreedyAgent(Agent):
    """Picks the action whose resulting position evaluates best (see the module docstring)."""

    name = "greedy"
    rule_sets = frozenset(RuleSet)  # every rule set, the Brutii in both roles (R42-R54)

    def __init__(self, seed: int | None = None, samples: int = 1) -> None:
        super().__init__(seed)
        if samples < 1:
            raise AgentError(f"greedy: samples must be >= 1, got {samples}")
        self.samples = samples

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        if info is None:
            raise AgentError("greedy needs the InfoSet (info) to sample games for its lookahead; none was given")
        if len(legal) == 1:
            return legal[0]
        pending = view.pending
        if pending is None:
            raise AgentError("greedy: act called with no pending decision")
        candidates = self._candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            game = info.sample(self.rng)
            search = _Lookahead(pending.seat, self.rng)
            for i, action in enumerate(candidates):
                totals[i] += search.value(game, action)
        best = max(totals)
        ties = [a for a, t in zip(candidates, totals, strict=True) if t >= best - 1e-12]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]

    @staticmethod
    def _candidates(view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        kind = view.pending.kind if view.pending is not None else None
        if kind == DecisionKind.CHARIOT_BID:
            # nothing to block: never pay; otherwise a few amounts up to the cap
            return bid_candidates(legal, CHARIOT_BID_CAP if view.seat in view.controller else 0)
        return bid_candidates(legal) if kind == DecisionKind.ATRIUM_BID else list(legal)


def _make(params: dict[str, str], seed: int | None) -> Agent:
    samples = take_int(params, "samples", 1)
    no_more("greedy", params)
    return GreedyAgent(seed, samples=samples)


register_agent("greedy", _make)
