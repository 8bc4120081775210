"""The benchmark's JSON record (:func:`record_of`, :func:`write_record`, :func:`read_record`) and its tables.

The record (``format`` :data:`FORMAT`, ``format_version`` :data:`FORMAT_VERSION`) is what a researcher publishes::

    {"format": "tribune-benchmark", "format_version": 1,
     "agent": "ppo", "suite": {"version": "2026.11-1", "deals": 100, "standard_deals": 100, "standard": true},
     "time_limit": 30.0, "workers": null,
     "interval": {"method": "wilson", "confidence": 0.95, "unit": "seat-game", ...},
     "tracks": [{"name": ..., "description": ..., "rules": "base", "players": 4, "role": "every",
                 "opponents": [...], "seed": ..., "deals": 100, "standard": true, "status": "played" | "skipped",
                 "reason": null | "why skipped", "games": 400, "seat_games": 400, "wins": 236, "win_rate": 0.59,
                 "win_rate_ci": [0.54, 0.64], "win_share_rate": ..., "parity": 0.25, "mean_rank": ...,
                 "forfeits": 0, "truncated": 0, "moves": ..., "seconds_per_move": ..., "max_seconds_per_move": ...,
                 "results_file": "results/benchmark-games/...sqlite", "opponents_fingerprint": "..."}, ...],
     "code": {"package": "0.3.0", "commit": "<sha>" | null, "dirty": false | null},
     "machine": {"cpus": 2, "platform": ..., "processor": ..., "python": ...},
     "date": "2026-11-28T12:00:00+00:00", "command": "tribune benchmark ppo"}

Writing is atomic (a temporary file renamed into place) and never replaces a record unless asked to.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from tribune_arena.benchmark.run import PLAYED, BenchmarkRun, TrackResult
from tribune_arena.benchmark.suite import STANDARD_DEALS, SUITE_VERSION
from tribune_arena.tournament.stats import INTERVAL_HEADER, interval_meta, percent_range
from tribune_env import __version__

FORMAT = "tribune-benchmark"
FORMAT_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be written or read; the message names the file and the problem."""


# -- what made the record -----------------------------------------------------------------------------------------


def code_version() -> dict[str, Any]:
    """The package version and, when run from a git checkout, the commit and whether tracked files had changes
    (``commit`` and ``dirty`` ``None`` otherwise); the same form as a training run's code version."""
    root = Path(__file__).resolve().parents[2]
    info: dict[str, Any] = {"package": __version__, "commit": None, "dirty": None}
    try:
        commit = _git(root, "rev-parse", "HEAD")
        status = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return info
    info["commit"] = commit.strip()
    info["dirty"] = bool(status.strip())
    return info


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True)
    return done.stdout


def machine_info() -> dict[str, Any]:
    """The machine the times per move were measured on: CPU counts, CPU model, platform, Python."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 1
    return {
        "cpus": os.cpu_count(),
        "usable_cpus": usable,
        "processor": _cpu_model() or platform.processor() or platform.machine(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def _cpu_model() -> str | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return None


# -- the record -----------------------------------------------------------------------------------------------------


def _track_doc(result: TrackResult) -> dict[str, Any]:
    track = result.track
    return {
        "name": track.name,
        "description": track.description,
        "rules": track.rules.value,
        "players": track.players,
        "role": track.role,
        "opponents": list(track.opponents),
        "seed": track.seed,
        "deals": result.deals,
        "standard": result.standard,
        "status": result.status,
        "reason": result.reason,
        "games": result.games,
        "seat_games": result.seat_games,
        "wins": result.wins,
        "win_rate": result.win_rate,
        "win_rate_ci": list(result.win_rate_ci),
        "win_share_rate": result.win_share_rate,
        "parity": result.parity,
        "mean_rank": result.mean_rank,
        "forfeits": result.forfeits,
        "truncated": result.truncated,
        "moves": result.moves,
        "seconds_per_move": result.seconds_per_move,
        "max_seconds_per_move": result.max_seconds_per_move,
        "results_file": result.results_file,
        "opponents_fingerprint": result.opponents_fingerprint,
    }


def record_of(run: BenchmarkRun, command: str) -> dict[str, Any]:
    """The JSON record of ``run`` (see the module docstring); ``command`` is the command line that reproduces it."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "agent": run.agent,
        "suite": {
            "version": SUITE_VERSION,
            "deals": run.deals,
            "standard_deals": STANDARD_DEALS,
            "standard": run.standard,
        },
        "time_limit": run.time_limit,
        "workers": run.workers,
        "interval": interval_meta(),
        "tracks": [_track_doc(result) for result in run.tracks],
        "code": code_version(),
        "machine": machine_info(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
    }


