"""``torch.autograd.functional``: ``jacobian``, ``hessian``, ``vjp``, ``jvp``, ``vhp``, ``hvp``.

Built as torch builds them, on ``torch.autograd.grad`` (one engine tape per call, so each shows
in the tape list): a Jacobian is one reverse pass per output element, a Hessian the Jacobian of
a Jacobian computed with ``create_graph``. ``jvp`` and ``hvp`` use the "double backward trick":
a vector-Jacobian product ``u ↦ Jᵀu`` is linear in ``u``, so differentiating it with respect to
``u`` along ``v`` gives ``Jv``. torch passes ``u`` as ``grad_outputs``; here ``u`` enters as
``sum(out * u)``, whose gradient is the same ``Jᵀu``, recorded as a function of ``u``.

Inputs and outputs are a tensor or a tuple of tensors, and results nest as torch's docs say.
``vectorize`` is accepted and changes nothing (the results are the same).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapeviz.torch import _autograd as ag
from tapeviz.torch import _functional_parts as P
from tapeviz.torch._creation import zeros_like
from tapeviz.torch._functional_parts import Tensors
from tapeviz.torch._shape import stack
from tapeviz.torch._tensor import Tensor

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), vᵀJ)``: the vector-Jacobian product, shaped like the inputs."""
    with ag.enable_grad():
        is_inputs_tuple, ins = P.as_tuple(inputs, "inputs", "vjp")
        ins = P.prepare(ins, create_graph, need_graph=True)
        is_outputs_tuple, outs = P.as_tuple(
            func(*ins), "outputs of the user-provided function", "vjp"
        )
        P.check_requires_grad(outs, "outputs", strict)
        if v is not None:
            _, vs = P.as_tuple(v, "v", "vjp")
            vs = P.prepare(vs, create_graph, need_graph=False)
            P.validate_v(vs, outs, is_outputs_tuple)
        elif len(outs) != 1 or outs[0].nelement() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function "
                "returns a single Tensor with a single element."
            )
        else:
            vs = None
    with ag.set_grad_enabled(create_graph or ag.is_grad_enabled()):
        res = P.fill_in_zeros(
            P.grad_of(outs, ins, vs, create_graph), ins, strict, create_graph, "back"
        )
    outs, res = P.finish(outs, create_graph), P.finish(res, create_graph)
    return P.unpack(outs, is_outputs_tuple), P.unpack(res, is_inputs_tuple)


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), Jv)``: the Jacobian-vector product, shaped like the outputs."""
    with ag.enable_grad():
        is_inputs_tuple, ins = P.as_tuple(inputs, "inputs", "jvp")
        ins = P.prepare(ins, create_graph, need_graph=True)
        vs = P.v_for_inputs(
            v, ins, is_inputs_tuple, "jvp", create_graph, "the user-provided function"
        )
        is_outputs_tuple, outs = P.as_tuple(
            func(*ins), "outputs of the user-provided function", "jvp"
        )
        P.check_requires_grad(outs, "outputs", strict)
        duals = tuple(zeros_like(o, requires_grad=True) for o in outs)
        grad_inputs = P.dual_vjp(outs, ins, duals)
        P.check_requires_grad(grad_inputs, "grad_inputs", strict)
    with ag.set_grad_enabled(create_graph or ag.is_grad_enabled()):
        res = P.grad_of(grad_inputs, duals, vs, create_graph)
        res = P.fill_in_zeros(res, outs, strict, create_graph, "back_trick")
    outs, res = P.finish(outs, create_graph), P.finish(res, create_graph)
    return P.unpack(outs, is_outputs_tuple), P.unpack(res, is_outputs_tuple)


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian: ``J[i][j]`` of output i and input j, shaped ``out_i.shape + in_j.shape``.

    A tensor for one input and one output; a tuple if one of them is a tuple; a tuple of tuples
    if both are.
    """
    _check_strategy(strategy, create_graph, strict, vectorize)
    with ag.enable_grad():
        is_inputs_tuple, ins = P.as_tuple(inputs, "inputs", "jacobian")
        ins = P.prepare(ins, create_graph, need_graph=True)
        is_outputs_tuple, outs = P.as_tuple(
            func(*ins), "outputs of the user-provided function", "jacobian"
        )
        P.check_requires_grad(outs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or `vectorize=False`."
            )
        rows = tuple(_block(i, out, ins, create_graph, strict) for i, out in enumerate(outs))
        jac = P.finish(rows, create_graph)
        return P.unpack(jac, (is_outputs_tuple, is_inputs_tuple))


