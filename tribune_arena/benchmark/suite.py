"""The standard benchmark suite as data: :data:`SUITE_VERSION` and its :data:`TRACKS`.

A *track* is one table: a rule set, the opponents' specs in the other seats, the role the agent under test plays,
the number of deals and a seed. Its games are those of a tournament
(:class:`~tribune_arena.tournament.schedule.TournamentDefinition`) of the lineup ``(agent, *opponents)``: duplicate
deals, each played in every seating of the lineup, so the agent meets the same luck of the draw from every seat.

Rotation per role:

* ``every`` seat (the 4-player tracks): each deal is played in the 4 seatings, the agent in seat 0, 1, 2, 3 in turn
  (the starting player is drawn from the deal, so it rotates with the seating): 4 games a deal.
* ``family`` (the Brutii variant, R42-R54): the Brutii sits in seat 0 in every game
  (:data:`~tribune_arena.tournament.schedule.BRUTII_SEAT`) and the agent is a family in seat 1, 2, 3, 4 in turn,
  with a heuristic Brutii: 4 games a deal.
* ``brutii``: the agent is the Brutii in every game. His seat does not rotate, and the families beside him are
  copies of one spec, so rotating them would replay the same game; each deal is played once instead and the track
  plays 4 times as many deals (:attr:`Track.deal_factor`). Every track thus plays 4 games per deal of the suite's
  size: 400 at the standard :data:`STANDARD_DEALS`.

The tracks of one rule set share their seed, so they play the same deals (the two Brutii roles the same first
100). A shorter run (``deals`` below the standard) plays the first deals of each track: the same games as the
standard run's first ones, which a later standard run resumes from.

Version policy: :data:`SUITE_VERSION` names what decides the games: the tracks (their rule sets, opponents, roles,
deals, seeds) and what the opponents play (``heuristic`` and the shipped ``ppo`` network). Any change to one of them,
and any change of the engine that changes the games of a seed, is a new version (``YYYY.MM-n``), so that two records
of one version are comparable deal for deal. Records of different versions are not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tribune_arena.tournament.schedule import BRUTII_SEAT, ScheduledGame
from tribune_env.engine.config import GameConfig, RuleSet

SUITE_VERSION = "2026.11-1"
"""The version of the suite (see the module docstring's version policy)."""
STANDARD_DEALS = 100
"""Deals of the standard suite (a track with ``deal_factor`` k plays k times as many)."""
DEFAULT_TIME_LIMIT = 30.0
"""Seconds per move of a benchmark run that names none: generous, so that an agent forfeits only when it hangs."""

EVERY, BRUTII, FAMILY = "every", "brutii", "family"
ROLES = (EVERY, BRUTII, FAMILY)
"""The roles a track seats the agent in: every seat in turn, the Brutii's seat, or the family seats in turn."""


class SuiteError(ValueError):
    """A track name or a suite size that is not one; the message names it and what would be."""


@dataclass(frozen=True)
class Track:
    """One table of the suite (see the module docstring).

    ``opponents`` are the specs of the other seats, ``role`` one of :data:`ROLES`, ``deals`` the standard number of
    deals (each played in the role's seatings), ``deal_factor`` how many deals the track plays per deal of the
    suite's size, ``seed`` the tournament seed its deals come from.
    """

    name: str
    rules: RuleSet
    opponents: tuple[str, ...]
    role: str
    seed: int
    description: str
    deal_factor: int = 1

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"track {self.name}: role must be one of {', '.join(ROLES)}, got {self.role!r}")
        if self.role != EVERY and not self.rules.has_brutii:
            raise ValueError(f"track {self.name}: the roles brutii and family are those of Brutii games")

    @property
    def players(self) -> int:
        return len(self.opponents) + 1

    def game(self) -> GameConfig:
        """The game of every game of the track (the Brutii, if any, in :data:`BRUTII_SEAT`)."""
        seat = {"brutii_seat": BRUTII_SEAT} if self.rules.has_brutii else {}
        return GameConfig.for_rules(self.rules, players=self.players, **seat)

    def deals(self, size: int = STANDARD_DEALS) -> int:
        """The deals the track plays in a suite of ``size`` deals."""
        return size * self.deal_factor

    def agent_seats(self, seating: Sequence[str], agent: str) -> tuple[int, ...]:
        """The seats of a game's ``seating`` (specs by seat) that count for the agent of spec ``agent`` (canonical)
        in this track's role: every seat it holds, or only the Brutii's, or only the families'. A spec equal to an
        opponent's is one entry holding all its seats, as in a tournament."""
        held = [seat for seat, spec in enumerate(seating) if spec == agent]
        if self.role == BRUTII:
            return (BRUTII_SEAT,) if BRUTII_SEAT in held else ()
        if self.role == FAMILY:
            return tuple(seat for seat in held if seat != BRUTII_SEAT)
        return tuple(held)

    def plays(self, game: ScheduledGame, agent: str, deals: int) -> bool:
        """Whether the track plays ``game`` of its tournament in a suite of ``deals`` deals: one of the first
        ``deals(deals)`` deals that seats the agent in its role."""
        return game.deal < self.deals(deals) and bool(self.agent_seats(game.seating, agent))


