"""Every setting a script can change that outlives its statements, in one registry.

Keras' floatx and epsilon, its layer-name counters, ``tf.config``'s switches, the random seeds
and generators, the engine's name scope: each module that keeps such state registers it here
(:func:`register_attributes`, :func:`register_caches`, :func:`register`), and a run enters
:func:`fresh_run_state`. Every registered setting is saved, reset to its default for the run,
and put back when the run ends, so each run starts from the same state as a fresh process
(one run's ``set_floatx`` or layer names never reach the next run in a warm worker) and the
caller's own settings are untouched by the run.

A holder is usually a ``threading.local``: a run's settings are its thread's, as the sandbox's
other per-run state is. Resetting assigns new containers (it never empties the old ones), so
what is restored is exactly what the caller had.

State that is costly to save and that a script never reads (Python's and numpy's own global
generators, which only ``keras.utils.set_random_seed`` seeds) is registered ``lazy``: it is
saved only when :func:`changing` announces a change inside a run, and put back at its end.
"""

from __future__ import annotations

import random as _pyrandom
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine.state import STATE as _ENGINE

__all__ = [
    "NUMPY_RANDOM",
    "PYTHON_RANDOM",
    "FreshRunState",
    "Setting",
    "changing",
    "fresh_run_state",
    "register",
    "register_attributes",
    "register_caches",
    "reset_run_state",
    "settings",
]


@dataclass(frozen=True)
class Setting:
    """One registered piece of state: how to save it, put it back, and reset it for a run."""

    name: str
    save: Callable[[], Any]
    restore: Callable[[Any], None]
    reset: Callable[[], None]
    lazy: bool = False  # saved only when changing(name) is called in a run; never reset


_SETTINGS: dict[str, Setting] = {}  # filled at import time only, by the modules that own state
Saved = dict[str, tuple[Setting, Any]]


class _Blocks(threading.local):
    def __init__(self) -> None:
        self.stack: list[Saved] = []  # what each fresh_run_state block on this thread saved


_BLOCKS = _Blocks()


def register(
    name: str,
    *,
    save: Callable[[], Any],
    restore: Callable[[Any], None],
    reset: Callable[[], None],
    lazy: bool = False,
) -> Setting:
    """Register state under ``name`` (its module's dotted name); registering again replaces."""
    setting = Setting(name, save, restore, reset, lazy)
    _SETTINGS[name] = setting
    return setting


def register_attributes(name: str, holder: Any, defaults: Callable[[], dict[str, Any]]) -> Setting:
    """Register attributes of ``holder``; ``defaults()`` gives fresh values (new containers)."""
    names = tuple(defaults())

    def save() -> dict[str, Any]:
        return {attr: getattr(holder, attr) for attr in names}

    def restore(saved: dict[str, Any]) -> None:
        for attr, value in saved.items():
            setattr(holder, attr, value)

    def reset() -> None:
        restore(defaults())

    return register(name, save=save, restore=restore, reset=reset)


def register_caches(name: str, *caches: Any) -> Setting:
    """Register ``functools`` caches: emptied when a run starts and again when it ends.

    A cache only remembers answers, but it holds its keys: a run's functions (and through them
    the run's values) would stay alive after the run.
    """

    def clear(_: Any = None) -> None:
        for cache in caches:
            cache.cache_clear()

    return register(name, save=lambda: None, restore=clear, reset=clear)


def changing(name: str) -> None:
    """Announce a change of the lazy setting ``name``: the run in progress saves it first."""
    stack = _BLOCKS.stack
    if stack and name not in stack[-1]:
        setting = _SETTINGS[name]
        stack[-1][name] = (setting, setting.save())


def settings() -> tuple[str, ...]:
    """The names of every registered setting, in registration order."""
    return tuple(_SETTINGS)


def reset_run_state() -> None:
    """Reset every registered setting to its default (what a fresh process has)."""
    for setting in list(_SETTINGS.values()):
        setting.reset()


class FreshRunState:
    """A with-block that runs in a fresh state: every setting saved, reset, restored after.

    A setting registered while the block runs (a module imported by it) is reset at the end,
    as it was at its defaults before it existed. One object serves one with-block.
    """

    __slots__ = ("_saved",)

    def __init__(self) -> None:
        self._saved: Saved | None = None

    def __enter__(self) -> None:
        if self._saved is not None:
            raise RuntimeError("this with-block object is already in use")
        eager = [s for s in _SETTINGS.values() if not s.lazy]
        self._saved = saved = {s.name: (s, s.save()) for s in eager}
        for s in eager:
            s.reset()
        _BLOCKS.stack.append(saved)

    def __exit__(self, *exc: object) -> None:
        saved, self._saved = self._saved, None
        assert saved is not None
        stack = _BLOCKS.stack
        if stack and stack[-1] is saved:
            stack.pop()
        for name, setting in list(_SETTINGS.items()):
            if name in saved and saved[name][0] is setting:
                setting.restore(saved[name][1])
            elif not setting.lazy:
                setting.reset()


def fresh_run_state() -> FreshRunState:
    """``with fresh_run_state():`` runs its block from the default state (see the module)."""
    return FreshRunState()


# -- state below tapeviz.tf that a script changes through it ---------------------------------
def _engine_defaults() -> dict[str, Any]:
    """The engine's name scope and tf.function bookkeeping (the runner keeps the tape stacks)."""
    return {"scope": (), "new_variables": None, "retraced": 0, "tracing": []}


register_attributes("tapeviz.engine.state", _ENGINE, _engine_defaults)
# ``keras.utils.set_random_seed`` seeds Python's and numpy's own generators, as Keras does: a
# run gives them back as they were (scripts draw from the sandbox's numpy, never from these).
PYTHON_RANDOM = "random"
NUMPY_RANDOM = "numpy.random"
register(
    PYTHON_RANDOM,
    save=_pyrandom.getstate,
    restore=_pyrandom.setstate,
    reset=lambda: None,
    lazy=True,
)
register(
    NUMPY_RANDOM,
    save=np.random.get_state,
    restore=np.random.set_state,
    reset=lambda: None,
    lazy=True,
)
