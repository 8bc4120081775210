"""A stored game as one self-contained HTML page (``tribune replay RESULTS --game N --html game.html``).

:func:`replay_document` replays a :class:`~tribune_arena.records.GameRecord` and collects, for every
decision (step 0 is the setup) and every perspective (omniscient, then each seat), the drawn board
(:func:`tribune_env.board.board_svg`; a seat's frames use ``viewer=seat``, so they show only what that seat
may see), the log lines, the decision made, and the scores at the end of each round. :func:`replay_html`
turns it into the page; :func:`write_replay_html` writes it.

File size: a game has hundreds of decisions and ``players + 1`` perspectives, and the frames drawn verbatim would
take hundreds of MB. Each board SVG is cut into pieces, one per group (:func:`svg_pieces`: a card, a space, a
label); a frame is a list of indices into a pool of distinct pieces (about 4% of the pieces drawn are new: a
decision changes a few things on the board), coded against the frame of the step before (:func:`delta_frames`), so
a view that did not change costs a few bytes. The frames and the pool are stored gzip-compressed and
base64-encoded; the page inflates them with the browser's ``DecompressionStream`` (Chromium 80+, Firefox 113+,
Safari 16.4+; works from ``file://``).

Time: drawing is almost all of it (a few ms per drawing, ``players + 1`` drawings per decision). Every view is
drawn at every step: the status line names the decision running, so (measured) hardly a view is the same as at the
step before (7 of 3,731 in a Brutii game, none in a base game), and skipping those would not pay for the checks.
With ``workers`` > 1 the steps are drawn in chunks by worker processes (each replays the game up to its chunk) and
merged in step order, so the page is the same byte for byte whatever the number of workers. ``progress`` is told
of every step drawn.

The page needs no network (no external scripts, styles, fonts or images). It holds the whole game, the
omniscient view included: choosing a seat's perspective hides the rest on screen, not in the file.
"""

from __future__ import annotations

import base64
import gzip
import json
import multiprocessing
import queue
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from tribune_arena.human.explain import person_text
from tribune_arena.records import GameRecord, forfeit_headline
from tribune_arena.replay.text import GAME_KINDS, replay_steps
from tribune_arena.replay.workers import default_workers
from tribune_env.board import board_svg
from tribune_env.board.style import PLAYER_COLOURS
from tribune_env.data import Components
from tribune_env.engine.names import decision_name, phase_name

PIECE_JOIN = "<g "
"""What a frame's pieces are joined with (:func:`svg_pieces`)."""
_POOL_SEPARATOR = "\x00"

Frames = Sequence[Sequence[Sequence[int]]]
"""``frames[step][perspective]``: a frame (piece indices) per decision and perspective."""


def svg_pieces(svg: str) -> list[str]:
    """``svg`` cut at every :data:`PIECE_JOIN` (the start of a group's opening tag with attributes);
    ``PIECE_JOIN.join(svg_pieces(svg)) == svg`` for any string. A piece is the rest of one group's opening tag and
    what follows up to the next one's: a card, a follower space, a label. Most of them are the same from one
    decision to the next (:class:`FramePool`)."""
    return svg.split(PIECE_JOIN)


class FramePool:
    """The distinct SVG pieces (:func:`svg_pieces`), in the order first added; a frame is the list of its pieces'
    indices (:meth:`add`)."""

    def __init__(self) -> None:
        self.pieces: dict[str, int] = {}

    def add(self, svg: str) -> list[int]:
        """Store ``svg``; returns its frame."""
        pieces = self.pieces
        return [pieces.setdefault(piece, len(pieces)) for piece in svg.split(PIECE_JOIN)]

    def svg(self, frame: Sequence[int]) -> str:
        """The SVG document of ``frame`` (the inverse of :meth:`add`)."""
        pieces = list(self.pieces)
        return PIECE_JOIN.join(pieces[i] for i in frame)

    def packed(self, frames: Frames) -> str:
        """``{"join": PIECE_JOIN, "frames": delta_frames(frames)}`` as JSON, then the pieces, NUL-separated,
        gzip-compressed (deterministic) and base64-encoded."""
        index = json.dumps({"join": PIECE_JOIN, "frames": delta_frames(frames)}, separators=(",", ":"))
        raw = _POOL_SEPARATOR.join([index, *self.pieces]).encode()
        return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def delta_frames(frames: Frames) -> list[list[list[int]]]:
    """``frames`` coded against the step before: each run of ``k`` indices that the previous step's frame of the same
    perspective has at the same positions becomes ``-k`` (about a quarter of the numbers are left);
    :func:`undelta_frames` (and the page's script) decode it."""
    coded: list[list[list[int]]] = []
    before: Sequence[Sequence[int]] = ()
    for step in frames:
        coded.append([_delta(frame, before[p] if p < len(before) else ()) for p, frame in enumerate(step)])
        before = step
    return coded


