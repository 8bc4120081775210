"""Running the suite for one agent: :func:`run_benchmark` plays each track as a tournament and measures the agent.

A track's games are played by the tournament runner (:func:`~tribune_arena.tournament.runner.run_tournament`:
worker processes, the per-move limit, forfeits) into a results file of its own, named by the track and a digest
of its tournament, in ``games_dir``; running again resumes it, and a shorter run's games are the first of the
standard run's. The agent's figures come from the tournament's own tallies
(:func:`~tribune_arena.tournament.results.summarize`, or per role
:func:`~tribune_arena.tournament.roles.role_results` in Brutii games): a shared win counts as a win, the interval
is the 95% Wilson interval of the agent's seat-games (:func:`~tribune_arena.tournament.stats.win_rate_interval`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from agents.specs import agent_supports
from tribune_arena.benchmark.suite import (
    DEFAULT_TIME_LIMIT,
    EVERY,
    STANDARD_DEALS,
    TRACKS,
    Track,
    check_deals,
)
from tribune_arena.records import GameRecord
from tribune_arena.supervision import close_agents
from tribune_arena.tournament.play import play_game
from tribune_arena.tournament.results import summarize
from tribune_arena.tournament.roles import role_results
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition, canonical_spec

DEFAULT_GAMES_DIR = Path("results") / "benchmark-games"
"""Where the tracks' results files go unless told otherwise."""
PLAYED, SKIPPED = "played", "skipped"


@dataclass(frozen=True)
class TrackResult:
    """The agent's figures on one track (``status`` :data:`PLAYED`), or why it was not played (:data:`SKIPPED`,
    ``reason``; the figures are then zero).

    ``games`` counts the games played, ``seat_games`` the agent's seat-games in its role (the unit of ``wins``,
    ``win_rate`` and ``win_rate_ci``; more than ``games`` only when the agent's spec is also an opponent's).
    ``win_share_rate`` counts a k-way shared win as 1/k; ``parity`` is an equal player's win rate (1/players).
    ``seconds_per_move`` and ``max_seconds_per_move`` are the agent's mean and longest decision.
    ``opponents_fingerprint`` is :func:`opponents_fingerprint` of the track.
    """

    track: Track
    deals: int
    status: str
    reason: str | None = None
    games: int = 0
    seat_games: int = 0
    wins: int = 0
    win_rate: float = 0.0
    win_rate_ci: tuple[float, float] = (0.0, 1.0)
    win_share_rate: float = 0.0
    parity: float = 0.0
    mean_rank: float = 0.0
    forfeits: int = 0
    truncated: int = 0
    moves: int = 0
    seconds_per_move: float = 0.0
    max_seconds_per_move: float = 0.0
    results_file: str | None = None
    opponents_fingerprint: str | None = None

    @property
    def standard(self) -> bool:
        """Whether the track was played at the suite's standard size."""
        return self.deals == self.track.deals(STANDARD_DEALS)


@dataclass(frozen=True)
class BenchmarkRun:
    """What :func:`run_benchmark` measured: the agent's canonical spec, the suite size (deals), the per-move limit
    (``None``: none) and the tracks' results in suite order."""

    agent: str
    deals: int
    time_limit: float | None
    workers: int | None
    tracks: tuple[TrackResult, ...]

    @property
    def standard(self) -> bool:
        return self.deals == STANDARD_DEALS


def skip_reason(agent: str, track: Track) -> str | None:
    """Why ``track`` cannot be played with ``agent`` (its refusal, :meth:`~agents.base.Agent.supports`, or an
    opponent's that cannot be built or play), ``None`` when it can. A bad ``agent`` spec raises AgentError."""
    game = track.game()
    problem = agent_supports(agent, game)
    if problem is not None:
        return problem
    for spec in dict.fromkeys(track.opponents):
        try:
            problem = agent_supports(spec, game)
        except Exception as exc:  # an opponent that cannot be built here (a model missing): the track is skipped
            problem = f"{type(exc).__name__}: {exc}"
        if problem is not None:
            return f"opponent {spec!r} cannot play here: {problem}"
    return None


def opponents_fingerprint(track: Track) -> str:
    """A digest of the moves the opponents play among themselves: the track's first deal with an opponent in every
    seat, played in this process without a time limit. Two records whose fingerprints differ met opponents that play
    differently (another ``heuristic``, another ``ppo`` network), whatever their suite versions say."""
    lineup = (track.opponents[0], *track.opponents)
    definition = TournamentDefinition.for_config(lineup, track.game(), games=1, seed=track.seed, time_limit=None)
    first = definition.schedule()[0]
    try:
        record = play_game(first, definition.options(), None, components=definition.game.components)
    finally:
        close_agents()
    text = "\n".join(record.actions)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def track_definition(agent: str, track: Track, deals: int, time_limit: float | None) -> TournamentDefinition:
    """The tournament whose schedule holds the track's games: the lineup ``(agent, *opponents)``, the track's seed,
    enough deals for ``deals`` and at least the standard size (a shorter run's games are the standard run's first)."""
    specs = (agent, *track.opponents)
    base = TournamentDefinition.for_config(specs, track.game(), games=1, seed=track.seed, time_limit=time_limit)
    planned = track.deals(max(deals, STANDARD_DEALS))
    return dataclasses.replace(base, games=planned * base.block_size())


