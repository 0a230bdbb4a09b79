"""A run's gradient calls as columns: what each tape differentiated, and what came back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np


class Call(NamedTuple):
    """One gradient call: target and source tensor ids, and the refs of its results (-1: None)."""

    targets: tuple[int, ...]
    sources: tuple[int, ...]
    results: tuple[int, ...]


@dataclass
class Calls:
    """Every gradient call of the run as columns (calls in tape order)."""

    tape: np.ndarray  # per call
    targets: np.ndarray  # target ids, call after call; call c's are targets[t_off[c]:t_off[c+1]]
    t_off: np.ndarray
    sources: np.ndarray  # source ids, likewise with s_off
    results: np.ndarray  # the refs of the results, aligned with ``sources`` (-1: None)
    s_off: np.ndarray
    first: np.ndarray  # per tape: its first call (tape t has calls first[t]:first[t + 1])

    def of(self, t: int) -> list[Call]:
        """Tape t's calls."""
        out = []
        for c in range(int(self.first[t]), int(self.first[t + 1])):
            a, b = self.t_off[c], self.t_off[c + 1]
            x, y = self.s_off[c], self.s_off[c + 1]
            out.append(Call(tuple(self.targets[a:b].tolist()), tuple(self.sources[x:y].tolist()),
                            tuple(self.results[x:y].tolist())))  # fmt: skip
        return out

    def columns(self, tapes: np.ndarray, which: str) -> np.ndarray:
        """(tapes × k) ``targets``, ``sources`` or ``results`` of each tape's first call."""
        c = self.first[tapes]
        off = self.t_off if which == "targets" else self.s_off
        flat = getattr(self, which)
        width = int(off[c[0] + 1] - off[c[0]]) if len(c) else 0
        return flat[off[c][:, None] + np.arange(width)]


def _calls(ct: list[int], nt: list[int], ns: list[int], tg: list[int], sr: list[int],
           rs: list[int], tapes: int) -> Calls:  # fmt: skip
    tape = np.array(ct, np.int64)
    t_off = np.concatenate([[0], np.cumsum(np.array(nt, np.int64))]).astype(np.int64)
    s_off = np.concatenate([[0], np.cumsum(np.array(ns, np.int64))]).astype(np.int64)
    first = np.searchsorted(tape, np.arange(tapes + 1))
    return Calls(tape, np.array(tg, np.int64), t_off, np.array(sr, np.int64),
                 np.array(rs, np.int64), s_off, first)  # fmt: skip


class Gather:
    """Gradient calls collected tape by tape, into :class:`Calls` columns."""

    def __init__(self, tapes: int) -> None:
        self.tapes = tapes
        self.ct: list[int] = []
        self.nt: list[int] = []
        self.ns: list[int] = []
        self.tg: list[int] = []
        self.sr: list[int] = []
        self.rs: list[int] = []

    def call(self, t: int, targets: Sequence[int], sources: Sequence[int],
             results: Sequence[int]) -> None:  # fmt: skip
        """One call of tape t: target and source ids, result refs (-1: None)."""
        self.ct.append(t)
        self.nt.append(len(targets))
        self.ns.append(len(sources))
        self.tg += targets
        self.sr += sources
        self.rs += results

    def calls(self) -> Calls:
        """The columns."""
        return _calls(self.ct, self.nt, self.ns, self.tg, self.sr, self.rs, self.tapes)
