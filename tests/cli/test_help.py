"""One command line: every ``tribune`` sub-command's ``--help`` has a description, an "examples:" section whose commands
parse, metavars from one vocabulary and defaults written one way; maintainers' commands are hidden but run;
``tribune agents`` lists every registered agent; ``tribune bench`` reads at 80 columns."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import re
import shlex

import pytest
from rich.console import Console

from agents import make_agent, specs
from agents.specs import STRENGTH, agent_names, agent_parameters
from tribune_arena.bench.environments import (
    BenchReport,
    EngineFigures,
    OpenSpielFigures,
    PeerFigures,
    TribuneFigures,
)
from tribune_cli import core
from tribune_cli import main as cli_main
from tribune_cli.command import METAVARS, Command, shown_default
from tribune_cli.main import main

WIDTH = 80
COMMANDS = {command.name: command for command in cli_main.commands()}
HIDDEN = sorted(name for name, command in COMMANDS.items() if command.hidden)
SECTION = re.compile(r"^(\w[\w ]*):$", re.M)  # "options:", "game:", "examples:"


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``tribune ARGV --help`` prints, through the real entry point."""
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def _sub_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli_main.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _examples(text: str) -> list[str]:
    """The command lines of the "examples:" section (the help's last section); each other line is a comment."""
    _, found, section = text.partition("\nexamples:\n")
    assert found, "no examples: section"
    commands = []
    for line in section.rstrip("\n").splitlines():
        assert line.startswith("  # ") or line.startswith("  tribune "), f"not a comment or a command: {line!r}"
        if not line.startswith("  # "):
            commands.append(line.strip())
    return commands


