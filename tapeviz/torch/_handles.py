"""``RemovableHandle`` (torch.utils.hooks): what registering a tensor or module hook returns."""

from __future__ import annotations

import itertools
from typing import Any


class RemovableHandle:
    """What ``register_forward_hook`` returns: ``remove()`` takes the hook away."""

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
