"""torch's ``.grad`` adding up across ``backward()`` calls, said as the stepper's last words.

torch adds every backward pass into the leaves' ``.grad`` until ``zero_grad()`` (a classic
lecture point: call ``backward()`` twice and the gradient doubles). A torch tape keeps each
input's ``.grad`` from before its pass (``tape.grad_before``); at the end of the pass the
stepper adds this pass's gradient to it: ``x.grad = 2 + 4 = 6``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tapeviz.models.backward.stepper import BackwardStepper, short

__all__ = ["accumulation_lines"]


def accumulation_lines(before: Mapping[int, Any] | None, stepper: BackwardStepper) -> list[str]:
    """``x.grad = before + this pass = after`` for each source that had a ``.grad`` before."""
    if not before:
        return []
    lines = []
    for tid in stepper.sources:
        this = stepper.final.get(tid)
        if tid not in before or this is None:
            continue
        old = np.asarray(before[tid])
        new = np.asarray(this)
        if old.shape != new.shape:
            continue
        after = (old + new).astype(np.result_type(old, new), copy=False)
        name = stepper.name.names.get(tid, f"t{tid}")
        lines.append(f"{name}.grad = {short(old)} + {short(new)} = {short(after)}")
    return lines
