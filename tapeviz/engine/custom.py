"""``tf.custom_gradient``: a function recorded as one op whose gradient is the user's function.

As in TensorFlow, the function's own ops are recorded (in a name scope named after it, so the
graph can fold them: no gradient flows through them, but ``grad_fn`` may use their results and
a higher derivative then does); its result is the output of one ``custom_gradient`` op, from
its tensor arguments and the variables it read, whose VJP is the user's ``grad_fn``. That
op's ``grad_fn`` param is a :class:`CustomGradient`: the one record param that is not plain
data (it holds the user's functions).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import numpy as np

from tapeviz.engine import core, dtypes, nest
from tapeviz.engine import primitives as P
from tapeviz.engine.core import STATE, Recorder
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.state import NameScope
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, convert_to_tensor, freeze

__all__ = ["CustomGradient", "custom_gradient"]


class _VariableWatcher(Recorder):
    """Collects the variables a custom-gradient function reads (records no ops)."""

    for_gradients = False

    def __init__(self) -> None:
        super().__init__(watch_accessed_variables=True)


class CustomGradient:
    """The ``grad_fn`` param of a ``custom_gradient`` record: the user's gradient function.

    ``vjp(argnum, g, ...)`` gives input ``argnum``'s gradient from the upstream gradient ``g``;
    ``forward(*values)`` runs the function again (for a replay with other inputs, whose own
    gradient function is then used).
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        grad: Callable[..., Any],
        n_args: int,
        variables: tuple[Variable, ...],
        inputs: tuple[Tensor, ...],
        kwargs: dict[str, Any],
    ) -> None:
        self.fn, self.grad, self.n_args, self.variables = fn, grad, n_args, variables
        self._inputs = inputs  # the recorded inputs: a rule called on them uses ``grad``
        self._kwargs = kwargs
        self._last: tuple[Any, tuple[Any, ...], list[Any]] | None = None
        self.__name__ = getattr(fn, "__name__", "custom_gradient")

    def __repr__(self) -> str:
        return f"<custom gradient of {self.__name__}>"

    def forward(self, *values: Any) -> Any:
        """The function's value at ``values`` (raw numpy values), computed again."""
        return self._run(values)[0]._value

    def _run(self, values: tuple[Any, ...]) -> tuple[Tensor, Callable[..., Any]]:
        args = [v if isinstance(v, TensorLike) else Tensor(v, x.dtype)
                for v, x in zip(values[: self.n_args], self._inputs, strict=False)]  # fmt: skip
        saved = STATE.active[:]
        STATE.active[:] = []
        try:
            y, grad = self.fn(*args, **self._kwargs)
        finally:
            STATE.active[:] = saved
        return _as_tensor(y), grad

    def _recorded(self, xs: tuple[Any, ...], taping: bool) -> bool:
        if len(xs) != len(self._inputs):
            return False
        if taping:
            return all(a is b for a, b in zip(xs, self._inputs, strict=True))
        return all(a is b._value for a, b in zip(xs, self._inputs, strict=True))

    def vjp(self, argnum: int, g: Any, ans: Any, *xs: Any) -> Any:
        """Input ``argnum``'s share of the gradient, from the user's gradient function."""
        taping = isinstance(g, TensorLike)
        last = self._last
        if last is not None and last[0] is g and _same(last[1], xs):  # the step's next input
            grads = last[2]
        else:
            grad = self.grad if self._recorded(xs, taping) else self._run(xs)[1]
            upstream = g if taping else Tensor(g, dtypes.from_numpy(np.asarray(ans).dtype))
            grads = self._call(grad, upstream)
            self._last = (g, xs, grads)
        out = grads[argnum]
        if out is None:
            return None
        x = xs[argnum]
        if taping:
            return out if isinstance(out, TensorLike) else convert_to_tensor(out, dtype=x.dtype)
        value = out._value if isinstance(out, TensorLike) else np.asarray(out)
        value = np.asarray(value, dtype=np.asarray(x).dtype)[()]
        if np.shape(value) != np.shape(x):
            raise InvalidArgumentError(
                f"custom_gradient {self.__name__}: the gradient for input {argnum} has shape "
                f"{np.shape(value)}, the input has shape {np.shape(x)}",
                "custom_gradient",
            )
        return value

    def _call(self, grad: Callable[..., Any], upstream: Any) -> list[Any]:
        if self.variables:
            input_grads, variable_grads = grad(upstream, variables=list(self.variables))
            variable_grads = list(nest.flatten(variable_grads))
            if len(variable_grads) != len(self.variables):
                raise InvalidArgumentError(
                    "Must return gradient for each variable from @tf.custom_gradient grad_fn.",
                    "custom_gradient",
                )
        else:
            input_grads, variable_grads = grad(upstream), []
        flat = (
            list(nest.flatten(input_grads))
            if isinstance(input_grads, list | tuple)
            else [input_grads]
        )
        if len(flat) != self.n_args:
            raise InvalidArgumentError(
                f"custom_gradient function expected to return {self.n_args} gradients, but "
                f"returned {len(flat)} instead.",
                "custom_gradient",
            )
        return flat + variable_grads


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _accepts_variables(fn: Callable[..., Any]) -> bool:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True
    params = sig.parameters.values()
    return "variables" in sig.parameters or any(p.kind is p.VAR_KEYWORD for p in params)


def _as_tensor(y: Any) -> Tensor:
    if isinstance(y, Variable):
        return y.value()
    if isinstance(y, Tensor):
        return y
    if isinstance(y, list | tuple | dict):
        raise InvalidArgumentError(
            "custom_gradient in tapeviz supports functions that return one tensor",
            "custom_gradient",
        )
    return convert_to_tensor(y)


def _as_input(a: Any) -> Tensor:
    if isinstance(a, Variable):
        return core.read_variable(a)  # the tapes watch it, as any op reading it would
    return a if isinstance(a, Tensor) else convert_to_tensor(a)


def custom_gradient(f: Callable[..., Any] | None = None) -> Any:
    """Decorate ``f(*x) -> (y, grad_fn)``: ``y`` is recorded as one op whose VJP is ``grad_fn``."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        inputs = tuple(_as_input(a) for a in args)
        state = STATE
        watcher = _VariableWatcher()
        state.active.append(watcher)
        try:  # the inner ops are recorded in their own scope: grad_fn may use their results
            with NameScope(getattr(f, "__name__", "custom_gradient")):
                out = f(*inputs, **kwargs)
        finally:
            state.active.remove(watcher)
        if not isinstance(out, tuple) or len(out) != 2 or not callable(out[1]):
            raise EngineTypeError(
                f"@tf.custom_gradient function {getattr(f, '__name__', '?')} must return "
                "(result, grad_fn)",
                "custom_gradient",
            )
        y = _as_tensor(out[0])
        ids = {x.id for x in inputs}
        used = tuple(v for v in watcher._watched.values()
                     if isinstance(v, Variable) and v.id not in ids)  # fmt: skip
        if used and not _accepts_variables(out[1]):
            raise EngineTypeError(
                "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                f"function uses variables: {list(used)}",
                "custom_gradient",
            )
        reads = tuple(core.read_variable(v) for v in used)  # watched by the tapes, as TF does
        result = Tensor(freeze(y._value), y.dtype)
        active = state.active
        if active:
            grad_fn = CustomGradient(f, out[1], len(inputs), used, inputs + reads, kwargs)
            params = MappingProxyType({"grad_fn": grad_fn, "name": grad_fn.__name__})
            core.record(active, P.custom_gradient_p, inputs + reads, result, params)
        return result

    return decorated