def _delta(frame: Sequence[int], before: Sequence[int]) -> list[int]:
    changed = [i for i, (now, then) in enumerate(zip(frame, before, strict=False)) if now != then]
    changed.extend(range(len(before), len(frame)))
    coded: list[int] = []
    at = 0  # the first position not yet coded
    for i in changed:
        if i > at:
            coded.append(at - i)
        coded.append(frame[i])
        at = i + 1
    if len(frame) > at:
        coded.append(at - len(frame))
    return coded


def undelta_frames(coded: Frames) -> list[list[list[int]]]:
    """The frames of :func:`delta_frames`'s output."""
    frames: list[list[list[int]]] = []
    before: list[list[int]] = []
    for step in coded:
        row: list[list[int]] = []
        for p, codes in enumerate(step):
            previous = before[p] if p < len(before) else []
            frame: list[int] = []
            for c in codes:
                if c >= 0:
                    frame.append(c)
                else:
                    frame.extend(previous[len(frame) : len(frame) - c])
            row.append(frame)
        frames.append(row)
        before = row
    return frames


@dataclass
class ReplayDocument:
    """Everything the page shows. ``frames[step][p]`` is perspective ``p``'s frame (0: omniscient, 1 + k: seat
    k); ``steps`` has one dict per decision (step 0: the setup); ``round_scores[r]`` are the scores after the
    last decision of round ``r`` (the last entry: the final scores)."""

    record: GameRecord
    perspectives: list[str]
    pool: FramePool = field(default_factory=FramePool)
    frames: list[list[list[int]]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    events: list[list[Any]] = field(default_factory=list)
    round_scores: dict[int, list[int]] = field(default_factory=dict)

    def svg(self, step: int, perspective: int) -> str:
        """The board SVG of ``step`` seen from ``perspective`` (0: omniscient, 1 + k: seat k)."""
        return self.pool.svg(self.frames[step][perspective])


Progress = Callable[[int], None]
"""Told the number of steps just drawn (the total is ``len(record.actions) + 1``)."""


def replay_words(record: GameRecord, components: Components | None = None) -> ReplayDocument:
    """The document of ``record`` without its drawings: the perspectives, the log lines and decisions in words
    (names, not ids: issue 38) and the scores by round; raises ``ReplayError``."""
    names = [f"P{s} {spec}" for s, spec in enumerate(record.seating)]
    doc = ReplayDocument(record, ["Everything (omniscient)", *names])
    for step in replay_steps(record, components):
        game = step.game
        first_event = len(doc.events)
        for e in step.events:  # the log in words (names, not ids: issue 38)
            doc.events.append([step.number, e.round, phase_name(e.phase), e.private_to, person_text(game, e.text)])
        doc.steps.append(
            {
                "n": step.number,
                "seat": step.seat,
                "kind": step.kind,
                "kind_words": decision_name(step.kind) if step.kind else "",
                "action": step.action,
                "text": person_text(game, step.description),
                "round": game.round,
                "phase": game.phase.name.lower(),
                "phase_words": phase_name(game.phase),
                "next": game.current_seat,
                "events": [first_event, len(doc.events)],
            }
        )
        doc.round_scores[game.round] = list(game.scores())
    return doc


def replay_document(
    record: GameRecord,
    components: Components | None = None,
    *,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> ReplayDocument:
    """Replay ``record`` and draw every decision from every perspective; raises ``ReplayError``.

    ``workers``: processes drawing the boards (None: :func:`default_workers`); the document is the same for any
    number. Workers are started with ``forkserver`` (or ``spawn``), so a script asking for more than one calls this
    under ``if __name__ == "__main__":``. ``progress`` is called with the number of steps drawn as they are drawn."""
    doc = replay_words(record, components)  # the words first: a game that does not replay fails fast
    count = len(doc.steps)
    workers = default_workers(count - 1) if workers is None else workers
    if workers <= 1 or count < 2:
        chunks = [_draw_steps(record, components, 0, count, progress)]
    else:
        chunks = _draw_in_workers(record, components, count, workers, progress)
    for chunk in chunks:
        doc.frames.extend(chunk.merge_into(doc.pool))
    return doc


@dataclass
class _Chunk:
    """Frames of consecutive steps drawn into a pool of their own (what a worker sends back)."""

    pool: FramePool
    frames: list[list[list[int]]]

    def merge_into(self, pool: FramePool) -> list[list[list[int]]]:
        """The frames re-indexed into ``pool``, this chunk's new pieces added in their order here: as if drawn into
        ``pool`` (so the chunks merged in step order make the pool of one process drawing every step)."""
        if not pool.pieces:
            pool.pieces = dict(self.pool.pieces)
            return self.frames
        index = [pool.pieces.setdefault(piece, len(pool.pieces)) for piece in self.pool.pieces]
        return [[[index[i] for i in frame] for frame in step] for step in self.frames]


def _draw_steps(
    record: GameRecord, components: Components | None, start: int, stop: int, progress: Progress | None = None
) -> _Chunk:
    """Steps ``start`` to ``stop - 1`` drawn from every perspective (omniscient, then each seat)."""
    chunk = _Chunk(FramePool(), [])
    viewers = (None, *range(record.players))
    for step in replay_steps(record, components):
        if step.number >= stop:
            break
        if step.number >= start:
            chunk.frames.append([chunk.pool.add(board_svg(step.game, viewer=v)) for v in viewers])
            if progress is not None:
                progress(1)
    return chunk


_WORKER: tuple[GameRecord, Components | None, Any] | None = None
"""In a worker process: the game to draw and the queue that counts the steps drawn."""


def _init_worker(record: GameRecord, components: Components | None, drawn: Any) -> None:
    global _WORKER
    _WORKER = (record, components, drawn)


def _draw_in_worker(start: int, stop: int) -> _Chunk:
    assert _WORKER is not None, "the worker was not initialised"
    record, components, drawn = _WORKER
    return _draw_steps(record, components, start, stop, drawn.put)


CHUNKS_PER_WORKER = 3
"""Chunks of steps per worker: a few, so that a worker slowed by other work on the machine delays the end little,
and not many, since each chunk replays the game from its start."""


def _draw_in_workers(
    record: GameRecord, components: Components | None, count: int, workers: int, progress: Progress | None
) -> list[_Chunk]:
    """All ``count`` steps drawn by ``workers`` processes in :data:`CHUNKS_PER_WORKER` chunks each; the chunks in
    order. The workers count every step drawn on a queue, which feeds ``progress``."""
    size = max(8, -(-count // (workers * CHUNKS_PER_WORKER)))
    bounds = [(a, min(a + size, count)) for a in range(0, count, size)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload([__name__])
    drawn = context.Queue()
    with ProcessPoolExecutor(
        max_workers=min(workers, len(bounds)),
        mp_context=context,
        initializer=_init_worker,
        initargs=(record, components, drawn),
    ) as pool:
        futures = [pool.submit(_draw_in_worker, a, b) for a, b in bounds]
        told = 0
        while told < count and not any(f.done() and f.exception() is not None for f in futures):
            try:
                told += drawn.get(timeout=0.2)
            except queue.Empty:
                continue
            if progress is not None:
                progress(1)
        chunks = [f.result() for f in futures]
    drawn.close()
    return chunks


# -- the score chart ---------------------------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT = 560, 260


def score_chart(round_scores: dict[int, list[int]], seating: Sequence[str]) -> str:
    """An inline SVG line chart of each player's score by round (x: round, y: score).

    Round 0 (the setup) is left out when later rounds exist; the vertical line ``id="chart-now"`` is moved
    by the page to the round on screen (``data-x0``/``data-dx``: the x of the first round and per round).
    """
    rounds = sorted(r for r in round_scores if r > 0) or sorted(round_scores)
    values = [v for r in rounds for v in round_scores[r]]
    low, high = min(0, *values), max(1, *values)
    left, right, top, bottom = 44, 110, 16, 34
    w, h = CHART_WIDTH - left - right, CHART_HEIGHT - top - bottom
    dx = w / max(1, len(rounds) - 1)

    def x(i: int) -> float:
        return round(left + i * dx, 1)

    def y(v: float) -> float:
        return round(top + h - (v - low) / (high - low) * h, 1)

    out = [
        f'<svg id="score-chart" width="{CHART_WIDTH}" height="{CHART_HEIGHT}" '
        f'viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" font-family="sans-serif" font-size="11" role="img" '
        f'aria-label="score by round" data-rounds="{",".join(map(str, rounds))}">'
    ]
    step = max(1, round((high - low) / 5))
    for tick in range(low - low % step, high + 1, step):
        if tick < low:
            continue
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(tick)}" y2="{y(tick)}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4}" text-anchor="end" fill="#555">{tick}</text>')
    every = max(1, len(rounds) // 12)
    for i, r in enumerate(rounds):
        if i % every == 0 or i == len(rounds) - 1:
            out.append(f'<text x="{x(i)}" y="{top + h + 16}" text-anchor="middle" fill="#555">{r}</text>')
    out.append(f'<text x="{left + w / 2}" y="{CHART_HEIGHT - 3}" text-anchor="middle" fill="#333">round</text>')
    out.append(
        f'<line id="chart-now" x1="{x(0)}" x2="{x(0)}" y1="{top}" y2="{top + h}" stroke="#999" '
        f'stroke-dasharray="4 3" data-x0="{x(0)}" data-dx="{round(dx, 3)}" data-first="{rounds[0]}"/>'
    )
    for seat, name in enumerate(seating):
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        points = " ".join(f"{x(i)},{y(round_scores[r][seat])}" for i, r in enumerate(rounds))
        out.append(
            f'<polyline class="score-line" data-seat="{seat}" points="{points}" fill="none" stroke="{colour}" '
            'stroke-width="2"/>'
        )
        last = round_scores[rounds[-1]][seat]
        ly = top + 14 + seat * 16
        out.append(f'<rect x="{left + w + 12}" y="{ly - 9}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{left + w + 26}" y="{ly}" fill="#222">P{seat} {escape(name[:10])}: {last}</text>')
    out.append("</svg>")
    return "".join(out)


# -- the page ----------------------------------------------------------------------------------------------


_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)
"""Characters that JSON may hold verbatim but a ``<script>`` element may not: ``<`` (``</script>`` ends the element;
``<!--`` then ``<script`` makes the parser skip the next ``</script>``), and with them ``>``, ``&`` and the two
line separators, each as its JSON escape (they occur only inside JSON strings, which read back the same)."""


def _json_for_script(value: object) -> str:
    """JSON that is safe inside ``<script type="application/json">`` for any strings it holds: no ``<``, ``>``
    or ``&`` (nor non-ASCII) is left in the text, so nothing in it can end or change the script element."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).translate(_SCRIPT_ESCAPES)


def _result_rows(record: GameRecord) -> str:
    rows = []
    for seat, spec in enumerate(record.seating):
        won = "winner" if seat in record.winners else ""
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        rows.append(
            f'<tr data-seat="{seat}"><td><span class="swatch" style="background:{colour}"></span>P{seat}</td>'
            f'<td>{escape(spec)}</td><td class="num">{record.scores[seat]}</td>'
            f'<td class="num">{record.ranks[seat]}</td><td>{won}</td></tr>'
        )
    return "".join(rows)


def replay_html(
    record: GameRecord,
    components: Components | None = None,
    seat: int | None = None,
    *,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> str:
    """The replay page of ``record`` (one self-contained HTML document); ``seat`` picks the perspective shown
    first (default: omniscient); ``workers`` and ``progress`` as in :func:`replay_document`. Raises
    ``ReplayError``, or :class:`ValueError` for a seat out of range."""
    if seat is not None and not 0 <= seat < record.players:
        raise ValueError(f"--seat must be in 0..{record.players - 1}, got {seat}")
    return document_html(replay_document(record, components, workers=workers, progress=progress), seat)


def document_html(doc: ReplayDocument, seat: int | None = None) -> str:
    """The page of an already built :class:`ReplayDocument`."""
    r = doc.record
    title = f"Tribune replay: game {r.game_id}"
    winners = ", ".join(f"P{s} {r.seating[s]}" for s in r.winners) or "none"
    notes = []
    if r.truncated:
        notes.append("truncated at the round limit")
    if r.forfeit is not None:
        f = r.forfeit
        notes.append(f"forfeit: P{f.seat} {r.seating[f.seat]} ({f.reason}): {forfeit_headline(f.message)[0]}")
    data = {
        "game": r.game_id,
        "players": r.players,
        "seating": list(r.seating),
        "perspectives": doc.perspectives,
        "initial": 0 if seat is None else seat + 1,
        "steps": doc.steps,
        "events": doc.events,
        "colours": list(PLAYER_COLOURS),
    }
    template = resources.files("tribune_arena.replay").joinpath("page.html").read_text(encoding="utf-8")
    fills = {
        "TITLE": escape(title),
        "SUMMARY": escape(
            f"deal {r.deal}, seed {r.seed}, {GAME_KINDS[r.rules]}, {r.players} players"  # no length: no spoiler
        ),
        "WINNERS": escape(winners + (f" ({'; '.join(notes)})" if notes else "")),
        "RESULT_ROWS": _result_rows(r),
        "CHART": score_chart(doc.round_scores, r.seating),
        "DATA": _json_for_script(data),
        "POOL": doc.pool.packed(doc.frames),
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda m: fills[m.group(1)], template)


def write_replay_html(
    record: GameRecord,
    path: str | Path,
    components: Components | None = None,
    seat: int | None = None,
    *,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> Path:
    """Write the replay page of ``record`` to ``path`` (parents must exist); returns the path. ``workers`` and
    ``progress`` as in :func:`replay_document`."""
    target = Path(path)
    target.write_text(replay_html(record, components, seat, workers=workers, progress=progress), encoding="utf-8")
    return target