TRACKS: tuple[Track, ...] = (
    Track(
        "base-4p-vs-heuristic",
        RuleSet.BASE,
        ("heuristic",) * 3,
        EVERY,
        seed=2026_1101,
        description="base game, 4 players, against three heuristic",
    ),
    Track(
        "base-4p-vs-ppo",
        RuleSet.BASE,
        ("ppo",) * 3,
        EVERY,
        seed=2026_1101,
        description="base game, 4 players, against three ppo (the shipped network)",
    ),
    Track(
        "expansion-4p-vs-heuristic",
        RuleSet.EXPANSION,
        ("heuristic",) * 3,
        EVERY,
        seed=2026_1102,
        description="expansion, 4 players, against three heuristic",
    ),
    Track(
        "brutii-5p-as-brutii",
        RuleSet.BRUTII,
        ("heuristic",) * 4,
        BRUTII,
        seed=2026_1103,
        description="Brutii variant, 5 seats, as the Brutii against four heuristic families",
        deal_factor=4,
    ),
    Track(
        "brutii-5p-as-family",
        RuleSet.BRUTII,
        ("heuristic",) * 4,
        FAMILY,
        seed=2026_1103,
        description="Brutii variant, 5 seats, as a family against a heuristic Brutii and three heuristic families",
    ),
)
"""The tracks of :data:`SUITE_VERSION`, in table order."""

FINGERPRINTS: dict[str, str] = {
    "base-4p-vs-heuristic": "1b3e52c0f44e9f25",
    "base-4p-vs-ppo": "c8857948bc607749",
    "expansion-4p-vs-heuristic": "95ec4019b4a56929",
    "brutii-5p-as-brutii": "6f9d1524f71e13b8",
    "brutii-5p-as-family": "6f9d1524f71e13b8",
}
"""The opponents' fingerprint of every track of :data:`SUITE_VERSION` (``run.opponents_fingerprint``: the moves of
the track's first deal with an opponent in every seat). A test pins them: a change of the engine, the ``heuristic``
or the shipped ``ppo`` network that changes these games fails it, and then the suite needs a new version."""


def track_names(tracks: Iterable[Track] = TRACKS) -> list[str]:
    return [track.name for track in tracks]


def select_tracks(names: Sequence[str] | None, tracks: Sequence[Track] = TRACKS) -> list[Track]:
    """The tracks called ``names`` in suite order (``None`` or empty: all); SuiteError names an unknown one."""
    if not names:
        return list(tracks)
    known = {track.name: track for track in tracks}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SuiteError(f"unknown track {unknown[0]!r}; the tracks are {', '.join(known)}")
    wanted = set(names)
    return [track for track in tracks if track.name in wanted]


def check_deals(deals: object) -> int:
    """``deals`` as a suite size (a whole number >= 1); SuiteError otherwise."""
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise SuiteError(f"deals: expected a whole number >= 1, got {deals!r}")
    return deals
