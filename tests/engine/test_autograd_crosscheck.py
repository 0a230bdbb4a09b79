"""Gradients of random smooth expressions agree with HIPS autograd.

A hypothesis strategy builds expression trees over 2-3 variables from smooth unary and binary
ops (guarded so they stay finite: exp only of a tanh, division only by 1 + square, ...). The same
tree is evaluated with tapeviz ops under a GradientTape and with ``autograd.numpy`` under
``autograd.grad``; the gradients must agree to ~1e-9 in float64.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapeviz as tv

# Expression trees: ("var", i) | ("const", c) | ("un", name, child) | ("bin", name, left, right).
Expr = tuple[Any, ...]

UNARY_NAMES = ("sin", "cos", "tanh", "exp_tanh", "sigmoid", "softplus", "square", "log1sq",
               "sqrt1sq", "neg")  # fmt: skip
BINARY_NAMES = ("add", "sub", "mul", "div1sq")

TV_UNARY: dict[str, Callable[[Any], Any]] = {
    "sin": tv.sin,
    "cos": tv.cos,
    "tanh": tv.tanh,
    "exp_tanh": lambda a: tv.exp(tv.tanh(a)),
    "sigmoid": tv.sigmoid,
    "softplus": tv.softplus,
    "square": tv.square,
    "log1sq": lambda a: tv.log(1.0 + tv.square(a)),
    "sqrt1sq": lambda a: tv.sqrt(1.0 + tv.square(a)),
    "neg": lambda a: -a,
}
AG_UNARY: dict[str, Callable[[Any], Any]] = {
    "sin": anp.sin,
    "cos": anp.cos,
    "tanh": anp.tanh,
    "exp_tanh": lambda a: anp.exp(anp.tanh(a)),
    "sigmoid": lambda a: 1.0 / (1.0 + anp.exp(-a)),
    "softplus": lambda a: anp.logaddexp(0.0, a),
    "square": lambda a: a * a,
    "log1sq": lambda a: anp.log(1.0 + a * a),
    "sqrt1sq": lambda a: anp.sqrt(1.0 + a * a),
    "neg": lambda a: -a,
}
TV_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": tv.add,
    "sub": lambda a, b: a - b,
    "mul": tv.multiply,
    "div1sq": lambda a, b: a / (1.0 + tv.square(b)),
}
AG_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div1sq": lambda a, b: a / (1.0 + b * b),
}


def expressions(n_vars: int) -> st.SearchStrategy[Expr]:
    leaves = st.one_of(
        st.tuples(st.just("var"), st.integers(0, n_vars - 1)),
        st.tuples(st.just("const"), st.floats(-2, 2, allow_nan=False)),
    )

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.tuples(st.just("un"), st.sampled_from(UNARY_NAMES), children),
            st.tuples(st.just("bin"), st.sampled_from(BINARY_NAMES), children, children),
        )

    tree = st.recursive(leaves, extend, max_leaves=8)
    # The root is always a binary op, so every expression mixes at least two subtrees.
    return st.tuples(st.just("bin"), st.sampled_from(BINARY_NAMES), tree, tree)


def evaluate(
    expr: Expr,
    xs: Sequence[Any],
    const: Callable[[float], Any],
    unary: dict[str, Callable[[Any], Any]],
    binary: dict[str, Callable[[Any, Any], Any]],
) -> Any:
    kind = expr[0]
    if kind == "var":
        return xs[expr[1]]
    if kind == "const":
        return const(expr[1])
    if kind == "un":
        return unary[expr[1]](evaluate(expr[2], xs, const, unary, binary))
    left = evaluate(expr[2], xs, const, unary, binary)
    right = evaluate(expr[3], xs, const, unary, binary)
    return binary[expr[1]](left, right)


def tv_constant(c: float) -> tv.Tensor:
    return tv.constant(np.float64(c))


def tapeviz_value_and_grads(
    expr: Expr, values: Sequence[np.ndarray], reduce: bool
) -> tuple[np.ndarray, list[np.ndarray]]:
    xs = [tv.constant(np.asarray(v, dtype=np.float64)) for v in values]
    with tv.GradientTape() as tape:
        tape.watch(xs)
        # Adding 0 * x0 keeps every expression a tensor of the variables' broadcast shape.
        y = evaluate(expr, xs, tv_constant, TV_UNARY, TV_BINARY) + 0.0 * xs[0]
        if reduce:
            y = tv.reduce_sum(y)
    gs = tape.gradient(y, xs, unconnected_gradients="zero")
    for g, x in zip(gs, xs, strict=True):
        assert g.dtype == tv.float64
        assert g.shape == x.shape
    return np.asarray(y.numpy()), [np.asarray(g.numpy()) for g in gs]


def autograd_value_and_grads(
    expr: Expr, values: Sequence[np.ndarray], reduce: bool
) -> tuple[np.ndarray, list[np.ndarray]]:
    def f(*xs: Any) -> Any:
        y = evaluate(expr, xs, float, AG_UNARY, AG_BINARY) + 0.0 * xs[0]
        return anp.sum(y) if reduce else y

    args = [np.asarray(v, dtype=np.float64) for v in values]
    with warnings.catch_warnings():
        # autograd warns when a variable does not occur in the expression; its gradient is 0.
        warnings.filterwarnings("ignore", message="Output seems independent of input")
        grads = [np.asarray(autograd.grad(f, i)(*args), dtype=np.float64) for i in range(len(args))]
    for g, a in zip(grads, args, strict=True):
        assert g.shape == np.shape(a)
    return np.asarray(f(*args)), grads


def assert_close(actual: np.ndarray, expected: np.ndarray) -> None:
    scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
    np.testing.assert_allclose(actual, expected, rtol=1e-9, atol=1e-10 * scale)


def crosscheck(expr: Expr, values: Sequence[np.ndarray], reduce: bool) -> None:
    tv_y, tv_g = tapeviz_value_and_grads(expr, values, reduce)
    ag_y, ag_g = autograd_value_and_grads(expr, values, reduce)
    assert np.all(np.isfinite(ag_y))
    assert_close(tv_y, ag_y)
    for a, b in zip(tv_g, ag_g, strict=True):
        assert np.all(np.isfinite(b))
        assert_close(a, b)


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALUES = st.floats(-2, 2, allow_nan=False)


@st.composite
def scalar_case(draw: Any) -> tuple[Expr, list[np.ndarray]]:
    n = draw(st.integers(2, 3))
    return draw(expressions(n)), [np.float64(draw(VALUES)) for _ in range(n)]


@SETTINGS
@given(case=scalar_case())
def test_scalar_expressions_match_autograd(case: tuple[Expr, list[np.ndarray]]) -> None:
    expr, values = case
    crosscheck(expr, values, reduce=False)


@st.composite
def vector_case(draw: Any) -> tuple[Expr, list[np.ndarray]]:
    n = draw(st.integers(2, 3))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    values = [draw(hnp.arrays(np.float64, shape, elements=VALUES)) for _ in range(n)]
    return draw(expressions(n)), values


@SETTINGS
@given(case=vector_case())
def test_vector_expressions_match_autograd(case: tuple[Expr, list[np.ndarray]]) -> None:
    expr, values = case
    crosscheck(expr, values, reduce=True)


@st.composite
def broadcast_case(draw: Any) -> tuple[Expr, list[np.ndarray]]:
    shapes = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=4)
    )
    # Variable 0 carries the full broadcast shape, the others broadcast against it.
    full = shapes.result_shape
    values = [draw(hnp.arrays(np.float64, full, elements=VALUES))]
    values += [draw(hnp.arrays(np.float64, s, elements=VALUES)) for s in shapes.input_shapes[1:]]
    return draw(expressions(3)), values


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=broadcast_case())
def test_broadcasting_expressions_match_autograd(case: tuple[Expr, list[np.ndarray]]) -> None:
    expr, values = case
    crosscheck(expr, values, reduce=True)


def test_fixed_expression_matches_autograd_and_closed_form() -> None:
    # f(x, y) = sin(x) * exp(tanh(y)) + x / (1 + y²)
    expr: Expr = (
        "bin", "add",
        ("bin", "mul", ("un", "sin", ("var", 0)), ("un", "exp_tanh", ("var", 1))),
        ("bin", "div1sq", ("var", 0), ("var", 1)),
    )  # fmt: skip
    x, y = 0.7, -1.3
    _, (gx, gy) = tapeviz_value_and_grads(expr, [np.float64(x), np.float64(y)], reduce=False)
    t = np.tanh(y)
    exact_gx = np.cos(x) * np.exp(t) + 1 / (1 + y * y)
    exact_gy = np.sin(x) * np.exp(t) * (1 - t * t) - x * 2 * y / (1 + y * y) ** 2
    assert abs(gx - exact_gx) < 1e-14
    assert abs(gy - exact_gy) < 1e-14
    crosscheck(expr, [np.float64(x), np.float64(y)], reduce=False)
