"""The dense reward's per-step term: each seat's change of tie-break score (``reward="dense"``).

What it pays and what it changes for learning is documented with the schemes, in :mod:`tribune_env.envs.rewards`
(:class:`~tribune_env.envs.rewards.DenseReward`). The environments take a snapshot of the scores before a move
(:meth:`ScoreShaping.before`) and pay the change after it (:meth:`ScoreShaping.change`); without a dense scheme
both cost nothing and pay zero, so the other schemes behave exactly as before.
"""

from __future__ import annotations

from tribune_env.engine.game import Game
from tribune_env.envs.rewards import DenseReward
from tribune_env.envs.table import Table


class ScoreShaping:
    """The score-change term of one table's dense scheme, or nothing (``active`` False) for any other scheme."""

    def __init__(self, table: Table) -> None:
        scheme = table.reward
        self.active = isinstance(scheme, DenseReward)
        scale = scheme.scale if isinstance(scheme, DenseReward) else None
        self.scale: float = float(scale) if scale is not None else float(table.encoder.scales.score)
        self.players = table.num_players

    def before(self, game: Game) -> list[int] | None:
        """The scores to measure the next move against (``None`` when not dense)."""
        return game.scores() if self.active else None

    def change(self, game: Game, before: list[int] | None) -> list[float]:
        """Each seat's score change since ``before``, divided by ``scale`` (zeros when ``before`` is ``None``)."""
        if before is None:
            return [0.0] * self.players
        return [(now - then) / self.scale for now, then in zip(game.scores(), before, strict=True)]
