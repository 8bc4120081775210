"""The box a ``cmd:`` bot runs in (issue 36, B1): a small supervisor process, standard library only.

:class:`~agents.subprocess_agent.SubprocessAgent` starts ``python -I agents/bot_box.py [limits] -- COMMAND...``
instead of the bot itself. The supervisor

* makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): whatever the bot starts stays below the
  supervisor even when it calls ``setsid`` or ``setpgid`` or its parent exits (a "daemon" is re-parented to the
  supervisor, not to init); when the bot exits, when the supervisor is told to stop (SIGTERM, SIGINT, SIGHUP) or
  when its own parent dies, it kills every process below it and waits for them;
* starts the bot with resource limits (``setrlimit``: address space, CPU seconds, processes, open files, file
  size, no core files) and an environment reduced to ``PATH``, ``HOME`` and ``TMPDIR`` (the scratch space),
  ``LANG`` and the variables named with ``--env``;
* gives the bot's standard input and output to the bot alone: once the bot runs, the supervisor's own copies point
  at ``/dev/null``, so the host reads end of file as soon as the bot (and what it started) closes its output;
* where bubblewrap (``bwrap``) runs, starts the bot inside it: no network (a network namespace of its own), its own
  process namespace (everything in it dies with it), and a file system holding only the system folders
  (``/usr``, ``/bin``, ``/lib*``, ``/etc``), the installation of the interpreter that runs the bot (:func:`visible`),
  the bot's folder (read-only) and its scratch space: a ``tmpfs`` of at most ``--scratch-mb`` in all, on ``/tmp``
  (``HOME`` and ``TMPDIR``) and ``/dev/shm``, in the box's own mount namespace, so that it is gone with the box,
  however the host ends. The rest of the file system is read-only. No home folder, no project file, no results
  file;
* without bubblewrap, makes the scratch space a folder of the host's temporary folder, checks its total size while
  the bot runs (over ``--scratch-mb``, the bot is stopped) and removes it when the bot ends, when it is told to stop
  and when its parent dies.

``--sandbox`` ``auto`` (the default) uses bubblewrap where it runs, ``bwrap`` requires it, ``none`` does without.
What the box stops without bubblewrap is written in docs/agent-protocol.md ("The box").

The supervisor exits with the bot's exit code (128 + the signal that killed it); it writes nothing on stdout and
stdin, which belong to the bot; its own problems go to stderr as one line ``bot box: ...`` with code 125.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

PR_SET_CHILD_SUBREAPER = 36
BOX_FAILED = 125
"""The supervisor's exit code when it cannot set up the box (its reason on stderr)."""

SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
PATH = "/usr/local/bin:/usr/bin:/bin"

DEFAULT_MEMORY_MB = 2048
DEFAULT_CPU_SECONDS = 3600
DEFAULT_PROCESSES = 256
DEFAULT_FILES = 256
DEFAULT_FILE_MB = 256
DEFAULT_SCRATCH_MB = 256

SCRATCH, SCRATCH_BESIDE = "/tmp", "/var/tmp"
"""The bot's scratch space in the box (``HOME``, ``TMPDIR``, its working directory when it has no folder), and where
it goes when the bot's folder is the host's ``/tmp`` (:func:`box_scratch`)."""
INSTALL_PARTS = ("bin", "lib", "lib32", "lib64", "libexec", "pyvenv.cfg")
"""The parts of an interpreter's installation prefix that the box shows (:func:`installation`)."""
SIZE_VERSION = (0, 5)
"""The first bubblewrap with ``--size`` (a limit on a ``tmpfs``)."""
CHECK_EVERY = 5
"""Rounds of :func:`_watch` (0.05 s each) between two checks of a host scratch folder's size."""
BOT_IN, BOT_OUT = 3, 4
"""In bubblewrap, the descriptors that carry the bot's stdin and stdout into the box (:data:`HAND_OVER`)."""
HAND_OVER = f'exec "$@" <&{BOT_IN} >&{BOT_OUT} {BOT_IN}<&- {BOT_OUT}>&-'
"""The shell line that starts the bot in the box with its pipes as stdin and stdout. bubblewrap's own processes
(the one that waits outside, the box's init) keep their stdin and stdout but close every other descriptor, so the
pipes reach the bot as descriptors 3 and 4, and bubblewrap gets ``/dev/null``: the bot alone holds them (B4)."""


