"""``tribune replay``: list the games of a results file, print one with the text board (whole or step by step),
or write it as one self-contained HTML page (:mod:`tribune_arena.replay.html`) and open it."""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import sys
import tempfile
import time
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from tribune_arena.human.terminal import LineSource
from tribune_arena.records import GameRecord, printable
from tribune_arena.replay.text import STEP_HELP, Stepper
from tribune_arena.replay.workers import MAX_DEFAULT_WORKERS, PARALLEL_MIN_DECISIONS
from tribune_arena.tournament.store import ResultStore, StoredGame, StoreError
from tribune_cli.command import Command
from tribune_cli.core import MAX_WORKERS
from tribune_cli.game_flags import bounded_int
from tribune_env.data import Components

# -- the command -------------------------------------------------------------------



def add_parser(commands: Any) -> None:
    """Add ``tribune replay`` (:data:`COMMAND`) to ``commands``, an argparse sub-parsers action."""
    COMMAND.add_to(commands)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results", metavar="PATH", help="results file written by `tribune tournament` or `tribune serve`"
    )
    parser.add_argument("--game", type=int, metavar="ID", help="id of the game to replay")
    parser.add_argument("--list", action="store_true", help="list the stored games and exit")
    parser.add_argument(
        "--seat",
        type=int,
        metavar="SEAT",
        help="show only what this seat may read; with --html: the view shown first (default: everything)",
    )
    parser.add_argument("--step", action="store_true", help=f"step interactively ({STEP_HELP})")
    parser.add_argument("--board", action="store_true", help="also print the board at the start of every round")
    parser.add_argument(
        "--html",
        metavar="PATH",
        help="write the game as one self-contained HTML page (drawn board, log, slider, perspectives, score chart)",
    )
    parser.add_argument(
        "--open", action="store_true", help="open the HTML page in your browser (without --html: a temporary file)"
    )
    parser.add_argument(
        "--workers",
        type=bounded_int(1, MAX_WORKERS),
        metavar="N",
        help="processes drawing the HTML page's boards; 1 draws in this process; the page is the same for any "
        f"number (default: one per CPU, at most {MAX_DEFAULT_WORKERS}, for games of {PARALLEL_MIN_DECISIONS} "
        "decisions or more)",
    )


def _error(message: object) -> int:
    print(f"tribune: error: {message}", file=sys.stderr)
    return 2


def list_games(games: Sequence[GameRecord | StoredGame], out: TextIO, rules: str | None = None) -> int:
    """One line per stored game: id, seating, winners, rounds, forfeits; a game that cannot be used is marked
    with its problem. The first line says so when ``rules`` (the file's rule set) is ``"expansion"``.
    Strings from the file are printed with their control characters escaped (:func:`printable`).
    Returns the number of such games."""
    stored = [g if isinstance(g, StoredGame) else StoredGame(g.game_id, g) for g in games]
    bad = sum(g.record is None for g in stored)
    note = f", {bad} cannot be used (marked UNUSABLE)" if bad else ""
    what = {"expansion": " of expansion games", "brutii": " of expansion games with the Brutii"}.get(rules or "", "")
    print(f"{len(stored)} stored game(s){what}{note}", file=out)
    for game in sorted(stored, key=lambda g: g.game_id):
        r = game.record
        if r is None:
            print(f"  game {game.game_id:>4}: UNUSABLE: {printable(game.problem)}", file=out)
            continue
        winners = ", ".join(f"P{s}" for s in r.winners) or "-"
        forfeit = f"  forfeit P{r.forfeit.seat} ({printable(r.forfeit.reason)})" if r.forfeit else ""
        truncated = " (truncated)" if r.truncated else ""
        seating = " | ".join(map(printable, r.seating))
        print(f"  game {r.game_id:>4}: {seating}; winners {winners}; {r.rounds} rounds{truncated}{forfeit}", file=out)
    return bad


def _load(args: argparse.Namespace, out: TextIO) -> tuple[GameRecord, Components | None] | int:
    """The record to replay with the component set of the file's games (``None``: the packaged set), or the exit
    status when listing or on an error."""
    try:
        with ResultStore(args.results) as store:
            if args.list:
                bad = list_games(store.games(replay=True), out, store.rules)
                if bad:
                    print(f"tribune: warning: {bad} game(s) in {store.path} cannot be used", file=sys.stderr)
                return 0
            if args.game is None:
                return _error("give --game ID (or --list to see the stored games)")
            try:
                return store.record(args.game), store.components
            except KeyError as exc:
                return _error(f"{exc.args[0]} (use --list to see the stored games)")
    except StoreError as exc:
        return _error(exc)
    except (OSError, sqlite3.Error) as exc:
        return _error(f"{args.results}: {exc}")


