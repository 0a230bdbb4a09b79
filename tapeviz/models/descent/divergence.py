"""Divergence: when a run counts as diverged, and the explanation a lecturer can read out.

A run diverges at the first step whose loss is inf/nan, whose parameters are not finite, or
whose loss has grown (or fallen) 10⁶× beyond its start. For gradient descent on a quadratic
the reason is the curvature: the iteration multiplies the error along the Hessian's top
eigenvector by (1 − lr·λmax) each step, so it diverges when lr > 2/λmax. λmax comes from the
Hessian at the start, computed with nested tapes; a loss counts as quadratic-like when its
Hessian is the same at a second point.

Texts are complete English sentences with ``{fields}``; they are marked for Qt's translation
tools by the local ``QT_TRANSLATE_NOOP`` (this layer never imports Qt), and the studio
translates the template before filling it in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tapeviz.models.descent.optimizer_config import OptimizerConfig, short_number

GROWTH = 1e6  # |loss| beyond this many times its start counts as diverged
FLOOR = 1e-6  # ... measured from at least this (a start at the minimum is not "growth")
GRACE = 50  # steps kept after the divergence step, until every parameter is nan


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation without translating it (Qt's tools look for this name)."""
    return text


REASONS = {
    "grew": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "Diverged at step {step}: the loss grew to {value}, {ratio}× its start value {start}.",
    ),
    "fell": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "Diverged at step {step}: the loss fell to {value}, {ratio}× its start value; the "
        "function is unbounded below, so the descent never ends.",
    ),
    "loss": QT_TRANSLATE_NOOP(
        "OptimizationStudio", "Diverged at step {step}: the loss became {value}."
    ),
    "param": QT_TRANSLATE_NOOP(
        "OptimizationStudio", "Diverged at step {step}: the parameter {name} became {value}."
    ),
}
ADVICE = {
    "gd": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "lr {lr} > 2/λmax = {limit}: gradient descent diverges; normalize the inputs or lower "
        "lr below {limit}.",
    ),
    "momentum": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "lr {lr} > 2(1 + β)/λmax = {limit}: gradient descent with momentum diverges; normalize "
        "the inputs or lower lr below {limit}.",
    ),
    "nesterov": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "lr {lr} > 2(1 + β)/((1 + 2β)·λmax) = {limit}: Nesterov momentum diverges; normalize "
        "the inputs or lower lr below {limit}.",
    ),
    "local": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "The curvature at the start is λmax = {lam}, so steps of lr {lr} are stable there only "
        "below lr = {limit}; the steps overshoot, lower the learning rate.",
    ),
    "overshoot": QT_TRANSLATE_NOOP(
        "OptimizationStudio",
        "The steps overshoot and grow: lower the learning rate ({lr}) or start closer to a "
        "minimum.",
    ),
}


@dataclass(frozen=True)
class Divergence:
    """Where and why a run diverged, as sentence templates and the values that fill them."""

    step: int
    reason: str  # a key of REASONS
    advice: str | None  # a key of ADVICE
    fields: dict[str, str] = field(default_factory=dict)
    lam_max: float | None = None  # λmax of the Hessian at the start, if computed
    quadratic: bool = False

    @property
    def sentences(self) -> tuple[str, ...]:
        """The templates (English source text) in reading order."""
        return (REASONS[self.reason],) + ((ADVICE[self.advice],) if self.advice else ())

    @property
    def text(self) -> str:
        """The explanation in English."""
        return " ".join(s.format(**self.fields) for s in self.sentences)


def detect(
    loss: np.ndarray, params: np.ndarray, start: int = 0
) -> tuple[int, str, dict[str, Any]] | None:
    """First step ≥ ``start`` that diverges: (step, reason, details), or None."""
    loss64 = np.asarray(loss, dtype=np.float64)
    finite_p = np.isfinite(params).all(axis=1) if params.ndim == 2 else np.isfinite(params)
    with np.errstate(all="ignore"):
        scale = max(abs(float(loss64[0])), FLOOR) if np.isfinite(loss64[0]) else FLOOR
        grown = np.abs(loss64) >= GROWTH * scale
    bad = ~np.isfinite(loss64) | grown | ~finite_p
    bad[:start] = False
    if not bad.any():
        return None
    k = int(np.argmax(bad))
    if not finite_p[k]:
        col = int(np.argmax(~np.isfinite(params[k])))
        return k, "param", {"column": col, "value": params[k, col]}
    if not np.isfinite(loss64[k]):
        return k, "loss", {"value": loss[k]}
    return (
        k,
        "grew" if loss64[k] > 0 else "fell",
        {"value": loss[k], "ratio": abs(loss64[k]) / scale},
    )


