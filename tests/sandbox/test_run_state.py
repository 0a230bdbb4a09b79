"""Every run starts from the same state: one run's settings never reach the next (issue 31.4).

A warm worker runs many scripts one after another, and ``tapeviz.sandbox.run`` can be called
many times in one process: Keras' floatx and epsilon, ``tf.config`` switches, layer names, seeds
and plot settings a script changes stay with that script's run.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.sandbox import run
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.result import RunResult

CHANGES = """
import numpy as np
tf.keras.backend.set_floatx("float64")
tf.keras.backend.set_epsilon(1e-3)
tf.config.run_functions_eagerly(True)
layers = [tf.keras.layers.Dense(2) for _ in range(3)]
tf.random.set_seed(1)
np.random.seed(3)
print(tf.keras.backend.floatx(), tf.keras.backend.epsilon(), [d.name for d in layers])
"""
# What a run sees of the state: the same lines in a fresh process and after any other run.
PROBE = f"""
import numpy as np
print(tf.keras.backend.floatx(), tf.keras.backend.epsilon(), tf.config.functions_run_eagerly())
print(tf.keras.layers.Dense(1).name, tf.keras.layers.Dense(1).name)
print(tf.random.normal([3], seed=5).numpy())
print(np.random.rand() == {np.random.RandomState(3).rand()!r})
print(tf.constant(1.0).dtype, tf.keras.layers.Dense(1, input_shape=(2,)).dtype)
"""
FRESH = """float32 1e-07 False
dense dense_1
"""


def _ok(result: RunResult) -> str:
    assert result.error is None, result.error
    return result.output


def _seeded_normal(seed: int | None) -> str:
    """What ``print(tf.random.normal([3], seed=5).numpy())`` shows under global seed ``seed``."""
    tf.random.set_seed(seed)
    try:
        return str(tf.random.normal([3], seed=5).numpy())
    finally:
        tf.random.set_seed(None)


def test_a_run_after_one_that_changed_everything_starts_fresh() -> None:
    reference = _ok(run(PROBE))
    assert reference.startswith(FRESH)
    assert _ok(run(CHANGES)) == "float64 0.001 ['dense', 'dense_1', 'dense_2']\n"
    assert _ok(run(PROBE)) == reference
    lines = reference.splitlines()
    assert lines[2] == _seeded_normal(None) != _seeded_normal(1)  # no global seed: TF's default
    assert lines[3] == "False"  # np.random is not the stream of seed 3
    assert lines[4] == "<dtype: 'float32'> float32"


def test_the_same_script_twice_gives_the_same_names_and_settings() -> None:
    assert _ok(run(CHANGES)) == _ok(run(CHANGES))


def test_the_callers_own_settings_are_back_after_a_run() -> None:
    tf.keras.backend.set_epsilon(1e-5)
    first = tf.keras.layers.Dense(1).name
    try:
        _ok(run(CHANGES))
        assert (tf.keras.backend.floatx(), tf.keras.backend.epsilon()) == ("float32", 1e-5)
        assert tf.config.functions_run_eagerly() is False
        assert tf.keras.layers.Dense(1).name == f"{first}_1"  # the caller's counters went on
    finally:
        tf.keras.backend.set_epsilon(1e-7)
        tf.keras.backend.clear_session()


def test_settings_persist_for_the_whole_of_one_run() -> None:
    source = """
import numpy as np
tf.keras.backend.set_floatx("float64")
tf.random.set_seed(1)
np.random.seed(3)
a = tf.keras.layers.Dense(1)
def later():
    return tf.keras.backend.floatx(), tf.keras.layers.Dense(1).name
for _ in range(2):
    print(later())
print(tf.random.normal([3], seed=5).numpy())
print(np.random.rand() == {first!r})
"""
    out = _ok(run(source.format(first=np.random.RandomState(3).rand())))
    assert out.splitlines() == [
        "('float64', 'dense_1')",
        "('float64', 'dense_2')",
        _seeded_normal(1),
        "True",
    ]


def test_keras_set_random_seed_seeds_the_scripts_numpy_as_keras_seeds_numpy() -> None:
    source = "import numpy as np\ntf.keras.utils.set_random_seed(4)\nnp.random.rand()"
    assert run(source).value == np.random.RandomState(4).rand()
    assert run("import numpy as np\nnp.random.rand()").value != np.random.RandomState(4).rand()


def test_plot_settings_and_figures_stay_with_their_run() -> None:
    changes = (
        "import matplotlib.pyplot as plt\nplt.rcParams['lines.linewidth'] = 4\n"
        "plt.rc('font', size=20)\nplt.figure()\nplt.plot([1, 2])\n"
    )
    probe = (
        "import matplotlib.pyplot as plt\n"
        "print(plt.rcParams['lines.linewidth'], plt.rcParams['font.size'], plt.figure().number)"
    )
    reference = _ok(run(probe))
    assert reference == "1.5 10.0 1\n"
    _ok(run(changes))
    assert _ok(run(probe)) == reference


@pytest.fixture(scope="module")
def one_worker() -> Iterator[Pool]:
    """A pool of one warm worker: every run of the module lands in the same process."""
    pool = Pool(spares=0)
    pool.warm()
    yield pool
    pool.shutdown()


def _worker_of(pool: Pool) -> int:
    """The worker that runs the next script (tensor ids carry their worker's serial)."""
    return int(_ok(run_isolated("print(tf.constant(0.0).id >> 40)", pool=pool)))


def test_a_warm_worker_starts_every_run_fresh(one_worker: Pool) -> None:
    worker = _worker_of(one_worker)
    reference = _ok(run_isolated(PROBE, pool=one_worker))
    assert reference.startswith(FRESH)
    assert _ok(run_isolated(CHANGES, pool=one_worker)).startswith("float64 0.001")
    assert _ok(run_isolated(PROBE, pool=one_worker)) == reference
    assert _worker_of(one_worker) == worker
    assert reference == _ok(run(PROBE))  # the same state as a run in this process
