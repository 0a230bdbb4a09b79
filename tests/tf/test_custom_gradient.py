"""tf.custom_gradient: TensorFlow's documented examples, variables, higher orders, the record."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz as tv
import tapeviz.tf as tf


@tf.custom_gradient
def log1pexp(x: Any) -> Any:
    e = tf.exp(x)

    def grad(upstream: Any) -> Any:
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def naive_log1pexp(x: Any) -> Any:
    return tf.math.log(1 + tf.exp(x))


def test_the_numerically_stable_gradient_of_the_api_docs() -> None:
    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = naive_log1pexp(x)
    assert np.isnan(tape.gradient(y, x).numpy())  # inf / inf without the custom gradient
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert tape.gradient(y, x).numpy() == 1.0


def test_one_op_whose_rule_is_the_users_function() -> None:
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    custom = [r for r in tape.records if r.name == "custom_gradient"]
    assert len(custom) == 1 and custom[0].outputs[0] is y
    assert custom[0].params["name"] == "log1pexp"
    inner = [r for r in tape.records if r.scope == ("log1pexp",)]  # the function's own ops
    assert [r.name for r in inner] == ["exp", "add", "log"]
    steps = list(tv.backward_steps(tape.records, {y.id: np.float32(1.0)}, [x.id]))
    assert [s.record.name for s in steps] == ["custom_gradient"]


def test_second_derivative_through_a_custom_gradient() -> None:
    x = tf.constant(0.3)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = log1pexp(x)
        dy = t1.gradient(y, x)
    d2y = t2.gradient(dy, x)
    s = 1 / (1 + np.exp(-0.3))
    assert float(dy) == pytest.approx(s, rel=1e-6)
    assert float(d2y) == pytest.approx(s * (1 - s), rel=1e-5)


def test_variables_used_inside_need_a_variables_argument() -> None:
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x: Any) -> Any:
        def grad(dy: Any, variables: Any = None) -> Any:
            return dy * w, [dy * x * 10.0]  # a deliberately scaled variable gradient

        return x * w, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    dx, dw = tape.gradient(y, [x, w])
    assert (float(dx), float(dw)) == (2.0, 30.0)

    @tf.custom_gradient
    def bad(x: Any) -> Any:
        return x * w, lambda dy: dy

    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        bad(x)


def test_several_inputs_and_wrong_counts() -> None:
    @tf.custom_gradient
    def product(a: Any, b: Any) -> Any:
        return a * b, lambda g: (g * b, g * a)

    a, b = tf.Variable(2.0), tf.Variable(5.0)
    with tf.GradientTape() as tape:
        y = product(a, b)
    assert [float(g) for g in tape.gradient(y, [a, b])] == [5.0, 2.0]

    @tf.custom_gradient
    def short(a: Any, b: Any) -> Any:
        return a * b, lambda g: g

    with tf.GradientTape() as tape:
        y = short(a, b)
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(y, [a, b])


def test_a_replay_with_other_inputs_uses_their_own_gradient() -> None:
    # the studio replays records with new values: the rule runs the function again for them
    from tapeviz.engine import primitives as P
    from tapeviz.engine.impl_rules import IMPL
    from tapeviz.engine.vjp_rules import rule_for

    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    rec = next(r for r in tape.records if r.primitive is P.custom_gradient_p)
    assert rec.outputs[0] is y
    rule = rule_for(rec.primitive, 0)
    one = np.float32(1.0)
    at_record = rule(one, rec.outputs[0]._value, rec.inputs[0]._value, **rec.params)
    assert float(at_record) == pytest.approx(1 / (1 + np.exp(-0.5)), rel=1e-6)
    new = np.float32(2.0)
    value = IMPL[rec.primitive](new, **rec.params)
    assert float(value) == pytest.approx(np.log1p(np.exp(2.0)), rel=1e-6)
    assert float(rule(one, value, new, **rec.params)) == pytest.approx(1 / (1 + np.exp(-2.0)))
