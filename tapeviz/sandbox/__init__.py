"""Run user text safely: typed expressions and pasted TensorFlow scripts.

``run(source, mode="script"|"expression", variables=..., limits=Limits())`` returns a frozen
:class:`RunResult`; an exception never escapes it. Scripts are parsed, checked against an
allow-list and compiled to closures by our own interpreter: nothing is passed to ``eval`` or
``exec``, and the script can reach only the names and attributes :mod:`policy` allows.
"""

from __future__ import annotations

from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.language.expression import CompiledExpression, compile_expression
from tapeviz.sandbox.language.validate import Invalid
from tapeviz.sandbox.runner import RunResult, TapeInfo, run
from tapeviz.sandbox.runtime.limits import CancelToken, Limits
from tapeviz.sandbox.variables import VariableSpec

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
