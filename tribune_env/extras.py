"""The optional extras of the ``tribune-rl`` distribution and the one message that says how to install one.

Every "this needs an optional dependency" message of the project is :func:`missing_extra`: it names the extra
(never a bare library) and the command that installs it. The project is installed from a checkout of the
repository (no ``tribune-rl`` is published on the package index), so that command is the checkout's:
``pip install -e '.[EXTRA]'``, run in the repository root. The extras themselves are declared in
``pyproject.toml`` (``[project.optional-dependencies]``).

Messages printed through rich (``tribune bench``'s tables) must escape the brackets of the command, or rich reads
``[web]`` as a style tag and drops it: :func:`rich.markup.escape` does that.
"""

from __future__ import annotations

DISTRIBUTION = "tribune-rl"
"""The distribution's name (in a checkout's metadata; not published on the package index)."""


def install_command(extra: str) -> str:
    """The command that installs ``extra`` into a checkout: ``pip install -e '.[web]'``."""
    return f"pip install -e '.[{extra}]'"


def missing_extra(what: str, extra: str, cause: object = None) -> str:
    """The message for ``what`` needing the optional ``extra``: the extra by name, the cause if given (e.g. the
    ``ImportError``), then :func:`install_command`. ``missing_extra("tribune serve", "web")`` reads
    "tribune serve needs the 'web' extra: pip install -e '.[web]' in the repository root"."""
    detail = f" ({cause})" if cause is not None and str(cause) else ""
    return f"{what} needs the '{extra}' extra{detail}: {install_command(extra)} in the repository root"
