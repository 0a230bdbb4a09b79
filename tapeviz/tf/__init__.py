"""A TensorFlow-compatible namespace over the tapeviz engine: ``import tapeviz.tf as tf``.

Tutorial code runs unchanged apart from the import line: ``tf.GradientTape``, ``tf.Variable``,
``tf.random``, ``tf.Module``, ``tf.keras`` (layers, models, fit), ``tf.data.Dataset``,
``tf.math``, ``tf.nn``, ``tf.linalg``, ``tf.custom_gradient``, ``tf.print``, ...
:func:`supported_names` lists every name, by namespace. Saving (``model.save``,
``tf.train.Checkpoint``, ``tf.saved_model``) writes to the run's own folder, in memory
(:mod:`tapeviz.tf.run_files`); reading other files and downloads raise
:class:`~tapeviz.tf.unavailable.NotAvailableInTapeviz`. The sub-namespaces can be imported as
modules too (``from tapeviz.tf.keras import layers``).
"""

from __future__ import annotations

import sys as _sys

from tapeviz import engine as _e
from tapeviz.engine import conv_ops as _conv
from tapeviz.engine import dtypes as _dt
from tapeviz.engine import nest as _nest
from tapeviz.engine.namespace import Namespace as _Namespace
from tapeviz.tf import checkpoint as _ckpt
from tapeviz.tf import composite as _composite
from tapeviz.tf import decompositions as _decomp
from tapeviz.tf import init_ops as _init_ops
from tapeviz.tf import random_generators as _gen
from tapeviz.tf import random_ops as _random
from tapeviz.tf import runtime as _rt
from tapeviz.tf import saved_model as _saved_model
from tapeviz.tf import unavailable as _na
from tapeviz.tf.catalog import supported_names, unavailable_names
from tapeviz.tf.dataset import DATA as _DATA
from tapeviz.tf.keras_src import KERAS as _KERAS
from tapeviz.tf.module import Module, name_scope
from tapeviz.tf.strings import STRINGS as _STRINGS
from tapeviz.tf.tensor_array import TensorArray

__version__ = "2.21.0+tapeviz"
__all__ = ["Module", "TensorArray", "name_scope", "supported_names", "unavailable_names"]

# -- core ----------------------------------------------------------------------------------
constant = _e.constant
Variable = _e.Variable
Tensor = _e.Tensor
TensorShape = _e.TensorShape
TensorSpec = _e.TensorSpec
DType = _e.DType
GradientTape = _e.GradientTape
UnconnectedGradients = _e.UnconnectedGradients
function = _e.function
custom_gradient = _e.custom_gradient
print = _e.tf_print
convert_to_tensor = _e.convert_to_tensor
cast = _e.cast
as_dtype = _e.as_dtype
newaxis = None

float16, float32, float64, half, double = (
    _dt.float16,
    _dt.float32,
    _dt.float64,
    _dt.half,
    _dt.double,
)
int8, int16, int32, int64, uint8 = _dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8
bool = _dt.bool_
string = _dt.string
complex64, complex128 = _dt.complex64, _dt.complex128  # values only: no tape records them

