"""Messages for names that are not there: a missing import, a name tapeviz lacks, or a typo.

A script's unknown name or attribute is one of three things, and each gets its own message:
something a notebook would have imported (``plt`` → "import matplotlib.pyplot as plt"), a real
TensorFlow/numpy/matplotlib name tapeviz does not have ("tf.compat is not available in
tapeviz"), or a typo ("did you mean ..."). Never the last for the first two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tapeviz.sandbox.errors import refused, suggest, with_message
from tapeviz.sandbox.messages import Message, say
from tapeviz.sandbox.runtime.known import (
    API,
    ELSEWHERE,
    IMPORTS,
    OBJECT_API,
    SPELLING,
    WHY_NOT,
)


def with_hint(exc: BaseException, hint: Message | None) -> BaseException:
    """Attach a hint to an ordinary exception, its own text kept (the runner shows both)."""
    if hint is not None:
        with_message(exc, say("python_error", python=str(exc)), hint)
    return exc


def _text(sentence: str) -> Message:
    """One of the fixed English sentences of :mod:`known` as a hint."""
    return say("hint_text", text=sentence)


def spelled(namespace: str) -> str:
    """How a script writes a namespace: ``tf``, ``np.random``, ``tf.math``, ``plt``."""
    if namespace in SPELLING:
        return SPELLING[namespace]
    if namespace.startswith("tensorflow."):
        return "tf." + namespace[len("tensorflow.") :]
    return namespace


def _lacking_hint(namespace: str, name: str) -> Message:
    why = WHY_NOT.get(f"{namespace}.{name}")
    if why is not None:
        return _text(why)
    if namespace.startswith("numpy"):
        return say("hint_numpy_has")
    if namespace.startswith("matplotlib"):
        return say("hint_plots_draw")
    return say("hint_help")


def missing_attribute(namespace: str, name: str, allowed: Iterable[str]) -> BaseException:
    """``tf.compat``: not available in tapeviz (real) or no such attribute (with a suggestion)."""
    if name in API.get(namespace, ()):
        return refused(
            say("not_in_tapeviz", name=f"{spelled(namespace)}.{name}"),
            _lacking_hint(namespace, name),
        )
    hint = suggest(name, [n for n in allowed if not n.startswith("_")])
    return with_hint(AttributeError(f"module '{namespace}' has no attribute '{name}'"), hint)


def missing_object_attribute(type_name: str, name: str, allowed: Iterable[str]) -> BaseException:
    """``x.device`` on a tensor: not in tapeviz (TensorFlow has it) or a typo."""
    if name in OBJECT_API.get(type_name, ()):
        return refused(say("not_in_tapeviz", name=f"{type_name}.{name}"), say("hint_help"))
    hint = suggest(name, allowed)
    return with_hint(AttributeError(f"'{type_name}' object has no attribute '{name}'"), hint)


def unknown_name(
    name: str, visible: Iterable[str], has: Callable[[str, str], bool]
) -> BaseException:
    """The NameError for ``name``; ``has(namespace, name)`` says what tapeviz's modules hold."""
    exc = NameError(f"unknown name '{name}'")
    hint: Message | None = None
    if name in IMPORTS:
        hint = say("hint_add_import", line=IMPORTS[name])
    elif name in ELSEWHERE:
        hint = _text(ELSEWHERE[name])
    elif has("tensorflow", name):
        hint = say("hint_did_you_mean", name=f"tf.{name}")
    elif has("numpy", name):
        hint = say("hint_did_you_mean", name=f"np.{name}")
    elif has("matplotlib.pyplot", name):
        hint = say("hint_did_you_mean_plt", name=name)
    else:
        hint = suggest(name, visible)
        if hint is None and name in API["tensorflow"]:
            hint = say("hint_tf_lacks", name=name)
    return with_message(exc, say("unknown_name", name=name), hint)


def lacking_module(dotted: str) -> tuple[Message, Message | None]:
    """Message and hint for ``import dotted`` of a module tapeviz does not offer."""
    root = dotted.split(".")[0]
    if root in ("tensorflow", "numpy", "matplotlib") and "." in dotted:
        parent, _, last = dotted.rpartition(".")
        return say("not_in_tapeviz", name=dotted), _lacking_hint(parent, last)
    elsewhere = ELSEWHERE.get(root)
    return say("import", module=dotted), None if elsewhere is None else _text(elsewhere)
