"""The worker's side of summarised values: which values go out summarised, and the kept ones.

``run`` summarises every value above its threshold (:func:`big_part`) and keeps the arrays of
the last run (:data:`KEPT`, at most :data:`KEEP_BYTES`) under a token of that run; ``value``
answers the window's request for one of them. A new run drops them (as does a restart): asked
for then, the answer is ``{"gone": true}``.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import numpy as np

from tapeviz.sandbox.process import summaries
from tapeviz.sandbox.process.wire import Frame, Writer, need, text

KEEP_BYTES = 256 * 2**20  # the last run's values kept for the window to fetch, at most
MIN_SUMMARY_BYTES = 64  # a lower threshold asked for is raised to this (scalars go whole)
_NBYTES = attrgetter("nbytes")


class Kept:
    """The last run's big values by id, under that run's token."""

    def __init__(self) -> None:
        self.token = ""
        self._arrays: list[np.ndarray] = []
        self._vids: dict[int, int] = {}  # id(array) -> its id (the array is kept: ids hold)
        self.bytes = 0

    def start(self) -> None:
        """A new run: the last run's values are dropped; a new token."""
        self._arrays, self._vids, self.bytes = [], {}, 0
        self.token = secrets.token_hex(8)

    def keep(self, arr: np.ndarray) -> int:
        """The id ``arr`` can be fetched by (NOT_KEPT: over :data:`KEEP_BYTES`)."""
        vid = self._vids.get(id(arr))
        if vid is None:
            if self.bytes + arr.nbytes > KEEP_BYTES:
                return summaries.NOT_KEPT
            vid = self._vids[id(arr)] = len(self._arrays)
            self._arrays.append(arr)
            self.bytes += arr.nbytes
        return vid

    def get(self, token: str, vid: int) -> np.ndarray | None:
        """Value ``vid`` of the run ``token`` (None: not this run's, or not kept)."""
        if token != self.token or not self.token or not 0 <= vid < len(self._arrays):
            return None
        return self._arrays[vid]


KEPT = Kept()


@dataclass(frozen=True)
class Policy:
    """How a run's result is sent: values above ``threshold`` bytes summarised, kept in ``kept``.

    ``kept`` None: summarised without a handle (a streamed run's snapshot keeps nothing alive
    that the run itself might free; its final answer has the handles).
    """

    threshold: int
    kept: Kept | None
    token: str

    @classmethod
    def of(cls, args: Any, kept: Kept = KEPT) -> Policy:
        """The policy a ``run`` request asks for (``summarise``: its threshold in bytes)."""
        asked = args.get("summarise") if isinstance(args, dict) else None
        limit = asked if type(asked) is int else summaries.SUMMARY_BYTES
        return cls(max(limit, MIN_SUMMARY_BYTES), kept, kept.token)

    def snapshot(self) -> Policy:
        """The same summaries, nothing kept."""
        return Policy(self.threshold, None, self.token)


def big_part(
    rows: list[int],
    values: list[np.ndarray],
    last: list[int],
    policy: Policy | None,
    writer: Writer,
) -> dict[str, Any] | None:
    """The summaries' doc of the table's big values (their bytes are left out of the table).

    ``rows`` are the big values' rows, ``values`` their arrays, ``last`` the position of each
    one's last use: over :data:`KEEP_BYTES`, the values the last tapes used are kept.
    """
    if policy is None or not rows:
        return None
    vids = [summaries.NOT_KEPT if policy.kept is not None else summaries.SNAPSHOT] * len(rows)
    if policy.kept is not None:
        order = range(len(rows))
        if sum(map(_NBYTES, values)) > KEEP_BYTES:
            order = sorted(order, key=lambda k: -last[k])  # type: ignore[assignment]
        for k in order:
            vids[k] = policy.kept.keep(values[k])
    stats, heads, thumbs = [], [], []
    for arr in values:
        s, head, thumb = summaries.summarise(arr)
        stats.append(s)
        heads.append(writer.array(head))
        thumbs.append(writer.array(thumb))
    return {
        "token": policy.token,
        "pid": os.getpid(),
        "rows": writer.ints(rows),
        "vids": writer.ints(vids),
        "stats": writer.array(np.array(stats, np.float64)),
        "heads": heads,
        "thumbs": thumbs,
    }


def value_handler(args: Any, frame: Frame, ctx: Any) -> tuple[Any, Writer]:
    """``value``: a kept value of the last run, whole (``gone``: no longer kept)."""
    writer = Writer()
    arr = KEPT.get(text(args, "token", 64), need(args, "id", int))
    if arr is None:
        return {"gone": True}, writer
    return {"value": writer.array(arr)}, writer
