"""``torch.optim.Optimizer``: parameter groups, per-parameter state, ``zero_grad`` and ``step``.

An update runs under ``no_grad`` and writes each parameter in place, keeping its engine id
(so the timeline follows one parameter across steps). The arithmetic is numpy in the
parameter's dtype, in the order of torch's single-tensor (CPU) implementation, with the
hyperparameters rounded to that dtype as torch's kernels round them.
"""

from __future__ import annotations

import copy
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch._autograd import enable_grad as _enable_grad
from tapeviz.torch._autograd import no_grad as _no_grad
from tapeviz.torch._tensor import Tensor

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton: a hyperparameter a param group must give (``SGD``'s ``lr`` once was)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj: object) -> str:
    if isinstance(obj, Tensor):
        return str(obj.type())
    cls = type(obj)
    module = cls.__module__ or ""
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


# -- the numpy side of an update ---------------------------------------------------------------


def _value(t: Tensor) -> np.ndarray:
    """A tensor's values (read-only numpy array)."""
    return np.asarray(t._t._value)


def _grad_of(p: Tensor, maximize: bool) -> np.ndarray:
    """``p.grad`` as numpy in ``p``'s dtype (negated to maximize)."""
    g = np.asarray(p._grad._t._value).astype(p._t.dtype.np, copy=False)  # type: ignore[union-attr]
    return -g if maximize else g


def _write(t: Tensor, arr: Any) -> None:
    """Set ``t``'s values in place: the same engine id, name and tensor object."""
    dt = t._t.dtype
    out = np.asarray(arr).astype(dt.np, copy=False)
    t._become(Tensor._wrap(_ETensor(_freeze(np.array(out)), dt)))


def _new_tensor(arr: Any, like: Tensor | None = None, dtype: _D.dtype | None = None) -> Tensor:
    """A new state tensor (``exp_avg``) holding ``arr``, in ``like``'s dtype or ``dtype``."""
    dt = like._t.dtype if like is not None else (dtype or _D.float32)._engine
    return Tensor._wrap(_ETensor(_freeze(np.array(np.asarray(arr).astype(dt.np))), dt))


def _step_count(state: dict[str, Any]) -> float:
    """Add one to ``state['step']`` (a float32 tensor, as torch keeps it) and return it."""
    t = state["step"]
    n = float(_value(t)) + 1.0
    _write(t, np.float32(n))
    return n


def _lerp(start: np.ndarray, end: np.ndarray, weight: Any) -> np.ndarray:
    """Torch's ``lerp`` kernel: the formula depends on whether ``weight < 0.5``."""
    w = start.dtype.type(weight)
    if weight < 0.5:
        return start + w * (end - start)
    return end - (end - start) * (start.dtype.type(1) - w)


# Called with every optimizer made (nn._net_view registers one: which optimizer trains a model).
CREATED_NOTES: list[Callable[[Any], None]] = []


class Optimizer:
    """Base class of the optimizers: ``param_groups``, ``state``, ``zero_grad``, ``step``."""

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got " + _typename(params)
            )
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        for note in CREATED_NOTES:
            note(self)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own hyperparameters (the rest from defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is " + _typename(p)
                )
            if not self.defaults.get("differentiable", None) and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization "
                    f"parameter {name}"
                )
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            diagnostics.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information",
                stacklevel=3,
            )
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if seen & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad`` (to None by default, else to zeros)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        g = p._grad
                        g.detach_() if g.grad_fn is not None else g.requires_grad_(False)
                        g.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        self._opt_called = True  # (what a learning-rate scheduler asks, as torch's does)
        loss = None
        if closure is not None:
            with _enable_grad():
                loss = closure()
        with _no_grad():
            for group in self.param_groups:
                self._update(group)
        return loss

    def _update(self, group: dict[str, Any]) -> None:
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}``."""
        mapping: dict[int, int] = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                mapping.setdefault(id(p), i)
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(mapping[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the state and hyperparameters of ``state_dict`` (from ``state_dict()``)."""
        saved = copy.deepcopy(state_dict["param_groups"])
        if len(saved) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(
            len(g["params"]) != len(s["params"])
            for g, s in zip(self.param_groups, saved, strict=True)
        ):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        ids = dict(
            zip(
                itertools.chain.from_iterable(s["params"] for s in saved),
                itertools.chain.from_iterable(g["params"] for g in self.param_groups),
                strict=True,
            )
        )
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in ids:
                p = ids[k]
                state[p] = {
                    key: (
                        val.to(p.dtype)
                        if isinstance(val, Tensor) and key != "step" and p.dtype.is_floating_point
                        else val
                    )
                    for key, val in v.items()
                }
            else:
                state[k] = v
        for g, s in zip(self.param_groups, saved, strict=True):
            s["params"] = g["params"]
        self.state = state
        self.param_groups = saved

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def _check(ok: bool, what: str, value: Any) -> None:
    """Torch's ``Invalid learning rate: -1`` style ValueError."""
    if not ok:
        raise ValueError(f"Invalid {what}: {value}")


def _params_with_grad(group: dict[str, Any]) -> Iterable[Tensor]:
    """The group's parameters that have a gradient."""
    return [p for p in group["params"] if p._grad is not None]
