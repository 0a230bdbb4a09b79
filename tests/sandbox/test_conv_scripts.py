"""Scripts with convolutions run in the sandbox, cross the process wall, and meet its limits."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tapeviz.sandbox import Limits, RunResult, run
from tapeviz.sandbox.process import results_decode

TRAIN = """import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
np.random.seed(0)
x = np.random.rand(8, 8, 8, 1).astype("float32")
y = np.random.randint(0, 2, size=(8,))
model = keras.Sequential([
    keras.Input(shape=(8, 8, 1)),
    layers.Conv2D(4, 3, activation="relu"),
    layers.MaxPooling2D(),
    layers.Conv2DTranspose(2, 2, strides=2, padding="same"),
    layers.GlobalAveragePooling2D(),
    layers.Dense(2),
])
model.compile(optimizer="adam",
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
history = model.fit(x, y, epochs=1, batch_size=8, verbose=0)
kernel = model.layers[0].kernel
with tf.GradientTape() as tape:
    out = tf.nn.avg_pool2d(tf.nn.conv2d(x, kernel, strides=1, padding="SAME"), 2, 2, "VALID")
    loss = tf.reduce_mean(out ** 2)
grad = tape.gradient(loss, kernel)
"""


_received = results_decode.round_trip  # the run as the window gets it


@pytest.fixture(scope="module")
def trained() -> RunResult:
    result = run(TRAIN)
    assert result.error is None, result.error
    return result


def test_a_conv_net_trains_a_step_in_a_script(trained: RunResult) -> None:
    loss = trained.namespace["history"].history["loss"]
    assert len(loss) == 1 and np.isfinite(loss[0])
    grad = trained.namespace["grad"]
    assert tuple(grad.shape) == (3, 3, 1, 4) and np.all(np.isfinite(grad.numpy()))


def test_conv_records_cross_the_process_wall(trained: RunResult) -> None:
    back = _received(trained)
    last = back.tapes[len(back.tapes) - 1].tape.records
    ops = [r.name for r in last]
    assert "conv2d" in ops and "avg_pool" in ops
    conv = next(r for r in last if r.name == "conv2d")
    assert dict(conv.params) == {"strides": (1, 1), "padding": "SAME", "dilations": (1, 1)}
    fit_ops = {r.name for t in range(len(back.tapes) - 1) for r in back.tapes[t].tape.records}
    assert {"conv2d", "max_pool", "conv2d_backprop_input"} <= fit_ops


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("x = tf.zeros((1, 1000, 1000, 3))\ny = tf.nn.conv2d(x, tf.zeros((3, 3, 3, 64)), 1, "
         "'SAME')", "elements"),
        ("x = tf.zeros((8, 100, 100, 16))\ny = tf.nn.conv2d(x, tf.zeros((9, 9, 16, 64)), 1, "
         "'SAME')", "multiply-adds"),
        ("x = tf.zeros((8, 100, 100, 16))\ny = tf.nn.max_pool2d(x, 99, 1, 'SAME')",
         "multiply-adds"),
        ("from tensorflow.keras import layers\nx = tf.zeros((4, 64, 64, 64))\n"
         "y = layers.Conv2DTranspose(64, 5, strides=8, padding='same')(x)", "elements"),
    ],
)  # fmt: skip
def test_a_huge_convolution_is_refused_by_the_limits(source: str, words: str) -> None:
    result = run("import tensorflow as tf\n" + source, limits=Limits(wall_time=20.0))
    err = result.error
    assert err is not None and err.kind == "limit", err
    assert words in err.message


def test_a_long_convolution_stops_at_the_time_limit_inside_the_op() -> None:
    source = ("import tensorflow as tf\nx = tf.ones((32, 64, 64, 64))\n"
              "y = tf.nn.conv2d(x, tf.ones((5, 5, 64, 64)), 1, 'SAME')\n")  # fmt: skip
    start = time.perf_counter()
    # 1.3·10¹⁰ mult-adds: ≥ 0.14 s even at this machine's peak (its BLAS did it in 0.2 s)
    result = run(source, limits=Limits(wall_time=0.08, max_flops=10**12))
    err = result.error
    assert err is not None and err.kind == "limit" and "time" in err.message, err
    assert time.perf_counter() - start < 2.0
