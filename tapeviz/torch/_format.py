"""Print tensors exactly as PyTorch 2.x does: a numpy port of ``torch/_tensor_str.py``.

``tensor_repr(values, dtype)`` gives what ``repr(t)`` / ``print(t)`` shows for a CPU tensor of that
dtype, following ``_Formatter``, ``_tensor_str``, ``_vector_str``, ``get_summarized_data``,
``_str_intern`` and ``_add_suffixes`` step by step (including their quirks: the summarised data
decides the element width, a tensor with no nonzero finite value ignores ``sci_mode``, and the
suffix wrap counts the first line two characters long). Print options are module-wide, as in torch.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

__all__ = [
    "get_printoptions",
    "printoptions",
    "reset_printoptions",
    "set_printoptions",
    "tensor_repr",
    "tensor_str",
]


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_OPTS = _PrintOptions()

# torch dtype name -> numpy dtype that holds its values (bfloat16 and complex32 are rounded to
# their precision and kept in float32 / complex64).
_NUMPY_DTYPES: dict[str, Any] = {
    "float16": np.float16,
    "bfloat16": np.float32,
    "float32": np.float32,
    "float64": np.float64,
    "complex32": np.complex64,
    "complex64": np.complex64,
    "complex128": np.complex128,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "bool": np.bool_,
}
# Other names torch accepts; str(torch.float) is "torch.float32", so repr shows the canonical one.
_ALIASES = {
    "half": "float16",
    "float": "float32",
    "double": "float64",
    "chalf": "complex32",
    "cfloat": "complex64",
    "cdouble": "complex128",
    "short": "int16",
    "int": "int32",
    "long": "int64",
}
_DEFAULT_DTYPE = "float32"
# Dtypes repr leaves implicit for a non-empty tensor: the default float, its complex, int64, bool.
_IMPLICIT_DTYPES = frozenset({"float32", "complex64", "int64", "bool"})


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set the print options, with the semantics of ``torch.set_printoptions``."""
    if profile is not None:
        if profile == "default":
            _OPTS.precision, _OPTS.threshold, _OPTS.edgeitems = 4, 1000, 3
            _OPTS.linewidth = 80
        elif profile == "short":
            _OPTS.precision, _OPTS.threshold, _OPTS.edgeitems = 2, 1000, 2
            _OPTS.linewidth = 80
        elif profile == "full":
            _OPTS.precision, _OPTS.threshold, _OPTS.edgeitems = 4, math.inf, 3
            _OPTS.linewidth = 80
    if precision is not None:
        _OPTS.precision = precision
    if threshold is not None:
        _OPTS.threshold = threshold
    if edgeitems is not None:
        _OPTS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTS.linewidth = linewidth
    # As in torch: sci_mode is always assigned, so omitting it goes back to automatic.
    _OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current print options as a dict that ``set_printoptions(**d)`` accepts."""
    return dataclasses.asdict(_OPTS)


def reset_printoptions() -> None:
    """Restore torch's default print options (precision 4, threshold 1000, ...)."""
    set_printoptions(**dataclasses.asdict(_PrintOptions()))


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Change the print options inside a ``with`` block, like ``torch._tensor_str.printoptions``."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


def _dtype_name(dtype: str) -> str:
    name = dtype.removeprefix("torch.")
    name = _ALIASES.get(name, name)
    if name not in _NUMPY_DTYPES:
        raise ValueError(f"cannot print a tensor of dtype {dtype!r}")
    return name


def _as_dtype(values: Any, name: str) -> np.ndarray:
    """The tensor's values held exactly as the torch dtype would hold them."""
    with np.errstate(over="ignore", invalid="ignore"):  # 7e4 -> inf in float16, as in torch
        return _cast(np.asarray(values), name)


def _cast(arr: np.ndarray, name: str) -> np.ndarray:
    if name == "bfloat16":
        # Round to nearest even on the top 16 bits of the float32 (NaN stays NaN).
        f32 = arr.astype(np.float32)
        bits = f32.view(np.uint32).astype(np.uint64)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        rounded = bits.astype(np.uint32).view(np.float32)
        return np.where(np.isnan(f32), f32, rounded)
    if name == "complex32":
        out = arr.astype(np.complex64)  # a copy: its parts get rounded in place
        out.real, out.imag = out.real.astype(np.float16), out.imag.astype(np.float16)
        return out
    return arr.astype(_NUMPY_DTYPES[name], copy=False)


class _Formatter:
    """``torch._tensor_str._Formatter``: one width and one style for every element."""

    def __init__(self, values: np.ndarray) -> None:
        self.floating_dtype = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating_dtype:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return
        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            return  # no valid number: torch returns before looking at sci_mode
        finite_abs = np.abs(nonzero_finite).astype(np.float64)
        lo, hi = float(finite_abs.min()), float(finite_abs.max())
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        if _OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = bool(_OPTS.sci_mode)
        precision = _OPTS.precision
        for value in nonzero_finite.tolist():
            if self.sci_mode:
                width = len(f"{value:.{precision}e}")
            elif self.int_mode:
                width = len(f"{value:.0f}") + 1  # the "." appended to integral floats
            else:
                width = len(f"{value:.{precision}f}")
            self.max_width = max(self.max_width, width)

    def width(self) -> int:
        """The width every formatted element is padded to."""
        return self.max_width

    def format(self, value: float | int | bool) -> str:
        """One element, right-aligned to the common width."""
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{_OPTS.precision}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{_OPTS.precision}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _complex_str(real_str: str, imag_str: str) -> str:
    imag_str = (imag_str + "j").lstrip()
    # handles negative numbers, +0.0, -0.0
    if imag_str[0] in "+-":
        return real_str + imag_str
    return real_str + "+" + imag_str


