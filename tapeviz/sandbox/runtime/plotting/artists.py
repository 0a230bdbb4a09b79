"""What plotting calls return: handles on a series (``Line2D``, ``AxesImage``, ...).

A handle holds its series' fields while the run goes on (``line.set_data`` changes them) and
the numbers they hold count against the run's plotting limit. Everything a script must not
reach is behind a ``_``: the policy lets scripts use the public API of this package whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.sandbox import figures as F
from tapeviz.sandbox.runtime.plotting import styles
from tapeviz.sandbox.runtime.plotting.recorder import numbers, recorder, text


def _size(fields: dict[str, Any]) -> int:
    return sum(int(v.size) for v in fields.values() if isinstance(v, np.ndarray))


class Artist:
    """A series on an axes; ``remove()`` takes it off."""

    def __init__(self, axes: Any, kind: str, fields: dict[str, Any]) -> None:
        self._axes = axes
        self._kind = kind
        self._fields = fields
        self._held = _size(fields)
        recorder().spend(self._held)

    def _update(self, **changes: Any) -> None:
        fields = {**self._fields, **changes}
        held = _size(fields)
        recorder().spend(held - self._held)
        self._fields, self._held = fields, held

    def _data(self) -> F.Series:
        return F.KINDS[self._kind](**self._fields)

    def get_label(self) -> str:
        """The legend label."""
        return str(self._fields.get("label", ""))

    def set_label(self, label: Any) -> None:
        """Set the legend label."""
        self._update(label=text(label))

    def get_color(self) -> str:
        """The colour, as ``#rrggbbaa``."""
        return str(self._fields.get("color", ""))

    def set_color(self, color: Any) -> None:
        """Set the colour."""
        self._update(color=styles.color(color))

    def set_alpha(self, alpha: Any) -> None:
        """Set the opacity (0 to 1)."""
        if self._fields.get("color"):
            self._update(color=styles.color(self._fields["color"], float(alpha)))

    def remove(self) -> None:
        """Take the series off its axes."""
        self._axes._remove(self)

    def __repr__(self) -> str:
        label = self.get_label()
        return f"<{type(self).__name__}{' ' + repr(label) if label else ''}>"


class Line2D(Artist):
    """A line from ``plot``."""

    def get_xdata(self) -> np.ndarray:
        """The x values."""
        return self._fields["x"].copy()

    def get_ydata(self) -> np.ndarray:
        """The y values."""
        return self._fields["y"].copy()

    def set_data(self, x: Any, y: Any) -> None:
        """Replace both x and y."""
        xs, ys = numbers(x, "x").reshape(-1), numbers(y, "y").reshape(-1)
        if len(xs) != len(ys):
            raise ValueError(f"x and y must have same first dimension, but have shapes "
                             f"{xs.shape} and {ys.shape}")  # fmt: skip
        self._update(x=xs, y=ys)

    def set_xdata(self, x: Any) -> None:
        """Replace the x values."""
        self._update(x=numbers(x, "x").reshape(-1))

    def set_ydata(self, y: Any) -> None:
        """Replace the y values."""
        self._update(y=numbers(y, "y").reshape(-1))

    def set_linewidth(self, width: Any) -> None:
        """Set the line width (points)."""
        self._update(width=max(float(width), 0.0))

    def set_linestyle(self, style: Any) -> None:
        """Set the line style."""
        self._update(style=styles.line_style(style))

    def set_marker(self, marker: Any) -> None:
        """Set the marker."""
        self._update(marker=styles.marker(marker))


class PathCollection(Artist):
    """The points of ``scatter``."""

    def set_sizes(self, sizes: Any) -> None:
        """Marker areas in points²."""
        self._update(sizes=numbers(sizes, "sizes").reshape(-1))


class BarContainer(Artist):
    """The bars of ``bar``, ``barh`` or ``hist``."""

    def __len__(self) -> int:
        return len(self._fields["x"])


class AxesImage(Artist):
    """The image of ``imshow``."""

    def set_data(self, values: Any) -> None:
        """Replace the values (same kind of grid)."""
        self._update(values=numbers(values, "the image"))

    def set_clim(self, vmin: Any = None, vmax: Any = None) -> None:
        """The value range the colormap spans."""
        if isinstance(vmin, tuple | list) and vmax is None:
            vmin, vmax = vmin
        self._update(vmin=None if vmin is None else float(vmin),
                     vmax=None if vmax is None else float(vmax))  # fmt: skip

    def set_cmap(self, cmap: Any) -> None:
        """Change the colormap."""
        from tapeviz.sandbox.runtime.plotting.colormaps import cmap_name

        self._update(cmap=cmap_name(cmap))


class ContourSet(Artist):
    """The level lines (or bands) of ``contour``/``contourf``; ``levels`` holds the levels."""

    def __init__(self, axes: Any, kind: str, fields: dict[str, Any]) -> None:
        super().__init__(axes, kind, fields)
        self.levels = fields["levels"].copy()


class PolyCollection(Artist):
    """The band of ``fill_between``."""


class Text(Artist):
    """A text from ``text``/``annotate``."""

    def set_text(self, value: Any) -> None:
        """Replace the text."""
        self._update(text=text(value))

    def get_text(self) -> str:
        """The text."""
        return str(self._fields["text"])


class Colorbar:
    """The colorbar of an axes (drawn by the Plots tab beside it)."""

    def __init__(self, axes: Any) -> None:
        self._axes = axes

    def set_label(self, label: Any) -> None:
        """The colorbar's label."""
        self._axes._colorbar = text(label)

    def __repr__(self) -> str:
        return "<Colorbar>"
