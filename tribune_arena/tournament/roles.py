"""Tournament results per role in Brutii games (R42-R54): the Brutii seat against the family seats.

A Brutii game has two kinds of seat: the Brutii's (no followers, action cards) and the families'. For every
entry (agent spec) and role :class:`RoleStats` counts its seat-games in that role, its wins (a shared win counts
as a win) with the 95% Wilson interval of the win rate over those seat-games (the leaderboard's interval,
:func:`~tribune_arena.tournament.stats.win_rate_interval`), its win share (1/k of a k-way shared win) and the
parity of that role: the win rate of an equal player, 1/players.

:class:`BrutiiSeat` does the same for the Brutii seat whoever plays it, and for the family seats together: the
Brutii's share of the wins (the sum of his win shares over the games) against parity (1/N at N seats), and the
family seats' win rate. With all seats played by the same agent this is the measure of the Brutii's balance.

Games without the Brutii have no roles; :func:`role_results` is ``None`` for a tournament with none.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rich import box
from rich.table import Table

from tribune_arena.records import GameRecord
from tribune_arena.tournament.stats import INTERVAL_HEADER, percent_range, win_rate_interval
from tribune_env.data import Components
from tribune_env.engine.game import Game

ROLES = ("brutii", "family")
"""The roles of a Brutii game's seats, in table order."""


