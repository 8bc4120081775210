"""Play many games between uniformly random players and summarise them."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game


@dataclass(frozen=True)
class SimulationSummary:
    """Totals of a batch of games of one :class:`GameConfig`; the game's options and the derived rates are
    properties."""

    games: int
    config: GameConfig
    seed: int
    total_rounds: int
    total_decisions: int
    truncated: int
    shared_wins: int
    wins: tuple[int, ...]
    elapsed: float
    brutii_wins: int = 0  # games the Brutii won (shared wins included), whatever his seat

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def victory_card(self) -> str | None:
        return self.config.victory_card

    @property
    def point_variant(self) -> bool:
        return self.config.point_variant

    @property
    def round_limit(self) -> int:
        return self.config.round_limit

    @property
    def expansion(self) -> bool:
        return self.config.rules.uses_expansion

    @property
    def brutii(self) -> bool:
        """Whether the games are of the Brutii variant (R42-R54)."""
        return self.config.rules.has_brutii

    @property
    def brutii_seat(self) -> int | None:
        """The configured Brutii seat; ``None``: drawn in each game (R43)."""
        return self.config.brutii_seat

    @property
    def avg_rounds(self) -> float:
        return self.total_rounds / self.games

    @property
    def avg_decisions(self) -> float:
        return self.total_decisions / self.games

    @property
    def win_rates(self) -> tuple[float, ...]:
        return tuple(w / self.games for w in self.wins)

    @property
    def brutii_win_rate(self) -> float:
        return self.brutii_wins / self.games

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed > 0 else float("inf")

    @property
    def decisions_per_second(self) -> float:
        return self.total_decisions / self.elapsed if self.elapsed > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        brutii: dict[str, Any] = {}
        if self.brutii:
            brutii = {
                "brutii": True,
                "brutii_seat": self.brutii_seat,
                "brutii_wins": self.brutii_wins,
                "brutii_win_rate": self.brutii_win_rate,
            }
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "victory_card": self.victory_card,
            "point_variant": self.point_variant,
            "expansion": self.expansion,
            **brutii,
            "round_limit": self.round_limit,
            "avg_rounds": self.avg_rounds,
            "avg_decisions": self.avg_decisions,
            "total_decisions": self.total_decisions,
            "truncated": self.truncated,
            "shared_wins": self.shared_wins,
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "games_per_second": self.games_per_second,
            "decisions_per_second": self.decisions_per_second,
            "elapsed": self.elapsed,
        }


def agent_rng(seed: int, game_index: int) -> random.Random:
    """The random players' own generator for one game, independent of the engine's seed."""
    return random.Random(f"tribune-simulate:{seed}:{game_index}")


def play_random_game(config: GameConfig, seed: int, rng: random.Random) -> tuple[Game, int]:
    """Play one game to the end with uniformly random choices; returns the game and its decision count."""
    game = Game.new(config, seed=seed)
    decisions = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        decisions += 1
    return game, decisions


def simulate_config(config: GameConfig, n_games: int, *, seed: int = 0, progress: bool = False) -> SimulationSummary:
    """Play ``n_games`` games with ``config``; game ``i`` uses engine seed ``seed + i``."""
    if n_games < 1:
        raise ValueError(f"n_games: must be >= 1, got {n_games}")
    wins = [0] * config.players
    rounds = decisions = truncated = shared = brutii_wins = 0
    bar = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not progress,
    )
    start = time.perf_counter()
    with bar:
        task = bar.add_task("games", total=n_games)
        for i in range(n_games):
            game, n = play_random_game(config, seed + i, agent_rng(seed, i))
            rounds += game.round
            decisions += n
            truncated += game.truncated
            shared += len(game.winners) > 1
            for seat in game.winners:
                wins[seat] += 1
            brutii_wins += game.brutii_seat in game.winners
            bar.advance(task)
    return SimulationSummary(
        games=n_games,
        config=config,
        seed=seed,
        total_rounds=rounds,
        total_decisions=decisions,
        truncated=truncated,
        shared_wins=shared,
        wins=tuple(wins),
        elapsed=time.perf_counter() - start,
        brutii_wins=brutii_wins,
    )


def simulate(n_games: int, *, seed: int = 0, progress: bool = False, **options: Any) -> SimulationSummary:
    """Play ``n_games`` random games of ``GameConfig(**options)`` (see :func:`simulate_config`); a ValueError
    names a bad option."""
    return simulate_config(GameConfig(**options), n_games, seed=seed, progress=progress)
