"""``torch.save`` / ``torch.load`` into the run's own folder, as data (never pickle).

``torch.save(obj, path)`` keeps ``obj`` as JSON-able structure plus numpy arrays in the run's
folder (:mod:`tapeviz.tf.run_files`: in memory, for the run only): tensors (their dtype, and
``requires_grad`` and ``Parameter`` for leaves), dicts (``OrderedDict`` too), lists, tuples,
numbers, strings, ``None``, numpy arrays, ``torch.Size``, dtypes and devices, nested as
``state_dict()`` and ``optimizer.state_dict()`` nest them, so the usual checkpoint
``{"epoch": e, "model_state_dict": ..., "optimizer_state_dict": ..., "loss": loss}`` round
trips and ``torch.load`` gives new tensors with the saved values.

A whole ``nn.Module`` (``torch.save(model, PATH)``), which torch pickles, is kept by reference
with a copy of its ``state_dict``: ``torch.load(PATH, weights_only=False)`` gives back that
same module object with its parameters and buffers set to the values they had when saved.
``weights_only=True`` refuses it, as torch does. Any other object is refused with a message
that suggests ``state_dict()``.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from tapeviz.tf import run_files
from tapeviz.torch import _dtypes as D
from tapeviz.torch._creation import _leaf
from tapeviz.torch._size import Size, device
from tapeviz.torch._tensor import Tensor

__all__ = ["load", "save"]

_DEPTH = 100


class _Encoder:
    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}
        self.modules: list[Any] = []

    def array(self, value: np.ndarray) -> str:
        key = str(len(self.arrays))
        self.arrays[key] = np.asarray(value)
        return key

    def encode(self, obj: Any, depth: int = 0) -> Any:
        if depth > _DEPTH:
            raise ValueError("torch.save: the object is nested too deeply")
        if obj is None or isinstance(obj, bool | int | float | str):
            return obj
        if isinstance(obj, Tensor):
            from tapeviz.torch.nn.parameter import Parameter

            value = np.asarray(obj._c.t._value)
            return {"__tensor__": self.array(value), "dtype": obj.dtype._name,
                    "requires_grad": bool(obj.requires_grad),
                    "parameter": isinstance(obj, Parameter)}  # fmt: skip
        if isinstance(obj, np.ndarray):
            return {"__ndarray__": self.array(obj)}
        if isinstance(obj, np.generic):
            return obj.item()
        if isinstance(obj, Size):
            return {"__size__": list(obj)}
        if isinstance(obj, D.dtype):
            return {"__dtype__": obj._name}
        if isinstance(obj, device):
            return {"__device__": str(obj)}
        if isinstance(obj, dict):
            kind = "odict" if isinstance(obj, OrderedDict) else "dict"
            items = [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in obj.items()]
            return {f"__{kind}__": items}
        if isinstance(obj, tuple):
            return {"__tuple__": [self.encode(v, depth + 1) for v in obj]}
        if isinstance(obj, list):
            return [self.encode(v, depth + 1) for v in obj]
        from tapeviz.torch.nn.module import Module

        if isinstance(obj, Module):
            self.modules.append(obj)
            state = self.encode(obj.state_dict(), depth + 1)
            return {"__module__": len(self.modules) - 1, "state": state}
        raise TypeError(
            f"torch.save in tapeviz saves data only (tensors, dicts, lists, numbers, strings, "
            f"modules): it cannot save a {type(obj).__name__}; save its state_dict() instead"
        )


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:  # fmt: skip
    """Save ``obj`` (tensors, state dicts, ...) at ``f`` in the run's own folder."""
    enc = _Encoder()
    data = enc.encode(obj)
    extra = sum(int(p.numel()) * 4 for m in enc.modules for p in m.parameters())
    run_files.write(f, "torch", {"data": data}, enc.arrays, live=enc.modules or None,
                    extra_bytes=extra)  # fmt: skip


class _Decoder:
    def __init__(self, arrays: Any, modules: list[Any], weights_only: bool) -> None:
        self.arrays, self.modules, self.weights_only = arrays, modules, weights_only

    def decode(self, data: Any) -> Any:
        if data is None or isinstance(data, bool | int | float | str):
            return data
        if isinstance(data, list):
            return [self.decode(v) for v in data]
        if "__tensor__" in data:
            return self.tensor(data)
        if "__ndarray__" in data:
            return np.array(self.arrays[data["__ndarray__"]])
        if "__size__" in data:
            return Size(data["__size__"])
        if "__dtype__" in data:
            return D._by_name(data["__dtype__"])
        if "__device__" in data:
            return device(data["__device__"])
        if "__tuple__" in data:
            return tuple(self.decode(v) for v in data["__tuple__"])
        for kind, made in (("__dict__", dict), ("__odict__", OrderedDict)):
            if kind in data:
                return made((_key(self.decode(k)), self.decode(v)) for k, v in data[kind])
        if "__module__" in data:
            return self.module(data)
        raise ValueError("torch.load: the file is not one torch.save wrote")

    def tensor(self, data: dict[str, Any]) -> Tensor:
        value = np.array(self.arrays[data["__tensor__"]])
        t = _leaf(value, D.as_torch(value.dtype), False)
        if data.get("parameter"):
            from tapeviz.torch.nn.parameter import Parameter

            return Parameter(t, requires_grad=bool(data.get("requires_grad")))
        if data.get("requires_grad"):
            t.requires_grad_(True)
        return t

    def module(self, data: dict[str, Any]) -> Any:
        module = self.modules[data["__module__"]]
        if self.weights_only:
            name = f"{type(module).__module__}.{type(module).__name__}"
            raise RuntimeError(
                "Weights only load failed. This file can still be loaded, to do so you have "
                "two options, do those steps only if you trust the source of the checkpoint. "
                "(1) Re-running `torch.load` with `weights_only` set to `False` will likely "
                "succeed, but it can result in arbitrary code execution. (2) Alternatively, "
                "load with `weights_only=True` the model's state_dict() saved with "
                f"torch.save(model.state_dict(), PATH). WeightsUnpickler error: Unsupported "
                f"global: GLOBAL {name}"
            )
        module.load_state_dict(self.decode(data["state"]))
        return module


def _key(value: Any) -> Any:
    return value if not isinstance(value, list) else tuple(value)


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: Any = None, **kwargs: Any) -> Any:  # fmt: skip
    """What ``torch.save`` saved at ``f``: new tensors with the saved values (see the module)."""
    found = run_files.read(f)
    if found is None:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{run_files.fspath(f)}'")
    if found.kind != "torch":
        raise RuntimeError(
            f"Invalid magic number; corrupt file? ('{run_files.fspath(f)}' was not written by "
            "torch.save)"
        )
    decoder = _Decoder(found.arrays, list(found.live or []), bool(weights_only))
    return decoder.decode(found.config["data"])
