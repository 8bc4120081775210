"""``tribune`` starts quickly: building the parser of every command loads none of the heavy libraries that only
some commands use (the environments' pettingzoo and gymnasium, torch, matplotlib)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("pettingzoo", "gymnasium", "torch", "matplotlib", "stable_baselines3", "ray")


def test_the_cli_parser_loads_no_heavy_library() -> None:
    probe = (
        "import json, sys; from tribune_cli.main import build_parser; build_parser(); "
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []
