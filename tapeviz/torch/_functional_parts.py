"""The plumbing of ``torch.autograd.functional`` (:mod:`tapeviz.torch._functional_ad`).

Shaped as torch's own helpers, so that results nest and errors read as torch's: tuples in and
out, fresh input tensors for the function, zeros (or strict mode's errors) where an output does
not depend on an input.
"""

from __future__ import annotations

from typing import Any

from tapeviz.torch._autograd_api import grad as _grad
from tapeviz.torch._creation import zeros_like
from tapeviz.torch._tensor import Tensor

Tensors = tuple[Any, ...]


def as_tuple(inp: Any, arg_name: str, fn_name: str) -> tuple[bool, Tensors]:
    """Whether ``inp`` was a tuple, and it as a tuple of tensors (else torch's TypeError)."""
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                f"Tensors but the {where} has type {type(el)}."
            )
    return is_tuple, items


def unpack(res: Any, to_unpack: bool | tuple[bool, bool]) -> Any:
    """Undo :func:`_as_tuple` on a result (two levels for Jacobians and Hessians)."""
    if isinstance(to_unpack, tuple):
        outer, inner = to_unpack
        if not inner:
            res = tuple(el[0] for el in res)
        return res if outer else res[0]
    return res if to_unpack else res[0]


def prepare(inputs: Tensors, create_graph: bool, need_graph: bool) -> Tensors:
    """New tensor objects for the function: differentiable views, or detached leaves."""
    out = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            out.append(inp.view_as(inp))  # stays connected to the caller's graph
        else:
            out.append(inp.detach().requires_grad_(need_graph))
    return tuple(out)


def finish(res: Any, create_graph: bool) -> Any:
    """Results without history unless ``create_graph`` (nested tuples too)."""
    if isinstance(res[0], Tensor):
        return res if create_graph else tuple(t.detach() for t in res)
    return tuple(finish(r, create_graph) for r in res)


def validate_v(v: Tensors, other: Tensors, is_other_tuple: bool) -> None:
    """Raise torch's error unless ``v`` has one tensor per ``other``, of the same size."""
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other, strict=True)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}."
            )


_NEEDS_GRAD = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
    "outputs must be computed in a differentiable manner from the input when running in strict "
    "mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
    "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
    "function with respect to input {i} is independent of the input. This is not allowed in "
    "strict mode. You should ensure that your function is twice differentiable and that the "
    "jacobian depends on the inputs (this would be violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
    "independent of the input. This is not allowed in strict mode. You should ensure that your "
    "function is thrice differentiable and that the hessian depends on the inputs.",
}


def check_requires_grad(tensors: Tensors, kind: str, strict: bool) -> None:
    """Strict mode: raise torch's error for ``kind`` where a tensor is None or needs no grad."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode."
            )
        if not t.requires_grad:
            raise RuntimeError(_NEEDS_GRAD[kind].format(i=i))


def grad_of(
    outputs: Tensors,
    inputs: Tensors,
    grad_outputs: Tensors | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> Tensors:
    """``autograd.grad`` that skips outputs needing no grad (None per input where unused)."""
    given = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, given, strict=True) if o is not None and o._rg]
    if not pairs:
        return (None,) * len(inputs)
    grads = _grad(
        [o for o, _ in pairs],
        list(inputs),
        [g for _, g in pairs],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )
    return tuple(connected(g) for g in grads)


def connected(g: Tensor | None) -> Tensor | None:
    """``g`` without history if its recorded backward never read the inputs' graph.

    ``autograd.grad(create_graph=True)`` records every op of the backward pass; torch's result
    requires grad only where one of them read a tensor of the graph (the gradient of a linear
    function is a constant). The strict checks and the Hessian's zeros rely on that.
    """
    if g is None or g._fn is None or not g._fn._gradient:
        return g
    gid = g._t.id
    for r in g._fn._records:
        if r.watched and any(o.id == gid for o in r.outputs):
            return g
    return g.detach()


def dual_vjp(outputs: Tensors, inputs: Tensors, duals: Tensors) -> Tensors:
    """``Jᵀu`` with the graph kept as a function of ``u`` (``duals``) for a second pass."""
    total = None
    for o, u in zip(outputs, duals, strict=True):
        if o is not None and o._rg:
            term = (o * u).sum()
            total = term if total is None else total + term
    if total is None:
        return (None,) * len(inputs)
    return tuple(
        connected(g) for g in _grad(total, list(inputs), create_graph=True, allow_unused=True)
    )


_ZERO_STAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
    "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
    "grad_outputs when using the double backward trick to compute forward mode gradients. This "
    "is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} "
    "in the grad_jacobian. This is not allowed in strict mode as it prevents from using the "
    "double backward trick to replace forward mode AD.",
}


def fill_in_zeros(
    grads: Tensors, refs: Tensors, strict: bool, create_graph: bool, stage: str
) -> Tensors:
    """Zeros where a gradient is None (strict: torch's error instead)."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_ZERO_STAGES[stage].format(i=i))
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode when create_graph=True."
            )
        out.append(g)
    return tuple(out)


def single_output(fn_name: str, outputs: Tensors, is_tuple: bool) -> None:
    """Raise torch's error unless the function returned one tensor of one element."""
    if is_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single "
            "element"
        )


def v_for_inputs(
    v: Any, inputs: Tensors, is_inputs_tuple: bool, fn_name: str, create_graph: bool, what: str
) -> Tensors | None:
    """``v`` shaped like the inputs (None allowed for a single one-element input)."""
    if v is not None:
        _, vs = as_tuple(v, "v", fn_name)
        vs = prepare(vs, create_graph, need_graph=False)
        validate_v(vs, inputs, is_inputs_tuple)
        return vs
    if len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError(
            f"The vector v can only be None if the input to {what} is a single "
            "Tensor with a single element."
        )
    return None
