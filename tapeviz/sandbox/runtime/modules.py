"""What ``import`` gives a script: tf, torch, sklearn, tapeviz, a restricted numpy, math, plt."""

from __future__ import annotations

import ast
import math as _math
import operator
import types
from collections.abc import Callable
from typing import Any

import numpy as np

import tapeviz.tf as _tf
import tapeviz.torch as _torch
import tapeviz.torch.nn as _torch_nn
import tapeviz.torch.optim as _torch_optim
import tapeviz.torch.utils as _torch_utils
from tapeviz import engine as _engine
from tapeviz.engine import nest
from tapeviz.engine.function import Function
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.printing import tf_print
from tapeviz.engine.tensor import Tensor, TensorLike, TensorShape
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime import classes, hints
from tapeviz.sandbox.runtime.checks import budget, check_text, counted
from tapeviz.sandbox.runtime.numpy_ns import NUMPY
from tapeviz.sandbox.runtime.os_ns import OS
from tapeviz.sandbox.runtime.pathlib_ns import PATHLIB
from tapeviz.sandbox.runtime.plotting.pyplot import MATPLOTLIB
from tapeviz.sandbox.runtime.policy import allow_callables, marker, share
from tapeviz.sandbox.runtime.pprint_ns import PPRINT
from tapeviz.sandbox.runtime.random_ns import RANDOM
from tapeviz.sandbox.runtime.sklearn_ns import SKLEARN
from tapeviz.sandbox.runtime.time_ns import DATETIME, TIME, TIMEIT
from tapeviz.sandbox.runtime.tqdm_ns import TQDM

# Classes a script may name (isinstance) but not construct.
MARKERS = {cls: marker(cls) for cls in (Tensor, TensorShape, _engine.DType, Function)}


