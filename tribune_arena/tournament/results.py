"""Tournament results from stored games: leaderboard, head-to-head table, ratings.

:func:`summarize` turns :class:`~tribune_arena.records.GameRecord` s
into :class:`Results`. An *entry* is an agent spec (a ``seating`` string);
identical specs at one table are the same entry, so an entry plays one
*seat-game* per seat it holds in a game.

Per entry:

* ``wins``: seat-games won (the seat is in ``winners``; a shared win counts as
  a win). ``win_rate = wins / games``. ``win_share``: the sum over won
  seat-games of ``1 / len(winners)`` (a two-way shared win gives 0.5), so the
  win shares of one game add up to 1; ``win_share_rate = win_share / games``.
* ``win_rate_ci``: the 95% Wilson interval of the win rate, ``wins`` of
  ``games`` seat-games (:func:`~tribune_arena.tournament.stats.win_rate_interval`:
  why Wilson, why the seat-game; never a point, also at 0% and 100%).
* ``mean_rank`` (1 is best), ``mean_score``, ``forfeits``,
  ``seconds_per_move`` (total decision time / decisions over its seats).
* ``mu``, ``sigma``, ``ordinal`` (``mu - 3 sigma``): openskill's Plackett-Luce
  rating, updated game by game in ``game_id`` order, every seat a one-player
  team ranked by the record's ``ranks`` (ties share a rank). When an entry
  holds several seats of one game, each seat is rated as its own copy of the
  entry's rating before the game, and the entry's new ``mu`` and ``sigma`` are
  the averages of its seats' updated values.

In tournaments of Brutii games ``roles`` holds the results per role (the Brutii seat against the family seats,
:mod:`~tribune_arena.tournament.roles`), with the same intervals.

Head-to-head, for each ordered pair of distinct entries that met: every pair
of seats (one of A, one of B) at one table is a *meeting*; A is ``ahead``
(better rank), ``behind`` or ``tied``; ``ahead_rate = ahead / meetings``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import permutations
from typing import Any

from openskill.models import PlackettLuce
from rich import box
from rich.table import Table

from tribune_arena.records import GameRecord
from tribune_arena.tournament.roles import RoleResults, role_results
from tribune_arena.tournament.stats import (
    CONFIDENCE,
    INTERVAL_HEADER,
    fixed,
    interval_meta,
    percent_range,
    win_rate_interval,
)
from tribune_env.data import Components

RATING_MODEL = "openskill PlackettLuce"


@dataclass(frozen=True)
class EntryStats:
    """One leaderboard line (see the module docstring for every field)."""

    spec: str
    games: int
    wins: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    win_share: float
    win_share_rate: float
    mean_rank: float
    mean_score: float
    forfeits: int
    seconds_per_move: float
    parity: float  # the win rate of an equal player: mean of 1 / players over the entry's seat-games
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class HeadToHead:
    """How ``spec`` fared against ``opponent`` over the ``games`` they shared."""

    spec: str
    opponent: str
    games: int
    meetings: int
    ahead: int
    behind: int
    tied: int

    @property
    def ahead_rate(self) -> float:
        return self.ahead / self.meetings if self.meetings else 0.0


@dataclass(frozen=True)
class ForfeitInfo:
    """A forfeited game: who (seat and spec) and why."""

    game_id: int
    seat: int
    spec: str
    reason: str
    message: str


@dataclass(frozen=True)
class Results:
    """Everything :func:`summarize` computes; ``entries`` are sorted by rating ordinal, best first."""

    entries: list[EntryStats]
    head_to_head: list[HeadToHead]
    games: int
    players: tuple[int, ...]  # the distinct table sizes
    truncated: int
    forfeits: list[ForfeitInfo]
    roles: RoleResults | None = None  # Brutii games only: the Brutii seat against the family seats

    def entry(self, spec: str) -> EntryStats:
        """The entry of ``spec``; raises ``KeyError``."""
        for e in self.entries:
            if e.spec == spec:
                return e
        raise KeyError(spec)

    def pair(self, spec: str, opponent: str) -> HeadToHead:
        """The head-to-head line of ``spec`` against ``opponent``; raises ``KeyError`` if they never met."""
        for h in self.head_to_head:
            if (h.spec, h.opponent) == (spec, opponent):
                return h
        raise KeyError((spec, opponent))

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable document with stable keys (``roles`` only with Brutii games; ``interval`` says how
        the ``*_ci`` intervals were made: documents written before it was Wilson have ``bootstrap`` there)."""
        doc = {
            "games": self.games,
            "players": list(self.players),
            "truncated": self.truncated,
            "rating_model": RATING_MODEL,
            "confidence": CONFIDENCE,
            "interval": interval_meta(),
            "leaderboard": [{**asdict(e), "win_rate_ci": list(e.win_rate_ci)} for e in self.entries],
            "head_to_head": [{**asdict(h), "ahead_rate": h.ahead_rate} for h in self.head_to_head],
            "forfeits": [asdict(f) for f in self.forfeits],
        }
        if self.roles is not None:
            doc["roles"] = self.roles.to_json()
        return doc

    def leaderboard_table(self) -> Table:
        """The leaderboard, best rating first (win shares are in :meth:`to_json` only)."""
        table = Table(
            title=f"Leaderboard: {self.games} games, best rating (mu - 3 sigma) first",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            collapse_padding=True,
        )
        width = max((len(e.spec) for e in self.entries), default=5)
        table.add_column("agent", overflow="fold", min_width=min(width, 24))
        headers = ("mu -\n3 sigma", "mu", "sigma", "games", "wins", "win\nrate", INTERVAL_HEADER, "mean\nrank")
        for name in (*headers, "mean\nscore", "for-\nfeits", "ms per\nmove"):
            table.add_column(name, justify="right", no_wrap=True)
        for e in self.entries:
            table.add_row(
                e.spec,
                fixed(e.ordinal),
                fixed(e.mu),
                fixed(e.sigma),
                str(e.games),
                str(e.wins),
                f"{e.win_rate:.1%}",
                percent_range(e.win_rate_ci),
                f"{e.mean_rank:.2f}",
                fixed(e.mean_score),
                str(e.forfeits),
                fixed(e.seconds_per_move * 1000),
            )
        return table

    def head_to_head_table(self) -> Table:
        """Row agent against column agent: ahead-behind-tied over their seat meetings (ahead rate)."""
        title = "Head to head: row agent vs column agent, ahead-behind-tied (ahead rate)"
        table = Table(title=title, box=box.SIMPLE_HEAD)
        specs = [e.spec for e in self.entries]
        table.add_column("agent", overflow="fold")
        for spec in specs:
            table.add_column(spec, justify="right", overflow="fold")
        lines = {(h.spec, h.opponent): h for h in self.head_to_head}
        for a in specs:
            cells = []
            for b in specs:
                h = lines.get((a, b))
                cells.append("-" if h is None else f"{h.ahead}-{h.behind}-{h.tied} ({h.ahead_rate:.0%})")
            table.add_row(a, *cells)
        return table


