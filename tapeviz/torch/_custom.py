"""``torch.autograd.Function.apply`` on the engine's custom-gradient op."""

from __future__ import annotations

from typing import Any

from tapeviz import engine as E
from tapeviz.torch import _autograd as ag
from tapeviz.torch._tensor import Tensor, wrap


def apply_function(cls: type, ctx: Any, args: tuple[Any, ...]) -> Any:
    """Run ``cls.forward(ctx, *args)``; record it as one op whose VJP is ``cls.backward``."""
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    tensors = [args[i] for i in positions]
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._rg for a in args)

    def forward(*values: Any) -> Any:
        call = list(args)
        for i, v in zip(positions, values, strict=True):
            call[i] = Tensor._wrap(v)
        with ag.no_grad():
            out = cls.forward(ctx, *call)  # type: ignore[attr-defined]
        if not isinstance(out, Tensor):
            raise TypeError(
                f"{cls.__name__}.forward must return a Tensor in tapeviz, got {type(out).__name__}"
            )

        def backward(upstream: Any) -> Any:
            with ag.no_grad():
                got = cls.backward(ctx, wrap(upstream))  # type: ignore[attr-defined]
            got = got if isinstance(got, tuple | list) else (got,)
            if len(got) != len(args):
                raise RuntimeError(
                    f"function {cls.__name__}Backward returned an incorrect number of gradients "
                    f"(expected {len(args)}, got {len(got)})"
                )
            grads = [got[i] for i in positions]
            return [None if g is None else g._t if isinstance(g, Tensor) else g for g in grads]

        return out._t, backward

    fn = E.custom_gradient(forward)
    out, node = ag.record(f"{cls.__name__}Backward", tensors, fn, *(t._t for t in tensors))
    return wrap(out, node)