def write_record(record: Mapping[str, Any], path: str | Path, force: bool = False) -> Path:
    """Write ``record`` to ``path`` atomically (a temporary file beside it, then renamed): a reader sees the old file
    or the whole new one. An existing file is replaced only with ``force``; RecordError otherwise, or when the file
    cannot be written."""
    target = Path(path)
    text = json.dumps(record, indent=2, allow_nan=False) + "\n"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise RecordError(f"{target}: cannot write the record: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # what a plain open() gives (mkstemp makes 0600): a record is for others to read
        if force:
            os.replace(tmp, target)
        else:
            _place_new(tmp, target)
    except OSError as exc:
        raise RecordError(f"{target}: cannot write the record: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return target


def _place_new(tmp: str, target: Path) -> None:
    """Give ``tmp`` the name ``target`` unless a file has it (a hard link fails then: no window to overwrite one)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise RecordError(f"{target} exists: give --force to replace it, or another --out") from None
    except OSError:  # a file system without hard links
        if target.exists():
            raise RecordError(f"{target} exists: give --force to replace it, or another --out") from None
        os.replace(tmp, target)


_REQUIRED = ("agent", "suite", "tracks")


def read_record(path: str | Path) -> dict[str, Any]:
    """The record in ``path``; RecordError naming the file when it is not a benchmark record this version reads."""
    source = Path(path)
    try:
        doc = json.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"{source}: cannot read the record: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(f"{source}: not a benchmark record: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RecordError(f'{source}: not a benchmark record (no "format": "{FORMAT}")')
    if doc.get("format_version") != FORMAT_VERSION:
        raise RecordError(f"{source}: record format {doc.get('format_version')!r}, this version reads {FORMAT_VERSION}")
    missing = [key for key in _REQUIRED if key not in doc]
    tracks = doc.get("tracks")
    if missing or not isinstance(tracks, list) or not all(isinstance(t, dict) and "name" in t for t in tracks):
        raise RecordError(f"{source}: not a benchmark record: {'lacks ' + missing[0] if missing else 'bad tracks'}")
    return doc


# -- tables -------------------------------------------------------------------------------------------------------


def _table() -> Table:
    """A table of figures: no title (the caller prints one line above it, which a narrow table would wrap)."""
    return Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=0, show_edge=False)


def _ms(seconds: float) -> str:
    """Milliseconds: one decimal below 100 ms, whole ones above."""
    ms = seconds * 1000
    return f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def record_title(record: Mapping[str, Any]) -> str:
    """The line above :func:`record_table`: the suite version, the agent and the size."""
    suite = record["suite"]
    deals = suite["deals"]
    size = f"{deals} deal{'s' if deals != 1 else ''}" + ("" if suite.get("standard") else " (not the standard size)")
    return f"Strength benchmark {suite['version']}: {record['agent']}, {size}"


def record_table(record: Mapping[str, Any]) -> Table:
    """One line per track: games, the agent's wins of its seat-games, win rate with its 95% Wilson interval, parity,
    times per move (mean and longest, ms), forfeits; a skipped track says so (its reason is in
    :func:`skipped_lines`). Its title line is :func:`record_title`."""
    table = _table()
    names = [str(track["name"]) for track in record["tracks"]]
    table.add_column("track", no_wrap=True, min_width=max(map(len, names), default=5))
    for name in (
        "games",
        "wins /\nseats",
        "win\nrate",
        INTERVAL_HEADER,
        "parity",
        "ms per\nmove",
        "max\nms",
        "for-\nfeits",
    ):
        table.add_column(name, justify="right", no_wrap=True)
    for track in record["tracks"]:
        if track["status"] != PLAYED:
            table.add_row(track["name"], "-", "-", "-", "skipped", "", "", "", "")
            continue
        table.add_row(
            track["name"],
            str(track["games"]),
            f"{track['wins']}/{track['seat_games']}",
            f"{track['win_rate']:.1%}",
            percent_range(tuple(track["win_rate_ci"])),
            f"{track['parity']:.0%}",
            _ms(track["seconds_per_move"]),
            _ms(track["max_seconds_per_move"]),
            str(track["forfeits"]),
        )
    return table


def skipped_lines(record: Mapping[str, Any]) -> list[str]:
    """``skipped TRACK: reason`` for each skipped track."""
    return [f"skipped {t['name']}: {t.get('reason')}" for t in record["tracks"] if t.get("status") != PLAYED]


def _cell(track: Mapping[str, Any] | None) -> str:
    if track is None:
        return "-"
    if track.get("status") != PLAYED:
        return "skipped"
    return f"{track['win_rate']:.1%} ({percent_range(tuple(track['win_rate_ci']))})"


def compare_table(a: Mapping[str, Any], b: Mapping[str, Any], names: Sequence[str] = ("A", "B")) -> Table:
    """Two records side by side, track by track: each agent's win rate with its interval, and B - A in points
    (its title line is :func:`compare_title`)."""
    table = _table()
    table.add_column("track", no_wrap=True)
    table.add_column(f"{names[0]}: {a['agent']}", justify="right", overflow="fold")
    table.add_column(f"{names[1]}: {b['agent']}", justify="right", overflow="fold")
    table.add_column(f"{names[1]} - {names[0]}\npoints", justify="right", no_wrap=True)
    table.add_column("parity", justify="right", no_wrap=True)
    tracks_a = {t["name"]: t for t in a["tracks"]}
    tracks_b = {t["name"]: t for t in b["tracks"]}
    for name in dict.fromkeys([*tracks_a, *tracks_b]):
        ta, tb = _played(tracks_a.get(name)), _played(tracks_b.get(name))
        diff = f"{100 * (tb['win_rate'] - ta['win_rate']):+.1f}" if ta and tb else ""
        parity = next((f"{t['parity']:.0%}" for t in (ta, tb) if t), "")
        table.add_row(name, _cell(tracks_a.get(name)), _cell(tracks_b.get(name)), diff, parity)
    return table


def _played(track: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """``track`` if it was played, else ``None``."""
    return track if track is not None and track.get("status") == PLAYED else None


def compare_title(a: Mapping[str, Any], b: Mapping[str, Any], names: Sequence[str] = ("A", "B")) -> str:
    """The line above :func:`compare_table`."""
    return f"Strength benchmark: {names[0]} {a['agent']} against {names[1]} {b['agent']}"


def compare_notes(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """What makes two records less than comparable deal for deal: other suite versions, sizes, time limits or
    opponents that play differently (their fingerprints); then the code versions when they differ."""
    notes = []
    va, vb = a["suite"].get("version"), b["suite"].get("version")
    if va != vb:
        notes.append(f"note: the suite versions differ ({va} and {vb}): other deals or opponents, not comparable")
    da, db = a["suite"].get("deals"), b["suite"].get("deals")
    if da != db:
        notes.append(f"note: the records played {da} and {db} deals: only the first deals are the same games")
    ta, tb = a.get("time_limit"), b.get("time_limit")
    if ta != tb:
        notes.append(f"note: the per-move limits differ ({ta} and {tb} s)")
    for name, fa, fb in _fingerprints(a, b):
        notes.append(f"note: {name}: the opponents play differently in the two records (fingerprints {fa}, {fb})")
    ca, cb = a.get("code") or {}, b.get("code") or {}
    if (ca.get("package"), ca.get("commit")) != (cb.get("package"), cb.get("commit")):
        notes.append(f"code: {_code(ca)} and {_code(cb)}")
    return notes


def _fingerprints(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(track, fingerprint in a, in b)`` of the tracks both records played whose opponents' fingerprints differ."""
    theirs = {t["name"]: t.get("opponents_fingerprint") for t in b["tracks"]}
    differ = []
    for track in a["tracks"]:
        mine, other = track.get("opponents_fingerprint"), theirs.get(track["name"])
        if mine and other and mine != other:
            differ.append((str(track["name"]), str(mine), str(other)))
    return differ


def _code(code: Mapping[str, Any]) -> str:
    commit = code.get("commit")
    dirty = " (changed)" if code.get("dirty") else ""
    return f"{code.get('package')} at {str(commit)[:10] if commit else 'an unknown commit'}{dirty}"
