"""A run's plotting state: its figures, the current one, the numbers they hold, rcParams.

pyplot is a state machine (the current figure, the current axes); here that state belongs to
the run on this thread (:func:`recording`), so one run's figures never reach the next. At the
end, :meth:`Recorder.figures` gives what the run drew as :mod:`tapeviz.sandbox.figures` data:
the figures shown, saved or still open (a figure closed unseen is dropped, as in a notebook).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox import figures as F
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import Message
from tapeviz.sandbox.runtime.checks import budget, nested_size
from tapeviz.sandbox.runtime.plotting.styles import CYCLE
from tapeviz.torch import Tensor as TorchTensor


class Cycler:
    """``rcParams['axes.prop_cycle']``: matplotlib's default colour cycle (C0..C9)."""

    def __init__(self, colors: tuple[str, ...]) -> None:
        self._colors = tuple(colors)

    def by_key(self) -> dict[str, list[str]]:
        """``{'color': [...]}``, as tutorials read it for their line colours."""
        return {"color": list(self._colors)}

    def __iter__(self) -> Iterator[dict[str, str]]:
        return iter([{"color": c} for c in self._colors])

    def __len__(self) -> int:
        return len(self._colors)

    def __repr__(self) -> str:
        return f"cycler('color', {list(self._colors)!r})"


RC_DEFAULTS: dict[str, Any] = {
    "figure.figsize": (6.4, 4.8),
    "lines.linewidth": 1.5,
    "lines.markersize": 6.0,
    "axes.grid": False,
    "font.size": 10.0,
    "legend.loc": "best",
    "image.cmap": "viridis",
    "axes.prop_cycle": Cycler(CYCLE),
}


class _Current(threading.local):
    recorder: Recorder | None = None


CURRENT = _Current()


class Recorder:
    """The figures of one run (user-facing ``Figure`` objects, in creation order)."""

    def __init__(self) -> None:
        self.all: list[Any] = []  # every Figure made
        self.open: list[Any] = []  # not closed yet, in order; the last is current
        self.kept: set[int] = set()  # ids of figures shown or saved
        self.live = 0  # numbers held by every series of every figure
        self.counter = 0
        self.rc: dict[str, Any] = dict(RC_DEFAULTS)
        self.noted: set[str] = set()

    # -- figures ---------------------------------------------------------------------------
    def add(self, figure: Any) -> int:
        """Register a new figure; returns its number."""
        if len(self.all) >= F.MAX_FIGURES:
            raise budget().trip(
                limit_hit("size", f"more than {F.MAX_FIGURES} figures in one run",
                          "close figures you do not need, or draw several plots in one")
            )  # fmt: skip
        self.all.append(figure)
        self.open.append(figure)
        self.counter += 1
        return self.counter

    def current(self) -> Any | None:
        """The current figure, or None."""
        return self.open[-1] if self.open else None

    def make_current(self, figure: Any) -> None:
        """Bring ``figure`` to the front (reopening it if it was closed)."""
        if figure in self.open:
            self.open.remove(figure)
        self.open.append(figure)

    def close(self, figure: Any) -> None:
        """Close ``figure``: it stays in the result only if it was shown or saved."""
        if figure in self.open:
            self.open.remove(figure)

    def show(self) -> None:
        """``plt.show()``: every open figure is kept, then closed (a notebook's inline backend)."""
        for fig in self.open:
            self.kept.add(id(fig))
        self.open.clear()

    def keep(self, figure: Any) -> None:
        """Keep ``figure`` in the result (``savefig``)."""
        self.kept.add(id(figure))

    def figures(self) -> tuple[F.Figure, ...]:
        """What the run drew, as data."""
        shown = [f for f in self.all if id(f) in self.kept or f in self.open]
        return tuple(f._snapshot() for f in shown)

    # -- numbers ---------------------------------------------------------------------------
    def spend(self, count: int) -> None:
        """Hold ``count`` more numbers (negative: release them)."""
        self.live += count
        if self.live > F.MAX_POINTS:
            self.live -= count
            raise budget().trip(
                limit_hit("size", f"the plots would hold more than {F.MAX_POINTS:,} numbers",
                          "plot fewer points (every n-th one: x[::10])")
            )  # fmt: skip

    def note(self, key: str, text: Message | str) -> None:
        """A note for the user, once per run."""
        if key not in self.noted:
            self.noted.add(key)
            budget().note(text)


def recorder() -> Recorder:
    """The plotting state of the run on this thread."""
    r = CURRENT.recorder
    if r is None:
        raise RuntimeError("plotting works only inside a run")
    return r


@contextlib.contextmanager
def recording() -> Iterator[Recorder]:
    """Give the run on this thread a fresh plotting state."""
    saved = CURRENT.recorder
    CURRENT.recorder = r = Recorder()
    try:
        yield r
    finally:
        CURRENT.recorder = saved


# -- data --------------------------------------------------------------------------------
def numbers(value: Any, what: str) -> np.ndarray:
    """``value`` (numbers, lists, arrays, tensors, lists of tensors) as a float64 array copy."""
    if isinstance(value, TensorLike):
        arr = np.asarray(value._value)
    elif isinstance(value, TorchTensor):  # as matplotlib reads it: through numpy()
        arr = value.numpy()
    elif isinstance(value, np.ndarray | np.generic):
        arr = np.asarray(value)
    elif isinstance(value, bool | int | float):
        arr = np.asarray(float(value))
    elif isinstance(value, list | tuple | range):
        budget().check_size(nested_size(value, what), what)
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError):
            raise TypeError(f"{what}: the values must be numbers of one shape") from None
    else:
        raise TypeError(f"{what}: expected numbers, not {type(value).__name__}")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{what}: expected numbers, not values of dtype {arr.dtype}")
    budget().check_size(int(arr.size), what)
    return np.array(arr, dtype=np.float64)


def categories(value: Any) -> list[str] | None:
    """The labels of a list of strings (a categorical axis), or None."""
    if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
        budget().check_size(len(value), "the categories")
        return [text(v) for v in value]
    return None


def text(value: Any, what: str = "a label") -> str:
    """A title or label: str() of numbers, a refusal for anything else; capped."""
    if value is None:
        return ""
    if isinstance(value, TensorLike):
        value = value.numpy()
    if isinstance(value, np.generic):
        value = value.item()
    if not isinstance(value, str | int | float | bool):
        raise TypeError(f"{what} must be a string, not {type(value).__name__}")
    s = str(value)
    return s if len(s) <= F.MAX_TEXT else s[: F.MAX_TEXT - 1] + "…"


def number(value: Any, what: str) -> float:
    """One float (a limit, a position, a width)."""
    arr = numbers(value, what)
    if arr.size != 1:
        raise ValueError(f"{what} must be a single number")
    return float(arr.reshape(()))


def not_available(name: str, what: str = "matplotlib") -> BaseException:
    """The refusal for a matplotlib feature tapeviz does not draw."""
    return refused(
        f"{name} is not available in tapeviz",
        "the Plots tab draws plot, scatter, bar, hist, imshow, contour, fill_between, "
        "axhline/axvline and text",
    )
