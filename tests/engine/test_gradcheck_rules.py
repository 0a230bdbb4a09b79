"""Every differentiable primitive passes finite differences (float64, random broadcasting shapes).

Each VJP is checked through its public op against central differences, with inputs kept away
from kinks and singularities; a few representative ops are also checked to second order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapeviz as tv
from tapeviz.engine import primitives as P
from tapeviz.engine.primitives import PRIMITIVES
from tapeviz.engine.vjp_rules import VJP

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# Primitives whose finite-difference check lives in this file (scatter through getitem order 2).
FD_COVERED = {
    "add", "subtract", "multiply", "divide", "divide_no_nan", "mod", "negative", "pow", "square",
    "sqrt", "rsqrt", "reciprocal", "exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh",
    "sigmoid", "softplus", "relu", "leaky_relu", "abs", "sign", "maximum", "minimum",
    "clip_by_value", "where", "matmul", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min",
    "norm", "stack", "concat", "reshape", "transpose", "broadcast_to", "getitem", "cast",
    "identity", "scatter",
}  # fmt: skip


def test_finite_difference_checks_cover_every_differentiable_primitive() -> None:
    # The primitives registered after ``scatter`` (tf.nn, tf.math, tf.linalg, indexing) are
    # checked in test_gradcheck_nn.py, which asserts it covers each of them.
    names = list(PRIMITIVES)
    later = set(names[names.index("scatter") + 1 :])
    differentiable = {name for name, prim in PRIMITIVES.items() if VJP[prim] is not None}
    assert differentiable - later == FD_COVERED


# ---------------------------------------------------------------------------------------------
# (b) finite differences, float64, random shapes with broadcasting
# ---------------------------------------------------------------------------------------------

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)
PAIRS = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=4)
SEEDS = st.integers(0, 2**32 - 1)


def floats(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def away_from_zero(gap: float, hi: float) -> st.SearchStrategy[float]:
    """Floats with ``gap <= |x| <= hi``."""
    return floats(gap, hi) | floats(-hi, -gap)


def arrays(shape: tuple[int, ...], elements: st.SearchStrategy[float]) -> st.SearchStrategy[Any]:
    return hnp.arrays(np.float64, shape, elements=elements)


def check(f: Callable[..., tv.Tensor], *args: Any, seed: int = 0, order: int = 1) -> None:
    """Finite-difference check in float64 with a hypothesis-chosen projection seed."""
    tv.gradcheck.check_grads(f, *args, order=order, rng=np.random.default_rng(seed))


def unique_floats(shape: tuple[int, ...], draw: Any, scale: float = 0.05) -> np.ndarray:
    """Distinct values at least ``scale`` apart (no ties for max/min)."""
    ints = draw(hnp.arrays(np.int64, shape, elements=st.integers(-200, 200), unique=True))
    return ints.astype(np.float64) * scale


@st.composite
def sub_shape(draw: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to ``shape`` (a suffix of it with some sides set to 1)."""
    k = draw(st.integers(0, len(shape)))
    tail = shape[len(shape) - k :]
    return tuple(d if draw(st.booleans()) else 1 for d in tail)


# -- unary elementwise ------------------------------------------------------------------------

