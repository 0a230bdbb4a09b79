"""Tensors and Variables: dtypes, conversion, immutability, operators, printing."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tv


def test_python_values_default_to_float32_and_int32() -> None:
    assert tv.constant(3.0).dtype is tv.float32
    assert tv.constant(3).dtype is tv.int32
    assert tv.constant(True).dtype is tv.bool
    assert tv.constant([1.0, 2.0]).dtype is tv.float32
    assert tv.constant([1, 2.5]).dtype is tv.float32
    assert tv.constant(np.array([1.0])).dtype is tv.float64  # numpy keeps its dtype
    assert tv.constant(1, dtype=tv.float32).numpy() == np.float32(1.0)


def test_scalars_adopt_the_tensor_operands_dtype() -> None:
    x64 = tv.constant(np.float64(1.5))
    assert (x64 * 2).dtype is tv.float64
    assert (2.5 * tv.constant(1.0)).dtype is tv.float32
    assert (tv.constant(1.0) + np.float64(0.1)).dtype is tv.float32
    assert (tv.constant(3) * 2).dtype is tv.int32


def test_mixing_float32_and_float64_tensors_is_an_error() -> None:
    with pytest.raises(tv.InvalidArgumentError, match="multiply of float32 and float64"):
        _ = tv.constant(1.0) * tv.constant(np.float64(2.0))


def test_float_scalar_into_an_int_tensor_is_an_error() -> None:
    with pytest.raises(TypeError, match=r"cannot convert the float value 1\.5"):
        _ = tv.constant(1) + 1.5


def test_int_true_division_gives_float64_like_tensorflow() -> None:
    out = tv.constant(1) / tv.constant(2)
    assert out.dtype is tv.float64 and float(out) == 0.5


def test_tensors_are_immutable_and_carry_stable_ids() -> None:
    arr = np.array([1.0, 2.0], dtype=np.float32)
    t = tv.constant(arr)
    arr[0] = 99.0  # the tensor copied its value
    assert t.numpy()[0] == 1.0
    n = t.numpy()
    n[1] = 42.0  # numpy() hands out a copy
    assert t.numpy()[1] == 2.0
    with pytest.raises(AttributeError):
        t.foo = 1  # type: ignore[attr-defined]
    ids = [tv.constant(1.0).id for _ in range(3)]
    assert ids == sorted(ids) and len(set(ids)) == 3


def test_variable_assign_family_and_shape_check() -> None:
    v = tv.Variable([1.0, 2.0], name="w")
    assert v.name == "w:0" and v.trainable and v.shape == (2,) and v.dtype is tv.float32
    v.assign([3.0, 4.0])
    v.assign_add([1.0, 1.0])
    v.assign_sub(tv.constant([0.5, 0.5]))
    np.testing.assert_array_equal(v.numpy(), [3.5, 4.5])
    with pytest.raises(tv.InvalidArgumentError, match="shape"):
        v.assign([1.0, 2.0, 3.0])
    assert tv.Variable(0.0).name == "Variable:0"


def test_variable_reads_carry_the_variables_id() -> None:
    v = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = v * v
    assert tape.records[0].input_ids == (v.id, v.id)
    assert float(y) == 4.0


def test_operators_map_to_ops() -> None:
    x, y = tv.constant(6.0), tv.constant(4.0)
    assert float(x + y) == 10 and float(x - y) == 2 and float(x * y) == 24
    assert float(x / y) == 1.5 and float(x // y) == 1 and float(x % y) == 2
    assert float(x**2) == 36 and float(2**y) == 16 and float(-x) == -6 and float(abs(-x)) == 6
    assert bool(x > y) and not bool(x < y) and bool(x >= 6) and bool(x <= 6.0)
    assert bool(x == 6.0) and bool(x != y)
    m = tv.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal((m @ m).numpy(), [[7, 10], [15, 22]])
    np.testing.assert_array_equal((np.ones(2, dtype=np.float32) * m).numpy(), m.numpy())


def test_caret_explains_power() -> None:
    with pytest.raises(TypeError, match=r"write x\*\*2"):
        _ = tv.constant(3.0) ^ 2


def test_indexing_and_iteration() -> None:
    m = tv.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert float(m[1, 2]) == 6.0
    np.testing.assert_array_equal(m[:, ::-1].numpy(), [[3, 2, 1], [6, 5, 4]])
    np.testing.assert_array_equal(m[..., tv.constant(1)].numpy(), [2, 5])
    rows = list(m)
    assert len(rows) == 2 and rows[1].shape == (3,)
    assert [int(i) for i in tv.range(3)] == [0, 1, 2]
    assert list(range(tv.constant(3))) == [0, 1, 2]


def test_scalar_conversions_and_format() -> None:
    t = tv.constant(2.5)
    assert float(t) == 2.5 and int(t) == 2 and f"{t:.3f}" == "2.500"
    with pytest.raises(tv.InvalidArgumentError, match="ambiguous"):
        bool(tv.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="integer tensors"):
        range(tv.constant(2.0))


def test_str_and_repr_match_tensorflow() -> None:
    assert str(tv.constant(6.0)) == "tf.Tensor(6.0, shape=(), dtype=float32)"
    assert repr(tv.constant(6.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert str(tv.constant([1, 2])) == "tf.Tensor([1 2], shape=(2,), dtype=int32)"
    assert str(tv.constant([[1, 2], [3, 4]])) == (
        "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    )
    v = tv.Variable(0.0, name="x")
    assert repr(v) == "<tf.Variable 'x:0' shape=() dtype=float32, numpy=0.0>"
    assert repr(tv.constant([1.0]).shape) == "TensorShape([1])"
    assert tv.constant([[1.0]]).shape.as_list() == [1, 1]


def test_cast_and_dtype_lookup() -> None:
    assert tv.cast(tv.constant(2.7), tv.int32).numpy() == 2
    assert tv.cast(tv.constant(2), "float64").dtype is tv.float64
    assert tv.as_dtype(np.float32) is tv.float32
    with pytest.raises(TypeError, match="unknown dtype"):
        tv.as_dtype("float33")


def test_creation_helpers() -> None:
    assert tv.zeros((2, 3)).shape == (2, 3)
    assert tv.ones([2], dtype=tv.int32).dtype is tv.int32
    assert float(tv.reduce_sum(tv.fill([2, 2], 1.5))) == 6.0
    assert tv.range(0.0, 1.0, 0.25).dtype is tv.float32
    assert tv.range(5).numpy().tolist() == [0, 1, 2, 3, 4]
    assert tv.expand_dims(tv.constant([1.0, 2.0]), 0).shape == (1, 2)
    assert tv.squeeze(tv.zeros((1, 2, 1))).shape == (2,)
    assert tv.linspace(0, 1, 5).numpy()[-1] == 1.0
    np.testing.assert_array_equal(tv.where(tv.constant([True, False, True])).numpy(), [[0], [2]])