def results_path(games_dir: str | Path, track: Track, definition: TournamentDefinition) -> Path:
    """``GAMES_DIR/<track>-<digest>.sqlite``: the same for the same tournament, another for another."""
    text = json.dumps(definition.to_dict(), sort_keys=True)
    return Path(games_dir) / f"{track.name}-{hashlib.sha256(text.encode()).hexdigest()[:10]}.sqlite"


def run_track(
    agent: str,
    track: Track,
    deals: int = STANDARD_DEALS,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    workers: int | None = None,
    games_dir: str | Path = DEFAULT_GAMES_DIR,
    progress: bool = False,
    console: Console | None = None,
) -> TrackResult:
    """Play ``track`` with the agent of spec ``agent`` (``deals``: the suite size) and measure it; a track it cannot
    play is :data:`SKIPPED` with the reason. Raises as :func:`run_tournament` does."""
    agent = canonical_spec(agent)
    deals = check_deals(deals)
    reason = skip_reason(agent, track)
    if reason is not None:
        return TrackResult(track, track.deals(deals), SKIPPED, reason)
    return _play(agent, track, deals, time_limit, workers, games_dir, progress, console)


def _play(
    agent: str,
    track: Track,
    deals: int,
    time_limit: float | None,
    workers: int | None,
    games_dir: str | Path,
    progress: bool,
    console: Console | None,
) -> TrackResult:
    """Play the track (the agent can) and measure the agent."""
    definition = track_definition(agent, track, deals, time_limit)
    path = results_path(games_dir, track, definition)
    records = run_tournament(
        definition,
        path,
        workers=workers,
        progress=progress,
        console=console,
        only=lambda game: track.plays(game, agent, deals),
        title=track.name,
    )
    return _measure(agent, track, track.deals(deals), records, path)


def _measure(agent: str, track: Track, deals: int, records: Sequence[GameRecord], path: Path) -> TrackResult:
    """The agent's figures over ``records`` (the track's games, all of them played)."""
    if track.role == EVERY:
        entry = summarize(records).entry(agent)
        seat_games, wins, rate, ci = entry.games, entry.wins, entry.win_rate, entry.win_rate_ci
        share, parity, rank = entry.win_share_rate, entry.parity, entry.mean_rank
    else:
        roles = role_results(records)
        if roles is None:
            raise ValueError(f"track {track.name}: its games have no Brutii")
        line = roles.entry(agent, track.role)
        seat_games, wins, rate, ci = line.games, line.wins, line.win_rate, line.win_rate_ci
        share, parity, rank = line.win_share_rate, line.parity, line.mean_rank
    moves, total, longest, forfeits = 0, 0.0, 0.0, 0
    for record in records:
        seats = track.agent_seats(record.seating, agent)
        for seat in seats:
            if seat < len(record.timings):
                timing = record.timings[seat]
                moves, total, longest = moves + timing.moves, total + timing.total, max(longest, timing.longest)
        if record.forfeit is not None and record.forfeit.seat in seats:
            forfeits += 1
    return TrackResult(
        track=track,
        deals=deals,
        status=PLAYED,
        games=len(records),
        seat_games=seat_games,
        wins=wins,
        win_rate=rate,
        win_rate_ci=ci,
        win_share_rate=share,
        parity=parity,
        mean_rank=rank,
        forfeits=forfeits,
        truncated=sum(record.truncated for record in records),
        moves=moves,
        seconds_per_move=total / moves if moves else 0.0,
        max_seconds_per_move=longest,
        results_file=str(path),
        opponents_fingerprint=opponents_fingerprint(track),
    )


def run_benchmark(
    agent: str,
    tracks: Sequence[Track] = TRACKS,
    deals: int = STANDARD_DEALS,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    workers: int | None = None,
    games_dir: str | Path = DEFAULT_GAMES_DIR,
    progress: bool = False,
    console: Console | None = None,
) -> BenchmarkRun:
    """Play every track of ``tracks`` (default: the suite's) with ``agent`` at suite size ``deals``.

    The spec and every track's playability are checked before the first game: a bad spec raises AgentError, a
    track the agent (or an opponent here) cannot play is skipped with the reason. Other errors are those of
    :func:`~tribune_arena.tournament.runner.run_tournament`. With several workers, a script calling this needs the
    ``if __name__ == "__main__":`` guard (worker processes start fresh interpreters).
    """
    agent = canonical_spec(agent)
    deals = check_deals(deals)
    reasons = {track.name: skip_reason(agent, track) for track in tracks}
    results = []
    for track in tracks:
        reason = reasons[track.name]
        if reason is None:
            results.append(_play(agent, track, deals, time_limit, workers, games_dir, progress, console))
        else:
            results.append(TrackResult(track, track.deals(deals), SKIPPED, reason))
    return BenchmarkRun(agent, deals, time_limit, workers, tuple(results))
