"""Bots in any language: :class:`SubprocessAgent`, the agent spec ``cmd:COMMAND LINE``.

The bot is a program that speaks the protocol ``tribune-agent/1`` (docs/agent-protocol.md) as JSON lines on its
stdin and stdout. Building the agent starts it (in the box of :mod:`agents.bot_box`: a supervisor that ends
everything the bot starts, with limits, a reduced environment and, where bubblewrap runs, a sandbox; and in a session
and process group of its own) and exchanges
``hello``: the bot names the rule sets it plays, which :meth:`Agent.supports` then answers from. ``reset`` sends the
game (seat, rule set, options, seed), ``act`` a decision (the seat's view, the legal choices by id with words, and
on request the observation and mask) and reads back the id chosen; the end of a game is sent as ``game_over``
before the next ``reset`` or at :meth:`close`, which ends the bot and kills its process group.

Nothing a bot does hangs the host: every exchange has a deadline (:data:`START_SECONDS` for starting,
:data:`MOVE_SECONDS` for each call, and a tournament's per-move limit interrupts it earlier), a line longer than
:data:`MAX_LINE` is refused, and the bot's stdout and stderr are read while its stdin is written. A bot that times
out, exits, writes what is not the expected JSON line or too much is killed with its process group, and the call
raises :class:`AgentError` saying what happened (with the end of the bot's stderr); later calls raise it again
until ``reset`` starts the bot afresh for a new game. A choice that is not legal, or ``{"type": "error"}`` from the
bot, is an ``AgentError`` too, and the bot goes on.

Spec: ``cmd:`` followed by the command line, split as a POSIX shell would (:func:`shlex.split`, no shell runs):
``cmd:./mybot --level 3``, ``cmd:node examples/bots/random_bot.js``, ``cmd:python bot.py --name='my bot'``. In a
shell, quote the whole spec once (``'cmd:./mybot --level 3'``). Commas, ``=`` and colons belong to the command.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from time import monotonic, sleep

from agents import bot_box, protocol
from agents.base import Agent, AgentError
from agents.protocol import ProtocolError, shown
from agents.specs import register_agent
from tribune_env.engine.actions import Action
from tribune_env.engine.config import GameConfig
from tribune_env.engine.notation import action_text
from tribune_env.engine.view import PlayerView
from tribune_env.envs.infoset import InfoSet

__all__ = ["MAX_LINE", "MOVE_SECONDS", "START_SECONDS", "BotBox", "BotFailure", "BoxView", "SubprocessAgent"]

#: the longest line (bytes, without its newline) a bot may write
MAX_LINE = 1 << 20
#: seconds a bot may take to start and answer ``hello``
START_SECONDS = 30.0
#: seconds a bot may take to answer ``reset`` or ``act`` (a tournament's per-move limit applies first)
MOVE_SECONDS = 60.0
#: seconds a bot may take to exit after ``bye`` before its process group is killed
GRACE_SECONDS = 1.0
#: how much of the bot's stderr is kept for error messages (the end of it)
_STDERR_TAIL = 2000
_CHUNK = 1 << 16
#: seconds a message that is not answered (game_over, bye) may take to be written
_SEND_SECONDS = 5.0


BOX_SCRIPT = str(Path(__file__).with_name("bot_box.py"))
#: seconds the box's supervisor has to kill what the bot started, once told to stop, before its group is killed
_BOX_STOP_SECONDS = 3.0


@dataclass(frozen=True)
class BotBox:
    """How a bot is boxed (agents/bot_box.py; docs/agent-protocol.md, "The box"): its limits and the sandbox.

    ``sandbox``: ``auto`` (bubblewrap where it runs), ``bwrap`` (required) or ``none``. A limit of 0 is not set.
    ``scratch_mb``: the bot's scratch space in all (issue 42, B2). ``folder``: the bot's folder, named by the user,
    instead of the one its command line gives (:func:`bot_folder`); a relative one is taken from the host's working
    directory. :meth:`from_env` reads ``TRIBUNE_BOT_BOX`` (``off`` runs bots unboxed, as before issue 36; ``auto``,
    ``bwrap``, ``none``), ``TRIBUNE_BOT_MEMORY_MB``, ``TRIBUNE_BOT_CPU_SECONDS``, ``TRIBUNE_BOT_PROCESSES``,
    ``TRIBUNE_BOT_FILES``, ``TRIBUNE_BOT_SCRATCH_MB`` and ``TRIBUNE_BOT_FOLDER``.
    """

    sandbox: str = "auto"
    memory_mb: int = 2048
    cpu_seconds: int = 3600
    processes: int = 256
    files: int = 256
    scratch_mb: int = 256
    folder: str | None = None

    @classmethod
    def from_env(cls) -> BotBox | None:
        mode = os.environ.get("TRIBUNE_BOT_BOX", "auto").strip().lower() or "auto"
        if mode == "off":
            return None
        if mode not in ("auto", "bwrap", "none"):
            raise AgentError(f"TRIBUNE_BOT_BOX: expected off, auto, bwrap or none, got {mode!r}")
        numbers = {}
        for field in ("memory_mb", "cpu_seconds", "processes", "files", "scratch_mb"):
            raw = os.environ.get(f"TRIBUNE_BOT_{field.upper()}", "").strip()
            if raw:
                if not raw.isdigit():
                    raise AgentError(f"TRIBUNE_BOT_{field.upper()}: expected a whole number, got {raw!r}")
                numbers[field] = int(raw)
        folder = os.environ.get("TRIBUNE_BOT_FOLDER", "").strip() or None
        if folder is not None and not Path(folder).is_dir():
            raise AgentError(f"TRIBUNE_BOT_FOLDER: {folder!r} is not a folder")
        return cls(mode, **numbers, folder=folder)

    def command(self, argv: Sequence[str], folder: str | None) -> list[str]:
        """The supervisor's command line that runs ``argv`` in this box, in ``folder`` (``None``: none of its own;
        the bot runs in its scratch space)."""
        return [
            sys.executable,
            "-I",
            BOX_SCRIPT,
            f"--sandbox={self.sandbox}",
            f"--memory-mb={self.memory_mb}",
            f"--cpu-seconds={self.cpu_seconds}",
            f"--processes={self.processes}",
            f"--files={self.files}",
            f"--scratch-mb={self.scratch_mb}",
            f"--folder={folder or ''}",
            "--",
            *argv,
        ]


def bot_folder(argv: Sequence[str], cwd: str | None) -> tuple[list[str], str | None]:
    """The bot's folder and ``argv`` with the file that names it made absolute (the bot runs in its folder).

    The folder is that of the first argument after the program that names an existing file (the script of
    ``python bot.py``, ``node bot.js``), else that of the program when given as a path (``./mybot``,
    ``build/mybot``, not following its symbolic links), else ``None``: a program found on ``PATH`` with no script
    has no folder of its own (issue 42, B3: never the working directory, a project's root with its results and
    games files). ``cwd`` (default: the working directory) is where relative paths start.
    """
    base = Path(cwd or os.getcwd())
    out = list(argv)
    candidates = [i for i in range(1, len(argv)) if not argv[i].startswith("-")]
    if "/" in argv[0]:
        candidates.append(0)
    for i in candidates:
        path = base / argv[i]
        with contextlib.suppress(OSError):  # not a path at all (the code of ``python -c``: a name too long)
            if path.is_file():
                # the program keeps the name it was given (a venv's python finds its venv by it), a script is
                # taken where it really is
                found = Path(os.path.abspath(path)) if i == 0 else path.resolve()
                out[i] = str(found)
                return out, str(found.parent)
    return out, None


@dataclass(frozen=True)
class BoxView:
    """What a boxed bot sees (``tribune bot-check`` shows it): whether bubblewrap runs (``sandboxed``), the bot's
    folder (``None``: none of its own), the other paths shown to it read-only besides the system folders
    (``visible``, :func:`agents.bot_box.visible`; empty without bubblewrap, where it sees all the user can) and its
    scratch space in MiB (0: no limit)."""

    sandboxed: bool
    folder: str | None
    visible: tuple[str, ...]
    scratch_mb: int


def box_view(argv: Sequence[str], cwd: str | None, box: BotBox) -> BoxView:
    """The :class:`BoxView` of the bot ``argv`` started from ``cwd`` in ``box``, as the supervisor will make it."""
    absolute, folder = bot_folder(argv, cwd)
    if box.folder is not None:
        folder = str(Path(cwd or os.getcwd(), box.folder).resolve())
    program = shutil.which(absolute[0])
    if program is not None:
        absolute[0] = os.path.abspath(program)
    sandboxed = box.sandbox != "none" and bot_box.bwrap_path() is not None
    shown_paths = tuple(p for p in bot_box.visible(absolute, folder) if p != folder) if sandboxed else ()
    return BoxView(sandboxed, folder, shown_paths, box.scratch_mb)


class BotFailure(Exception):
    """The bot process failed an exchange (timed out, exited, wrote too long a line); the message says how."""


def _kill_group(process: subprocess.Popen[bytes], boxed: bool = False) -> None:
    """End the bot and everything it started, then reap it; safe to call twice. Boxed, its supervisor is told to
    stop first (SIGTERM: it kills every process below it, wherever their session or group), then the process group
    is killed. The bot is reaped only here, after the kill: until then its pid, its group's id, cannot be reused."""
    if process.returncode is None:
        if boxed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired, ChildProcessError):
                process.wait(timeout=_BOX_STOP_SECONDS)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired, ChildProcessError):
            process.wait(timeout=5)