def brutii_seat(record: GameRecord, components: Components | None = None) -> int:
    """The Brutii's seat in ``record``'s game, -1 without the Brutii (from its config; a seat drawn at random is
    read from the game's set-up, played with ``components``: default the packaged set)."""
    if not record.rules.has_brutii:
        return -1
    seat = record.config.get("brutii_seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    game = Game.new(record.game_config(components), seed=record.seed)
    return game.brutii_seat


@dataclass(frozen=True)
class RoleStats:
    """How ``spec`` fared in ``role`` (``"brutii"`` or ``"family"``) over its ``games`` seat-games in that role."""

    spec: str
    role: str
    games: int
    wins: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    win_share: float
    win_share_rate: float
    parity: float
    mean_rank: float
    mean_score: float


@dataclass(frozen=True)
class BrutiiSeat:
    """The Brutii seat over all Brutii games whoever played it, and the family seats together.

    ``share`` is the Brutii's share of the wins (his win shares over ``games``), ``parity`` the share of an equal
    seat (the mean of 1/players), ``share_ratio`` = share / parity. ``share_ci`` is the interval of a fractional
    count (:func:`~tribune_arena.tournament.stats.win_rate_interval`).
    """

    games: int
    wins: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    share: float
    share_ci: tuple[float, float]
    parity: float
    share_ratio: float
    family_games: int
    family_wins: int
    family_win_rate: float
    family_win_rate_ci: tuple[float, float]


@dataclass
class _Tally:
    """Running sums of one (spec, role)."""

    games: int = 0
    wins: int = 0
    share: float = 0.0
    parity: float = 0.0
    rank_sum: int = 0
    score_sum: int = 0

    def add(self, record: GameRecord, seats: Sequence[int]) -> None:
        for seat in seats:
            self.games += 1
            self.parity += 1 / record.players
            self.rank_sum += record.ranks[seat]
            self.score_sum += record.scores[seat]
            if seat in record.winners:
                self.wins += 1
                self.share += 1 / len(record.winners)


def _stats(spec: str, role: str, t: _Tally) -> RoleStats:
    return RoleStats(
        spec=spec,
        role=role,
        games=t.games,
        wins=t.wins,
        win_rate=t.wins / t.games,
        win_rate_ci=win_rate_interval(t.wins, t.games),
        win_share=t.share,
        win_share_rate=t.share / t.games,
        parity=t.parity / t.games,
        mean_rank=t.rank_sum / t.games,
        mean_score=t.score_sum / t.games,
    )


def _seat(brutii: _Tally, family: _Tally) -> BrutiiSeat:
    parity = brutii.parity / brutii.games
    return BrutiiSeat(
        games=brutii.games,
        wins=brutii.wins,
        win_rate=brutii.wins / brutii.games,
        win_rate_ci=win_rate_interval(brutii.wins, brutii.games),
        share=brutii.share / brutii.games,
        share_ci=win_rate_interval(brutii.share, brutii.games),
        parity=parity,
        share_ratio=brutii.share / brutii.games / parity,
        family_games=family.games,
        family_wins=family.wins,
        family_win_rate=family.wins / family.games if family.games else 0.0,
        family_win_rate_ci=win_rate_interval(family.wins, family.games),
    )


@dataclass(frozen=True)
class RoleResults:
    """The per-role results of a tournament's Brutii games (see the module docstring)."""

    entries: list[RoleStats]
    seat: BrutiiSeat

    def entry(self, spec: str, role: str) -> RoleStats:
        """The line of ``spec`` in ``role``; raises ``KeyError``."""
        for e in self.entries:
            if (e.spec, e.role) == (spec, role):
                return e
        raise KeyError((spec, role))

    def to_json(self) -> dict[str, Any]:
        seat = asdict(self.seat)
        for key in ("win_rate_ci", "share_ci", "family_win_rate_ci"):
            seat[key] = list(seat[key])
        return {
            "entries": [{**asdict(e), "win_rate_ci": list(e.win_rate_ci)} for e in self.entries],
            "brutii_seat": seat,
        }

    def table(self) -> Table:
        """Per agent and role: seat-games, wins, win rate with its 95% Wilson interval, win share and parity."""
        table = Table(
            title="Roles: each agent as the Brutii and as a family (win rate, 95% CI; parity 1/players)",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            collapse_padding=True,
        )
        table.add_column("agent", overflow="fold")
        for name in ("role", "games", "wins", "win\nrate", INTERVAL_HEADER, "win\nshare", "parity", "mean\nrank"):
            table.add_column(name, justify="right", no_wrap=True)
        for e in self.entries:
            table.add_row(
                e.spec,
                e.role,
                str(e.games),
                str(e.wins),
                f"{e.win_rate:.1%}",
                percent_range(e.win_rate_ci),
                f"{e.win_share_rate:.1%}",
                f"{e.parity:.1%}",
                f"{e.mean_rank:.2f}",
            )
        return table

    def seat_table(self) -> Table:
        """The Brutii seat whoever played it against the family seats: its share of the wins against parity."""
        s = self.seat
        table = Table(
            title="The Brutii seat (all agents): share of the wins against parity; family seats' win rate",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            collapse_padding=True,
        )
        for name in ("games", "Brutii\nwins", "Brutii\nwin rate", INTERVAL_HEADER, "Brutii\nshare", INTERVAL_HEADER):
            table.add_column(name, justify="right", no_wrap=True)
        for name in ("parity", "share /\nparity", "family\nwin rate", INTERVAL_HEADER):
            table.add_column(name, justify="right", no_wrap=True)
        table.add_row(
            str(s.games),
            str(s.wins),
            f"{s.win_rate:.1%}",
            percent_range(s.win_rate_ci),
            f"{s.share:.1%}",
            percent_range(s.share_ci),
            f"{s.parity:.1%}",
            f"{s.share_ratio:.2f}",
            f"{s.family_win_rate:.1%}",
            percent_range(s.family_win_rate_ci),
        )
        return table


def role_results(records: Sequence[GameRecord], components: Components | None = None) -> RoleResults | None:
    """The per-role results of the Brutii games among ``records`` (by game id), ``None`` when there are none;
    ``components`` is the component set the games were played with (:func:`brutii_seat`)."""
    tallies: dict[tuple[str, str], _Tally] = defaultdict(_Tally)
    brutii, family = _Tally(), _Tally()
    for record in sorted(records, key=lambda r: r.game_id):
        seat = brutii_seat(record, components)
        if seat < 0:
            continue
        seats: dict[tuple[str, str], list[int]] = defaultdict(list)
        for s, spec in enumerate(record.seating):
            seats[(spec, ROLES[0] if s == seat else ROLES[1])].append(s)
        for key, held in seats.items():
            tallies[key].add(record, held)
        brutii.add(record, [seat])
        family.add(record, [s for s in range(record.players) if s != seat])
    if not brutii.games:
        return None
    order = sorted(tallies, key=lambda k: (k[0], ROLES.index(k[1])))
    entries = [_stats(spec, role, tallies[(spec, role)]) for spec, role in order]
    return RoleResults(entries, _seat(brutii, family))
