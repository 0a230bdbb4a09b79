"""numpy's index tricks in a script: ``np.r_``, ``np.c_``, ``np.mgrid``, ``np.ogrid``, ``np.s_``.

Each looks at its key first (how long each slice's range is, what each item holds, which
directive a leading string gives) and refuses results over the run's size limit before numpy
makes them; numpy then builds the result as it documents.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.numpy_core import as_array, check_result, check_size

_NUMBER = (int, float, complex, np.integer, np.floating, np.complexfloating)


def _number(value: Any, default: Any) -> Any:
    """A slice's start, stop or step: a number (a 0-d tensor or array becomes one)."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, _NUMBER):
        arr = as_array(value)
        if np.ndim(arr) != 0:
            raise TypeError("slice indices in numpy's index tricks must be numbers")
        value = arr.item() if isinstance(arr, np.ndarray | np.generic) else arr
    return value


def slice_length(item: slice) -> int:
    """How many values numpy makes of ``start:stop:step`` (a complex step is a count)."""
    step = _number(item.step, 1)
    if isinstance(step, complex | np.complexfloating):
        return int(abs(step))
    start, stop = _number(item.start, 0), _number(item.stop, None)
    if stop is None:
        raise TypeError("a slice in numpy's index tricks needs a stop")
    if step == 0:
        raise ZeroDivisionError("division by zero")  # (numpy's own error)
    n = math.ceil((stop - start) / step)  # a nan or an infinity raises ValueError here
    return max(n, 0)


def _slice_of_numbers(item: slice) -> slice:
    return slice(_number(item.start, None), _number(item.stop, None), _number(item.step, None))


class AxisConcatenator:
    """``np.r_`` and ``np.c_``: join arrays, scalars and ranges along an axis."""

    def __init__(self, real: Any, name: str) -> None:
        self._real, self._name = real, name

    def __getitem__(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        out: list[Any] = []
        total = 0
        for k, item in enumerate(items):
            if isinstance(item, slice):
                total += slice_length(item)
                out.append(_slice_of_numbers(item))
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):  # numpy makes an np.matrix of them
                    raise refused(say("not_in_tapeviz", name=f"np.{self._name}['{item}']"))
                if len(item) > 100:
                    raise ValueError(f"unknown special directive {item[:20]!r}...")
                out.append(item)
            else:
                arr = as_array(item)
                total += int(np.size(arr))
                out.append(arr)
            check_size(total, f"np.{self._name}[...]")
        return check_result(self._real[tuple(out)])

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"<numpy.lib._index_tricks_impl.{type(self._real).__name__} object>"


class GridMaker:
    """``np.mgrid`` and ``np.ogrid``: dense or open grids of ranges (``-1:1:100j``)."""

    def __init__(self, real: Any, name: str, dense: bool) -> None:
        self._real, self._name, self._dense = real, name, dense

    def __getitem__(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        if not all(isinstance(item, slice) for item in items):
            raise TypeError(f"np.{self._name} takes slices (start:stop:step)")
        lengths = [slice_length(item) for item in items]
        if self._dense:
            count = math.prod(lengths) * (len(items) if isinstance(key, tuple) else 1)
        else:
            count = sum(lengths)
        check_size(count, f"np.{self._name}[...]")
        fixed = tuple(_slice_of_numbers(item) for item in items)
        return check_result(self._real[fixed if isinstance(key, tuple) else fixed[0]])

    def __repr__(self) -> str:
        return f"<numpy.lib._index_tricks_impl.{type(self._real).__name__} object>"


class IndexExpression:
    """``np.s_``: the index it is given (``np.s_[1:3]`` is ``slice(1, 3, None)``)."""

    def __getitem__(self, key: Any) -> Any:
        return key

    def __repr__(self) -> str:
        return "<numpy.lib._index_tricks_impl.IndexExpression object>"


INDEX_TRICKS: dict[str, Any] = {
    "r_": AxisConcatenator(np.r_, "r_"),
    "c_": AxisConcatenator(np.c_, "c_"),
    "mgrid": GridMaker(np.mgrid, "mgrid", dense=True),
    "ogrid": GridMaker(np.ogrid, "ogrid", dense=False),
    "s_": IndexExpression(),
}
