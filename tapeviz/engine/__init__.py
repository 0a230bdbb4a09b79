"""The autodiff engine: numpy + stdlib only. Public names are re-exported by ``tapeviz``."""

from __future__ import annotations

import warnings

# Like TensorFlow, ops produce inf/nan silently; numpy's floating-point warnings raised from
# inside the engine's own modules are noise to a lecturer watching a run diverge.
warnings.filterwarnings(
    "ignore",
    message=r"(overflow|invalid value|divide by zero|underflow) encountered",
    category=RuntimeWarning,
    module=r"tapeviz\.engine\..*",
)

from tapeviz.engine import gradcheck, optimizers, unread  # noqa: E402, F401
from tapeviz.engine.backward import (  # noqa: E402
    BackwardPass,
    BackwardStep,
    Contribution,
    backward_steps,
)
from tapeviz.engine.conv_ops import *  # noqa: E402, F403
from tapeviz.engine.conv_ops import __all__ as _conv_all  # noqa: E402
from tapeviz.engine.core import OpRecord  # noqa: E402
from tapeviz.engine.custom import custom_gradient  # noqa: E402
from tapeviz.engine.decomp_ops import *  # noqa: E402, F403
from tapeviz.engine.decomp_ops import __all__ as _decomp_all  # noqa: E402
from tapeviz.engine.dtypes import (  # noqa: E402
    DType,
    as_dtype,
    bool_,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from tapeviz.engine.errors import (  # noqa: E402
    EngineError,
    EngineTypeError,
    InvalidArgumentError,
    NotFoundError,
    UnimplementedError,
)
from tapeviz.engine.function import Function, FunctionTrace, function  # noqa: E402
from tapeviz.engine.linalg_ops import *  # noqa: E402, F403
from tapeviz.engine.linalg_ops import __all__ as _linalg_all  # noqa: E402
from tapeviz.engine.math_ops import *  # noqa: E402, F403
from tapeviz.engine.math_ops import __all__ as _math_all  # noqa: E402
from tapeviz.engine.nn_ops import *  # noqa: E402, F403
from tapeviz.engine.nn_ops import __all__ as _nn_all  # noqa: E402
from tapeviz.engine.ops import *  # noqa: E402, F403
from tapeviz.engine.ops import __all__ as _ops_all  # noqa: E402
from tapeviz.engine.printing import tf_print  # noqa: E402
from tapeviz.engine.shape_ops import *  # noqa: E402, F403
from tapeviz.engine.shape_ops import __all__ as _shape_all  # noqa: E402
from tapeviz.engine.sorting_ops import *  # noqa: E402, F403
from tapeviz.engine.sorting_ops import __all__ as _sorting_all  # noqa: E402
from tapeviz.engine.specs import TensorSpec  # noqa: E402
from tapeviz.engine.state import NameScope  # noqa: E402
from tapeviz.engine.tape import GradientCall, GradientTape, UnconnectedGradients  # noqa: E402
from tapeviz.engine.tensor import (  # noqa: E402
    Tensor,
    TensorShape,
    Variable,
    constant,
    convert_to_tensor,
)

print = tf_print
bool = bool_

__all__ = [
    "BackwardPass",
    "BackwardStep",
    "Contribution",
    "DType",
    "EngineError",
    "EngineTypeError",
    "Function",
    "FunctionTrace",
    "GradientCall",
    "GradientTape",
    "InvalidArgumentError",
    "NameScope",
    "NotFoundError",
    "OpRecord",
    "Tensor",
    "TensorShape",
    "TensorSpec",
    "UnconnectedGradients",
    "UnimplementedError",
    "Variable",
    "as_dtype",
    "backward_steps",
    "bool",
    "bool_",
    "constant",
    "convert_to_tensor",
    "custom_gradient",
    "double",
    "float16",
    "float32",
    "float64",
    "function",
    "gradcheck",
    "half",
    "int8",
    "int16",
    "int32",
    "int64",
    "optimizers",
    "print",
    "tf_print",
    "uint8",
    *_ops_all,
    *_math_all,
    *_nn_all,
    *_linalg_all,
    *_shape_all,
    *_sorting_all,
    *_decomp_all,
    *_conv_all,
]
