"""One finished tournament game: :class:`GameRecord` (the unit stored, rated and replayed)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: ``crashed``: the agent's process died in one of its calls (``os._exit``, a signal, a crash in native code)
FORFEIT_REASONS = ("raised", "illegal", "timeout", "crashed")


@dataclass(frozen=True)
class SeatTiming:
    """Time an agent spent deciding in one game: number of decisions, total and longest (seconds)."""

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.moves if self.moves else 0.0


@dataclass(frozen=True)
class Forfeit:
    """A seat that lost the game by forfeit: ``reason`` is one of :data:`FORFEIT_REASONS`."""

    seat: int
    reason: str
    message: str


@dataclass(frozen=True)
class GameRecord:
    """Everything about one played game.

    ``seating[s]`` is the agent spec in seat ``s``. ``actions`` are the
    engine's action texts (:mod:`tribune_env.engine.notation`) of every
    decision the agents made, in order; with ``config`` (the keyword options of
    :class:`~tribune_env.engine.config.GameConfig`, components excluded) and
    ``seed`` they replay the game exactly. ``ranks`` are 1 for the best; ties
    share a rank. A forfeited game stops at the forfeit: the forfeiting seat
    ranks last and cannot win; the others are ranked by their scores then.
    """

    game_id: int
    deal: int
    seed: int
    seating: tuple[str, ...]
    config: dict[str, Any]
    actions: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    decisions: int
    truncated: bool
    timings: tuple[SeatTiming, ...]
    forfeit: Forfeit | None = None
    seconds: float = 0.0
    agent_seeds: tuple[int, ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.seating)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict` (JSON round trip)."""
        forfeit = doc.get("forfeit")
        return cls(
            game_id=int(doc["game_id"]),
            deal=int(doc["deal"]),
            seed=int(doc["seed"]),
            seating=tuple(doc["seating"]),
            config=dict(doc["config"]),
            actions=tuple(doc["actions"]),
            scores=tuple(doc["scores"]),
            ranks=tuple(doc["ranks"]),
            winners=tuple(doc["winners"]),
            rounds=int(doc["rounds"]),
            decisions=int(doc["decisions"]),
            truncated=bool(doc["truncated"]),
            timings=tuple(SeatTiming(**t) for t in doc["timings"]),
            forfeit=Forfeit(**forfeit) if forfeit else None,
            seconds=float(doc.get("seconds", 0.0)),
            agent_seeds=tuple(doc.get("agent_seeds", ())),
        )
