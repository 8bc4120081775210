"""Bots in any language (issue 25): the agent protocol ``tribune-agent/1`` and the spec ``cmd:COMMAND``.

The example bots (Python and Node.js) play whole games, in tournaments from the command line too; the messages a
bot receives are what docs/agent-protocol.md says; nine misbehaving bots (tiny Python scripts written into
``tmp_path``) each forfeit cleanly while their tournament completes, and no process of theirs is left behind.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shlex
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents import protocol
from agents.base import AgentError
from agents.specs import AgentSpec, make_agent, parse_spec
from agents.subprocess_agent import SubprocessAgent
from tribune_arena.records import GameRecord
from tribune_arena.tournament.runner import run_tournament
from tribune_arena.tournament.schedule import TournamentDefinition, canonical_spec
from tribune_cli.main import main
from tribune_env.engine.config import GameConfig, RuleSet, config_to_dict
from tribune_env.engine.game import Game
from tribune_env.engine.notation import action_text, parse_action
from tribune_env.engine.view import ViewData
from tribune_env.envs.infoset import InfoSet

ROOT = Path(__file__).resolve().parents[2]
PYTHON = shlex.quote(sys.executable)
PYTHON_BOT = f"cmd:{PYTHON} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
NODE_BOT = f"cmd:node {ROOT / 'examples' / 'bots' / 'random_bot.js'}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(autouse=True)
def _box_without_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots here note their process ids in their folder: they run in the box's supervisor without bubblewrap
    (whose folder is read-only and whose process ids are its own); the sandbox is tested in test_bot_box.py."""
    monkeypatch.setenv("TRIBUNE_BOT_BOX", "none")
BOTS = {
    "python": pytest.param(PYTHON_BOT, id="python"),
    "python-observation": pytest.param(f"{PYTHON_BOT} --observation", id="python-observation"),
    "node": pytest.param(NODE_BOT, id="node", marks=needs_node),
}


def play(config: GameConfig, spec: str, seed: int) -> tuple[Game, list[str]]:
    """A whole game with the agent of ``spec`` in seat 0 and ``random`` elsewhere; the actions played."""
    agents = [make_agent(spec, seed), *(make_agent("random", s) for s in range(1, config.players))]
    game = Game.new(config, seed=seed)
    actions: list[str] = []
    try:
        for seat, agent in enumerate(agents):
            agent.reset(seat, config, seed * 10 + seat)
        while not game.is_over:
            seat = game.current_seat
            legal = game.legal_actions()
            action = agents[seat].act(game.view(seat), legal, InfoSet(game, seat))
            assert any(action is a for a in legal)
            game.apply(action)
            actions.append(action_text(action))
    finally:
        for agent in agents:
            agent.close()
    return game, actions


# -- the spec ---------------------------------------------------------------------------------------


def test_the_command_line_is_kept_whole_by_the_spec() -> None:
    text = "cmd:python bot.py --level=3,fast --name 'my bot' x:y"
    spec = parse_spec(text)
    assert spec == AgentSpec("cmd", (("path", "python bot.py --level=3,fast --name 'my bot' x:y"),))
    assert str(spec) == canonical_spec(text) == text
    assert shlex.split(spec.params[0][1]) == ["python", "bot.py", "--level=3,fast", "--name", "my bot", "x:y"]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("cmd", "needs a command line"),
        ("cmd:   ", "needs a command line"),
        ("cmd:bot 'unclosed", "cannot split the command line"),
        ("cmd:/nonexistent/tribune-bot --x", "cannot start it: No such file or directory"),
        ("cmd:'/nonexistent/tribune bot --x'", "quote only arguments that contain spaces"),
    ],
)
def test_bad_commands_are_refused_with_the_reason(spec: str, words: str) -> None:
    with pytest.raises(AgentError, match=words):
        make_agent(spec)


# -- the view's JSON --------------------------------------------------------------------------------


def test_every_view_field_has_its_writer() -> None:
    fields = [f.name for f in dataclasses.fields(ViewData)]
    assert list(protocol.VIEW_KEYS) == fields
    assert set(protocol._VIEW_WRITERS) == set(fields)


@pytest.mark.parametrize("rules", list(RuleSet))
def test_the_view_json_is_plain_json_and_shows_only_the_seat(rules: RuleSet) -> None:
    config = GameConfig.for_rules(rules)
    game = Game.new(config, seed=4)
    rng = random.Random(4)
    hidden_seen = False
    while not game.is_over:
        seat = game.current_seat
        view = game.view(seat)
        doc = protocol.view_to_json(view, config)
        assert list(doc) == list(protocol.VIEW_KEYS)
        assert json.loads(json.dumps(doc)) == doc
        assert doc["seat"] == seat and len(doc["hand"]) == sum(view.hand)
        assert all("hand" not in p for p in doc["players"])  # others' hands: sizes only
        hidden_seen |= any(c is None for fields in doc["board"].values() for f in fields for c in f)
        game.apply(rng.choice(game.legal_actions()))
    assert hidden_seen  # face-down cards are null


