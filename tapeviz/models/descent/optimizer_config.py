"""Optimizer choices for the studio: every hyper-parameter, validated, JSON-safe (no Qt)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tapeviz.engine import optimizers
from tapeviz.engine.optimizers import Optimizer


@dataclass(frozen=True)
class HyperParameter:
    """One editable hyper-parameter: engine keyword, label, default and allowed range."""

    name: str
    label: str
    default: float
    low: float
    high: float
    log: bool = False  # edited on a log scale (learning rate, ε)

    def check(self, value: Any, where: str) -> float:
        """``value`` as a float in range, or ValueError naming ``where``."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where}: {self.name} must be a number, got {value!r:.40}")
        v = float(value)
        if not math.isfinite(v) or not self.low <= v <= self.high:
            raise ValueError(
                f"{where}: {self.name} must be between {self.low:g} and {self.high:g}, got {v:g}"
            )
        if self.log and v <= 0:
            raise ValueError(f"{where}: {self.name} must be positive, got {v:g}")
        return v


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark a label for Qt's translation tools (this layer never imports Qt)."""
    return text


def _lr(default: float) -> HyperParameter:
    label = QT_TRANSLATE_NOOP("OptimizationStudio", "learning rate")
    return HyperParameter("learning_rate", label, default, 1e-9, 100.0, log=True)


_EPS = HyperParameter("epsilon", "ε", 1e-7, 1e-12, 1.0, log=True)
_MOMENTUM = HyperParameter(
    "momentum", QT_TRANSLATE_NOOP("OptimizationStudio", "momentum β"), 0.9, 0.0, 1.0
)
KINDS: dict[str, tuple[HyperParameter, ...]] = {
    "SGD": (_lr(0.01),),
    "Momentum": (_lr(0.01), _MOMENTUM),
    "Nesterov": (_lr(0.01), _MOMENTUM),
    "Adam": (
        _lr(0.001),
        HyperParameter("beta_1", "β1", 0.9, 0.0, 0.9999),
        HyperParameter("beta_2", "β2", 0.999, 0.0, 0.999999),
        _EPS,
    ),
    "RMSprop": (
        _lr(0.001),
        HyperParameter("rho", "ρ", 0.9, 0.0, 0.9999),
        HyperParameter(
            "momentum", QT_TRANSLATE_NOOP("OptimizationStudio", "momentum"), 0.0, 0.0, 1.0
        ),
        _EPS,
    ),
    "Adagrad": (
        _lr(0.001),
        HyperParameter(
            "initial_accumulator_value",
            QT_TRANSLATE_NOOP("OptimizationStudio", "initial accumulator"),
            0.1,
            0.0,
            100.0,
        ),
        _EPS,
    ),
}
MAX_RUNS = 6
_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")
# Okabe–Ito, in the order runs get them: distinct for every common colour-vision deficiency.
PALETTE = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")


def short_number(v: float) -> str:
    """``5e-4``, ``0.01``, ``1510``, ``4.1e7``: compact, for labels and explanations."""
    v = float(v)
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    if 1 <= abs(v) < 1e4:
        return f"{v:.4g}"
    if 1e-3 <= abs(v) < 1:
        return f"{v:.3g}"
    mantissa, exponent = f"{v:.2e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


@dataclass(frozen=True)
class OptimizerConfig:
    """An optimizer kind (``KINDS``) and its hyper-parameters (missing ones take defaults)."""

    kind: str = "SGD"
    values: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown optimizer {self.kind!r}: choose one of {', '.join(KINDS)}")
        known = {h.name: h for h in KINDS[self.kind]}
        unknown = set(self.values) - set(known)
        if unknown:
            raise ValueError(f"{self.kind} has no hyper-parameter {', '.join(sorted(unknown))}")
        full = {
            h.name: h.check(self.values.get(h.name, h.default), self.kind) for h in known.values()
        }
        object.__setattr__(self, "values", full)

    @property
    def learning_rate(self) -> float:
        """The learning rate."""
        return self.values["learning_rate"]

    def get(self, name: str) -> float:
        """One hyper-parameter's value."""
        return self.values[name]

    def with_value(self, name: str, value: float) -> OptimizerConfig:
        """The same optimizer with one hyper-parameter changed (validated)."""
        return OptimizerConfig(self.kind, {**self.values, name: value})

    def with_kind(self, kind: str) -> OptimizerConfig:
        """Another kind, keeping the values the two kinds share (the learning rate, ...)."""
        names = {h.name for h in KINDS[kind]} if kind in KINDS else set()
        return OptimizerConfig(kind, {k: v for k, v in self.values.items() if k in names})

    def build(self) -> Optimizer:
        """A fresh engine optimizer with these hyper-parameters."""
        v = self.values
        lr = v["learning_rate"]
        if self.kind in ("SGD", "Momentum", "Nesterov"):
            return optimizers.SGD(
                lr, momentum=v.get("momentum", 0.0), nesterov=self.kind == "Nesterov"
            )
        if self.kind == "Adam":
            return optimizers.Adam(lr, v["beta_1"], v["beta_2"], v["epsilon"])
        if self.kind == "RMSprop":
            return optimizers.RMSprop(lr, v["rho"], v["momentum"], v["epsilon"])
        return optimizers.Adagrad(lr, v["initial_accumulator_value"], v["epsilon"])

    def label(self) -> str:
        """``Adam lr 0.05`` or ``Momentum lr 1e-3 β 0.9``: what a legend shows."""
        text = f"{self.kind} lr {short_number(self.learning_rate)}"
        if self.kind in ("Momentum", "Nesterov"):
            text += f" β {self.values['momentum']:g}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: ``{"optimizer": "Adam", "hyperparameters": {...}}``."""
        return {"optimizer": self.kind, "hyperparameters": dict(self.values)}


@dataclass(frozen=True)
class RunConfig:
    """One run of a race: its optimizer, its colour (``#RRGGBB``) and an optional label."""

    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    color: str = PALETTE[0]
    label: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.color, str) or not _COLOR.match(self.color):
            raise ValueError(f"a run's colour must look like #RRGGBB, got {self.color!r:.20}")
        if not isinstance(self.label, str) or len(self.label) > 80:
            raise ValueError("a run's label must be text of at most 80 characters")

    @property
    def title(self) -> str:
        """The label, or the optimizer's own description."""
        return self.label or self.optimizer.label()

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (``label`` only when set)."""
        doc: dict[str, Any] = {**self.optimizer.to_dict(), "color": self.color}
        if self.label:
            doc["label"] = self.label
        return doc

    @staticmethod
    def from_dict(doc: Any, where: str = "run") -> RunConfig:
        """Validate untrusted data; ValueError says what is wrong."""
        if not isinstance(doc, dict):
            raise ValueError(f"{where}: expected an object, got {type(doc).__name__}")
        unknown = set(doc) - {"optimizer", "hyperparameters", "color", "label"}
        if unknown:
            raise ValueError(f"{where}: unknown field {', '.join(sorted(unknown))}")
        kind = doc.get("optimizer", "SGD")
        if not isinstance(kind, str):
            raise ValueError(f"{where}: optimizer must be a name like 'Adam'")
        values = doc.get("hyperparameters", {})
        if not isinstance(values, dict):
            raise ValueError(f"{where}: hyperparameters must be an object")
        try:
            optimizer = OptimizerConfig(kind, values)
            return RunConfig(optimizer, doc.get("color", PALETTE[0]), doc.get("label", ""))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
