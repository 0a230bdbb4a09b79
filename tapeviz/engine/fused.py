"""Fused ops: a dense layer's matmul, add and activation, and a batch loss, each one recorded op.

The Network view's trainer records each training step with them: one record and one backward
step per layer (and one for the loss) instead of three (four), for the same floats bit for bit
(the kernels are the unfused ops' own, run in the same order, and the rules chain the unfused
ops' rules). The tapes a lecturer sees and steps (``Trainer.record_step``) record the unfused
ops. Not part of the TensorFlow or torch surface a script sees.
"""

from __future__ import annotations

from typing import Any

from numpy import ndarray

from tapeviz.engine import primitives as P
from tapeviz.engine.core import STATE, bind, read_variable, record
from tapeviz.engine.errors import EngineError
from tapeviz.engine.guard import GUARD
from tapeviz.engine.impl_rules import IMPL
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.tensor import Tensor, Variable

__all__ = ["DENSE", "LOSSES", "dense", "mean_loss"]

DENSE = {
    "linear": P.dense_linear_p,
    "relu": P.dense_relu_p,
    "tanh": P.dense_tanh_p,
    "sigmoid": P.dense_sigmoid_p,
}
LOSSES = {"square": P.square_loss_p, "hinge": P.hinge_loss_p}


def dense(x: Any, weights: Any, activation: str) -> Tensor:
    """``f(x @ W + w₀)`` as one op, ``weights = [W; w₀]`` (the bias as the last row).

    ``f`` is a name in :data:`DENSE`. A layer's kernel and bias as one matrix are one view of
    the Network view's flat weights (kernel rows, then the bias), and one tensor to watch.
    """
    if type(weights) is Variable:
        weights = read_variable(weights)
    return _binary(DENSE[activation], x, weights)


def mean_loss(out: Any, labels: Any, kind: str) -> Tensor:
    """``mean(½(out − labels)²)`` (``kind`` square) or ``mean(relu(1 − labels·out))`` (hinge)."""
    return _binary(LOSSES[kind], out, labels)


def _binary(prim: Primitive, a: Any, b: Any) -> Tensor:
    """``prim`` of two float tensors of one dtype, recorded as bind() would (else bind())."""
    if type(a) is Tensor and type(b) is Tensor and GUARD.max_elements is None:
        dt = a.dtype
        if dt.is_floating and b.dtype is dt:
            try:
                out = IMPL[prim](a._value, b._value)
            except (ValueError, TypeError, IndexError, EngineError):  # bind() says what is wrong
                return bind(prim, a, b)
            if type(out) is ndarray and out.dtype is dt.np:
                out.setflags(write=False)
                return _recorded(prim, (a, b), out)
            if type(out) is dt.scalar:  # a loss: the mean of an array
                return _recorded(prim, (a, b), out)
    return bind(prim, a, b)


def _recorded(prim: Primitive, xs: tuple[Tensor, ...], value: Any) -> Tensor:
    """The result tensor of ``prim`` on ``xs``, recorded on the active tapes as bind() records."""
    t = Tensor(value, xs[0].dtype)
    active = STATE.active
    if active:
        record(active, prim, xs, t)
    return t
