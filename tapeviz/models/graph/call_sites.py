"""Names for tensors the run's namespace does not name, read from the code's gradient() calls.

Inside a function (``@tf.function def f(x): ... tape.gradient(y, x)``) the watched tensor and
the target are locals: the run returns no name for them, and the graph would show ``?`` and
the chain rule ``1.grad``. The code itself names them: ``tape.gradient(y, x)`` says the target
is ``y`` and the source ``x``. :func:`call_sites` reads those calls from the text (parsed only,
never run); :func:`names_for_passes` gives the passes' unnamed tensors those names where the
call sites agree.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence

from tapeviz.models.graph.passes import TapeEntry
from tapeviz.sandbox.language.parsing import parse_text

MAX_SOURCE = 200_000  # characters: longer texts are not read for names
METHODS = ("gradient", "jacobian", "batch_jacobian")

Site = tuple[tuple[str | None, ...], tuple[str | None, ...]]  # (target names, source names)


def _names(node: ast.expr | None) -> tuple[str | None, ...]:
    """``y`` -> ("y",); ``[a, b]`` -> ("a", "b"); anything else has no name (None)."""
    if isinstance(node, ast.Name):
        return (node.id,)
    if isinstance(node, ast.List | ast.Tuple):
        return tuple(e.id if isinstance(e, ast.Name) else None for e in node.elts)
    return (None,)


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return None


def call_sites(source: str) -> dict[str, list[Site]]:
    """Tape name -> its ``gradient()`` call sites in text order, as (targets, sources) names."""
    if not source or len(source) > MAX_SOURCE:
        return {}
    if source.isascii() and not any(m in source for m in METHODS):  # (a 1,000-op expression
        return {}  # parses and walks in ~20 ms; non-ASCII names may normalize to a method's)
    try:
        tree = parse_text(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    found: list[tuple[int, int, str, Site]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner, method = node.func.value, node.func.attr
        if method not in METHODS or not isinstance(owner, ast.Name):
            continue
        target = _names(_argument(node, 0, "target"))
        sources = _names(_argument(node, 1, "source" if method == "batch_jacobian" else "sources"))
        found.append((node.lineno, node.col_offset, owner.id, (target, sources)))
    sites: dict[str, list[Site]] = {}
    for _, _, tape, site in sorted(found):  # ast.walk is breadth first: back to text order
        sites.setdefault(tape, []).append(site)
    return sites


def _agreed(sites: Sequence[Site], kind: int, length: int) -> tuple[str | None, ...]:
    """Per position, the name every site gives (None where they differ or give none)."""
    out: list[str | None] = []
    for k in range(length):
        names = {s[kind][k] if len(s[kind]) == length else None for s in sites}
        out.append(names.pop() if len(names) == 1 else None)
    return tuple(out)


def names_for_passes(
    entries: Sequence[TapeEntry], sites: Mapping[str, list[Site]], named: Callable[[int], bool]
) -> dict[int, str]:
    """Names for the passes' targets and sources that have none (``named(id)`` is False).

    A tape's passes take its call sites in order when there are as many of each (straight-line
    code); otherwise only the names every one of its sites agrees on (a call in a loop or a
    function runs many times).
    """
    out: dict[int, str] = {}
    for entry in entries:
        found = [s for name in (entry.bound or (entry.name,)) for s in sites.get(name, ())]
        if not found or not entry.passes:
            continue
        for k, p in enumerate(entry.passes):
            if len(found) == len(entry.passes):
                site = found[k]
                targets = site[0] if len(site[0]) == len(p.targets) else ()
                sources = site[1] if len(site[1]) == len(p.sources) else ()
            else:
                targets = _agreed(found, 0, len(p.targets))
                sources = _agreed(found, 1, len(p.sources))
            for tid, name in (*zip(p.targets, targets, strict=False),
                              *zip(p.sources, sources, strict=False)):  # fmt: skip
                if name and tid not in out and not named(tid):
                    out[tid] = name
    return out
