"""Strings built from templates: ``str.format``, ``%`` and f-strings, sized before they are built.

A template can name one argument many times (``('{0}' * 1000).format(s)``, ``'%(a)s' * 1000 %
d``, ``f'{s}{s}{s}'``), so checking the arguments' sizes once is not enough: the result's length
is the literal text plus every field's text, each time it is used. ``str.format`` is run here
field by field (each distinct field formatted once, the total checked as it grows, the same
formatting as f-strings); ``%`` is sized from its conversions before C code runs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from tapeviz.engine.reprs import without_addresses
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import (
    _FORMATTER,
    _width_limit,
    budget,
    check_format_spec,
    check_format_string,
    check_text,
    text_size,
)

CONVERSIONS: dict[str, Callable[[Any], str]] = {"s": str, "r": repr, "a": ascii}


def check_length(count: int, what: str) -> None:
    """Refuse a string of ``count`` characters if that is over the run's size limit."""
    b = budget()
    cap = b.limits.max_elements
    if count > cap:
        message = say("text_length", what=what, count=f"{count:,}", cap=f"{cap:,}")
        raise b.trip(limit_hit("size", message))


def format_field(value: Any, conversion: str | None, spec: str, what: str) -> str:
    """One replacement field of an f-string or a ``str.format`` template, checked first."""
    check_text(value, what)
    if conversion is not None:
        convert = CONVERSIONS.get(conversion)
        if convert is None:
            raise ValueError(f"Unknown conversion specifier {conversion}")
        value = convert(value)
    if spec:
        check_format_spec(spec)
        return without_addresses(format(value, spec))
    return without_addresses(format(value))  # (a script object's default repr)


def format_string(template: str, *args: Any, **kwargs: Any) -> str:
    """``template.format(*args, **kwargs)``, refused before it grows over the size limit."""
    check_format_string(template)
    cap = budget().limits.max_elements
    parts: list[str] = []
    total = 0
    auto = 0
    numbering = ""  # "auto" or "manual" once the first field decides
    done: dict[tuple[int | str, str | None, str], str] = {}
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        if literal:
            parts.append(literal)
            total += len(literal)
        if field is None:
            continue
        key: int | str
        if field == "":
            if numbering == "manual":
                raise ValueError(
                    "cannot switch from manual field specification to automatic field numbering"
                )
            numbering, key, auto = "auto", auto, auto + 1
        elif field.isdecimal():
            if numbering == "auto":
                raise ValueError(
                    "cannot switch from automatic field numbering to manual field specification"
                )
            numbering, key = "manual", int(field)
        else:
            key = field
        memo = (key, conversion, spec)
        text = done.get(memo)
        if text is None:
            text = done[memo] = format_field(
                _argument(key, args, kwargs), conversion, spec, "the formatted values"
            )
        total += len(text)
        if total > cap:
            check_length(total, "the formatted string")
        parts.append(text)
    return "".join(parts)


def _argument(key: int | str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if isinstance(key, int):
        if key >= len(args):
            raise IndexError(f"Replacement index {key} out of range for positional args tuple")
        return args[key]
    if key not in kwargs:
        raise KeyError(key)
    return kwargs[key]


def joined(parts: list[Callable[[Any], Any]], frame: Any) -> str:
    """An f-string's parts joined, refusing it once its length passes the size limit."""
    cap = budget().limits.max_elements
    out: list[str] = []
    total = 0
    for part in parts:
        text = part(frame)
        if type(text) is not str:
            text = str(text)
        total += len(text)
        if total > cap:
            check_length(total, "the f-string")
        out.append(text)
    return "".join(out)


# -- % formatting ---------------------------------------------------------------------------
class Conversion(NamedTuple):
    """One ``%`` conversion of a template: its mapping key, width, precision, type, length."""

    key: str | None
    width: str
    precision: str
    kind: str
    length: int


def percent_specs(text: str) -> Iterator[Conversion]:
    """Each ``%`` conversion of ``text`` (``%(key)`` with nested parens; ``%%`` is text)."""
    i, n = 0, len(text)
    while i < n:
        i = text.find("%", i)
        if i < 0 or i + 1 >= n:
            return
        begin = i
        i += 1
        if text[i] == "%":
            i += 1
            continue
        key = None
        if text[i] == "(":
            depth, start = 0, i + 1
            while i < n:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
                if depth == 0:
                    break
            key = text[start : i - 1]
        while i < n and text[i] in "-+ #0":
            i += 1
        start = i
        while i < n and (text[i].isdigit() or text[i] == "*"):
            i += 1
        width = text[start:i]
        precision = ""
        if i < n and text[i] == ".":
            i += 1
            start = i
            while i < n and (text[i].isdigit() or text[i] == "*"):
                i += 1
            precision = text[start:i]
        kind = text[i] if i < n else ""
        i += 1
        yield Conversion(key, width, precision, kind, i - begin)


_POSITIONAL = re.compile(r"%[-+ #0]*([\d*]*)(?:\.([\d*]*))?")


def _value_size(value: Any, kind: str, cap: int) -> int:
    if kind == "s" and isinstance(value, str | bytes):
        return len(value)
    return text_size(value, cap)


def check_percent(fmt: str | bytes, args: Any) -> None:
    """``fmt % args``: refuse ``*`` widths, and a result over the size limit before C builds it.

    Each conversion adds its value's text (a mapping's value each time its key is named) and
    its width or precision, whichever is larger.
    """
    text = fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt
    cap = budget().limits.max_elements
    mapping = isinstance(args, Mapping)
    if not (mapping and "%(" in text):  # each value is used once: size them all together
        total = len(text) + text_size(args, cap)
        for width, precision in _POSITIONAL.findall(text.replace("%%", "")):
            pad = 0
            for digits in (width, precision):
                if "*" in digits:
                    raise refused(say("percent_star"))
                if digits:
                    pad = max(pad, int(digits) if len(digits) < 9 else 10**9)
            _width_limit(pad, "the % format")
            total += pad
        check_length(total, "the % format")
        return
    total = len(text)
    values = args if isinstance(args, tuple) else (args,)
    position = 0
    sizes: dict[tuple[str, str], int] = {}
    for conv in percent_specs(text):
        total -= conv.length
        pad = 0
        for digits in (conv.width, conv.precision):
            if "*" in digits:
                raise refused(say("percent_star"))
            if digits:
                count = int(digits) if len(digits) < 9 else 10**9
                _width_limit(count, "the % format")
                pad = max(pad, count)
        if mapping and conv.key is not None:
            size = sizes.get((conv.key, conv.kind))
            if size is None:
                lookup = conv.key.encode("latin-1") if isinstance(fmt, bytes) else conv.key
                size = _value_size(args.get(lookup), conv.kind, cap)
                sizes[conv.key, conv.kind] = size
        elif position < len(values):
            size = _value_size(values[position], conv.kind, cap)
            position += 1
        else:
            size = 0  # (Python raises "not enough arguments")
        total += max(size, pad)
        if total > cap:
            check_length(total, "the % format")
