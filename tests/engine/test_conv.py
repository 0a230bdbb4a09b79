"""Convolution and pooling against TensorFlow's documented rules and a naive loop reference.

Output sizes follow TF's formulas (VALID ``ceil((n − (k−1)·d) / s)``, SAME ``ceil(n / s)`` with
the padding split ``total // 2`` before, the rest after); values are checked against loops
over every pixel written here; gradients against finite differences (to second order, so the
rules made of the other primitives are differentiable again).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import primitives as P
from tapeviz.engine.core import bind
from tapeviz.engine.guard import ResourceLimitError, size_limits

RNG = np.random.default_rng(7)


def normal(*shape: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def tf_size(n: int, k: int, s: int, d: int, padding: str) -> tuple[int, int, int]:
    """TF's documented output size and (before, after) padding of one dimension."""
    k_eff = (k - 1) * d + 1
    if padding == "VALID":
        return math.ceil((n - k_eff + 1) / s), 0, 0
    out = math.ceil(n / s)
    total = max((out - 1) * s + k_eff - n, 0)
    return out, total // 2, total - total // 2


def naive_conv(x: np.ndarray, w: np.ndarray, s: tuple, pads: tuple, d: tuple) -> np.ndarray:
    """output[b, i, j, k] = Σ x_padded[b, s·i + d·di, s·j + d·dj, q] · w[di, dj, q, k]."""
    (pt, pb), (pl, pr) = pads
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    n, h, wd, c = xp.shape
    kh, kw, _, co = w.shape
    oh = (h - (kh - 1) * d[0] - 1) // s[0] + 1
    ow = (wd - (kw - 1) * d[1] - 1) // s[1] + 1
    out = np.zeros((n, oh, ow, co))
    for b, i, j, k in itertools.product(range(n), range(oh), range(ow), range(co)):
        for di, dj, q in itertools.product(range(kh), range(kw), range(c)):
            out[b, i, j, k] += (
                xp[b, s[0] * i + d[0] * di, s[1] * j + d[1] * dj, q] * w[di, dj, q, k]
            )
    return out


def naive_pool(x: np.ndarray, k: tuple, s: tuple, pads: tuple, how: str) -> np.ndarray:
    (pt, pb), (pl, pr) = pads
    n, h, wd, c = x.shape
    oh = (h + pt + pb - k[0]) // s[0] + 1
    ow = (wd + pl + pr - k[1]) // s[1] + 1
    out = np.zeros((n, oh, ow, c))
    for b, i, j, q in itertools.product(range(n), range(oh), range(ow), range(c)):
        rows = range(max(i * s[0] - pt, 0), min(i * s[0] - pt + k[0], h))
        cols = range(max(j * s[1] - pl, 0), min(j * s[1] - pl + k[1], wd))
        vals = [x[b, r, cc, q] for r in rows for cc in cols]  # padding is left out
        out[b, i, j, q] = max(vals) if how == "max" else sum(vals) / len(vals)
    return out


COMBOS = [
    (h, w, k, s, d, pad)
    for (h, w), k, s, d, pad in itertools.product(
        [(5, 5), (6, 7), (1, 4)], [1, 2, 3], [1, 2, 3], [1, 2], ["SAME", "VALID"]
    )
    if not (s > 1 and d > 1)
]


@pytest.mark.parametrize(("h", "w", "k", "s", "d", "padding"), COMBOS)
def test_conv2d_shapes_and_values_follow_tf(h: int, w: int, k: int, s: int, d: int,
                                            padding: str) -> None:  # fmt: skip
    x, f = normal(2, h, w, 3), normal(k, k, 3, 4, seed=2)
    oh, pt, pb = tf_size(h, k, s, d, padding)
    ow, pl, pr = tf_size(w, k, s, d, padding)
    if oh < 0 or ow < 0:
        with pytest.raises(tv.InvalidArgumentError, match="output size would be negative"):
            tv.conv2d(x, f, s, padding, dilations=d)
        return
    got = tv.conv2d(tv.constant(x), tv.constant(f), s, padding, dilations=d).numpy()
    assert got.shape == (2, oh, ow, 4)
    want = naive_conv(x, f, (s, s), ((pt, pb), (pl, pr)), (d, d))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_conv2d_rectangular_strides_dilations_and_explicit_padding() -> None:
    x, f = normal(1, 7, 8, 2), normal(3, 2, 2, 3, seed=2)
    pads = [[0, 0], [2, 1], [0, 3], [0, 0]]
    got = tv.conv2d(x, f, [1, 2, 3, 1], pads).numpy()
    np.testing.assert_allclose(got, naive_conv(x, f, (2, 3), ((2, 1), (0, 3)), (1, 1)), atol=1e-10)
    got = tv.conv2d(x, f, 1, "VALID", dilations=[2, 3]).numpy()
    np.testing.assert_allclose(got, naive_conv(x, f, (1, 1), ((0, 0), (0, 0)), (2, 3)), atol=1e-10)


