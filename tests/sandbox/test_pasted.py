"""Scripts as people paste them: notebook cells without imports; messages that say what exists."""

from __future__ import annotations

import textwrap

import pytest

from tapeviz.models.descent.problem import Problem
from tapeviz.sandbox import UserCodeError, VariableSpec, run


def ok(source: str) -> str:
    result = run(textwrap.dedent(source))
    assert result.error is None, result.error
    return result.output


def error_of(source: str) -> UserCodeError:
    result = run(textwrap.dedent(source))
    assert result.error is not None, result.output
    return result.error


def test_a_guide_cell_without_imports_runs() -> None:
    """The autodiff guide's second cell, as pasted after its first (imports) cell."""
    out = ok(
        """
        x = tf.Variable(3.0)

        with tf.GradientTape() as tape:
          y = x**2
        dy_dx = tape.gradient(y, x)
        dy_dx.numpy()
        print(dy_dx.numpy())
        w = tf.Variable(tf.ones((3, 2)), name='w')
        print(np.round(w.numpy().sum(), 1))
        """
    )
    assert out == "6.0\n6.0\n"


def test_an_explicit_import_binds_the_same_objects() -> None:
    out = ok(
        "import tensorflow as tf2\nimport numpy\nimport tensorflow as tf\n"
        "print(tf2 is tf, numpy is np, tf.constant is tf2.constant)\n"
    )
    assert out == "True True True\n"


def test_the_prelude_stays_out_of_the_result_and_of_expression_mode() -> None:
    result = run("x = tf.constant(1.0)")
    assert "tf" not in result.namespace and "np" not in result.namespace
    expr = run("tf", mode="expression", variables=[VariableSpec("x", 1.0)])
    assert expr.error is not None and "unknown name 'tf'" in expr.error.message


def test_studio_scripts_need_no_imports() -> None:
    """A ``def loss():`` script without imports: the driver runs it, and it replays."""
    problem = Problem(
        "X = tf.constant([1.0, 2.0, 3.0])\ny = 2.0 * X\n\ndef loss():\n"
        "    return tf.reduce_mean(tf.square(a * X - y))\n",
        (VariableSpec("a", 0.5, "trainable"),),
        "script",
    )
    loss = problem.compile()
    assert loss.replay_refusal is None  # tf. calls are the engine's ops, with or without import
    value, grads, _ = loss.gradient(loss.variables([0.5]))
    assert float(value.numpy()) == pytest.approx(14 / 3 * 2.25)
    assert float(grads[0].numpy()) == pytest.approx(-14.0)


def test_type_names_are_tensorflows() -> None:
    """The autodiff guide's "replaced a variable with a tensor" cell prints TF's class names."""
    out = ok(
        """
        x = tf.Variable(2.0)
        for epoch in range(2):
          with tf.GradientTape() as tape:
            y = x+1
          print(type(x).__name__, ":", tape.gradient(y, x))
          x = x + 1   # This should be `x.assign_add(1)`
        """
    )
    assert out == (
        "ResourceVariable : tf.Tensor(1.0, shape=(), dtype=float32)\nEagerTensor : None\n"
    )


def test_versions_names_and_isinstance() -> None:
    out = ok(
        "print(tf.__version__.startswith('2.'), isinstance(np.__version__, str))\n"
        "print(tf.__name__, np.__name__, tf.reduce_sum.__name__, type(1.0).__name__)\n"
        "print(isinstance(tf.constant(1.0), tf.Tensor), isinstance(tf.Variable(1.0), tf.Tensor))\n"
        "print(type(tf.constant(1.0)), type(tf.constant(1.0)) is type(tf.constant(2.0)))\n"
    )
    assert out == (
        "True True\ntensorflow numpy reduce_sum float\nTrue False\n"
        "<class 'tensorflow.python.framework.ops.EagerTensor'> True\n"
    )


