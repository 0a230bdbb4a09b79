"""The runtime around the ops: devices and config (CPU only), eager control flow, debugging.

tapeviz always runs eagerly on the CPU: ``tf.device`` and ``tf.config`` are harmless stand-ins
that answer the way TensorFlow does on a machine without a GPU; ``tf.cond``, ``tf.while_loop``
and ``tf.map_fn`` run their Python functions directly, as TensorFlow does in eager mode.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import nest, tracelog
from tapeviz.engine.array_ops import stack
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.function import RUN_EAGERLY
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, constant, convert_to_tensor
from tapeviz.tf import run_state

__all__ = [
    "CONFIG",
    "DEBUGGING",
    "TEST",
    "cond",
    "device",
    "executing_eagerly",
    "get_static_value",
    "init_scope",
    "is_tensor",
    "map_fn",
    "py_function",
    "recompute_grad",
    "timestamp",
    "vectorized_map",
    "while_loop",
]


class _Block:
    """A with-block that changes nothing (``tf.device``, ``tf.init_scope``)."""

    def __init__(self, name: str = "") -> None:
        self.name = name

    def __enter__(self) -> _Block:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def device(device_name: str) -> _Block:
    """A device scope: everything runs on the CPU in tapeviz, so it changes nothing."""
    if not isinstance(device_name, str | type(None)):
        raise EngineTypeError(f"tf.device expects a string, got {device_name!r}", "device")
    return _Block(device_name or "")


class _InitScope(_Block):
    """``tf.init_scope()``: its block runs with the Python, outside a tf.function's graph."""

    def __enter__(self) -> _Block:
        state = STATE
        self._saved = (state.trace_logs, state.active[:])
        state.trace_logs = []
        state.active[:] = []
        return self

    def __exit__(self, *exc: object) -> None:
        state = STATE
        state.trace_logs, active = self._saved
        state.active[:] = active


def init_scope() -> _Block:
    """Lift ops out of a function being traced (run them once, outside its graph)."""
    return _InitScope()


def executing_eagerly() -> bool:
    """True: tapeviz always executes eagerly."""
    return True


class PhysicalDevice(NamedTuple):
    """A device the runtime can see (``tf.config.list_physical_devices()``)."""

    name: str
    device_type: str


class LogicalDevice(NamedTuple):
    """A device ops can be placed on (``tf.config.list_logical_devices()``)."""

    name: str
    device_type: str


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_LOGICAL_CPU = LogicalDevice("/device:CPU:0", "CPU")


def _defaults() -> dict[str, Any]:
    return {"functions_eagerly": False, "soft_placement": True}


class _Config(threading.local):
    """The ``tf.config`` settings a script can read back (registered with ``run_state``)."""

    functions_eagerly: bool
    soft_placement: bool

    def __init__(self) -> None:
        vars(self).update(_defaults())


_CONFIG = _Config()
run_state.register_attributes(__name__, _CONFIG, _defaults)


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The one CPU (an empty list when asked for GPUs or TPUs)."""
    return [_CPU] if device_type in (None, "CPU") else []


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    """The one CPU as a logical device."""
    return [_LOGICAL_CPU] if device_type in (None, "CPU") else []


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Accept the CPU (there is nothing else to make visible)."""


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The visible devices: the CPU."""
    return list_physical_devices(device_type)


def set_memory_growth(device: Any, enable: bool) -> None:
    """Refuse, as TensorFlow does for a CPU: memory growth is a GPU setting."""
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device: Any) -> bool:
    """Refuse, as for ``set_memory_growth``."""
    raise ValueError("Cannot get memory growth on non-GPU and non-Pluggable devices")


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Make every ``tf.function`` run its Python on each call (no trace kept), or not."""
    _CONFIG.functions_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """The value last given to ``run_functions_eagerly`` (False by default)."""
    return _CONFIG.functions_eagerly


RUN_EAGERLY[0] = functions_run_eagerly  # the engine's Function asks


def set_soft_device_placement(enabled: bool) -> None:
    """Record the setting (ops always run on the CPU)."""
    _CONFIG.soft_placement = bool(enabled)


def get_soft_device_placement() -> bool:
    """The soft-placement setting."""
    return _CONFIG.soft_placement


def _nothing(*args: Any, **kwargs: Any) -> None:
    """Accept and ignore a setting that makes no difference here."""


