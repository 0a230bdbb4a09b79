"""tf.random: shapes, dtypes, ranges and TensorFlow's seed rules."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf


def test_shapes_dtypes_and_ranges() -> None:
    tf.random.set_seed(0)
    x = tf.random.normal([7, 5])
    assert x.shape == (7, 5) and x.dtype == tf.float32
    assert abs(float(tf.reduce_mean(tf.random.normal([20000])))) < 0.05
    u = tf.random.uniform((3, 4), minval=2.0, maxval=5.0, dtype=tf.float64)
    assert u.dtype == tf.float64 and float(tf.reduce_min(u)) >= 2.0 and float(tf.reduce_max(u)) < 5
    t = tf.random.truncated_normal([5000], mean=1.0, stddev=2.0)
    assert float(tf.reduce_max(tf.abs(t - 1.0))) <= 4.0
    ints = tf.random.uniform([100], maxval=10, dtype=tf.int32)
    assert ints.dtype == tf.int32 and set(ints.numpy().tolist()) <= set(range(10))
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="Invalid dtype"):
        tf.random.normal([2], dtype=tf.int32)
    assert tf.random.normal([2], mean=3.0, stddev=0.0).numpy().tolist() == [3.0, 3.0]
    assert tf.random.categorical(tf.math.log([[0.5, 0.5]]), 5).shape == (1, 5)
    assert sorted(tf.random.shuffle(tf.range(6)).numpy().tolist()) == list(range(6))


def test_global_seed_gives_the_same_sequence_and_set_seed_restarts_it() -> None:
    tf.random.set_seed(1234)
    a1, a2 = tf.random.uniform([1]), tf.random.uniform([1])
    assert float(a1) != float(a2)
    tf.random.set_seed(1234)
    b1, b2 = tf.random.uniform([1]), tf.random.uniform([1])
    assert (float(a1), float(a2)) == (float(b1), float(b2))


def test_an_op_seed_continues_its_stream_until_set_seed() -> None:
    # "calling tf.random.uniform([1], seed=1) twice gives A1 then A2"
    tf.random.set_seed(1234)
    a1 = float(tf.random.uniform([1], seed=1))
    a2 = float(tf.random.uniform([1], seed=1))
    assert a1 != a2
    tf.random.set_seed(1234)
    assert [float(tf.random.uniform([1], seed=1)) for _ in range(2)] == [a1, a2]
    tf.random.set_seed(None)  # only an op seed: the default global seed
    c1 = float(tf.random.uniform([1], seed=1))
    tf.random.set_seed(None)
    assert float(tf.random.uniform([1], seed=1)) == c1


def test_without_seeds_values_differ() -> None:
    assert not np.array_equal(tf.random.normal([8]).numpy(), tf.random.normal([8]).numpy())


def test_stateless_ops_depend_only_on_the_seed() -> None:
    a = tf.random.stateless_normal([3], seed=[1, 2])
    b = tf.random.stateless_normal([3], seed=[1, 2])
    c = tf.random.stateless_normal([3], seed=[1, 3])
    assert np.array_equal(a.numpy(), b.numpy()) and not np.array_equal(a.numpy(), c.numpy())
    u = tf.random.stateless_uniform([4], seed=(7, 7), minval=0, maxval=3, dtype=tf.int64)
    assert u.dtype == tf.int64 and set(u.numpy().tolist()) <= {0, 1, 2}
    with pytest.raises(ValueError, match="shape \\[2\\] integer"):
        tf.random.stateless_normal([2], seed=[1])


def test_generators() -> None:
    g1 = tf.random.Generator.from_seed(1234)
    g2 = tf.random.Generator.from_seed(1234)
    first = g1.normal(shape=[2, 3])
    assert first.shape == (2, 3) and first.dtype == tf.float32
    np.testing.assert_array_equal(first.numpy(), g2.normal(shape=[2, 3]).numpy())
    assert not np.array_equal(first.numpy(), g1.normal(shape=[2, 3]).numpy())  # stateful
    assert g1.uniform([5], maxval=3, dtype=tf.int32).dtype == tf.int32
    assert g1.make_seeds(4).shape == (2, 4)
    assert len(g1.split(3)) == 3


def test_mean_and_stddev_tensors_get_gradients() -> None:
    mu, sigma = tf.Variable(1.0), tf.Variable(2.0)
    tf.random.set_seed(3)
    with tf.GradientTape() as tape:
        sample = tf.random.normal([1000], mean=mu, stddev=sigma)
        loss = tf.reduce_mean(sample)
    d_mu, d_sigma = tape.gradient(loss, [mu, sigma])
    assert float(d_mu) == pytest.approx(1.0)
    assert float(d_sigma) == pytest.approx(float(tf.reduce_mean((sample - 1.0) / 2.0)), abs=1e-6)


def test_dropout() -> None:
    tf.random.set_seed(0)
    x = tf.ones([1000])
    y = tf.nn.dropout(x, rate=0.5)
    kept = y.numpy()
    assert set(np.unique(kept).tolist()) <= {0.0, 2.0}
    assert 0.4 < float(np.mean(kept > 0)) < 0.6
    with pytest.raises(ValueError, match="range \\[0, 1\\)"):
        tf.nn.dropout(x, rate=1.0)


def test_keras_initializers_follow_the_seeds() -> None:
    tf.random.set_seed(5)
    k1 = tf.keras.layers.Dense(3)
    k1.build((None, 4))
    tf.random.set_seed(5)
    k2 = tf.keras.layers.Dense(3)
    k2.build((None, 4))
    np.testing.assert_array_equal(k1.kernel.numpy(), k2.kernel.numpy())
    seeded = tf.keras.initializers.GlorotUniform(seed=1)
    np.testing.assert_array_equal(seeded((2, 2)), seeded((2, 2)))  # an int seed: same values
    limit = np.sqrt(6 / (4 + 3))
    assert np.abs(k1.kernel.numpy()).max() <= limit
    tf.keras.utils.set_random_seed(9)
    a = tf.random.normal([2]).numpy()
    tf.keras.utils.set_random_seed(9)
    np.testing.assert_array_equal(a, tf.random.normal([2]).numpy())


def test_truncated_normals_of_generators_and_stateless_ops() -> None:
    g = tf.random.Generator.from_seed(3)
    t = g.truncated_normal([1000], stddev=1.0)
    assert t.shape == (1000,) and float(tf.reduce_max(tf.abs(t))) <= 2.0
    s1 = tf.random.stateless_truncated_normal([50], seed=[4, 5])
    s2 = tf.random.stateless_truncated_normal([50], seed=[4, 5])
    np.testing.assert_array_equal(s1.numpy(), s2.numpy())
    assert float(tf.reduce_max(tf.abs(s1))) <= 2.0
    c = tf.random.stateless_categorical(tf.math.log([[0.1, 0.9]]), 20, seed=[1, 1])
    assert c.dtype == tf.int64 and set(c.numpy().ravel().tolist()) <= {0, 1}
    assert isinstance(tf.random.get_global_generator(), tf.random.Generator)
    assert tf.random.gamma([3], alpha=2.0).shape == (3,)
    assert tf.random.poisson([2, 2], lam=3.0).dtype == tf.float32