def _block(i: int, out: Tensor, ins: Tensors, create_graph: bool, strict: bool) -> Tensors:
    """Output i's Jacobian per input: one reverse pass per element of ``out``, stacked."""
    rows: list[list[Tensor]] = [[] for _ in ins]
    flat = out.reshape(-1)
    for k in range(out.nelement()):
        vj = P.grad_of((flat[k],), ins, retain_graph=True, create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(vj, ins, strict=True)):
            if g is None:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input {j}. "
                        "This is not allowed in strict mode."
                    )
                g = zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(
                    f"The jacobian of the user-provided function is independent of input {i}. "
                    "This is not allowed in strict mode when create_graph=True."
                )
            rows[j].append(g)
    # an empty output has no rows: torch's stack error
    return tuple(
        stack(r, dim=0).view(tuple(out.shape) + tuple(inp.shape))
        for r, inp in zip(rows, ins, strict=True)
    )


def _check_strategy(strategy: str, create_graph: bool, strict: bool, vectorize: bool) -> None:
    """Torch's checks of ``strategy`` (forward mode is computed in reverse mode here)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "reverse-mode":
        return
    if create_graph:
        raise NotImplementedError(
            "torch.autograd.functional.jacobian: `create_graph=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`create_graph=False` or `strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
            "are not supported together (yet). Please either set `strict=False` or "
            '`strategy="reverse-mode"`.'
        )
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`."
        )


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a one-element function: ``H[i][j]`` shaped ``in_i.shape + in_j.shape``.

    A tensor for one input, a tuple of tuples for a tuple of inputs.
    """
    is_inputs_tuple, ins = P.as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp: Any) -> Tensor:
        out = func(*inp)
        is_tuple, outs = P.as_tuple(out, "outputs of the user-provided function", "hessian")
        P.check_requires_grad(outs, "outputs", strict)
        P.single_output("hessian", outs, is_tuple)
        return out.squeeze()

    def jac_func(*inp: Any) -> Any:
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(single_output, inp, create_graph=True)
        P.check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(
        jac_func,
        ins,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return P.unpack(res, (is_inputs_tuple, is_inputs_tuple))


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), vᵀH)``: the vector-Hessian product, shaped like the inputs."""
    with ag.enable_grad():
        is_inputs_tuple, ins = P.as_tuple(inputs, "inputs", "vhp")
        ins = P.prepare(ins, create_graph, need_graph=True)
        vs = P.v_for_inputs(
            v, ins, is_inputs_tuple, "vhp", create_graph, "the user-provided function"
        )
        is_outputs_tuple, outs = P.as_tuple(
            func(*ins), "outputs of the user-provided function", "vhp"
        )
        P.check_requires_grad(outs, "outputs", strict)
        P.single_output("vhp", outs, is_outputs_tuple)
        jac = P.grad_of(outs, ins, create_graph=True)
        P.check_requires_grad(jac, "jacobian", strict)
    with ag.set_grad_enabled(create_graph or ag.is_grad_enabled()):
        res = P.fill_in_zeros(
            P.grad_of(jac, ins, vs, create_graph), ins, strict, create_graph, "double_back"
        )
    outs, res = P.finish(outs, create_graph), P.finish(res, create_graph)
    return P.unpack(outs, is_outputs_tuple), P.unpack(res, is_inputs_tuple)


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), Hv)``: the Hessian-vector product, shaped like the inputs."""
    with ag.enable_grad():
        is_inputs_tuple, ins = P.as_tuple(inputs, "inputs", "hvp")
        ins = P.prepare(ins, create_graph, need_graph=True)
        vs = P.v_for_inputs(
            v, ins, is_inputs_tuple, "hvp", create_graph, "the user-provided function"
        )
        is_outputs_tuple, outs = P.as_tuple(
            func(*ins), "outputs of the user-provided function", "hvp"
        )
        P.check_requires_grad(outs, "outputs", strict)
        P.single_output("hvp", outs, is_outputs_tuple)
        jac = P.grad_of(outs, ins, create_graph=True)
        P.check_requires_grad(jac, "jacobian", strict)
        duals = tuple(zeros_like(inp, requires_grad=True) for inp in ins)
        double_back = P.dual_vjp(jac, ins, duals)
        P.check_requires_grad(jac, "hessian", strict)
    with ag.set_grad_enabled(create_graph or ag.is_grad_enabled()):
        res = P.fill_in_zeros(
            P.grad_of(double_back, duals, vs, create_graph),
            ins,
            strict,
            create_graph,
            "double_back_trick",
        )
    outs, res = P.finish(outs, create_graph), P.finish(res, create_graph)
    return P.unpack(outs, is_outputs_tuple), P.unpack(res, is_inputs_tuple)
