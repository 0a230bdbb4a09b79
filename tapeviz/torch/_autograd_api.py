"""``Tensor.backward``, ``torch.autograd.grad`` / ``backward`` and ``torch.autograd.Function``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.torch import _autograd as ag
from tapeviz.torch._tensor import Tensor, wrap

_NO_GRAD_FN = "element {k} of tensors does not require grad and does not have a grad_fn"


def _seq(x: Any) -> list[Any]:
    return list(x) if isinstance(x, list | tuple) else [x]


def _grad_outputs(outputs: list[Tensor], given: list[Any]) -> list[Tensor | None]:
    out: list[Tensor | None] = []
    for t, g in zip(outputs, given, strict=True):
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            out.append(None)
            continue
        if not isinstance(g, Tensor):
            from tapeviz.torch._creation import tensor

            g = tensor(g, dtype=t.dtype)
        if tuple(g.shape) != tuple(t.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[0] has a shape of {g.shape} and output[0] has "
                f"a shape of {t.shape}."
            )
        out.append(g)
    return out


def _check_outputs(outputs: list[Tensor]) -> None:
    for k, t in enumerate(outputs):
        if not isinstance(t, Tensor):
            raise TypeError(f"backward: expected a Tensor, got {type(t).__name__}")
        if not t._rg:
            raise RuntimeError(_NO_GRAD_FN.format(k=k))


def run_backward(
    tensors: Sequence[Any],
    grad_tensors: Sequence[Any],
    retain_graph: bool | None,
    create_graph: bool,
    inputs: Any,
) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves' (and retaining tensors') grad."""
    outputs = _seq(tensors)
    _check_outputs(outputs)
    seeds = _grad_outputs(outputs, list(grad_tensors) + [None] * (len(outputs) - len(grad_tensors)))
    retain = create_graph if retain_graph is None else bool(retain_graph)
    wanted = None if inputs is None else _seq(inputs)
    used, grads, node = ag.gradients(outputs, seeds, wanted, retain, create_graph, True)
    for t, g in zip(used, grads, strict=True):
        if g is not None:
            _accumulate(t, g, node if create_graph else None)


def _accumulate(t: Tensor, g: _ETensor, node: ag.Node | None) -> None:
    g = g if g.dtype is t._t.dtype else E.cast(g, t._t.dtype)
    if t._grad is None:
        t._grad = Tensor._wrap(_ETensor(np.array(g._value), g.dtype), node is not None, node)
        return
    old = t._grad
    total = np.asarray(old._t._value) + np.asarray(g._value)
    old._c.t = _ETensor(total.astype(g.dtype.np), g.dtype, None, old._t.id)
    old._c.version += 1


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """``torch.autograd.backward``: ``backward()`` of several tensors at once."""
    outs = _seq(tensors)
    given = [None] * len(outs) if grad_tensors is None else _seq(grad_tensors)
    run_backward(outs, given, retain_graph, create_graph, inputs)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...]:
    """``torch.autograd.grad``: d(outputs)/d(inputs), returned instead of accumulated."""
    outs = _seq(outputs)
    ins = _seq(inputs)
    _check_outputs(outs)
    for t in ins:
        if not isinstance(t, Tensor) or not t._rg:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    given = [None] * len(outs) if grad_outputs is None else _seq(grad_outputs)
    seeds = _grad_outputs(outs, given)
    retain = create_graph if retain_graph is None else bool(retain_graph)
    _, grads, node = ag.gradients(outs, seeds, ins, retain, create_graph)
    result: list[Tensor | None] = []
    for t, g in zip(ins, grads, strict=True):
        if g is None:
            if materialize_grads:
                result.append(wrap(E.zeros_like(t._t)))
                continue
            if not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior."
                )
            result.append(None)
            continue
        g = g if g.dtype is t._t.dtype else E.cast(g, t._t.dtype)
        result.append(Tensor._wrap(g, node is not None, node) if create_graph else wrap(g))
    return tuple(result)


class FunctionCtx:
    """What ``forward`` and ``backward`` of an ``autograd.Function`` share."""

    _open_attributes = True  # scripts keep their own values on it (``ctx.constant = c``)

    def __init__(self) -> None:
        self.saved_tensors: tuple[Tensor, ...] = ()
        self.needs_input_grad: tuple[bool, ...] = ()

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep tensors for ``backward`` (``ctx.saved_tensors``)."""
        self.saved_tensors = tuple(tensors)

    def mark_non_differentiable(self, *tensors: Any) -> None:
        """Accepted; tapeviz gives such outputs no gradient anyway."""

    def set_materialize_grads(self, value: bool) -> None:
        """Accepted (gradients are always materialized)."""


class Function:
    """``torch.autograd.Function``: a ``forward`` with a hand-written ``backward``.

    ``apply`` runs ``forward`` without recording, then records one op whose gradient is the
    class's ``backward`` (the engine's custom-gradient op), so the stepper shows it as a
    single step named after the class.
    """

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Run ``forward`` and record its outputs as one op with ``backward`` as the rule."""
        from tapeviz.torch._custom import apply_function

        return apply_function(cls, FunctionCtx(), args)
