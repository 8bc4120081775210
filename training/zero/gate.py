"""The gate of a ``zero`` run: the best network is replaced only by one that beats it (:func:`decide`).

AlphaGo Zero kept a best network for self-play and let a newly trained one replace it only after it won clearly
against it. Here the candidate (the learner's network after an iteration) must do two things, both measured by
tournaments on fixed deals (:func:`tournament`):

1. **Head-to-head:** one candidate seat against ``players - 1`` seats of the best network, seats rotated; the
   lower bound of the candidate's 95% Wilson interval must be above parity (it wins more than an equal would,
   with confidence). A worse network, or one only as good, fails.
2. **Against the table it is measured at:** ``players - 1`` copies of ``gate.opponent`` (``heuristic``), on the
   deals the best network played there; the candidate's win rate must be at least the best network's, less
   ``gate.tolerance`` (0: not below it on the same deals). A network that beats its own kind while losing its game
   against ``heuristic`` (issue 44's collapse) fails. (The rule before 2026-11-30 asked only that the upper bound
   of the candidate's interval reach the best network's rate: on 200 deals that let through networks up to about six
   points worse, and one run's accepted network was 4 points under its start on 1,200 other deals.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agents.base import AgentError
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition, TournamentError
from tribune_arena.tournament.store import StoreError
from tribune_env.engine.config import GameConfig


class GateError(Exception):
    """A gate tournament that could not be played; the message says which and why."""


@dataclass(frozen=True)
class Evaluation:
    """One player's result in a tournament: wins (ties shared) of ``games``, the 95% Wilson interval, parity."""

    games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    parity: float
    seconds_per_move: float = 0.0


@dataclass(frozen=True)
class Verdict:
    """What the gate decided, and why (one line for the log)."""

    accepted: bool
    reason: str


def decide(head_to_head: Evaluation, heuristic: Evaluation | None, best_heuristic: Evaluation | None,
           tolerance: float = 0.0) -> Verdict:
    """Whether the candidate replaces the best network (see the module docstring).

    ``heuristic`` None: not played (the head-to-head already failed); ``best_heuristic`` None: the best network was
    never measured there (the test then only needs the head-to-head). ``tolerance``: how far (a share of games) the
    candidate's win rate against the opponent may fall below the best network's."""
    if not head_to_head.ci_low > head_to_head.parity:
        return Verdict(False, f"head-to-head {head_to_head.win_rate:.1%}: its lower bound {head_to_head.ci_low:.1%} "
                              f"is not above parity {head_to_head.parity:.0%}")
    if heuristic is None:
        return Verdict(False, "not measured against the opponent")
    if best_heuristic is not None and heuristic.win_rate < best_heuristic.win_rate - tolerance:
        allowed = f", less the tolerance {tolerance:.1%}" if tolerance else ""
        return Verdict(False, f"against the opponent {heuristic.win_rate:.1%}: below the best network's "
                              f"{best_heuristic.win_rate:.1%} on the same deals{allowed}")
    against = "" if best_heuristic is None else f" (best {best_heuristic.win_rate:.1%})"
    return Verdict(True, f"head-to-head {head_to_head.win_rate:.1%} (lower bound {head_to_head.ci_low:.1%} > parity "
                         f"{head_to_head.parity:.0%}), against the opponent {heuristic.win_rate:.1%}{against}")


def network_spec(path: Path) -> str:
    """The agent spec of the network at ``path`` playing alone."""
    return f"zero-net:path={path.resolve()}"


def tournament(specs: list[str], game: GameConfig, games: int, seed: int, store: Path, workers: int) -> Evaluation:
    """Play ``specs`` (seats rotated over ``games`` deals drawn from ``seed``) into the results file ``store`` and
    return the result of ``specs[0]``; :class:`GateError` when the tournament cannot be played or any game was
    forfeited (an agent raised or ran out of time: a broken engine or agent must not decide the gate)."""
    store.parent.mkdir(parents=True, exist_ok=True)
    try:
        definition = TournamentDefinition.for_config(specs, game, games=games, seed=seed)
        records = run_tournament(definition, store, workers=workers, progress=False)
    except (TournamentError, StoreError, AgentError, ValueError) as exc:
        raise GateError(f"the tournament {' '.join(specs)} failed: {exc}") from None
    forfeits = [r.forfeit for r in records if r.forfeit is not None]
    if forfeits:  # an agent raised or timed out: the results say nothing about the networks
        first = forfeits[0]
        raise GateError(f"{len(forfeits)} of {len(records)} games of {' '.join(specs)} were forfeited "
                        f"(first: {first.reason}: {first.message}); see {store}")
    entry = summarize(records).entry(definition.specs[0])
    low, high = entry.win_rate_ci
    return Evaluation(entry.games, entry.wins, entry.win_rate, low, high, entry.parity, entry.seconds_per_move)


__all__ = ["Evaluation", "GateError", "Verdict", "decide", "network_spec", "tournament"]