# -- ops under their top-level TensorFlow names --------------------------------------------
add, subtract, multiply, divide = _e.add, _e.subtract, _e.multiply, _e.divide
truediv = _e.divide
negative, pow, square, sqrt, exp = _e.negative, _e.pow, _e.square, _e.sqrt, _e.exp
sin, cos, tan, tanh, sigmoid = _e.sin, _e.cos, _e.tan, _e.tanh, _e.sigmoid
sinh, cosh, asin, acos, atan = _e.sinh, _e.cosh, _e.asin, _e.acos, _e.atan
asinh, acosh, atanh, atan2 = _e.asinh, _e.acosh, _e.atanh, _e.atan2
abs, sign, floor, round = _e.abs, _e.sign, _e.floor, _e.round
maximum, minimum, clip_by_value, where = _e.maximum, _e.minimum, _e.clip_by_value, _e.where
clip_by_norm, clip_by_global_norm = _e.clip_by_norm, _e.clip_by_global_norm
less, less_equal, greater, greater_equal = _e.less, _e.less_equal, _e.greater, _e.greater_equal
equal, not_equal = _e.equal, _e.not_equal
logical_and, logical_or, logical_not = _e.logical_and, _e.logical_or, _e.logical_not
matmul, norm, einsum, tensordot, eye = _e.matmul, _e.tf_norm, _e.einsum, _e.tensordot, _e.eye
reduce_sum, reduce_mean, reduce_max, reduce_min = (
    _e.reduce_sum, _e.reduce_mean, _e.reduce_max, _e.reduce_min
)  # fmt: skip
reduce_prod, reduce_logsumexp, reduce_any, reduce_all = (
    _e.reduce_prod, _e.reduce_logsumexp, _e.reduce_any, _e.reduce_all
)  # fmt: skip
argmax, argmin, cumsum = _e.argmax, _e.argmin, _e.cumsum
stack, concat, reshape, transpose = _e.stack, _e.concat, _e.reshape, _e.transpose
broadcast_to, expand_dims, squeeze = _e.broadcast_to, _e.expand_dims, _e.squeeze
identity, stop_gradient, add_n = _e.identity, _e.stop_gradient, _e.add_n
zeros, ones, fill, zeros_like, ones_like = _e.zeros, _e.ones, _e.fill, _e.zeros_like, _e.ones_like
range, linspace, size, shape, rank = _e.range, _e.linspace, _e.size, _e.shape, _e.rank
pad, tile, gather, gather_nd, one_hot = _e.pad, _e.tile, _e.gather, _e.gather_nd, _e.one_hot
meshgrid, split, unstack, reverse, roll = _e.meshgrid, _e.split, _e.unstack, _e.reverse, _e.roll
repeat, boolean_mask, sort, argsort, unique = (
    _e.repeat, _e.boolean_mask, _e.sort, _e.argsort, _e.unique
)  # fmt: skip
slice, sequence_mask = _e.slice, _e.sequence_mask
strings, as_string = _STRINGS, _STRINGS.as_string
conv2d_backprop_input_v2 = _e.conv2d_backprop_input_v2
conv2d_backprop_filter_v2 = _e.conv2d_backprop_filter_v2

# -- TensorFlow's own initializers (tf.keras.initializers are Keras')
zeros_initializer, ones_initializer = _init_ops.Zeros, _init_ops.Ones
constant_initializer = _init_ops.Constant
random_normal_initializer, random_uniform_initializer = (
    _init_ops.RandomNormal,
    _init_ops.RandomUniform,
)

