"""The new ops on the examples of TensorFlow's API documentation, with the values it prints."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf


def close(t: tf.Tensor, expected: object, rtol: float = 1e-6) -> None:
    np.testing.assert_allclose(
        t.numpy(), np.asarray(expected, dtype=np.float32), rtol=rtol, atol=1e-7
    )


def test_nan_tests_products_and_running_sums(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.constant([5.0, np.nan, 6.8, np.nan, np.inf])
    print(tf.math.is_nan(x))
    assert capsys.readouterr().out == (
        "tf.Tensor([False  True False  True False], shape=(5,), dtype=bool)\n"
    )
    assert tf.math.is_inf(x).numpy().tolist() == [False, False, False, False, True]
    assert tf.math.is_finite(x).numpy().tolist() == [True, False, True, False, False]
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert float(tf.reduce_prod(m)) == 24.0
    close(tf.reduce_prod(m, axis=0), [3.0, 8.0])
    close(tf.reduce_logsumexp(tf.zeros((2, 3))), np.log(6.0))
    close(tf.reduce_logsumexp(tf.zeros((2, 3)), axis=0), [np.log(2.0)] * 3)
    v = tf.constant([1, 2, 3, 4])
    assert tf.cumsum(v).numpy().tolist() == [1, 3, 6, 10]
    assert tf.cumsum(v, exclusive=True).numpy().tolist() == [0, 1, 3, 6]
    assert tf.cumsum(v, reverse=True).numpy().tolist() == [10, 9, 7, 4]
    assert tf.math.cumprod(v).numpy().tolist() == [1, 2, 6, 24]
    with pytest.raises(tf.errors.InvalidArgumentError, match="needs a float tensor"):
        tf.math.is_nan(tf.constant([1, 2]))


def test_meshgrid_tensordot_einsum_eye() -> None:
    x, y = [1, 2, 3], [4, 5, 6]
    xx, yy = tf.meshgrid(x, y)
    assert xx.numpy().tolist() == [[1, 2, 3]] * 3
    assert yy.numpy().tolist() == [[4, 4, 4], [5, 5, 5], [6, 6, 6]]
    xi, _ = tf.meshgrid(x, [4, 5], indexing="ij")
    assert xi.shape == (3, 2)
    a = tf.constant(np.arange(6.0).reshape(2, 3))
    b = tf.constant(np.arange(12.0).reshape(3, 4))
    np.testing.assert_allclose(tf.tensordot(a, b, axes=1).numpy(), a.numpy() @ b.numpy())
    np.testing.assert_allclose(tf.tensordot(a, a, axes=[[0, 1], [0, 1]]).numpy(), 55.0)
    assert tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), axes=0).shape == (2, 2)
    np.testing.assert_allclose(tf.einsum("ij,jk->ik", a, b).numpy(), a.numpy() @ b.numpy())
    np.testing.assert_allclose(tf.einsum("ij->ji", a).numpy(), a.numpy().T)
    np.testing.assert_allclose(
        tf.einsum("...j,j", a, tf.constant([1.0, 1.0, 1.0], tf.float64)).numpy(), [3.0, 12.0]
    )
    assert tf.eye(2, num_columns=3).numpy().tolist() == [[1, 0, 0], [0, 1, 0]]
    assert tf.eye(2, batch_shape=[3]).shape == (3, 2, 2)
    assert tf.eye(2).dtype == tf.float32


def test_pad_tile_gather_one_hot() -> None:
    t = tf.constant([[1, 2, 3], [4, 5, 6]])
    paddings = tf.constant([[1, 1], [2, 2]])
    assert tf.pad(t, paddings, "CONSTANT").numpy().tolist() == [
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 1, 2, 3, 0, 0],
        [0, 0, 4, 5, 6, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    assert tf.pad(t, paddings, "REFLECT").numpy().tolist() == [
        [6, 5, 4, 5, 6, 5, 4],
        [3, 2, 1, 2, 3, 2, 1],
        [6, 5, 4, 5, 6, 5, 4],
        [3, 2, 1, 2, 3, 2, 1],
    ]
    assert tf.pad(t, paddings, "SYMMETRIC").numpy().tolist() == [
        [2, 1, 1, 2, 3, 3, 2],
        [2, 1, 1, 2, 3, 3, 2],
        [5, 4, 4, 5, 6, 6, 5],
        [5, 4, 4, 5, 6, 6, 5],
    ]
    assert tf.tile(t, [1, 2]).numpy().tolist() == [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]
    params = tf.constant([10.0, 11.0, 12.0, 13.0])
    assert tf.gather(params, [3, 0, 0]).numpy().tolist() == [13.0, 10.0, 10.0]
    assert tf.gather(t, [2, 0], axis=1).numpy().tolist() == [[3, 1], [6, 4]]
    with pytest.raises(
        tf.errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in \[0, 4\)"
    ):
        tf.gather(params, [0, 7])
    assert tf.gather_nd(t, [[1, 2], [0, 0]]).numpy().tolist() == [6, 1]
    assert tf.one_hot([0, 1, 2], 3).numpy().tolist() == np.eye(3).tolist()
    assert tf.one_hot([0, 2, -1, 1], depth=3, on_value=5.0, off_value=0.0).numpy().tolist() == [
        [5.0, 0.0, 0.0],
        [0.0, 0.0, 5.0],
        [0.0, 0.0, 0.0],
        [0.0, 5.0, 0.0],
    ]
    assert tf.one_hot([1], 2).dtype == tf.float32


def test_linear_algebra() -> None:
    a = tf.constant([[3.0, 1.0], [1.0, 2.0]])
    b = tf.constant([[9.0], [8.0]])
    close(tf.linalg.solve(a, b), [[2.0], [3.0]])
    close(tf.linalg.inv(a) @ a, np.eye(2), rtol=1e-5)
    assert float(tf.linalg.det(a)) == pytest.approx(5.0)
    assert tf.linalg.diag([1, 2, 3, 4]).numpy().tolist() == np.diag([1, 2, 3, 4]).tolist()
    assert tf.linalg.diag_part(a).numpy().tolist() == [3.0, 2.0]
    assert float(tf.linalg.trace(a)) == 5.0
    close(tf.linalg.matvec(a, tf.constant([1.0, 1.0])), [4.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible"):
        tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be square"):
        tf.linalg.det(tf.ones((2, 3)))


def test_clipping() -> None:
    some_nums = tf.constant([[1, 2, 3, 4, 5]], dtype=tf.float32)
    close(
        tf.clip_by_norm(some_nums, 2.0), [[0.26967996, 0.5393599, 0.80903983, 1.0787199, 1.3483998]]
    )
    t_list = [tf.constant([3.0, 4.0]), tf.constant([12.0])]
    clipped, norm = tf.clip_by_global_norm(t_list, 6.5)
    assert float(norm) == 13.0
    close(clipped[0], [1.5, 2.0])
    close(clipped[1], [6.0])


def test_activations(capsys: pytest.CaptureFixture[str]) -> None:
    print(tf.nn.softmax([1.0, 2.0, 3.0]))
    assert capsys.readouterr().out == (
        "tf.Tensor([0.09003057 0.24472848 0.66524094], shape=(3,), dtype=float32)\n"
    )
    close(tf.nn.elu([-1.0, 0.0, 1.0]), [-0.63212055, 0.0, 1.0])
    close(tf.nn.selu([-1.0, 1.0]), [-1.1113307, 1.050701])
    x = tf.constant([-3.0, -1.0, 0.0, 1.0, 3.0], dtype=tf.float32)
    # TensorFlow's float32 erf is a rational approximation: gelu(-3) differs from it by 4e-5
    close(tf.nn.gelu(x), [-0.00404951, -0.15865529, 0.0, 0.8413447, 2.9959507], rtol=5e-5)
    close(
        tf.nn.gelu(x, approximate=True),
        [-0.00363752, -0.15880796, 0.0, 0.841192, 2.9963627],
        rtol=5e-5,
    )  # and its float32 tanh
    close(tf.nn.silu(x), x.numpy() / (1 + np.exp(-x.numpy())), rtol=1e-5)
    close(tf.nn.softsign([-1.0, 3.0]), [-0.5, 0.75])
    close(tf.nn.log_softmax([1.0, 2.0, 3.0]), np.log([0.09003057, 0.24472848, 0.66524094]))
    close(tf.math.log_sigmoid([0.0]), [np.log(0.5)])


def test_cross_entropies() -> None:
    logits = tf.constant([1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 0.0])
    labels = tf.constant([0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.5])
    close(
        tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits),
        [1.3132617, 0.3132617, 0.6931472, 0.3132617, 1.3132617, 0.6931472, 0.6931472],
    )
    close(
        tf.nn.softmax_cross_entropy_with_logits(
            labels=[[1.0, 0.0, 0.0], [0.0, 0.8, 0.2]], logits=[[4.0, 2.0, 1.0], [0.0, 5.0, 1.0]]
        ),
        [0.16984604, 0.82474494],
        rtol=1e-5,
    )
    logits = tf.constant(
        [[2.0, -5.0, 0.5, -0.1], [0.0, 0.0, 1.9, 1.4], [-100.0, 100.0, -100.0, -100.0]]
    )
    close(
        tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.constant([0, 3, 1]), logits=logits
        ),
        [0.29750752, 1.1448325, 0.0],
        rtol=1e-5,
    )
    with pytest.raises(ValueError, match="must have the same shape"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0], logits=[1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="outside the valid range"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([5]), logits=[[1.0, 2.0]])


def test_keras_losses_and_metrics() -> None:
    keras = tf.keras
    y_true, y_pred = [[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]
    assert float(keras.losses.MeanSquaredError()(y_true, y_pred)) == 0.5
    assert float(keras.losses.MeanAbsoluteError()(y_true, y_pred)) == 0.5
    bce = keras.losses.BinaryCrossentropy()
    assert float(bce([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]])) == pytest.approx(
        0.815, abs=1e-3
    )
    cce = keras.losses.CategoricalCrossentropy()
    probs = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    assert float(cce([[0, 1, 0], [0, 0, 1]], probs)) == pytest.approx(1.177, abs=1e-3)
    scce = keras.losses.SparseCategoricalCrossentropy()
    assert float(scce([1, 2], probs)) == pytest.approx(1.177, abs=1e-3)
    assert scce.name == "sparse_categorical_crossentropy"
    assert keras.losses.mean_squared_error([1.0, 2.0], [1.0, 4.0]).numpy() == 2.0
    m = keras.metrics.Mean()
    m.update_state([1, 3, 5, 7])
    assert float(m.result()) == 4.0
    m.reset_state()
    assert float(m.result()) == 0.0
    acc = keras.metrics.SparseCategoricalAccuracy()
    acc.update_state([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0.0]])
    assert float(acc.result()) == 0.5
    bin_acc = keras.metrics.BinaryAccuracy()
    bin_acc.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    assert float(bin_acc.result()) == 0.75
