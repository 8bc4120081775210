"""Griffe extension for the API reference: the project's docstrings use reST roles (``:class:`Game```,
``:func:`~tribune_env.env```), which Markdown would show as written; they become code spans with the short name."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const|ref|term):`(~?)([^`<]*?)(?:\s*<[^>]*>)?`")


def plain(text: str) -> str:
    """``text`` with every reST role written as a Markdown code span (``~`` keeps the last dotted part)."""
    return ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)


class SphinxRoles(griffe.Extension):
    """Rewrites each object's docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
