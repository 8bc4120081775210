"""Generated docs are current, the README's sizes match the code, and `tribune bench` works end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paths import ROOT

from tribune_arena.bench.environments import BenchReport, bench
from tribune_cli.core import main
from tribune_env.codec import codec_for, encoder_for
from tribune_env.codec.docs import generated_docs
from tribune_env.data import default_components


@pytest.mark.parametrize("name", sorted(generated_docs()))
def test_committed_docs_match_the_code(name: str) -> None:
    committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert committed == generated_docs()[name], f"docs/{name} is out of date: run `tribune docs`"


def test_docs_list_every_action_and_piece() -> None:
    codec = codec_for(default_components())
    encoder = encoder_for(default_components())
    docs = generated_docs()
    for i in range(codec.n):
        assert f"| {i} | `{codec.label(i)}` |" in docs["actions.md"]
    for piece in encoder.pieces:
        assert f"| `{piece.name}` | {piece.start} | {piece.size} |" in docs["observation.md"]
    assert sum(p.size for p in encoder.pieces) == encoder.size


def test_readme_sizes_match_the_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Discrete({codec_for(default_components()).n})" in readme
    assert f"{encoder_for(default_components()).size:,} entries" in readme


def test_docs_command_writes_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "--out", str(tmp_path)]) == 0
    for name, text in generated_docs().items():
        assert (tmp_path / name).read_text(encoding="utf-8") == text
    assert main(["docs", "--out", str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_bench_measures_tribune_and_peers() -> None:
    report = bench(seconds=0.05, players=(2, 4), peers=("tictactoe_v3",))
    assert [t.players for t in report.tribune] == [2, 4]
    for t in report.tribune:
        assert t.engine_decisions_per_s > 0 and t.aec_steps_per_s > 0 and t.games_per_s > 0
        assert t.single_steps_per_s > 0
        assert 0 < t.encode_us < 10_000 and 0 < t.clone_us < 10_000 and 0 < t.mask_us < 10_000
    (peer,) = report.peers
    assert peer.name == "tictactoe_v3" and peer.aec_steps_per_s and peer.aec_steps_per_s > 0
    ratio = report.ratios(4)["tictactoe_v3"]
    assert ratio == pytest.approx(report.tribune[1].aec_steps_per_s / peer.aec_steps_per_s)


def test_bench_reports_an_unavailable_peer(monkeypatch: pytest.MonkeyPatch) -> None:
    import tribune_arena.bench.environments as bench_module

    def missing(name: str) -> None:
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(bench_module, "peer_factory", missing)
    report = bench(seconds=0.02, players=(2,), peers=("texas_holdem_v4",))
    assert report.peers[0].aec_steps_per_s is None and "unavailable" in report.peers[0].error
    assert report.ratios(2) == {}


def test_bench_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--players", "4", "--peers", "tictactoe_v3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tribune"][0]["players"] == 4
    assert set(doc["ratios_4p"]) == {"tictactoe_v3"}
    assert set(doc) >= set(BenchReport.__dataclass_fields__)


def test_bench_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--players", "3", "--peers", "connect_four_v3"]) == 0
    out = capsys.readouterr().out
    assert "connect_four_v3" in out and "3p" in out


@pytest.mark.parametrize(
    "argv",
    [["bench", "--players", "7"], ["bench", "--seconds", "0"], ["bench", "--peers", "chess_v6"]],
)
def test_bench_command_rejects_bad_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "tribune: error:" in capsys.readouterr().err
