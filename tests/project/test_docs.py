"""Generated docs are current and the README's sizes match the code."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import ROOT

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