# -- computation -----------------------------------------------------------------


def _seats_by_spec(record: GameRecord) -> dict[str, list[int]]:
    seats: dict[str, list[int]] = defaultdict(list)
    for seat, spec in enumerate(record.seating):
        seats[spec].append(seat)
    return seats


def rate_games(records: Sequence[GameRecord], model: PlackettLuce | None = None) -> dict[str, tuple[float, float]]:
    """``{spec: (mu, sigma)}`` after rating every game in ``game_id`` order (see the module docstring)."""
    model = model or PlackettLuce()
    ratings: dict[str, Any] = {}
    for record in sorted(records, key=lambda r: r.game_id):
        for spec in record.seating:
            if spec not in ratings:
                ratings[spec] = model.rating(name=spec)
        teams = [[model.rating(mu=ratings[s].mu, sigma=ratings[s].sigma, name=s)] for s in record.seating]
        rated = model.rate(teams, ranks=[float(r) for r in record.ranks])
        for spec, seats in _seats_by_spec(record).items():
            mu = sum(rated[s][0].mu for s in seats) / len(seats)
            sigma = sum(rated[s][0].sigma for s in seats) / len(seats)
            ratings[spec] = model.rating(mu=mu, sigma=sigma, name=spec)
    return {spec: (float(r.mu), float(r.sigma)) for spec, r in ratings.items()}


