"""The settings half of an axes: titles, limits, scales, legend, ticks; its series' list."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.sandbox import figures as F
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.plotting import styles
from tapeviz.sandbox.runtime.plotting.artists import Artist
from tapeviz.sandbox.runtime.plotting.recorder import not_available, number, numbers, recorder, text

_COSMETIC = frozenset(
    "zorder antialiased aa markeredgecolor mec markerfacecolor mfc markeredgewidth mew "
    "solid_capstyle dash_capstyle solid_joinstyle clip_on rasterized picker fontsize "
    "fontweight interpolation aspect_ratio linewidths edgecolors capsize ha va "
    "horizontalalignment verticalalignment rotation frameon fancybox shadow ncol framealpha "
    "drawstyle ds snap".split()
)


def pop(kw: dict[str, Any], *names: str, default: Any = None) -> Any:
    """Take a keyword argument given under any of its ``names`` (``color`` or ``c``)."""
    value = default
    for n in names:
        if n in kw:
            value = kw.pop(n)
    return value


def no_more(kw: dict[str, Any], what: str) -> None:
    """Drop cosmetic keywords; refuse any other one left (matplotlib's TypeError)."""
    for key in list(kw):
        if key in _COSMETIC:
            kw.pop(key)
    if kw:
        key = next(iter(kw))
        raise TypeError(f"{what} got an unexpected keyword argument {key!r} (tapeviz draws "
                        "colour, style, width, marker, label and alpha)")  # fmt: skip


def check_lengths(x: np.ndarray, y: np.ndarray) -> None:
    """X and y of the same length, with matplotlib's message otherwise."""
    if len(x) != len(y):
        raise ValueError(
            f"x and y must have same first dimension, but have shapes {x.shape} and {y.shape}"
        )


class AxesBase:
    """An axes at ``(nrows, ncols, first..last)`` of its figure's grid: state and settings."""

    def __init__(self, figure: Any, spec: tuple[int, int, int, int]) -> None:
        self._figure = figure
        self._spec = spec  # nrows, ncols, first, last (0-based cells, row-major)
        self.cla()

    def cla(self) -> None:
        """Clear the axes (``plt.cla()``)."""
        for artist in getattr(self, "_series", []):
            recorder().spend(-artist._held)
        self._series: list[Artist] = []
        self._title = self._xlabel = self._ylabel = self._colorbar = ""
        self._xlim: tuple[float, float] | None = None
        self._ylim: tuple[float, float] | None = None
        self._xscale = self._yscale = "linear"
        self._grid = bool(recorder().rc.get("axes.grid"))
        self._legend: str | None = None
        self._equal = False
        self._frame = True
        self._colorbar_for: Artist | None = None
        self._xticks: tuple[tuple[float, str], ...] | None = None
        self._yticks: tuple[tuple[float, str], ...] | None = None
        self._lines = self._patches = 0  # the colour cycles of lines and of filled shapes

    clear = cla

    # -- bookkeeping -----------------------------------------------------------------------
    def _add(self, artist: Artist) -> Artist:
        if len(self._series) >= F.MAX_SERIES:
            raise ValueError(f"an axes holds at most {F.MAX_SERIES} series in tapeviz")
        self._series.append(artist)
        return artist

    def _remove(self, artist: Artist) -> None:
        if artist in self._series:
            self._series.remove(artist)
            recorder().spend(-artist._held)

    def _next(self, patches: bool = False) -> str:
        k = self._patches if patches else self._lines
        if patches:
            self._patches += 1
        else:
            self._lines += 1
        return styles.color(styles.CYCLE[k % len(styles.CYCLE)])

    def _color(self, spec: Any, alpha: Any, patches: bool = False) -> str:
        a = None if alpha is None else float(alpha)
        return (
            self._next(patches)[:7]
            + ("ff" if a is None else f"{round(min(max(a, 0), 1) * 255):02x}")
            if spec is None
            else styles.color(spec, a)
        )

    def _snapshot(self, rows: int, cols: int) -> F.Axes:
        nrows, ncols, first, last = self._spec
        r0, c0 = divmod(first, ncols)
        r1, c1 = divmod(last, ncols)
        fr, fc = rows // nrows, cols // ncols
        series = [a._data() for a in self._series]
        explained = self._colorbar_for
        bar_for = self._series.index(explained) if explained in self._series else -1
        return F.Axes(
            row=min(r0, r1) * fr, col=min(c0, c1) * fc,
            rowspan=(abs(r1 - r0) + 1) * fr, colspan=(abs(c1 - c0) + 1) * fc,
            title=self._title, xlabel=self._xlabel, ylabel=self._ylabel,
            xlim=self._xlim, ylim=self._ylim, xscale=self._xscale, yscale=self._yscale,
            grid=self._grid, legend=self._legend, equal=self._equal, frame=self._frame,
            colorbar=self._colorbar, colorbar_for=bar_for,
            xticks=self._xticks, yticks=self._yticks, series=tuple(series),
        )  # fmt: skip

    # -- settings ----------------------------------------------------------------------------
    def set_title(self, label: Any, **kw: Any) -> None:
        """The axes' title."""
        self._title = text(label)

    def set_xlabel(self, label: Any, **kw: Any) -> None:
        """The x axis' label."""
        self._xlabel = text(label)

    def set_ylabel(self, label: Any, **kw: Any) -> None:
        """The y axis' label."""
        self._ylabel = text(label)

    def get_title(self) -> str:
        """The title."""
        return self._title

    def set_xlim(self, left: Any = None, right: Any = None, **kw: Any) -> tuple[float, float]:
        """The x range shown; returns it."""
        self._xlim = self._limits(left, right, kw, "x", self._xlim)
        return self.get_xlim()

    def set_ylim(self, bottom: Any = None, top: Any = None, **kw: Any) -> tuple[float, float]:
        """The y range shown; returns it."""
        kw = {{"bottom": "left", "top": "right", "ymin": "left", "ymax": "right"}.get(k, k): v
              for k, v in kw.items()}  # fmt: skip
        self._ylim = self._limits(bottom, top, kw, "y", self._ylim)
        return self.get_ylim()

    def _limits(self, lo: Any, hi: Any, kw: dict[str, Any], axis: str,
                old: tuple[float, float] | None) -> tuple[float, float]:  # fmt: skip
        lo = kw.pop("left", kw.pop("xmin", lo))
        hi = kw.pop("right", kw.pop("xmax", hi))
        if isinstance(lo, tuple | list) and hi is None:
            lo, hi = lo
        current = old or self._auto(axis)
        lo_v = current[0] if lo is None else number(lo, f"the {axis} limit")
        hi_v = current[1] if hi is None else number(hi, f"the {axis} limit")
        return (lo_v, hi_v)

    def get_xlim(self) -> tuple[float, float]:
        """The x range shown (the data's, with 5% margins, unless set)."""
        return self._xlim or self._auto("x")

    def get_ylim(self) -> tuple[float, float]:
        """The y range shown."""
        return self._ylim or self._auto("y")

    def _auto(self, axis: str) -> tuple[float, float]:
        values = []
        for a in self._series:
            f = a._fields
            keys = {"x": ("x",), "y": ("y", "y1", "y2")}[axis]
            if a._kind == "bars":
                keys = ("x",) if (axis == "x") != f["horizontal"] else ("height", "base")
            values.extend(np.ravel(f[k]) for k in keys if isinstance(f.get(k), np.ndarray))
        flat = np.concatenate(values) if values else np.zeros(0)
        flat = flat[np.isfinite(flat)]
        if not flat.size:
            return (0.0, 1.0)
        lo, hi = float(flat.min()), float(flat.max())
        pad = 0.05 * (hi - lo) if hi > lo else 0.5
        return (lo - pad, hi + pad)

    def set_xscale(self, value: Any, **kw: Any) -> None:
        """``'linear'``, ``'log'`` or ``'symlog'``."""
        self._xscale = _scale(value)

    def set_yscale(self, value: Any, **kw: Any) -> None:
        """``'linear'``, ``'log'`` or ``'symlog'``."""
        self._yscale = _scale(value)

    def grid(self, visible: Any = None, which: Any = "major", axis: Any = "both",
             **kw: Any) -> None:  # fmt: skip
        """Show (or toggle) the grid."""
        if "b" in kw:
            visible = kw.pop("b")
        self._grid = (not self._grid) if visible is None and not kw else bool(visible or kw)

    def legend(self, *args: Any, loc: Any = None, **kw: Any) -> None:
        """Show a legend of the labelled series; ``legend(['a', 'b'])`` names them in order."""
        handles, labels = pop(kw, "handles"), pop(kw, "labels")
        if len(args) == 1:
            labels = args[0]
        elif len(args) == 2:
            handles, labels = args
        if labels is not None:
            targets = list(handles) if handles is not None else list(self._series)
            for h, lab in zip(targets, labels, strict=False):
                if isinstance(h, list) and h:  # plot() returns a list of lines
                    h = h[0]
                if not isinstance(h, Artist):
                    raise TypeError("legend handles are what plot(), scatter(), bar() return")
                h.set_label(lab)
        place = recorder().rc["legend.loc"] if loc is None else loc
        if isinstance(place, int) and 0 <= place < len(F.LEGEND_PLACES):
            place = F.LEGEND_PLACES[place]
        self._legend = place if place in F.LEGEND_PLACES else "best"
        if not any(a.get_label() and not a.get_label().startswith("_") for a in self._series):
            recorder().note("legend", say("note_legend"))

    def set_aspect(self, aspect: Any, **kw: Any) -> None:
        """``'equal'`` (one unit the same length on both axes) or ``'auto'``."""
        self._equal = aspect == "equal" or aspect == 1

    def axis(self, arg: Any = None, **kw: Any) -> tuple[float, float, float, float]:
        """``'equal'``, ``'off'``, ``'on'``, ``'tight'``, or ``[xmin, xmax, ymin, ymax]``."""
        if isinstance(arg, str):
            if arg in ("equal", "scaled", "image", "square"):
                self._equal = True
            elif arg == "off":
                self._frame = False
            elif arg == "on":
                self._frame = True
            elif arg not in ("tight", "auto", "normal"):
                raise ValueError(f"unrecognized string {arg[:20]!r} to axis; try 'on' or 'off'")
        elif arg is not None:
            box = numbers(arg, "the axis limits").reshape(-1)
            if box.size != 4:
                raise ValueError("axis() takes [xmin, xmax, ymin, ymax]")
            self._xlim, self._ylim = (box[0], box[1]), (box[2], box[3])
        return (*self.get_xlim(), *self.get_ylim())

    def set_xticks(self, ticks: Any, labels: Any = None, **kw: Any) -> None:
        """Tick positions (and labels) of the x axis."""
        self._xticks = _ticks(ticks, labels)

    def set_yticks(self, ticks: Any, labels: Any = None, **kw: Any) -> None:
        """Tick positions (and labels) of the y axis."""
        self._yticks = _ticks(ticks, labels)

    def set_xticklabels(self, labels: Any, **kw: Any) -> None:
        """Labels for the x ticks set before."""
        self._xticks = _relabel(self._xticks, labels)

    def set_yticklabels(self, labels: Any, **kw: Any) -> None:
        """Labels for the y ticks set before."""
        self._yticks = _relabel(self._yticks, labels)

    def set(self, **kw: Any) -> None:
        """Several settings at once: ``ax.set(title=..., xlabel=..., xlim=...)``."""
        for key, value in kw.items():
            setter = {"title": self.set_title, "xlabel": self.set_xlabel,
                      "ylabel": self.set_ylabel, "xlim": self.set_xlim, "ylim": self.set_ylim,
                      "xscale": self.set_xscale, "yscale": self.set_yscale,
                      "aspect": self.set_aspect, "xticks": self.set_xticks,
                      "yticks": self.set_yticks}.get(key)  # fmt: skip
            if setter is None:
                raise not_available(f"Axes.set({key}=...)")
            setter(value)

    def tick_params(self, *args: Any, **kw: Any) -> None:
        """Tick styling (the Plots tab's theme decides it)."""

    def minorticks_on(self) -> None:
        """Minor ticks (drawn as the Plots tab does)."""

    def minorticks_off(self) -> None:
        """Minor ticks (drawn as the Plots tab does)."""

    def margins(self, *args: Any, **kw: Any) -> None:
        """Margins around the data (the Plots tab leaves 5%)."""

    def autoscale(self, *args: Any, **kw: Any) -> None:
        """Autoscaling (on unless limits are set)."""

    def get_figure(self) -> Any:
        """The figure this axes belongs to."""
        return self._figure

    @property
    def figure(self) -> Any:
        """The figure this axes belongs to."""
        return self._figure

    def __repr__(self) -> str:
        return f"<Axes: {self._title!r}>" if self._title else "<Axes>"


def _scale(value: Any) -> str:
    if value not in F.SCALES:
        raise not_available(f"the {str(value)[:20]!r} scale")
    return str(value)


def is_color_tuple(c: Any) -> bool:
    """Whether ``c`` is one (r, g, b[, a]) colour rather than a list of values."""
    return (
        isinstance(c, tuple)
        and len(c) in (3, 4)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in c)
    )


def _ticks(ticks: Any, labels: Any) -> tuple[tuple[float, str], ...]:
    pos = numbers(ticks, "the ticks").reshape(-1)
    if labels is None:
        return tuple((float(p), f"{p:g}") for p in pos)
    names = [text(v) for v in labels]
    return tuple((float(p), n) for p, n in zip(pos, names, strict=False))


def _relabel(ticks: tuple[tuple[float, str], ...] | None, labels: Any) -> Any:
    names = [text(v) for v in labels]
    pos = [p for p, _ in ticks] if ticks else list(range(len(names)))
    return tuple((float(p), n) for p, n in zip(pos, names, strict=False))
