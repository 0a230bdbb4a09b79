"""A TensorFlow-compatible namespace over the tapeviz engine: ``import tapeviz.tf as tf``.

The seed tutorials' code runs unchanged apart from the import line: ``tf.GradientTape``,
``tf.Variable``, ``tf.math.*``, ``tf.nn.*``, ``tf.keras.optimizers.*``, ``tf.print``, ...
"""

from __future__ import annotations

from tapeviz import engine as _e
from tapeviz.engine import dtypes as _dt
from tapeviz.engine import nest as _nest
from tapeviz.engine import optimizers as _opt
from tapeviz.engine.namespace import Namespace as _Namespace

# -- core ----------------------------------------------------------------------------------
constant = _e.constant
Variable = _e.Variable
Tensor = _e.Tensor
TensorShape = _e.TensorShape
DType = _e.DType
GradientTape = _e.GradientTape
UnconnectedGradients = _e.UnconnectedGradients
function = _e.function
print = _e.tf_print
convert_to_tensor = _e.convert_to_tensor
cast = _e.cast
as_dtype = _e.as_dtype

float16, float32, float64, half, double = (
    _dt.float16,
    _dt.float32,
    _dt.float64,
    _dt.half,
    _dt.double,
)
int8, int16, int32, int64, uint8 = _dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8
bool = _dt.bool_

# -- ops under their top-level TensorFlow names --------------------------------------------
add, subtract, multiply, divide = _e.add, _e.subtract, _e.multiply, _e.divide
truediv = _e.divide
negative, pow, square, sqrt, exp = _e.negative, _e.pow, _e.square, _e.sqrt, _e.exp
sin, cos, tan, tanh, sigmoid = _e.sin, _e.cos, _e.tan, _e.tanh, _e.sigmoid
abs, sign, floor, round = _e.abs, _e.sign, _e.floor, _e.round
maximum, minimum, clip_by_value, where = _e.maximum, _e.minimum, _e.clip_by_value, _e.where
less, less_equal, greater, greater_equal = _e.less, _e.less_equal, _e.greater, _e.greater_equal
equal, not_equal = _e.equal, _e.not_equal
logical_and, logical_or, logical_not = _e.logical_and, _e.logical_or, _e.logical_not
matmul, norm = _e.matmul, _e.norm
reduce_sum, reduce_mean, reduce_max, reduce_min = (
    _e.reduce_sum, _e.reduce_mean, _e.reduce_max, _e.reduce_min
)  # fmt: skip
argmax, argmin = _e.argmax, _e.argmin
stack, concat, reshape, transpose = _e.stack, _e.concat, _e.reshape, _e.transpose
broadcast_to, expand_dims, squeeze = _e.broadcast_to, _e.expand_dims, _e.squeeze
identity, stop_gradient, add_n = _e.identity, _e.stop_gradient, _e.add_n
zeros, ones, fill, zeros_like, ones_like = _e.zeros, _e.ones, _e.fill, _e.zeros_like, _e.ones_like
range, linspace, size, shape, rank = _e.range, _e.linspace, _e.size, _e.shape, _e.rank

# -- sub-namespaces ------------------------------------------------------------------------
math = _Namespace(
    "tf.math",
    {
        "add": _e.add, "subtract": _e.subtract, "multiply": _e.multiply, "divide": _e.divide,
        "truediv": _e.divide, "divide_no_nan": _e.divide_no_nan, "floordiv": _e.floordiv,
        "floormod": _e.mod, "mod": _e.mod, "negative": _e.negative, "pow": _e.pow,
        "square": _e.square, "sqrt": _e.sqrt, "rsqrt": _e.rsqrt, "reciprocal": _e.reciprocal,
        "exp": _e.exp, "log": _e.log, "log1p": _e.log1p, "expm1": _e.expm1,
        "sin": _e.sin, "cos": _e.cos, "tan": _e.tan, "tanh": _e.tanh, "sigmoid": _e.sigmoid,
        "softplus": _e.softplus, "abs": _e.abs, "sign": _e.sign, "floor": _e.floor,
        "round": _e.round, "maximum": _e.maximum, "minimum": _e.minimum,
        "reduce_sum": _e.reduce_sum, "reduce_mean": _e.reduce_mean, "reduce_max": _e.reduce_max,
        "reduce_min": _e.reduce_min, "argmax": _e.argmax, "argmin": _e.argmin,
        "equal": _e.equal, "not_equal": _e.not_equal, "less": _e.less,
        "less_equal": _e.less_equal, "greater": _e.greater, "greater_equal": _e.greater_equal,
        "logical_and": _e.logical_and, "logical_or": _e.logical_or,
        "logical_not": _e.logical_not, "add_n": _e.add_n,
    },
)  # fmt: skip
nn = _Namespace(
    "tf.nn",
    {"relu": _e.relu, "leaky_relu": _e.leaky_relu, "sigmoid": _e.sigmoid, "tanh": _e.tanh,
     "softplus": _e.softplus},
)  # fmt: skip
linalg = _Namespace("tf.linalg", {"matmul": _e.matmul, "norm": _e.norm})
dtypes = _Namespace(
    "tf.dtypes",
    {"float16": float16, "float32": float32, "float64": float64, "int8": int8, "int16": int16,
     "int32": int32, "int64": int64, "uint8": uint8, "bool": bool, "cast": _e.cast,
     "as_dtype": _e.as_dtype, "DType": _e.DType},
)  # fmt: skip
errors = _Namespace(
    "tf.errors",
    {"InvalidArgumentError": _e.InvalidArgumentError, "OpError": _e.EngineError},
)
nest = _Namespace("tf.nest", {"flatten": _nest.flatten, "pack_sequence_as": _nest.pack_as})
optimizers = _Namespace(
    "tf.keras.optimizers",
    {"SGD": _opt.SGD, "Adam": _opt.Adam, "RMSprop": _opt.RMSprop, "Adagrad": _opt.Adagrad,
     "Optimizer": _opt.Optimizer, "get": _opt.get},
)  # fmt: skip
keras = _Namespace("tf.keras", {"optimizers": optimizers})