@pytest.mark.parametrize(
    ("source", "message", "hint"),
    [
        ("plt.plot([1, 2])", "unknown name 'plt'", "add `import matplotlib.pyplot as plt`"),
        ("keras.layers", "unknown name 'keras'", "from tensorflow import keras"),
        ("pd.DataFrame()", "unknown name 'pd'", "pandas is not available in tapeviz"),
        ("reduce_sum([1.0])", "unknown name 'reduce_sum'", "did you mean 'tf.reduce_sum'?"),
        ("linspace(0, 1)", "unknown name 'linspace'", "did you mean 'tf.linspace'?"),
        ("arange(3)", "unknown name 'arange'", "did you mean 'np.arange'?"),
        ("scatter([1], [2])", "unknown name 'scatter'", "did you mean 'plt.scatter'?"),
        ("learnin_rate", "unknown name 'learnin_rate'", None),
        ("tf.compat.v1", "tf.compat is not available in tapeviz", 'Help → "Libraries in'),
        ("tf.lite.TFLiteConverter", "tf.lite is not available", "no file access"),
        ("np.load('x.npy')", "np.load is not available in tapeviz", "no file access"),
        ("np.fft.fft([1])", "np.fft is not available in tapeviz", "tapeviz's numpy has"),
        ("tf.constant(1.0).graph", "Tensor.graph is not available in tapeviz", "Help"),
        (
            "tf.GradientTap()",
            "module 'tensorflow' has no attribute 'GradientTap'",
            "did you mean 'GradientTape'?",
        ),
        ("import pandas as pd", "import of 'pandas' is not allowed", "pandas is not available"),
        (
            "import tensorflow_datasets",
            "import of 'tensorflow_datasets' is not allowed",
            "tapeviz scripts can import tensorflow, torch, numpy, matplotlib",
        ),
        ("import tensorflow.compat.v1 as tf", "tf.compat is not available in tapeviz", "Help"),
        ("from tensorflow import compat", "tf.compat is not available in tapeviz", "Help"),
        ("import sys", "import of 'sys' is not allowed", "no access to files"),
        (
            "x = tf.constant(1.0)\nx.numpy.__self__",
            "the attribute '__self__' is not available",
            None,
        ),
        ("del tape", "cannot delete 'tape': it is not defined", None),
    ],
)
def test_messages_say_what_exists(source: str, message: str, hint: str | None) -> None:
    err = error_of(source)
    assert message in err.message, err
    if hint is not None:
        assert hint in (err.hint or ""), err
    assert "did you mean 'concat'" not in str(err)


def test_a_blocked_attribute_says_it_is_blocked() -> None:
    err = error_of("opt = tf.keras.optimizers.SGD()\nopt.update_step")
    assert err.kind in ("refused", "runtime")
    if err.kind == "refused":
        assert "is not available in tapeviz scripts" in err.message
    err = error_of("import math\nmath.ulp(1.0)")
    assert err.kind == "refused" and err.message == "math.ulp is not available in tapeviz"


def test_deleting_the_prelude_gives_the_import_hint() -> None:
    err = error_of("del tf\ntf.constant(1.0)")
    assert err.line == 2 and "add `import tensorflow as tf`" in (err.hint or "")


def test_ipython_lines_of_a_notebook_cell_are_skipped_with_a_note() -> None:
    result = run(
        "%matplotlib inline\nimport matplotlib.pyplot as plt\n!pip install tensorflow\n"
        "x = (10\n% 3)\ns = '''\n%not a magic\n'''\nprint(x, s.strip())\ny = q\n"
    )
    assert result.output == "1 %not a magic\n"
    assert result.notes == (
        "line 1: %matplotlib inline is an IPython command; tapeviz skipped it",
        "line 3: !pip install tensorflow is an IPython command; tapeviz skipped it",
    )
    assert result.error is not None and result.error.line == 10  # lines still count from 1
    err = error_of("display(tf.constant(1.0))")
    assert "display() is IPython's" in (err.hint or "")


def test_fstrings_of_objects_hold_no_address() -> None:
    out = ok("class A:\n    pass\nprint(f'{A()}', f'{print}', '{}'.format(1))\n")
    assert out == "<__main__.A object> <function sandbox_print> 1\n"


def test_an_older_tutorials_future_imports_are_accepted() -> None:
    source = "from __future__ import absolute_import, division, print_function\nprint(7 / 2)\n"
    result = run(source)
    assert result.error is None and result.output == "3.5\n"
    bad = run("from __future__ import braces\n")
    assert bad.error is not None and "braces" in bad.error.message
