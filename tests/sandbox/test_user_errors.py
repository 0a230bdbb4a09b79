"""The mistakes users make each get a precise, friendly message at the right place."""

from __future__ import annotations

import textwrap

from tapeviz.sandbox import UserCodeError, run


def error_of(source: str, **kw: object) -> UserCodeError:
    result = run(textwrap.dedent(source), **kw)  # type: ignore[arg-type]
    assert result.error is not None, result.output
    return result.error


def test_syntax_error_has_line_column_and_caret() -> None:
    err = error_of("x = 1\ny = (x + 2\nprint(y)\n")
    assert err.kind == "syntax" and err.line == 2 and err.col == 5
    assert "was never closed" in err.message
    assert err.hint == "y = (x + 2\n    ^"


def test_indentation_error() -> None:
    err = error_of("for i in range(3):\nprint(i)\n")
    assert (
        err.kind == "syntax"
        and err.line == 2
        and err.message.startswith("syntax error: indentation")
    )


def test_unknown_name_with_a_suggestion() -> None:
    err = error_of("learning_rate = 0.1\nprint(learning_rat)\n")
    assert err.kind == "name" and err.line == 2 and err.col == 7
    assert err.message == "unknown name 'learning_rat'"
    assert err.hint == "did you mean 'learning_rate'?"
    assert (err.code, err.fields) == ("unknown_name", (("name", "learning_rat"),))


def test_unknown_attribute_with_a_suggestion() -> None:
    err = error_of("import tensorflow as tf\ntf.GradientTap()\n")
    assert err.line == 2 and "module 'tensorflow' has no attribute 'GradientTap'" in err.message
    assert err.hint == "did you mean 'GradientTape'?"


def test_calling_a_number() -> None:
    err = error_of("lr = 0.1\nlr(3)\n")
    assert err.kind == "type" and err.line == 2
    assert err.message == "float 0.1 is not a function and cannot be called"


def test_wrong_argument_count() -> None:
    err = error_of("def f(x, y):\n    return x + y\nf(1, 2, 3)\n")
    assert err.kind == "type" and err.line == 3
    assert err.message == "f() takes 2 positional arguments but 3 were given"
    err = error_of("def f(x, y):\n    return x + y\nf(1)\n")
    assert err.message == "f() missing 1 required argument: 'y'"


def test_caret_on_floats_explains_power() -> None:
    err = error_of("x = 3.0\ny = x^2\n")
    assert err.kind == "type" and err.line == 2 and err.col == 5
    assert err.message == "^ is bitwise xor in Python, not a power: write x**2"
    err = error_of("import tensorflow as tf\nx = tf.constant(3.0)\ny = x^2\n")
    assert "write x**2" in err.message and err.line == 3


def test_caret_on_ints_runs_but_leaves_a_note() -> None:
    result = run("n = 3\nprint(n^2)\n")
    assert result.output == "1\n"
    assert result.notes == (
        "line 2: ^ is bitwise xor in Python (3 ^ 2 = 1); for a power write 3**2",
    )


def test_variable_used_before_assignment() -> None:
    err = error_of(
        "import tensorflow as tf\n"
        "with tf.GradientTape() as tape:\n"
        "    y = w * w\n"
        "w = tf.Variable(2.0)\n"
    )
    assert err.kind == "name" and err.line == 3 and "unknown name 'w'" in err.message


def test_gradient_of_something_computed_outside_the_tape() -> None:
    result = run(
        textwrap.dedent(
            """
            import tensorflow as tf
            x = tf.Variable(2.0)
            with tf.GradientTape() as tape:
                z = x * 2
            y = x * x
            print(tape.gradient(y, x))
            """
        )
    )
    assert result.error is None and result.output == "None\n"
    assert result.notes == (
        "line 7: tape.gradient gave None: y was computed outside the `with tape:` block, so the "
        "tape never recorded it",
    )


def test_engine_shape_errors_are_in_the_users_terms() -> None:
    err = error_of(
        """
        import tensorflow as tf
        v = tf.constant([1.0, 2.0, 3.0])
        m = tf.ones((2, 2))
        y = tf.matmul(v, m)
        """
    )
    assert err.kind == "engine" and err.line == 5 and err.col == 5
    assert str(err).startswith("line 5: matmul of (3,) and (2, 2) shapes")


def test_mixed_dtypes_name_the_fix() -> None:
    err = error_of(
        "import tensorflow as tf\n"
        "import numpy as np\n"
        "x = tf.constant(1.0) * tf.constant(np.float64(2.0))\n"
    )
    assert "multiply of float32 and float64 tensors" in err.message
    assert err.hint == "use tf.cast(x, tf.float32)"  # in the script's own spelling


def test_an_integer_literal_where_a_float_is_needed_says_write_a_float() -> None:
    err = error_of("import tensorflow as tf\ny = tf.math.log(-1)\n")
    assert err.kind == "engine" and err.line == 2
    assert err.hint == "log needs a float: write -1.0 instead of -1"
    err = error_of("import tapeviz as tv\nx = tv.constant(2)\ny = tv.exp(x)\n")
    assert err.hint == "use tv.cast(x, tv.float32)"


def test_tensors_are_immutable() -> None:
    err = error_of("import tensorflow as tf\nx = tf.constant([1.0, 2.0])\nx[0] = 5.0\n")
    assert err.line == 3 and "tensors are immutable" in err.message


def test_runtime_error_inside_a_function_points_into_it() -> None:
    err = error_of("def f(x):\n    return x / 0\n\nf(1)\n")
    assert err.line == 2 and err.message == "division by zero"


def test_unsupported_syntax_is_explained() -> None:
    assert "metaclass" in error_of("class A(metaclass=type):\n    pass\n").message
    assert "walrus" in error_of("if (n := 3):\n    pass\n").message
    assert "yield" in error_of("def g():\n    x = yield 1\n").message  # as a statement it runs


def test_non_scalar_expression_gets_a_note() -> None:
    result = run("x * 2", mode="expression", variables={"x": [1.0, 2.0]})
    assert result.error is None
    assert result.notes == ("the expression has shape (2,): gradients are of its sum",)
    assert result.gradients["x"].numpy().tolist() == [2.0, 2.0]


def test_user_code_error_str() -> None:
    err = UserCodeError("boom", 3, 1, "try again")
    assert str(err) == "line 3: boom (try again)"
