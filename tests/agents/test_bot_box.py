"""Bots in a box (issue 36, B1; agents/bot_box.py, docs/agent-protocol.md "The box").

A ``cmd:`` bot and everything it starts end with its game, whatever the helpers do (fork, ``setsid``,
``setpgid(0, 0)``, a daemon's double fork), in one process and in worker processes; its limits refuse a 4 GB
allocation; where bubblewrap runs it reads no file outside its folder, writes only its scratch folder and opens no
network connection. Processes are found by a token on their command line (in the sandbox a bot's process ids are
those of its own namespace), so a leftover is seen wherever it runs.

Issue 42: the sandbox shows a bot its folder, its interpreter's installation and the system, never the project
around them (B3); a bot that closes its output fails at once, in and out of the box (B4); the scratch space has a
total limit and nothing of it is left after a ``kill -9`` of the host (B2).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.base import AgentError
from agents.bot_box import bwrap_path
from agents.subprocess_agent import BotBox, SubprocessAgent
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition
from tribune_env.engine.config import GameConfig
from tribune_env.engine.game import Game
from tribune_env.envs.infoset import InfoSet

PYTHON = sys.executable

BOT = r"""
import errno, json, os, socket, sys, time

mode, token = sys.argv[1], sys.argv[2]

def sleep_forever():
    while True:
        time.sleep(60)

def helper(how):
    if os.fork() == 0:
        if how == "setsid":
            os.setsid()
        elif how == "setpgid":
            os.setpgid(0, 0)
        elif how == "grandchild":  # a daemon: fork again, in a new session, and let the middle process exit
            if os.fork() != 0:
                os._exit(0)
            os.setsid()
        sleep_forever()

def probe(what, arg):
    try:
        if what == "read":
            return "ok:" + open(arg).read().strip()
        if what == "write":
            open(arg, "w").write("x")
            return "ok"
        if what == "scratch":
            path = os.path.join(os.environ["HOME"], "note.txt")
            open(path, "w").write("x")
            return "ok"
        if what == "socket":
            socket.create_connection(("127.0.0.1", int(arg)), timeout=2).close()
            return "ok"
        if what == "alloc":
            block = bytearray(4 << 30)
            return "ok:%d" % len(block)
        if what == "env":
            return "ok:" + ",".join(sorted(os.environ))
        if what == "list":
            return "ok:" + ",".join(sorted(os.listdir(arg)))
        if what == "import":
            return "ok:" + __import__(arg).VALUE
        if what in ("fill", "fill-wait"):  # 1 MiB files in its scratch space, up to arg MiB
            written = 0
            try:
                for i in range(int(arg)):
                    with open(os.path.join(os.environ["HOME"], "%s-%d" % (token, i)), "wb") as f:
                        f.write(os.urandom(1 << 20))
                    written += 1
            except OSError as exc:
                return "refused:%s:%d" % (errno.errorcode.get(exc.errno, "?"), written)
            if what == "fill-wait":
                sleep_forever()
            return "ok:%d:%s" % (written, os.environ["HOME"])
    except MemoryError:
        return "refused:MemoryError"
    except OSError as exc:
        return "refused:%s" % type(exc).__name__
    return "?"

name = "bot"
if mode in ("fork", "setsid", "setpgid", "grandchild"):
    helper(mode)
else:
    name = probe(mode, sys.argv[3] if len(sys.argv) > 3 else "")
for line in sys.stdin:
    m = json.loads(line)
    t = m["type"]
    if t == "hello":
        out = {"type": "hello", "protocol": "tribune-agent/1", "name": name, "rules": ["base", "expansion", "brutii"]}
    elif t == "reset":
        out = {"type": "ready"}
    elif t == "act":
        if mode == "closed":  # closes its output and lives on: the host must notice at once (B4)
            os.close(1)  # sys.stdout.close() leaves the descriptor open
            sleep_forever()
        out = {"type": "action", "id": m["legal"][0]["id"]}
    elif t == "bye":
        break
    else:
        continue
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""

