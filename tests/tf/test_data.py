"""tf.data.Dataset over in-memory data, as a custom training loop uses it."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf


def test_slices_batches_and_specs(capsys: pytest.CaptureFixture[str]) -> None:
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    y = np.array([0, 1, 0, 1, 1])
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    print(ds)
    print(ds.batch(2))
    print(ds.batch(2, drop_remainder=True).element_spec)
    assert capsys.readouterr().out == (
        "<_TensorSliceDataset element_spec=(TensorSpec(shape=(2,), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(), dtype=tf.int64, name=None))>\n"
        "<_BatchDataset element_spec=(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None))>\n"
        "(TensorSpec(shape=(2, 2), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(2,), dtype=tf.int64, name=None))\n"
    )
    batches = list(ds.batch(2))
    assert [b[0].shape for b in batches] == [(2, 2), (2, 2), (1, 2)]
    assert len(ds) == 5 and len(ds.batch(2)) == 3 and len(ds.batch(2, drop_remainder=True)) == 2
    first_x, first_y = next(iter(ds))
    assert repr(first_x) == (
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>"
    )
    assert first_y.dtype == tf.int64
    assert list(tf.data.Dataset.range(3).as_numpy_iterator()) == [0, 1, 2]


def test_dicts_map_filter_take_skip_repeat() -> None:
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3, 4], "b": [10, 20, 30, 40]})
    assert [int(e["b"]) for e in ds] == [10, 20, 30, 40]
    pairs = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6]))
    summed = pairs.map(lambda u, v: u + v)  # a tuple element is passed as arguments
    assert [int(e) for e in summed] == [5, 7, 9]
    odd = tf.data.Dataset.range(10).filter(lambda v: v % 2 == 1)
    assert [int(e) for e in odd] == [1, 3, 5, 7, 9]
    assert int(odd.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    r = tf.data.Dataset.range(5)
    assert [int(e) for e in r.skip(2).take(2)] == [2, 3]
    assert [int(e) for e in r.take(2).repeat(2)] == [0, 1, 0, 1]
    forever = r.repeat()
    assert int(forever.cardinality()) == tf.data.INFINITE_CARDINALITY
    with pytest.raises(TypeError, match="The dataset is infinite"):
        len(forever)
    assert [int(e) for e in forever.take(7)] == [0, 1, 2, 3, 4, 0, 1]
    assert [(int(i), int(e)) for i, e in r.take(2).enumerate()] == [(0, 0), (1, 1)]
    zipped = tf.data.Dataset.zip((r, r.map(lambda v: v * 10)))
    assert [(int(a), int(b)) for a, b in zipped.take(2)] == [(0, 0), (1, 10)]
    assert [int(e) for e in r.prefetch(tf.data.AUTOTUNE).cache()] == [0, 1, 2, 3, 4]
    assert int(r.reduce(tf.constant(0, tf.int64), lambda s, v: s + v)) == 10
    assert [e.tolist() for e in r.batch(2).unbatch().as_numpy_iterator()] == [0, 1, 2, 3, 4]


def test_shuffle_is_seeded_and_reshuffles_each_epoch() -> None:
    ds = tf.data.Dataset.range(20)
    tf.random.set_seed(3)
    s = ds.shuffle(buffer_size=20)
    epoch1 = [int(e) for e in s]
    epoch2 = [int(e) for e in s]
    assert sorted(epoch1) == list(range(20)) and epoch1 != epoch2
    tf.random.set_seed(3)
    again = ds.shuffle(buffer_size=20)
    assert [int(e) for e in again] == epoch1
    fixed = ds.shuffle(20, seed=1, reshuffle_each_iteration=False)
    assert [int(e) for e in fixed] == [int(e) for e in fixed]
    small = [int(e) for e in ds.shuffle(buffer_size=2, seed=0)]
    assert sorted(small) == list(range(20)) and max(abs(v - i) for i, v in enumerate(small)) < 20


def test_slices_must_agree_and_batches_must_match() -> None:
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.data.Dataset.from_tensor_slices(([1, 2, 3], [1, 2]))
    ragged = tf.data.Dataset.from_generator(lambda: iter([[1.0], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="Cannot batch tensors with different shapes"):
        list(ragged.batch(2))


def test_a_custom_training_loop_over_a_dataset() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 2)).astype(np.float32)
    y = (x @ np.array([[2.0], [-1.0]], dtype=np.float32) + 0.5).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=2).batch(16)
    w = tf.Variable(tf.zeros([2, 1]))
    b = tf.Variable(0.0)
    opt = tf.keras.optimizers.SGD(learning_rate=0.1)
    for _epoch in range(30):
        for xb, yb in dataset:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(xb @ w + b - yb))
            grads = tape.gradient(loss, [w, b])
            opt.apply_gradients(zip(grads, [w, b], strict=True))
    np.testing.assert_allclose(w.numpy().ravel(), [2.0, -1.0], atol=1e-3)
    assert float(b) == pytest.approx(0.5, abs=1e-3)