def stop(params: np.ndarray, step: int, upto: int, last: int) -> tuple[int, bool]:
    """(last row kept, complete?) for a run diverged at ``step`` with rows ≤ ``upto`` known.

    The history goes on until every parameter is nan or ``GRACE`` steps have passed, so the
    explosion to inf and nan can be played back.
    """
    limit = min(last, step + GRACE)
    dead = np.isnan(params[step : min(upto, limit) + 1]).all(axis=1)
    if dead.any():
        return step + int(np.argmax(dead)), True
    return limit, upto >= limit


def curvature(
    hessian: Callable[[Sequence[Any]], np.ndarray | None], start: Sequence[Any]
) -> tuple[float | None, bool]:
    """λmax of the Hessian at ``start`` and whether the loss is quadratic-like around it."""
    try:
        h0 = hessian(start)
    except (ValueError, TypeError, ArithmeticError):
        return None, False
    if h0 is None or not np.isfinite(h0).all():
        return None, False
    h0 = (h0 + h0.T) / 2
    lam = float(np.linalg.eigvalsh(h0)[-1])
    moved = [np.asarray(v) + 0.5 * np.maximum(1.0, np.abs(v)) for v in start]
    try:
        h1 = hessian([m.astype(np.asarray(v).dtype)[()] for m, v in zip(moved, start, strict=True)])
    except (ValueError, TypeError, ArithmeticError):
        h1 = None
    quadratic = h1 is not None and bool(
        np.linalg.norm((h1 + h1.T) / 2 - h0) <= 1e-3 * max(np.linalg.norm(h0), 1e-300)
    )
    return lam, quadratic


def explain(
    found: tuple[int, str, dict[str, Any]],
    optimizer: OptimizerConfig,
    names: Sequence[str],
    start_loss: float,
    lam_max: float | None,
    quadratic: bool,
) -> Divergence:
    """The Divergence of a run whose :func:`detect` result is ``found``."""
    step, reason, info = found
    fields = {"step": str(step), "lr": short_number(optimizer.learning_rate)}
    fields["value"] = _number(info["value"])
    fields["start"] = _number(start_loss)
    if "ratio" in info:
        fields["ratio"] = short_number(info["ratio"])
    if reason == "param":
        fields["name"] = names[info["column"]]
    advice: str | None = None
    if reason != "fell":
        advice = "overshoot"
        limit = _stable_lr(optimizer, lam_max)
        if limit is not None and lam_max is not None:
            fields["lam"] = short_number(lam_max)
            fields["limit"] = short_number(limit)
            if quadratic and optimizer.learning_rate > limit:
                advice = {"SGD": "gd", "Momentum": "momentum", "Nesterov": "nesterov"}.get(
                    optimizer.kind, "overshoot"
                )
            elif optimizer.kind == "SGD" and optimizer.learning_rate > limit:
                advice = "local"
    return Divergence(step, reason, advice, fields, lam_max, quadratic)


def _stable_lr(optimizer: OptimizerConfig, lam: float | None) -> float | None:
    """The largest stable learning rate on a quadratic of top curvature ``lam`` (heavy ball)."""
    if lam is None or lam <= 0:
        return None
    beta = optimizer.values.get("momentum", 0.0) if optimizer.kind != "SGD" else 0.0
    if optimizer.kind == "Nesterov":
        return 2 * (1 + beta) / ((1 + 2 * beta) * lam)
    if optimizer.kind == "Momentum":
        return 2 * (1 + beta) / lam
    return 2 / lam


def _number(v: Any) -> str:
    """Finite values short (``4.6e17``), inf and nan as TensorFlow prints them."""
    from tapeviz.engine.printing import format_number

    return short_number(float(v)) if np.isfinite(v) else format_number(v)