def test_the_tf_doc_example() -> None:
    x_in = np.array([[[[2], [1], [2], [0], [1]], [[1], [3], [2], [2], [3]],
                      [[1], [1], [3], [3], [0]], [[2], [2], [0], [1], [1]],
                      [[0], [0], [3], [1], [2]]]], dtype=np.float32)  # fmt: skip
    kernel_in = np.array([[[[2, 0.1]], [[3, 0.2]]], [[[0, 0.3]], [[1, 0.4]]]], dtype=np.float32)
    out = tv.conv2d(tv.constant(x_in), tv.constant(kernel_in), [1, 1, 1, 1], "VALID")
    assert out.shape == (1, 4, 4, 2) and out.dtype == tv.float32
    # the top-left window [[2, 1], [1, 3]] against each filter
    first = [2 * 2 + 1 * 3 + 1 * 0 + 3 * 1, 2 * 0.1 + 1 * 0.2 + 1 * 0.3 + 3 * 0.4]
    assert out.numpy()[0, 0, 0].tolist() == pytest.approx(first)


def test_extra_batch_dimensions_and_a_float32_batch() -> None:
    x, f = normal(2, 3, 5, 5, 2).astype(np.float32), normal(3, 3, 2, 4).astype(np.float32)
    out = tv.conv2d(x, f, 1, "SAME")
    assert out.shape == (2, 3, 5, 5, 4) and out.dtype == tv.float32
    np.testing.assert_allclose(out.numpy()[1, 2], tv.conv2d(x[1, 2:3], f, 1, "SAME").numpy()[0],
                               rtol=1e-5)  # fmt: skip


@pytest.mark.parametrize(("s", "pad", "size"), [(2, "SAME", 8), (2, "VALID", 9), (3, "SAME", 7),
                                                (1, "SAME", 6), (1, "VALID", 6)])  # fmt: skip
def test_conv2d_transpose_is_the_adjoint_of_conv2d(s: int, pad: str, size: int) -> None:
    x, f = normal(2, size, size + 1, 3), normal(3, 3, 3, 4, seed=2)
    y = tv.conv2d(x, f, s, pad)
    u = normal(*y.shape, seed=3)
    xt = tv.conv2d_transpose(u, f, x.shape, s, pad)
    assert xt.shape == x.shape
    assert np.sum(y.numpy() * u) == pytest.approx(np.sum(x * xt.numpy()), rel=1e-10)
    wt = bind(P.conv2d_backprop_filter_p, tv.constant(x), tv.constant(u), filter_shape=f.shape,
              strides=(s, s), padding=pad, dilations=(1, 1))  # fmt: skip
    assert np.sum(y.numpy() * u) == pytest.approx(np.sum(f * wt.numpy()), rel=1e-10)


def test_conv2d_transpose_doubles_the_size_with_stride_2_same() -> None:
    x, f = normal(1, 7, 7, 8).astype(np.float32), normal(4, 4, 5, 8).astype(np.float32)
    assert tv.conv2d_transpose(x, f, [1, 14, 14, 5], 2, "SAME").shape == (1, 14, 14, 5)
    assert tv.conv2d_transpose(x, f, [14, 14], [2, 2]).shape == (1, 14, 14, 5)
    with pytest.raises(tv.InvalidArgumentError, match="out_backprop"):
        tv.conv2d_transpose(x, f, [1, 12, 12, 5], 2, "SAME")  # conv2d of 12x12 gives 6x6


def test_conv1d_is_conv2d_over_one_row() -> None:
    x, f = normal(2, 9, 3), normal(3, 3, 4, seed=2)
    got = tv.conv1d(x, f, 2, "SAME").numpy()
    want = naive_conv(x[:, None], f[None], (1, 2), ((0, 0), (1, 1)), (1, 1))[:, 0]
    np.testing.assert_allclose(got, want, atol=1e-10)
    assert tv.convolution(x, f, padding="VALID").shape == (2, 7, 4)
    assert tv.conv1d_transpose(tv.conv1d(x, f, 2, "SAME"), f, [2, 9, 3], 2).shape == (2, 9, 3)


