"""``Function.get_concrete_function``: one trace, its tensor parameters its only inputs.

TensorFlow's ``ConcreteFunction`` keeps the Python arguments of its trace fixed: a call passes
the tensor arguments only (``square(tf.constant(10.0))`` for ``pow.get_concrete_function(a=
tf.TensorSpec(None, tf.float32), b=2)``), and giving a fixed one again is a ``TypeError``; a
tensor of another dtype than traced is TensorFlow's ``InvalidArgumentError``. Eagerly, a call
runs the ``Function`` with the fixed arguments put back. Printed, a concrete function shows its
signature as TensorFlow 2.21 prints it (``Input Parameters`` / ``Output Type`` /
``Captures``); the output type comes from the function's trace for those inputs, or from
running it once on zeros of the inputs' specs (twice, to tell which sizes follow the inputs').
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import dtypes, nest
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.specs import TensorSpec
from tapeviz.engine.tensor import TensorLike, TensorShape, constant

__all__ = ["ConcreteFunction", "describe_output", "describe_parameter", "signature_text"]


def _is_input(value: Any) -> bool:
    return isinstance(value, TensorLike | TensorSpec | np.ndarray)


def _spec(value: Any) -> TensorSpec:
    if isinstance(value, TensorSpec):
        return value
    if isinstance(value, np.ndarray):
        return TensorSpec(value.shape, dtypes.as_dtype(value.dtype.name))
    return TensorSpec.from_tensor(value)


def describe_parameter(value: Any) -> str:
    """How TensorFlow's function type shows one argument (``Literal[2]``, a ``TensorSpec``)."""
    if _is_input(value):
        return repr(_spec(value))
    if isinstance(value, list | tuple):
        kind = "List" if isinstance(value, list) else "Tuple"
        return f"{kind}[{', '.join(describe_parameter(v) for v in value)}]"
    if isinstance(value, dict):
        items = ", ".join(f"{k!r}: {describe_parameter(v)}" for k, v in value.items())
        return f"Dict[{items}]"
    if value is None or isinstance(value, bool | int | float | str):
        return f"Literal[{value!r}]"
    return f"<{type(value).__name__} object>"


def describe_output(value: Any) -> str:
    """A result's type: a ``TensorSpec`` per tensor, Python values as ``Literal``s."""
    if isinstance(value, TensorLike):
        return repr(TensorSpec.from_tensor(value))
    if isinstance(value, list | tuple):
        kind = "List" if isinstance(value, list) else "Tuple"
        return f"{kind}[{', '.join(describe_output(v) for v in value)}]"
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"{k!r}: {describe_output(v)}" for k, v in value.items()) + "]"
    return describe_parameter(value)


def signature_text(bound: dict[str, Any], output: str, head: str = "Input Parameters:") -> str:
    """TensorFlow's pretty-printed signature of a trace."""
    lines = [head]
    lines += [f"  {name} (POSITIONAL_OR_KEYWORD): {describe_parameter(v)}"
              for name, v in bound.items()]  # fmt: skip
    lines += ["Output Type:", f"  {output}", "Captures:", "  None"]
    return "\n".join(lines)


def _zeros(spec: TensorSpec, size: int) -> Any:
    dims = (size,) if spec.shape is None else tuple(size if d is None else d for d in spec.shape)
    if spec.dtype.is_string:  # TensorFlow's zero string is the empty one
        return constant(np.full(dims, b"", dtype=object))
    return constant(np.zeros(dims, dtype=spec.dtype.as_numpy_dtype))


