"""Native thread pools limited for policy decisions (:mod:`tribune_env.threads`): the scoped and process-wide limits,
the ``TRIBUNE_THREADS`` override, and where the library applies them (a batched environment's step, a ``ppo``
policy's forward pass). The tournament's worker processes are in ``tests/arena/test_tournament_threads.py``.

Every check reads the pools with threadpoolctl; none times anything. Tests that would change this process's pools
for good run in a subprocess.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

from agents.ppo import SHIPPED, NumpyPolicy, load_policy
from tribune_env.envs.batched import TribuneBatchedEnv
from tribune_env.threads import ENV_VAR, limited_threads, thread_limit, threads_in_use

FOUND = 3  # the pools' threads before each test: anything but the limit, so that a limit and a restore both show


@pytest.fixture(autouse=True)
def pools_at_three(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every native pool at :data:`FOUND` threads, ``TRIBUNE_THREADS`` unset; both as before after the test."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    with threadpool_limits(FOUND):
        yield


def blas_threads() -> dict[str, int]:
    """The threads of every native pool but torch's (threadpoolctl's view; torch is covered by its own test)."""
    found = threads_in_use()
    found.pop("torch", None)
    assert found, "no native thread pool is loaded: numpy's BLAS should be"
    return found


def test_a_block_limits_every_pool_and_restores_them() -> None:
    assert set(blas_threads().values()) == {FOUND}
    with limited_threads() as limit:
        assert limit == 1
        assert set(blas_threads().values()) == {1}
    assert set(blas_threads().values()) == {FOUND}


def test_a_block_restores_after_an_exception() -> None:
    with pytest.raises(KeyError), limited_threads():
        raise KeyError("inside")
    assert set(blas_threads().values()) == {FOUND}


def test_nested_blocks_keep_the_outermost_limit_and_the_last_one_out_restores() -> None:
    with limited_threads(2) as outer:
        with limited_threads(1) as inner:
            assert outer == inner == 2
            assert set(blas_threads().values()) == {2}
        assert set(blas_threads().values()) == {2}
    assert set(blas_threads().values()) == {FOUND}


def test_blocks_in_two_threads_overlapping_restore_once_both_are_out() -> None:
    """Thread A enters, B enters, A leaves (B still limited), B leaves (restored): counted, not a save per block."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, set[int]] = {}
    # The BLAS pools a block limits. OpenMP's thread count is per calling thread (an OpenMP rule), so a limit set
    # from thread A does not show in thread B's OpenMP pool: that pool is left out here.
    with limited_threads():
        limited = {name for name, n in blas_threads().items() if n == 1 and not name.startswith("openmp")}
    assert limited

    def first() -> None:
        with limited_threads():
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def second() -> None:
        a_in.wait(10)
        with limited_threads():
            b_in.set()
            a_out.wait(10)
            seen["b after a left"] = {n for name, n in blas_threads().items() if name in limited}

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"b after a left": {1}}
    assert set(blas_threads().values()) == {FOUND}


@pytest.mark.parametrize(("value", "expected"), [("2", 2), (" 4 ", 4), ("0", None), ("none", None), ("OFF", None)])
def test_the_environment_variable_overrides_the_default(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: int | None
) -> None:
    monkeypatch.setenv(ENV_VAR, value)
    assert thread_limit() == expected
    with limited_threads() as limit:
        assert limit == expected
        assert set(blas_threads().values()) == {FOUND if expected is None else expected}
    assert thread_limit(2) == 2  # a given limit wins over the variable


@pytest.mark.parametrize("value", ["-1", "two", "1.5"])
def test_a_bad_environment_variable_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(ENV_VAR, value)
    with pytest.raises(ValueError, match=ENV_VAR), limited_threads():
        pass
    assert set(blas_threads().values()) == {FOUND}


@pytest.mark.parametrize("n", [0, -2, True, 1.0])
def test_a_bad_limit_is_refused(n: object) -> None:
    with pytest.raises(ValueError, match="threads: must be a whole number >= 1"):
        thread_limit(n)  # type: ignore[arg-type]


def test_the_batched_environment_steps_its_opponents_with_the_limit() -> None:
    seen: list[dict[str, int]] = []

    def opponent(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append(blas_threads())
        return int(np.flatnonzero(mask)[0])

    env = TribuneBatchedEnv(2, players=3, opponents=opponent)
    env.reset(seed=0)
    for _ in range(5):
        env.step(env.action_masks().argmax(axis=1))
    assert seen and all(set(found.values()) == {1} for found in seen), seen
    assert set(blas_threads().values()) == {FOUND}  # restored between steps, where the learner's policy runs


def test_a_ppo_policy_runs_its_forward_pass_with_the_limit() -> None:
    shipped = load_policy(SHIPPED)
    policy = NumpyPolicy.from_arrays(shipped.meta, shipped.arrays())  # a copy: the cached policy is shared
    seen: list[dict[str, int]] = []

    def activation(x: np.ndarray) -> np.ndarray:
        seen.append(blas_threads())
        out: np.ndarray = np.tanh(x)
        return out

    policy.activation = activation
    obs = np.zeros((4, policy.obs_size), dtype=np.float32)
    policy.logits(obs)
    policy.value(obs)
    assert len(seen) == len(policy.layers) + len(policy.value_layers)
    assert all(set(found.values()) == {1} for found in seen), seen
    assert set(blas_threads().values()) == {FOUND}


def _run(code: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_process_wide_limit_holds_is_idempotent_and_never_imports_torch() -> None:
    found = _run(
        "import json, sys\n"
        "from threadpoolctl import threadpool_limits\n"
        "from tribune_env.threads import limit_threads, limited_threads, threads_in_use\n"
        "threadpool_limits(3)\n"
        "out = {'set': limit_threads(), 'again': limit_threads(), 'after': threads_in_use()}\n"
        "with limited_threads():\n"
        "    out['block'] = threads_in_use()\n"
        "out['after block'] = threads_in_use()\n"
        "out['torch imported'] = 'torch' in sys.modules\n"
        "print(json.dumps(out))\n"
    )
    assert found["set"] == found["again"] == 1
    for key in ("after", "block", "after block"):
        assert found[key] and set(found[key].values()) == {1}, found  # type: ignore[attr-defined]
    assert found["torch imported"] is False


@pytest.mark.train
def test_torch_is_limited_once_imported() -> None:
    found = _run(
        "import json\n"
        "from tribune_env.threads import limit_threads, limited_threads\n"
        "import torch\n"
        "torch.set_num_threads(3)\n"
        "with limited_threads():\n"
        "    block = torch.get_num_threads()\n"
        "out = {'block': block, 'after block': torch.get_num_threads()}\n"
        "limit_threads()\n"
        "out['process'] = torch.get_num_threads()\n"
        "print(json.dumps(out))\n"
    )
    assert found == {"block": 1, "after block": 3, "process": 1}