POOLS = list(itertools.product([(4, 5), (3, 3)], [(2, 2), (3, 2), (1, 1)], [(1, 1), (2, 2), (2, 3)],
                               ["SAME", "VALID"]))  # fmt: skip


@pytest.mark.parametrize(("hw", "k", "s", "padding"), POOLS)
def test_pools_follow_tf(hw: tuple, k: tuple, s: tuple, padding: str) -> None:
    x = normal(2, *hw, 3)
    oh, pt, pb = tf_size(hw[0], k[0], s[0], 1, padding)
    ow, pl, pr = tf_size(hw[1], k[1], s[1], 1, padding)
    if oh <= 0 or ow <= 0:
        return
    for how, fn in (("max", tv.max_pool2d), ("avg", tv.avg_pool2d)):
        got = fn(x, k, s, padding).numpy()
        assert got.shape == (2, oh, ow, 3)
        np.testing.assert_allclose(got, naive_pool(x, k, s, ((pt, pb), (pl, pr)), how), atol=1e-12)


def test_max_pool_doc_examples() -> None:
    x = tv.constant([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])
    x = tv.reshape(x, (1, 3, 4, 1))
    assert tv.max_pool2d(x, (2, 2), (2, 2), "VALID").numpy()[0, :, :, 0].tolist() == [[6, 8]]
    same = tv.max_pool2d(x, (2, 2), (2, 2), "SAME").numpy()[0, :, :, 0]
    assert same.tolist() == [[6, 8], [10, 12]]
    explicit = tv.max_pool2d(x, (2, 2), (2, 2), [[0, 0], [1, 1], [1, 1], [0, 0]])
    assert explicit.numpy()[0, :, :, 0].tolist() == [[1, 3, 4], [9, 11, 12]]
    assert tv.max_pool(x, 2, 2, "VALID").shape == (1, 1, 2, 1)
    assert tv.avg_pool1d(tv.constant(normal(2, 5, 3)), 2, 2, "SAME").shape == (2, 3, 3)


def test_the_max_pool_gradient_goes_to_the_first_maximum() -> None:
    x = tv.constant(np.ones((1, 2, 4, 1)))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.max_pool2d(x, 2, 2, "VALID")
    g = tape.gradient(y, x).numpy()[0, :, :, 0]
    assert g.tolist() == [[1, 0, 1, 0], [0, 0, 0, 0]]


def test_overlapping_windows_add_their_gradients() -> None:
    x = tv.constant(np.array([[1.0, 9.0, 2.0], [3.0, 4.0, 5.0]]).reshape(1, 2, 3, 1))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.max_pool2d(x, 2, 1, "VALID")
    assert tape.gradient(y, x).numpy()[0, :, :, 0].tolist() == [[0, 2, 0], [0, 0, 0]]


def test_the_average_pool_shares_over_real_elements_only() -> None:
    x = tv.constant(np.arange(9.0).reshape(1, 3, 3, 1))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.avg_pool2d(x, 2, 2, "SAME")
    assert y.numpy()[0, :, :, 0].tolist() == [[2.0, 3.5], [6.5, 8.0]]
    g = tape.gradient(y, x).numpy()[0, :, :, 0]
    np.testing.assert_allclose(g, [[0.25, 0.25, 0.5], [0.25, 0.25, 0.5], [0.5, 0.5, 1.0]])


def check(f: Any, *args: Any, order: int = 1) -> None:
    tv.gradcheck.check_grads(f, *args, order=order, rng=np.random.default_rng(0))


EXPLICIT = [[0, 0], [2, 0], [1, 1], [0, 0]]


@pytest.mark.parametrize(
    ("s", "pad", "d"),
    [(1, "SAME", 1), (2, "SAME", 1), (2, "VALID", 1), (1, "VALID", 2), (1, EXPLICIT, 1)],
)
def test_conv_gradients_by_finite_differences(s: int, pad: Any, d: int) -> None:
    x, f = normal(2, 5, 6, 2), normal(3, 2, 2, 3, seed=2)
    check(lambda a, b: tv.conv2d(a, b, s, pad, dilations=d), x, f, order=2)
    y = tv.conv2d(x, f, s, pad, dilations=d)
    u = normal(*y.shape, seed=4)
    p = {"strides": (s, s), "padding": pad if isinstance(pad, str) else ((2, 0), (1, 1)),
         "dilations": (d, d)}  # fmt: skip
    check(lambda w, g: bind(P.conv2d_backprop_input_p, w, g, input_shape=x.shape, **p), f, u,
          order=2)  # fmt: skip
    check(lambda a, g: bind(P.conv2d_backprop_filter_p, a, g, filter_shape=f.shape, **p), x, u,
          order=2)  # fmt: skip


