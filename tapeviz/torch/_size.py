"""``torch.Size`` and the legacy type names (``torch.FloatTensor``) torch's messages use."""

from __future__ import annotations

from typing import Any

_LEGACY = {
    "float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
    "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor",
    "uint8": "ByteTensor", "bool": "BoolTensor",
}  # fmt: skip


class Size(tuple):
    """A tensor's shape: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def numel(self) -> int:
        """The number of elements a tensor of this shape has."""
        n = 1
        for d in self:
            n *= d
        return n

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def __getitem__(self, key: Any) -> Any:
        got = tuple.__getitem__(self, key)
        return Size(got) if isinstance(key, slice) else got

    def __add__(self, other: Any) -> Size:
        return Size(tuple(self) + tuple(other))


class device:  # noqa: N801  (torch's spelling)
    """``torch.device('cpu')``: tapeviz computes on the CPU only ('cuda' reads as unavailable)."""

    def __init__(self, type: str = "cpu", index: object = None) -> None:
        text = str(type)
        self.type = text.split(":")[0]
        self.index = index

    def __repr__(self) -> str:
        return f"device(type='{self.type}')"

    def __str__(self) -> str:
        return self.type

    def __eq__(self, other: object) -> bool:
        return str(other) == self.type

    def __hash__(self) -> int:
        return hash(self.type)


CPU = device("cpu")


def type_name(t: Any) -> str:
    """``torch.FloatTensor`` for a float32 tensor (what ``t.type()`` gives)."""
    return "torch." + _LEGACY[t._t.dtype.name if t._t.dtype.name != "bool" else "bool"]


def legacy_dtype_name(target: Any) -> str | None:
    """The dtype name a legacy type (or its name, ``"torch.LongTensor"``) stands for; else None."""
    if isinstance(target, type):
        return getattr(target, "_legacy_dtype", None)
    if isinstance(target, str):
        for dt, name in _LEGACY.items():
            if target.removeprefix("torch.") == name:
                return dt
        raise ValueError(f"invalid type: '{target}'")
    return None
