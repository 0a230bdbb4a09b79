"""Keras' progress bar: the line ``fit``/``evaluate``/``predict`` print when a pass ends.

``4/4 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - loss: 0.4821`` (``verbose=2``: ``4/4 - 0s - 3ms/step -
loss: 0.4821``), on stdout (the app's console when captured), without the terminal's colours
and redraws.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

import numpy as np

from tapeviz.engine.printing import emit

__all__ = ["Progbar", "print_line"]


def print_line(text: str) -> None:
    """Print one line to stdout (or the capturing console)."""
    emit(text + "\n", sys.stdout)


def _format_time(per_unit: float, unit: str) -> str:
    if per_unit >= 1 or per_unit == 0:
        return f" {per_unit:.0f}s/{unit}"
    if per_unit >= 1e-3:
        return f" {per_unit * 1000.0:.0f}ms/{unit}"
    return f" {per_unit * 1000000.0:.0f}us/{unit}"


def _value(v: float, positive_only: bool = False) -> str:
    big = v > 1e-3 if positive_only else abs(v) > 1e-3
    return f" {v:.4f}" if big else f" {v:.4e}"


class Progbar:
    """Keras' progress bar, printed when it finishes (``keras.utils.Progbar``)."""

    def __init__(
        self,
        target: int | None,
        width: int = 20,
        verbose: int = 1,
        interval: float = 0.05,
        stateful_metrics: Any = None,
        unit_name: str = "step",
    ):
        self.target, self.width, self.verbose, self.unit_name = target, width, verbose, unit_name
        self._start = time.perf_counter()
        self._after_first: float | None = None
        self._values: dict[str, float] = {}
        self._seen = 0

    def update(self, current: int, values: Any = None, finalize: bool | None = None) -> None:
        """Record progress; print the line when ``current`` reaches the target."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for k, v in values or []:
            self._values[k] = float(np.mean(v))
        now = time.perf_counter()
        if current == 1 and self._after_first is None:
            self._after_first = now
        self._seen = current
        if not finalize or not self.verbose:
            return
        if current > 1 and self._after_first is not None:
            per = (now - self._after_first) / (current - 1)
        else:
            per = (now - self._start) / max(current, 1)
        elapsed = now - self._start
        target = self.target if self.target else current
        digits = int(math.log10(target)) + 1 if target > 0 else 1
        count = f"{current:>{digits}d}/{target}"
        if self.verbose == 1:
            line = f"{count} {'━' * self.width} {elapsed:.0f}s{_format_time(per, self.unit_name)}"
            for k, v in self._values.items():
                line += f" - {k}:{_value(v)}"
        else:
            line = f"{count} - {elapsed:.0f}s -{_format_time(per, self.unit_name)}"
            for k, v in self._values.items():
                line += f" - {k}:{_value(v, positive_only=True)}"
        print_line(line)

    def add(self, n: int, values: Any = None) -> None:
        """Advance by ``n`` steps."""
        self.update(self._seen + n, values)
