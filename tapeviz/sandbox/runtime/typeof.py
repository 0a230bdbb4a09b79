"""``type(x)`` in a script: a class the script may hold, with the names Python and TF print.

A script's own classes come back as they are; ``int``, ``str``, ``list`` ... as the same
stand-ins the script's builtins are (so ``type(x) is str`` holds); classes the namespaces hand
out (``np.float32``, ``tf.GradientTape``) as themselves; everything else as a marker that works
with ``isinstance`` and ``__name__`` but cannot be called. Tensors and variables go by
TensorFlow's eager class names, ``EagerTensor`` and ``ResourceVariable``, as in TF 2.x.
"""

from __future__ import annotations

import types
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import Tensor, Variable
from tapeviz.sandbox.runtime import policy
from tapeviz.sandbox.runtime.classes import BoundMethod, Super, is_user_class
from tapeviz.sandbox.runtime.frames import UserFunction
from tapeviz.sandbox.runtime.methods import Checked
from tapeviz.sandbox.runtime.modules import MARKERS
from tapeviz.sandbox.runtime.numpy_ns import NUMPY, SCALAR_TYPES
from tapeviz.sandbox.runtime.policy import SAFE_CALLABLES, checked_type, marker

STANDINS: dict[type, Any] = {
    **MARKERS,
    Tensor: marker(Tensor, "EagerTensor", "tensorflow.python.framework.ops.EagerTensor"),
    Variable: checked_type(
        Variable,
        Variable,
        "ResourceVariable",
        "tensorflow.python.ops.resource_variable_ops.ResourceVariable",
    ),
    NUMPY.ndarray._real: NUMPY.ndarray,  # type: ignore[attr-defined]
    **SCALAR_TYPES,  # type(np.float32(1)) is np.float32
    Namespace: marker(Namespace, "module"),
    BoundMethod: marker(BoundMethod, "method"),
    Checked: marker(Checked, "builtin_function_or_method"),
    Super: marker(Super, "super"),
    UserFunction: marker(UserFunction, "function"),
    types.FunctionType: marker(types.FunctionType, "function"),
}


def register(real: type, standin: Any) -> None:
    """What ``type()`` gives for values of ``real`` (the builtins register theirs)."""
    STANDINS[real] = standin


def type_of(obj: Any) -> Any:
    """``type(obj)`` as a script sees it."""
    tp = type(obj)
    if is_user_class(tp):
        return tp
    if isinstance(obj, type):  # type(SomeClass) is type
        return STANDINS[type]
    found = STANDINS.get(tp)
    if found is not None:
        return found
    if id(tp) in SAFE_CALLABLES:
        return tp
    found = STANDINS[tp] = marker(tp)
    return found


policy.CLASS_OF = type_of  # ``x.__class__`` reads as ``type(x)`` (policy.get_attr)