def _arguments_part(text: str) -> str:
    """The help of the arguments: from the first section header to "examples:"."""
    start = SECTION.search(text)
    assert start is not None
    return text[start.start() : text.index("\nexamples:\n")]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_a_description_and_examples_that_parse(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _help([name], capsys)
    command = COMMANDS[name]
    usage, _, rest = text.partition("\n\n")
    assert usage.startswith(f"usage: tribune {name} ")
    description = " ".join(rest.split("\n\n")[0].split())
    assert description == f"{command.summary[0].upper()}{command.summary[1:]}."
    examples = _examples(text)
    assert examples == [line for line, _ in command.examples]
    parser = cli_main.build_parser()
    for line in examples:
        argv = shlex.split(line)
        assert argv[:2] == ["tribune", name], line
        args = parser.parse_args(argv[1:])  # parses without running; a bad example exits 2 here
        assert args.command == name
    assert max(map(len, text.splitlines())) <= WIDTH, "a help line longer than the terminal"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_metavars_come_from_one_vocabulary(name: str) -> None:
    for action in _sub_parsers()[name]._actions:
        if action.nargs == 0 or isinstance(action, argparse._HelpAction):
            continue
        if action.metavar is None and action.choices is not None:
            continue  # shown as {a,b}
        metavar = action.metavar or (action.dest.upper() if action.option_strings else action.dest)
        shown = metavar if isinstance(metavar, tuple) else (metavar,)
        assert set(shown) <= set(METAVARS), f"tribune {name} {action.option_strings or action.dest}: {metavar}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_defaults_are_written_one_way_and_come_from_argparse(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every "default" in the arguments' help is ``(default: X)``; an argument with a meaningful argparse default
    does not write it by hand (the formatter shows it, so it cannot drift) and the help shows that value."""
    text = _help([name], capsys)
    part = _arguments_part(text)
    words = re.findall(r"\S*\bdefault\S*", part)
    assert [word for word in words if not word.startswith("(default:")] == []
    flat = " ".join(part.split())
    for action in _sub_parsers()[name]._actions:
        shown = shown_default(action.default)
        if shown is None or isinstance(action, argparse._HelpAction):
            continue
        assert "default" not in (action.help or ""), f"tribune {name} {action.option_strings}: hand-written default"
        assert f"(default: {shown})" in flat, f"tribune {name} {action.option_strings}: default {shown} not shown"


def test_the_listing_names_every_command_but_the_maintainers_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help([], capsys)
    listed = re.findall(r"^ {4}(\w[\w-]*) +(.*)$", text, re.M)
    assert [name for name, _ in listed] == [name for name in cli_main.ORDER if name not in HIDDEN]
    assert all(summary == COMMANDS[name].summary for name, summary in listed), "a summary wraps at 80 columns"
    assert HIDDEN == ["docs"] and not re.search(r"\bdocs\b", text.split("commands:")[1])
    assert max(map(len, text.splitlines())) <= WIDTH


def test_a_hidden_command_runs_and_an_unknown_one_is_not_offered_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert "Regenerate docs/actions" in _help(["docs"], capsys)
    args = cli_main.build_parser().parse_args(["docs", "--out", "somewhere"])
    assert (args.command, args.out) == ("docs", "somewhere")
    with pytest.raises(SystemExit) as stop:
        main(["nope"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'nope'" in err and "'docs'" not in err and "docs," not in err and "play" in err


def test_the_engine_tools_alone_have_the_same_commands() -> None:
    parser = core.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(action.choices) == [command.name for command in core.COMMANDS]


def test_a_command_record_refuses_what_the_help_could_not_show() -> None:
    def nothing(parser: argparse.ArgumentParser) -> None:
        pass

    def run(args: argparse.Namespace) -> int:
        return 0

    with pytest.raises(ValueError, match="does not start with 'tribune x'"):
        Command("x", "do x", (("tribune y", "not x"),), nothing, run)
    with pytest.raises(ValueError, match="at least one example"):
        Command("x", "do x", (), nothing, run)
    with pytest.raises(ValueError, match="one line without a full stop"):
        Command("x", "do x.", (("tribune x", "x"),), nothing, run)


# -- tribune agents -------------------------------------------------------------------------------------------------


def test_agents_lists_every_registered_agent_with_its_strength(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    text = capsys.readouterr().out
    names = re.findall(r"^(\S+)$", text, re.M)
    assert sorted(names) == agent_names()
    assert set(STRENGTH) == set(specs._BUILTIN), "every built-in agent has a measured note"  # tests register more
    assert main(["agents", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(entry["name"] for entry in doc) == agent_names()
    mcts = next(entry for entry in doc if entry["name"] == "mcts")
    assert {"iterations", "seconds", "rollout", "search"} <= {p["name"] for p in mcts["parameters"]}
    assert mcts["rules"] == ["base", "expansion", "brutii"] and mcts["strength"] == STRENGTH["mcts"]
    assert max(map(len, text.splitlines())) <= WIDTH


def test_agents_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents", "mcts", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


@pytest.mark.parametrize("name", [name for name in agent_names() if name != "cmd"])
def test_every_listed_option_is_one_the_agent_takes(name: str) -> None:
    """The listed parameters are what the factories read: each one with its default builds the agent."""
    for parameter in agent_parameters(name):
        if parameter.default is not None:
            make_agent(f"{name}:{parameter.name}={parameter.default}", 0).close()


# -- tribune bench at 80 columns ------------------------------------------------------------------------------------


def _report(engines: list[EngineFigures]) -> BenchReport:
    figures = {field.name: 123_456.789 for field in dataclasses.fields(TribuneFigures) if field.name != "players"}
    rows = [TribuneFigures(players, **figures) for players in (2, 3, 4, 5)]
    peers = [PeerFigures(name, 4_701.0, 637.4) for name in ("tictactoe_v3", "connect_four_v3")]
    peers.append(PeerFigures("texas_holdem_v4", None, None, "needs rlcard"))
    note = "" if engines else "Python engine only: the native core is not built (no module)"
    spiel = [OpenSpielFigures("tic_tac_toe", 150_000.0), OpenSpielFigures("connect_four", 120_000.0)] if engines else []
    report = BenchReport(3.0, 0, "3.11", "x86_64", rows, peers, threads_found={"x": 2})
    report.engine, report.engines, report.engines_note, report.openspiel = "native", engines, note, spiel
    return report


def _printed(report: BenchReport) -> str:
    console = Console(width=WIDTH, record=True, file=io.StringIO())
    for table in core._bench_tables(report):
        console.print(table)
    return console.export_text()


def test_bench_reads_at_80_columns_and_compares_engines_only_when_both_ran() -> None:
    one = _printed(_report([]))
    assert "…" not in one and max(map(len, one.splitlines())) <= WIDTH
    assert "engines not compared: Python engine only: the native core is not built" in " ".join(one.split())
    assert "native ÷ python" not in one  # no empty comparison table
    python = EngineFigures("python", 4, 40_000.0, 30_000.0, 600.0, 1_000.0, 300.0)
    native = EngineFigures("native", 4, 160_000.0, 120_000.0, 20.0, 9_402.0, 3_000.0, 1_200_000.0, 500_000.0)
    two = _printed(_report([python, native]))
    assert "…" not in two and max(map(len, two.splitlines())) <= WIDTH
    text = " ".join(two.split())
    assert "native ÷ python" in two and "4.00x" in two  # Game decisions/s
    assert "30.00x" in text  # obs + mask: 600 µs over 20 µs; core 1.2M over 40k Game decisions/s is 30x too
    assert "env() ÷ tictactoe_v3 0.21x 2.00x" in text  # each engine's env() over the peer's 4,701 steps/s
    assert "Batch x64 decisions/s - 500,000 1666.67x" in text
    assert "tic_tac_toe 150,000 1.07x 8.00x" in text
