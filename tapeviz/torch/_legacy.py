"""``torch.FloatTensor``, ``torch.LongTensor`` … : torch's legacy tensor types.

Courses still write ``torch.from_numpy(y).type(torch.LongTensor)``, ``torch.FloatTensor([1, 2])``
and ``isinstance(x, torch.FloatTensor)``. Each is a class whose call makes a tensor of its dtype
(as ``torch.Tensor(...)`` does for the default dtype) and whose ``isinstance`` is true for CPU
tensors of that dtype; ``Tensor.type`` casts to one (``_size.legacy_dtype_name`` reads it).
"""

from __future__ import annotations

from typing import Any

from tapeviz.torch import _dtypes as D
from tapeviz.torch._size import _LEGACY
from tapeviz.torch._tensor import Tensor

__all__ = ["LEGACY_TYPES"]


class _LegacyType(type):
    """The metaclass of the legacy types: call to make, isinstance to check the dtype."""

    _legacy_dtype: str  # (the dtype's name: "int64" for LongTensor)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is D.as_torch(cls._legacy_dtype)

    def __call__(cls, *args: Any) -> Tensor:
        return Tensor(*args, dtype=D.as_torch(cls._legacy_dtype))

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


LEGACY_TYPES: dict[str, type] = {
    name: _LegacyType(name, (), {"_legacy_dtype": dt,
                                 "__doc__": f"torch's legacy {dt} tensor type."})
    for dt, name in _LEGACY.items()
}  # fmt: skip
