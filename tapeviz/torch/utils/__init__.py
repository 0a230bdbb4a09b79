"""``torch.utils``: ``torch.utils.data`` (datasets and the data loader)."""

from __future__ import annotations

from tapeviz.torch.utils import data

__all__ = ["data"]
