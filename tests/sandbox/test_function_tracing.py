"""tf.function's tracing, as the tf.function guide prints it: Python runs only when it traces."""

from __future__ import annotations

from tapeviz.sandbox import run

# From TensorFlow's "Better performance with tf.function" guide.
TRACED_ONCE = """import tensorflow as tf
@tf.function
def f(x):
  print("Traced with", x)
  tf.print("Executed with", x)

f(1)
f(1)
f(2)
"""


def test_python_print_runs_when_tracing_and_tf_print_on_every_call() -> None:
    result = run(TRACED_ONCE)
    assert result.error is None
    assert result.output.splitlines() == [
        "Traced with 1",
        "Executed with 1",
        "Executed with 1",
        "Traced with 2",
        "Executed with 2",
    ]


def test_the_tracing_count_follows_tensorflows_rules() -> None:
    source = """import tensorflow as tf
@tf.function
def f(x):
  return tf.abs(x)
f.get_concrete_function(1)  # nothing runs eagerly: the first call traces
counts = [f.experimental_get_tracing_count()]
f(1)
counts.append(f.experimental_get_tracing_count())
f(2)  # another Python value: traced again
f(tf.constant(3))  # a tensor
f(tf.constant(4))  # the same dtype and shape: not again
f(tf.constant([4, 5]))  # another shape
counts.append(f.experimental_get_tracing_count())

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def g(x):
  print("tracing g")
  return x * 2
g(tf.constant([1.0])); g(tf.constant([1.0, 2.0]))
counts.append(g.experimental_get_tracing_count())

class M(tf.Module):
  def __init__(self):
    self.v = tf.Variable(1.0)
  @tf.function
  def __call__(self, x):
    print("tracing M")
    return self.v * x
m = M()
m(tf.constant(2.0)); m(tf.constant(3.0)); m(tf.constant([1.0, 2.0]))
print(counts)
"""
    result = run(source)
    assert result.error is None, result.error
    assert result.output.splitlines() == ["tracing g", "tracing M", "tracing M", "[0, 1, 4, 1]"]


def test_a_call_that_is_not_traced_still_computes_and_records() -> None:
    source = """import tensorflow as tf
@tf.function
def loss(w):
  print("tracing")
  return w * w
w = tf.Variable(3.0)
for i in range(3):
  with tf.GradientTape() as tape:
    y = loss(w)
  print(float(tape.gradient(y, w)))
  w.assign_sub(1.0)
"""
    result = run(source)
    assert result.error is None
    assert result.output.splitlines() == ["tracing", "6.0", "4.0", "2.0"]
    assert len(result.tapes) == 3 and all(t.tape.records for t in result.tapes)


def test_a_traced_print_shows_its_tensor_arguments_as_tensorflow_does() -> None:
    source = """import tensorflow as tf
@tf.function
def double(a):
  print("Tracing with", a)
  return a + a

print(double(tf.constant(1)))
print(double(tf.constant(1.1)))
print(double(tf.constant(2)))

@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def g(x):
  print("tracing g", x, 3)
  return x * 2
g(tf.constant([1.0, 2.0]))
"""
    result = run(source)
    assert result.error is None
    assert result.output.splitlines() == [  # as the tf.function guide prints them
        'Tracing with Tensor("a:0", shape=(), dtype=int32)',
        "tf.Tensor(2, shape=(), dtype=int32)",
        'Tracing with Tensor("a:0", shape=(), dtype=float32)',
        "tf.Tensor(2.2, shape=(), dtype=float32)",
        "tf.Tensor(4, shape=(), dtype=int32)",
        'tracing g Tensor("x:0", shape=(None,), dtype=float32) 3',
    ]


def test_the_same_arguments_by_name_or_default_are_one_trace() -> None:
    source = """import tensorflow as tf
@tf.function
def f(x, y=2):
  print("tracing")
  return x * y
t = tf.constant(1.0)
f(t, y=2); f(y=2, x=t); f(t, 2); f(t); f(x=t)
print(f.experimental_get_tracing_count())
"""
    result = run(source)
    assert result.error is None and result.output == "tracing\n1\n"


def test_a_trace_that_fails_is_traced_again() -> None:
    source = """import tensorflow as tf
@tf.function
def f(x):
  print("tracing", x)
  return 1 / x
for v in [0, 0]:
  try:
    f(v)
  except ZeroDivisionError:
    pass
print(f.experimental_get_tracing_count())
"""
    result = run(source)
    assert result.output == "tracing 0\ntracing 0\n0\n"


def test_a_function_over_a_custom_gradient_keeps_it() -> None:
    source = """import tensorflow as tf
@tf.function
@tf.custom_gradient
def g(x):
  return x * 2.0, lambda dy: dy * 5.0
class M(tf.Module):
  @tf.function
  @tf.custom_gradient
  def h(self, x):
    return x * 2.0, lambda dy: dy * 7.0
x = tf.Variable(1.0)
with tf.GradientTape(persistent=True) as tape:
  y = g(x)
  z = M().h(x)
print(float(y), float(tape.gradient(y, x)), float(z), float(tape.gradient(z, x)))
"""
    result = run(source)
    assert result.error is None, result.error
    assert result.output == "2.0 5.0 2.0 7.0\n"
