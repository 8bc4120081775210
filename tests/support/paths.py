"""Where the project's files are, for tests in any folder: :data:`ROOT` is the repository root."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CONFIGS = ROOT / "configs"
