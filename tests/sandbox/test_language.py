"""Script mode runs the Python subset the seeds (and lecturers) use, with Python's semantics."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pytest

from tapeviz.sandbox import RunResult, run


def ok(source: str, **kw: Any) -> RunResult:
    result = run(textwrap.dedent(source), **kw)
    assert result.error is None, result.error
    return result


def test_functions_defaults_varargs_kwargs_and_keyword_only() -> None:
    r = ok(
        """
        def f(a, b=2, *rest, scale=1, **extra):
            return (a + b + sum(rest)) * scale, sorted(extra)
        print(f(1), f(1, 2, 3, 4), f(1, scale=10, z=1, y=2))
        """
    )
    assert r.output == "(3, []) (10, []) (30, ['y', 'z'])\n"


def test_closures_nonlocal_global_and_recursion() -> None:
    r = ok(
        """
        count = 0
        def counter():
            n = 0
            def step():
                nonlocal n
                global count
                n += 1
                count += 10
                return n
            return step
        s = counter()
        s(); s()
        def fact(k):
            return 1 if k <= 1 else k * fact(k - 1)
        print(s(), count, fact(10))
        """
    )
    assert r.output == "3 30 3628800\n"


def test_local_used_before_assignment_is_reported() -> None:
    r = run("x = 1\ndef f():\n    y = x + 1\n    x = 2\n    return y\nf()\n")
    assert r.error is not None and r.error.kind == "name"
    assert "'x' is used before it is assigned" in r.error.message and r.error.line == 3


def test_loops_with_break_continue_else_and_while() -> None:
    r = ok(
        """
        out = []
        for i in range(10):
            if i % 2:
                continue
            if i > 6:
                break
            out.append(i)
        else:
            out.append('never')
        n = 0
        while n < 3:
            n += 1
        else:
            out.append(n)
        print(out)
        """
    )
    assert r.output == "[0, 2, 4, 6, 3]\n"


def test_comprehensions_generators_and_their_own_scope() -> None:
    r = ok(
        """
        i = 'outer'
        squares = [i * i for i in range(5) if i != 2]
        pairs = {(a, b) for a in range(2) for b in 'xy'}
        table = {k: v for k, v in zip('abc', range(3))}
        total = sum(x for x in range(101))
        print(squares, sorted(pairs), table, total, i)
        """
    )
    assert r.output == (
        "[0, 1, 9, 16] [(0, 'x'), (0, 'y'), (1, 'x'), (1, 'y')] "
        "{'a': 0, 'b': 1, 'c': 2} 5050 outer\n"
    )


def test_unpacking_slicing_fstrings_and_chained_comparisons() -> None:
    r = ok(
        """
        a, (b, c), *rest = 1, (2, 3), 4, 5
        first, *middle, last = range(6)
        xs = [0, 1, 2, 3, 4, 5]
        w = 3.14159
        print(a, b, c, rest, middle, xs[::-2], xs[1:4], f"{w:.2f}|{a!r}|{'hi':>4}", 1 < b < 3)
        """
    )
    assert r.output == "1 2 3 [4, 5] [1, 2, 3, 4] [5, 3, 1] [1, 2, 3] 3.14|1|  hi True\n"


def test_try_except_finally_raise_and_assert() -> None:
    r = ok(
        """
        log = []
        try:
            1 / 0
        except ZeroDivisionError as e:
            log.append('zero')
        finally:
            log.append('done')
        try:
            raise ValueError('bad value')
        except (TypeError, ValueError) as e:
            log.append(str(e))
        try:
            assert 1 > 2, 'maths broke'
        except AssertionError as e:
            log.append(str(e))
        print(log)
        """
    )
    assert r.output == "['zero', 'done', 'bad value', 'maths broke']\n"


def test_engine_errors_are_catchable_as_tensorflow_errors() -> None:
    r = ok(
        """
        import tensorflow as tf
        try:
            tf.constant([1.0, 2.0, 3.0]) + tf.constant([1.0, 2.0])
        except tf.errors.InvalidArgumentError as e:
            print('caught:', str(e).split(':')[0])
        """
    )
    assert r.output == "caught: add of (3,) and (2,) shapes (float32)\n"


def test_imports_in_every_allowed_form() -> None:
    r = ok(
        """
        import tensorflow as tf
        import tapeviz.tf as tf2
        import tapeviz as tv
        import numpy as np
        import math
        from tensorflow.keras.optimizers import SGD
        from numpy import pi
        import tensorflow
        print(tf is tf2, tensorflow is tf, SGD is tf.keras.optimizers.SGD, math.floor(pi))
        print(tv.constant(2.0) * 3, np.sqrt(np.array([4.0, 9.0])))
        """
    )
    assert r.output == "True True True 3\ntf.Tensor(6.0, shape=(), dtype=float32) [2. 3.]\n"


def test_tf_function_decorators_and_lambdas_with_minimize() -> None:
    r = ok(
        """
        import tensorflow as tf
        x = tf.Variable(0.0)
        opt = tf.keras.optimizers.SGD(learning_rate=0.1)
        @tf.function(jit_compile=True)
        def loss():
            return (x - 3.0) ** 2
        for _ in range(100):
            opt.minimize(lambda: loss(), [x])
        opt.learning_rate = 0.05
        opt.learning_rate *= 2
        tf.print(x, opt.learning_rate)
        """
    )
    assert r.output == "2.99999952 0.1\n"  # 3·(1 − 0.8¹⁰⁰) in float32


def test_augmented_assignment_on_items_and_in_place_lists() -> None:
    r = ok(
        """
        import numpy as np
        d = {'a': 1}
        d['a'] += 5
        xs = [1, 2]
        alias = xs
        xs += [3]
        arr = np.zeros(3)
        arr[1] = 7
        del d['a']
        print(d, alias, arr.tolist())
        """
    )
    assert r.output == "{} [1, 2, 3] [0.0, 7.0, 0.0]\n"


def test_last_expression_is_the_value() -> None:
    assert ok("x = 2\nx * 21").value == 42
    assert ok("x = 2\ny = x").value is None


def test_variables_table_prebinds_names_in_script_mode() -> None:
    r = ok(
        """
        import tensorflow as tf
        with tf.GradientTape(persistent=True) as tape:
            y = w * w + c
        print(tape.gradient(y, w).numpy(), tape.gradient(y, c))
        """,
        variables=[("w", 3.0, "trainable"), ("c", 1.0, "constant")],
    )
    assert r.output == "6.0 None\n"


@pytest.mark.parametrize(
    ("source", "printed"),
    [
        ("print(isinstance(3, int), isinstance('a', (int, str)))", "True True"),
        ("print(min([3, 1, 2]), max(1, 5), abs(-2), round(2.567, 2))", "1 5 2 2.57"),
        ("print(list(map(lambda v: v * 2, [1, 2])), list(filter(None, [0, 1])))", "[2, 4] [1]"),
        (
            "print(sorted(['bb', 'a'], key=len), list(reversed('ab')), any([0, 1]))",
            "['a', 'bb'] ['b', 'a'] True",
        ),
        (
            "print(' '.join(['a', 'b']).upper(), 'a,b'.split(','), '{} {}'.format(1, 2))",
            "A B ['a', 'b'] 1 2",
        ),
        (
            "print(divmod(7, 2), pow(2, 10), len({1: 2}), 'x' in 'xy', 2 ** 100 > 0)",
            "(3, 1) 1024 1 True True",
        ),
    ],
)
def test_builtins(source: str, printed: str) -> None:
    assert ok(source).output == printed + "\n"


def test_numpy_and_math_are_usable() -> None:
    r = ok(
        """
        import numpy as np
        import math
        np.random.seed(0)
        a = np.linspace(0, 1, 5)
        b = np.random.randn(3)
        m = np.arange(6).reshape(2, 3)
        print(a.sum(), m.T.shape, np.mean(m), b.shape, round(math.sqrt(2), 3), np.pi > 3)
        """
    )
    assert r.output == "2.5 (3, 2) 2.5 (3,) 1.414 True\n"
    np.random.seed(0)
    assert r.namespace["b"].tolist() == np.random.randn(3).tolist()


def test_chinese_comments_and_strings_run() -> None:
    r = ok("# 中文注释\nmsg = '梯度'\nprint(msg, len(msg))\n")
    assert r.output == "梯度 2\n"


def test_a_finished_run_leaves_no_reference_cycles() -> None:
    """A script's functions hold their frame: without breaking that cycle every array of the run
    waits for a garbage collection, which the app only runs on the UI thread."""
    import gc

    source = (
        "import numpy as np\nX = np.ones(1000)\n"
        "def loss():\n    return (X * 2).sum()\n"
        "def again(n):\n    return 0 if n == 0 else again(n - 1)\n"
        "total = loss() + again(3)\n"
    )
    run(source)  # warm caches
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = run(source)
        assert result.error is None and result.namespace["total"] == 2000
        del result
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
