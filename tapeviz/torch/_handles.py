"""Hooks kept by handle: ``RemovableHandle`` (torch.utils.hooks) and adding one to a table."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any


class RemovableHandle:
    """What ``register_hook`` / ``register_forward_hook`` return: ``remove()`` takes it away."""

    _ids = itertools.count()

    def __init__(self, hooks: dict[int, Any]) -> None:
        self._hooks = hooks
        self.id = next(RemovableHandle._ids)

    def remove(self) -> None:
        """Remove the hook."""
        self._hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def add_hook(
    hooks: dict[int, Any], hook: Callable[..., Any], prepend: bool = False
) -> RemovableHandle:
    """Put ``hook`` in ``hooks`` (last, or first with ``prepend``); its handle removes it."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        items = list(hooks.items())
        hooks.clear()
        hooks.update([items[-1], *items[:-1]])
    return handle