class _Tally:
    """Running sums of one entry."""

    def __init__(self) -> None:
        self.games = self.wins = self.forfeits = self.rank_sum = self.score_sum = self.moves = 0
        self.win_share = self.seconds = self.parity = 0.0

    def add(self, record: GameRecord, seats: list[int]) -> None:
        for seat in seats:
            self.games += 1
            self.rank_sum += record.ranks[seat]
            self.score_sum += record.scores[seat]
            self.parity += 1 / record.players
            if seat in record.winners:
                self.wins += 1
                self.win_share += 1 / len(record.winners)
            if record.forfeit is not None and record.forfeit.seat == seat:
                self.forfeits += 1
            if seat < len(record.timings):
                self.moves += record.timings[seat].moves
                self.seconds += record.timings[seat].total

    def stats(self, spec: str, rating: tuple[float, float]) -> EntryStats:
        mu, sigma = rating
        return EntryStats(
            spec=spec,
            games=self.games,
            wins=self.wins,
            win_rate=self.wins / self.games,
            win_rate_ci=win_rate_interval(self.wins, self.games),
            win_share=self.win_share,
            win_share_rate=self.win_share / self.games,
            mean_rank=self.rank_sum / self.games,
            mean_score=self.score_sum / self.games,
            forfeits=self.forfeits,
            seconds_per_move=self.seconds / self.moves if self.moves else 0.0,
            parity=self.parity / self.games,
            mu=mu,
            sigma=sigma,
            ordinal=mu - 3 * sigma,
        )


def _head_to_head(records: Sequence[GameRecord]) -> list[HeadToHead]:
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # games, meet, ahead, behind, tied
    for record in records:
        seats = _seats_by_spec(record)
        for a, b in permutations(seats, 2):
            line = counts[(a, b)]
            line[0] += 1
            for sa in seats[a]:
                for sb in seats[b]:
                    ra, rb = record.ranks[sa], record.ranks[sb]
                    line[1] += 1
                    line[2 if ra < rb else 3 if ra > rb else 4] += 1
    return [HeadToHead(a, b, *line) for (a, b), line in sorted(counts.items())]


def summarize(records: Sequence[GameRecord], *, components: Components | None = None) -> Results:
    """Leaderboard, head-to-head and ratings of ``records`` (see the module docstring); ``components`` is the
    component set the games were played with (default: the packaged set; the roles may replay a game's set-up).

    Deterministic: the same records, in any order, give the same results (the intervals draw no random numbers).
    """
    records = sorted(records, key=lambda r: r.game_id)
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    forfeits: list[ForfeitInfo] = []
    for record in records:
        for spec, seats in _seats_by_spec(record).items():
            tallies[spec].add(record, seats)
        if record.forfeit is not None:
            f = record.forfeit
            forfeits.append(ForfeitInfo(record.game_id, f.seat, record.seating[f.seat], f.reason, f.message))
    ratings = rate_games(records)
    entries = sorted((tallies[spec].stats(spec, ratings[spec]) for spec in tallies), key=lambda e: (-e.ordinal, e.spec))
    roles = role_results(records, components)
    return Results(
        entries=entries,
        head_to_head=_head_to_head(records),
        games=len(records),
        players=tuple(sorted({r.players for r in records})),
        truncated=sum(r.truncated for r in records),
        forfeits=forfeits,
        roles=roles,
    )
