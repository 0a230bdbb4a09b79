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

__all__ = ["CustomGradient", "CustomGradientFunction", "RecordedGradient"]
__all__ += ["custom_gradient", "custom_name"]


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
        result_id: int | None = None,
    ) -> None:
        self.fn, self.grad, self.n_args, self.variables = fn, grad, n_args, variables
        self.result_id = result_id  # the tensor the function returned (its ops are recorded)
        self._inputs = inputs  # the recorded inputs: a rule called on them uses ``grad``
        self._kwargs = kwargs
        self._last: tuple[Any, tuple[Any, ...], list[Any]] | None = None
        # What the user's function gave, as plain values: (upstream, [gradient per input]),
        # the newest (SEEN_MAX, SEEN_SIZE); a process that cannot call it steps with these.
        self.seen: list[tuple[np.ndarray, list[np.ndarray | None]]] = []
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
            self._note(g, grads)
        return input_gradient(self.__name__, argnum, grads[argnum], xs[argnum], taping)

    def _note(self, g: Any, grads: list[Any]) -> None:
        plain = [None if out is None else np.array(_raw(out)) for out in grads]
        upstream = np.array(_raw(g))
        self.seen.append((upstream, plain))
        del self.seen[:-SEEN_MAX]
        sizes = [u.size + sum(x.size for x in xs if x is not None) for u, xs in self.seen]
        while self.seen and sum(sizes) > SEEN_SIZE:  # the oldest go first (and the too large)
            self.seen.pop(0)
            sizes.pop(0)

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


SEEN_MAX = 64  # upstream gradients remembered per custom_gradient record, the newest
SEEN_SIZE = 2_000_000  # elements, at most, of all of one record's remembered values


def custom_name(rec: Any) -> str:
    """The user's function a ``custom_gradient`` record stands for, by its name (shown)."""
    return str(rec.params.get("name") or "f")[:40]


def _raw(value: Any) -> Any:
    return value._value if isinstance(value, TensorLike) else np.asarray(value)


def input_gradient(name: str, argnum: int, out: Any, x: Any, taping: bool) -> Any:
    """The user's gradient ``out`` for input ``argnum`` as the backward pass wants it."""
    if out is None:
        return None
    if taping:
        return out if isinstance(out, TensorLike) else convert_to_tensor(out, dtype=x.dtype)
    value = np.asarray(_raw(out), dtype=np.asarray(x).dtype)[()]
    if np.shape(value) != np.shape(x):
        raise InvalidArgumentError(
            f"custom_gradient {name}: the gradient for input {argnum} has shape "
            f"{np.shape(value)}, the input has shape {np.shape(x)}",
            "custom_gradient",
        )
    return value


class RecordedGradient:
    """A ``custom_gradient`` record's ``grad_fn`` known only by what it gave (another process).

    The user's function ran where the script ran; ``seen`` holds its results (upstream,
    [gradient per input]). The backward pass over the same tape from the same targets meets
    the same upstream gradients, so it steps on with them; any other upstream, or a replay
    with other inputs (finite differences), cannot call the function and says so.
    """

    def __init__(
        self,
        name: str,
        seen: list[tuple[np.ndarray, list[np.ndarray | None]]],
        result_id: int | None = None,
    ) -> None:
        self.__name__, self.seen, self.result_id = name, seen, result_id

    def __repr__(self) -> str:
        return f"<custom gradient of {self.__name__}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RecordedGradient) and other.__name__ == self.__name__

    def __hash__(self) -> int:
        return hash(self.__name__)

    def vjp(self, argnum: int, g: Any, ans: Any, *xs: Any) -> Any:
        """Input ``argnum``'s share, as the user's function gave it for this upstream ``g``."""
        upstream = _raw(g)
        for seen_g, grads in reversed(self.seen):
            if argnum >= len(grads):  # not one per input (sent so by a broken worker)
                continue
            if seen_g.shape == upstream.shape and np.array_equal(seen_g, upstream, equal_nan=True):
                taping = isinstance(g, TensorLike)
                return input_gradient(self.__name__, argnum, grads[argnum], xs[argnum], taping)
        raise InvalidArgumentError(
            f"custom_gradient {self.__name__}: the script's gradient function gave nothing "
            f"tapeviz kept for this upstream gradient (it keeps the newest {SEEN_MAX} and "
            f"{SEEN_SIZE:,} values); a tape.gradient call to this target in the script steps "
            "here",
            "custom_gradient",
        )

    def forward(self, *values: Any) -> Any:
        """Refused: the function itself ran in the script only."""
        raise InvalidArgumentError(
            f"custom_gradient {self.__name__} can be computed again only in the script "
            "(its function is not here)",
            "custom_gradient",
        )


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
    return CustomGradientFunction(f)


class CustomGradientFunction:
    """A function decorated with ``custom_gradient``: each call records one op (see the module).

    As a method its first argument (``self``) is passed through, not made a tensor input.
    """

    def __init__(self, f: Callable[..., Any], passed: int = 0) -> None:
        self.python_function, self.passed = f, passed
        functools.update_wrapper(self, f, updated=())  # (its own attributes stay its own)

    def __repr__(self) -> str:
        return f"<custom_gradient function {getattr(self.python_function, '__name__', '?')}>"

    def as_method(self) -> CustomGradientFunction:
        """The same function whose first argument is the instance."""
        return CustomGradientFunction(self.python_function, 1)

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        """A method decorated in a class body binds like a function."""
        return self if obj is None else functools.partial(self.as_method(), obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        passed, args = args[: self.passed], args[self.passed :]
        f = functools.partial(self.python_function, *passed) if passed else self.python_function
        name = getattr(self.python_function, "__name__", "custom_gradient")
        inputs = tuple(_as_input(a) for a in args)
        state = STATE
        watcher = _VariableWatcher()
        state.active.append(watcher)
        try:  # the inner ops are recorded in their own scope: grad_fn may use their results
            with NameScope(name):
                out = f(*inputs, **kwargs)
        finally:
            state.active.remove(watcher)
        if not isinstance(out, tuple) or len(out) != 2 or not callable(out[1]):
            raise EngineTypeError(
                f"@tf.custom_gradient function {name} must return (result, grad_fn)",
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
            grad_fn = CustomGradient(f, out[1], len(inputs), used, inputs + reads, kwargs, y.id)
            grad_fn.__name__ = name
            params = MappingProxyType({"grad_fn": grad_fn, "name": grad_fn.__name__})
            core.record(active, P.custom_gradient_p, inputs + reads, result, params)
        return result
