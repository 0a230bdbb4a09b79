"""Finite differences for the activation, maths, linear-algebra and indexing primitives.

Every differentiable primitive registered after ``scatter`` (the ones tf.nn, tf.math,
tf.linalg and the indexing ops added) has a check here, in float64, at points away from kinks;
the ones a Hessian goes through (elu, softmax, gelu, einsum, ...) are also checked to second
order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import primitives as P
from tapeviz.engine.core import bind
from tapeviz.engine.primitives import PRIMITIVES
from tapeviz.engine.vjp_rules import VJP


def new_differentiable() -> set[str]:
    names = list(PRIMITIVES)
    return {n for n in names[names.index("scatter") + 1 :] if VJP[PRIMITIVES[n]] is not None}


def check(f: Callable[..., Any], *args: Any, order: int = 1, seed: int = 0) -> None:
    tv.gradcheck.check_grads(f, *args, order=order, rng=np.random.default_rng(seed))


def normal(*shape: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def away(*shape: int, gap: float = 0.3, seed: int = 2) -> np.ndarray:
    """Values with |x| ≥ gap (no kink at 0)."""
    x = normal(*shape, seed=seed)
    return np.where(np.abs(x) < gap, np.sign(x + 1e-9) * gap, x)


def spd(n: int, seed: int = 3) -> np.ndarray:
    a = normal(n, n, seed=seed)
    return a @ a.T + n * np.eye(n)


@tv.custom_gradient
def log1pexp(x: Any) -> Any:
    e = tv.exp(x)

    def grad(upstream: Any) -> Any:
        return upstream * (1 - 1 / (1 + e))

    return tv.log(1 + e), grad


POOL = {"ksize": (2, 2), "strides": (1, 1), "padding": "SAME"}
LABELS = tv.constant(np.array([2, 0, 1]))
PROBS = np.abs(normal(3, 4)) / np.abs(normal(3, 4)).sum(axis=1, keepdims=True)
CHECKS: dict[str, Callable[[], None]] = {
    "elu": lambda: check(tv.elu, away(3, 4), order=2),
    "selu": lambda: check(tv.selu, away(3, 4), order=2),
    "gelu": lambda: (check(tv.gelu, normal(3, 4), order=2),
                     check(lambda x: tv.gelu(x, approximate=True), normal(5), order=2)),
    "relu6": lambda: check(tv.relu6, np.array([-1.0, 0.5, 3.0, 5.5, 7.0])),
    "softsign": lambda: check(tv.softsign, away(2, 3), order=2),
    "silu": lambda: (check(tv.silu, normal(4), order=2),
                     check(lambda x: tv.silu(x, beta=1.7), normal(2, 3))),
    "softmax": lambda: (check(tv.softmax, normal(3, 4), order=2),
                        check(lambda x: tv.softmax(x, axis=0), normal(3, 2))),
    "log_softmax": lambda: (check(tv.log_softmax, normal(3, 4), order=2),
                            check(lambda x: tv.log_softmax(x, axis=0), normal(3, 2))),
    "softmax_cross_entropy": lambda: check(
        lambda z, x: tv.softmax_cross_entropy_with_logits(labels=z, logits=x),
        PROBS, normal(3, 4, seed=5), order=2),  # rows sum to 1: TF's rule is softmax − labels
    "sparse_softmax_cross_entropy": lambda: check(
        lambda x: tv.sparse_softmax_cross_entropy_with_logits(labels=LABELS, logits=x),
        normal(3, 4), order=2),
    "sinh": lambda: check(tv.sinh, normal(3), order=2),
    "cosh": lambda: check(tv.cosh, normal(3), order=2),
    "asin": lambda: check(tv.asin, np.array([-0.7, 0.1, 0.6]), order=2),
    "acos": lambda: check(tv.acos, np.array([-0.7, 0.1, 0.6]), order=2),
    "atan": lambda: check(tv.atan, normal(3), order=2),
    "asinh": lambda: check(tv.asinh, normal(3), order=2),
    "acosh": lambda: check(tv.acosh, np.array([1.3, 2.0, 4.5]), order=2),
    "atanh": lambda: check(tv.atanh, np.array([-0.7, 0.1, 0.6]), order=2),
    "atan2": lambda: (check(tv.atan2, normal(2, 3), away(2, 3), order=2),
                      check(tv.atan2, normal(2, 3), away(3))),
    "erf": lambda: check(tv.erf, normal(4), order=2),
    "erfc": lambda: check(tv.erfc, normal(4), order=2),
    "reduce_prod": lambda: (
        check(tv.reduce_prod, normal(2, 3), order=2),
        check(lambda x: tv.reduce_prod(x, axis=1), normal(2, 3)),
        check(lambda x: tv.reduce_prod(x, axis=[0, 2], keepdims=True), normal(2, 3, 2)),
        check(tv.reduce_prod, np.array([2.0, 0.0, 3.0])),  # a zero: TF's cumprod rule
    ),
    "reduce_logsumexp": lambda: (check(tv.reduce_logsumexp, normal(2, 3), order=2),
                                 check(lambda x: tv.reduce_logsumexp(x, axis=0), normal(2, 3))),
    "cumsum": lambda: (check(lambda x: tv.cumsum(x, axis=1), normal(2, 3)),
                       check(lambda x: tv.cumsum(x, exclusive=True, reverse=True), normal(4))),
    "cumprod": lambda: (check(lambda x: tv.cumprod(x, axis=1), away(2, 3)),
                        check(lambda x: tv.cumprod(x, exclusive=True, reverse=True), away(4))),
    "diag": lambda: check(tv.diag, normal(2, 3), order=2),
    "diag_part": lambda: (check(tv.diag_part, normal(3, 3)), check(tv.diag_part, normal(2, 4))),
    "solve": lambda: (check(tv.solve, spd(3), normal(3, 2), order=2),
                      check(lambda a, b: tv.solve(a, b, adjoint=True), spd(3) + normal(3, 3),
                            normal(3, 1))),
    "inv": lambda: (check(tv.inv, spd(3), order=2),
                    check(lambda a: tv.inv(a, adjoint=True), spd(2) + normal(2, 2))),
    "det": lambda: check(tv.det, normal(2, 3, 3), order=2),
    "einsum": lambda: (
        check(lambda a, b: tv.einsum("ij,jk->ik", a, b), normal(2, 3), normal(3, 4), order=2),
        check(lambda a: tv.einsum("ii->i", a), normal(3, 3)),
        check(lambda a: tv.einsum("bxby->bxy", a), normal(2, 3, 2, 4)),
        check(lambda a, b: tv.einsum("...i,i", a, b), normal(2, 3), normal(3)),
        check(lambda a, b: tv.einsum("ij,j->i", a, b), normal(1, 3), normal(3)),
        check(lambda a: tv.einsum("ij->", a), normal(2, 3)),
    ),
    "pad": lambda: check(lambda x: tv.pad(x, [[1, 2], [0, 1]]), normal(2, 3)),
    "tile": lambda: (check(lambda x: tv.tile(x, [2, 3]), normal(2, 3)),
                     check(lambda x: tv.tile(x, [3]), normal(2))),
    "gather": lambda: (check(lambda x: tv.gather(x, [2, 0, 2]), normal(3, 2), order=2),
                       check(lambda x: tv.gather(x, [[1, 0], [1, 1]], axis=1), normal(2, 3))),
    "scatter_add": lambda: check(lambda x: tv.gather(x * x, [1, 1, 0]), normal(3), order=2),
    "custom_gradient": lambda: check(log1pexp, normal(4), order=2),
    # issue 34: the decompositions (more in tests/engine/test_decompositions.py)
    "svd": lambda: (check(lambda a: tv.svd(a, compute_uv=False), normal(3, 2), order=2),
                    check(lambda a: tv.svd(a)[1], normal(2, 3))),
    "qr": lambda: check(lambda a: tv.qr(a).r, normal(3, 2)),
    "eigh": lambda: check(lambda a: tv.eigh(a)[1], spd(3)),
    # issue 34: convolution and pooling (more in tests/engine/test_conv.py)
    "conv2d": lambda: check(lambda x, w: tv.conv2d(x, w, 2, "SAME"), normal(1, 4, 5, 2),
                            normal(3, 3, 2, 2), order=2),
    "conv2d_backprop_input": lambda: check(lambda w, g: tv.conv2d_transpose(
        g, w, (1, 4, 5, 2), 2, "SAME"), normal(3, 3, 2, 2), normal(1, 2, 3, 2), order=2),
    "conv2d_backprop_filter": lambda: check(lambda x, g: bind(
        P.conv2d_backprop_filter_p, x, g, filter_shape=(3, 3, 2, 2), strides=(2, 2),
        padding="SAME", dilations=(1, 1)), normal(1, 4, 5, 2), normal(1, 2, 3, 2), order=2),
    "max_pool": lambda: check(lambda x: tv.max_pool2d(x, 2, 1, "SAME"), normal(1, 3, 4, 2),
                              order=2),
    "max_pool_grad": lambda: check(lambda g: bind(
        P.max_pool_grad_p, tv.constant(normal(1, 3, 4, 2)), g, **POOL), normal(1, 3, 4, 2),
        order=2),
    "max_pool_grad_grad": lambda: check(lambda u: bind(
        P.max_pool_grad_grad_p, tv.constant(normal(1, 3, 4, 2)), u, **POOL),
        normal(1, 3, 4, 2), order=2),
    "avg_pool": lambda: check(lambda x: tv.avg_pool2d(x, 2, 2, "SAME"), normal(1, 3, 5, 2),
                              order=2),
    "avg_pool_grad": lambda: check(lambda g: bind(
        P.avg_pool_grad_p, g, input_shape=(1, 3, 4, 2), **POOL), normal(1, 3, 4, 2), order=2),
    # torch's layout (more in tests/engine/test_conv_nchw.py)
    "conv_nchw": lambda: check(lambda x, w: bind(
        P.conv_nchw_p, x, w, stride=(2, 1), padding=(1, 1), dilation=(1, 1), groups=1),
        normal(1, 2, 4, 5), normal(3, 2, 3, 2), order=2),
    "conv_bias_nchw": lambda: check(lambda x, w, b: bind(
        P.conv_bias_nchw_p, x, w, b, stride=(1, 1), padding=(0, 1), dilation=(2, 1), groups=1),
        normal(1, 2, 4, 5), normal(3, 2, 2, 2), normal(3), order=2),
    "max_pool_nchw": lambda: check(lambda x: bind(
        P.max_pool_nchw_p, x, kernel_size=(2, 2), stride=(1, 1), padding=(1, 0),
        dilation=(1, 1), ceil_mode=False), normal(1, 2, 4, 3), order=2),
    "avg_pool_nchw": lambda: check(lambda x: bind(
        P.avg_pool_nchw_p, x, kernel_size=(2, 2), stride=(2, 2), padding=(1, 1),
        ceil_mode=True, count_include_pad=False, divisor_override=None), normal(1, 2, 5, 4),
        order=2),
    "adaptive_avg_pool_nchw": lambda: check(lambda x: bind(
        P.adaptive_avg_pool_nchw_p, x, output_size=(2, 3)), normal(1, 2, 5, 4), order=2),
    # the fused ops (more in tests/engine/test_fused.py): x (4, 3) through [W; b] (4, 2)
    "dense_linear": lambda: check(lambda x, w: bind(P.dense_linear_p, x, w),
                                  normal(4, 3), normal(4, 2), order=2),
    "dense_relu": lambda: check(lambda x, w: bind(P.dense_relu_p, x, w),
                                np.abs(normal(4, 3)) + 0.5, np.abs(normal(4, 2)) + 0.1),
    "dense_tanh": lambda: check(lambda x, w: bind(P.dense_tanh_p, x, w),
                                normal(4, 3), normal(4, 2), order=2),
    "dense_sigmoid": lambda: check(lambda x, w: bind(P.dense_sigmoid_p, x, w),
                                   normal(4, 3), normal(4, 2), order=2),
    "square_loss": lambda: check(lambda o, y: bind(P.square_loss_p, o, y),
                                 normal(5, 1), normal(5, 1, seed=3), order=2),
    "hinge_loss": lambda: check(lambda o, y: bind(P.hinge_loss_p, o, y),
                                away(5, 1, gap=0.6) * 0.5, np.sign(normal(5, 1, seed=4))),
}  # fmt: skip


def test_every_new_differentiable_primitive_has_a_check() -> None:
    assert set(CHECKS) == new_differentiable()


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_finite_differences(name: str) -> None:
    CHECKS[name]()


def test_composed_ops_pass_finite_differences_too() -> None:
    check(lambda x: tv.pad(x, [[2, 1], [1, 2]], mode="REFLECT"), normal(3, 4))
    check(lambda x: tv.pad(x, [[1, 1]], mode="SYMMETRIC"), normal(3))
    check(lambda x: tv.tensordot(x, x, 1), normal(3, 3))
    check(lambda a, b: tv.tensordot(a, b, [[1, 0], [0, 1]]), normal(2, 3), normal(3, 2))
    check(lambda x: tv.sort(x), np.array([[0.3, -1.0, 2.0], [1.5, 0.2, -0.4]]))
    check(lambda x: tv.top_k(x, 2).values, np.array([[0.3, -1.0, 2.0], [1.5, 0.2, -0.4]]))
    check(lambda x: tv.gather_nd(x, [[1, 0], [0, 2]]), normal(2, 3))
    check(lambda x: tv.boolean_mask(x, [True, False, True]), normal(3, 2))
    check(lambda x: tv.reverse(x, [1]) * tv.roll(x, 1, 0), normal(2, 3))
    check(lambda x: tv.repeat(x, 2, axis=0), normal(2, 2))
    check(lambda x: tv.concat(tv.split(x, [1, 2], axis=1)[::-1], axis=1), normal(2, 3))
    check(lambda x: tv.stack(tv.unstack(x, axis=1)), normal(2, 3))
    check(lambda x, y: tv.meshgrid(x, y)[0] * tv.meshgrid(x, y)[1], normal(3), normal(2))
    check(lambda x: tv.reduce_variance(x, axis=0) + tv.reduce_std(x), normal(3, 2), order=2)
    check(lambda x: tv.l2_normalize(x, axis=1), normal(2, 3))
    check(lambda x: tv.clip_by_norm(x, 0.5), normal(4))
    check(lambda x: tv.trace(x) + tv.matvec(x, x[0])[1], normal(3, 3))
    check(lambda z, x: tv.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
          np.abs(normal(3)), normal(3, seed=7), order=2)  # fmt: skip
    check(lambda x: tv.log_sigmoid(x) + tv.squared_difference(x, 1.0), normal(3), order=2)
