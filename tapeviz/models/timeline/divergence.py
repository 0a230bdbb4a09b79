"""Did a script's loop diverge, where, and why: the studio's explanation, for recorded steps.

The studio knows its optimizer; a script's loop does not say which one it used. So the update
is read from the recorded values: plain gradient descent moves every parameter by −lr·g
(the same lr at every step), Keras momentum by β·(last move) − lr·g. When the first steps fit
one of them, the explanation is the studio's (``lr 5e-4 > 2/λmax = 4.93e-8: gradient descent
diverges; normalize the inputs``, λmax from the Hessian of the first step's recorded loss);
otherwise it says what happened without blaming a learning rate. Where the loss and each
parameter first become inf and nan is listed too (the epochs TensorFlow prints them).

Texts are English templates with ``{fields}``, marked for Qt's translation tools by the local
``QT_TRANSLATE_NOOP`` (this layer never imports Qt); the UI translates each template in the
context given with it, then fills it in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tapeviz.models.descent import divergence as div
from tapeviz.models.descent.optimizer_config import OptimizerConfig

STUDIO = "OptimizationStudio"  # the context of the studio's sentences
CONTEXT = "Timeline"
FIT_STEPS = 8  # leading steps the update rule is read from
FIT_TOLERANCE = 1e-2  # relative misfit of a step's update still counted as that rule


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation without translating it (Qt's tools look for this name)."""
    return text


BECOMES = QT_TRANSLATE_NOOP("Timeline", "{name} becomes {value} at step {step}.")
BECOMES_THEN = QT_TRANSLATE_NOOP(
    "Timeline", "{name} becomes {value} at step {step} and {then} at step {later}."
)
UNKNOWN = QT_TRANSLATE_NOOP(
    "Timeline",
    "The updates do not follow plain gradient descent or momentum, so no learning-rate bound "
    "applies; lower the learning rate or normalize the inputs.",
)


@dataclass(frozen=True)
class LoopDivergence:
    """Where a loop diverged and why (the studio's Divergence), and where values blew up."""

    divergence: div.Divergence
    optimizer: OptimizerConfig | None  # the update rule the recorded steps follow, if any
    milestones: tuple[tuple[int, str, str], ...]  # (step, name, "inf" | "-inf" | "nan")

    @property
    def step(self) -> int:
        """The step the loop counts as diverged from."""
        return self.divergence.step

    @property
    def sentences(self) -> tuple[tuple[str, str, dict[str, str]], ...]:
        """(translation context, English template, fields) in reading order."""
        d = self.divergence
        out = [(STUDIO, div.REASONS[d.reason], d.fields)]
        if d.advice is not None:
            out.append((STUDIO, div.ADVICE[d.advice], d.fields))
        elif self.optimizer is None and d.reason != "fell":
            out.append((CONTEXT, UNKNOWN, {}))
        by_name: dict[str, list[tuple[int, str]]] = {}
        for step, name, value in self.milestones:
            by_name.setdefault(name, []).append((step, value))
        for name, seen in by_name.items():
            while seen:
                (step, value), *rest = seen
                fields = {"name": name, "value": value, "step": str(step)}
                if rest:
                    fields.update(then=rest[0][1], later=str(rest[0][0]))
                    out.append((CONTEXT, BECOMES_THEN, fields))
                    seen = rest[1:]
                else:
                    out.append((CONTEXT, BECOMES, fields))
                    seen = []
        return tuple(out)

    @property
    def text(self) -> str:
        """The explanation in English."""
        return " ".join(t.format(**f) for _, t, f in self.sentences)


def infer_optimizer(values: np.ndarray, grads: np.ndarray) -> OptimizerConfig | None:
    """The update rule of the leading finite steps: SGD(lr), Momentum(lr, β) or None.

    ``values`` is (steps + 1, n): every parameter element before each step and after the
    last; ``grads`` (steps, n) the gradient each step computed.
    """
    values, grads = np.asarray(values, np.float64), np.asarray(grads, np.float64)
    with np.errstate(all="ignore"):
        ok = (
            np.isfinite(values[:-1]).all(axis=1)
            & np.isfinite(values[1:]).all(axis=1)
            & np.isfinite(grads).all(axis=1)
        )
        m = int(np.argmin(ok)) if not ok.all() else len(ok)
        m = min(m, FIT_STEPS)
        if m == 0:
            return None
        moves, g = values[1 : m + 1] - values[:m], grads[:m]
        gg = (g * g).sum(axis=1)
        if gg[0] <= 0:
            return None
        lr = float(-(moves[0] * g[0]).sum() / gg[0])
        if not 1e-9 <= lr <= 100:
            return None
        size = np.maximum(np.linalg.norm(moves, axis=1), 1e-300)
        if (np.linalg.norm(moves + lr * g, axis=1) <= FIT_TOLERANCE * size).all():
            return OptimizerConfig("SGD", {"learning_rate": lr})
        if m < 3:
            return None
        before, rest = moves[:-1], moves[1:] + lr * g[1:]  # Keras: move = β·move − lr·g
        beta = float((before * rest).sum() / max((before * before).sum(), 1e-300))
        misfit = np.linalg.norm(rest - beta * before, axis=1)
        if 0 < beta < 1 and (misfit <= FIT_TOLERANCE * size[1:]).all():
            return OptimizerConfig("Momentum", {"learning_rate": lr, "momentum": beta})
    return None


def _first(mask: np.ndarray) -> int | None:
    hits = np.flatnonzero(mask)
    return int(hits[0]) if len(hits) else None


def milestones(
    loss: np.ndarray, params: np.ndarray, loss_name: str, names: Sequence[str]
) -> tuple[tuple[int, str, str], ...]:
    """Where the loss and each parameter (``params``: steps × names) first reach ±inf and nan."""
    found: list[tuple[int, str, str]] = []
    for name, column in [(loss_name, loss), *zip(names, np.asarray(params).T, strict=True)]:
        column = np.asarray(column, np.float64)
        for text, mask in (
            ("inf", np.isposinf(column)),
            ("-inf", np.isneginf(column)),
            ("nan", np.isnan(column)),
        ):
            k = _first(mask)
            if k is not None:
                found.append((k, name, text))
    return tuple(sorted(found))


def diagnose(
    loss: np.ndarray,
    params: np.ndarray,
    loss_name: str,
    names: Sequence[str],
    fit: Callable[[], tuple[np.ndarray, np.ndarray] | None],
    hessian: Callable[[Sequence[Any]], np.ndarray | None] | None,
    start: Sequence[Any],
) -> LoopDivergence | None:
    """The loop's divergence (None if it did not diverge).

    ``params`` is (steps × parameters): each scalar's value or each tensor's norm; ``fit()``
    gives the leading steps' full values and gradients for :func:`infer_optimizer`;
    ``hessian`` and ``start`` give λmax at the first step.
    """
    found = div.detect(loss, params)
    if found is None:
        return None
    data = fit()
    optimizer = infer_optimizer(*data) if data is not None else None
    lam, quadratic = None, False
    if optimizer is not None and hessian is not None and found[1] != "fell":
        lam, quadratic = div.curvature(hessian, start)
    # explain() fills the reason's fields; without a known update rule its advice would name
    # a learning rate the script never showed, so it is dropped (UNKNOWN says why).
    d = div.explain(found, optimizer or OptimizerConfig(), names, loss[0], lam, quadratic)
    if optimizer is None:
        d = replace(d, advice=None)
    return LoopDivergence(d, optimizer, milestones(loss, params, loss_name, names))