def bwrap_path() -> str | None:
    """The bubblewrap program, if installed and able to make the namespaces here (checked once per call)."""
    found = shutil.which("bwrap")
    if found is None:
        return None
    probe = [found, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "--die-with-parent", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return found if done.returncode == 0 else None


def _fail(message: str) -> int:
    sys.stderr.write(f"bot box: {message}\n")
    sys.stderr.flush()
    return BOX_FAILED


def _descendants(root: int) -> list[int]:
    """Every live process below ``root`` (from /proc: parent links), deepest last."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def kill_below(root: int, rounds: int = 50) -> None:
    """SIGKILL every process below ``root`` (this process, a subreaper) and reap them, until none is left: a
    process forked while the others die is found on the next round (as an orphan it comes to ``root``)."""
    for _ in range(rounds):
        below = _descendants(root)
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        reaped = _reap()
        if not below and not reaped:
            return
        if below and not reaped:
            time.sleep(0.01)


def _reap() -> bool:
    """Reap every child that has exited; whether one was."""
    any_reaped = False
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return any_reaped
        if pid == 0:
            return any_reaped
        any_reaped = True


def _user_tasks() -> int:
    """Processes and threads of this user now: ``RLIMIT_NPROC`` counts them all, not only the bot's."""
    uid = os.getuid()
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                continue
    return count


def _limits(memory_mb: int, cpu_seconds: int, processes: int, files: int, file_mb: int) -> None:
    """In the bot's process, before it runs (``preexec_fn``): its resource limits (0: that limit is not set)."""
    mib = 1 << 20
    wanted = [
        (resource.RLIMIT_AS, memory_mb * mib),
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_NPROC, processes),
        (resource.RLIMIT_NOFILE, files),
        (resource.RLIMIT_FSIZE, file_mb * mib),
        (resource.RLIMIT_CORE, 0),
    ]
    for which, value in wanted:
        if value <= 0 and which != resource.RLIMIT_CORE:
            continue
        _soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (value, value))


def in_system(path: str) -> bool:
    """Whether ``path`` (absolute) lies in one of the system folders (:data:`SYSTEM_FOLDERS`), which the box shows."""
    return any(path == top or path.startswith(top + "/") for top in SYSTEM_FOLDERS)


def installation(program: str, own: bool = False) -> list[str]:
    """What the interpreter ``program`` (an absolute path) needs in the box, outside the system folders.

    For a program in a ``bin`` folder, the parts of its installation prefix that an interpreter uses
    (:data:`INSTALL_PARTS`: ``bin``, ``lib*``, ``libexec``, a venv's ``pyvenv.cfg``), never the rest of that prefix:
    a venv inside a project shows its interpreter and packages, not the project. For a program elsewhere, the
    program alone. Both the path as named and its real path count (a venv's ``python`` links to its base
    interpreter, a pyenv one say). Paths that do not exist are left out.

    ``own``: ``program`` is the bot's own file (named by its path, no script after it: ``bin/mybot``,
    ``.venv/bin/python -c CODE``); then the prefix's parts are shown only for a venv (``pyvenv.cfg`` in the prefix:
    its interpreter or one of its scripts), so that a bot in a project's ``bin`` folder does not bring the
    project's ``lib``.
    """
    out: list[str] = []
    for path in dict.fromkeys((os.path.abspath(program), os.path.realpath(program))):
        if in_system(path) or not os.path.exists(path):
            continue
        folder = os.path.dirname(path)
        prefix = os.path.dirname(folder)
        installed = not own or os.path.isfile(os.path.join(prefix, "pyvenv.cfg"))
        if os.path.basename(folder) == "bin" and installed:
            out += [part for name in INSTALL_PARTS if os.path.lexists(part := os.path.join(prefix, name))]
        else:
            out.append(path)
    return list(dict.fromkeys(out))


def shebang(program: str) -> str | None:
    """The interpreter named by the ``#!`` line of ``program``, if it is a script with an absolute one that is not
    ``env`` (``#!/usr/bin/env python3`` finds the system's ``python3`` on the box's own ``PATH``)."""
    try:
        with open(program, "rb") as file:
            head = file.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].split()
    if not words or not words[0].startswith(b"/") or os.path.basename(words[0]) == b"env":
        return None
    return os.fsdecode(words[0])


def _inside(path: str, folder: str | None) -> bool:
    return folder is not None and (path == folder or path.startswith(folder.rstrip("/") + "/"))


def visible(argv: Sequence[str], folder: str | None) -> list[str]:
    """The paths outside the system folders that the box shows the bot, read-only: the installation
    (:func:`installation`) of the program that runs it (``python`` in ``python bot.py``, a program found on
    ``PATH``, the bot's own program) and of the interpreter on the ``#!`` line of that program, then the bot's
    folder. Nothing else: not the folder holding the bot's folder, not the working directory."""
    program = argv[0]
    paths = installation(program, own=_inside(program, folder))
    if (script := shebang(program)) is not None:
        paths += installation(script)
    paths = [path for path in paths if not _inside(path, folder)]
    if folder is not None:
        paths.append(folder)
    return list(dict.fromkeys(paths))


