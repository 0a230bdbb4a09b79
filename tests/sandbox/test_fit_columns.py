"""A Keras fit's marks and the models' variable names cross the process wall as checked columns."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.fit_columns import fit_columns_of
from tapeviz.sandbox.process.wire import ProtocolError

FIT = """import numpy as np
import tensorflow as tf
np.random.seed(0)
x = np.random.normal(size=(20, 2)).astype("float32")
y = x[:, :1] * 2.0
with tf.GradientTape() as before:
    z = tf.constant(1.0) * 2.0
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
history = model.fit(x, y, epochs=2, batch_size=8, verbose=0, initial_epoch=0)
class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.k = tf.Variable(2.0)
scale = Scale()
"""


@pytest.fixture(scope="module")
def result() -> RunResult:
    r = run(FIT)
    assert r.error is None, r.error
    return r


def _doc(result: RunResult) -> tuple[dict[str, Any], wire.Writer]:
    writer = wire.Writer()
    return results.encode(result, writer), writer


def _decode(doc: dict[str, Any], writer: wire.Writer) -> RunResult:
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    return results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))


def test_the_marks_and_logs_arrive_as_fit_left_them(result: RunResult) -> None:
    live = fit_columns_of(result.tapes)
    assert live is not None
    assert live.marks[0].tolist() == [-1, -1, -1, -1]  # the tape before the fit
    assert live.marks[1:, 1:].tolist() == [[0, 0, 0], [0, 1, 0], [0, 2, 0],
                                           [1, 0, 0], [1, 1, 0], [1, 2, 0]]  # fmt: skip
    assert len(set(live.marks[1:, 0].tolist())) == 1
    assert sorted(live.logs) == [3, 6]  # each epoch's last tape
    assert live.logs[6]["loss"] == result.namespace["history"].history["loss"][1]
    got = _decode(*_doc(result)).tapes.fits
    assert got is not None and np.array_equal(got.marks, live.marks) and got.logs == live.logs


def test_the_models_variable_names_arrive(result: RunResult) -> None:
    names = _decode(*_doc(result)).tapes.variable_names
    kernel = result.namespace["model"].layers[0].kernel
    assert names[kernel.id] == kernel.path and names[result.namespace["scale"].k.id] == "scale.k"


def test_a_run_without_fit_sends_no_marks() -> None:
    r = run("import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
            "    y = x * x\n")  # fmt: skip
    doc, writer = _doc(r)
    assert "fit_mark" not in doc["records"] and "variable_ids" not in doc["records"]
    assert _decode(doc, writer).tapes.fits is None


def _ints(doc: dict[str, Any], key: str, change: Callable[[list[int]], list[int]]) -> None:
    a, b, *width = doc["records"][key]["$i"]
    doc["records"][key]["$i"] = change([a, b]) + width


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: _ints(d, "fit_mark", lambda ab: [ab[0], ab[1] - 1]),  # not 4 per tape
        lambda d: _ints(d, "fit_log_tape", lambda ab: [ab[0], ab[0]]),  # logs without tapes
        lambda d: d["records"].__setitem__("fit_log_names", [1, 2]),  # names not strings
        lambda d: d["records"].__setitem__("fit_log_value", {"$a": [0, "int64", [0]]}),
        lambda d: d["records"].__setitem__("variable_names", ["only one"]),
    ],
)
def test_bad_columns_are_refused(result: RunResult, tamper: Callable[[dict], None]) -> None:
    doc, writer = _doc(result)
    tamper(doc)
    with pytest.raises(ProtocolError):
        _decode(doc, writer)


def test_a_log_on_a_tape_outside_the_fit_is_refused(result: RunResult) -> None:
    doc, writer = _doc(result)
    doc["records"]["fit_log_tape"] = writer.ints([0, 6])  # tape 0 is not the fit's
    doc["records"]["fit_log_count"] = writer.ints([1, 1])
    n = len(doc["records"]["fit_log_names"])
    doc["records"]["fit_log_key"] = writer.ints([0, n - 1])
    doc["records"]["fit_log_value"] = writer.array(np.array([1.0, 2.0]))
    with pytest.raises(ProtocolError, match="fit did not record"):
        _decode(doc, writer)
