"""The optional extras of the ``tribune-rl`` distribution and the one message that says how to install one.

Every "this needs an optional dependency" message of the project is :func:`missing_extra`: it names the extra
(never a bare library) and the two commands that install it, from a checkout of the repository and from the
package index. The extras themselves are declared in ``pyproject.toml`` (``[project.optional-dependencies]``).
"""

from __future__ import annotations

DISTRIBUTION = "tribune-rl"
"""The distribution's name on the package index."""


def install_commands(extra: str) -> str:
    """The commands that install ``extra``: ``pip install -e '.[web]'`` in a checkout, or from the index."""
    return f"pip install -e '.[{extra}]' in a checkout, or pip install '{DISTRIBUTION}[{extra}]' from the package index"


def missing_extra(what: str, extra: str, cause: object = None) -> str:
    """The message for ``what`` needing the optional ``extra``: the extra by name, the cause if given (e.g. the
    ``ImportError``), then :func:`install_commands`. ``missing_extra("tribune serve", "web")`` reads
    "tribune serve needs the 'web' extra: pip install -e '.[web]' in a checkout, or pip install 'tribune-rl[web]'
    from the package index"."""
    detail = f" ({cause})" if cause is not None and str(cause) else ""
    return f"{what} needs the '{extra}' extra{detail}: {install_commands(extra)}"
