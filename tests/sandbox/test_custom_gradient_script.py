"""tf.custom_gradient in scripts: TensorFlow's guide examples, in the worker and in the window.

The user's gradient function runs where the script runs; the window steps the same backward
pass with the values it gave (``RecordedGradient``), and never calls user code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tapeviz.engine.backward import BackwardPass
from tapeviz.engine.custom import SEEN_MAX, RecordedGradient
from tapeviz.sandbox import run
from tapeviz.sandbox.process import params as P
from tapeviz.sandbox.process import wire
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.process.wire import ProtocolError
from tapeviz.sandbox.runtime.limits import Limits

# From TensorFlow's "Advanced automatic differentiation" guide, as it is printed there.
CLIP = (Path(__file__).parents[1] / "data" / "tf_guide_clip_gradients.py.txt").read_text("utf-8")

# From the API docs of tf.custom_gradient.
LOG1PEXP = """import tensorflow as tf
@tf.custom_gradient
def log1pexp(x):
  e = tf.exp(x)
  def grad(upstream):
    return upstream * (1 - 1 / (1 + e))
  return tf.math.log(1 + e), grad

def naive(x):
  return tf.math.log(1 + tf.exp(x))

x = tf.constant(100.)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = log1pexp(x)
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
  tape.watch(x)
  y = naive(x)
print(tape.gradient(y, x))
"""

TENSOR_2 = "tf.Tensor(2.0, shape=(), dtype=float32)\n"


def test_the_guides_clipped_gradient_prints_what_tensorflow_prints() -> None:
    result = run(CLIP)
    assert result.error is None and result.output == TENSOR_2


def test_the_api_docs_stable_log1pexp() -> None:
    result = run(LOG1PEXP)
    assert result.error is None
    assert result.output.splitlines() == [
        "tf.Tensor(1.0, shape=(), dtype=float32)",
        "tf.Tensor(nan, shape=(), dtype=float32)",
    ]


@pytest.mark.parametrize(
    "definition",
    [
        "f = tf.custom_gradient(lambda x: (x * x, lambda dy: dy * 100.0))",
        "def g(x):\n  return x * x, lambda dy: dy * 100.0\nf = tf.custom_gradient(g)",
        "class M(tf.Module):\n  @tf.custom_gradient\n  def __call__(self, x):\n"
        "    return x * x, lambda dy: dy * 100.0\nf = M()",
        "class M(tf.Module):\n  @tf.custom_gradient\n  def sq(self, x):\n"
        "    return x * x, lambda dy: dy * 100.0\nf = M().sq",
    ],
    ids=["call_lambda", "call_def", "module_call", "method"],
)
def test_every_way_of_defining_one(definition: str) -> None:
    source = f"""import tensorflow as tf
{definition}
x = tf.Variable(1.0)
with tf.GradientTape() as tape:
  y = f(x)
print(float(y), float(tape.gradient(y, x)))
"""
    result = run(source)
    assert result.error is None, result.error
    assert result.output == "1.0 100.0\n"


def test_variables_read_inside_get_their_gradient_from_the_function() -> None:
    source = """import tensorflow as tf
w = tf.Variable(2.0)
@tf.custom_gradient
def scale(x):
  def grad(dy, variables=None):
    return dy * w, [dy * x * 10.0]
  return x * w, grad
x = tf.constant(3.0)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = scale(x)
print([float(g) for g in tape.gradient(y, [x, w])])
"""
    result = run(source)
    assert result.error is None and result.output == "[2.0, 30.0]\n"


def test_a_gradient_function_that_never_returns_hits_the_limit() -> None:
    source = """import tensorflow as tf
@tf.custom_gradient
def f(x):
  def g(dy):
    while True:
      pass
  return x, g
x = tf.Variable(1.0)
with tf.GradientTape() as tape:
  y = f(x)
print(tape.gradient(y, x))
"""
    result = run(source, limits=Limits(wall_time=5.0))
    assert result.error is not None and result.error.kind == "limit"


def test_other_decorators_are_still_refused_by_name() -> None:
    result = run("@print\ndef f(x):\n  return x\n")
    assert result.error is not None and result.error.kind == "refused"
    assert "@tf.custom_gradient" in result.error.message


def test_the_window_steps_the_same_pass_with_the_values_the_function_gave() -> None:
    result = run_isolated(CLIP)
    assert result.error is None and result.output == TENSOR_2
    records = list(result.tapes[0].tape.records)
    assert [r.name for r in records] == ["multiply", "custom_gradient"]
    grad_fn = records[1].params["grad_fn"]
    assert isinstance(grad_fn, RecordedGradient) and grad_fn.__name__ == "clip_gradients"
    output = records[1].outputs[0]
    v = records[0].inputs[0]
    walk = BackwardPass(records, {output.id: np.ones_like(output._value)}, [v.id])
    assert [s.record.name for s in walk] == ["custom_gradient", "multiply"]
    assert float(walk.adjoints[v.id]) == 2.0  # as the script's tape.gradient: clipped
    with pytest.raises(Exception, match="nothing tapeviz kept for this upstream"):
        list(BackwardPass(records, {output.id: np.float32(3.0)}, [v.id]))  # never ran for 3
    with pytest.raises(Exception, match="only in the script"):
        grad_fn.forward(np.float32(1.0))


def _decode(cg: object, blobs: list[bytes]) -> object:
    return P.decode({"cg": cg}, wire.Frame({}, blobs), [P.MAX_ITEMS])


def test_a_recorded_gradient_is_plain_data_on_the_wire() -> None:
    one = np.ones((), np.float32).tobytes()
    good = ["f", [[{"$a": [0, "float32", []]}, [{"$a": [0, "float32", []]}, None]]], 7]
    assert isinstance(_decode(good, [one]), RecordedGradient)
    hostile = [
        ["f", [], 7, 8],  # four parts
        [1, [], 7],  # a name that is not text
        ["f", [[{"$a": [0, "float32", []]}]], 7],  # an entry without gradients
        ["f", [[{"$a": [0, "float32", []]}, []]] * (SEEN_MAX + 1), 7],  # too many
        ["f", [], "7"],  # a result that is not a tensor id
        ["f", [[{"$a": [0, "bool", [3]]}, []]], None],  # bytes that are not its shape
        ["f", [[{"pickle": "x"}, []]], None],
    ]
    for cg in hostile:
        with pytest.raises(ProtocolError):
            _decode(cg, [one])


def test_every_pass_of_a_persistent_tape_can_be_stepped_in_the_window() -> None:
    source = CLIP.replace(
        "with tf.GradientTape() as t:", "with tf.GradientTape(persistent=True) as t:"
    )
    source = source.replace(
        "print(t.gradient(output, v))",
        "for k in range(10):\n  print(t.gradient(output, v, output_gradients=0.1 * (k + 1)))",
    )
    result = run_isolated(source)
    assert result.error is None
    tape = result.tapes[0].tape
    records, calls = list(tape.records), tape.gradient_calls
    output, v = records[1].outputs[0], records[0].inputs[0]
    for k, call in enumerate(calls):
        walk = BackwardPass(records, {output.id: call.seeds[0]}, [v.id])
        list(walk)
        expected = 4 * min(0.1 * (k + 1), 0.5)  # 2v · clip(ḡ, 0.5)
        assert abs(float(walk.adjoints[v.id]) - expected) < 1e-5
