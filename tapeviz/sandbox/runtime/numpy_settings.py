"""numpy's print and error settings in a script, kept to the run.

``np.set_printoptions(precision=3, suppress=True)`` changes numpy's print options for the rest
of the run only: they are saved when a run first changes them and put back when it ends
(:mod:`tapeviz.tf.run_state`). ``np.seterr`` needs no such entry: every run is inside the
runner's ``np.errstate`` block, whose end puts numpy's error handling back. ``np.printoptions``
and ``np.errstate`` are ``with`` blocks. Options that would run code (``formatter``) are
refused, and the sizes that decide how long a printed array is are bounded (an array prints at
most the run's output).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapeviz.sandbox.runtime.checks import budget
from tapeviz.tf import run_state

_PRINT = f"{__name__}.printoptions"
_DEFAULT_PRINT = np.get_printoptions()
run_state.register(
    _PRINT, save=np.get_printoptions, restore=lambda saved: np.set_printoptions(**saved),
    reset=lambda: np.set_printoptions(**_DEFAULT_PRINT), lazy=True,
)  # fmt: skip

_COUNTS = {"precision": 100, "edgeitems": 1000, "linewidth": 100_000}
_TEXTS = ("nanstr", "infstr", "sign", "floatmode", "legacy")
_ERR_MODES = ("ignore", "warn", "raise")


def _print_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The options checked: numbers bounded, short strings, no formatter functions."""
    out: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key in _COUNTS:
            if value is not None:
                value = int(value)
                if not 0 <= value <= _COUNTS[key]:
                    raise ValueError(f"np.set_printoptions: {key} must be in 0..{_COUNTS[key]}")
        elif key == "threshold":
            if value is not None:  # np.inf and sys.maxsize print every element
                value = min(float(value), float(budget().limits.max_elements))
                value = int(value)
        elif key == "suppress":
            value = None if value is None else bool(value)
        elif key in _TEXTS:
            if (
                value is not None
                and value is not False
                and (not isinstance(value, str) or len(value) > 20)
            ):
                raise ValueError(f"np.set_printoptions: {key} must be a short string")
        else:
            raise TypeError(f"np.set_printoptions() got an unsupported keyword argument '{key}'")
        out[key] = value
    return out


def set_printoptions(
    precision: Any = None,
    threshold: Any = None,
    edgeitems: Any = None,
    linewidth: Any = None,
    suppress: Any = None,
    **kwargs: Any,
) -> None:
    """``np.set_printoptions``: how arrays print, for the rest of the run."""
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
             "linewidth": linewidth, "suppress": suppress, **kwargs}  # fmt: skip
    options = _print_options({k: v for k, v in given.items() if v is not None})
    run_state.changing(_PRINT)
    np.set_printoptions(**options)


def get_printoptions() -> dict[str, Any]:
    """``np.get_printoptions``: the current print options as a dict."""
    return dict(np.get_printoptions())


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[dict[str, Any]]:
    """``with np.printoptions(precision=2):``: print options for the block."""
    options = _print_options(kwargs)
    run_state.changing(_PRINT)
    saved = np.get_printoptions()
    np.set_printoptions(**options)
    try:
        yield dict(np.get_printoptions())
    finally:
        np.set_printoptions(**saved)


def _err_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    for key, value in kwargs.items():
        if key not in ("all", "divide", "over", "under", "invalid"):
            raise TypeError(f"np.seterr() got an unexpected keyword argument '{key}'")
        if value is not None and value not in _ERR_MODES:
            raise ValueError(f"np.seterr: {key} must be 'ignore', 'warn' or 'raise'")
    return kwargs


def seterr(**kwargs: Any) -> dict[str, str]:
    """``np.seterr``: how floating-point errors are treated, for the rest of the run."""
    return np.seterr(**_err_options(kwargs))


def geterr() -> dict[str, str]:
    """``np.geterr``."""
    return dict(np.geterr())


@contextlib.contextmanager
def errstate(**kwargs: Any) -> Iterator[None]:
    """``with np.errstate(divide='ignore'):``: floating-point error handling for the block."""
    with np.errstate(**_err_options(kwargs)):
        yield


SETTINGS: dict[str, Any] = {
    "set_printoptions": set_printoptions,
    "get_printoptions": get_printoptions,
    "printoptions": printoptions,
    "seterr": seterr,
    "geterr": geterr,
    "errstate": errstate,
}