CONFIG = Namespace(
    "tf.config",
    {
        "list_physical_devices": list_physical_devices,
        "list_logical_devices": list_logical_devices,
        "get_visible_devices": get_visible_devices,
        "set_visible_devices": set_visible_devices,
        "run_functions_eagerly": run_functions_eagerly,
        "functions_run_eagerly": functions_run_eagerly,
        "set_soft_device_placement": set_soft_device_placement,
        "get_soft_device_placement": get_soft_device_placement,
        "PhysicalDevice": PhysicalDevice,
        "LogicalDevice": LogicalDevice,
        "experimental": Namespace(
            "tf.config.experimental",
            {"set_memory_growth": set_memory_growth, "get_memory_growth": get_memory_growth,
             "list_physical_devices": list_physical_devices,
             "enable_op_determinism": _nothing, "set_visible_devices": set_visible_devices},
        ),
        "threading": Namespace(
            "tf.config.threading",
            {"set_intra_op_parallelism_threads": _nothing,
             "set_inter_op_parallelism_threads": _nothing,
             "get_intra_op_parallelism_threads": lambda: 0,
             "get_inter_op_parallelism_threads": lambda: 0},
        ),
        "optimizer": Namespace("tf.config.optimizer", {"set_jit": _nothing}),
    },
)  # fmt: skip


# -- eager control flow --------------------------------------------------------------------
def cond(
    pred: Any,
    true_fn: Callable[[], Any] | None = None,
    false_fn: Callable[[], Any] | None = None,
    name: str | None = None,
) -> Any:
    """``true_fn()`` if ``pred`` else ``false_fn()`` (eagerly: only the chosen branch runs)."""
    if true_fn is None or false_fn is None:
        raise EngineTypeError("cond: give both true_fn and false_fn", "cond")
    if not callable(true_fn) or not callable(false_fn):
        raise EngineTypeError("cond: true_fn and false_fn must be callable", "cond")
    return true_fn() if bool(pred) else false_fn()


def while_loop(
    cond: Callable[..., Any],
    body: Callable[..., Any],
    loop_vars: Any,
    shape_invariants: Any = None,
    parallel_iterations: int = 10,
    back_prop: bool = True,
    swap_memory: bool = False,
    maximum_iterations: Any = None,
    name: str | None = None,
) -> Any:
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; returns the vars."""
    single = not isinstance(loop_vars, list | tuple)
    state = [loop_vars] if single else list(loop_vars)
    limit = None if maximum_iterations is None else int(maximum_iterations)
    steps = 0
    while (limit is None or steps < limit) and bool(cond(*state)):
        checkpoint()
        out = body(*state)
        out = [out] if not isinstance(out, list | tuple) else list(out)
        if len(out) != len(state):
            raise InvalidArgumentError(
                f"while_loop: body returned {len(out)} values for {len(state)} loop variables",
                "while_loop",
            )
        state = out
        steps += 1
    if single:
        return state[0]
    return type(loop_vars)(state) if isinstance(loop_vars, tuple) else state


def map_fn(
    fn: Callable[[Any], Any],
    elems: Any,
    dtype: Any = None,
    parallel_iterations: Any = None,
    back_prop: bool = True,
    swap_memory: bool = False,
    infer_shape: bool = True,
    name: str | None = None,
    fn_output_signature: Any = None,
) -> Any:
    """``fn`` applied to each slice of ``elems`` along the first axis, the results stacked."""
    leaves = [e if isinstance(e, TensorLike) else convert_to_tensor(e) for e in nest.flatten(elems)]
    if not leaves or not leaves[0].shape:
        raise InvalidArgumentError("map_fn: elems must have a first (batch) dimension", "map_fn")
    n = int(leaves[0].shape[0])
    outs = []
    for i in range(n):
        checkpoint()
        piece = nest.pack_as(elems, [leaf[i] for leaf in leaves])
        outs.append(fn(piece))
    if not outs:
        return constant(np.zeros((0,), dtype=np.float32))
    first = outs[0]
    if isinstance(first, list | tuple | dict):
        flat = [nest.flatten(o) for o in outs]
        stacked = [stack([f[k] for f in flat]) for k in range(len(flat[0]))]
        return nest.pack_as(first, stacked)
    return stack(outs)


def vectorized_map(
    fn: Callable[[Any], Any], elems: Any, fallback_to_while_loop: bool = True, warn: bool = True
) -> Any:
    """``map_fn`` (run one slice at a time; the results are the same)."""
    return map_fn(fn, elems)


def py_function(func: Callable[..., Any], inp: Any, Tout: Any, name: str | None = None) -> Any:
    """Call the Python function on the inputs (eagerly there is nothing to wrap)."""
    tracelog.touch()  # TensorFlow runs it on every call of a tf.function: no replay
    out = func(*inp)
    if isinstance(out, list | tuple):
        return [o if isinstance(o, TensorLike) else convert_to_tensor(o) for o in out]
    return out if isinstance(out, TensorLike) or out is None else convert_to_tensor(out)


def recompute_grad(f: Callable[..., Any]) -> Callable[..., Any]:
    """Return ``f``: recomputing in the backward pass saves memory, not results."""
    return f


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tensor or variable."""
    return isinstance(x, Tensor | Variable)