HELPERS = ["fork", "setsid", "setpgid", "grandchild"]
NO_BWRAP = "bubblewrap (bwrap) is not installed or cannot make namespaces here (apt-get install bubblewrap)"


def with_token(token: str) -> list[int]:
    """The processes whose command line holds ``token``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                stat = Path(f"/proc/{entry}/stat").read_text()
                if token.encode() in cmdline and stat.rpartition(")")[2].split()[0] not in ("Z", "X"):
                    found.append(int(entry))
    return found


def left_behind(token: str, seconds: float = 10.0) -> list[int]:
    end = time.monotonic() + seconds
    while (pids := with_token(token)) and time.monotonic() < end:
        time.sleep(0.05)
    return pids


@pytest.fixture
def token() -> Iterator[str]:
    value = f"tribune-box-test-{uuid.uuid4().hex}"
    yield value
    for pid in with_token(value):  # never leave a process of a failed test behind
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def bot(tmp_path: Path) -> Path:
    folder = tmp_path / "bot"
    folder.mkdir()
    script = folder / "box_bot.py"
    script.write_text(BOT)
    return script


# --- everything it starts ends with its game ---------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("how", HELPERS)
def test_nothing_a_bot_starts_outlives_its_games(bot: Path, token: str, tmp_path: Path, how: str, workers: int) -> None:
    spec = f"cmd:{PYTHON} {bot} {how} {token}"
    d = TournamentDefinition.create((spec, "random"), players=2, games=2, round_limit=2, time_limit=30)
    records = run_tournament(d, tmp_path / "r.sqlite", workers=workers, progress=False)
    assert len(records) == 2 and all(r.forfeit is None for r in records)
    assert left_behind(token) == []


@pytest.mark.parametrize("sandbox", ["auto", "none"])  # none: the subreaper alone finds the helpers
@pytest.mark.parametrize("how", HELPERS)
def test_close_ends_every_helper(bot: Path, token: str, how: str, sandbox: str) -> None:
    agent = SubprocessAgent([PYTHON, str(bot), how, token], box=BotBox(sandbox=sandbox))
    deadline = time.monotonic() + 10
    while len(with_token(token)) < 2 and time.monotonic() < deadline:  # the bot and its helper
        time.sleep(0.05)
    assert len(with_token(token)) >= 2
    agent.close()
    assert left_behind(token) == []


def test_without_the_box_a_setsid_helper_outlived_its_bot(bot: Path, token: str) -> None:
    """B1 as found: the process group alone (``TRIBUNE_BOT_BOX=off``) misses a helper in a session of its own."""
    agent = SubprocessAgent([PYTHON, str(bot), "setsid", token], box=None)
    deadline = time.monotonic() + 10
    while len(with_token(token)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    agent.close()
    time.sleep(0.5)
    assert with_token(token), "the unboxed helper is expected to survive (the finding this box fixes)"


def test_a_killed_worker_takes_its_bot_and_helpers_with_it(bot: Path, token: str) -> None:
    """The supervisor watches its parent: when the process that runs the game dies, the box empties."""
    argv = [PYTHON, str(bot), "setsid", token]
    code = (
        f"from agents.subprocess_agent import BotBox, SubprocessAgent\nSubprocessAgent({argv!r}, box=BotBox('none'))\n"
    )
    host = subprocess.Popen([PYTHON, "-c", code + "import time; time.sleep(60)"], cwd=Path(__file__).parents[2])
    try:
        deadline = time.monotonic() + 20
        while len(with_token(token)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(with_token(token)) >= 2
        host.kill()
        host.wait()
        assert left_behind(token) == []
    finally:
        host.kill()


# --- limits and the sandbox ----------------------------------------------------------------------------------


def probe(
    bot: Path, *args: str, box: BotBox | None = None, argv: list[str] | None = None, cwd: str | None = None
) -> str:
    """The bot's name: what its probe found (``argv``: the command line before the probe's arguments)."""
    agent = SubprocessAgent([*(argv or [PYTHON, str(bot)]), *args], box=box or BotBox(), cwd=cwd)
    try:
        return agent.bot_name
    finally:
        agent.close()


def test_a_4_gb_allocation_is_refused(bot: Path, token: str) -> None:
    assert probe(bot, "alloc", token) == "refused:MemoryError"
    assert probe(bot, "alloc", token, box=BotBox(sandbox="none")) == "refused:MemoryError"


def test_the_environment_holds_only_what_the_protocol_needs(
    bot: Path, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIBUNE_SECRET_TOKEN", "do-not-pass")
    names = probe(bot, "env", token, box=BotBox(sandbox="none")).removeprefix("ok:").split(",")
    assert "TRIBUNE_SECRET_TOKEN" not in names
    assert set(names) <= {"PATH", "HOME", "TMPDIR", "LANG", "LC_CTYPE", "PWD"}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text("the tournament's results")
    return folder


def test_without_the_sandbox_a_file_outside_is_read(bot: Path, token: str, outside: Path) -> None:
    """What the box does not stop without bubblewrap (docs/agent-protocol.md says so)."""
    found = probe(bot, "read", token, str(outside / "secret.txt"), box=BotBox(sandbox="none"))
    assert found == "ok:the tournament's results"


@pytest.mark.skipif(bwrap_path() is None, reason=NO_BWRAP)
def test_in_the_sandbox_a_file_outside_its_folder_cannot_be_read(bot: Path, token: str, outside: Path) -> None:
    assert probe(bot, "read", token, str(outside / "secret.txt")) == "refused:FileNotFoundError"
    assert probe(bot, "read", token, str(bot)).startswith("ok:")  # its own folder, read-only
    assert probe(bot, "write", token, str(bot.parent / "x.txt")).startswith("refused:")
    assert probe(bot, "write", token, str(outside / "x.txt")).startswith("refused:")
    assert probe(bot, "scratch", token) == "ok"
    assert not (outside / "x.txt").exists()


@pytest.mark.skipif(bwrap_path() is None, reason=NO_BWRAP)
def test_in_the_sandbox_no_socket_reaches_out(bot: Path, token: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert probe(bot, "socket", token, str(port), box=BotBox(sandbox="none")) == "ok"  # the probe works
        assert probe(bot, "socket", token, str(port)).startswith("refused:")


def test_sandbox_bwrap_without_bubblewrap_is_a_clear_error(bot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if bwrap_path() is not None:
        monkeypatch.setenv("PATH", "/nonexistent")  # the supervisor finds no bwrap
    with pytest.raises(AgentError, match="bubblewrap"):
        SubprocessAgent([PYTHON, str(bot), "fork", "x"], box=BotBox(sandbox="bwrap"))


# --- issue 42, B3: a bot sees its own folder, its interpreter and the system, never the project around it ----------

needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason=NO_BWRAP)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a tournament's results file and the web server's games database at its root."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "results.sqlite").write_text("every game, every seed")
    (root / "tribune-games").mkdir()
    (root / "tribune-games" / "games.sqlite").write_text("every seed")
    return root


@needs_bwrap
def test_a_bot_one_folder_below_a_project_sees_its_folder_not_the_project(project: Path, token: str) -> None:
    """B3 as found: ``cmd:build/mybot`` showed the whole project (the parent of the program's folder)."""
    build = project / "build"
    build.mkdir()
    mybot = build / "mybot"
    mybot.write_text(f"#!{PYTHON}\n{BOT}")  # a script: its interpreter is found on its #! line
    mybot.chmod(0o755)
    argv = ["build/mybot"]
    assert probe(mybot, "list", token, str(build), argv=argv, cwd=str(project)) == "ok:mybot"
    assert probe(mybot, "list", token, str(project), argv=argv, cwd=str(project)) == "ok:build"  # the way in
    assert probe(mybot, "list", token, str(project.parent), argv=argv, cwd=str(project)) == "ok:project"
    games = str(project / "tribune-games")
    assert probe(mybot, "list", token, games, argv=argv, cwd=str(project)) == "refused:FileNotFoundError"


@needs_bwrap
def test_an_interpreter_in_a_project_venv_brings_its_packages_not_the_project(project: Path, token: str) -> None:
    """``cmd:.venv/bin/python bots/bot.py``: the venv's interpreter and packages are there, the project is not."""
    venv.create(project / ".venv", symlinks=True, with_pip=False)
    site = project / ".venv" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    (site / "boxmark.py").write_text("VALUE = 'from the venv'\n")
    bots = project / "bots"
    bots.mkdir()
    script = bots / "bot.py"
    script.write_text(BOT)
    argv = [str(project / ".venv" / "bin" / "python"), str(script)]
    assert probe(script, "import", token, "boxmark", argv=argv) == "ok:from the venv"
    assert probe(script, "list", token, str(project), argv=argv) == "ok:.venv,bots"  # no results, no games
    assert probe(script, "list", token, str(project / ".venv"), argv=argv) == "ok:bin,lib,lib64,pyvenv.cfg"


@needs_bwrap
def test_a_program_without_a_script_does_not_see_the_working_directory(
    project: Path, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cmd:python -c CODE`` run from a project's root, ``python`` found on ``PATH``: no file names the bot, so it
    has no folder of its own and runs in its scratch space (before issue 42 its folder was the working directory:
    the project)."""
    monkeypatch.setenv("PATH", f"{Path(PYTHON).parent}{os.pathsep}{os.environ['PATH']}")
    argv = [Path(PYTHON).name, "-c", BOT]
    assert probe(Path(), "list", token, ".", argv=argv, cwd=str(project)) == "ok:"  # its empty scratch space
    assert probe(Path(), "list", token, str(project), argv=argv, cwd=str(project)) == "refused:FileNotFoundError"


@needs_bwrap
def test_a_venv_interpreter_named_by_its_path_brings_its_venv(project: Path, token: str) -> None:
    """``cmd:.venv/bin/python -c CODE``: the program is the bot's own file, and a venv's interpreter all the same."""
    venv.create(project / ".venv", symlinks=True, with_pip=False)
    argv = [str(project / ".venv" / "bin" / "python"), "-c", BOT]
    assert probe(Path(), "list", token, str(project / ".venv"), argv=argv) == "ok:bin,lib,lib64,pyvenv.cfg"
    assert probe(Path(), "list", token, str(project), argv=argv) == "ok:.venv"


@needs_bwrap
def test_a_folder_named_by_the_user_is_the_bots_folder(project: Path, token: str) -> None:
    data = project / "bot-data"
    data.mkdir()
    (data / "weights.bin").write_text("w")
    box = BotBox(folder=str(data))
    argv = [PYTHON, "-c", BOT]
    assert probe(Path(), "list", token, str(data), argv=argv, box=box) == "ok:weights.bin"
    assert probe(Path(), "list", token, ".", argv=argv, box=box) == "ok:weights.bin"  # its working directory
    assert probe(Path(), "list", token, str(project), argv=argv, box=box) == "ok:bot-data"  # the way in


@needs_bwrap
def test_a_bot_in_the_hosts_tmp_still_has_a_scratch_space(token: str) -> None:
    """Its folder is ``/tmp`` itself, shown read-only: the scratch space moves beside it (``/var/tmp``)."""
    script = Path("/tmp") / f"{token}.py"
    script.write_text(BOT)
    try:
        assert probe(script, "fill", token, "1", box=BotBox(scratch_mb=8)) == "ok:1:/var/tmp"
    finally:
        script.unlink()


# --- issue 42, B4: a bot that closes its output is noticed at once, in and out of the box ---------------------------


@pytest.mark.parametrize("sandbox", ["auto", "none", "off"])
def test_a_bot_that_closes_its_output_fails_at_once(bot: Path, token: str, sandbox: str) -> None:
    """The supervisor (and bubblewrap) held the pipe open: the host waited for the move limit (60 s here)."""
    box = BotBox(sandbox=sandbox) if sandbox != "off" else None
    agent = SubprocessAgent([PYTHON, str(bot), "closed", token], box=box, move_seconds=60)
    try:
        config = GameConfig()
        game = Game.new(config, seed=1)
        agent.reset(game.current_seat, config, 1)
        with pytest.raises(AgentError, match="closed its output"):
            agent.act(game.view(game.current_seat), game.legal_actions(), InfoSet(game, game.current_seat))
    finally:
        agent.close()
    assert left_behind(token) == []


def test_with_no_time_limit_a_closed_output_forfeits_the_game(bot: Path, token: str, tmp_path: Path) -> None:
    """``--time-limit 0``: the tournament waited until the bot exited."""
    spec = f"cmd:{PYTHON} {bot} closed {token}"
    d = TournamentDefinition.create((spec, "random"), players=2, games=1, round_limit=2, time_limit=None)
    records = run_tournament(d, tmp_path / "r.sqlite", workers=1, progress=False)
    forfeit = records[0].forfeit
    assert forfeit is not None and forfeit.reason == "raised" and "closed its output" in forfeit.message, forfeit
    assert left_behind(token) == []


# --- issue 42, B2: the scratch space has a total limit and is gone with the host ----------------------------------


@needs_bwrap
def test_in_the_sandbox_writing_past_the_scratch_limit_fails_with_enospc(bot: Path, token: str) -> None:
    """The bot is told (ENOSPC) and goes on playing: its hello came after the refused write."""
    found = probe(bot, "fill", token, "64", box=BotBox(scratch_mb=8))
    assert found.startswith("refused:ENOSPC:"), found
    assert int(found.rsplit(":", 1)[1]) <= 6  # 8 MiB in all, a quarter of it for /dev/shm


def test_without_the_sandbox_a_bot_past_the_scratch_limit_is_stopped(bot: Path, token: str) -> None:
    with pytest.raises(AgentError, match="scratch folder holds more than 8 MiB"):
        SubprocessAgent([PYTHON, str(bot), "fill-wait", token, "32"], box=BotBox(sandbox="none", scratch_mb=8))
    assert left_behind(token) == []


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_nothing_of_the_scratch_space_is_left_after_the_host_is_killed(
    bot: Path, token: str, tmp_path: Path, sandbox: str
) -> None:
    """B2 as found: the scratch folder stayed on the host's disk after ``kill -9`` of the host (51 MB)."""
    host_tmp = tmp_path / "host-tmp"
    host_tmp.mkdir()
    argv = [PYTHON, str(bot), "fill", token, "4"]
    code = (
        "from agents.subprocess_agent import BotBox, SubprocessAgent\n"
        f"agent = SubprocessAgent({argv!r}, box=BotBox({sandbox!r}))\n"
        "print(agent.bot_name, flush=True)\n"
        "import time; time.sleep(60)\n"
    )
    env = {**os.environ, "TMPDIR": str(host_tmp)}
    host = subprocess.Popen([PYTHON, "-c", code], cwd=Path(__file__).parents[2], env=env, stdout=subprocess.PIPE)
    try:
        assert host.stdout is not None
        said = host.stdout.readline().decode().strip()
        assert said.startswith("ok:4:"), said  # 4 MiB written in its scratch space
        host.kill()
        host.wait()
        assert left_behind(token) == []
        end = time.monotonic() + 10
        while list(host_tmp.iterdir()) and time.monotonic() < end:  # the supervisor removes it as it ends
            time.sleep(0.05)
        assert list(host_tmp.iterdir()) == []
        assert not (Path(said.split(":", 2)[2]) / f"{token}-0").exists()
    finally:
        host.kill()
