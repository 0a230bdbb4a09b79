"""``tv.function`` / ``tf.function``: TensorFlow's tracing rules, over eager execution.

TensorFlow runs the Python body only when it traces: on a call whose arguments differ from
every earlier call's (tensors and arrays by dtype and shape, variables by identity, Python
values by value, other objects by identity; one signature only with an ``input_signature``).
Later calls run the traced graph. Here a call that traces runs the Python (its ``print`` shows a
traced call's tensor arguments as TensorFlow's symbolic tensors, ``Tensor("a:0", shape=(),
dtype=int32)``) and, when the engine saw everything it did, keeps it as a program
(:mod:`tapeviz.engine.function_replay`): the later calls replay its ops on their arguments and
the variables' current values, with its ``tf.print`` and ``assign`` effects, and none of its
Python, so list appends, Python counters, globals and object attributes stay as they were at
the trace. A call that read a tensor's value in Python, took numpy data, made a tape or
iterated a dataset runs its Python every time instead, its ``print`` silent where TensorFlow
would not trace. Results are tensors, as TensorFlow returns them (numbers and variables
converted).

Two more of TensorFlow's rules for ``tf.function`` hold here too:

- with an ``input_signature``, each argument must match its ``TensorSpec`` (Python values are
  converted to the spec's dtype), else ``TypeError``;
- variables (and an optimizer's slots) may be created only on the first call, and only if the
  function keeps them (stores them somewhere that outlives the call, as ``if self.v is None:
  self.v = tf.Variable(...)``): a function that would create them again on a later call raises
  TensorFlow's ``ValueError``.
"""

from __future__ import annotations

import functools
import gc
import inspect
import types
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import concrete_function, core, function_replay, nest
from tapeviz.engine.core import OpRecord, Recorder
from tapeviz.engine.specs import TensorSpec
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, convert_to_tensor, new_id
from tapeviz.engine.tracelog import TraceLog

_SINGLETON = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
    "tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information."
)


# ``tf.config.run_functions_eagerly``'s setting, as tapeviz.tf keeps it (the engine has none).
RUN_EAGERLY: list[Callable[[], bool]] = [lambda: False]


