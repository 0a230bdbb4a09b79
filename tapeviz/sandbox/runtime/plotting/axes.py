"""``Axes``: one plot of a figure, with matplotlib's drawing methods (settings: axes_base)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.sandbox import figures as F
from tapeviz.sandbox.runtime.plotting import styles
from tapeviz.sandbox.runtime.plotting.artists import (
    AxesImage,
    BarContainer,
    ContourSet,
    Line2D,
    PathCollection,
    PolyCollection,
    Text,
)
from tapeviz.sandbox.runtime.plotting.axes_base import (
    AxesBase,
    check_lengths,
    is_color_tuple,
    no_more,
    pop,
)
from tapeviz.sandbox.runtime.plotting.colormaps import cmap_name
from tapeviz.sandbox.runtime.plotting.grids import contour_grid, contour_levels, hist_counts
from tapeviz.sandbox.runtime.plotting.recorder import (
    categories,
    not_available,
    number,
    numbers,
    recorder,
    text,
)


class Axes(AxesBase):
    """An axes: ``plot``, ``scatter``, ``bar``, ``hist``, ``imshow``, ``contour``, ``text``..."""

    # -- lines -----------------------------------------------------------------------------
    def plot(self, *args: Any, **kwargs: Any) -> list[Line2D]:
        """``plot([x], y, [fmt], ...)``: lines and/or markers."""
        groups = _groups(args)
        label = pop(kwargs, "label")
        spec_color = pop(kwargs, "color", "c")
        style = pop(kwargs, "linestyle", "ls")
        width = pop(kwargs, "linewidth", "lw", default=recorder().rc["lines.linewidth"])
        mark = pop(kwargs, "marker")
        size = pop(kwargs, "markersize", "ms", default=recorder().rc["lines.markersize"])
        alpha = pop(kwargs, "alpha")
        scalex, scaley = pop(kwargs, "scalex"), pop(kwargs, "scaley")
        del scalex, scaley
        no_more(kwargs, "plot()")
        out = []
        for x, y, fmt in groups:
            fcolor, fmark, fstyle = styles.parse_format(fmt) if fmt else (None, None, None)
            ys = numbers(y, "y")
            if ys.ndim > 2:
                raise ValueError(f"y can be at most 2-D, but has shape {ys.shape}")
            ys = ys.reshape(len(ys), -1) if ys.ndim else ys.reshape(1, 1)
            xs = np.arange(len(ys), dtype=np.float64) if x is None else numbers(x, "x")
            xs = xs.reshape(len(xs), -1) if xs.ndim else xs.reshape(1, 1)
            check_lengths(xs, ys)
            columns = max(xs.shape[1], ys.shape[1])
            for j in range(columns):
                colour = spec_color if spec_color is not None else fcolor
                fields = {
                    "x": xs[:, j % xs.shape[1]].copy(), "y": ys[:, j % ys.shape[1]].copy(),
                    "color": self._color(colour, alpha),
                    "label": text(label[j] if isinstance(label, list | tuple) else label),
                    "width": float(width), "style": styles.line_style(
                        style if style is not None else fstyle if fstyle is not None else "-"),
                    "marker": styles.marker(mark if mark is not None else fmark or ""),
                    "marker_size": float(size),
                }  # fmt: skip
                out.append(self._add(Line2D(self, "line", fields)))
        return out

    def semilogy(self, *args: Any, **kwargs: Any) -> list[Line2D]:
        """``plot`` with a logarithmic y axis."""
        self._yscale = "log"
        return self.plot(*args, **kwargs)

    def semilogx(self, *args: Any, **kwargs: Any) -> list[Line2D]:
        """``plot`` with a logarithmic x axis."""
        self._xscale = "log"
        return self.plot(*args, **kwargs)

    def loglog(self, *args: Any, **kwargs: Any) -> list[Line2D]:
        """``plot`` with both axes logarithmic."""
        self._xscale = self._yscale = "log"
        return self.plot(*args, **kwargs)

    def axhline(self, y: Any = 0, xmin: Any = 0, xmax: Any = 1, **kwargs: Any) -> Line2D:
        """A horizontal line across the axes."""
        return self._refline(y, False, xmin, xmax, kwargs, "axhline()")

    def axvline(self, x: Any = 0, ymin: Any = 0, ymax: Any = 1, **kwargs: Any) -> Line2D:
        """A vertical line across the axes."""
        return self._refline(x, True, ymin, ymax, kwargs, "axvline()")

    def _refline(self, value: Any, vertical: bool, lo: Any, hi: Any, kw: dict[str, Any],
                 what: str) -> Line2D:  # fmt: skip
        if (lo, hi) != (0, 1):
            raise not_available(f"{what} with a partial span")
        colour = pop(kw, "color", "c")
        fields = {
            "value": number(value, what), "vertical": vertical,
            "color": styles.color("C0" if colour is None else colour, pop(kw, "alpha")),
            "label": text(pop(kw, "label")),
            "width": float(pop(kw, "linewidth", "lw", default=recorder().rc["lines.linewidth"])),
            "style": styles.line_style(pop(kw, "linestyle", "ls", default="-")),
        }  # fmt: skip
        no_more(kw, what)
        return self._add(Line2D(self, "refline", fields))  # type: ignore[return-value]

    def fill_between(self, x: Any, y1: Any, y2: Any = 0, where: Any = None, **kw: Any) -> Any:
        """The band between two curves."""
        if where is not None:
            raise not_available("fill_between(where=...)")
        xs = numbers(x, "x").reshape(-1)
        a = np.broadcast_to(numbers(y1, "y1"), xs.shape).copy()
        b = np.broadcast_to(numbers(y2, "y2"), xs.shape).copy()
        colour = pop(kw, "color", "facecolor", "fc")
        fields = {"x": xs, "y1": a, "y2": b, "color": self._color(colour, pop(kw, "alpha"), True),
                  "label": text(pop(kw, "label"))}  # fmt: skip
        pop(kw, "interpolate", "step", "edgecolor", "ec", "linewidth", "lw")
        no_more(kw, "fill_between()")
        return self._add(PolyCollection(self, "fill", fields))

    # -- points, bars, histograms -----------------------------------------------------------
    def scatter(self, x: Any, y: Any, s: Any = None, c: Any = None, marker: Any = "o",
                cmap: Any = None, vmin: Any = None, vmax: Any = None, alpha: Any = None,
                **kw: Any) -> PathCollection:  # fmt: skip
        """Markers at (x, y), sized by ``s`` and coloured by ``c``."""
        xs, ys = numbers(x, "x").reshape(-1), numbers(y, "y").reshape(-1)
        check_lengths(xs, ys)
        colour = pop(kw, "color")
        label = text(pop(kw, "label"))
        no_more(kw, "scatter()")
        values = per_point = None
        if c is not None and not isinstance(c, str) and not is_color_tuple(c):
            if isinstance(c, list | tuple) and c and all(isinstance(v, str) for v in c):
                per_point = styles.colors(c, alpha)
            else:
                values = numbers(c, "c").reshape(-1)
            n = len(values if values is not None else per_point)  # type: ignore[arg-type]
            if n != len(xs):
                raise ValueError(f"'c' argument has {n} elements, which is inconsistent with "
                                 f"'x' and 'y' with size {len(xs)}")  # fmt: skip
            colour = None
        elif c is not None:
            colour = c
        sizes = None if s is None else np.broadcast_to(numbers(s, "s").reshape(-1), xs.shape)
        fields = {
            "x": xs, "y": ys, "color": self._color(colour, alpha, True), "label": label,
            "sizes": None if sizes is None else sizes.copy(), "values": values,
            "colors": per_point, "cmap": cmap_name(recorder().rc["image.cmap"] if cmap is None
                                                   else cmap),
            "marker": styles.marker(marker) or "o",
            "vmin": None if vmin is None else float(vmin),
            "vmax": None if vmax is None else float(vmax),
        }  # fmt: skip
        return self._add(PathCollection(self, "points", fields))  # type: ignore[return-value]

    def bar(self, x: Any, height: Any, width: Any = 0.8, bottom: Any = None,
            align: str = "center", **kw: Any) -> BarContainer:  # fmt: skip
        """Vertical bars at ``x`` (numbers or category names)."""
        return self._bars(x, height, width, bottom, align, False, kw, "bar()")

    def barh(self, y: Any, width: Any, height: Any = 0.8, left: Any = None,
             align: str = "center", **kw: Any) -> BarContainer:  # fmt: skip
        """Horizontal bars at ``y``."""
        return self._bars(y, width, height, left, align, True, kw, "barh()")

    def _bars(self, at: Any, size: Any, thick: Any, base: Any, align: str, horizontal: bool,
              kw: dict[str, Any], what: str) -> BarContainer:  # fmt: skip
        names = categories(at)
        pos = np.arange(len(names), dtype=np.float64) if names else numbers(at, "x").reshape(-1)
        heights = np.broadcast_to(numbers(size, "height").reshape(-1), pos.shape).copy()
        widths = np.broadcast_to(numbers(thick, "width").reshape(-1), pos.shape).copy()
        bases = np.zeros_like(pos) if base is None else np.broadcast_to(
            numbers(base, "bottom").reshape(-1), pos.shape).copy()  # fmt: skip
        if align == "edge":
            pos = pos + widths / 2
        elif align != "center":
            raise ValueError(f"align must be 'center' or 'edge', not {str(align)[:20]!r}")
        if pop(kw, "yerr", "xerr") is not None:
            raise not_available(f"{what} with error bars")
        tick_labels = pop(kw, "tick_label")
        colour = pop(kw, "color", "facecolor", "fc")
        edge = pop(kw, "edgecolor", "ec")
        fields = {"x": pos, "height": heights, "width": widths, "base": bases,
                  "color": self._color(colour, pop(kw, "alpha"), True),
                  "label": text(pop(kw, "label")), "horizontal": horizontal,
                  "edge": "#00000000" if edge is None else styles.color(edge)}  # fmt: skip
        pop(kw, "linewidth", "lw", "log")
        no_more(kw, what)
        labels = names or ([text(t) for t in tick_labels] if tick_labels is not None else None)
        if labels:
            ticks = tuple((float(p), lab) for p, lab in zip(pos, labels, strict=False))
            if horizontal:
                self._yticks = ticks
            else:
                self._xticks = ticks
        return self._add(BarContainer(self, "bars", fields))  # type: ignore[return-value]

    def hist(self, x: Any, bins: Any = 10, range: Any = None, density: bool = False,
             weights: Any = None, cumulative: bool = False, bottom: Any = None,
             histtype: str = "bar", orientation: str = "vertical", rwidth: Any = None,
             **kw: Any) -> tuple[Any, np.ndarray, Any]:  # fmt: skip
        """A histogram: returns (counts, bin edges, bars), as matplotlib does."""
        counts, edges = hist_counts(x, bins, range, density, weights, cumulative)
        if histtype not in ("bar", "step", "stepfilled"):
            raise not_available(f"hist(histtype={str(histtype)[:20]!r})")
        colour = pop(kw, "color", "facecolor", "fc")
        label, alpha = pop(kw, "label"), pop(kw, "alpha")
        edge = pop(kw, "edgecolor", "ec")
        pop(kw, "linewidth", "lw", "align", "log", "stacked")
        no_more(kw, "hist()")
        horizontal = orientation == "horizontal"
        handles = []
        ncol = counts.shape[0]
        full = np.diff(edges) * (1.0 if rwidth is None else float(rwidth))
        for j in _indices(ncol):
            several = isinstance(colour, list | tuple) and not is_color_tuple(colour)
            c = colour[j] if several else colour
            lab = label[j] if isinstance(label, list | tuple) else label
            if histtype == "step":
                xs = np.repeat(edges, 2)[1:-1]
                ys = np.repeat(counts[j], 2)
                line = {"x": ys if horizontal else xs, "y": xs if horizontal else ys,
                        "color": self._color(c, alpha), "label": text(lab), "width": 1.5,
                        "style": "-", "marker": "", "marker_size": 6.0}  # fmt: skip
                handles.append(self._add(Line2D(self, "line", line)))
                continue
            width = full / ncol
            centers = edges[:-1] + (np.diff(edges) - full) / 2 + width * (j + 0.5)
            fields = {"x": centers, "height": counts[j].copy(), "width": width.copy(),
                      "base": np.zeros_like(centers) if bottom is None else np.broadcast_to(
                          numbers(bottom, "bottom").reshape(-1), centers.shape).copy(),
                      "color": self._color(c, alpha, True), "label": text(lab),
                      "horizontal": horizontal,
                      "edge": "#00000000" if edge is None else styles.color(edge)}  # fmt: skip
            handles.append(self._add(BarContainer(self, "bars", fields)))
        n = counts[0].copy() if ncol == 1 else [row.copy() for row in counts]
        return n, edges.copy(), handles[0] if len(handles) == 1 else handles

    # -- grids -------------------------------------------------------------------------------
    def imshow(self, X: Any, cmap: Any = None, vmin: Any = None, vmax: Any = None,
               origin: Any = None, extent: Any = None, aspect: Any = None,
               **kw: Any) -> AxesImage:  # fmt: skip
        """An image of a grid of values (or of RGB(A) colours)."""
        values = numbers(X, "the image")
        if values.ndim not in (2, 3) or (values.ndim == 3 and values.shape[2] not in (3, 4)):
            raise TypeError(f"Invalid shape {values.shape} for image data")
        rows, cols = values.shape[:2]
        if rows > F.MAX_GRID or cols > F.MAX_GRID:
            raise not_available(f"imshow of more than {F.MAX_GRID}×{F.MAX_GRID} values")
        if values.ndim == 3 and X is not None and np.asarray(values).max() > 1.0:
            values = values / 255.0  # uint8-style colours
        origin = "upper" if origin is None else str(origin)
        if origin not in ("upper", "lower"):
            raise ValueError("origin must be 'upper' or 'lower'")
        if extent is None:
            bottom, top = (rows - 0.5, -0.5) if origin == "upper" else (-0.5, rows - 0.5)
            box = (-0.5, cols - 0.5, bottom, top)
        else:
            box = tuple(float(v) for v in numbers(extent, "extent").reshape(-1))
            if len(box) != 4:
                raise ValueError("extent is (left, right, bottom, top)")
        pop(kw, "alpha", "filternorm", "resample")
        label = text(pop(kw, "label"))
        no_more(kw, "imshow()")
        self._equal = aspect in (None, "equal")
        name = cmap_name(recorder().rc["image.cmap"] if cmap is None else cmap)
        fields = {"values": values, "extent": box, "cmap": name,
                  "vmin": None if vmin is None else float(vmin),
                  "vmax": None if vmax is None else float(vmax), "origin": origin,
                  "label": label}  # fmt: skip
        return self._add(AxesImage(self, "image", fields))  # type: ignore[return-value]

    matshow = imshow

    def contour(self, *args: Any, **kw: Any) -> ContourSet:
        """Level lines of Z over a grid: ``contour([X, Y,] Z, [levels])``."""
        return self._contour(args, kw, False)

    def contourf(self, *args: Any, **kw: Any) -> ContourSet:
        """Filled bands between levels of Z over a grid."""
        return self._contour(args, kw, True)

    def _contour(self, args: tuple[Any, ...], kw: dict[str, Any], filled: bool) -> ContourSet:
        what = "contourf()" if filled else "contour()"
        x, y, z, levels = contour_grid(args, pop(kw, "levels"), what)
        colors = pop(kw, "colors")
        if isinstance(colors, list | tuple) and colors and not is_color_tuple(colors):
            colors = colors[0]
        cmap = pop(kw, "cmap")
        width = pop(kw, "linewidths", default=1.5)
        fields = {
            "x": x, "y": y, "z": z, "levels": contour_levels(z, levels, filled),
            "filled": filled, "cmap": cmap_name(recorder().rc["image.cmap"] if cmap is None
                                                else cmap),
            "color": "" if colors is None else styles.color(colors, pop(kw, "alpha")),
            "width": float(width if np.ndim(width) == 0 else np.ravel(width)[0]),
            "labels": False, "label": text(pop(kw, "label")),
        }  # fmt: skip
        pop(kw, "alpha", "linestyles", "extend", "origin", "vmin", "vmax", "extent")
        no_more(kw, what)
        return self._add(ContourSet(self, "contour", fields))  # type: ignore[return-value]

    def clabel(self, cs: Any, *args: Any, **kw: Any) -> list[Any]:
        """Label a contour's lines with their levels."""
        if not isinstance(cs, ContourSet):
            raise TypeError("clabel() needs what contour() returned")
        cs._update(labels=True)
        return []

    # -- text --------------------------------------------------------------------------------
    def text(self, x: Any, y: Any, s: Any, **kw: Any) -> Text:
        """A text at a data position."""
        if kw.pop("transform", None) is not None:
            raise not_available("text(transform=...)")
        size = pop(kw, "fontsize", "size", default=10)
        fields = {"x": number(x, "x"), "y": number(y, "y"), "text": text(s, "the text"),
                  "color": styles.color(pop(kw, "color", "c", default="k")),
                  "size": float(size) if isinstance(size, int | float) else 10.0}  # fmt: skip
        pop(kw, "alpha", "fontweight", "weight", "bbox", "family", "style")
        no_more(kw, "text()")
        return self._add(Text(self, "text", fields))  # type: ignore[return-value]

    def annotate(self, text_: Any = None, xy: Any = None, xytext: Any = None, **kw: Any) -> Text:
        """A text at ``xytext`` (or ``xy``); arrows are not drawn."""
        if "text" in kw:
            text_ = kw.pop("text")
        pop(kw, "arrowprops", "xycoords", "textcoords")
        at = numbers(xytext if xytext is not None else xy, "xy").reshape(-1)
        if at.size != 2:
            raise ValueError("xy must be a pair (x, y)")
        return self.text(at[0], at[1], text_, **kw)


_indices = range


def _groups(args: tuple[Any, ...]) -> list[tuple[Any, Any, str | None]]:
    """``plot``'s positional arguments as (x or None, y, fmt) groups."""
    out: list[tuple[Any, Any, str | None]] = []
    rest = list(args)
    if not rest:
        return out
    while rest:
        if len(rest) >= 2 and isinstance(rest[1], str):  # y, fmt
            out.append((None, rest[0], rest[1]))
            rest = rest[2:]
        elif len(rest) >= 3 and isinstance(rest[2], str):  # x, y, fmt
            out.append((rest[0], rest[1], rest[2]))
            rest = rest[3:]
        elif len(rest) >= 2:  # x, y
            out.append((rest[0], rest[1], None))
            rest = rest[2:]
        else:  # y
            out.append((None, rest[0], None))
            rest = []
        if any(isinstance(v, str) for v in out[-1][:2]):
            raise ValueError("plot() takes numbers for x and y (a format string comes after them)")
    return out
