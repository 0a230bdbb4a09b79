"""``np.testing`` in a script: numpy's array assertions on checked numeric operands.

Keras' and TensorFlow's guides check a reloaded model with ``np.testing.assert_allclose(
model.predict(x), reloaded.predict(x))``. Each assertion here converts its operands as every
numpy call in a script does (tensors become arrays, text and objects are refused) and raises
numpy's own ``AssertionError``; ``err_msg`` must be text within the size limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime.checks import check_text
from tapeviz.sandbox.runtime.numpy_core import as_array

__all__ = ["TESTING"]


def _message(err_msg: Any) -> str:
    if not isinstance(err_msg, str):
        raise TypeError("err_msg must be a string")
    check_text(err_msg, "err_msg")
    return err_msg


def _asserting(fn: Callable[..., Any], numbers: tuple[str, ...]) -> Callable[..., Any]:
    """``np.testing.<fn>(actual, desired, ...)`` with checked operands and number options."""

    def check(actual: Any, desired: Any, *args: Any, err_msg: Any = "", **kwargs: Any) -> None:
        if args:
            raise TypeError(f"np.testing.{fn.__name__}: give {', '.join(numbers)} by keyword")
        options = {}
        for name, value in kwargs.items():
            if name == "verbose":
                options[name] = bool(value)
            elif name in numbers and isinstance(value, int | float | np.number):
                options[name] = value
            else:
                raise TypeError(f"np.testing.{fn.__name__}() got an unexpected argument {name!r}")
        fn(as_array(actual), as_array(desired), err_msg=_message(err_msg), **options)

    check.__name__ = check.__qualname__ = fn.__name__
    check.__doc__ = f"numpy.testing.{fn.__name__} on numeric operands."
    return check


TESTING = Namespace(
    "numpy.testing",
    {
        "assert_allclose": _asserting(np.testing.assert_allclose, ("rtol", "atol", "equal_nan")),
        "assert_array_equal": _asserting(np.testing.assert_array_equal, ("strict",)),
        "assert_equal": _asserting(np.testing.assert_equal, ()),
        "assert_array_almost_equal": _asserting(np.testing.assert_array_almost_equal,
                                                ("decimal",)),
        "assert_almost_equal": _asserting(np.testing.assert_almost_equal, ("decimal",)),
        "assert_array_less": _asserting(np.testing.assert_array_less, ()),
    },
)  # fmt: skip
