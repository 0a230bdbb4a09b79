"""The optimization studio's settings: runs, steps, playback, plot options (JSON-safe, no Qt).

``StudioConfig.to_dict()`` is what a session or preset stores under ``"optimizer"``;
``StudioConfig.from_dict(doc)`` validates untrusted data and raises ValueError saying what is
wrong (sessions come from files).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from tapeviz.models.descent.optimizer_config import MAX_RUNS, PALETTE, OptimizerConfig, RunConfig
from tapeviz.models.descent.runs import MAX_STEPS

MIN_SPEED, MAX_SPEED = 0.5, 100_000.0  # steps per second
_KEYS = ("runs", "steps", "speed", "log_scale", "selected", "x_range", "y_range", "slice")


def _default_runs() -> tuple[RunConfig, ...]:
    return (RunConfig(OptimizerConfig("SGD"), PALETTE[0]),)


@dataclass(frozen=True)
class StudioConfig:
    """Everything the studio's controls set (the problem itself lives in the session)."""

    runs: tuple[RunConfig, ...] = field(default_factory=_default_runs)
    steps: int = 200
    speed: float = 60.0  # steps per second while playing
    log_scale: bool = True  # loss plot on a log axis
    selected: int = 0  # the run the panel edits and the graph view follows
    x_range: tuple[float, float] | None = None  # surface view; None: cover the trajectories
    y_range: tuple[float, float] | None = None
    slice: tuple[str, str] | None = None  # two parameter elements to slice (more than two)

    def __post_init__(self) -> None:
        object.__setattr__(self, "runs", tuple(self.runs))
        if not 1 <= len(self.runs) <= MAX_RUNS:
            raise ValueError(f"runs: between 1 and {MAX_RUNS} runs, got {len(self.runs)}")
        if isinstance(self.steps, bool) or not isinstance(self.steps, int):
            raise ValueError(f"steps: expected a whole number, got {self.steps!r:.30}")
        if not 1 <= self.steps <= MAX_STEPS:
            raise ValueError(f"steps: must be between 1 and {MAX_STEPS:,}, got {self.steps}")
        speed = self.speed
        if isinstance(speed, bool) or not isinstance(speed, int | float) or math.isnan(speed):
            raise ValueError(f"speed: expected steps per second, got {speed!r:.30}")
        if not MIN_SPEED <= speed <= MAX_SPEED:
            raise ValueError(f"speed: must be between {MIN_SPEED:g} and {MAX_SPEED:g} steps/s")
        object.__setattr__(self, "speed", float(speed))
        if not isinstance(self.log_scale, bool):
            raise ValueError("log_scale: expected true or false")
        sel = self.selected
        if isinstance(sel, bool) or not isinstance(sel, int) or not 0 <= sel < len(self.runs):
            raise ValueError(f"selected: expected a run index below {len(self.runs)}")
        for name in ("x_range", "y_range"):
            object.__setattr__(self, name, _range(getattr(self, name), name))
        if self.slice is not None:
            pair = self.slice
            if (
                not isinstance(pair, tuple | list)
                or len(pair) != 2
                or not all(isinstance(p, str) and 0 < len(p) <= 80 for p in pair)
                or pair[0] == pair[1]
            ):
                raise ValueError("slice: expected two different parameter names")
            object.__setattr__(self, "slice", (pair[0], pair[1]))

    @property
    def run(self) -> RunConfig:
        """The selected run."""
        return self.runs[self.selected]

    def with_run(self, index: int, run: RunConfig) -> StudioConfig:
        """Replace run ``index``."""
        runs = list(self.runs)
        runs[index] = run
        return replace(self, runs=tuple(runs))

    def with_added_run(self, optimizer: OptimizerConfig | None = None) -> StudioConfig:
        """One more run (next unused palette colour); selects it."""
        used = {r.color for r in self.runs}
        color = next((c for c in PALETTE if c not in used), PALETTE[len(self.runs) % 6])
        run = RunConfig(optimizer or self.run.optimizer, color)
        return replace(self, runs=(*self.runs, run), selected=len(self.runs))

    def without_run(self, index: int) -> StudioConfig:
        """Remove run ``index`` (the last run cannot be removed)."""
        if len(self.runs) == 1:
            raise ValueError("a race needs at least one run")
        runs = self.runs[:index] + self.runs[index + 1 :]
        return replace(self, runs=runs, selected=min(self.selected, len(runs) - 1))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (lists, numbers, text, booleans, null)."""
        return {
            "runs": [r.to_dict() for r in self.runs],
            "steps": self.steps,
            "speed": self.speed,
            "log_scale": self.log_scale,
            "selected": self.selected,
            "x_range": list(self.x_range) if self.x_range else None,
            "y_range": list(self.y_range) if self.y_range else None,
            "slice": list(self.slice) if self.slice else None,
        }

    @staticmethod
    def from_dict(doc: Any) -> StudioConfig:
        """Validate untrusted data (a session file's ``optimizer``); ValueError if bad."""
        if not isinstance(doc, dict):
            raise ValueError(f"optimizer settings: expected an object, got {type(doc).__name__}")
        unknown = [k for k in doc if k not in _KEYS]
        if unknown:
            raise ValueError(f"optimizer settings: unknown field {', '.join(map(str, unknown))}")
        runs = doc.get("runs")
        if runs is None:
            runs = [{}]
        if not isinstance(runs, list) or not runs:
            raise ValueError("runs: expected a list of runs")
        if len(runs) > MAX_RUNS:
            raise ValueError(f"runs: at most {MAX_RUNS} runs, got {len(runs)}")
        parsed = tuple(RunConfig.from_dict(r, f"run {i}") for i, r in enumerate(runs, 1))
        defaults = StudioConfig()
        slice_ = doc.get("slice")
        return StudioConfig(
            runs=parsed,
            steps=doc.get("steps", defaults.steps),
            speed=doc.get("speed", defaults.speed),
            log_scale=doc.get("log_scale", defaults.log_scale),
            selected=doc.get("selected", 0),
            x_range=doc.get("x_range"),
            y_range=doc.get("y_range"),
            slice=tuple(slice_) if isinstance(slice_, list) else slice_,
        )


def _range(value: Any, name: str) -> tuple[float, float] | None:
    if value is None:
        return None
    ok = isinstance(value, tuple | list) and len(value) == 2
    ok = ok and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    if not ok or not all(math.isfinite(v) for v in value) or not value[0] < value[1]:
        raise ValueError(f"{name}: expected [low, high] with low < high, got {value!r:.40}")
    return float(value[0]), float(value[1])