class ConcreteFunction:
    """One trace of a ``tf.function``: call it with the traced tensor arguments only."""

    def __init__(self, function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self._function = function
        sig = function._signature
        if sig is None:
            raise TypeError("get_concrete_function needs a function with a Python signature")
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        self._bound = dict(bound.arguments)
        self._inputs = [n for n, v in self._bound.items() if _is_input(v)]
        self._output: str | None = None
        self.__name__ = getattr(function, "__name__", "function")

    @property
    def structured_input_signature(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The traced arguments: tensors as named ``TensorSpec``s, Python values as they are."""
        args = []
        for name, value in self._bound.items():
            if _is_input(value):
                spec = _spec(value)
                args.append(TensorSpec(spec.shape, spec.dtype, name))
            else:
                args.append(value)
        return tuple(args), {}

    @property
    def structured_outputs(self) -> Any:
        """The result's structure with a ``TensorSpec`` per tensor."""
        out = self._sample()
        return nest.pack_as(out, [TensorSpec.from_tensor(t) if isinstance(t, TensorLike) else t
                                  for t in nest.flatten(out)])  # fmt: skip

    @property
    def inputs(self) -> list[Any]:
        """The traced tensor arguments (their specs)."""
        return [_spec(self._bound[n]) for n in self._inputs]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) > len(self._inputs):
            raise TypeError(
                f"{self.__name__}(...) takes {len(self._inputs)} positional arguments (its "
                f"traced tensors: {', '.join(self._inputs)}) but {len(args)} were given"
            )
        values = dict(self._bound)
        given = dict(zip(self._inputs, args, strict=False))
        for name, value in kwargs.items():
            if name not in self._inputs or name in given:
                raise TypeError(
                    f"{self.__name__}(...) got an unexpected keyword argument '{name}' (its "
                    "Python arguments are fixed at the trace)"
                )
            given[name] = value
        missing = [n for n in self._inputs if n not in given]
        if missing:
            raise TypeError(f"{self.__name__}(...) missing required arguments: {missing}")
        for i, name in enumerate(self._inputs):
            value = given[name]
            spec = _spec(self._bound[name])
            dtype = getattr(value, "dtype", None)
            if isinstance(value, TensorLike) and dtype is not spec.dtype:
                raise InvalidArgumentError(
                    f"cannot compute {self.__name__} as input #{i}(zero-based) was expected to "
                    f"be a {spec.dtype.name} tensor but is a {value.dtype.name} tensor",
                    self.__name__,
                )
            values[name] = value
        return self._function(**values)

    def _sample(self, size: int = 1) -> Any:
        """The function's result on the traced tensors, or on zeros of their specs."""
        values = {}
        for name, value in self._bound.items():
            if isinstance(value, TensorSpec):
                value = _zeros(value, size)
            elif isinstance(value, np.ndarray):
                value = constant(value)
            values[name] = value
        return self._function.python_function(**values)

    def _traced_output(self) -> str | None:
        """The output type of the function's own trace for these inputs, if it made one."""
        mine = {n: describe_parameter(v) for n, v in self._bound.items()}
        for params, out in getattr(self._function, "_signatures", ()):
            if {n: describe_parameter(v) for n, v in params.items()} == mine:
                return out
        return None

    def _output_text(self) -> str:
        if self._output is None:
            self._output = self._traced_output()
        if self._output is None:
            one = self._sample(1)
            out = describe_output(one)
            if any(isinstance(v, TensorSpec) and (v.shape is None or None in v.shape)
                   for v in self._bound.values()):  # fmt: skip
                out = _generalised(one, self._sample(2), self._bound)
            self._output = out
        return self._output

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        """The signature as TensorFlow prints it."""
        return signature_text(self._bound, self._output_text(), "Input Parameters:")

    def __str__(self) -> str:
        return signature_text(
            self._bound, self._output_text(), "ConcreteFunction Input Parameters:"
        )

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self.__name__}>"


def _generalised(one: Any, two: Any, bound: dict[str, Any]) -> str:
    """The output type with the sizes that follow the inputs' unknown ones as ``None``."""
    unknown_rank = any(isinstance(v, TensorSpec) and v.shape is None for v in bound.values())

    def spec(a: Any, b: Any) -> Any:
        if not isinstance(a, TensorLike):
            return a
        if unknown_rank:
            return TensorSpec(None, a.dtype)
        dims = [x if x == y else None for x, y in zip(a.shape, b.shape, strict=False)]
        return TensorSpec(TensorShape(dims), a.dtype)

    flat = [spec(a, b) for a, b in zip(nest.flatten(one), nest.flatten(two), strict=False)]
    packed = nest.pack_as(one, flat)
    return _describe_specs(packed)


def _describe_specs(value: Any) -> str:
    if isinstance(value, TensorSpec):
        return repr(value)
    if isinstance(value, list | tuple):
        kind = "List" if isinstance(value, list) else "Tuple"
        return f"{kind}[{', '.join(_describe_specs(v) for v in value)}]"
    return describe_parameter(value)