def bwrap_version(bwrap: str) -> tuple[int, ...]:
    """The version of bubblewrap ``bwrap`` (``bwrap --version``: ``bubblewrap 0.8.0``); ``()`` if it does not say."""
    try:
        done = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ()
    words = done.stdout.split()
    numbers = words[-1].split(".") if words else []
    return tuple(int(n) for n in numbers) if numbers and all(n.isdigit() for n in numbers) else ()


def scratch_sizes(scratch_mb: int) -> tuple[int, int]:
    """The byte sizes of the box's ``/tmp`` and ``/dev/shm`` for a scratch space of ``scratch_mb`` MiB in all:
    a quarter (at most 64 MiB) to ``/dev/shm``, the rest to ``/tmp``. ``scratch_mb`` must be positive."""
    total = scratch_mb << 20
    shm = min(total // 4, 64 << 20)
    return total - shm, shm


def box_scratch(folder: str | None) -> str:
    """Where the scratch space is in the box: :data:`SCRATCH`, unless the bot's folder is that very path (a bot in
    the host's ``/tmp``: shown there read-only), then :data:`SCRATCH_BESIDE`."""
    return SCRATCH_BESIDE if folder == SCRATCH else SCRATCH


def bwrap_command(
    bwrap: str, argv: Sequence[str], folder: str | None, env: dict[str, str], scratch_mb: int, sized: bool = True
) -> list[str]:
    """The bubblewrap command line that runs ``argv`` in the box (see the module docstring) in ``folder`` (``None``:
    the bot has no folder of its own and runs in its scratch space). ``scratch_mb`` (0: no limit) limits the
    scratch space when ``sized`` (bubblewrap 0.5 or newer: ``--size``)."""
    tmp_size, shm_size = scratch_sizes(scratch_mb) if scratch_mb > 0 and sized else (0, 0)
    cmd = [bwrap, "--die-with-parent", "--new-session", "--unshare-all", "--clearenv"]
    cmd += ["--proc", "/proc", "--dev", "/dev"]
    cmd += (["--size", str(shm_size)] if shm_size else []) + ["--tmpfs", "/dev/shm"]
    scratch = box_scratch(folder)
    cmd += (["--size", str(tmp_size)] if tmp_size else []) + ["--tmpfs", scratch]  # first: the binds below go over it
    for path in SYSTEM_FOLDERS:
        if os.path.exists(path):
            cmd += ["--ro-bind", path, path] if not os.path.islink(path) else ["--symlink", os.readlink(path), path]
    for path in visible(argv, folder):
        if os.path.islink(path) and not os.path.isabs(os.readlink(path)):
            cmd += ["--symlink", os.readlink(path), path]  # a venv's lib64 -> lib
        else:
            cmd += ["--ro-bind", path, path]
    cmd += ["--remount-ro", "/dev", "--remount-ro", "/"]  # only /tmp and /dev/shm can be written
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    cmd += ["--chdir", folder or scratch, "--", "/bin/sh", "-c", HAND_OVER, "sh", *argv]
    return cmd


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bot_box", description="Run a bot in the box (agents/bot_box.py).")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB)
    parser.add_argument("--cpu-seconds", type=int, default=DEFAULT_CPU_SECONDS)
    parser.add_argument("--processes", type=int, default=DEFAULT_PROCESSES)
    parser.add_argument("--files", type=int, default=DEFAULT_FILES)
    parser.add_argument("--file-mb", type=int, default=DEFAULT_FILE_MB)
    parser.add_argument("--scratch-mb", type=int, default=DEFAULT_SCRATCH_MB, help="the scratch space in all")
    parser.add_argument("--folder", default="", help="the bot's own folder (read-only in the sandbox; none if empty)")
    parser.add_argument("--sandbox", choices=["auto", "bwrap", "none"], default="auto")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE to pass to the bot")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command[:1] == ["--"]:
        args.command = args.command[1:]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    if not args.command:
        return _fail("no command to run")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return _fail(f"prctl(PR_SET_CHILD_SUBREAPER) failed: {os.strerror(ctypes.get_errno())}")
    command = list(args.command)
    program = shutil.which(command[0])  # on the caller's PATH: the box's own PATH is the system's
    if program is None:
        return _fail(f"no program {command[0]!r}")
    command[0] = os.path.abspath(program)
    bwrap = bwrap_path() if args.sandbox != "none" else None
    if args.sandbox == "bwrap" and bwrap is None:
        return _fail("--sandbox bwrap: bubblewrap (bwrap) is not installed or cannot make namespaces here")
    folder = os.path.abspath(args.folder) if args.folder else None
    if folder == "/" and bwrap is not None:
        return _fail("the bot's folder is / (the whole file system): put the bot in a folder of its own")
    host_scratch = None if bwrap is not None else tempfile.mkdtemp(prefix="tribune-bot-")
    try:
        return _run(args, command, folder, bwrap, host_scratch)
    finally:
        if host_scratch is not None:
            shutil.rmtree(host_scratch, ignore_errors=True)


def _run(args: argparse.Namespace, command: list[str], folder: str | None, bwrap: str | None, host: str | None) -> int:
    """Start the bot (in bubblewrap, or with the host scratch folder ``host``), watch it, end what it started."""
    scratch = host or box_scratch(folder)
    env = {"PATH": PATH, "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8"}
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    if bwrap is not None:
        version = bwrap_version(bwrap)
        sized = version >= SIZE_VERSION
        if args.scratch_mb > 0 and not sized:  # a warning: the bot runs, its tmpfs still goes with the box
            shown = ".".join(map(str, version)) or "?"
            _fail(f"bubblewrap {shown} has no --size (0.5 or newer): the scratch space has no total limit")
        command = bwrap_command(bwrap, command, folder, env, args.scratch_mb, sized)
    processes = _user_tasks() + args.processes if args.processes > 0 else 0  # the bot's share above the user's
    limits = (args.memory_mb, args.cpu_seconds, processes, args.files, args.file_mb)
    stop = {"signal": 0}

    def on_signal(signum: int, _frame: object) -> None:
        stop["signal"] = signum

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, on_signal)
    parent = os.getppid()
    streams: dict[str, Any] = {}
    if bwrap is not None:
        os.dup2(0, BOT_IN)  # the supervisor keeps no file open: 3 and 4 are free
        os.dup2(1, BOT_OUT)
        streams = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "pass_fds": (BOT_IN, BOT_OUT)}
    try:
        bot = subprocess.Popen(command, env=env, cwd=folder or scratch, preexec_fn=lambda: _limits(*limits), **streams)
    except OSError as exc:
        return _fail(f"cannot start {command[0]!r}: {exc.strerror or exc}")
    finally:
        _give_up_pipes()
    over = _scratch_check(host, args.scratch_mb)
    status = _watch(bot, parent, stop, over)
    kill_below(os.getpid())
    return status


