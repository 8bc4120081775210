"""The box a ``cmd:`` bot runs in (issue 36, B1): a small supervisor process, standard library only.

:class:`~agents.subprocess_agent.SubprocessAgent` starts ``python -I agents/bot_box.py [limits] -- COMMAND...``
instead of the bot itself. The supervisor

* makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): whatever the bot starts stays below the
  supervisor even when it calls ``setsid`` or ``setpgid`` or its parent exits (a "daemon" is re-parented to the
  supervisor, not to init); when the bot exits, when the supervisor is told to stop (SIGTERM, SIGINT, SIGHUP) or
  when its own parent dies, it kills every process below it and waits for them;
* starts the bot with resource limits (``setrlimit``: address space, CPU seconds, processes, open files, file
  size, no core files) and an environment reduced to ``PATH``, ``HOME`` and ``TMPDIR`` (the scratch folder),
  ``LANG`` and the variables named with ``--env``;
* where bubblewrap (``bwrap``) runs, starts the bot inside it: no network (a network namespace of its own), its own
  process namespace (everything in it dies with it), and a file system holding only the system folders
  (``/usr``, ``/bin``, ``/lib*``, ``/etc``), the interpreter the command names, the bot's folder (read-only) and the
  scratch folder (read-write): no home folder, no other project file, no results file.

``--sandbox`` ``auto`` (the default) uses bubblewrap where it runs, ``bwrap`` requires it, ``none`` does without.
What the box stops without bubblewrap is written in docs/agent-protocol.md ("The box").

The supervisor exits with the bot's exit code (128 + the signal that killed it); it writes nothing on stdout and
stdin, which belong to the bot; its own problems go to stderr as one line ``bot box: ...`` with code 125.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

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


def _prefix(program: str) -> str | None:
    """The installation folder of ``program`` (found on the host's PATH): the parent of its ``bin`` folder."""
    found = shutil.which(program)
    if found is None:
        return None
    folders = {
        os.path.dirname(os.path.dirname(os.path.abspath(found))),
        os.path.dirname(os.path.dirname(os.path.realpath(found))),
    }
    return sorted(folders, key=len)[0]


def bwrap_command(
    bwrap: str, argv: Sequence[str], folder: str, scratch: str, cwd: str, env: dict[str, str]
) -> list[str]:
    """The bubblewrap command line that runs ``argv`` in the box (see the module docstring)."""
    cmd = [bwrap, "--die-with-parent", "--new-session", "--unshare-all", "--clearenv"]
    cmd += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]  # first: the folders below bind over /tmp
    for path in SYSTEM_FOLDERS:
        if os.path.exists(path):
            cmd += ["--ro-bind", path, path] if not os.path.islink(path) else ["--symlink", os.readlink(path), path]
    visible = [folder]
    prefix = _prefix(argv[0])
    for extra in (prefix, sys.prefix, sys.base_prefix):
        if extra and extra not in SYSTEM_FOLDERS and extra != "/" and not extra.startswith("/usr/"):
            visible.append(extra)
    for path in dict.fromkeys(visible):
        if os.path.isdir(path):
            cmd += ["--ro-bind", path, path]
    cmd += ["--bind", scratch, scratch]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    cmd += ["--chdir", cwd, "--", *argv]
    return cmd


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bot_box", description="Run a bot in the box (agents/bot_box.py).")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB)
    parser.add_argument("--cpu-seconds", type=int, default=DEFAULT_CPU_SECONDS)
    parser.add_argument("--processes", type=int, default=DEFAULT_PROCESSES)
    parser.add_argument("--files", type=int, default=DEFAULT_FILES)
    parser.add_argument("--file-mb", type=int, default=DEFAULT_FILE_MB)
    parser.add_argument("--folder", default="", help="the bot's own folder (read-only in the sandbox)")
    parser.add_argument("--scratch", default="", help="the folder the bot may write")
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
    folder = os.path.abspath(args.folder or os.getcwd())
    scratch = os.path.abspath(args.scratch or folder)
    env = {"PATH": PATH, "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8"}
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    command = list(args.command)
    program = shutil.which(command[0])  # on the caller's PATH: the box's own PATH is the system's
    if program is None:
        return _fail(f"no program {command[0]!r}")
    command[0] = os.path.abspath(program)
    bwrap = bwrap_path() if args.sandbox != "none" else None
    if args.sandbox == "bwrap" and bwrap is None:
        return _fail("--sandbox bwrap: bubblewrap (bwrap) is not installed or cannot make namespaces here")
    if bwrap is not None:
        command = bwrap_command(bwrap, command, folder, scratch, folder, env)
    processes = _user_tasks() + args.processes if args.processes > 0 else 0  # the bot's share above the user's
    limits = (args.memory_mb, args.cpu_seconds, processes, args.files, args.file_mb)
    stop = {"signal": 0}

    def on_signal(signum: int, _frame: object) -> None:
        stop["signal"] = signum

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, on_signal)
    parent = os.getppid()
    try:
        bot = subprocess.Popen(command, env=env, cwd=folder, preexec_fn=lambda: _limits(*limits))
    except OSError as exc:
        return _fail(f"cannot start {command[0]!r}: {exc.strerror or exc}")
    status = _watch(bot, parent, stop)
    kill_below(os.getpid())
    return status


def _watch(bot: subprocess.Popen[bytes], parent: int, stop: dict[str, int]) -> int:
    """Wait for the bot to exit, for a stop signal, or for the supervisor's parent to die; the exit status."""
    while True:
        code = bot.poll()
        if code is not None:
            return code if code >= 0 else 128 - code
        if stop["signal"] or os.getppid() != parent:
            return 128 + (stop["signal"] or signal.SIGKILL)
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
