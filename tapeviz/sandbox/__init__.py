"""Run user text safely: typed expressions and pasted TensorFlow scripts.

``run(source, mode="script"|"expression", variables=..., limits=Limits())`` returns a frozen
:class:`RunResult`; an exception never escapes it. Scripts are parsed, checked against an
allow-list and compiled to closures by our own interpreter: nothing is passed to ``eval`` or
``exec``, and the script can reach only the names and attributes :mod:`policy` allows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tapeviz.sandbox import note_texts as _note_texts  # noqa: F401  (registers the notes)
from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.result import RunResult, TapeInfo
from tapeviz.sandbox.runtime.limits import CancelToken, Limits
from tapeviz.sandbox.variables import VariableSpec

if TYPE_CHECKING:
    from tapeviz.sandbox.language.expression import CompiledExpression, compile_expression
    from tapeviz.sandbox.language.validate import Invalid
    from tapeviz.sandbox.runner import run

# The interpreter (and with it tapeviz.tf) loads when first used: the window only reads
# results from its worker process, and starts faster without it.
_LAZY = {
    "CompiledExpression": "tapeviz.sandbox.language.expression",
    "compile_expression": "tapeviz.sandbox.language.expression",
    "Invalid": "tapeviz.sandbox.language.validate",
    "run": "tapeviz.sandbox.runner",
}


def __getattr__(name: str) -> Any:
    """Import the interpreter's names on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CancelToken",
    "CompiledExpression",
    "Invalid",
    "Limits",
    "RunResult",
    "TapeInfo",
    "UserCodeError",
    "VariableSpec",
    "compile_expression",
    "run",
]
