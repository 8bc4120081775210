"""The replay window: the newest ``window`` recorded positions, kept in memory and as one shard per iteration.

A shard (``replay/iter-NNNN.npz``, compressed) holds an iteration's positions in game order: ``obs`` (float16),
``masks`` (bool), ``targets`` (float16), ``searched`` (bool), ``values`` (float32; NaN where a position has no value
target), ``gains`` (float32: the search's gain over the network's own choice,
:func:`~training.zero.selfplay.search_gain`; NaN where unknown, as in every shard written before this field).
It is written to a temporary name and renamed, so a kill leaves a whole shard or none. :meth:`ReplayBuffer.load`
rebuilds the window of a finished iteration from the shards, equal to the one the run had in memory, so a resumed
run trains on the same data.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from training.zero.selfplay import GameData

FIELDS = ("obs", "masks", "targets", "searched", "values", "gains")
SHARD = re.compile(r"^iter-(\d{4,})\.npz$")


@dataclass
class Positions:
    """Recorded positions, row-aligned arrays (see the module docstring)."""

    obs: npt.NDArray[np.float16]
    masks: npt.NDArray[np.bool_]
    targets: npt.NDArray[np.float16]
    searched: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]
    gains: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros(0, np.float32))  # none given: unknown

    def __post_init__(self) -> None:
        if len(self.gains) != len(self.values):
            if len(self.gains):
                raise ValueError(f"gains: {len(self.gains)} rows where the positions have {len(self.values)}")
            self.gains = np.full(len(self.values), np.nan, np.float32)

    def __len__(self) -> int:
        return len(self.values)

    @classmethod
    def of_games(cls, games: Sequence[GameData], obs_size: int, actions: int) -> Positions:
        """The positions of ``games``, in their order."""
        if not games:
            return cls.empty(obs_size, actions)
        return cls.concat([cls(g.obs, g.masks, g.targets, g.searched, g.values, g.gains) for g in games])

    @classmethod
    def empty(cls, obs_size: int, actions: int) -> Positions:
        return cls(
            np.zeros((0, obs_size), np.float16), np.zeros((0, actions), bool), np.zeros((0, actions), np.float16),
            np.zeros(0, bool), np.zeros(0, np.float32), np.zeros(0, np.float32),
        )

    @classmethod
    def concat(cls, parts: Sequence[Positions]) -> Positions:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))

    def take(self, rows: npt.NDArray[np.integer]) -> Positions:
        """The rows ``rows``, in that order."""
        return Positions(*(getattr(self, f)[rows] for f in FIELDS))

    def tail(self, size: int) -> Positions:
        """The last ``size`` rows."""
        start = max(0, len(self) - size)
        return Positions(*(getattr(self, f)[start:] for f in FIELDS))

    def save(self, path: Path) -> Path:
        """Write the shard ``path`` (compressed), atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez_compressed(out, **{f: getattr(self, f) for f in FIELDS})
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return path

    @classmethod
    def read(cls, path: Path) -> Positions:
        with np.load(path, allow_pickle=False) as shard:
            return cls(*(shard[f] for f in FIELDS if f in shard.files))  # a shard without gains: unknown


def shard_path(directory: Path, iteration: int) -> Path:
    return directory / f"iter-{iteration:04d}.npz"


def shards(directory: Path) -> dict[int, Path]:
    """The shards in ``directory`` by iteration."""
    if not directory.is_dir():
        return {}
    return {int(m.group(1)): p for p in directory.iterdir() if (m := SHARD.match(p.name))}


class ReplayBuffer:
    """The newest ``window`` positions (oldest first) and the iterations whose shards they come from."""

    def __init__(self, window: int, obs_size: int, actions: int) -> None:
        self.window = window
        self.data = Positions.empty(obs_size, actions)
        self.parts: list[tuple[int, int]] = []  # (iteration, rows in the window), oldest first

    def __len__(self) -> int:
        return len(self.data)

    def add(self, iteration: int, positions: Positions) -> None:
        """Add an iteration's positions; the oldest beyond the window drop out."""
        self.data = Positions.concat([self.data, positions]).tail(self.window)
        self.parts.append((iteration, len(positions)))
        self._trim_parts()

    def _trim_parts(self) -> None:
        kept, total = [], 0
        for iteration, rows in reversed(self.parts):
            if total >= len(self.data):
                break
            take = min(rows, len(self.data) - total)
            kept.append((iteration, take))
            total += take
        self.parts = kept[::-1]

    def iterations(self) -> list[int]:
        """The iterations whose positions are in the window (their shards are needed to rebuild it)."""
        return [i for i, _ in self.parts]

    @classmethod
    def load(cls, directory: Path, upto: int, window: int, obs_size: int, actions: int) -> ReplayBuffer:
        """The window as it was after iteration ``upto``, from the shards of iterations ``<= upto``; ValueError when a
        shard it needs is missing."""
        buffer = cls(window, obs_size, actions)
        found = shards(directory)
        parts: list[tuple[int, Positions]] = []
        total = 0
        for iteration in range(upto, 0, -1):
            if total >= window:
                break
            if iteration not in found:
                raise ValueError(f"{shard_path(directory, iteration)} is missing: the replay window cannot be rebuilt")
            part = Positions.read(found[iteration])
            parts.append((iteration, part))
            total += len(part)
        for iteration, part in reversed(parts):
            buffer.add(iteration, part)
        return buffer
