"""The weights before each training step, kept under a memory cap (no Qt).

Every step's flat weight vector is kept (the array the optimizer returned: no copy) together with
the optimizer's slots at that point (a shallow copy of the slot dict: the engine's update rules
assign new arrays to their slots, they never write into the old ones). When the kept snapshots
pass ``cap_bytes``, every other one is dropped (the stride doubles: 1, 2, 4, …) and from then on
only steps that are multiples of the stride are kept; pinned steps (step 0, and every step whose
weights the user edited) are never dropped. A step in between is rebuilt by the trainer by
replaying the training steps from the nearest snapshot before it, which gives the same weights
bit for bit.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

SNAPSHOT_BYTES = 32 * 2**20  # per trainer: ~120,000 steps of Playground's default net
_OVERHEAD = 112  # bytes per small numpy array object, roughly
Slots = dict[str, Any]


def _size(flat: np.ndarray, slots: Slots) -> int:
    arrays = sum(int(getattr(a, "nbytes", 8)) + _OVERHEAD for a in slots.values())
    return int(flat.nbytes) + _OVERHEAD + arrays + 64 * (1 + len(slots))


class Snapshots:
    """Step -> (flat weights, optimizer slots), thinned by doubling the stride past the cap."""

    def __init__(self, cap_bytes: int = SNAPSHOT_BYTES) -> None:
        self.cap_bytes = int(cap_bytes)
        self.stride = 1
        self.nbytes = 0
        self._snaps: dict[int, tuple[np.ndarray, Slots]] = {}
        self._keys: list[int] = []  # sorted
        self._pinned: dict[int, None] = {}

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, step: int) -> bool:
        return step in self._snaps

    def put(self, step: int, flat: np.ndarray, slots: Slots, pin: bool = False) -> None:
        """Keep the weights before ``step`` (replacing an older snapshot of the same step)."""
        if pin:
            self._pinned[step] = None
        elif step % self.stride:
            return
        old = self._snaps.get(step)
        if old is None:
            if self._keys and step < self._keys[-1]:
                bisect.insort(self._keys, step)
            else:
                self._keys.append(step)
        else:
            self.nbytes -= _size(*old)
        entry = (flat, dict(slots))
        self._snaps[step] = entry
        self.nbytes += _size(*entry)
        while self.nbytes > self.cap_bytes and len(self._keys) > len(self._pinned) + 1:
            self._thin()

    def _thin(self) -> None:
        self.stride *= 2
        keep = [s for s in self._keys if s % self.stride == 0 or s in self._pinned]
        self._snaps = {s: self._snaps[s] for s in keep}
        self._keys = keep
        self.nbytes = sum(_size(*v) for v in self._snaps.values())

    def get(self, step: int) -> tuple[np.ndarray, Slots] | None:
        """The snapshot of exactly ``step``, if kept."""
        return self._snaps.get(step)

    def nearest(self, step: int) -> tuple[int, np.ndarray, Slots]:
        """The kept snapshot at ``step`` or the last one before it."""
        i = bisect.bisect_right(self._keys, step) - 1
        if i < 0:
            raise KeyError(f"no snapshot at or before step {step}")
        s = self._keys[i]
        flat, slots = self._snaps[s]
        return s, flat, slots

    def drop_after(self, step: int) -> None:
        """Forget every snapshot after ``step`` (nothing is dropped in normal training)."""
        while self._keys and self._keys[-1] > step:
            s = self._keys.pop()
            self.nbytes -= _size(*self._snaps.pop(s))
            self._pinned.pop(s, None)