def _exit_status(process: subprocess.Popen[bytes]) -> str | None:
    """How the bot ended if it has exited ("exited with code 3", "was killed by SIGSEGV"), without reaping it."""
    if process.returncode is not None:
        return f"exited with code {process.returncode}"
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return "exited"
    if info is None:
        return None
    if info.si_code == os.CLD_EXITED:
        return f"exited with code {info.si_status}"
    try:
        return f"was killed by {signal.Signals(info.si_status).name}"
    except ValueError:
        return f"was killed by signal {info.si_status}"


class BotProcess:
    """A bot program in its own session, spoken to by lines with deadlines (see the module docstring)."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None, box: BotBox | None = None) -> None:
        self.argv = list(argv)
        command = self.argv
        if box is not None:  # the supervisor makes the scratch space and removes it (issue 42, B2)
            if not (shutil.which(self.argv[0]) or Path(cwd or ".", self.argv[0]).is_file()):
                raise BotFailure(f"cannot start it: No such file or directory{self._hint()}")
            absolute, folder = bot_folder(self.argv, cwd)
            if box.folder is not None:
                folder = str(Path(cwd or os.getcwd(), box.folder).resolve())
            command = box.command(absolute, folder)
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as exc:
            raise BotFailure(f"cannot start it: {exc.strerror or exc}{self._hint()}") from None
        self._finalizer = weakref.finalize(self, _kill_group, self.process, box is not None)
        assert self.process.stdin is not None and self.process.stdout is not None and self.process.stderr is not None
        self._stdin, self._stdout, self._stderr = self.process.stdin, self.process.stdout, self.process.stderr
        for stream in (self._stdin, self._stdout, self._stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._err = bytearray()

    def _hint(self) -> str:
        if len(self.argv) == 1 and " " in self.argv[0]:
            return " (the command line was quoted as one word: quote only arguments that contain spaces)"
        return ""

    @property
    def pid(self) -> int:
        return self.process.pid

    def stderr_tail(self) -> str:
        """The end of what the bot wrote on stderr, control characters escaped ('' if nothing)."""
        text = bytes(self._err[-_STDERR_TAIL:]).decode("utf-8", "replace").strip()
        return "".join(c if c.isprintable() or c == "\n" else f"\\x{ord(c):02x}" for c in text)

    def exchange(self, data: bytes, deadline: float, answer: bool = True) -> bytes | None:
        """Write ``data`` to the bot and, with ``answer``, return its next line (without the newline); reads its
        stdout and stderr meanwhile. Raises :class:`BotFailure` past ``deadline`` (monotonic), when the bot exits,
        closes its stdin or writes a line longer than :data:`MAX_LINE`."""
        self._unasked()
        pending = memoryview(data)
        if pending:
            self._selector.register(self._stdin, selectors.EVENT_WRITE)
        try:
            while True:
                if answer and not pending:
                    line = self._line()
                    if line is not None:
                        return line
                elif not pending:
                    return None
                timeout = deadline - monotonic()
                if timeout <= 0:
                    raise BotFailure("did not answer in time" if not pending else "did not read its input in time")
                for key, _ in self._selector.select(timeout):
                    if key.fileobj is self._stdin:
                        pending = self._write(pending)
                    else:
                        self._read(key.fileobj is self._stdout)
        finally:
            if self._registered(self._stdin):
                self._selector.unregister(self._stdin)

    def _unasked(self) -> None:
        """Raise :class:`BotFailure` if the bot wrote on stdout since its last answer (a second answer, a stray
        print): answers would be out of step."""
        for key, _ in self._selector.select(0):
            self._read(key.fileobj is self._stdout)
        if self._buffer.strip():
            raise BotFailure(f"wrote {shown(bytes(self._buffer[:80]))} without being asked (one line per answer)")
        if b"\n" in self._buffer:
            self._buffer.clear()  # blank lines only

    def _registered(self, stream: object) -> bool:
        try:
            self._selector.get_key(stream)  # type: ignore[arg-type]
        except KeyError:
            return False
        return True

    def _write(self, pending: memoryview) -> memoryview:
        try:
            written = os.write(self._stdin.fileno(), pending[:_CHUNK])
        except BlockingIOError:
            return pending
        except (BrokenPipeError, ConnectionResetError):
            raise BotFailure(self._gone("closed its input")) from None
        rest = pending[written:]
        if not rest:
            self._selector.unregister(self._stdin)
        return rest

    def _read(self, stdout: bool) -> None:
        stream = self._stdout if stdout else self._stderr
        try:
            chunk = os.read(stream.fileno(), _CHUNK)
        except BlockingIOError:
            return
        if stdout:
            if not chunk:
                raise BotFailure(self._gone("closed its output"))
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE and b"\n" not in self._buffer:
                raise BotFailure(f"wrote a line longer than {MAX_LINE} bytes")
        elif chunk:
            self._err += chunk
            del self._err[: -4 * _STDERR_TAIL]
        else:
            self._selector.unregister(self._stderr)

    def _line(self) -> bytes | None:
        """The next line that is not blank, if a whole one was read (without its newline)."""
        while (end := self._buffer.find(b"\n")) >= 0:
            if end > MAX_LINE:
                raise BotFailure(f"wrote a line longer than {MAX_LINE} bytes")
            line = bytes(self._buffer[:end]).strip()
            del self._buffer[: end + 1]
            if line:
                return line
        if len(self._buffer) > MAX_LINE:
            raise BotFailure(f"wrote a line longer than {MAX_LINE} bytes")
        return None

    def _gone(self, what: str) -> str:
        """Why the bot stopped talking: how it ended if it exited within a moment, else ``what`` it did."""
        end = monotonic() + 0.5
        while (status := _exit_status(self.process)) is None and monotonic() < end:
            sleep(0.005)
        return status or what

    def close_input(self) -> None:
        """End the bot's input (end of file), as when the host dies."""
        with contextlib.suppress(OSError):
            self._stdin.close()

    def stop(self, grace: float) -> bool:
        """End the bot: close its stdin (end of file), give it ``grace`` seconds to exit, kill its process group
        (boxed: everything below its supervisor). Whether it exited by itself within ``grace``."""
        self.close_input()
        end = monotonic() + grace
        while grace > 0 and monotonic() < end and _exit_status(self.process) is None:
            sleep(0.01)
        exited = _exit_status(self.process) is not None
        self._finalizer()  # kills the group, reaps the bot
        self._selector.close()
        for stream in (self._stdout, self._stderr):
            with contextlib.suppress(OSError):
                stream.close()
        return exited


