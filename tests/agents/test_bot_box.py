"""Bots in a box (issue 36, B1; agents/bot_box.py, docs/agent-protocol.md "The box").

A ``cmd:`` bot and everything it starts end with its game, whatever the helpers do (fork, ``setsid``,
``setpgid(0, 0)``, a daemon's double fork), in one process and in worker processes; its limits refuse a 4 GB
allocation; where bubblewrap runs it reads no file outside its folder, writes only its scratch folder and opens no
network connection. Processes are found by a token on their command line (in the sandbox a bot's process ids are
those of its own namespace), so a leftover is seen wherever it runs.
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
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.bot_box import bwrap_path
from agents.subprocess_agent import BotBox, SubprocessAgent
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition

PYTHON = sys.executable

BOT = r"""
import json, os, socket, sys, time

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


def probe(bot: Path, *args: str, box: BotBox | None = None) -> str:
    agent = SubprocessAgent([PYTHON, str(bot), *args], box=box or BotBox())
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
    agent_error = pytest.importorskip("agents.base").AgentError
    with pytest.raises(agent_error, match="bubblewrap"):
        SubprocessAgent([PYTHON, str(bot), "fork", "x"], box=BotBox(sandbox="bwrap"))
