"""The process wall: user code runs in a worker process; this process only receives data.

Every payload class found by the red team (segfaults, hangs inside C, memory far past the
limit) ends as a clear error in the result while this process (the one that shows the window)
carries on, and the next ordinary run works.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import CancelToken, Limits, VariableSpec, run
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated

DEEP_TUPLE = "t = ()\nfor i in range(400000):\n    t = (t,)\n"
CHAIN = "it = iter([1])\nfor i in range(300000):\n    it = {}(it)\nnext(it)\n"
CRASHES = {
    "hash through dict()": DEEP_TUPLE + "d = dict([[t, 1]])\n",
    "hash through |=": DEEP_TUPLE + "d = {}\nd |= [(t, 1)]\n",
    "map chain": CHAIN.replace("{}(it)", "map(abs, it)"),
    "zip chain": CHAIN.replace("{}(it)", "zip(it)"),
    "enumerate chain": CHAIN.replace("{}(it)", "enumerate(it)"),
    "filter chain": CHAIN.replace("{}(it)", "filter(None, it)"),
}
HANGS = {
    "np.array of a self-containing list": "import numpy as np\na = [1.0]\na[0] = a\nnp.array(a)",
    "np.sin of it": "import numpy as np\na = [1.0]\na[0] = a\nnp.sin(a)",
    "np.zeros_like of it": "import numpy as np\na = [1.0]\na[0] = a\nnp.zeros_like(a)",
    "tf.print of a huge nested list": "import tensorflow as tf\ntf.print([[0] * 10**6] * 60)",
    "tf.constant of one": "import tensorflow as tf\ntf.constant([[0.0] * 10**6] * 50)",
    "tf.nest.flatten of shared lists": (
        "import tensorflow as tf\na = [1]\nfor i in range(60):\n    a = [a, a]\ntf.nest.flatten(a)"
    ),
}
MEMORY = {
    "broadcast ==": "import numpy as np\nx = np.ones((33000, 1)) == np.ones((1, 33000))",
    "ndarray.clip(array)": "import numpy as np\nx = np.ones((1, 40000)).clip(np.ones((40000, 1)))",
    "linspace of arrays": (
        "import numpy as np\nx = np.linspace(np.zeros(30000), np.ones(30000), 30000)"
    ),
    "random.normal of arrays": (
        "import numpy as np\nx = np.random.normal(np.zeros((30000, 1)), np.ones((1, 30000)))"
    ),
    "permutation of a range": "import numpy as np\nx = np.random.permutation(range(3 * 10**7))",
    "list of a big array": "import numpy as np\nx = list(np.zeros((10**7, 1)))",
    "+= a range": "x = []\nx += range(5 * 10**7)",
    "|= zip": "d = {}\nd |= zip(range(3 * 10**7), range(3 * 10**7))",
    "empty-axis reduction": "import numpy as np\nx = np.zeros((0, 2 * 10**8)).sum(axis=0)",
}
HEALTHY = "x = [1, 2, 3]\nsum(x) * 2"


def _isolated(pool: Pool, source: str, **kw: object) -> object:
    return run_isolated(source, pool=pool, **kw)  # type: ignore[arg-type]


def _still_fine(pool: Pool) -> None:
    healthy = run_isolated(HEALTHY, pool=pool)
    assert healthy.error is None, healthy.error
    assert float(healthy.value) == 12


@pytest.mark.parametrize("name", list(CRASHES))
def test_a_crashing_script_is_reported_and_the_next_run_works(pool: Pool, name: str) -> None:
    result = run_isolated(CRASHES[name], pool=pool, limits=Limits(wall_time=20))
    assert result.error is not None
    # Either the language wall refused it, or the process wall contained the crash.
    if result.error.kind == "crash":
        assert "segmentation fault" in result.error.message
        assert "your code is kept" in result.error.message
        assert result.error.line is not None and 2 <= result.error.line <= 5
    else:
        assert result.error.kind in ("limit", "refused"), result.error
    _still_fine(pool)


@pytest.mark.parametrize("name", list(HANGS))
def test_a_run_stuck_inside_c_code_ends_at_its_time_limit(pool: Pool, name: str) -> None:
    started = time.monotonic()
    result = run_isolated(HANGS[name], pool=pool, limits=Limits(wall_time=1.0))
    assert time.monotonic() - started < 1.0 + 2.0 + 1.5  # the limit, the grace, a restart
    assert result.error is not None
    assert result.error.kind in ("limit", "refused"), result.error
    _still_fine(pool)


@pytest.mark.parametrize("name", list(MEMORY))
def test_memory_far_past_the_limit_is_a_limit_not_a_bloated_window(pool: Pool, name: str) -> None:
    before = _resident_mb()
    result = run_isolated(MEMORY[name], pool=pool, limits=Limits(wall_time=20))
    assert result.error is not None
    assert result.error.kind in ("limit", "refused"), result.error
    assert _resident_mb() - before < 100  # the memory went up in the worker, not here
    _still_fine(pool)


def _resident_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_stop_ends_a_run_stuck_in_c_within_half_a_second(pool: Pool) -> None:
    cancel = CancelToken()
    stopped: list[float] = []

    def press_stop() -> None:
        time.sleep(0.5)
        stopped.append(time.monotonic())
        cancel.cancel()

    threading.Thread(target=press_stop).start()
    stuck = "import numpy as np\nx = np.random.rand(10**7)\nfor i in range(100):\n    np.sort(x)"
    result = run_isolated(stuck, pool=pool, cancel=cancel,
                          limits=Limits(wall_time=30))  # fmt: skip
    assert time.monotonic() - stopped[0] < 0.5
    assert result.error is not None and result.error.kind == "cancelled"
    _still_fine(pool)


def test_stop_ends_a_python_loop_at_its_next_statement(pool: Pool) -> None:
    cancel = CancelToken()
    threading.Timer(0.3, cancel.cancel).start()
    started = time.monotonic()
    result = run_isolated("while True:\n    pass", pool=pool, cancel=cancel)
    assert time.monotonic() - started < 0.3 + 0.5
    assert result.error is not None and result.error.kind == "cancelled"
    assert result.error.line in (1, 2)


def test_the_worker_runs_in_an_empty_folder_of_its_own(pool: Pool, tmp_path: Path) -> None:
    before = sorted(Path.cwd().iterdir())
    result = run_isolated("import numpy as np\nnp.save('x.npy', np.zeros(3))", pool=pool)
    assert result.error is not None and result.error.kind in ("refused", "runtime")
    assert sorted(Path.cwd().iterdir()) == before
    worker = pool._idle[0]
    assert worker.folder != Path.cwd() and worker.folder.name.startswith("tapeviz-worker-")
    assert [p.name for p in worker.folder.iterdir()] == [".where"]


@pytest.mark.parametrize(
    "source",
    [
        "import tensorflow as tf\nx = tf.Variable(3.0)\nwith tf.GradientTape(persistent=True) as t:"
        "\n    y = x * x\n    z = y * y\nprint(t.gradient(y, x))\nprint(t.gradient(z, x))",
        "import tensorflow as tf\nx = tf.constant([[1.0, 2.0]])\nw = tf.Variable([[1.0], [2.0]])"
        "\nwith tf.GradientTape() as t:\n    y = tf.reduce_sum(tf.nn.relu(x @ w) ** 2)\n"
        "g = t.gradient(y, w)\nx[0, 1:]",
    ],
)
def test_the_received_result_reads_like_the_in_process_one(pool: Pool, source: str) -> None:
    here, there = run(source), run_isolated(source, pool=pool)
    assert there.error is None and there.output == here.output
    assert [t.names for t in there.tapes] == [t.names for t in here.tapes]
    for a, b in zip(here.tapes, there.tapes, strict=True):
        assert b.tape.pretty() == a.tape.pretty()
        assert [c.kind for c in b.tape.gradient_calls] == [c.kind for c in a.tape.gradient_calls]
    local, remote = GraphModel(here.tapes), GraphModel(there.tapes)
    assert list(local.nodes) == list(remote.nodes)
    assert [n.label for n in local.nodes.values()] == [n.label for n in remote.nodes.values()]
    for k, g in local.gradients.items():
        np.testing.assert_array_equal(remote.gradients[k], g)


def test_expression_mode_in_the_worker(pool: Pool) -> None:
    table = [VariableSpec("x", 0.0), VariableSpec("a", 1.0, "watched"),
             VariableSpec("b", -2.0, "watched"), VariableSpec("c", 1.0, "constant")]  # fmt: skip
    result = run_isolated("a*x^2 + b*x + c", mode="expression", variables=table, pool=pool)
    assert result.error is None
    assert float(result.value.numpy()) == 1.0
    assert {k: float(g.numpy()) for k, g in result.gradients.items()} == {
        "x": -2.0, "a": 0.0, "b": 0.0}  # fmt: skip


def test_a_killed_worker_is_replaced(pool: Pool) -> None:
    _still_fine(pool)
    for w in list(pool._idle):
        w.kill()
    _still_fine(pool)
