"""Scripts with tf.string tensors, as the window runs them: in the worker, across the wall.

A string tensor never sits on a tape (TensorFlow records no string op there), so the records
the window gets hold numbers only; a string tensor as a script's value comes back as its repr.
Its ``numpy()`` (bytes, or an object array of nothing but bytes) can be read, not computed with:
numpy arithmetic would repeat bytes past every size check.
"""

from __future__ import annotations

import pytest

from tapeviz.sandbox import Limits, run
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated

# guide/tensor's "String tensors" cells, as the guide has them.
GUIDE = """import tensorflow as tf
scalar_string_tensor = tf.constant("Gray wolf")
print(scalar_string_tensor)
tensor_of_strings = tf.constant(["Gray wolf",
                                 "Quick brown fox",
                                 "Lazy dog"])
print(tensor_of_strings)
print(tf.strings.split(scalar_string_tensor, sep=" "))
print(tf.strings.split(tensor_of_strings))
text = tf.constant("1 10 100")
print(tf.strings.to_number(tf.strings.split(text, " ")))
byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
byte_ints = tf.io.decode_raw(tf.constant("Duck"), tf.uint8)
print("Byte strings:", byte_strings)
print("Bytes:", byte_ints)
"""
GUIDE_OUT = (
    "tf.Tensor(b'Gray wolf', shape=(), dtype=string)\n"
    "tf.Tensor([b'Gray wolf' b'Quick brown fox' b'Lazy dog'], shape=(3,), dtype=string)\n"
    "tf.Tensor([b'Gray' b'wolf'], shape=(2,), dtype=string)\n"
    "<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox'], [b'Lazy', b'dog']]>\n"
    "tf.Tensor([  1.  10. 100.], shape=(3,), dtype=float32)\n"
    "Byte strings: tf.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)\n"
    "Bytes: tf.Tensor([ 68 117  99 107], shape=(4,), dtype=uint8)\n"
)
SMALL = Limits(max_elements=10_000)


def test_the_guides_string_cells_run_in_the_worker(pool: Pool) -> None:
    result = run_isolated(GUIDE, pool=pool)
    assert result.error is None, result.error
    assert result.output == GUIDE_OUT


def test_a_tape_beside_string_ops_crosses_the_wall(pool: Pool) -> None:
    source = """import tensorflow as tf
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    s = tf.constant("a") + tf.constant("b")
    y = x * x * tf.cast(s == "ab", tf.float32)
g = tape.gradient(y, x)
print(g)
"""
    result = run_isolated(source, pool=pool)
    assert result.error is None, result.error
    assert result.output == "tf.Tensor(6.0, shape=(), dtype=float32)\n"
    tape = result.tapes[0].tape
    assert [r.name for r in tape.records] == ["multiply", "cast", "multiply"]
    assert all(not t.dtype.is_string for r in tape.records for t in (*r.inputs, *r.outputs))


def test_a_string_value_comes_back_as_its_repr(pool: Pool) -> None:
    result = run_isolated("import tensorflow as tf\nx = tf.constant(['a', 'b'])\nx", pool=pool)
    assert result.error is None, result.error
    assert result.value == (
        "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'b'], dtype=object)>"
    )


def test_tf_function_string_cells_run_in_the_worker(pool: Pool) -> None:
    source = """import tensorflow as tf
@tf.function
def double(a):
  print("Tracing with", a)
  return a + a

print(double(tf.constant("a")))
print(double(tf.constant("b")))
double_strings = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
print(double_strings(tf.constant("c")))
"""
    result = run_isolated(source, pool=pool)
    assert result.error is None, result.error
    assert result.output == (
        'Tracing with Tensor("a:0", shape=(), dtype=string)\n'
        "tf.Tensor(b'aa', shape=(), dtype=string)\n"
        "tf.Tensor(b'bb', shape=(), dtype=string)\n"
        "tf.Tensor(b'cc', shape=(), dtype=string)\n"
    )


def test_numpy_of_strings_can_be_read() -> None:
    source = """import tensorflow as tf
t = tf.constant(["Gray wolf", "Lazy dog"])
a = t.numpy()
print(a.shape, a.tolist(), a[1], a.dtype)
print(tf.constant("é").numpy().decode("utf-8"), [s.decode() for s in a])
"""
    result = run(source)
    assert result.error is None, result.error
    assert result.output == (
        "(2,) [b'Gray wolf', b'Lazy dog'] b'Lazy dog' object\né ['Gray wolf', 'Lazy dog']\n"
    )


@pytest.mark.parametrize(
    "body",
    [
        "a = tf.constant(['ab']).numpy()\nb = a * 10**7",  # bytes repeated per element
        "a = tf.constant(['ab']).numpy()\nb = a % ()",
        "b = np.multiply(tf.constant(['ab']), 10**7)",  # numpy of a string tensor
        "b = np.array(tf.constant(['ab']))",
        "a = tf.constant(['ab']).numpy()\nb = a.sum()",  # only reading is offered
        "a = tf.constant(['ab']).numpy()\na[0] = print\nb = a.tolist()",  # bytes only
    ],
)
def test_numpy_of_strings_cannot_be_computed_with(body: str) -> None:
    result = run("import tensorflow as tf\nimport numpy as np\n" + body)
    assert result.error is not None and result.error.kind == "refused", result.error
    assert "dtype object" in result.error.message


@pytest.mark.parametrize(
    "body",
    [
        "x = tf.constant('ab')\nfor _ in range(20):\n    x = x + x",
        "x = tf.fill([1000], 'a' * 1000)",
        "x = tf.constant('a' * 1000, shape=[1000])",
        "x = tf.tile(tf.constant(['a' * 1000]), [100])\ny = tf.strings.upper(x)",
        "x = tf.strings.join([tf.tile(tf.constant(['a']), [100]), 'b' * 1000])",
        "x = tf.strings.as_string(tf.range(100), width=1000)",
    ],
)
def test_string_sizes_are_limited(body: str) -> None:
    result = run("import tensorflow as tf\n" + body, limits=SMALL)
    assert result.error is not None and result.error.kind == "limit", result.error