# -- the runtime: devices, config, eager control flow ---------------------------------------
device, init_scope, executing_eagerly = _rt.device, _rt.init_scope, _rt.executing_eagerly
cond, while_loop, map_fn, vectorized_map = _rt.cond, _rt.while_loop, _rt.map_fn, _rt.vectorized_map
py_function, recompute_grad, is_tensor = _rt.py_function, _rt.recompute_grad, _rt.is_tensor
get_static_value, timestamp = _rt.get_static_value, _rt.timestamp
config, debugging, test = _rt.CONFIG, _rt.DEBUGGING, _rt.TEST

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
        "sinh": _e.sinh, "cosh": _e.cosh, "asin": _e.asin, "acos": _e.acos, "atan": _e.atan,
        "asinh": _e.asinh, "acosh": _e.acosh, "atanh": _e.atanh, "atan2": _e.atan2,
        "erf": _e.erf, "erfc": _e.erfc, "ceil": _e.ceil, "is_nan": _e.is_nan,
        "is_inf": _e.is_inf, "is_finite": _e.is_finite, "reduce_prod": _e.reduce_prod,
        "reduce_logsumexp": _e.reduce_logsumexp, "reduce_any": _e.reduce_any,
        "reduce_all": _e.reduce_all, "reduce_std": _e.reduce_std,
        "reduce_variance": _e.reduce_variance,
        "reduce_euclidean_norm": _e.reduce_euclidean_norm, "count_nonzero": _e.count_nonzero,
        "cumsum": _e.cumsum, "cumprod": _e.cumprod, "log_sigmoid": _e.log_sigmoid,
        "squared_difference": _e.squared_difference, "scalar_mul": _e.scalar_mul,
        "softmax": _e.softmax, "log_softmax": _e.log_softmax, "l2_normalize": _e.l2_normalize,
        "top_k": _e.top_k,
    },
)  # fmt: skip
nn = _Namespace(
    "tf.nn",
    {"relu": _e.relu, "leaky_relu": _e.leaky_relu, "sigmoid": _e.sigmoid, "tanh": _e.tanh,
     "softplus": _e.softplus, "relu6": _e.relu6, "elu": _e.elu, "selu": _e.selu,
     "gelu": _e.gelu, "silu": _e.silu, "swish": _e.swish, "softsign": _e.softsign,
     "softmax": _e.softmax, "log_softmax": _e.log_softmax,
     "sigmoid_cross_entropy_with_logits": _e.sigmoid_cross_entropy_with_logits,
     "softmax_cross_entropy_with_logits": _e.softmax_cross_entropy_with_logits,
     "sparse_softmax_cross_entropy_with_logits": _e.sparse_softmax_cross_entropy_with_logits,
     "l2_loss": _e.l2_loss, "l2_normalize": _e.l2_normalize, "moments": _e.moments,
     "batch_normalization": _e.batch_normalization, "bias_add": _e.bias_add,
     "dropout": _random.dropout, "embedding_lookup": _e.gather,
     **{n: getattr(_conv, n) for n in _conv.__all__ if not n.startswith("conv2d_backprop")}},
)  # fmt: skip
linalg = _Namespace(
    "tf.linalg",
    {"matmul": _e.matmul, "norm": _e.tf_norm, "solve": _e.solve, "inv": _e.inv, "det": _e.det,
     "diag": _e.diag, "diag_part": _e.diag_part, "trace": _e.trace, "eye": _e.eye,
     "einsum": _e.einsum, "tensordot": _e.tensordot, "matvec": _e.matvec,
     "matrix_transpose": _e.matrix_transpose, "adjoint": _e.matrix_transpose,
     "l2_normalize": _e.l2_normalize, "global_norm": _e.global_norm, "svd": _e.svd,
     "qr": _decomp.qr, "eigh": _e.eigh, "eigvalsh": _e.eigvalsh},
)  # fmt: skip
random = _Namespace(
    "tf.random",
    {**{n: getattr(_random, n) for n in _random.__all__ if n != "dropout"},
     **{n: getattr(_gen, n) for n in _gen.__all__},
     "experimental": _Namespace(
         "tf.random.experimental",
         {"Generator": _gen.Generator, "get_global_generator": _gen.get_global_generator,
          "set_global_generator": _gen.set_global_generator}),
     },
)  # fmt: skip
dtypes = _Namespace(
    "tf.dtypes",
    {"float16": float16, "float32": float32, "float64": float64, "int8": int8, "int16": int16,
     "int32": int32, "int64": int64, "uint8": uint8, "bool": bool, "string": string,
     "complex64": complex64, "complex128": complex128,
     "cast": _e.cast,
     "as_dtype": _e.as_dtype, "DType": _e.DType},
)  # fmt: skip
errors = _Namespace(
    "tf.errors",
    {"InvalidArgumentError": _e.InvalidArgumentError, "OpError": _e.EngineError,
     "UnimplementedError": _e.UnimplementedError, "NotFoundError": _e.NotFoundError,
     "NotAvailableInTapeviz": _na.NotAvailableInTapeviz},
)  # fmt: skip
nest = _Namespace(
    "tf.nest",
    {"flatten": _nest.flatten, "pack_sequence_as": _nest.pack_as,
     "map_structure": _nest.map_structure, "is_nested": _nest.is_nested},
)  # fmt: skip
autodiff = _Namespace("tf.autodiff", {"GradientTape": _e.GradientTape})
data = _DATA
keras = _KERAS
optimizers = _KERAS.optimizers
io, summary = _na.IO, _na.SUMMARY
ragged, sparse = _composite.RAGGED, _composite.SPARSE
RaggedTensor, SparseTensor = _composite.RaggedTensor, _composite.SparseTensor
train = _Namespace(
    "tf.train",
    {"Checkpoint": _ckpt.Checkpoint, "CheckpointManager": _ckpt.CheckpointManager,
     "latest_checkpoint": _ckpt.latest_checkpoint, "load_checkpoint": _ckpt.load_checkpoint,
     "list_variables": _ckpt.list_variables, "CheckpointReader": _ckpt.CheckpointReader},
)  # fmt: skip
saved_model = _saved_model.SAVED_MODEL


def _register(prefix: str, ns: _Namespace) -> None:
    """Make ``from tapeviz.tf.keras import layers`` (and the like) import the namespaces."""
    _sys.modules.setdefault(prefix, ns)  # type: ignore[arg-type]
    for name in ns:
        value = getattr(ns, name)
        if type(value) is _Namespace:
            _register(f"{prefix}.{name}", value)


for _name in ("math", "nn", "linalg", "random", "dtypes", "errors", "nest", "data", "keras",
              "config", "debugging", "autodiff", "train", "saved_model", "io",
              "strings"):  # fmt: skip
    _register(f"{__name__}.{_name}", globals()[_name])