def get_static_value(tensor: Any, partial: bool = False) -> Any:
    """The numpy value of a tensor (eager tensors always have one)."""
    if isinstance(tensor, TensorLike):
        return tensor.numpy()
    return np.asarray(tensor)


def timestamp(name: str | None = None) -> Tensor:
    """Seconds since the epoch, as a float64 scalar."""
    return constant(np.float64(time.time()))


# -- tf.debugging and tf.test ------------------------------------------------------------
def check_numerics(tensor: Any, message: str, name: str | None = None) -> Any:
    """Return ``tensor``; raise ``InvalidArgumentError`` if it holds a nan or an inf."""
    t = tensor if isinstance(tensor, TensorLike) else convert_to_tensor(tensor)
    v = np.asarray(t._value)
    if v.dtype.kind == "f":
        if np.isnan(v).any():
            raise InvalidArgumentError(f"{message} : Tensor had NaN values", "check_numerics")
        if np.isinf(v).any():
            raise InvalidArgumentError(f"{message} : Tensor had Inf values", "check_numerics")
    return tensor


def _compare(what: str, test: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Any:
    def check(
        x: Any, y: Any, message: str | None = None, summarize: Any = None, name: str | None = None
    ) -> None:
        a = np.asarray(getattr(x, "_value", x))
        b = np.asarray(getattr(y, "_value", y))
        if not bool(np.all(test(a, b))):
            head = f"{message}\n" if message else ""
            raise InvalidArgumentError(f"{head}Condition x {what} y did not hold.", what)

    return check


def assert_near(
    x: Any,
    y: Any,
    rtol: Any = None,
    atol: Any = None,
    message: str | None = None,
    summarize: Any = None,
    name: str | None = None,
) -> None:
    """Raise ``InvalidArgumentError`` unless ``|x − y| <= atol + rtol·|y|`` elementwise."""
    a = np.asarray(getattr(x, "_value", x), dtype=np.float64)
    b = np.asarray(getattr(y, "_value", y), dtype=np.float64)
    eps = 10 * np.finfo(np.asarray(getattr(x, "_value", x)).dtype).eps
    if not np.all(np.abs(a - b) <= (atol or eps) + (rtol or eps) * np.abs(b)):
        head = f"{message}\n" if message else ""
        raise InvalidArgumentError(f"{head}x and y not equal to tolerance", "assert_near")


def assert_rank(x: Any, rank: int, message: str | None = None, name: str | None = None) -> None:
    """Raise ``ValueError`` unless ``x`` has rank ``rank``."""
    nd = np.ndim(getattr(x, "_value", x))
    if nd != int(rank):
        raise ValueError(
            f"{message + ' ' if message else ''}Tensor must have rank {rank}. Received rank {nd}"
        )


DEBUGGING = Namespace(
    "tf.debugging",
    {
        "check_numerics": check_numerics,
        "assert_equal": _compare("==", np.equal),
        "assert_none_equal": _compare("!=", np.not_equal),
        "assert_less": _compare("<", np.less),
        "assert_less_equal": _compare("<=", np.less_equal),
        "assert_greater": _compare(">", np.greater),
        "assert_greater_equal": _compare(">=", np.greater_equal),
        "assert_near": assert_near,
        "assert_rank": assert_rank,
        "set_log_device_placement": _nothing,
        "enable_check_numerics": _nothing,
        "disable_check_numerics": _nothing,
    },
)
TEST = Namespace(
    "tf.test",
    {"is_gpu_available": lambda *a, **k: False, "is_built_with_cuda": lambda: False,
     "gpu_device_name": lambda: ""},
)  # fmt: skip
