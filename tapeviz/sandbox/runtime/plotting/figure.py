"""``Figure`` (a grid of axes) and the array of axes ``plt.subplots`` returns."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from tapeviz.sandbox import figures as F
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.plotting.artists import Artist, Colorbar
from tapeviz.sandbox.runtime.plotting.axes import Axes
from tapeviz.sandbox.runtime.plotting.recorder import not_available, number, recorder, text

MAX_SIDE = 12  # rows or columns of one subplot grid
MAX_CELLS = 120  # rows × columns of a figure that mixes grids (their least common multiple)


def parse_spec(args: tuple[Any, ...]) -> tuple[int, int, int, int]:
    """``(2, 2, 3)``, ``(223,)``, ``(2, 2, (1, 2))`` → (nrows, ncols, first, last), 0-based."""
    if not args:
        args = (1, 1, 1)
    if len(args) == 1:
        code = args[0]
        if not isinstance(code, int) or not 111 <= code <= 999:
            raise ValueError("a single subplot argument is a 3-digit number such as 221")
        args = (code // 100, code // 10 % 10, code % 10)
    if len(args) != 3:
        raise TypeError("subplot() takes (nrows, ncols, index) or a 3-digit number")
    nrows, ncols, index = args
    if not (isinstance(nrows, int) and isinstance(ncols, int)):
        raise TypeError("nrows and ncols must be integers")
    if not (0 < nrows <= MAX_SIDE and 0 < ncols <= MAX_SIDE):
        raise not_available(f"a subplot grid larger than {MAX_SIDE}×{MAX_SIDE}")
    first, last = index if isinstance(index, tuple | list) and len(index) == 2 else (index, index)
    for i in (first, last):
        if not isinstance(i, int) or not 1 <= i <= nrows * ncols:
            raise ValueError(f"num must be an integer with 1 <= num <= {nrows * ncols}, not {i!r}")
    return nrows, ncols, first - 1, last - 1


class Figure:
    """A figure: a grid of axes, a title and a size (inches, as matplotlib's)."""

    def __init__(self, figsize: Any = None) -> None:
        rec = recorder()
        self._size = _size(figsize if figsize is not None else rec.rc["figure.figsize"])
        self._title = ""
        self._axes: list[Axes] = []
        self._current: Axes | None = None
        self._saved: list[str] = []
        self._number = rec.add(self)

    @property
    def number(self) -> int:
        """The figure's number."""
        return self._number

    @property
    def axes(self) -> list[Axes]:
        """The figure's axes, in the order they were added."""
        return list(self._axes)

    def add_subplot(self, *args: Any, projection: Any = None, **kw: Any) -> Axes:
        """An axes at a grid position (the one already there, if any)."""
        if projection is not None or kw.get("polar"):
            raise not_available(f"the {projection or 'polar'} projection")
        spec = parse_spec(args)
        for ax in self._axes:
            if ax._spec == spec:
                self._current = ax
                return ax
        if len(self._axes) >= F.MAX_AXES:
            raise ValueError(f"a figure holds at most {F.MAX_AXES} axes in tapeviz")
        ax = Axes(self, spec)
        self._axes.append(ax)
        self._current = ax
        self._grid()  # refuse grids that cannot be laid out together now, not at the end
        return ax

    def subplots(self, nrows: int = 1, ncols: int = 1, squeeze: bool = True, **kw: Any) -> Any:
        """A grid of axes on this figure (as ``plt.subplots`` returns them)."""
        kw.pop("sharex", None), kw.pop("sharey", None), kw.pop("gridspec_kw", None)
        if kw.pop("subplot_kw", None):
            raise not_available("subplots(subplot_kw=...)")
        if kw:
            raise TypeError(f"subplots() got an unexpected keyword argument {next(iter(kw))!r}")
        cells = [[self.add_subplot(nrows, ncols, r * ncols + c + 1) for c in range(ncols)]
                 for r in range(nrows)]  # fmt: skip
        if squeeze and nrows == 1 and ncols == 1:
            return cells[0][0]
        if squeeze and (nrows == 1 or ncols == 1):
            return AxesArray([ax for row in cells for ax in row])
        return AxesArray([AxesArray(row) for row in cells])

    def gca(self) -> Axes:
        """The current axes (made if there is none)."""
        return self._current if self._current is not None else self.add_subplot(1, 1, 1)

    def sca(self, ax: Axes) -> None:
        """Make ``ax`` the current axes."""
        if ax not in self._axes:
            raise ValueError("the axes is not in this figure")
        self._current = ax

    def suptitle(self, t: Any, **kw: Any) -> None:
        """The figure's title, above all its axes."""
        self._title = text(t)

    def savefig(self, fname: Any = None, **kw: Any) -> None:
        """Keep the figure in the Plots tab (nothing is written: export it from there)."""
        name = text(fname if isinstance(fname, str) else "figure", "the file name")
        self._saved.append(name)
        rec = recorder()
        rec.keep(self)
        rec.note("savefig", say("note_savefig", name=repr(name)))

    def colorbar(self, mappable: Any = None, ax: Any = None, label: Any = "", **kw: Any) -> Any:
        """A colorbar for an image, contour or coloured scatter (beside its axes)."""
        return colorbar(mappable, ax, label, self)

    def set_size_inches(self, w: Any, h: Any = None) -> None:
        """The figure's size in inches."""
        self._size = _size((w, h) if h is not None else w)

    def get_size_inches(self) -> tuple[float, float]:
        """The figure's size in inches."""
        return self._size

    def tight_layout(self, *args: Any, **kw: Any) -> None:
        """Layout (the Plots tab lays figures out itself)."""

    def subplots_adjust(self, *args: Any, **kw: Any) -> None:
        """Spacing (the Plots tab lays figures out itself)."""

    def show(self, *args: Any, **kw: Any) -> None:
        """Show the figure in the Plots tab."""
        recorder().keep(self)

    def clf(self) -> None:
        """Remove every axes."""
        for ax in self._axes:
            ax.cla()
        self._axes, self._current, self._title = [], None, ""

    clear = clf

    def _grid(self) -> tuple[int, int]:
        rows = cols = 1
        for ax in self._axes:
            rows, cols = math.lcm(rows, ax._spec[0]), math.lcm(cols, ax._spec[1])
        if rows * cols > MAX_CELLS and len({ax._spec[:2] for ax in self._axes}) > 1:
            raise not_available("mixing these subplot grids in one figure")
        return rows, cols

    def _snapshot(self) -> F.Figure:
        rows, cols = self._grid()
        return F.Figure(
            number=self._number, rows=rows, cols=cols, title=self._title, size=self._size,
            axes=tuple(ax._snapshot(rows, cols) for ax in self._axes), saved=tuple(self._saved),
        )  # fmt: skip

    def __repr__(self) -> str:
        w, h = self._size
        return f"<Figure size {w * 100:g}x{h * 100:g} with {len(self._axes)} Axes>"


def _size(value: Any) -> tuple[float, float]:
    if not isinstance(value, tuple | list) or len(value) != 2:
        raise ValueError("figsize is (width, height) in inches")
    w, h = (number(v, "figsize") for v in value)
    if not (0 < w <= 100 and 0 < h <= 100):
        raise ValueError("figsize must be between 0 and 100 inches")
    return (w, h)


class AxesArray:
    """The axes ``subplots`` returns for a grid: index it, iterate it, ``.flat``, ``.ravel()``."""

    def __init__(self, items: list[Any]) -> None:
        self._items = items

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            out: Any = self
            for k in key:
                out = out[k]
            return out
        if isinstance(key, slice):
            return AxesArray(self._items[key])
        return self._items[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def shape(self) -> tuple[int, ...]:
        """(n,) or (rows, cols)."""
        first = self._items[0] if self._items else None
        return (len(self._items), len(first)) if isinstance(first, AxesArray) else (len(self),)

    @property
    def ndim(self) -> int:
        """1 or 2."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """How many axes."""
        return len(self.ravel())

    @property
    def flat(self) -> Iterator[Axes]:
        """Every axes, row by row."""
        return iter(self.ravel()._items)

    @property
    def T(self) -> AxesArray:
        """Transposed (columns become rows)."""
        if self.ndim == 1:
            return self
        return AxesArray([AxesArray([row[c] for row in self._items])
                          for c in range(self.shape[1])])  # fmt: skip

    def ravel(self) -> AxesArray:
        """Every axes in one row."""
        flat: list[Any] = []
        for item in self._items:
            flat.extend(item._items if isinstance(item, AxesArray) else [item])
        return AxesArray(flat)

    flatten = ravel

    def tolist(self) -> list[Any]:
        """As nested lists."""
        return [i.tolist() if isinstance(i, AxesArray) else i for i in self._items]

    def reshape(self, *shape: Any) -> AxesArray:
        """``reshape(-1)`` (one row) or ``reshape(rows, cols)``."""
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        flat = self.ravel()._items
        if len(shape) == 1 and shape[0] in (-1, len(flat)):
            return AxesArray(flat)
        if len(shape) == 2:
            rows, cols = shape
            rows = len(flat) // cols if rows == -1 else rows
            cols = len(flat) // rows if cols == -1 else cols
            if rows * cols == len(flat):
                return AxesArray([AxesArray(flat[r * cols : (r + 1) * cols]) for r in range(rows)])
        raise ValueError(f"cannot reshape {len(flat)} axes into shape {shape}")

    def __repr__(self) -> str:
        return f"<array of {self.size} Axes, shape {self.shape}>"


def colorbar(mappable: Any, ax: Any, label: Any, figure: Any = None) -> Colorbar:
    """The colorbar of ``mappable`` (by default the last image, contour or scatter drawn)."""
    if isinstance(mappable, Artist):
        ax = mappable._axes  # the colorbar goes beside what it explains
    elif ax is None:
        fig = figure or recorder().current()
        if fig is None:
            raise RuntimeError("No mappable was found to use for colorbar creation")
        ax = fig.gca()
    if isinstance(ax, list | AxesArray):
        ax = next(iter(ax))
    if not isinstance(ax, Axes):
        raise TypeError("colorbar(ax=...) takes an axes")
    if mappable is None:
        mappable = next((a for a in reversed(ax._series) if _mappable(a)), None)
    if not isinstance(mappable, Artist) or mappable._kind not in ("image", "contour", "points"):
        raise RuntimeError("No mappable was found to use for colorbar creation")
    ax._colorbar_for = mappable
    ax._colorbar = text(label)
    return Colorbar(ax)


def _mappable(a: Artist) -> bool:
    return a._kind in ("image", "contour") or (
        a._kind == "points" and a._fields["values"] is not None
    )
