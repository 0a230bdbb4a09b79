"""One minus sign in what the class reads: U+2212 (−), as the formulas write it.

The chain rule printed "∂v/∂b = −1 = -1": the formula's minus, then the number's hyphen. The
numbers a view shows go through :func:`minus_signs`; text typed back in is read either way
(the sandbox and the values table take "−" for "-").
"""

from __future__ import annotations

import re

MINUS = "\u2212"
_SIGN = re.compile(r"-(?=[\d.]|inf\b|nan\b)")


def minus_signs(text: str) -> str:
    """``-1.5e-07`` -> ``−1.5e−07``: the hyphens of numbers in ``text`` as minus signs."""
    return _SIGN.sub(MINUS, text) if "-" in text else text


def as_term(text: str) -> str:
    """A number as the operand of ``+`` or ``×``: ``(−1)`` when it is negative."""
    return f"({text})" if text.startswith(MINUS) else text


def parse_number(text: str) -> float:
    """``float`` that also reads the minus sign (raises ValueError like ``float``)."""
    return float(text.replace(MINUS, "-"))
