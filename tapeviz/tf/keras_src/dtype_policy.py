"""Keras 3's ``DTypePolicy``: the dtype a layer computes in and keeps its weights in.

A layer's ``dtype`` argument (``"float32"``, ``tf.float64``, a policy, or a policy's
serialized dict) becomes a policy; ``layer.get_config()["dtype"]`` is the policy serialized as
Keras 3 does it: ``{'module': 'keras', 'class_name': 'DTypePolicy', 'config': {'name':
'float32'}, 'registered_name': None}``. tapeviz computes in one dtype per layer, so the mixed
policies (``"mixed_float16"``) are refused.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import dtypes
from tapeviz.tf.keras_src import backend

__all__ = ["DTypePolicy", "get", "serialize"]

_CLASS_NAMES = ("DTypePolicy", "FloatDTypePolicy")


class DTypePolicy:
    """The dtype of a layer's computations and weights (one dtype: ``"float32"``...)."""

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = backend.floatx()
        if not isinstance(name, str):
            raise TypeError(
                "'name' must be a string, such as 'mixed_float16'. "
                f"Received: name={name} (of type {type(name)})"
            )
        if name in ("mixed_float16", "mixed_bfloat16"):
            raise ValueError(
                f"The mixed precision policy '{name}' is not available in tapeviz (a layer "
                "computes in one dtype); use 'float32'."
            )
        try:
            self._name = dtypes.as_dtype(name).name
        except (TypeError, ValueError, KeyError):
            raise ValueError(
                f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies "
                "include 'mixed_float16', 'mixed_bfloat16', and the name of any float dtype "
                "such as 'float32'."
            ) from None

    @property
    def name(self) -> str:
        """The policy's name (the dtype's name)."""
        return self._name

    @property
    def compute_dtype(self) -> str:
        """The dtype computations run in."""
        return self._name

    @property
    def variable_dtype(self) -> str:
        """The dtype of the weights."""
        return self._name

    @property
    def quantization_mode(self) -> None:
        """Always ``None`` (no quantization)."""
        return None

    def get_config(self) -> dict[str, Any]:
        """``{"name": ...}``."""
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> DTypePolicy:
        """A policy from ``get_config()``'s output."""
        return cls(**config)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DTypePolicy) and other._name == self._name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f'<DTypePolicy "{self._name}">'


def serialize(policy: DTypePolicy) -> dict[str, Any]:
    """Keras 3's ``serialize_keras_object`` of a policy."""
    return {
        "module": "keras",
        "class_name": "DTypePolicy",
        "config": policy.get_config(),
        "registered_name": None,
    }


def get(identifier: Any) -> DTypePolicy:
    """Keras' ``dtype_policies.get``: ``None`` (floatx), a name, a dtype, a policy or a dict."""
    if identifier is None:
        return DTypePolicy(backend.floatx())
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        if identifier.get("class_name") not in _CLASS_NAMES:
            raise ValueError(f"Cannot interpret `dtype` argument. Received: dtype={identifier}")
        return DTypePolicy.from_config(dict(identifier.get("config") or {}))
    if isinstance(identifier, str):
        return DTypePolicy(identifier)
    try:
        name = dtypes.as_dtype(getattr(identifier, "name", identifier)).name
    except (TypeError, ValueError, KeyError):
        raise ValueError(
            "Cannot interpret `dtype` argument. Expected a string or an instance of "
            f"DTypePolicy. Received: dtype={identifier}"
        ) from None
    return DTypePolicy(name)
