"""Fixtures shared by the training tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def one_torch_thread() -> Iterator[None]:
    """One torch thread for the test (tiny networks; several threads only wait on each other on a busy machine).
    torch is imported here, not at the top, so that modules without the ``train`` extra still collect."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
