"""Native thread pools (BLAS, OpenMP, torch) limited for policy decisions: :func:`limit_threads`,
:func:`limited_threads`.

Why. numpy's BLAS (OpenBLAS) splits a large enough matrix product over one thread per core. On a machine whose
cores are busy (a tournament's worker processes, other jobs) those threads wait for each other and the product
costs 10-30x more: measured on a loaded 2-core machine, a ``ppo-expansion`` decision (one observation of 2,442
entries) took 26-29 ms in tournament workers against 1.5-1.8 ms with one thread, and a step of 16 games with a
policy network 13x longer. One thread loses almost nothing on an idle machine, since these products are small.
``tribune bench`` shows both ("A policy per step": limited and as found).

The limit. ``n`` threads for every BLAS and OpenMP library loaded in this process (through threadpoolctl) and, if
torch is already imported, for torch's intra-op pool (``torch.set_num_threads``; this module never imports torch).
When no ``n`` is given it is :func:`thread_limit`: the environment variable :data:`ENV_VAR` (``TRIBUNE_THREADS``)
if set, else :data:`DEFAULT_THREADS` (1). ``TRIBUNE_THREADS=0`` (or ``none``) turns the library's limits off: the
thread pools are then never touched unless a caller names ``n``. A given ``n`` wins over the variable.

Two forms, and where the library uses them. A library that silently changed a process's thread pools for good
would surprise the program that imports it, so the process-wide form is used only in processes the library owns:

* :func:`limit_threads` sets the limit for the whole process, from now on (idempotent: call it again after loading
  a library, e.g. importing torch, to cover it too). The library calls it in the tournament's game worker processes
  (those under Ray too), before each game.
* :func:`limited_threads` is a context manager that sets the limit for its block and restores what it found. The
  library uses it around the forward pass of the ``ppo`` agents' policy (``agents.ppo.NumpyPolicy``: a ``ppo``
  decision anywhere, in ``tribune play``, the web app, an environment's opponent) and around a step or reset of
  :class:`~tribune_env.envs.batched.TribuneBatchedEnv` (its opponents' policies). Entering and leaving costs about
  25 microseconds on a loaded 2-core machine (3% of a ``ppo`` decision there), too much for a finer grain but not
  for a decision; inside another block, or where :func:`limit_threads` already holds (a worker), about 5. Blocks
  are counted across threads under a lock: the first to enter sets the limit, the last to leave restores what it
  found (nested blocks keep the outermost block's limit). While a block runs the limit holds for every thread of
  the process, since the pools are the process's.

Search agents (``mcts``, its flat search) call no BLAS and no torch (they search with the engine), so they need no
limit of their own; in a tournament their worker process is limited anyway.

A learner's own policy, run between steps of an environment, is the caller's: wrap the rollout loop in
:func:`limited_threads` or call :func:`limit_threads` once (``tribune bench`` does the former).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy  # noqa: F401  (loads numpy's BLAS, so that the first limit already finds it)
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

__all__ = [
    "DEFAULT_THREADS",
    "ENV_VAR",
    "limit_threads",
    "limited_threads",
    "thread_limit",
    "threads_in_use",
]

ENV_VAR = "TRIBUNE_THREADS"
"""The environment variable that overrides :data:`DEFAULT_THREADS`: a whole number >= 1, or ``0``/``none`` for no
limit from the library."""
DEFAULT_THREADS = 1
"""Threads per native pool when neither ``n`` nor :data:`ENV_VAR` says otherwise."""
_OFF = ("0", "none", "off")

_lock = threading.Lock()
_controller: ThreadpoolController | None = None
_modules_seen = -1  # len(sys.modules) when _controller was built: a native library is loaded by an import
_process_limit: int | None = None  # the limit limit_threads() set, if any
_depth = 0  # limited_threads() blocks open, in every thread
_saved: list[tuple[Any, int]] = []  # (library controller, threads) found when the outermost block entered
_saved_torch: int | None = None
_saved_limit = DEFAULT_THREADS  # the limit of the outermost open block


def thread_limit(n: int | None = None) -> int | None:
    """The limit to apply: ``n`` if given, else :data:`ENV_VAR`'s value, else :data:`DEFAULT_THREADS`; ``None``
    means none (``TRIBUNE_THREADS=0``).

    Raises:
        ValueError: ``n`` is not a whole number >= 1, or :data:`ENV_VAR` is neither that nor ``0``/``none``.
    """
    if n is not None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"threads: must be a whole number >= 1, got {n!r}")
        return n
    text = os.environ.get(ENV_VAR, "").strip().lower()
    if not text:
        return DEFAULT_THREADS
    if text in _OFF:
        return None
    if not text.isdigit():
        raise ValueError(f"{ENV_VAR}: must be a whole number >= 1, or 0/none for no limit, got {text!r}")
    return int(text)


def _libraries() -> list[Any]:
    """threadpoolctl's controllers of the native libraries loaded now (rebuilt after new imports only: building
    one walks the loaded libraries, about a millisecond)."""
    global _controller, _modules_seen
    if _controller is None or _modules_seen != len(sys.modules):
        _controller = ThreadpoolController()
        _modules_seen = len(sys.modules)
    return list(_controller.lib_controllers)


def _torch() -> Any:
    """The torch module if something already imported it, else ``None``."""
    return sys.modules.get("torch")


def limit_threads(n: int | None = None) -> int | None:
    """Limit every native thread pool of this process to ``n`` threads from now on (module docstring); returns the
    limit applied, ``None`` when :data:`ENV_VAR` turns it off (nothing is changed then).

    Idempotent, and cheap when nothing new was imported. Libraries loaded later are covered by the next call. An
    open :func:`limited_threads` block restores the threads it found when it leaves: call this outside any block.
    Blocks with the same limit then change nothing (they do not look again: other code that raises the pools
    afterwards should call this again).
    """
    global _process_limit
    limit = thread_limit(n)
    if limit is None:
        return None
    with _lock:
        for lib in _libraries():
            if lib.num_threads != limit:
                _set(lib, limit)
        torch = _torch()
        if torch is not None and torch.get_num_threads() != limit:
            torch.set_num_threads(limit)
        _process_limit = limit
    return limit


@contextmanager
def limited_threads(n: int | None = None) -> Iterator[int | None]:
    """Limit every native thread pool to ``n`` threads inside the block and restore them after (module docstring);
    yields the limit in force, ``None`` when :data:`ENV_VAR` turns it off (nothing is changed then)."""
    limit = thread_limit(n)
    if limit is None:
        yield None
        return
    if limit == _process_limit and not _depth:  # limit_threads() already holds it: nothing to do
        yield limit
        return
    held = _enter(limit)
    try:
        yield held
    finally:
        _leave()


def _enter(limit: int) -> int:
    """Open a block: the first one sets ``limit`` and keeps what it found; returns the limit in force."""
    global _depth, _saved, _saved_torch, _saved_limit
    with _lock:
        if _depth:
            _depth += 1
            return _saved_limit
        saved: list[tuple[Any, int]] = []
        saved_torch: int | None = None
        try:
            for lib in _libraries():
                found = lib.get_num_threads()
                if found is not None and found != limit:
                    saved.append((lib, found))
                    _set(lib, limit)
            torch = _torch()
            if torch is not None and torch.get_num_threads() != limit:
                saved_torch = torch.get_num_threads()
                torch.set_num_threads(limit)
        except BaseException:
            _restore(saved, saved_torch)
            raise
        _depth, _saved, _saved_torch, _saved_limit = 1, saved, saved_torch, limit
        return limit


def _leave() -> None:
    """Close a block: the last one restores what the first found."""
    global _depth, _saved, _saved_torch
    with _lock:
        _depth -= 1
        if not _depth:
            saved, saved_torch = _saved, _saved_torch
            _saved, _saved_torch = [], None
            _restore(saved, saved_torch)


def _set(lib: Any, threads: int) -> None:
    """Set one library's threads from any thread. Recent threadpoolctl lets only one Python thread, the first to
    set them, change OpenBLAS's process-wide pool and silently ignores the others, so that threads do not fight over
    it; this module's lock and block count do that job, so the calling thread takes control for the call and then
    gives it up (``clear_controlling_thread``)."""
    release = getattr(type(lib), "clear_controlling_thread", None)
    if release is not None:
        release(force=True)
    lib.set_num_threads(threads)
    if release is not None:
        release()


def _restore(saved: list[tuple[Any, int]], saved_torch: int | None) -> None:
    for lib, found in saved:
        _set(lib, found)
    torch = _torch()
    if torch is not None and saved_torch is not None:
        torch.set_num_threads(saved_torch)


def threads_in_use() -> dict[str, int]:
    """The threads of each native pool now, by library (threadpoolctl's ``internal_api``, e.g. ``openblas``,
    ``openmp``; a second library of a kind is ``openblas#2``) and ``torch`` when torch is imported: what the tests
    and ``tribune bench`` report."""
    from threadpoolctl import threadpool_info

    out: dict[str, int] = {}
    for info in threadpool_info():
        name = str(info["internal_api"])
        key = next(k for k in (name, *(f"{name}#{i}" for i in range(2, 100))) if k not in out)
        out[key] = int(info["num_threads"])
    torch = _torch()
    if torch is not None:
        out["torch"] = int(torch.get_num_threads())
    return out