# -- the example bots -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [RuleSet.BASE, RuleSet.EXPANSION])
@pytest.mark.parametrize("spec", BOTS.values())
def test_the_example_bots_play_complete_games(spec: str, rules: RuleSet) -> None:
    game, actions = play(GameConfig.for_rules(rules), spec, seed=7)
    assert game.is_over and actions
    assert play(GameConfig.for_rules(rules), spec, seed=7)[1] == actions  # seeded by reset: the game replays


@needs_node
def test_the_node_bot_plays_the_brutii_variant() -> None:
    game, _ = play(GameConfig.for_rules(RuleSet.BRUTII), NODE_BOT, seed=2)
    assert game.is_over


@pytest.mark.parametrize("spec", BOTS.values())
def test_tribune_tournament_plays_with_the_example_bot(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.sqlite"
    args = ["tournament", spec, "heuristic", "heuristic", "heuristic", "--games", "4", "--workers", "2"]
    assert main([*args, "--no-progress", "--json", "--results", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 4 and not doc.get("forfeits")
    assert doc["tournament"]["specs"][0] == spec


# -- what a bot receives ----------------------------------------------------------------------------

RECORDER = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)
    log.flush()
    m = json.loads(line)
    t = m["type"]
    if t == "hello":
        answer = {"type": "hello", "protocol": "tribune-agent/1", "name": "recorder", "rules": sys.argv[2].split(","),
                  "observation": sys.argv[3] == "1"}
    elif t == "reset":
        answer = {"type": "ready"}
    elif t == "act":
        answer = {"type": "action", "id": m["legal"][-1]["id"]}
    elif t == "bye":
        break
    else:
        continue
    sys.stdout.write(json.dumps(answer) + "\\n\\n")  # a blank line is no message
    sys.stdout.flush()
"""


def recorder(tmp_path: Path, rules: str = "base,expansion,brutii", observation: bool = False) -> tuple[str, Path]:
    script, log = tmp_path / "recorder.py", tmp_path / "messages.jsonl"
    script.write_text(RECORDER)
    return f"cmd:{PYTHON} {script} {log} {rules} {int(observation)}", log


def messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.parametrize("observation", [False, True])
def test_the_messages_of_two_games(tmp_path: Path, observation: bool) -> None:
    spec, log = recorder(tmp_path, observation=observation)
    config = GameConfig.for_rules(RuleSet.EXPANSION, players=3, round_limit=2)
    agent = make_agent(spec, 0)
    assert isinstance(agent, SubprocessAgent) and agent.bot_name == "recorder"
    results, decisions = [], []
    for number in (1, 2):
        game = Game.new(config, seed=number)
        agent.reset(1, config, seed=100 + number)
        while not game.is_over:
            seat = game.current_seat
            legal = game.legal_actions()
            info = InfoSet(game, seat)
            action = agent.act(game.view(seat), legal, info) if seat == 1 else legal[0]
            if seat == 1:
                assert action is legal[-1]
                decisions.append((legal, info.observation(), info.action_mask()))
            game.apply(action)
        results.append(
            {
                "scores": game.scores(),
                "ranks": game.ranks(),
                "winners": list(game.winners),
                "rounds": game.round,
                "truncated": game.truncated,
            }
        )
    agent.close()
    sent = messages(log)
    kinds = [m["type"] for m in sent]
    assert kinds[0] == "hello" and sent[0]["protocol"] == protocol.PROTOCOL and kinds[-1] == "bye"
    resets = [m for m in sent if m["type"] == "reset"]
    assert [(m["game"], m["seat"], m["seed"], m["rules"]) for m in resets] == [
        (1, 1, 101, "expansion"),
        (2, 1, 102, "expansion"),
    ]
    assert all(m["config"] == config_to_dict(config) for m in resets)
    over = [m for m in sent if m["type"] == "game_over"]
    assert [(m["game"], m["result"]) for m in over] == [(1, results[0]), (2, results[1])]
    assert kinds.index("game_over") < kinds.index("reset", 2)  # the end of game 1 before game 2 starts
    acts = [m for m in sent if m["type"] == "act"]
    assert len(acts) == len(decisions)
    for m, (legal, obs, mask) in zip(acts, decisions, strict=True):
        assert m["view"]["seat"] == 1 and list(m["view"]) == list(protocol.VIEW_KEYS)
        assert [c["id"] for c in m["legal"]] == [action_text(a) for a in legal]
        assert all(c["words"] and parse_action(c["id"]) in legal for c in m["legal"])
        if observation:
            assert m["space"] == "expansion"
            np.testing.assert_array_equal(np.asarray(m["observation"], dtype=np.float32), obs)
            assert m["mask"] == mask.tolist()
            assert {c["index"] for c in m["legal"] if c["index"] is not None} == set(np.flatnonzero(mask).tolist())
        else:
            assert "observation" not in m and "mask" not in m and "index" not in m["legal"][0]
    assert [m["decision"] for m in acts if m["game"] == 1] == list(range(1, 1 + sum(m["game"] == 1 for m in acts)))


def test_the_bot_says_which_rule_sets_it_plays(tmp_path: Path) -> None:
    spec, _ = recorder(tmp_path, rules="base")
    agent = make_agent(spec, 0)
    try:
        assert agent.rule_sets == frozenset({RuleSet.BASE})
        assert agent.supports(GameConfig()) is None
        problem = agent.supports(GameConfig(expansion=True))
        assert problem is not None and problem.startswith(f"agent {spec!r} does not play expansion games")
        with pytest.raises(AgentError, match="does not play expansion games"):
            agent.reset(0, GameConfig(expansion=True), 0)
    finally:
        agent.close()


# -- a bad handshake --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "words"),
    [
        ("import sys\nfor line in sys.stdin: print(line, end='', flush=True)", "hello: 'rules' must list"),
        (
            'print(\'{"type": "hello", "protocol": "tribune-agent/9"}\', flush=True)',
            "speaks protocol 'tribune-agent/9'",
        ),
        ('print(\'{"type": "error", "message": "no thanks"}\', flush=True)', "reports an error: 'no thanks'"),
        ("import sys; sys.stderr.write('cannot load my model'); sys.exit(4)", "exited with code 4; its stderr ends"),
        ("import time; time.sleep(60)", "did not answer in time"),
    ],
    ids=["echo", "other-protocol", "error", "exit", "silent"],
)
def test_a_bad_handshake_is_an_agent_error(tmp_path: Path, script: str, words: str) -> None:
    path = tmp_path / "bot.py"
    path.write_text(script)
    start = time.perf_counter()
    with pytest.raises(AgentError, match=words):
        SubprocessAgent([sys.executable, str(path)], start_seconds=1.0)
    assert time.perf_counter() - start < 10


# -- misbehaving bots -------------------------------------------------------------------------------

MISBEHAVING = """
import json, os, subprocess, sys, time
MODE, AT, PIDS = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def note(pid):
    with open(PIDS, "a") as f:
        f.write(f"{pid}\\n")

def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()

note(os.getpid())
moves = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({"type": "hello", "protocol": "tribune-agent/1", "name": MODE, "rules": ["base", "expansion", "brutii"]})
    elif m["type"] == "reset":
        moves = 0
        if MODE == "children":  # a helper that would live on: it must go with the bot's process group
            note(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"]).pid)
        send({"type": "ready"})
    elif m["type"] == "act":
        moves += 1
        if moves == AT:
            if MODE == "garbage":
                sys.stdout.write("I would rather not\\n")
                sys.stdout.flush()
            elif MODE in ("silence", "children"):
                time.sleep(300)
            elif MODE == "huge":
                sys.stdout.write("x" * (3 << 20))
                sys.stdout.flush()
                time.sleep(300)
            elif MODE == "wrong":
                send({"type": "action", "id": "place:9999"})
                continue
            elif MODE == "double":  # two answers in one write: both are there when the host next writes
                sys.stdout.write(2 * (json.dumps({"type": "action", "id": m["legal"][0]["id"]}) + "\\n"))
                sys.stdout.flush()
                continue
            elif MODE == "exit":
                sys.exit(0)
            elif MODE == "closed":  # closes its output and lives on (issue 42, B4): it forfeits at once
                os.close(1)
                time.sleep(300)
            elif MODE == "crash":
                print("about to divide", file=sys.stderr)
                1 / 0
            elif MODE == "slow":
                time.sleep(6)
        send({"type": "action", "id": m["legal"][0]["id"]})
    elif m["type"] == "bye":
        break
"""

LIMIT = 2.0
CASES = {
    "garbage": ("raised", "answered 'I would rather not', which is not a JSON object (expected the 'action' message)"),
    "silence": ("timeout", f"limit {LIMIT:g} s"),
    "huge": ("raised", "wrote a line longer than 1048576 bytes"),
    "wrong": ("raised", "chose 'place:9999', not one of the"),
    "double": ("raised", "without being asked (one line per answer)"),
    "exit": ("raised", "exited with code 0"),
    "closed": ("raised", "closed its output"),
    "crash": ("raised", "exited with code 1; its stderr ends with: about to divide"),
    "slow": ("timeout", f"limit {LIMIT:g} s"),
    "children": ("timeout", f"limit {LIMIT:g} s"),
}


def misbehaving(tmp_path: Path, mode: str, at: int = 2) -> tuple[str, Path]:
    script, pids = tmp_path / "bad_bot.py", tmp_path / "pids.txt"
    script.write_text(MISBEHAVING)
    return f"cmd:{PYTHON} {script} {mode} {at} {pids}", pids


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its parent to reap it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    end = time.monotonic() + seconds
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < end:
        time.sleep(0.05)
    return left


def pids_of(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()]


@pytest.fixture
def no_leftovers(tmp_path: Path) -> Iterator[None]:
    yield
    pids = tmp_path / "pids.txt"
    if pids.exists():
        assert wait_gone(pids_of(pids)) == []


def check_forfeits(records: list[GameRecord], spec: str, reason: str, text: str) -> None:
    assert records and all(spec in r.seating for r in records)
    for r in records:
        assert r.forfeit is not None
        seat = r.forfeit.seat
        assert r.seating[seat] == spec and r.forfeit.reason == reason, r.forfeit
        assert text in r.forfeit.message, r.forfeit.message
        assert r.ranks[seat] == r.players and seat not in r.winners and r.winners


@pytest.mark.usefixtures("no_leftovers")
@pytest.mark.parametrize("mode", list(CASES))
def test_a_misbehaving_bot_forfeits_and_the_tournament_completes(tmp_path: Path, mode: str) -> None:
    spec, pids = misbehaving(tmp_path, mode)
    reason, text = CASES[mode]
    d = TournamentDefinition.create((spec, "random"), players=2, games=2, round_limit=3, time_limit=LIMIT)
    start = time.perf_counter()
    records = run_tournament(d, tmp_path / "r.sqlite", workers=1, progress=False)
    assert time.perf_counter() - start < 60
    assert len(records) == 2
    check_forfeits(records, canonical_spec(spec), reason, text)
    if mode == "children":
        assert len(pids_of(pids)) > 2  # the helpers were started (and the fixture sees them gone)


@pytest.mark.usefixtures("no_leftovers")
@pytest.mark.parametrize("mode", ["silence", "children", "crash"])
def test_in_worker_processes_too(tmp_path: Path, mode: str) -> None:
    spec, _ = misbehaving(tmp_path, mode)
    reason, text = CASES[mode]
    d = TournamentDefinition.create((spec, "random"), players=2, games=2, round_limit=3, time_limit=LIMIT)
    records = run_tournament(d, tmp_path / "r.sqlite", workers=2, progress=False)
    check_forfeits(records, canonical_spec(spec), reason, text)


@pytest.mark.usefixtures("no_leftovers")
def test_the_agent_keeps_its_own_deadline_and_restarts_the_bot_for_a_new_game(tmp_path: Path) -> None:
    spec, _ = misbehaving(tmp_path, "silence", at=1)
    agent = SubprocessAgent(shlex.split(spec[4:]), move_seconds=0.5)
    config = GameConfig()
    game = Game.new(config, seed=1)
    agent.reset(0, config, 1)
    first = agent.pid
    seat = game.current_seat
    with pytest.raises(AgentError, match="did not answer in time"):
        agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
    assert agent.pid is None and first is not None and wait_gone([first]) == []
    with pytest.raises(AgentError, match="the bot was stopped"):
        agent.act(game.view(seat), game.legal_actions(), InfoSet(game, seat))
    agent.reset(0, config, 2)  # a new game: a new bot
    assert agent.pid not in (None, first)
    agent.close()
    agent.close()


# -- everywhere a spec is accepted --------------------------------------------------------------------


def test_a_bot_as_a_training_opponent() -> None:
    from tribune_env.envs.single import TribuneSingleEnv

    bot = make_agent(PYTHON_BOT, 0)
    env = TribuneSingleEnv(players=3, opponents=bot, learner_seat=0)
    try:
        _, info = env.reset(seed=3)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            mask = env.action_masks()
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
        assert info["winners"]
    finally:
        env.close()
        bot.close()


def test_a_bot_in_the_web_app_locally_but_not_on_a_remote_server() -> None:
    from tribune_arena.human.web.checks import WebError
    from tribune_arena.human.web.manager import GameManager

    body = {"players": 3, "opponents": PYTHON_BOT, "round_limit": 2, "seed": 1}
    with pytest.raises(WebError, match="refused on a remote server"):
        GameManager(allow_paths=False).create(body)
    manager = GameManager(allow_paths=True, allow_cmd=True)  # as `tribune serve --allow-cmd-bots`
    try:
        session = manager.create(body)
        while not session.game.is_over:
            decision = session.state()["decision"]
            session.act({"bid": decision["bid"]["min"]} if decision["bid"] else {"choice": 0})
        assert session.state()["result"] is not None
    finally:
        manager.close()
