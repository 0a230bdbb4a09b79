"""With-blocks over thread-local state, as classes: every sandbox run enters several of them."""

from __future__ import annotations

from typing import Any


class Pushed:
    """Push ``item`` on ``stack`` for the with-block; pop it after."""

    __slots__ = ("item", "stack")

    def __init__(self, stack: list[Any], item: Any) -> None:
        self.stack, self.item = stack, item

    def __enter__(self) -> None:
        self.stack.append(self.item)

    def __exit__(self, *exc: object) -> None:
        self.stack.pop()


class Assigned:
    """Set attributes of ``target`` for the with-block; restore their old values after."""

    __slots__ = ("saved", "target", "values")

    def __init__(self, target: Any, **values: Any) -> None:
        self.target, self.values = target, values
        self.saved: dict[str, Any] = {}

    def __enter__(self) -> None:
        target = self.target
        self.saved = {name: getattr(target, name) for name in self.values}
        for name, value in self.values.items():
            setattr(target, name, value)

    def __exit__(self, *exc: object) -> None:
        for name, value in self.saved.items():
            setattr(self.target, name, value)
