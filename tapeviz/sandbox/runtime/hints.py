"""Messages for names that are not there: a missing import, a name tapeviz lacks, or a typo.

A script's unknown name or attribute is one of three things, and each gets its own message:
something a notebook would have imported (``plt`` → "import matplotlib.pyplot as plt"), a real
TensorFlow/numpy/matplotlib name tapeviz does not have ("tf.compat is not available in
tapeviz"), or a typo ("did you mean ..."). Never the last for the first two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tapeviz.sandbox.errors import refused, suggest
from tapeviz.sandbox.runtime.known import (
    API,
    ELSEWHERE,
    HELP,
    IMPORTS,
    OBJECT_API,
    SPELLING,
    WHY_NOT,
)


def with_hint(exc: BaseException, hint: str | None) -> BaseException:
    """Attach a hint to an ordinary exception (the runner shows it beside the message)."""
    if hint:
        exc._tapeviz_hint = hint  # type: ignore[attr-defined]
    return exc


def hint_of(exc: BaseException) -> str | None:
    """The hint :func:`with_hint` attached, if any."""
    hint = getattr(exc, "_tapeviz_hint", None)
    return hint if isinstance(hint, str) else None


def spelled(namespace: str) -> str:
    """How a script writes a namespace: ``tf``, ``np.random``, ``tf.math``, ``plt``."""
    if namespace in SPELLING:
        return SPELLING[namespace]
    if namespace.startswith("tensorflow."):
        return "tf." + namespace[len("tensorflow.") :]
    return namespace


def _lacking_hint(namespace: str, name: str) -> str:
    why = WHY_NOT.get(f"{namespace}.{name}")
    if why is not None:
        return why
    if namespace.startswith("numpy"):
        return "tapeviz's numpy has maths, random numbers and array creation"
    if namespace.startswith("matplotlib"):
        return "the Plots tab draws plot, scatter, hist, bar, imshow and contour"
    return HELP


def missing_attribute(namespace: str, name: str, allowed: Iterable[str]) -> BaseException:
    """``tf.compat``: not available in tapeviz (real) or no such attribute (with a suggestion)."""
    if name in API.get(namespace, ()):
        return refused(
            f"{spelled(namespace)}.{name} is not available in tapeviz",
            _lacking_hint(namespace, name),
        )
    hint = suggest(name, [n for n in allowed if not n.startswith("_")])
    return with_hint(AttributeError(f"module '{namespace}' has no attribute '{name}'"), hint)


def missing_object_attribute(type_name: str, name: str, allowed: Iterable[str]) -> BaseException:
    """``x.device`` on a tensor: not in tapeviz (TensorFlow has it) or a typo."""
    if name in OBJECT_API.get(type_name, ()):
        return refused(f"{type_name}.{name} is not available in tapeviz", HELP)
    hint = suggest(name, allowed)
    return with_hint(AttributeError(f"'{type_name}' object has no attribute '{name}'"), hint)


def unknown_name(
    name: str, visible: Iterable[str], has: Callable[[str, str], bool]
) -> BaseException:
    """The NameError for ``name``; ``has(namespace, name)`` says what tapeviz's modules hold."""
    exc = NameError(f"unknown name '{name}'")
    if name in IMPORTS:
        return with_hint(exc, f"add `{IMPORTS[name]}` above (tf and np are always there)")
    if name in ELSEWHERE:
        return with_hint(exc, ELSEWHERE[name])
    for namespace, prefix in (("tensorflow", "tf"), ("numpy", "np")):
        if has(namespace, name):
            return with_hint(exc, f"did you mean '{prefix}.{name}'?")
    if has("matplotlib.pyplot", name):
        return with_hint(exc, f"did you mean 'plt.{name}'? (`import matplotlib.pyplot as plt`)")
    hint = suggest(name, visible)
    if hint is None and name in API["tensorflow"]:
        hint = f"tf.{name} is not available in tapeviz; {HELP}"
    return with_hint(exc, hint)


def lacking_module(dotted: str) -> tuple[str, str | None]:
    """Message and hint for ``import dotted`` of a module tapeviz does not offer."""
    root = dotted.split(".")[0]
    if root in ("tensorflow", "numpy", "matplotlib") and "." in dotted:
        parent, _, last = dotted.rpartition(".")
        return f"{dotted} is not available in tapeviz", _lacking_hint(parent, last)
    return f"import of '{dotted}' is not allowed", ELSEWHERE.get(root)