class SubprocessAgent(Agent):
    """An agent played by a bot program over the protocol ``tribune-agent/1`` (see the module docstring).

    ``command``: the command line (split with :func:`shlex.split`) or its argument list. ``start_seconds``,
    ``move_seconds``: the deadlines of starting and of each call; ``grace``: how long :meth:`close` waits for
    the bot to exit. ``box``: the box the bot runs in (:class:`BotBox`; ``True``: as ``TRIBUNE_BOT_BOX`` says,
    boxed unless it is ``off``; ``False`` or ``None``: unboxed). Building the agent starts the bot;
    :class:`AgentError` if it cannot start or fails ``hello``.
    """

    name = "cmd"

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        *,
        start_seconds: float = START_SECONDS,
        move_seconds: float = MOVE_SECONDS,
        grace: float = GRACE_SECONDS,
        cwd: str | None = None,
        box: BotBox | bool | None = True,
    ) -> None:
        super().__init__(seed)
        self.box = (BotBox.from_env() if box is True else None) if isinstance(box, bool) else box
        try:
            argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        except ValueError as exc:
            raise AgentError(f"cmd: cannot split the command line {command!r}: {exc}") from None
        if not argv:
            raise AgentError(
                "cmd: the command line is empty; write cmd:COMMAND, e.g. cmd:python examples/bots/random_bot.py"
            )
        self.argv = argv
        self.command = shlex.join(argv)
        self.start_seconds, self.move_seconds, self.grace, self.cwd = start_seconds, move_seconds, grace, cwd
        self.bot_name = ""
        self.observation = False
        self._bot: BotProcess | None = None
        self._failed: str | None = None  # why the bot was stopped; calls raise it until reset starts a new one
        self._busy = False  # an exchange was interrupted (a tournament's alarm): the stream is out of step
        self._game = 0
        self._decision = 0
        self._info: InfoSet | None = None  # of the last decision: its game gives the result at game_over
        self._in_game = False
        self._start()

    # -- the bot process --------------------------------------------------------------------------

    def _start(self) -> None:
        self._failed = None
        self._busy = False
        try:
            self._bot = BotProcess(self.argv, self.cwd, self.box)
        except BotFailure as exc:
            raise AgentError(f"bot `{self.command}`: {exc}") from None
        try:
            hello = self._exchange(protocol.hello_message(), "hello", self.start_seconds)
            self.bot_name, self.rule_sets, self.observation = protocol.read_hello(hello)
        except ProtocolError as exc:
            raise self._fail(str(exc)) from None
        except AgentError:
            self._stop(grace=0.0)
            raise

    @property
    def pid(self) -> int | None:
        """The bot's process id (its process group's id too), ``None`` once it is stopped."""
        return self._bot.pid if self._bot is not None else None

    def _fail(self, problem: str) -> AgentError:
        """Stop the bot after ``problem``; the error to raise (later calls raise it too, until ``reset``)."""
        bot = self._bot
        tail = bot.stderr_tail() if bot is not None else ""
        message = f"bot `{self.command}`: {problem}"
        if tail:
            message += f"; its stderr ends with: {tail[-500:]}"
        self._failed = message
        self._stop(grace=0.0)
        return AgentError(message)

    def _stop(self, grace: float) -> bool:
        bot, self._bot = self._bot, None
        return bot.stop(grace) if bot is not None else False

    def _exchange(self, message: dict[str, object], expected: str, seconds: float) -> dict[str, object]:
        """Send ``message`` and return the bot's answer of type ``expected``; :class:`AgentError` otherwise (an
        ``error`` message from the bot included)."""
        self._check()
        bot = self._bot
        assert bot is not None
        self._busy = True
        try:
            line = bot.exchange(protocol.encode(message), monotonic() + seconds)
            assert line is not None
            answer = protocol.decode(line, expected)
        except (BotFailure, ProtocolError) as exc:
            raise self._fail(str(exc)) from None
        self._busy = False
        if answer.get("type") == "error":
            raise AgentError(f"bot `{self.command}` reports an error: {shown(answer.get('message'), 300)}")
        return answer

    def _send(self, message: dict[str, object]) -> None:
        """Send a message the bot does not answer (best effort: a bot that is gone is stopped quietly)."""
        if self._bot is None or self._failed is not None or self._busy:
            return
        try:
            self._bot.exchange(protocol.encode(message), monotonic() + min(self.move_seconds, _SEND_SECONDS), False)
        except BotFailure as exc:
            self._fail(str(exc))

    def _check(self) -> None:
        if self._busy and self._failed is None:
            self._fail("an earlier call was interrupted (a time limit) before the bot answered")
        if self._failed is not None:
            raise AgentError(f"{self._failed} (the bot was stopped)")
        if self._bot is None:
            raise AgentError(f"bot `{self.command}`: the agent is closed")

    # -- the agent --------------------------------------------------------------------------------

    def reset(self, seat: int, config: GameConfig, seed: int) -> None:
        """Start a game: ``game_over`` for the previous one, a fresh bot if the last one failed or was closed, then
        ``reset``; :class:`AgentError` when the bot does not play ``config`` or fails."""
        super().reset(seat, config, seed)
        self._end_game()
        if self._failed is not None or self._busy or self._bot is None:
            self._stop(grace=0.0)
            self._start()
            if (problem := self.supports(config)) is not None:
                raise AgentError(problem)
        self._game += 1
        self._decision = 0
        self._exchange(protocol.reset_message(self._game, seat, config, seed), "ready", self.move_seconds)
        self._in_game = True

    def act(self, view: PlayerView, legal: Sequence[Action], info: InfoSet | None = None) -> Action:
        """The bot's choice among ``legal`` for ``view.pending`` (by its id, :func:`action_text`)."""
        self._check()
        self._decision += 1
        self._info = info
        message = protocol.decision_message(
            self._game, self._decision, view, legal, info, self.config, self.observation
        )
        answer = self._exchange(message, "action", self.move_seconds)
        chosen = answer.get("id")
        for action in legal:
            if action_text(action) == chosen:
                return action
        ids = ", ".join(action_text(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
        raise AgentError(f"bot `{self.command}` chose {shown(chosen)}, not one of the {len(legal)} legal ids ({ids})")

    def _end_game(self) -> None:
        """Send ``game_over`` for the game being played, if any, with its result when it reached its end."""
        if not self._in_game:
            return
        self._in_game = False
        info, self._info = self._info, None
        game = getattr(info, "_game", None)  # the game's end is public to every seat (its result, nothing hidden)
        result = protocol.result_to_json(game) if game is not None else None
        self._send(protocol.game_over_message(self._game, result))

    def close(self) -> None:
        """``game_over`` for a game being played, ``bye``, then end the bot (:data:`GRACE_SECONDS`) and kill its
        process group. Safe to call more than once."""
        if self._bot is None:
            return
        self._end_game()
        self._send({"type": "bye"})
        self._stop(self.grace if self._failed is None and not self._busy else 0.0)

    def bye(self, wait: float) -> bool:
        """``game_over`` for a game being played and ``bye``, then wait up to ``wait`` seconds for the bot to exit
        by itself, its input still open (``bot-check``); the bot is stopped either way. Whether it exited."""
        bot = self._bot
        if bot is None:
            return False
        self._end_game()
        self._send({"type": "bye"})
        end = monotonic() + wait
        while monotonic() < end and _exit_status(bot.process) is None:
            sleep(0.01)
        exited = _exit_status(bot.process) is not None
        self._stop(0.0)
        return exited

    def end_input(self, wait: float) -> bool:
        """Close the bot's input (as when the host dies), wait up to ``wait`` seconds for it to exit by itself,
        then stop it (``bot-check``). Whether it exited."""
        bot = self._bot
        if bot is None:
            return False
        self._in_game = False
        bot.close_input()
        end = monotonic() + wait
        while monotonic() < end and _exit_status(bot.process) is None:
            sleep(0.01)
        exited = _exit_status(bot.process) is not None
        self._stop(0.0)
        return exited

    def box_view(self) -> BoxView | None:
        """What the bot sees in its box (:class:`BoxView`); ``None`` when it runs unboxed."""
        return box_view(self.argv, self.cwd, self.box) if self.box is not None else None

    def notify(self, message: dict[str, object]) -> None:
        """Send the bot a message it does not answer (``bot-check`` sends one of a type it cannot know)."""
        self._send(message)


def _make(params: dict[str, str], seed: int | None) -> Agent:
    command = params.pop("path", "")
    if params or not command.strip():
        raise AgentError("agent 'cmd' needs a command line: cmd:COMMAND, e.g. cmd:python examples/bots/random_bot.py")
    return SubprocessAgent(command, seed)


register_agent("cmd", _make)
