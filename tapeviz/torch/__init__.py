"""A PyTorch-compatible namespace over the tapeviz engine: ``import tapeviz.torch as torch``.

Tensors with ``requires_grad``, ``backward()`` and ``.grad`` that accumulates, ``no_grad``,
``torch.autograd.grad``/``Function``, ``torch.nn``, ``torch.optim`` and ``torch.utils.data``,
printing as torch prints. Each ``backward()`` (or ``autograd.grad``) is one engine tape, so the
graph, the backward stepper and the timeline show PyTorch code as they show TensorFlow code,
with the nodes named by ``grad_fn`` (``MulBackward0``). CPU only, numpy underneath.
"""

from __future__ import annotations

from tapeviz.engine.namespace import Namespace as _Namespace
from tapeviz.tf import run_state as _run_state
from tapeviz.torch import _autograd as _ag
from tapeviz.torch import _autograd_api as _api
from tapeviz.torch import _creation as _c
from tapeviz.torch import _dtypes as _d
from tapeviz.torch import _flags, _legacy
from tapeviz.torch import _format as _f
from tapeviz.torch import _functional_ad as _fad
from tapeviz.torch import _methods as _m
from tapeviz.torch import _ops as _o
from tapeviz.torch import _reduce as _r
from tapeviz.torch import _shape as _s
from tapeviz.torch import serialization as _serialization
from tapeviz.torch._size import Size, device
from tapeviz.torch._tensor import Tensor

__version__ = "2.5.0+tapeviz"
__all__ = ["Generator", "Size", "Tensor", "device", "nn", "optim", "utils"]

_m.install()
_run_state.register(
    "tapeviz.torch.printoptions",
    save=_f.get_printoptions,
    restore=lambda saved: _f.set_printoptions(**saved),
    reset=_f.reset_printoptions,
)
_run_state.register_attributes("tapeviz.torch.default_dtype", _d.DEFAULT,
                               lambda: {"value": _d.float32})  # fmt: skip

# -- dtypes ------------------------------------------------------------------------------------
dtype = _d.dtype
float32, float64, float16 = _d.float32, _d.float64, _d.float16
int64, int32, int16, int8, uint8 = _d.int64, _d.int32, _d.int16, _d.int8, _d.uint8
double, half, long, short = _d.float64, _d.float16, _d.int64, _d.int16
promote_types, result_type = _d.promote_types, _d.result_type


def get_default_dtype() -> _d.dtype:
    """The dtype of tensors made from Python floats (``torch.float32``)."""
    return _d.DEFAULT.value


