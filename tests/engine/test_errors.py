"""Bad input gets a clear error naming the op and the shapes/dtypes, never a numpy traceback."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tv


def test_broadcast_mismatch_names_op_and_shapes() -> None:
    with pytest.raises(tv.InvalidArgumentError) as info:
        _ = tv.constant([1.0, 2.0, 3.0]) + tv.constant([1.0, 2.0])
    msg = str(info.value)
    assert "add of (3,) and (2,) shapes" in msg and "float32" in msg and "broadcast" in msg
    assert info.value.op == "add"


def test_matmul_of_a_vector_says_so() -> None:
    with pytest.raises(tv.InvalidArgumentError, match=r"matmul of \(3,\) and \(2, 2\) shapes"):
        tv.matmul(tv.constant([1.0, 2.0, 3.0]), tv.ones((2, 2)))
    with pytest.raises(tv.InvalidArgumentError, match="inner dimensions 3 and 2"):
        tv.matmul(tv.ones((2, 3)), tv.ones((2, 2)))


def test_reshape_to_an_impossible_shape() -> None:
    with pytest.raises(tv.InvalidArgumentError, match=r"reshape of \(6,\) shapes"):
        tv.reshape(tv.zeros(6), (4,))


def test_float_only_ops_refuse_integers() -> None:
    with pytest.raises(tv.InvalidArgumentError, match="sin needs a float tensor, got int32"):
        tv.sin(tv.constant(1))


def test_wrong_python_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="cannot convert object"):
        tv.constant(object())  # (a str is a tf.string tensor, as in TF)
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype float32"):
        _ = tv.constant(1.0) * "x"
    with pytest.raises(TypeError, match="stack: expected a non-empty list"):
        tv.stack([])


def test_index_out_of_range() -> None:
    with pytest.raises(tv.InvalidArgumentError, match="getitem"):
        _ = tv.constant([1.0, 2.0])[5]


def test_gradient_sources_must_be_tensors() -> None:
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = x * x
    with pytest.raises(TypeError, match="sources must be tensors or variables, got float"):
        tape.gradient(y, [x, 2.0])


def test_output_gradients_shape_is_checked() -> None:
    x = tv.Variable([1.0, 2.0])
    with tv.GradientTape() as tape:
        y = x * x
    with pytest.raises(tv.InvalidArgumentError, match="output_gradients"):
        tape.gradient(y, x, output_gradients=tv.constant([1.0, 2.0, 3.0]))


def test_errors_are_engine_errors_with_op_names() -> None:
    err = None
    try:
        tv.clip_by_value(tv.zeros(2), tv.zeros((3, 2)), 1.0)
    except tv.EngineError as exc:
        err = exc
    assert err is not None and err.op == "clip_by_value"
    assert "would broadcast the result to (3, 2)" in str(err)


def test_nan_and_inf_propagate_silently_like_tensorflow() -> None:
    assert np.isinf(float(tv.constant(1.0) / 0.0))
    assert np.isnan(float(tv.log(tv.constant(-1.0))))