UNARY: dict[str, tuple[Callable[[Any], tv.Tensor], st.SearchStrategy[float]]] = {
    "negative": (tv.negative, floats(-3, 3)),
    "square": (tv.square, floats(-3, 3)),
    "sqrt": (tv.sqrt, floats(0.2, 4)),
    "rsqrt": (tv.rsqrt, floats(0.3, 4)),
    "reciprocal": (tv.reciprocal, away_from_zero(0.3, 3)),
    "exp": (tv.exp, floats(-3, 3)),
    "log": (tv.log, floats(0.2, 4)),
    "log1p": (tv.log1p, floats(-0.7, 3)),
    "expm1": (tv.expm1, floats(-3, 3)),
    "sin": (tv.sin, floats(-4, 4)),
    "cos": (tv.cos, floats(-4, 4)),
    "tan": (tv.tan, floats(-1.2, 1.2)),
    "tanh": (tv.tanh, floats(-3, 3)),
    "sigmoid": (tv.sigmoid, floats(-5, 5)),
    "softplus": (tv.softplus, floats(-5, 5)),
    "relu": (tv.relu, away_from_zero(0.05, 3)),
    "leaky_relu": (tv.leaky_relu, away_from_zero(0.05, 3)),
    "leaky_relu_alpha": (lambda x: tv.leaky_relu(x, alpha=0.37), away_from_zero(0.05, 3)),
    "abs": (tv.abs, away_from_zero(0.05, 3)),
    "sign": (tv.sign, away_from_zero(0.05, 3)),
    "identity": (tv.identity, floats(-3, 3)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@SETTINGS
@given(data=st.data(), shape=SHAPES, seed=SEEDS)
def test_unary_fd(name: str, data: st.DataObject, shape: tuple[int, ...], seed: int) -> None:
    fn, elements = UNARY[name]
    x = data.draw(arrays(shape, elements))
    check(fn, x, seed=seed)


def test_unary_ops_are_nontrivially_checked() -> None:
    # A wrong VJP must be caught: the check rejects sin with a cos-less (identity) rule.
    def wrong(x: tv.Tensor) -> tv.Tensor:
        return tv.sin(x) + x - tv.stop_gradient(x)  # value sin(x), gradient cos(x) + 1

    with pytest.raises(AssertionError, match="gradient check failed"):
        tv.gradcheck.check_grads(wrong, np.array([0.3, 1.0, -2.0]))


# -- binary elementwise with broadcasting -----------------------------------------------------


@st.composite
def pair(
    draw: Any, ex: st.SearchStrategy[float], ey: st.SearchStrategy[float]
) -> tuple[np.ndarray, np.ndarray]:
    sx, sy = draw(PAIRS).input_shapes
    return draw(arrays(sx, ex)), draw(arrays(sy, ey))


BINARY: dict[str, tuple[Callable[[Any, Any], tv.Tensor], Any]] = {
    "add": (tv.add, pair(floats(-3, 3), floats(-3, 3))),
    "subtract": (tv.subtract, pair(floats(-3, 3), floats(-3, 3))),
    "multiply": (tv.multiply, pair(floats(-3, 3), floats(-3, 3))),
    "divide": (tv.divide, pair(floats(-3, 3), away_from_zero(0.5, 3))),
    "divide_no_nan": (tv.divide_no_nan, pair(floats(-3, 3), away_from_zero(0.5, 3))),
    "pow": (tv.pow, pair(floats(0.3, 2.5), floats(-2, 2.5))),
    "operator_add": (lambda x, y: x + y, pair(floats(-3, 3), floats(-3, 3))),
    "operator_rtruediv": (lambda x, y: 2.0 / y - x, pair(floats(-3, 3), away_from_zero(0.5, 3))),
    "operator_pow": (lambda x, y: x**y, pair(floats(0.3, 2.5), floats(-2, 2.5))),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_binary_fd(name: str, data: st.DataObject, seed: int) -> None:
    fn, strategy = BINARY[name]
    x, y = data.draw(strategy)
    check(fn, x, y, seed=seed)


def test_binary_fd_scalar_with_array_explicit() -> None:
    rng = np.random.default_rng(1)
    x = np.float64(1.3)
    y = rng.uniform(0.5, 2.0, size=(3, 1, 4))
    for fn in (tv.add, tv.subtract, tv.multiply, tv.divide, tv.divide_no_nan, tv.pow):
        check(fn, x, y)
        check(fn, y, x)


@st.composite
def mod_case(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    """x, y with x / y at least 0.1 away from an integer (floor(x / y) locally constant)."""
    big = draw(SHAPES)
    small = draw(sub_shape(big))
    frac = draw(arrays(big, floats(0.1, 0.9)))
    if draw(st.booleans()):  # y broadcasts into x
        y = draw(arrays(small, away_from_zero(0.5, 2)))
        k = draw(hnp.arrays(np.int64, big, elements=st.integers(-3, 3)))
        x = (k + frac) * np.broadcast_to(y, big)
        return x, y
    x = draw(arrays(small, away_from_zero(0.5, 3)))  # x broadcasts into y
    k = draw(hnp.arrays(np.int64, big, elements=st.integers(0, 3)))
    y = np.broadcast_to(x, big) / (k + frac)
    return x, y


@SETTINGS
@given(case=mod_case(), seed=SEEDS)
def test_mod_fd(case: tuple[np.ndarray, np.ndarray], seed: int) -> None:
    x, y = case
    q = np.broadcast_to(x, np.broadcast_shapes(x.shape, y.shape)) / y
    assert np.all(np.abs(q - np.round(q)) > 0.05)
    check(tv.mod, x, y, seed=seed)


@st.composite
def separated_pair(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Operands at least 0.5 apart everywhere, each side winning somewhere."""
    sx, sy = draw(PAIRS).input_shapes
    far = away_from_zero(1.0, 3)
    near = floats(-0.5, 0.5)
    if draw(st.booleans()):
        return draw(arrays(sx, far)), draw(arrays(sy, near))
    return draw(arrays(sx, near)), draw(arrays(sy, far))


@pytest.mark.parametrize("fn", [tv.maximum, tv.minimum], ids=["maximum", "minimum"])
@SETTINGS
@given(case=separated_pair(), seed=SEEDS)
def test_maximum_minimum_fd(
    fn: Callable[[Any, Any], tv.Tensor], case: tuple[np.ndarray, np.ndarray], seed: int
) -> None:
    check(fn, *case, seed=seed)


@st.composite
def clip_case(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    shape = draw(SHAPES)
    x = draw(arrays(shape, floats(-3, -1.3) | floats(-0.7, 0.7) | floats(1.3, 3)))
    lo = draw(arrays(draw(sub_shape(shape)), floats(-1.1, -0.9)))
    hi = draw(arrays(draw(sub_shape(shape)), floats(0.9, 1.1)))
    return x, lo, hi


@SETTINGS
@given(case=clip_case(), seed=SEEDS)
def test_clip_by_value_fd(case: tuple[np.ndarray, np.ndarray, np.ndarray], seed: int) -> None:
    check(tv.clip_by_value, *case, seed=seed)


def test_clip_by_value_bound_gradients_explicit() -> None:
    x = tv.constant(np.array([[-2.0, 0.5, 3.0], [-5.0, 7.0, 0.0]]))
    lo = tv.constant(np.array([-1.0, -1.0, -1.0]))
    hi = tv.constant(np.float64(1.0))
    with tv.GradientTape() as tape:
        tape.watch([x, lo, hi])
        y = tv.clip_by_value(x, lo, hi)
    gx, glo, ghi = tape.gradient(y, [x, lo, hi])
    np.testing.assert_array_equal(gx.numpy(), [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(glo.numpy(), [2.0, 0.0, 0.0])
    assert ghi.numpy() == 2.0


@st.composite
def where_case(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sc, sx, sy = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, max_side=4)
    ).input_shapes
    cond = draw(hnp.arrays(np.bool_, sc))
    return cond, draw(arrays(sx, floats(-3, 3))), draw(arrays(sy, floats(-3, 3)))


@SETTINGS
@given(case=where_case(), seed=SEEDS)
def test_where_fd(case: tuple[np.ndarray, np.ndarray, np.ndarray], seed: int) -> None:
    cond, x, y = case
    c = tv.constant(cond)
    check(lambda a, b: tv.where(c, a, b), x, y, seed=seed)


def test_where_gradients_explicit() -> None:
    c = tv.constant(np.array([[True], [False]]))
    x = tv.constant(np.array([1.0, 2.0, 3.0]))
    y = tv.constant(np.float64(5.0))
    with tv.GradientTape() as tape:
        tape.watch([x, y])
        z = tv.where(c, x, y)
    gx, gy = tape.gradient(z, [x, y])
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0, 1.0])
    assert gy.numpy() == 3.0


# -- matmul -----------------------------------------------------------------------------------


@st.composite
def matmul_case(draw: Any) -> tuple[np.ndarray, np.ndarray, bool, bool]:
    batch_a, batch_b = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=3)
    ).input_shapes
    n, k, m = (draw(st.integers(1, 4)) for _ in range(3))
    ta, tb = draw(st.booleans()), draw(st.booleans())
    sa = batch_a + ((k, n) if ta else (n, k))
    sb = batch_b + ((m, k) if tb else (k, m))
    return draw(arrays(sa, floats(-2, 2))), draw(arrays(sb, floats(-2, 2))), ta, tb


@SETTINGS
@given(case=matmul_case(), seed=SEEDS)
def test_matmul_fd(case: tuple[np.ndarray, np.ndarray, bool, bool], seed: int) -> None:
    a, b, ta, tb = case
    check(lambda x, y: tv.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b, seed=seed)


@pytest.mark.parametrize(
    ("sa", "sb", "ta", "tb"),
    [
        ((2, 3, 4), (4, 5), False, False),
        ((3, 4), (2, 4, 5), False, False),
        ((2, 1, 3, 4), (5, 4, 2), False, False),
        ((2, 4, 3), (5, 4), True, True),
        ((1, 4, 3), (3, 4, 2), True, False),
        ((3, 4), (2, 5, 4), False, True),
    ],
)
def test_matmul_batched_broadcast_fd(
    sa: tuple[int, ...], sb: tuple[int, ...], ta: bool, tb: bool
) -> None:
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    check(lambda x, y: tv.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b)


def test_matmul_batched_gradient_shapes_and_values() -> None:
    rng = np.random.default_rng(4)
    a = tv.constant(rng.standard_normal((2, 3, 4)))
    b = tv.constant(rng.standard_normal((4, 5)))
    with tv.GradientTape() as tape:
        tape.watch([a, b])
        y = tv.matmul(a, b)
    ga, gb = tape.gradient(y, [a, b])
    assert ga.shape == (2, 3, 4) and gb.shape == (4, 5)
    ones = np.ones((2, 3, 5))
    np.testing.assert_allclose(ga.numpy(), ones @ b.numpy().T)
    np.testing.assert_allclose(gb.numpy(), np.einsum("bij,bik->jk", a.numpy(), ones))


# -- reductions -------------------------------------------------------------------------------


@st.composite
def axis_for(draw: Any, ndim: int) -> int | tuple[int, ...] | None:
    options: list[st.SearchStrategy[Any]] = [st.none(), hnp.valid_tuple_axes(ndim)]
    if ndim:
        options.append(st.integers(-ndim, ndim - 1))
    return draw(st.one_of(*options))


@st.composite
def reduction_case(draw: Any, unique: bool) -> tuple[np.ndarray, Any, bool]:
    shape = draw(SHAPES)
    x = unique_floats(shape, draw) if unique else draw(arrays(shape, floats(-3, 3)))
    return x, draw(axis_for(len(shape))), draw(st.booleans())


@pytest.mark.parametrize("fn", [tv.reduce_sum, tv.reduce_mean], ids=["sum", "mean"])
@SETTINGS
@given(case=reduction_case(unique=False), seed=SEEDS)
def test_reduce_sum_mean_fd(
    fn: Callable[..., tv.Tensor], case: tuple[np.ndarray, Any, bool], seed: int
) -> None:
    x, axis, keepdims = case
    check(lambda t: fn(t, axis=axis, keepdims=keepdims), x, seed=seed)


@pytest.mark.parametrize("fn", [tv.reduce_max, tv.reduce_min], ids=["max", "min"])
@SETTINGS
@given(case=reduction_case(unique=True), seed=SEEDS)
def test_reduce_max_min_fd(
    fn: Callable[..., tv.Tensor], case: tuple[np.ndarray, Any, bool], seed: int
) -> None:
    x, axis, keepdims = case
    check(lambda t: fn(t, axis=axis, keepdims=keepdims), x, seed=seed)


@st.composite
def norm_case(draw: Any) -> tuple[np.ndarray, Any, Any, bool]:
    shape = draw(SHAPES)
    # Distinct magnitudes >= 0.1 with random signs: no kink of |x| and no tie in max |x|.
    mags = draw(hnp.arrays(np.int64, shape, elements=st.integers(2, 300), unique=True)) * 0.05
    signs = draw(hnp.arrays(np.bool_, shape))
    x = np.where(signs, mags, -mags).astype(np.float64)
    ord_ = draw(st.sampled_from(["euclidean", 1, np.inf]))
    return x, ord_, draw(axis_for(len(shape))), draw(st.booleans())


@SETTINGS
@given(case=norm_case(), seed=SEEDS)
def test_norm_fd(case: tuple[np.ndarray, Any, Any, bool], seed: int) -> None:
    x, ord_, axis, keepdims = case
    check(lambda t: tv.norm(t, ord=ord_, axis=axis, keepdims=keepdims), x, seed=seed)


def test_norm_values_and_gradients_explicit() -> None:
    v = tv.constant(np.array([3.0, -4.0]))
    for ord_, value, grad in [
        ("euclidean", 5.0, [0.6, -0.8]),
        (1, 7.0, [1.0, -1.0]),
        (np.inf, 4.0, [0.0, -1.0]),
    ]:
        with tv.GradientTape() as tape:
            tape.watch(v)
            n = tv.norm(v, ord=ord_)
        assert n.numpy() == pytest.approx(value)
        np.testing.assert_allclose(tape.gradient(n, v).numpy(), grad)


# -- shapes and structure ---------------------------------------------------------------------


@st.composite
def stack_case(draw: Any) -> tuple[list[np.ndarray], int]:
    shape = draw(SHAPES)
    n = draw(st.integers(1, 4))
    xs = [draw(arrays(shape, floats(-3, 3))) for _ in range(n)]
    return xs, draw(st.integers(-len(shape) - 1, len(shape)))


@SETTINGS
@given(case=stack_case(), seed=SEEDS)
def test_stack_fd(case: tuple[list[np.ndarray], int], seed: int) -> None:
    xs, axis = case
    check(lambda *ts: tv.stack(list(ts), axis=axis) * 1.5, *xs, seed=seed)


@st.composite
def concat_case(draw: Any) -> tuple[list[np.ndarray], int]:
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    xs = []
    for _ in range(draw(st.integers(1, 4))):
        s = list(shape)
        s[axis] = draw(st.integers(1, 3))
        xs.append(draw(arrays(tuple(s), floats(-3, 3))))
    return xs, axis


@SETTINGS
@given(case=concat_case(), seed=SEEDS)
def test_concat_fd(case: tuple[list[np.ndarray], int], seed: int) -> None:
    xs, axis = case
    check(lambda *ts: tv.square(tv.concat(list(ts), axis=axis)), *xs, seed=seed)


@st.composite
def reshape_case(draw: Any) -> tuple[np.ndarray, tuple[int, ...]]:
    shape = draw(SHAPES)
    x = draw(arrays(shape, floats(-3, 3)))
    target = draw(
        st.sampled_from(
            [(-1,), tuple(reversed(shape)), (*shape, 1), (1, *shape), (x.size,), (-1, 1)]
        )
    )
    return x, target


@SETTINGS
@given(case=reshape_case(), seed=SEEDS)
def test_reshape_fd(case: tuple[np.ndarray, tuple[int, ...]], seed: int) -> None:
    x, target = case
    check(lambda t: tv.sin(tv.reshape(t, target)), x, seed=seed)


@st.composite
def transpose_case(draw: Any) -> tuple[np.ndarray, tuple[int, ...] | None]:
    shape = draw(SHAPES)
    perm = draw(st.none() | st.permutations(range(len(shape))).map(tuple))
    return draw(arrays(shape, floats(-3, 3))), perm


@SETTINGS
@given(case=transpose_case(), seed=SEEDS)
def test_transpose_fd(case: tuple[np.ndarray, tuple[int, ...] | None], seed: int) -> None:
    x, perm = case
    check(lambda t: tv.transpose(t, perm) * tv.constant(np.float64(2.0)), x, seed=seed)


@st.composite
def broadcast_case(draw: Any) -> tuple[np.ndarray, tuple[int, ...]]:
    shapes = draw(PAIRS)
    return draw(arrays(shapes.input_shapes[0], floats(-3, 3))), shapes.result_shape


@SETTINGS
@given(case=broadcast_case(), seed=SEEDS)
def test_broadcast_to_fd(case: tuple[np.ndarray, tuple[int, ...]], seed: int) -> None:
    x, target = case
    check(lambda t: tv.sin(tv.broadcast_to(t, target)), x, seed=seed)


@st.composite
def basic_index_case(draw: Any) -> tuple[np.ndarray, Any]:
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    key = draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    return draw(arrays(shape, floats(-3, 3))), key


@SETTINGS
@given(case=basic_index_case(), seed=SEEDS)
def test_getitem_basic_fd(case: tuple[np.ndarray, Any], seed: int) -> None:
    x, key = case
    check(lambda t: tv.sin(t[key]), x, seed=seed)


@st.composite
def fancy_index_case(draw: Any) -> tuple[np.ndarray, Any]:
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    key = draw(
        hnp.integer_array_indices(
            shape, result_shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=6)
        )
    )
    return draw(arrays(shape, floats(-3, 3))), key


@SETTINGS
@given(case=fancy_index_case(), seed=SEEDS)
def test_getitem_fancy_fd(case: tuple[np.ndarray, Any], seed: int) -> None:
    x, key = case
    check(lambda t: tv.square(t[key]), x, seed=seed)


@pytest.mark.parametrize(
    "key",
    [
        2,
        -1,
        (1, 2),
        (slice(None), 0),
        slice(None, None, -1),
        (slice(None, None, -2), slice(3, 0, -1)),
        (slice(None), [0, 0, 3, -1]),
        ([1, 1, 1], slice(None, None, -1)),
        (Ellipsis, [2, 2]),
        (None, slice(1, 3), 0),
        ([0, 2, 0], [1, 1, 1]),
    ],
    ids=str,
)
def test_getitem_explicit_keys_fd(key: Any) -> None:
    x = np.random.default_rng(5).standard_normal((3, 4))
    check(lambda t: tv.square(tv.getitem(t, key)), x)


def test_getitem_repeated_fancy_indices_accumulate() -> None:
    x = tv.constant(np.array([10.0, 20.0, 30.0, 40.0]))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.reduce_sum(x[[0, 0, 2, -1, 0]] * tv.constant(np.array([1.0, 2.0, 3.0, 4.0, 5.0])))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [8.0, 0.0, 3.0, 4.0])


@SETTINGS
@given(x=SHAPES.flatmap(lambda s: arrays(s, floats(-3, 3))), seed=SEEDS)
def test_cast_float64_float32_float64_fd(x: np.ndarray, seed: int) -> None:
    def f(t: tv.Tensor) -> tv.Tensor:
        return tv.cast(tv.cast(t, tv.float32), tv.float64) * tv.constant(np.float64(3.0))

    # float32 rounding makes tiny steps useless; f is linear, so a large step is exact.
    tv.gradcheck.check_vjp(f, [x], rng=np.random.default_rng(seed), eps=0.5, rtol=1e-5, atol=1e-5)
    xt = tv.constant(x)
    with tv.GradientTape() as tape:
        tape.watch(xt)
        y = f(xt)
    g = tape.gradient(y, xt)
    assert g.dtype == tv.float64
    np.testing.assert_array_equal(g.numpy(), np.full(x.shape, 3.0))


def test_cast_gradient_dtype_follows_source() -> None:
    x = tv.constant(np.array([1.0, 2.0]))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.cast(x, tv.float32) * 2.0
    g = tape.gradient(y, x)
    assert g.dtype == tv.float64
    np.testing.assert_array_equal(g.numpy(), [2.0, 2.0])


@st.composite
def expand_squeeze_case(draw: Any) -> tuple[np.ndarray, int, Any]:
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    x = draw(arrays(shape, floats(-3, 3)))
    expand_axis = draw(st.integers(-len(shape) - 1, len(shape)))
    ones = [i for i, d in enumerate(shape) if d == 1]
    squeeze_axis = draw(st.none() | st.sampled_from(ones)) if ones else None
    return x, expand_axis, squeeze_axis


@SETTINGS
@given(case=expand_squeeze_case(), seed=SEEDS)
def test_expand_dims_squeeze_fd(case: tuple[np.ndarray, int, Any], seed: int) -> None:
    x, expand_axis, squeeze_axis = case
    check(lambda t: tv.sin(tv.expand_dims(t, expand_axis)), x, seed=seed)
    check(lambda t: tv.cos(tv.squeeze(t, squeeze_axis)), x, seed=seed)


@st.composite
def add_n_case(draw: Any) -> list[np.ndarray]:
    shape = draw(SHAPES)
    return [draw(arrays(shape, floats(-3, 3))) for _ in range(draw(st.integers(1, 4)))]


@SETTINGS
@given(xs=add_n_case(), seed=SEEDS)
def test_add_n_fd(xs: list[np.ndarray], seed: int) -> None:
    weights = [tv.constant(np.float64(k + 1)) for k in range(len(xs))]
    check(lambda *ts: tv.add_n([t * w for t, w in zip(ts, weights, strict=True)]), *xs, seed=seed)


def test_add_n_single_input_gradient() -> None:
    x = tv.constant(np.array([1.0, 2.0]))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.add_n([tv.square(x)])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 4.0])


# -- second order -----------------------------------------------------------------------------

_R = np.random.default_rng(7)
SECOND_ORDER: dict[str, tuple[Callable[..., tv.Tensor], tuple[np.ndarray, ...]]] = {
    "multiply": (lambda x, y: x * y * x, (_R.standard_normal((3, 1)), _R.standard_normal(4))),
    "divide": (tv.divide, (_R.standard_normal((2, 3)), _R.uniform(0.5, 2.0, size=3))),
    "pow": (tv.pow, (_R.uniform(0.5, 2.0, size=(2, 3)), _R.uniform(-1.5, 2.5, size=(1, 3)))),
    "sin": (tv.sin, (_R.standard_normal((2, 3)),)),
    "exp": (tv.exp, (_R.standard_normal(4),)),
    "tanh": (tv.tanh, (_R.standard_normal((3, 2)),)),
    "sigmoid": (tv.sigmoid, (_R.standard_normal(5),)),
    "matmul": (
        lambda a, b: tv.square(tv.matmul(a, b)),
        (_R.standard_normal((2, 3, 4)), _R.standard_normal((4, 2))),
    ),
    "matmul_transposed": (
        lambda a, b: tv.matmul(a, b, transpose_a=True, transpose_b=True),
        (_R.standard_normal((4, 3)), _R.standard_normal((2, 4))),
    ),
    "reduce_sum": (
        lambda x: tv.reduce_sum(tv.sin(x), axis=1) ** 2,
        (_R.standard_normal((3, 4)),),
    ),
    "getitem": (
        lambda x: tv.square(x[::-1, [0, 0, 2]]) * x[0, :3],
        (_R.standard_normal((3, 4)),),
    ),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_fd(name: str) -> None:
    fn, args = SECOND_ORDER[name]
    tv.gradcheck.check_grads(fn, *args, order=2)


def test_second_order_check_is_not_vacuous(monkeypatch: pytest.MonkeyPatch) -> None:
    # A sin rule whose value is right but whose own derivative is cut: order 1 passes, 2 fails.
    def frozen_cos_rule(g: Any, ans: Any, x: Any) -> Any:
        if isinstance(x, tv.Tensor):
            return g * tv.cos(tv.stop_gradient(x))
        return g * np.cos(x)

    monkeypatch.setitem(VJP, P.sin_p, (frozen_cos_rule,))
    x = np.array([0.7, -1.2, 2.0])
    tv.gradcheck.check_grads(tv.sin, x, order=1)
    with pytest.raises(AssertionError, match="gradient check failed"):
        tv.gradcheck.check_grads(tv.sin, x, order=2)