def set_default_dtype(d: _d.dtype) -> None:
    """Make ``d`` (float32 or float64) the dtype of tensors made from Python floats."""
    if not isinstance(d, _d.dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _d.DEFAULT.value = d


def is_tensor(obj: object) -> bool:
    """Whether ``obj`` is a tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> bool:
    """Whether ``input`` has a float dtype."""
    return input.dtype.is_floating_point


def numel(input: Tensor) -> int:
    """The number of elements."""
    return input.numel()


# -- making tensors ------------------------------------------------------------------------------
tensor, as_tensor, from_numpy = _c.tensor, _c.as_tensor, _c.from_numpy
zeros, ones, empty, full = _c.zeros, _c.ones, _c.empty, _c.full
zeros_like, ones_like, empty_like, full_like = (
    _c.zeros_like,
    _c.ones_like,
    _c.empty_like,
    _c.full_like,
)
arange, linspace, logspace, eye = _c.arange, _c.linspace, _c.logspace, _c.eye
rand, randn, randint, randperm, normal = _c.rand, _c.randn, _c.randint, _c.randperm, _c.normal
bernoulli, multinomial = _c.bernoulli, _c.multinomial
manual_seed, seed, initial_seed = _c.manual_seed, _c.seed, _c.initial_seed
Generator = _c.Generator
default_generator = _c.DEFAULT_GENERATOR
globals().update(_legacy.LEGACY_TYPES)  # torch.FloatTensor, torch.LongTensor, ...


def rand_like(input: Tensor, *, dtype: object = None) -> Tensor:
    """Uniform samples shaped like ``input``."""
    return _c.rand(tuple(input.shape), dtype=dtype or input.dtype)


def randn_like(input: Tensor, *, dtype: object = None) -> Tensor:
    """Normal samples shaped like ``input``."""
    return _c.randn(tuple(input.shape), dtype=dtype or input.dtype)


# -- maths -----------------------------------------------------------------------------------------
for _mod in (_o, _r, _s):
    for _name in _m._AS_METHODS[_mod].split():
        globals()[_name] = _m.with_out(getattr(_mod, _name))
multiply, subtract, divide, true_divide = _o.mul, _o.sub, _o.div, _o.div
absolute, arctan2, fmod = _o.abs, _o.atan2, _o.remainder
cat, concat, concatenate, stack = _s.cat, _s.concat, _s.concatenate, _s.stack
einsum, clip = _o.einsum, _o.clamp

# -- autograd ------------------------------------------------------------------------------------
no_grad, enable_grad, set_grad_enabled = _ag.no_grad, _ag.enable_grad, _ag.set_grad_enabled
inference_mode, is_grad_enabled = _ag.inference_mode, _ag.is_grad_enabled
autograd = _Namespace(
    "torch.autograd",
    {"grad": _api.grad, "backward": _api.backward, "Function": _api.Function,
     "no_grad": _ag.no_grad, "enable_grad": _ag.enable_grad,
     "set_grad_enabled": _ag.set_grad_enabled, "function": _Namespace(
         "torch.autograd.function", {"FunctionCtx": _api.FunctionCtx,
                                     "Function": _api.Function}),
     "functional": _Namespace(
         "torch.autograd.functional", {n: getattr(_fad, n) for n in _fad.__all__})},
)  # fmt: skip

# -- devices: one CPU ----------------------------------------------------------------------------


def _false() -> bool:
    return False


def _zero() -> int:
    return 0


def _nothing(*args: object, **kwargs: object) -> None:
    """Accepted and ignored: there is no GPU (torch ignores these without one too)."""


cuda = _Namespace(
    "torch.cuda",
    {"is_available": _false, "device_count": _zero, "is_initialized": _false,
     "manual_seed": _nothing, "manual_seed_all": _nothing, "seed": _nothing,
     "seed_all": _nothing, "empty_cache": _nothing, "synchronize": _nothing},
)  # fmt: skip
mps = _Namespace("torch.mps", {"manual_seed": _nothing, "empty_cache": _nothing,
                               "synchronize": _nothing, "device_count": _zero})  # fmt: skip
# torch 2.6+: device = torch.accelerator.current_accelerator().type if ... .is_available()
accelerator = _Namespace(
    "torch.accelerator",
    {"is_available": _false, "current_accelerator": _nothing, "device_count": _zero},
)  # fmt: skip
backends = _Namespace(
    "torch.backends",
    {"mps": _Namespace("torch.backends.mps", {"is_available": _false, "is_built": _false}),
     "cudnn": _flags.CUDNN},
)  # fmt: skip
use_deterministic_algorithms = _flags.use_deterministic_algorithms
are_deterministic_algorithms_enabled = _flags.are_deterministic_algorithms_enabled

# -- saving: the run's own folder, data only (tapeviz.torch.serialization) --------------------
save, load = _serialization.save, _serialization.load

# -- printing --------------------------------------------------------------------------------------
set_printoptions = _f.set_printoptions

# names that shadow builtins come last: ``float``, ``int``, ``bool`` are torch's dtypes here
globals()["float"], globals()["int"], globals()["bool"] = _d.float32, _d.int32, _d.bool_

# -- the sub-packages, as ``torch.nn`` / ``torch.optim`` / ``torch.utils`` after ``import torch``
from tapeviz.torch import nn, optim, utils  # noqa: E402

# torch's own names for the convolution and pooling functions (torch.nn.functional's)
conv1d, conv2d = nn.functional.conv1d, nn.functional.conv2d
max_pool1d, max_pool2d = nn.functional.max_pool1d, nn.functional.max_pool2d
avg_pool1d, adaptive_avg_pool1d = nn.functional.avg_pool1d, nn.functional.adaptive_avg_pool1d