@pytest.mark.parametrize(("k", "s", "pad"), [(2, 2, "VALID"), (3, 2, "SAME"), (2, 1, "SAME")])
def test_pool_gradients_by_finite_differences(k: int, s: int, pad: str) -> None:
    x = normal(2, 5, 4, 3)
    check(lambda a: tv.max_pool2d(a, k, s, pad), x, order=2)
    check(lambda a: tv.avg_pool2d(a, k, s, pad), x, order=2)
    y = tv.max_pool2d(x, k, s, pad)
    p = {"ksize": (k, k), "strides": (s, s), "padding": pad}
    check(lambda g: bind(P.max_pool_grad_p, tv.constant(x), g, **p), normal(*y.shape, seed=5))
    check(lambda u: bind(P.max_pool_grad_grad_p, tv.constant(x), u, **p), normal(*x.shape))
    check(lambda g: bind(P.avg_pool_grad_p, g, input_shape=x.shape, **p), normal(*y.shape))


def test_a_gradient_inside_a_tape_records_the_transposed_ops() -> None:
    x, f = tv.constant(normal(1, 4, 4, 1)), tv.Variable(normal(2, 2, 1, 2))
    with tv.GradientTape() as outer:
        with tv.GradientTape() as inner:
            y = tv.reduce_sum(tv.conv2d(x, f, 1, "SAME") ** 2)
        g = inner.gradient(y, f)
        z = tv.reduce_sum(g)
    names = [r.name for r in outer.records]
    assert "conv2d_backprop_filter" in names
    assert outer.gradient(z, f) is not None


def test_errors_read_like_tensorflow() -> None:
    x, f = normal(1, 2, 2, 3), normal(3, 3, 3, 1)
    with pytest.raises(tv.InvalidArgumentError, match="Computed output size would be negative"):
        tv.conv2d(normal(1, 1, 1, 3), f, 1, "VALID")
    with pytest.raises(tv.InvalidArgumentError, match="depth"):
        tv.conv2d(x, normal(1, 1, 2, 1), 1, "SAME")
    with pytest.raises(tv.InvalidArgumentError, match="allowed values"):
        tv.conv2d(x, f, 1, "same")
    with pytest.raises(tv.UnimplementedError, match="NHWC"):
        tv.conv2d(x, f, 1, "SAME", data_format="NCHW")
    with pytest.raises(tv.InvalidArgumentError, match="length 1, 2 or 4"):
        tv.conv2d(x, f, [1, 1, 1], "SAME")
    with pytest.raises(tv.InvalidArgumentError, match="float"):
        tv.conv2d(np.ones((1, 2, 2, 1), np.int32), np.ones((1, 1, 1, 1), np.int32), 1, "SAME")


def test_the_size_guard_refuses_a_huge_convolution_before_running_it() -> None:
    x, f = np.zeros((1, 400, 400, 1), np.float32), np.zeros((3, 3, 1, 128), np.float32)
    with size_limits(10_000_000), pytest.raises(ResourceLimitError, match="elements"):
        tv.conv2d(x, f, 1, "SAME")  # 20 M outputs
    with size_limits(10_000_000, 1_000_000), pytest.raises(ResourceLimitError, match="multiply"):
        tv.conv2d(x[:, :100, :100], f, 1, "SAME")
    with size_limits(10_000_000), pytest.raises(ResourceLimitError):
        tv.conv2d_transpose(np.zeros((1, 4, 4, 1), np.float32), np.zeros((3, 3, 8, 1), np.float32),
                            [1, 4000, 4000, 8], 1000, "SAME")  # fmt: skip
    with size_limits(10_000_000, 1_000_000), pytest.raises(ResourceLimitError):
        tv.max_pool2d(np.zeros((1, 300, 300, 1), np.float32), 50, 1, "SAME")


@pytest.mark.parametrize(("c", "co"), [(16, 2), (2, 16)])  # tap by tap in place, and im2col
def test_both_ways_of_multiplying_agree_with_the_loops(c: int, co: int) -> None:
    x, f = normal(2, 5, 4, c), normal(3, 2, c, co, seed=2)
    got = tv.conv2d(x, f, [2, 1], "SAME").numpy()
    np.testing.assert_allclose(got, naive_conv(x, f, (2, 1), ((1, 1), (0, 1)), (1, 1)), atol=1e-10)
    check(lambda a, b: tv.conv2d(a, b, [2, 1], "SAME"), x, f)
