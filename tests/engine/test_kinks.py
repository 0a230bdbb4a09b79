"""TensorFlow's exact gradient choices at kinks, ties and edges (see math_grad.py / nn_grad.py).

Every test runs twice: once with a plain tape (the rules run on numpy values) and once inside an
outer tape (``taped``), where the same rules run on Tensors so they can be differentiated again.
Both paths must give TensorFlow's numbers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import tapeviz as tv

TAPED = pytest.mark.parametrize("taped", [False, True], ids=["numpy", "taped"])


@contextlib.contextmanager
def maybe_outer(taped: bool) -> Iterator[None]:
    """Run the body inside an outer recording tape when ``taped`` (gradients are recorded)."""
    if not taped:
        yield
        return
    with tv.GradientTape(persistent=True):
        yield


def grads(
    f: Callable[..., Any],
    *values: Any,
    taped: bool = False,
    dtype: Any = tv.float64,
    unconnected_gradients: str = "none",
) -> list[np.ndarray | None]:
    """Gradients of ``f(*values)`` with respect to each value (None where TF gives None)."""
    with maybe_outer(taped):
        xs = [tv.constant(v, dtype=dtype) for v in values]
        with tv.GradientTape() as tape:
            tape.watch(xs)
            y = f(*xs)
        out = tape.gradient(y, xs, unconnected_gradients=unconnected_gradients)
    return [None if g is None else np.asarray(g.numpy()) for g in out]


def one(f: Callable[..., Any], *values: Any, taped: bool = False) -> np.ndarray:
    g = grads(f, *values, taped=taped)[0]
    assert g is not None
    return g


# -- absolute value, relu, leaky relu ---------------------------------------------------------


@TAPED
def test_abs_gradient_at_zero_is_zero(taped: bool) -> None:
    np.testing.assert_array_equal(one(tv.abs, [-2.0, 0.0, 3.0], taped=taped), [-1.0, 0.0, 1.0])
    assert one(tv.abs, 0.0, taped=taped) == 0.0


@TAPED
def test_relu_gradient_at_zero_is_zero(taped: bool) -> None:
    np.testing.assert_array_equal(one(tv.relu, [-1.0, 0.0, 2.0], taped=taped), [0.0, 0.0, 1.0])
    assert one(tv.relu, 0.0, taped=taped) == 0.0


@TAPED
def test_leaky_relu_gradient_at_zero_is_alpha(taped: bool) -> None:
    np.testing.assert_allclose(
        one(tv.leaky_relu, [-1.0, 0.0, 2.0], taped=taped), [0.2, 0.2, 1.0], rtol=0, atol=0
    )
    assert one(tv.leaky_relu, 0.0, taped=taped) == pytest.approx(0.2, abs=0)
    g = one(lambda x: tv.leaky_relu(x, alpha=0.05), [0.0, -3.0, 1e-300], taped=taped)
    np.testing.assert_array_equal(g, [0.05, 0.05, 1.0])


def test_leaky_relu_default_alpha_forward() -> None:
    y = tv.leaky_relu(tv.constant(np.array([-5.0, 0.0, 4.0])))
    np.testing.assert_array_equal(y.numpy(), [-1.0, 0.0, 4.0])


# -- maximum / minimum ties -------------------------------------------------------------------


@TAPED
@pytest.mark.parametrize("fn", [tv.maximum, tv.minimum], ids=["maximum", "minimum"])
def test_max_min_tie_gives_everything_to_first_argument(
    fn: Callable[[Any, Any], tv.Tensor], taped: bool
) -> None:
    gx, gy = grads(fn, 1.5, 1.5, taped=taped)
    assert gx == 1.0 and gy == 0.0
    gx, gy = grads(fn, [1.0, 2.0, 3.0], [1.0, 5.0, -1.0], taped=taped)
    if fn is tv.maximum:
        np.testing.assert_array_equal(gx, [1.0, 0.0, 1.0])
        np.testing.assert_array_equal(gy, [0.0, 1.0, 0.0])
    else:
        np.testing.assert_array_equal(gx, [1.0, 1.0, 0.0])
        np.testing.assert_array_equal(gy, [0.0, 0.0, 1.0])


@TAPED
def test_maximum_tie_with_broadcast_scalar(taped: bool) -> None:
    # maximum(x, 0) ties at x == 0: x keeps its gradient, the broadcast 0 gets the rest.
    gx, gy = grads(tv.maximum, [-1.0, 0.0, 2.0, 0.0], 0.0, taped=taped)
    np.testing.assert_array_equal(gx, [0.0, 1.0, 1.0, 1.0])
    assert gy == 1.0
    # Argument order decides the tie: now the scalar is first.
    gy2, gx2 = grads(tv.maximum, 0.0, [-1.0, 0.0, 2.0, 0.0], taped=taped)
    assert gy2 == 3.0
    np.testing.assert_array_equal(gx2, [0.0, 0.0, 1.0, 0.0])


# -- reduce_max / reduce_min ties ---------------------------------------------------------------


@TAPED
def test_reduce_max_ties_split_equally(taped: bool) -> None:
    np.testing.assert_array_equal(one(tv.reduce_max, [1.0, 3.0, 3.0], taped=taped), [0, 0.5, 0.5])
    g = one(tv.reduce_max, [2.0, 2.0, 2.0, 2.0], taped=taped)
    np.testing.assert_array_equal(g, [0.25, 0.25, 0.25, 0.25])


@TAPED
def test_reduce_min_and_axis_ties(taped: bool) -> None:
    np.testing.assert_array_equal(
        one(tv.reduce_min, [4.0, -1.0, 7.0, -1.0], taped=taped), [0.0, 0.5, 0.0, 0.5]
    )
    x = [[1.0, 5.0, 5.0], [7.0, 7.0, 7.0]]
    g = one(lambda t: tv.reduce_max(t, axis=1), x, taped=taped)
    np.testing.assert_allclose(g, [[0.0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]], rtol=1e-15)
    g = one(lambda t: tv.reduce_max(t, axis=0, keepdims=True) * 4.0, x, taped=taped)
    np.testing.assert_array_equal(g, [[0.0, 0.0, 0.0], [4.0, 4.0, 4.0]])


# -- pow ----------------------------------------------------------------------------------------


@TAPED
def test_pow_x_squared_at_zero(taped: bool) -> None:
    assert one(lambda x: x**2, 0.0, taped=taped) == 0.0
    gx, gy = grads(tv.pow, 0.0, 2.0, taped=taped)
    assert gx == 0.0
    assert gy == 0.0  # log(0) is taken as 0


@TAPED
def test_pow_sqrt_exponent_at_zero_is_inf(taped: bool) -> None:
    gx, gy = grads(tv.pow, 0.0, 0.5, taped=taped)
    assert gx == np.inf
    assert gy == 0.0


@TAPED
def test_pow_exponent_gradient_is_zero_for_nonpositive_base(taped: bool) -> None:
    gx, gy = grads(tv.pow, [-2.0, 0.0, 2.0], [3.0, 3.0, 3.0], taped=taped)
    np.testing.assert_allclose(gx, [12.0, 0.0, 12.0])
    np.testing.assert_allclose(gy, [0.0, 0.0, 8.0 * np.log(2.0)], rtol=1e-15)
    gy_only = grads(tv.pow, -3.0, 2.0, taped=taped)[1]
    assert gy_only == 0.0


# -- sqrt / rsqrt / reciprocal ------------------------------------------------------------------


@TAPED
def test_sqrt_gradient_at_zero(taped: bool) -> None:
    assert one(tv.sqrt, 0.0, taped=taped) == np.inf
    assert one(lambda x: tv.sqrt(x) * 0.0, 0.0, taped=taped) == 0.0
    w = tv.constant(np.array([0.0, 1.0, 0.0, 2.0]))
    g = one(lambda x: tv.sqrt(x) * w, [0.0, 0.0, 4.0, 4.0], taped=taped)
    np.testing.assert_array_equal(g, [0.0, np.inf, 0.0, 0.5])
    assert not np.isnan(g).any()


@TAPED
def test_rsqrt_and_reciprocal_give_zero_where_upstream_is_zero(taped: bool) -> None:
    w = tv.constant(np.array([0.0, 1.0]))
    np.testing.assert_array_equal(
        one(lambda x: tv.rsqrt(x) * w, [0.0, 4.0], taped=taped), [0, -1 / 16]
    )
    np.testing.assert_array_equal(
        one(lambda x: tv.reciprocal(x) * w, [0.0, 2.0], taped=taped), [0, -0.25]
    )
    assert one(tv.reciprocal, 0.0, taped=taped) == -np.inf


# -- divide_no_nan ------------------------------------------------------------------------------


@TAPED
def test_divide_no_nan_zero_denominator(taped: bool) -> None:
    gx, gy = grads(tv.divide_no_nan, 3.0, 0.0, taped=taped)
    assert gx == 0.0 and gy == 0.0
    gx, gy = grads(tv.divide_no_nan, [1.0, 2.0, 0.0], [0.0, 4.0, 0.0], taped=taped)
    np.testing.assert_array_equal(gx, [0.0, 0.25, 0.0])
    np.testing.assert_array_equal(gy, [0.0, -0.125, 0.0])
    assert not np.isnan(gx).any() and not np.isnan(gy).any()


def test_divide_no_nan_forward_at_zero() -> None:
    y = tv.divide_no_nan(
        tv.constant(np.array([1.0, 0.0, 6.0])), tv.constant(np.array([0.0, 0.0, 3.0]))
    )
    np.testing.assert_array_equal(y.numpy(), [0.0, 0.0, 2.0])


# -- clip_by_value ------------------------------------------------------------------------------


@TAPED
def test_clip_by_value_boundaries_pass_the_gradient(taped: bool) -> None:
    x = [-3.0, -1.0, 0.0, 1.0, 3.0]
    g = one(lambda t: tv.clip_by_value(t, -1.0, 1.0), x, taped=taped)
    np.testing.assert_array_equal(g, [0.0, 1.0, 1.0, 1.0, 0.0])


@TAPED
def test_clip_by_value_bound_gradients_at_boundaries(taped: bool) -> None:
    gx, glo, ghi = grads(tv.clip_by_value, [-3.0, -1.0, 0.0, 1.0, 3.0, 5.0], -1.0, 1.0, taped=taped)
    np.testing.assert_array_equal(gx, [0.0, 1.0, 1.0, 1.0, 0.0, 0.0])
    assert glo == 1.0  # only x = -3 is strictly below; at x == lo the gradient goes to x
    assert ghi == 2.0  # x = 3 and x = 5


# -- norm ---------------------------------------------------------------------------------------


@TAPED
def test_norm_of_zero_vector_has_nan_gradient(taped: bool) -> None:
    g = one(tv.norm, [0.0, 0.0, 0.0], taped=taped)
    assert g.shape == (3,)
    assert np.isnan(g).all()


def test_norm_of_zero_vector_value_is_zero() -> None:
    assert tv.norm(tv.constant(np.zeros(3))).numpy() == 0.0


@TAPED
def test_norm_one_and_inf_at_zero(taped: bool) -> None:
    np.testing.assert_array_equal(
        one(lambda t: tv.norm(t, ord=1), [0.0, -2.0], taped=taped), [0, -1]
    )
    # ord=inf is reduce_max(abs(x)): ties in |x| split the gradient.
    g = one(lambda t: tv.norm(t, ord=np.inf), [-3.0, 1.0, 3.0], taped=taped)
    np.testing.assert_array_equal(g, [-0.5, 0.0, 0.5])


# -- ops with zero or no gradient ---------------------------------------------------------------


@TAPED
def test_sign_gradient_is_zeros_not_none(taped: bool) -> None:
    g = grads(tv.sign, [-2.0, 0.0, 5.0], taped=taped)[0]
    assert g is not None
    np.testing.assert_array_equal(g, [0.0, 0.0, 0.0])


NO_GRADIENT: dict[str, Callable[..., Any]] = {
    "floor": tv.floor,
    "round": tv.round,
    "argmax": lambda x: tv.cast(tv.argmax(x), tv.float64),
    "argmin": lambda x: tv.cast(tv.argmin(x), tv.float64),
    "stop_gradient": tv.stop_gradient,
    "less": lambda x: tv.cast(tv.less(x, 0.0), tv.float64),
    "greater_equal": lambda x: tv.cast(tv.greater_equal(x, 0.0), tv.float64),
    "equal": lambda x: tv.cast(tv.equal(x, x), tv.float64),
    "floordiv": lambda x: tv.floordiv(x, 2.0),
    "rfloordiv": lambda x: 7.0 // x,
    "int_roundtrip": lambda x: tv.cast(tv.cast(x, tv.int32), tv.float64),
}


@TAPED
@pytest.mark.parametrize("name", sorted(NO_GRADIENT))
def test_no_gradient_path_gives_none_or_zeros(name: str, taped: bool) -> None:
    x = [1.5, -2.5, 3.0]
    assert grads(NO_GRADIENT[name], x, taped=taped) == [None]
    z = grads(NO_GRADIENT[name], x, taped=taped, unconnected_gradients="zero")[0]
    assert z is not None
    assert z.dtype == np.float64
    np.testing.assert_array_equal(z, [0.0, 0.0, 0.0])


@TAPED
def test_floordiv_gives_none_to_both_inputs(taped: bool) -> None:
    assert grads(tv.floordiv, [7.0, 8.0], [2.0, 3.0], taped=taped) == [None, None]
    z = grads(tv.floordiv, [7.0, 8.0], 2.0, taped=taped, unconnected_gradients="zero")
    np.testing.assert_array_equal(z[0], [0.0, 0.0])
    assert z[1] == 0.0


@TAPED
def test_no_gradient_branch_does_not_block_other_paths(taped: bool) -> None:
    # d/dx [x * floor(x) + stop_gradient(x)**2] = floor(x) only.
    g = one(lambda x: x * tv.floor(x) + tv.stop_gradient(x) ** 2, [1.5, -2.5], taped=taped)
    np.testing.assert_array_equal(g, [1.0, -3.0])


def test_float_to_int_to_float_cast_gives_none() -> None:
    assert grads(lambda x: tv.cast(tv.cast(x, tv.int64), tv.float32), 2.7) == [None]
    with pytest.warns(UserWarning, match="target tensor must be floating"):  # as TensorFlow
        assert grads(lambda x: tv.cast(x, tv.int32), 2.7) == [None]
    # float -> float keeps the gradient
    np.testing.assert_array_equal(one(lambda x: tv.cast(x, tv.float32) * 3.0, [2.7]), [3.0])


def test_integer_source_gives_none_with_warning() -> None:
    x = tv.constant(3)
    with pytest.warns(UserWarning, match="must be floating"):
        with tv.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        g = tape.gradient(y, x)
    assert g is None


def test_integer_source_zero_unconnected() -> None:
    x = tv.constant([1, 2], dtype=tv.int32)
    f = tv.constant([1.0, 2.0])
    with pytest.warns(UserWarning, match="tf.int32"):
        with tv.GradientTape() as tape:
            tape.watch([x, f])
            y = tv.cast(x, tv.float32) * f
        gx, gf = tape.gradient(y, [x, f], unconnected_gradients="zero")
    assert gx.dtype == tv.int32
    np.testing.assert_array_equal(gx.numpy(), [0, 0])
    np.testing.assert_array_equal(gf.numpy(), [1.0, 2.0])


def test_integer_source_warns_at_gradient_even_if_not_watched() -> None:
    x = tv.constant(np.int64(4))
    with tv.GradientTape() as tape:
        y = x * 2
    with pytest.warns(UserWarning) as caught:
        assert tape.gradient(y, x) is None
    assert [str(w.message).split(" (")[0] for w in caught] == [
        "The dtype of the target tensor must be floating",
        "The dtype of the source tensor must be floating",
    ]


def test_unconnected_source_gives_none_or_zeros_with_shape() -> None:
    x = tv.constant(np.ones((2, 3)))
    u = tv.constant(np.ones(4))
    with tv.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = tv.reduce_sum(x * 2.0)
    assert tape.gradient(y, u) is None
    z = tape.gradient(y, u, unconnected_gradients=tv.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(z.numpy(), np.zeros(4))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full((2, 3), 2.0))