_ONE_GAME_OPTIONS = ("game", "seat", "step", "board", "html", "open", "workers")
"""The options about one game, which ``--list`` cannot honour."""


def _given(value: object) -> bool:
    """Whether an option was given: a flag set, or any value (``--seat 0`` and ``--game 0`` included)."""
    return value is not None and value is not False


def _option_problem(args: argparse.Namespace) -> str | None:
    """Options that cannot do what they say, rather than be ignored: an empty ``--html`` path, ``--list`` with an
    option about one game, ``--workers`` without a page to draw."""
    html = getattr(args, "html", None)
    if html is not None and not html.strip():
        return "--html: give the path of the page to write (got an empty one)"
    if args.list:
        given = [f"--{name}" for name in _ONE_GAME_OPTIONS if _given(getattr(args, name, None))]
        if given:
            return f"--list only lists the stored games: it cannot be combined with {', '.join(given)}"
    if getattr(args, "workers", None) is not None and html is None and not getattr(args, "open", False):
        return "--workers draws the boards of the HTML page: give it with --html or --open"
    return None


def run(args: argparse.Namespace, input_stream: LineSource | None = None, out: TextIO | None = None) -> int:
    """The ``replay`` command; errors print ``tribune: error: ...`` and return 2."""
    out = out or sys.stdout
    problem = _option_problem(args)
    if problem is not None:
        return _error(problem)
    loaded = _load(args, out)
    if isinstance(loaded, int):
        return loaded
    record, components = loaded
    if getattr(args, "html", None) is not None or getattr(args, "open", False):
        return _write_html(args, record, out, components)
    try:
        stepper = Stepper(record, out, seat=args.seat, board=args.board, components=components)
        if args.step:
            stepper.interactive(input_stream or sys.stdin)
        else:
            stepper.print_all()
    except ValueError as exc:  # ReplayError or a bad --seat
        return _error(f"{args.results}: {exc}")
    return 0


@contextlib.contextmanager
def _drawing_progress(steps: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr over the ``steps`` steps drawn, when stderr is a terminal (else nothing: None)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("drawing decisions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("steps", total=steps)
        yield lambda n: bar.advance(task, n)


def _write_html(args: argparse.Namespace, record: GameRecord, out: TextIO, components: Components | None = None) -> int:
    """``--html FILE`` / ``--open``: write the replay page (and open it); errors return 2."""
    from tribune_arena.replay.html import write_replay_html  # the board drawing is only needed here

    if args.step or args.board:
        return _error("--html/--open cannot be combined with --step or --board")
    workers = getattr(args, "workers", None)
    if args.html:
        path = Path(args.html)
    else:
        path = Path(tempfile.gettempdir()) / f"tribune-replay-{Path(args.results).stem}-game-{record.game_id}.html"
    started = time.perf_counter()
    try:
        with _drawing_progress(len(record.actions) + 1) as progress:
            write_replay_html(record, path, components, seat=args.seat, workers=workers, progress=progress)
    except ValueError as exc:  # ReplayError or a bad --seat
        return _error(f"{args.results}: {exc}")
    except OSError as exc:
        return _error(f"cannot write {path}: {exc.strerror or exc}")
    size = path.stat().st_size
    print(
        f"wrote {path} ({size / 1e6:.1f} MB, {len(record.actions)} decisions, {time.perf_counter() - started:.1f} s)",
        file=out,
    )
    if args.open and not webbrowser.open(path.resolve().as_uri()):
        print(f"tribune: warning: no browser could be started; open {path.resolve().as_uri()}", file=sys.stderr)
    return 0


COMMAND = Command(
    "replay",
    "show a stored game as text, step by step, or as an HTML page",
    (
        ("tribune replay results/tournament.sqlite --list", "the games stored in a results file"),
        ("tribune replay results/tournament.sqlite --game 3 --step", "game 3, one decision at a time"),
        ("tribune replay results/tournament.sqlite --game 3 --html game3.html", "game 3 as a page to open"),
    ),
    _add_arguments,
    run,
    details="A results file holds the games of `tribune tournament` (or the finished games of `tribune serve`); "
    "--list shows their ids.",
)
