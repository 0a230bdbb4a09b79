"""The new primitives' gradients agree with HIPS autograd (its op, or the textbook formula).

Each case differentiates ``sum(w · f(x))`` for random ``x`` and weights ``w`` in float64, with
tapeviz and with autograd, and compares the gradients to ~1e-9.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import autograd
import autograd.numpy as anp
import autograd.scipy.special as asp
import numpy as np
import pytest

import tapeviz as tv

ALPHA, SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + anp.exp(-x))


def _softmax(x: Any, axis: int = -1) -> Any:
    e = anp.exp(x - anp.max(x, axis=axis, keepdims=True))
    return e / anp.sum(e, axis=axis, keepdims=True)


def _spd(n: int, rng: np.random.Generator) -> np.ndarray:
    a = rng.standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


# name: (tapeviz function, autograd function, argument maker)
Case = tuple[Callable[..., Any], Callable[..., Any], Callable[[np.random.Generator], list[Any]]]


def _n(*shape: int) -> Callable[[np.random.Generator], list[Any]]:
    return lambda rng: [rng.standard_normal(shape)]


def _u(lo: float, hi: float, *shape: int) -> Callable[[np.random.Generator], list[Any]]:
    return lambda rng: [rng.uniform(lo, hi, shape)]


CASES: dict[str, Case] = {
    "elu": (tv.elu, lambda x: anp.where(x > 0, x, anp.exp(x) - 1), _n(3, 4)),
    "selu": (tv.selu, lambda x: SCALE * anp.where(x > 0, x, ALPHA * (anp.exp(x) - 1)), _n(5)),
    "gelu": (tv.gelu, lambda x: 0.5 * x * (1 + asp.erf(x / np.sqrt(2))), _n(2, 3)),
    "gelu_tanh": (lambda x: tv.gelu(x, approximate=True),
                  lambda x: 0.5 * x * (1 + anp.tanh(0.7978845608028654 * (x + 0.044715 * x**3))),
                  _n(4)),
    "relu6": (tv.relu6, lambda x: anp.minimum(anp.maximum(x, 0.0), 6.0), _u(-3, 9, 6)),
    "softsign": (tv.softsign, lambda x: x / (1 + anp.abs(x)), _n(4)),
    "silu": (lambda x: tv.silu(x, beta=0.7), lambda x: x * _sigmoid(0.7 * x), _n(4)),
    "softmax": (tv.softmax, _softmax, _n(3, 4)),
    "log_softmax": (lambda x: tv.log_softmax(x, axis=0),
                    lambda x: x - asp.logsumexp(x, axis=0, keepdims=True), _n(3, 4)),
    "softmax_cross_entropy": (
        lambda x: tv.softmax_cross_entropy_with_logits(labels=_PROBS, logits=x),
        lambda x: -anp.sum(_PROBS * (x - asp.logsumexp(x, axis=-1, keepdims=True)), axis=-1),
        _n(2, 3)),
    "sparse_softmax_cross_entropy": (
        lambda x: tv.sparse_softmax_cross_entropy_with_logits(labels=tv.constant([2, 0]), logits=x),
        lambda x: -(x - asp.logsumexp(x, axis=-1, keepdims=True))[np.arange(2), [2, 0]],
        _n(2, 3)),
    "sigmoid_cross_entropy": (
        lambda x: tv.sigmoid_cross_entropy_with_logits(labels=_PROBS, logits=x),
        lambda x: -(_PROBS * anp.log(_sigmoid(x)) + (1 - _PROBS) * anp.log(1 - _sigmoid(x))),
        _n(2, 3)),
    "sinh": (tv.sinh, anp.sinh, _n(4)),
    "cosh": (tv.cosh, anp.cosh, _n(4)),
    "asin": (tv.asin, anp.arcsin, _u(-0.9, 0.9, 4)),
    "acos": (tv.acos, anp.arccos, _u(-0.9, 0.9, 4)),
    "atan": (tv.atan, anp.arctan, _n(4)),
    "asinh": (tv.asinh, anp.arcsinh, _n(4)),
    "acosh": (tv.acosh, anp.arccosh, _u(1.1, 4, 4)),
    "atanh": (tv.atanh, anp.arctanh, _u(-0.9, 0.9, 4)),
    "atan2": (tv.atan2, anp.arctan2, lambda rng: [rng.standard_normal((2, 3)),
                                                  rng.uniform(0.5, 2, (3,))]),
    "erf": (tv.erf, asp.erf, _n(5)),
    "erfc": (tv.erfc, asp.erfc, _n(5)),
    "reduce_prod": (lambda x: tv.reduce_prod(x, axis=1), lambda x: anp.prod(x, axis=1), _n(3, 4)),
    "reduce_logsumexp": (lambda x: tv.reduce_logsumexp(x, axis=0),
                         lambda x: asp.logsumexp(x, axis=0), _n(3, 4)),
    "cumsum": (lambda x: tv.cumsum(x, axis=1), lambda x: anp.cumsum(x, axis=1), _n(2, 4)),
    "diag": (tv.diag, anp.diag, _n(4)),
    "diag_part": (tv.diag_part, anp.diag, _n(3, 3)),
    "solve": (tv.solve, anp.linalg.solve, lambda rng: [_spd(3, rng), rng.standard_normal((3, 2))]),
    "inv": (tv.inv, anp.linalg.inv, lambda rng: [_spd(3, rng)]),
    "det": (tv.det, anp.linalg.det, _n(3, 3)),
    "einsum": (lambda a, b: tv.einsum("bij,bjk->bik", a, b),
               lambda a, b: anp.einsum("bij,bjk->bik", a, b),
               lambda rng: [rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4, 2))]),
    "tensordot": (lambda a, b: tv.tensordot(a, b, [[1, 2], [0, 1]]),
                  lambda a, b: anp.tensordot(a, b, [[1, 2], [0, 1]]),
                  lambda rng: [rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4, 2))]),
    "pad": (lambda x: tv.pad(x, [[1, 0], [2, 1]]),
            lambda x: anp.pad(x, [[1, 0], [2, 1]], mode="constant"), _n(2, 3)),
    "pad_reflect": (lambda x: tv.pad(x, [[2, 1]], mode="REFLECT"),
                    lambda x: x[[2, 1, 0, 1, 2, 3, 2]], _n(4)),  # autograd pads constants only
    "tile": (lambda x: tv.tile(x, [2, 3]), lambda x: anp.tile(x, [2, 3]), _n(2, 3)),
    "gather": (lambda x: tv.gather(x, [2, 0, 2], axis=1), lambda x: x[:, [2, 0, 2]], _n(2, 3)),
    "sort": (tv.sort, anp.sort, _n(6)),  # autograd sorts 1-D arrays only
    "repeat": (lambda x: tv.repeat(x, 2, axis=1), lambda x: anp.repeat(x, 2, axis=1), _n(2, 3)),
    "roll": (lambda x: tv.roll(x, 1, 1), lambda x: anp.roll(x, 1, axis=1), _n(2, 3)),
    "reduce_std": (lambda x: tv.reduce_std(x, axis=0), lambda x: anp.std(x, axis=0), _n(4, 3)),
}  # fmt: skip
_PROBS = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_autograd(name: str) -> None:
    tv_fn, ag_fn, make = CASES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    args = make(rng)
    out_shape = np.shape(ag_fn(*args))
    w = rng.standard_normal(out_shape)

    def ag_loss(*xs: Any) -> Any:
        return anp.sum(w * ag_fn(*xs))

    expected = [autograd.grad(ag_loss, i)(*args) for i in range(len(args))]
    xs = [tv.constant(a) for a in args]
    with tv.GradientTape() as tape:
        tape.watch(xs)
        y = tv_fn(*xs)
        loss = tv.reduce_sum(tv.constant(w) * y)
    got = tape.gradient(loss, xs)
    np.testing.assert_allclose(np.asarray(y.numpy()), ag_fn(*args), rtol=1e-9, atol=1e-12)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-8, atol=1e-10)