def _give_up_pipes() -> None:
    """Point the supervisor's stdin and stdout at ``/dev/null`` and close its copies for bubblewrap: the bot holds
    the host's pipes alone, so that the host sees end of file when the bot closes its output (issue 42, B4), and the
    bot sees it when the host closes its input."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)
    os.close(null)
    for fd in (BOT_IN, BOT_OUT):
        with contextlib.suppress(OSError):
            os.close(fd)


def folder_bytes(root: str) -> int:
    """The disk space taken by the files and folders below ``root`` (allocated blocks, as ``du``)."""
    total = 0
    for top, folders, files in os.walk(root):
        for name in folders + files:
            try:
                total += os.lstat(os.path.join(top, name)).st_blocks * 512
            except OSError:
                continue
    return total


def _scratch_check(host: str | None, scratch_mb: int) -> Callable[[], str | None]:
    """What :func:`_watch` asks now and then: why to stop the bot, if its host scratch folder is over the limit
    (in bubblewrap the ``tmpfs`` holds the limit itself)."""

    def over() -> str | None:
        if host is None or scratch_mb <= 0 or folder_bytes(host) <= scratch_mb << 20:
            return None
        return f"the bot's scratch folder holds more than {scratch_mb} MiB (its limit, TRIBUNE_BOT_SCRATCH_MB)"

    return over


def _watch(bot: subprocess.Popen[bytes], parent: int, stop: dict[str, int], over: Callable[[], str | None]) -> int:
    """Wait for the bot to exit, for a stop signal, for the supervisor's parent to die, or for ``over()`` to give a
    reason to stop the bot (asked every :data:`CHECK_EVERY` rounds); the exit status."""
    rounds = 0
    while True:
        code = bot.poll()
        if code is not None:
            return code if code >= 0 else 128 - code
        if stop["signal"] or os.getppid() != parent:
            return 128 + (stop["signal"] or signal.SIGKILL)
        rounds += 1
        if rounds % CHECK_EVERY == 0 and (reason := over()) is not None:
            return _fail(reason)
        _reap_others(bot.pid)
        time.sleep(0.05)


def _reap_others(bot: int) -> None:
    """Reap orphans re-parented to the supervisor that have exited (not the bot: ``Popen`` reaps it)."""
    try:
        info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return
    if info is not None and info.si_pid != bot:
        try:
            os.waitpid(info.si_pid, os.WNOHANG)
        except ChildProcessError:
            pass


if __name__ == "__main__":
    sys.exit(main())