class FunctionTrace(NamedTuple):
    """The ops one call of a ``tv.function`` ran, in order, with its arguments and result."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    records: tuple[OpRecord, ...]
    result: Any


class _TraceRecorder(Recorder):
    """Records every op of a call; never makes a gradient record itself."""

    for_gradients = False

    def __init__(self) -> None:
        super().__init__(watch_accessed_variables=False)


class Function:
    """A Python function decorated with ``tv.function``: same results, eagerly, traced."""

    def __init__(self, python_function: Callable[..., Any], **options: Any) -> None:
        self.python_function = python_function
        self.options = options
        self.call_count = 0
        self.last_trace: FunctionTrace | None = None
        self._traced: list[Any] = []  # the argument signatures traced, in order
        self._programs: dict[Any, function_replay.Program] = {}  # replayable traces, by key
        self._signatures: list[tuple[dict[str, Any], str]] = []  # each trace's, as TF prints
        signature = options.get("input_signature")
        self.input_signature = None if signature is None else tuple(nest.flatten(signature))
        functools.update_wrapper(self, python_function, updated=())  # (its attributes stay)
        try:  # arguments are told apart as bound to the parameters, defaults applied
            self._signature: inspect.Signature | None = inspect.signature(python_function)
        except (TypeError, ValueError):
            self._signature = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if RUN_EAGERLY[0]():  # tf.config.run_functions_eagerly(True): plain Python, every call
            return self.python_function(*args, **kwargs)
        if self.input_signature is not None:
            args, kwargs = self._bind(args, kwargs)
        bound = self._bound(args, kwargs)
        key = self._key(args, kwargs, bound)
        known = key in self._traced
        if known:
            program = self._programs.get(key)
            if program is not None:  # TensorFlow runs the graph: the ops, not the Python
                tensors = function_replay.arg_tensors(args, kwargs)
                if tensors is not None and function_replay.matches(program, tensors):
                    return self._replay(program, tensors, args, kwargs)
        if not known and len(self._traced) < MAX_TRACES:
            self._traced.append(key)
        STATE.retraced += known
        STATE.tracing.append({} if known else self._symbols(args, bound))
        try:
            result = self._run(args, kwargs, key)
            if not known and len(self._signatures) < MAX_TRACES:
                params = (
                    bound if bound is not None else {f"args_{i}": a for i, a in enumerate(args)}
                )
                self._signatures.append((params, concrete_function.describe_output(result)))
            return result
        except BaseException:
            if not known and self._traced and self._traced[-1] is key:
                self._traced.pop()  # a trace that failed is traced again next time
            raise
        finally:
            STATE.retraced -= known
            STATE.tracing.pop()

    def _bound(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any] | None:
        """The arguments by parameter name, defaults applied (None: they do not bind)."""
        if self._signature is None:
            return None
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError:  # the call itself raises TypeError
            return None
        bound.apply_defaults()
        return dict(bound.arguments)

    def _symbols(self, args: tuple[Any, ...], bound: dict[str, Any] | None) -> dict[int, str]:
        """What TensorFlow's tracing shows for each tensor argument: ``Tensor("x:0", ...)``."""
        named = bound if bound is not None else {f"args_{i}": a for i, a in enumerate(args)}
        specs = list(self.input_signature or ())
        out: dict[int, str] = {}
        for name, value in named.items():
            if type(value) is not Tensor:  # variables, Python values: printed as they are
                continue
            spec = specs.pop(0) if specs else None
            if spec is not None and spec.shape is None:  # TensorSpec(shape=None): any rank
                shape = "<unknown>"
            else:
                dims = tuple(spec.shape) if spec is not None else tuple(value.shape)
                shape = "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"
            out[id(value)] = f'Tensor("{name}:0", shape={shape}, dtype={value.dtype.name})'
        return out

    def _key(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], bound: dict[str, Any] | None
    ) -> Any:
        """What tells this call's trace apart: the arguments by parameter, as TensorFlow does."""
        if self.input_signature is not None:  # one trace, for the signature (per object)
            if bound and next(iter(bound)) == "self":
                return ("input_signature", _trace_key(bound["self"]))
            return "input_signature"
        if bound is not None:
            return tuple((name, _trace_key(v)) for name, v in bound.items())
        return (_trace_key(args), _trace_key(kwargs))

    def experimental_get_tracing_count(self) -> int:
        """How many times TensorFlow would have traced the function so far."""
        return len(self._traced)

    def _run(self, args: tuple[Any, ...], kwargs: dict[str, Any], key: Any) -> Any:
        rec = _TraceRecorder()
        log = TraceLog(new_id(), rec)
        created: list[Any] = []
        state = STATE
        outer = state.new_variables
        state.new_variables = created
        tapes = state.created
        state.created = [] if tapes is None else tapes
        n_tapes = len(state.created)
        state.trace_logs.append(log)
        core.push(rec)
        try:
            raw = self.python_function(*args, **kwargs)
        finally:
            core.pop(rec)
            state.trace_logs.remove(log)
            made_tapes = len(state.created) > n_tapes
            state.created = tapes
            state.new_variables = outer
            if outer is not None:
                outer.extend(created)
        first = self.call_count == 0
        self.call_count += 1
        result = function_replay.as_outputs(raw)
        self.last_trace = FunctionTrace(args, kwargs, tuple(rec.records), result)
        if created and (not first or _not_kept(created, raw, self.last_trace)):
            raise ValueError(_SINGLETON)
        tensors = function_replay.arg_tensors(args, kwargs)
        if not made_tapes and tensors is not None:
            program = function_replay.build(log, tensors, raw, rec.records)
            if program is not None:
                self._programs[key] = program
        return result

    def _replay(
        self, program: Any, tensors: list[Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        rec = _TraceRecorder()
        core.push(rec)
        try:
            result = function_replay.as_outputs(function_replay.replay(program, tensors))
        finally:
            core.pop(rec)
        self.call_count += 1
        self.last_trace = FunctionTrace(args, kwargs, tuple(rec.records), result)
        return result

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        specs = self.input_signature or ()
        try:
            bound = inspect.signature(self.python_function).bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"Binding inputs to tf.function failed: {exc}") from None
        names = list(bound.arguments)
        if len(names) == len(specs) + 1 and names[0] == "self":  # a method: no spec for self
            names = names[1:]
        if len(names) != len(specs):
            raise TypeError(
                f"Binding inputs to tf.function `{self.__name__}` failed: the input_signature "
                f"has {len(specs)} TensorSpecs, the call passes {len(names)} arguments"
            )
        for name, spec in zip(names, specs, strict=True):
            value = bound.arguments[name]
            t = value if isinstance(value, TensorLike) else _converted(value, spec)
            if t is None or not spec.is_compatible_with(t):
                got = repr(TensorSpec.from_tensor(t)) if t is not None else repr(value)
                sig = ", ".join(f"{n}: {s!r}" for n, s in zip(names, specs, strict=True))
                raise TypeError(
                    f"Binding inputs to tf.function `{self.__name__}` failed due to `Can not cast "
                    f"{got} to {spec!r}`. Received args: {args} and kwargs: {kwargs} for "
                    f"signature: ({sig})."
                )
            bound.arguments[name] = t
        return bound.args, bound.kwargs

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> Any:
        """The trace for these arguments: call it with the tensor arguments only.

        Nothing runs yet (eagerly there is no graph to build): the first call traces instead.
        """
        if not args and not kwargs and self.input_signature is not None:
            args = self.input_signature
        return concrete_function.ConcreteFunction(self, args, kwargs)

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """Every trace's signature so far, as TensorFlow prints them."""
        return "\n\n".join(concrete_function.signature_text(params, out)
                           for params, out in self._signatures)  # fmt: skip

    def __repr__(self) -> str:
        return f"<tv.function {getattr(self.python_function, '__name__', '?')}>"


MAX_TRACES = 1_000  # signatures remembered per function (TensorFlow keeps them all)


def _trace_key(value: Any, depth: int = 0) -> Any:
    """What TensorFlow's tracing tells arguments apart by."""
    if isinstance(value, Variable):  # TensorFlow's trace type holds the variable's own id
        return ("variable", value.dtype.name, tuple(value.shape), value.id)
    if isinstance(value, TensorLike):
        return ("tensor", value.dtype.name, tuple(value.shape))
    if isinstance(value, np.ndarray | np.generic):
        return ("tensor", str(value.dtype), np.shape(value))
    if value is None or isinstance(value, bool | int | float | complex | str):
        return (type(value).__name__, value)
    if depth < 20 and isinstance(value, list | tuple):
        return _kept((type(value).__name__, tuple(_trace_key(v, depth + 1) for v in value)))
    if depth < 20 and isinstance(value, dict):
        items = tuple((repr(k), _trace_key(v, depth + 1)) for k, v in value.items())
        return _kept(("dict", items))
    return ("object", id(value))


def _kept(key: tuple[str, tuple[Any, ...]]) -> Any:
    """A long container's key as its hash (the traces keep no copy of a big argument)."""
    return key if len(key[1]) <= 64 else (key[0], len(key[1]), hash(key[1]))


def _converted(value: Any, spec: Any) -> Any:
    try:
        return convert_to_tensor(value, dtype=spec.dtype)
    except (TypeError, ValueError):
        return None


def _not_kept(created: list[Any], result: Any, trace: Any) -> bool:
    """Whether a variable the call created is held by nothing that outlives the call.

    Such a variable would be made again by the next call (TensorFlow finds out when it traces
    the function a second time). References from the call's own result (and its trace), from
    the tapes that watched the variable and from running frames do not count.
    """
    ignore = {id(created), id(trace)}
    for leaf in _containers(result):
        ignore.add(id(leaf))
    for r in STATE.entered:
        ignore.add(id(r._watched))
        ignore.add(id(r._watched_other))
    for v in created:
        referrers = [
            r
            for r in gc.get_referrers(v)
            if id(r) not in ignore and not isinstance(r, types.FrameType)
        ]
        if not referrers:
            return True
    return False


def _containers(value: Any) -> list[Any]:
    """``value`` and every list, tuple and dict inside it."""
    out = [value]
    if isinstance(value, list | tuple):
        for v in value:
            out += _containers(v)
    elif isinstance(value, dict):
        for v in value.values():
            out += _containers(v)
    return out


def function(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Decorate a function like ``@tf.function`` (with or without arguments)."""
    if func is None:
        return lambda f: Function(f, **options)
    return Function(func, **options)