def _public(module: Any, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """A module's public names: its values, never its submodules (``tf.keras`` is a Namespace)."""
    out = {}
    for name, value in vars(module).items():
        if name.startswith("_") or name in skip or isinstance(value, types.ModuleType):
            continue
        if type(value).__name__ == "_Feature":  # from __future__ import annotations
            continue
        out[name] = _sanitized(value)
    return out


def _sanitized(value: Any) -> Any:
    """Markers in place of non-constructible classes, also inside nested namespaces."""
    if isinstance(value, type):
        return MARKERS.get(value, value)
    if type(value) is Namespace:
        return Namespace(
            repr(value).split("'")[1], {k: _sanitized(v) for k, v in value.names().items()}
        )
    return value


def _printed_elements(value: Any, summarize: int) -> int:
    shape = np.shape(value._value if isinstance(value, TensorLike) else value)
    n = 1
    for d in shape:
        n *= d if summarize < 0 else min(d, 2 * summarize + 1)
    return n


def sandbox_tf_print(*inputs: Any, summarize: int = 3, **kwargs: Any) -> None:
    """``tf.print`` with the output size checked before the (Python-level) formatting."""
    cap = budget().limits.max_output
    total = 0
    for x in inputs:
        for leaf in nest.flatten(x) if isinstance(x, list | tuple | dict) else [x]:
            if isinstance(leaf, TensorLike | np.ndarray):
                total += _printed_elements(leaf, summarize) * 12
            else:
                check_text(leaf, "tf.print", printed=True)
                total += 24
    total += len(str(kwargs.get("sep", " "))) * len(inputs)
    if total > cap:
        raise budget().trip(limit_hit("output", say("tf_print_output", cap=f"{cap:,}")))
    kwargs.pop("output_stream", None)  # output always goes to the console
    tf_print(*inputs, summarize=summarize, **kwargs)


TF_VERSION = "2.17.0-tapeviz"  # until tapeviz.tf says its own (a TF-style version string)
TF = Namespace(
    "tensorflow",
    {**_public(_tf), "print": sandbox_tf_print,
     "__version__": str(getattr(_tf, "__version__", TF_VERSION))},
)  # fmt: skip
_TV_SKIP = ("gradcheck", "backward_steps", "BackwardPass", "BackwardStep", "Contribution",
            "OpRecord", "GradientCall", "FunctionTrace", "tf_print")  # fmt: skip
TV = Namespace(
    "tapeviz",
    {**_public(_engine, _TV_SKIP), "optimizers": _tf.optimizers, "print": sandbox_tf_print},
)


def _bounded(fn: Callable[..., Any], limit: int = 10_000) -> Callable[..., Any]:
    def wrapped(*args: Any) -> Any:
        for a in args:
            if operator.index(a) > limit:
                raise refused(say("math_bound", name=fn.__name__, cap=f"{limit:,}"))
        return fn(*args)

    wrapped.__name__ = fn.__name__
    return wrapped


def _fsum(items: Any) -> float:
    return _math.fsum(counted(items, "math.fsum"))


_MATH = (
    "sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp expm1 log log2 "
    "log10 log1p sqrt fabs floor ceil trunc pi e tau inf nan isnan isinf isfinite isclose "
    "hypot degrees radians copysign gcd erf erfc gamma lgamma fmod modf"
).split()
MATH = Namespace(
    "math",
    {**{n: getattr(_math, n) for n in _MATH}, "fsum": _fsum,
     **{n: _bounded(getattr(_math, n)) for n in ("factorial", "comb", "perm")}},
)  # fmt: skip


def _module_namespace(name: str, module: types.ModuleType) -> Namespace:
    """A package's public API as a namespace; its own submodules become namespaces too."""
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    out: dict[str, Any] = {}
    for n in names:
        value = getattr(module, n)
        if isinstance(value, types.ModuleType):
            if value.__name__.startswith(module.__name__ + "."):
                out[n] = _module_namespace(f"{name}.{n}", value)
        elif type(value).__name__ != "_Feature":
            out[n] = _sanitized(value)
    return Namespace(name, out)


TORCH = Namespace(
    "torch",
    {**_public(_torch), "nn": _module_namespace("torch.nn", _torch_nn),
     "optim": _module_namespace("torch.optim", _torch_optim),
     "utils": _module_namespace("torch.utils", _torch_utils),
     "__version__": str(_torch.__version__)},  # (courses print it first)
)  # fmt: skip
MODULES: dict[str, Namespace] = {
    "tensorflow": TF,
    "tapeviz.tf": TF,
    "torch": TORCH,
    "tapeviz.torch": TORCH,
    "tapeviz": TV,
    "numpy": NUMPY,
    "sklearn": SKLEARN,  # toy data, splits, scalers, scores (no estimators)
    "math": MATH,
    "random": RANDOM,
    "matplotlib": MATPLOTLIB,
    "os": OS,  # the run's own folder (saving), nothing of the real system
    "pathlib": PATHLIB,  # paths in the run's own folder
    "time": TIME,  # the clock only (tutorials time their loops)
    "timeit": TIMEIT,
    "datetime": DATETIME,
    "pprint": PPRINT,  # the standard pretty printer, into the run's output
    "tqdm": TQDM,  # progress bars that draw nothing (tapeviz shows progress itself)
}
if "keras" in TF:  # Keras 3: `import keras` is the same Keras as tf.keras
    MODULES["keras"] = TF.keras
ALLOWED_IMPORTS = (
    "tensorflow, torch, numpy, matplotlib, sklearn, math, random, os, time, timeit, datetime, "
    "pathlib, pprint, tqdm and tapeviz"
)
# What a script has before its first line, as a notebook after its first cell's imports.
PRELUDE: dict[str, Namespace] = {"tf": TF, "np": NUMPY}
PRELUDE_IMPORTS = {"tf": "import tensorflow as tf", "np": "import numpy as np"}
# Engine classes made for subclassing (by their path in the namespaces; absent ones skipped).
SUBCLASSABLE = (
    "tensorflow.Module", "tensorflow.keras.layers.Layer", "tensorflow.keras.Model",
    "tensorflow.keras.losses.Loss", "tensorflow.keras.metrics.Metric",
    "tensorflow.keras.callbacks.Callback", "tensorflow.keras.initializers.Initializer",
    "tensorflow.keras.regularizers.Regularizer", "tensorflow.keras.constraints.Constraint",
    "tensorflow.keras.optimizers.schedules.LearningRateSchedule",
    "torch.nn.Module", "torch.autograd.Function", "torch.utils.data.Dataset",
    "torch.optim.Optimizer",
)  # fmt: skip


def resolve(dotted: str) -> Any:
    """The namespace an import names (``tensorflow.keras.optimizers``), or a refusal."""
    for root in sorted(MODULES, key=len, reverse=True):
        if dotted == root or dotted.startswith(root + "."):
            obj: Any = MODULES[root]
            for part in dotted[len(root) + 1 :].split(".") if dotted != root else ():
                if type(obj) is not Namespace or part not in obj:
                    if type(obj) is Namespace and part in hints.API.get(_name(obj), ()):
                        raise hints.missing_attribute(_name(obj), part, obj)
                    raise ModuleNotFoundError(f"no module named '{dotted}'")
                obj = getattr(obj, part)
            if type(obj) is not Namespace:
                raise ModuleNotFoundError(f"'{dotted}' is not a module")
            return obj
    message, hint = hints.lacking_module(dotted)
    raise refused(message, hint or say("hint_imports"))


def _name(ns: Namespace) -> str:
    return repr(ns).split("'")[1]


def prelude_imports(tree: ast.Module) -> list[str]:
    """The imports a script leaves to the prelude: what code run outside tapeviz must add."""
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    bound: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            bound |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        elif isinstance(stmt, ast.FunctionDef | ast.ClassDef):
            bound.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            bound |= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    return [line for name, line in PRELUDE_IMPORTS.items() if name in loaded - bound]


def lookup(dotted: str) -> Any:
    """The object at ``dotted`` (``tensorflow.keras.Model``), or None where there is none."""
    root, _, rest = dotted.partition(".")
    obj: Any = MODULES.get(root)
    for part in rest.split(".") if rest else ():
        if type(obj) is not Namespace or part not in obj:
            return None
        obj = getattr(obj, part)
    return obj


def has(namespace: str, name: str) -> bool:
    """Whether the namespace ``namespace`` (``tensorflow``, ``numpy``, ...) has ``name``."""
    ns = lookup(namespace)
    return type(ns) is Namespace and name in ns and not name.startswith("_")


def _walk(ns: Namespace) -> list[Any]:
    out = []
    for name in ns:
        value = getattr(ns, name)
        out.append(value)
        if type(value) is Namespace:
            out.extend(_walk(value))
    return out


for _ns in MODULES.values():
    allow_callables(_walk(_ns))
    share(_walk(_ns))
classes.allow_bases(lookup(path) for path in SUBCLASSABLE)
