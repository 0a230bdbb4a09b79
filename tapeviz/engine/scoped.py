"""With-blocks over thread-local state, as classes: every sandbox run enters several of them.

Like the generator context managers they replace, each object is for one with-block: entering
it again raises. The thread-local state is looked up when the block is entered.
"""

from __future__ import annotations

from typing import Any


class Pushed:
    """Push ``item`` on ``holder.stack`` (a thread-local's list) for the with-block."""

    __slots__ = ("holder", "item", "stack")

    def __init__(self, holder: Any, item: Any) -> None:
        self.holder, self.item = holder, item
        self.stack: list[Any] | None = None

    def __enter__(self) -> None:
        if self.stack is not None:
            raise RuntimeError("this with-block object is already in use")
        self.stack = self.holder.stack  # the entering thread's list
        self.stack.append(self.item)

    def __exit__(self, *exc: object) -> None:
        assert self.stack is not None
        self.stack.pop()


class Assigned:
    """Set attributes of ``target`` for the with-block; restore their old values after."""

    __slots__ = ("saved", "target", "values")

    def __init__(self, target: Any, **values: Any) -> None:
        self.target, self.values = target, values
        self.saved: dict[str, Any] | None = None

    def __enter__(self) -> None:
        if self.saved is not None:
            raise RuntimeError("this with-block object is already in use")
        target = self.target
        self.saved = {name: getattr(target, name) for name in self.values}
        for name, value in self.values.items():
            setattr(target, name, value)

    def __exit__(self, *exc: object) -> None:
        assert self.saved is not None
        for name, value in self.saved.items():
            setattr(self.target, name, value)
