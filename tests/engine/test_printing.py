"""tf.print formats numbers the way TensorFlow does."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine.printing import capture, format_array, format_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (np.float32(1.0), "1"),
        (np.float32(0.0), "0"),
        (np.float32(-2.0), "-2"),
        (np.float32(0.332391977), "0.332391977"),
        (np.float32(0.0003221035), "0.0003221035"),
        (np.float32(0.1), "0.1"),
        (np.float32(1 / 3), "0.333333343"),
        (np.float32(1e6), "1e+06"),
        (np.float32(1e-5), "1e-05"),
        (np.float64(1 / 3), "0.33333333333333331"),
        (np.float64(0.5), "0.5"),
        (np.int32(-7), "-7"),
        (np.bool_(True), "1"),
        (np.float32(np.inf), "inf"),
        (np.float32(-np.inf), "-inf"),
        (np.float32(np.nan), "nan"),
    ],
)
def test_scalar_format(value: object, text: str) -> None:
    assert format_number(value) == text


def test_array_format_and_summarize() -> None:
    assert format_array(np.array([1.0, 2.5, 3.0], dtype=np.float32)) == "[1 2.5 3]"
    assert format_array(np.arange(10)) == "[0 1 2 ... 7 8 9]"
    assert format_array(np.arange(10), summarize=-1) == "[0 1 2 3 4 5 6 7 8 9]"
    assert format_array(np.array([[1, 2], [3, 4]])) == "[[1 2]\n [3 4]]"
    cube = np.arange(8).reshape(2, 2, 2)
    assert format_array(cube) == "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"


def test_tf_print_structures_and_separators() -> None:
    out = io.StringIO()
    with capture(out.write):
        tv.print("step =", 3, "; y =", tv.constant(0.5))
        tv.print((tv.constant(-2.0), tv.constant(1.0)))
        tv.print([tv.constant(1), "a", 1.5], sep="|", end="!\n")
        tv.print(tv.Variable(0.999998569))
    assert out.getvalue() == "step = 3 ; y = 0.5\n(-2, 1)\n[1, 'a', 1.5]!\n0.999998569\n"


def test_capture_is_per_thread_and_nests() -> None:
    outer, inner = io.StringIO(), io.StringIO()
    with capture(outer.write):
        tv.print("a")
        with capture(inner.write):
            tv.print("b")
        tv.print("c")
    assert outer.getvalue() == "a\nc\n" and inner.getvalue() == "b\n"
