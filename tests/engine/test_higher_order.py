"""Higher-order derivatives: nested tapes, persistent tapes, jacobian and batch_jacobian."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz as tv

POINTS = np.array([-1.5, -0.25, 0.0, 0.5, 2.0])


def derivatives(f: Callable[[Any], Any], x0: np.ndarray, order: int) -> list[np.ndarray]:
    """[f', f'', ..., f^(order)] at ``x0`` (elementwise f), from ``order`` nested tapes."""
    x = tv.constant(np.asarray(x0, dtype=np.float64))
    tapes = [tv.GradientTape() for _ in range(order)]
    for t in tapes:  # outermost first
        t.__enter__()
        t.watch(x)
    y = f(x)
    out: list[np.ndarray] = []
    for t in reversed(tapes):  # innermost first
        t.__exit__(None, None, None)
        y = t.gradient(y, x)
        assert y is not None
        out.append(np.asarray(y.numpy()))
    return out


def poly(x: Any) -> Any:
    return x**4 - 3.0 * x**3 + x


def poly_products(x: Any) -> Any:
    return x * x * x * x - 3.0 * (x * x * x) + x


@pytest.mark.parametrize("f", [poly, poly_products], ids=["pow", "products"])
def test_polynomial_second_and_third_derivative(f: Callable[[Any], Any]) -> None:
    d1, d2, d3 = derivatives(f, POINTS, 3)
    x = POINTS
    np.testing.assert_allclose(d1, 4 * x**3 - 9 * x**2 + 1, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(d2, 12 * x**2 - 18 * x, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(d3, 24 * x - 18, rtol=1e-13, atol=1e-13)


def test_polynomial_fourth_derivative_is_constant() -> None:
    d = derivatives(poly_products, POINTS, 4)
    np.testing.assert_array_equal(d[3], np.full(POINTS.shape, 24.0))


def test_pow_derivatives_past_the_degree_follow_tensorflow_at_zero() -> None:
    # TF's Pow grad is g * y * pow(x, y - 1) with no mask: once the exponent reaches 0, the next
    # derivative at x = 0 is 0 * 0**-1 = 0 * inf = nan. Away from 0 the values are exact.
    d = derivatives(poly, POINTS, 4)
    nonzero = POINTS != 0
    np.testing.assert_allclose(d[3][nonzero], 24.0, rtol=1e-13)
    assert np.isnan(d[3][~nonzero]).all()  # from the 4th derivative of -3x**3
    d = derivatives(lambda x: x**2, np.array([0.0, 1.0]), 3)
    np.testing.assert_array_equal(d[1], [2.0, 2.0])
    assert np.isnan(d[2][0]) and d[2][1] == 0.0


def test_polynomial_derivatives_at_explicit_points() -> None:
    # p(x) = x^4 - 3x^3 + x at x = 2: p' = 32 - 36 + 1 = -3, p'' = 48 - 36 = 12, p''' = 30.
    d1, d2, d3 = derivatives(poly, np.float64(2.0), 3)
    assert d1 == pytest.approx(-3.0, abs=1e-12)
    assert d2 == pytest.approx(12.0, abs=1e-12)
    assert d3 == pytest.approx(30.0, abs=1e-12)


def test_sin_derivatives_cycle() -> None:
    d1, d2, d3, d4 = derivatives(tv.sin, POINTS, 4)
    np.testing.assert_allclose(d1, np.cos(POINTS), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(d2, -np.sin(POINTS), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(d3, -np.cos(POINTS), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(d4, np.sin(POINTS), rtol=1e-14, atol=1e-15)


def test_exp_derivatives_are_exp() -> None:
    for d in derivatives(tv.exp, POINTS, 3):
        np.testing.assert_allclose(d, np.exp(POINTS), rtol=1e-14)


def test_composite_second_derivative() -> None:
    # f = exp(sin x): f'' = exp(sin x) (cos² x - sin x)
    _, d2 = derivatives(lambda x: tv.exp(tv.sin(x)), POINTS, 2)
    expected = np.exp(np.sin(POINTS)) * (np.cos(POINTS) ** 2 - np.sin(POINTS))
    np.testing.assert_allclose(d2, expected, rtol=1e-13)


def test_tanh_sigmoid_second_derivatives() -> None:
    x = POINTS
    _, d2 = derivatives(tv.tanh, x, 2)
    t = np.tanh(x)
    np.testing.assert_allclose(d2, -2 * t * (1 - t * t), rtol=1e-12, atol=1e-15)
    _, d2 = derivatives(tv.sigmoid, x, 2)
    s = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(d2, s * (1 - s) * (1 - 2 * s), rtol=1e-12, atol=1e-15)


def test_persistent_outer_tape_second_derivatives() -> None:
    x = tv.constant(np.float64(1.5))
    y = tv.constant(np.float64(-2.0))
    with tv.GradientTape(persistent=True) as outer:
        outer.watch([x, y])
        with tv.GradientTape() as inner:
            inner.watch([x, y])
            f = x * x * y * y * y  # x² y³
        dfdx, dfdy = inner.gradient(f, [x, y])
    assert dfdx.numpy() == pytest.approx(2 * 1.5 * -8.0)
    assert dfdy.numpy() == pytest.approx(3 * 2.25 * 4.0)
    fxx, fxy = outer.gradient(dfdx, [x, y])
    fyx, fyy = outer.gradient(dfdy, [x, y])
    assert fxx.numpy() == pytest.approx(2 * -8.0)  # 2y³
    assert fxy.numpy() == pytest.approx(6 * 1.5 * 4.0)  # 6xy²
    assert fyx.numpy() == pytest.approx(6 * 1.5 * 4.0)
    assert fyy.numpy() == pytest.approx(6 * 2.25 * -2.0)  # 6x²y
    # A persistent tape can be asked again and gives the same answer.
    assert outer.gradient(dfdx, x).numpy() == fxx.numpy()


def test_jacobian_of_vector_function() -> None:
    x = tv.constant(np.array([2.0, 3.0]))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.stack([x[0] * x[1], tv.sin(x[0]), x[1] ** 2])
    jac = tape.jacobian(y, x)
    assert jac.shape == (3, 2)
    expected = [[3.0, 2.0], [np.cos(2.0), 0.0], [0.0, 6.0]]
    np.testing.assert_allclose(jac.numpy(), expected, rtol=1e-15, atol=0)


def test_jacobian_of_matrix_function_shape_and_values() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3))
    x = tv.constant(rng.standard_normal((4, 2)))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.matmul(x, tv.constant(a))  # (4, 3)
    jac = tape.jacobian(y, x)
    assert jac.shape == (4, 3, 4, 2)  # target.shape + source.shape
    expected = np.einsum("ik,lj->ijkl", np.eye(4), a)  # d y[i,j] / d x[k,l] = δ_ik a[l,j]
    np.testing.assert_allclose(jac.numpy(), expected, rtol=1e-15, atol=0)


def test_jacobian_of_several_sources_and_unconnected() -> None:
    x = tv.constant(np.array([1.0, 2.0, 3.0]))
    s = tv.constant(np.float64(0.5))
    u = tv.constant(np.ones((2, 2)))
    with tv.GradientTape() as tape:
        tape.watch([x, s, u])
        y = tv.square(x) * s  # (3,)
    jx, js, ju = tape.jacobian(y, [x, s, u])
    np.testing.assert_allclose(jx.numpy(), np.diag([1.0, 2.0, 3.0]))
    assert js.shape == (3,)
    np.testing.assert_allclose(js.numpy(), [1.0, 4.0, 9.0])
    assert ju is None


def test_jacobian_unconnected_zero_has_full_shape() -> None:
    x = tv.constant(np.array([1.0, 2.0, 3.0]))
    u = tv.constant(np.ones((2, 2)))
    with tv.GradientTape() as tape:
        tape.watch([x, u])
        y = x * 2.0
    ju = tape.jacobian(y, u, unconnected_gradients="zero")
    assert ju.shape == (3, 2, 2)
    np.testing.assert_array_equal(ju.numpy(), np.zeros((3, 2, 2)))


def test_batch_jacobian_unconnected_zero_has_full_shape() -> None:
    x = tv.constant(np.ones((4, 3)))
    u = tv.constant(np.ones((4, 2)))
    with tv.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 2.0
    assert tape.batch_jacobian(y, u) is None
    bj = tape.batch_jacobian(y, u, unconnected_gradients="zero")
    assert bj.shape == (4, 3, 2)
    np.testing.assert_array_equal(bj.numpy(), np.zeros((4, 3, 2)))


def test_batch_jacobian_of_elementwise_function_is_diagonal_blocks() -> None:
    rng = np.random.default_rng(1)
    xv = rng.standard_normal((4, 3))
    x = tv.constant(xv)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = 2.0 * tv.sin(x)
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == (4, 3, 3)
    expected = np.stack([np.diag(2 * np.cos(row)) for row in xv])
    np.testing.assert_allclose(bj.numpy(), expected, rtol=1e-15, atol=0)


def test_batch_jacobian_of_batched_linear_map() -> None:
    rng = np.random.default_rng(2)
    w = rng.standard_normal((3, 2))
    x = tv.constant(rng.standard_normal((5, 3)))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.matmul(x, tv.constant(w))  # y[b] = x[b] @ w
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == (5, 2, 3)
    np.testing.assert_allclose(bj.numpy(), np.broadcast_to(w.T, (5, 2, 3)), rtol=1e-15)


def rosenbrock(x: Any, y: Any) -> Any:
    return (1.0 - x) ** 2 + 100.0 * (y - x**2) ** 2


def rosenbrock_hessian(x: float, y: float) -> np.ndarray:
    return np.array([[2 - 400 * (y - x * x) + 800 * x * x, -400 * x], [-400 * x, 200.0]])


@pytest.mark.parametrize("point", [(1.0, 1.0), (-1.2, 1.0), (0.3, -0.7)])
def test_rosenbrock_hessian_nested_tapes_and_jacobian(point: tuple[float, float]) -> None:
    p = tv.constant(np.array(point))
    with tv.GradientTape() as outer:
        outer.watch(p)
        with tv.GradientTape() as inner:
            inner.watch(p)
            f = rosenbrock(p[0], p[1])
        g = inner.gradient(f, p)
    hessian = outer.jacobian(g, p)
    assert hessian.shape == (2, 2)
    np.testing.assert_allclose(hessian.numpy(), rosenbrock_hessian(*point), rtol=1e-13)


def test_rosenbrock_hessian_at_minimum_is_exact() -> None:
    p = tv.constant(np.array([1.0, 1.0]))
    with tv.GradientTape() as outer:
        outer.watch(p)
        with tv.GradientTape() as inner:
            inner.watch(p)
            f = rosenbrock(p[0], p[1])
        g = inner.gradient(f, p)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(outer.jacobian(g, p).numpy(), [[802.0, -400.0], [-400.0, 200.0]])


def test_rosenbrock_hessian_persistent_tape_per_component() -> None:
    x = tv.constant(np.float64(1.0))
    y = tv.constant(np.float64(1.0))
    with tv.GradientTape(persistent=True) as outer:
        outer.watch([x, y])
        with tv.GradientTape() as inner:
            inner.watch([x, y])
            f = rosenbrock(x, y)
        gx, gy = inner.gradient(f, [x, y])
    rows = [outer.gradient(gx, [x, y]), outer.gradient(gy, [x, y])]
    hessian = np.array([[float(h) for h in row] for row in rows])
    np.testing.assert_array_equal(hessian, [[802.0, -400.0], [-400.0, 200.0]])


def test_gradient_of_gradient_through_variable() -> None:
    v = tv.Variable(1.5, dtype=tv.float64)
    with tv.GradientTape() as outer:
        with tv.GradientTape() as inner:
            y = v * v * v + tv.sin(v)
        dv = inner.gradient(y, v)
    d2v = outer.gradient(dv, v)
    assert dv.numpy() == pytest.approx(3 * 1.5**2 + np.cos(1.5), rel=1e-14)
    assert d2v.numpy() == pytest.approx(6 * 1.5 - np.sin(1.5), rel=1e-14)
    # After an assign the same code differentiates at the new value.
    v.assign(-0.5)
    with tv.GradientTape() as outer:
        with tv.GradientTape() as inner:
            y = v * v * v + tv.sin(v)
        dv = inner.gradient(y, v)
    assert outer.gradient(dv, v).numpy() == pytest.approx(6 * -0.5 - np.sin(-0.5), rel=1e-14)


def test_variable_mixed_with_constant_second_derivative() -> None:
    w = tv.Variable(np.array([1.0, -2.0]), dtype=tv.float64)
    x = tv.constant(np.array([0.5, 3.0]))
    with tv.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            loss = tv.reduce_sum(tv.square(w * x))  # Σ w² x²
        gw = inner.gradient(loss, w)  # 2 w x²
    np.testing.assert_allclose(gw.numpy(), [0.5, -36.0])
    np.testing.assert_allclose(outer.jacobian(gw, w).numpy(), np.diag([0.5, 18.0]))  # 2x²
    np.testing.assert_allclose(outer.jacobian(gw, x).numpy(), np.diag([2.0, -24.0]))  # 4wx


def test_inner_gradient_outside_outer_tape_is_not_differentiable() -> None:
    x = tv.constant(np.float64(2.0))
    with tv.GradientTape() as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            y = x**3
    dy = inner.gradient(y, x)  # taken after the outer tape closed: not recorded
    assert dy.numpy() == pytest.approx(12.0)
    assert outer.gradient(dy, x) is None


def test_batch_hessian_via_nested_batch_jacobian() -> None:
    xv = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.2]])
    x = tv.constant(xv)
    with tv.GradientTape() as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            y = tv.reduce_sum(x**3, axis=1)  # one scalar per example
        g = inner.gradient(y, x)  # 3x²
    bh = outer.batch_jacobian(g, x)
    assert bh.shape == (3, 2, 2)
    np.testing.assert_allclose(bh.numpy(), np.stack([np.diag(6 * row) for row in xv]), rtol=1e-15)


def test_jacobian_of_jacobian() -> None:
    a, b = 0.3, -0.7
    p = tv.constant(np.array([a, b]))
    with tv.GradientTape() as outer:
        outer.watch(p)
        with tv.GradientTape() as inner:
            inner.watch(p)
            v = tv.stack([p[0] ** 2 * p[1], tv.sin(p[1])])
        jac = inner.jacobian(v, p)
    hess = outer.jacobian(jac, p)
    np.testing.assert_allclose(jac.numpy(), [[2 * a * b, a * a], [0.0, np.cos(b)]], rtol=1e-15)
    assert hess.shape == (2, 2, 2)
    expected = [[[2 * b, 2 * a], [2 * a, 0.0]], [[0.0, 0.0], [0.0, -np.sin(b)]]]
    np.testing.assert_allclose(hess.numpy(), expected, rtol=1e-15, atol=0)


def test_second_derivative_keeps_float32() -> None:
    x = tv.constant([1.0, 2.0])
    with tv.GradientTape() as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            y = x**3
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert g.dtype == tv.float32 and h.dtype == tv.float32
    np.testing.assert_array_equal(h.numpy(), np.array([6.0, 12.0], dtype=np.float32))
