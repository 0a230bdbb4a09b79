"""A loop step whose ops read big values has its graph and backward pass built in the pool.

A timeline step of a 400×400 ``matmul`` loop walked its backward pass (three 400×400 products,
12-16 ms each) and explained its last step on the UI thread each time it was shown: the window
was blocked 45-70 ms while the run streamed and at each step scrubbed to. Such a step's
:class:`~tapeviz.models.graph.model.GraphModel` and steppers are built in the thread pool (as a
big run's are) and shown when done; the graph shows the step before until then. Steps asked for
meanwhile are not built: only the newest, once the build under way ends. A streamed run's tapes
before it has a loop (a conv net's first batches: 50-140 ms walked on the UI thread) are such
a step of its own (``step`` -1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tapeviz.models.graph.model import GraphModel, GraphOptions
from tapeviz.ui.stepper.panel import prepared_steppers
from tapeviz.ui.timeline.panel import StepTapes
from tapeviz.ui.turns import release
from tapeviz.ui.workers import submit

HEAVY_ELEMENTS = 250_000  # numbers a step's ops read, from which its graph is built in the pool
FIRST_OPS = 2_000  # the ops counted (reading a tape's records costs ~1 µs an op)


def heavy(step: StepTapes) -> bool:
    """Whether the step's ops read at least :data:`HEAVY_ELEMENTS` numbers (in its first ops)."""
    total, ops = 0, 0
    for info in step.tapes:
        for rec in info.tape.records:
            for x in rec.inputs:
                size = getattr(x, "size", 0)
                total += size if isinstance(size, int) else 0
            ops += 1
            if total >= HEAVY_ELEMENTS:
                return True
            if ops >= FIRST_OPS:  # (a big graph of small values: built by turns, as before)
                return False
    return False


Built = tuple[GraphModel, Any]  # the model and its steppers (or why they could not be built)


def chosen(step: StepTapes) -> int | None:
    """The tape of ``step`` the graph shows (None: the one it picks; a step of -1 says so)."""
    return None if step.current < 0 else step.current


def build(
    tapes: Sequence[Any], names: Mapping[int, str], options: GraphOptions, current: int | None,
    source: str,
) -> Built:  # fmt: skip
    """In the pool: the step's graph, as ``GraphModel.set_tapes`` shows it, and its steppers."""
    model = GraphModel([], names, options, source)
    model.set_tapes(tapes, names, current=current, source=source)
    return model, prepared_steppers(model)


class StepGraphs:
    """Builds heavy steps' graphs one at a time; ``show(step, built)`` gets the newest wanted."""

    def __init__(self, model: GraphModel, show: Callable[[StepTapes, Built | None], None]) -> None:
        self._model, self._show = model, show
        self._building: StepTapes | None = None
        self._wanted: tuple[StepTapes, Mapping[int, str], str] | None = None
        self._generation = -1  # the model's, when the newest step was asked for

    def want(self, step: StepTapes, names: Mapping[int, str], source: str) -> None:
        """Build ``step``'s graph (after the one under way, if any: then only the newest)."""
        self._wanted = (step, dict(names), source)
        self._generation = self._model.generation
        if self._building is None:
            self._start()

    def forget(self) -> None:
        """Show nothing of what is under way (a light step, or the studio, was shown)."""
        self._wanted = None

    @property
    def building(self) -> bool:
        """Whether a build is under way."""
        return self._building is not None

    def _start(self) -> None:
        assert self._wanted is not None
        step, names, source = self._wanted
        self._building = step
        options = self._model.options
        submit(
            build, step.tapes, names, options, chosen(step), source,
            on_done=lambda built: self._ended(step, built),
            on_error=lambda _why: self._ended(step, None),
        )  # fmt: skip

    def _ended(self, step: StepTapes, built: Built | None) -> None:
        self._building = None
        wanted = self._wanted
        if wanted is None or wanted[0] is not step:  # moved on meanwhile: the newest, if any
            if built is not None:
                release(built)
            if wanted is not None:
                self._start()
            return
        self._wanted = None
        if self._model.generation != self._generation:  # other tapes shown meanwhile (a run
            if built is not None:  # without a loop, a tape picked outside it): not this step
                release(built)
            return
        self._show(step, built)  # (None: it failed in the pool; shown as before)
