"""Keras-compatible optimizers, checked against hand-written update rules and DEMOS.md."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import tapeviz as tv

Loss = Callable[[tv.Variable, tv.Variable], tv.Tensor]


def descend(loss: Loss, start: tuple[float, float], opt: tv.optimizers.Optimizer, steps: int):
    """Run ``steps`` optimizer steps in float64; return the (x, y, loss) path."""
    x = tv.Variable(np.float64(start[0]))
    y = tv.Variable(np.float64(start[1]))
    path = []
    for _ in range(steps):
        with tv.GradientTape() as tape:
            value = loss(x, y)
        path.append((float(x), float(y), float(value)))
        opt.apply_gradients(zip(tape.gradient(value, [x, y]), [x, y], strict=True))
    path.append((float(x), float(y), float(loss(x, y))))
    return np.array(path)


def rosenbrock(x: tv.Variable, y: tv.Variable) -> tv.Tensor:
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


def himmelblau(x: tv.Variable, y: tv.Variable) -> tv.Tensor:
    return (x**2 + y - 11) ** 2 + (x + y**2 - 7) ** 2


def test_sgd_matches_the_plain_rule() -> None:
    p = descend(rosenbrock, (-1.2, 1.0), tv.optimizers.SGD(learning_rate=1e-3), 10)
    assert p[0, 2] == pytest.approx(24.2)
    assert p[10, 2] == pytest.approx(4.1, abs=0.05)  # DEMOS: 24.2 -> 4.1 in 10 steps


def test_sgd_crawls_along_the_rosenbrock_valley() -> None:
    p = descend(rosenbrock, (-1.2, 1.0), tv.optimizers.SGD(learning_rate=1e-3), 100)
    assert p[100, 2] == pytest.approx(3.8, abs=0.1)


def test_sgd_above_two_over_lambda_max_diverges() -> None:
    p = descend(rosenbrock, (-1.2, 1.0), tv.optimizers.SGD(learning_rate=8e-3), 4)
    assert p[4, 2] > 1e6 or not np.isfinite(p[4, 2])


def test_momentum_and_nesterov_follow_keras() -> None:
    g = np.array([0.5, -1.0])
    for nesterov in (False, True):
        opt = tv.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=nesterov)
        v = tv.Variable(np.array([1.0, 2.0]))
        m = np.zeros(2)
        expected = np.array([1.0, 2.0])
        for _ in range(3):
            opt.apply_gradients([(tv.constant(g), v)])
            m = 0.9 * m - 0.1 * g
            expected = expected + (0.9 * m - 0.1 * g if nesterov else m)
        np.testing.assert_allclose(v.numpy(), expected, rtol=1e-12)


def test_adam_rmsprop_adagrad_follow_keras() -> None:
    g = np.array([0.3, -2.0])
    x0 = np.array([1.0, -1.0])

    def keras_adam(steps: int) -> np.ndarray:
        x, m, v = x0.copy(), np.zeros(2), np.zeros(2)
        for t in range(1, steps + 1):
            alpha = 0.01 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
            m += (g - m) * (1 - 0.9)
            v += (g * g - v) * (1 - 0.999)
            x -= m * alpha / (np.sqrt(v) + 1e-7)
        return x

    def keras_rmsprop(steps: int) -> np.ndarray:
        x, s = x0.copy(), np.zeros(2)
        for _ in range(steps):
            s = 0.9 * s + 0.1 * g * g
            x -= 0.01 * g / np.sqrt(s + 1e-7)
        return x

    def keras_adagrad(steps: int) -> np.ndarray:
        x, a = x0.copy(), np.full(2, 0.1)
        for _ in range(steps):
            a += g * g
            x -= 0.01 * g / np.sqrt(a + 1e-7)
        return x

    cases = [
        (tv.optimizers.Adam(learning_rate=0.01), keras_adam),
        (tv.optimizers.RMSprop(learning_rate=0.01), keras_rmsprop),
        (tv.optimizers.Adagrad(learning_rate=0.01), keras_adagrad),
    ]
    for opt, rule in cases:
        v = tv.Variable(x0.copy())
        for _ in range(5):
            opt.apply_gradients([(tv.constant(g), v)])
        np.testing.assert_allclose(v.numpy(), rule(5), rtol=1e-10, err_msg=type(opt).__name__)
        assert int(opt.iterations.numpy()) == 5


def test_keras_rmsprop_docstring_example() -> None:
    opt = tv.optimizers.RMSprop(learning_rate=0.1)
    var = tv.Variable(10.0)
    opt.minimize(lambda: (var**2) / 2.0, [var])
    assert float(var) == pytest.approx(9.683772, abs=1e-6)


def test_ill_conditioned_quadratic_demos() -> None:
    def quad(x: tv.Variable, y: tv.Variable) -> tv.Tensor:
        return 0.1 * x**2 + 2 * y**2

    p = descend(quad, (-5.0, -2.0), tv.optimizers.SGD(learning_rate=0.4), 20)
    assert p[20, 0] == pytest.approx(-0.94, abs=0.01)
    p = descend(quad, (-5.0, -2.0), tv.optimizers.SGD(learning_rate=0.5), 20)
    assert set(np.round(p[:, 1], 6)) == {-2.0, 2.0}  # x2 flips ±2 forever
    p = descend(quad, (-5.0, -2.0), tv.optimizers.SGD(learning_rate=0.6), 20)
    assert abs(p[20, 1]) == pytest.approx(1673, rel=0.01)
    p = descend(quad, (-5.0, -2.0), tv.optimizers.SGD(learning_rate=0.6, momentum=0.5), 10)
    assert np.hypot(p[10, 0], p[10, 1]) == pytest.approx(0.0634, abs=1e-3)  # within 0.1


def test_himmelblau_different_optimizers_different_basins() -> None:
    gd = descend(himmelblau, (-4.0, 0.0), tv.optimizers.SGD(learning_rate=0.01), 2000)
    np.testing.assert_allclose(gd[-1, :2], [-3.779, -3.283], atol=2e-3)
    big = descend(himmelblau, (-4.0, 0.0), tv.optimizers.SGD(learning_rate=0.02), 2000)
    np.testing.assert_allclose(big[-1, :2], [-2.805, 3.131], atol=2e-3)


def test_saddle_gd_is_effectively_stuck() -> None:
    p = descend(lambda x, y: x**2 - y**2, (1.0, 1e-3), tv.optimizers.SGD(learning_rate=0.01), 200)
    assert p[200, 1] == pytest.approx(0.0525, rel=0.01)


def test_apply_gradients_skips_none_with_a_warning_and_refuses_all_none() -> None:
    a, b = tv.Variable(1.0, name="a"), tv.Variable(2.0, name="b")
    opt = tv.optimizers.SGD(learning_rate=0.5)
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['b:0'\]"):
        opt.apply_gradients(iter([(tv.constant(1.0), a), (None, b)]))
    assert float(a) == 0.5 and float(b) == 2.0
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        opt.apply_gradients([(None, a)])
    with pytest.raises(TypeError, match=r"must be a tf\.Variable"):
        opt.apply_gradients([(tv.constant(1.0), tv.constant(1.0))])


def test_hyperparameters_are_validated_and_reported() -> None:
    with pytest.raises(ValueError, match="learning_rate must be a positive float"):
        tv.optimizers.SGD(learning_rate=-1.0)
    with pytest.raises(ValueError, match="momentum"):
        tv.optimizers.SGD(momentum=1.5)
    opt = tv.optimizers.Adam()
    assert opt.get_config() == {
        "name": "adam", "learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999,
        "epsilon": 1e-7, "amsgrad": False,
    }  # fmt: skip
    assert isinstance(tv.optimizers.get("rmsprop"), tv.optimizers.RMSprop)


def test_update_rules_work_on_plain_arrays() -> None:
    opt = tv.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    value, state = np.array([1.0]), opt.init_state(np.array([1.0]))
    for step in range(2):
        value = opt.update(value, np.array([1.0]), state, step)
    np.testing.assert_allclose(value, [1.0 - 0.1 - 0.19])


def test_gradient_clipping_options() -> None:
    v = tv.Variable([0.0, 0.0])
    tv.optimizers.SGD(learning_rate=1.0, clipvalue=0.5).apply_gradients(
        [(tv.constant([2.0, -0.1]), v)]
    )
    np.testing.assert_allclose(v.numpy(), [-0.5, 0.1])
    w = tv.Variable([0.0, 0.0])
    tv.optimizers.SGD(learning_rate=1.0, clipnorm=1.0).apply_gradients(
        [(tv.constant([3.0, 4.0]), w)]
    )
    np.testing.assert_allclose(w.numpy(), [-0.6, -0.8], rtol=1e-6)