def _val_str(val: Any, fmt1: _Formatter, fmt2: _Formatter | None) -> str:
    if fmt2 is None:
        return fmt1.format(val)
    return _complex_str(fmt1.format(val.real), fmt2.format(val.imag))


def _vector_str(
    values: np.ndarray, indent: int, summarize: bool, fmt1: _Formatter, fmt2: _Formatter | None
) -> str:
    # length includes spaces and comma between elements
    element_length = fmt1.width() + 2
    if fmt2 is not None:
        element_length += fmt2.width() + 1  # the imaginary part and its "j"
    per_line = max(1, math.floor((_OPTS.linewidth - indent) / element_length))
    edge = _OPTS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and values.shape[0] > 2 * edge:
        data = (
            [_val_str(v, fmt1, fmt2) for v in values[:edge].tolist()]
            + [" ..."]
            + [_val_str(v, fmt1, fmt2) for v in values[-edge:].tolist()]
        )
    else:
        data = [_val_str(v, fmt1, fmt2) for v in values.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(
    values: np.ndarray, indent: int, summarize: bool, fmt1: _Formatter, fmt2: _Formatter | None
) -> str:
    dim = values.ndim
    if dim == 0:
        return _val_str(values.item(), fmt1, fmt2)
    if dim == 1:
        return _vector_str(values, indent, summarize, fmt1, fmt2)
    edge = _OPTS.edgeitems
    if summarize and values.shape[0] > 2 * edge:
        rows = [*range(edge), None, *range(values.shape[0] - edge, values.shape[0])]
    else:
        rows = list(range(values.shape[0]))
    slices = [
        "..."
        if i is None
        else _tensor_str_with_formatter(values[i], indent + 1, summarize, fmt1, fmt2)
        for i in rows
    ]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized_data(values: np.ndarray) -> np.ndarray:
    """``get_summarized_data``: only the elements a summarised print shows."""
    edge = _OPTS.edgeitems
    if values.ndim == 0:
        return values
    if values.ndim == 1:
        if values.shape[0] > 2 * edge:
            # values[-0:] is the whole vector, in torch as in numpy.
            return np.concatenate((values[:edge], values[-edge:]))
        return values
    if not edge:
        return np.empty((0,) * values.ndim, dtype=values.dtype)
    if values.shape[0] > 2 * edge:
        rows = [values[i] for i in range(edge)]
        rows += [values[i] for i in range(values.shape[0] - edge, values.shape[0])]
    else:
        rows = list(values)
    return np.stack([_summarized_data(row) for row in rows])


def _tensor_str(values: np.ndarray, indent: int) -> str:
    if values.size == 0:
        return "[]"
    summarize = values.size > _OPTS.threshold
    shown = _summarized_data(values) if summarize else values
    if values.dtype.kind == "c":
        real, imag = _Formatter(shown.real), _Formatter(shown.imag)
        return _tensor_str_with_formatter(values, indent, summarize, real, imag)
    return _tensor_str_with_formatter(values, indent, summarize, _Formatter(shown), None)


def _add_suffixes(tensor_str: str, suffixes: Sequence[str], indent: int) -> str:
    """``_add_suffixes`` (never forced to a new line: that is for sparse tensors only)."""
    parts = [tensor_str]
    # torch's arithmetic: without a newline rfind is -1, so the line counts two characters long.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > _OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(
    values: np.ndarray,
    dtype: str,
    *,
    suffixes: Sequence[str] = (),
    size_hint: bool = True,
) -> str:
    """What ``repr(t)`` prints for a CPU tensor holding ``values`` with torch dtype ``dtype``.

    ``suffixes`` are already formatted (``"requires_grad=True"``, ``"grad_fn=<MulBackward0>"``)
    and follow the ``dtype=`` suffix. ``size_hint=False`` leaves out the ``size=(0, 3)`` that
    torch shows for an empty tensor whose shape is not ``(0,)``.
    """
    name = _dtype_name(dtype)
    arr = _as_dtype(values, name)
    prefix = "tensor("
    indent = len(prefix)
    extra: list[str] = []
    if arr.size == 0:
        # Explicitly print the shape if it is not (0,), to match NumPy behavior
        if arr.ndim != 1 and size_hint:
            extra.append("size=" + str(tuple(int(n) for n in arr.shape)))
        # An empty tensor has no elements to tell its dtype by: only the default float is implicit.
        if name != _DEFAULT_DTYPE:
            extra.append(f"dtype=torch.{name}")
        body = "[]"
    else:
        if name not in _IMPLICIT_DTYPES:
            extra.append(f"dtype=torch.{name}")
        body = _tensor_str(arr, indent)
    return _add_suffixes(prefix + body, [*extra, *suffixes], indent)


def tensor_str(values: np.ndarray, dtype: str) -> str:
    """What ``str(t)`` prints: the same as ``repr(t)`` in torch."""
    return tensor_repr(values, dtype)
