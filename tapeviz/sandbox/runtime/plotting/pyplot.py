"""``import matplotlib.pyplot as plt``: pyplot's functions over the run's figures.

Every drawing function goes to the current axes (made when there is none), as in pyplot;
figures come back from the run as data and are drawn in the window's Plots tab. Names pyplot
has but tapeviz does not draw say so (see :mod:`tapeviz.sandbox.runtime.known`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.plotting import recorder as R
from tapeviz.sandbox.runtime.plotting.axes import Axes
from tapeviz.sandbox.runtime.plotting.colormaps import CM, Colormap, colormap_names, get_cmap
from tapeviz.sandbox.runtime.plotting.figure import Figure, colorbar, parse_spec
from tapeviz.sandbox.runtime.plotting.recorder import recorder, text
from tapeviz.sandbox.runtime.policy import marker

VERSION = "3.9.0-tapeviz"


def figure(num: Any = None, figsize: Any = None, dpi: Any = None, clear: bool = False,
           **kw: Any) -> Figure:  # fmt: skip
    """A new figure (or figure ``num`` again), made current."""
    rec = recorder()
    if isinstance(num, Figure):
        rec.make_current(num)
        return num
    if isinstance(num, int) and not isinstance(num, bool):
        for fig in rec.all:
            if fig._number == num:
                rec.make_current(fig)
                if clear:
                    fig.clf()
                return fig
    fig = Figure(figsize)
    return fig


def gcf() -> Figure:
    """The current figure (made if there is none)."""
    current = recorder().current()
    return current if current is not None else Figure()


def gca() -> Axes:
    """The current axes of the current figure."""
    return gcf().gca()


def sca(ax: Any) -> None:
    """Make ``ax`` (and its figure) current."""
    if not isinstance(ax, Axes):
        raise TypeError("sca() takes an axes")
    recorder().make_current(ax._figure)
    ax._figure.sca(ax)


def subplot(*args: Any, **kw: Any) -> Axes:
    """The axes at a grid position of the current figure: ``subplot(2, 1, 1)``, ``subplot(211)``."""
    return gcf().add_subplot(*args, **kw)


def axes(*args: Any, **kw: Any) -> Axes:
    """An axes over the whole current figure."""
    if args:
        raise R.not_available("plt.axes([left, bottom, width, height])")
    return gcf().add_subplot(1, 1, 1, **kw)


def subplots(nrows: int = 1, ncols: int = 1, *, figsize: Any = None, squeeze: bool = True,
             **kw: Any) -> tuple[Figure, Any]:  # fmt: skip
    """A new figure and its grid of axes: ``fig, ax = plt.subplots()``, ``fig, (a, b) = ...``."""
    kw.pop("dpi", None), kw.pop("constrained_layout", None), kw.pop("layout", None)
    parse_spec((nrows, ncols, 1))  # the grid is checked before a figure is made
    fig = Figure(figsize)
    return fig, fig.subplots(nrows, ncols, squeeze=squeeze, **kw)


def show(*args: Any, **kw: Any) -> None:
    """Show every open figure in the Plots tab (and close them, as a notebook does)."""
    recorder().show()


def savefig(fname: Any = None, **kw: Any) -> None:
    """Keep the current figure in the Plots tab (no file is written)."""
    gcf().savefig(fname, **kw)


def close(fig: Any = None) -> None:
    """Close the current figure, a figure, a figure number, or ``'all'``."""
    rec = recorder()
    if fig == "all":
        rec.open.clear()
        return
    if fig is None:
        fig = rec.current()
    elif isinstance(fig, int) and not isinstance(fig, bool):
        fig = next((f for f in rec.all if f._number == fig), None)
    if isinstance(fig, Figure):
        rec.close(fig)


def clf() -> None:
    """Clear the current figure."""
    gcf().clf()


def cla() -> None:
    """Clear the current axes."""
    gca().cla()


def suptitle(t: Any, **kw: Any) -> None:
    """The current figure's title."""
    gcf().suptitle(t, **kw)


def plt_colorbar(mappable: Any = None, ax: Any = None, label: Any = "", **kw: Any) -> Any:
    """A colorbar for the last image, contour or coloured scatter (or ``mappable``)."""
    return colorbar(mappable, ax, label)


def _nothing(*args: Any, **kw: Any) -> None:
    """Accepted for compatibility: changes nothing the Plots tab draws."""


def _limits(getter: str, setter: str) -> Callable[..., Any]:
    def limits(*args: Any, **kw: Any) -> Any:
        ax = gca()
        return getattr(ax, setter)(*args, **kw) if args or kw else getattr(ax, getter)()

    limits.__name__ = setter[4:]
    return limits


def _ticks(setter: str) -> Callable[..., Any]:
    def ticks(ticks: Any = None, labels: Any = None, **kw: Any) -> None:
        if ticks is not None:
            getattr(gca(), setter)(ticks, labels)

    ticks.__name__ = setter[4:]
    return ticks


def _forward(method: str) -> Callable[..., Any]:
    def forwarded(*args: Any, **kw: Any) -> Any:
        return getattr(gca(), method)(*args, **kw)

    forwarded.__doc__ = f"``gca().{method}(...)``"
    forwarded.__name__ = method
    return forwarded


class RcParams:
    """``plt.rcParams``: the run's settings (figure size, line width, grid, colormap, ...)."""

    def __getitem__(self, key: Any) -> Any:
        try:
            return recorder().rc[key]
        except KeyError:
            raise KeyError(f"{str(key)[:60]!r} is not a setting tapeviz knows") from None

    def __setitem__(self, key: Any, value: Any) -> None:
        if not isinstance(key, str) or len(key) > 100:
            raise KeyError("rcParams keys are strings such as 'figure.figsize'")
        if key == "figure.figsize":
            from tapeviz.sandbox.runtime.plotting.figure import _size

            value = _size(value)
        elif key in ("lines.linewidth", "lines.markersize", "font.size") and not isinstance(
            value, int | float
        ):  # fmt: skip
            raise ValueError(f"{key} must be a number")
        elif key == "image.cmap":
            from tapeviz.sandbox.runtime.plotting.colormaps import cmap_name

            value = cmap_name(value)
        elif not isinstance(value, int | float | str | bool | tuple | list | type(None)):
            raise ValueError(f"rcParams values are numbers, strings or lists, not "
                             f"{type(value).__name__}")  # fmt: skip
        recorder().rc[key] = value

    def __contains__(self, key: Any) -> bool:
        return key in recorder().rc

    def __iter__(self) -> Iterator[str]:
        return iter(list(recorder().rc))

    def get(self, key: Any, default: Any = None) -> Any:
        """A setting, or ``default``."""
        return recorder().rc.get(key, default)

    def update(self, values: Any = None, **kw: Any) -> None:
        """Several settings at once."""
        for key, value in {**dict(values or {}), **kw}.items():
            self[key] = value

    def __repr__(self) -> str:
        return "<rcParams>"


RC_PARAMS = RcParams()


def rc(group: Any, **kw: Any) -> None:
    """``plt.rc('lines', linewidth=2)``: settings of one group."""
    aliases = {"lw": "linewidth", "ms": "markersize"}
    for key, value in kw.items():
        RC_PARAMS[f"{text(group)}.{aliases.get(key, key)}"] = value


def rcdefaults() -> None:
    """Back to the default settings."""
    recorder().rc = dict(R.RC_DEFAULTS)


def style_use(style: Any) -> None:
    """``plt.style.use(...)``: accepted; the Plots tab follows tapeviz's light or dark theme."""
    recorder().note("style", say("note_style", style=repr(text(style)[:40])))


STYLE = Namespace(
    "matplotlib.style",
    {"use": style_use, "available": ("default", "classic", "ggplot", "seaborn-v0_8", "bmh",
                                     "dark_background", "fivethirtyeight", "grayscale")},
)  # fmt: skip


class ColormapRegistry:
    """``matplotlib.colormaps``: the colormaps by name (read-only)."""

    def __getitem__(self, name: Any) -> Colormap:
        return get_cmap(name)

    def __iter__(self) -> Iterator[str]:
        return iter(colormap_names())

    def __contains__(self, name: Any) -> bool:
        return name in colormap_names()

    def __len__(self) -> int:
        return len(colormap_names())

    def __repr__(self) -> str:
        return "<colormaps>"


_AXES_FUNCTIONS = (
    "plot scatter bar barh hist imshow matshow contour contourf clabel fill_between axhline "
    "axvline text annotate legend grid axis semilogy semilogx loglog tick_params "
    "minorticks_on minorticks_off margins autoscale"
).split()

PYPLOT = Namespace(
    "matplotlib.pyplot",
    {
        **{name: _forward(name) for name in _AXES_FUNCTIONS},
        "title": _forward("set_title"),
        "xlabel": _forward("set_xlabel"),
        "ylabel": _forward("set_ylabel"),
        "xscale": _forward("set_xscale"),
        "yscale": _forward("set_yscale"),
        "xlim": _limits("get_xlim", "set_xlim"),
        "ylim": _limits("get_ylim", "set_ylim"),
        "xticks": _ticks("set_xticks"),
        "yticks": _ticks("set_yticks"),
        "figure": figure,
        "subplot": subplot,
        "subplots": subplots,
        "axes": axes,
        "gcf": gcf,
        "gca": gca,
        "sca": sca,
        "show": show,
        "savefig": savefig,
        "close": close,
        "clf": clf,
        "cla": cla,
        "suptitle": suptitle,
        "colorbar": plt_colorbar,
        "tight_layout": _nothing,
        "subplots_adjust": _nothing,
        "draw": _nothing,
        "pause": _nothing,
        "ion": _nothing,
        "ioff": _nothing,
        "get_cmap": get_cmap,
        "colormaps": colormap_names,
        "cm": CM,
        "rcParams": RC_PARAMS,
        "rc": rc,
        "rcdefaults": rcdefaults,
        "style": STYLE,
        "Figure": marker(Figure),  # for isinstance()
        "Axes": marker(Axes),
    },
)
MATPLOTLIB = Namespace(
    "matplotlib",
    {
        "pyplot": PYPLOT,
        "cm": CM,
        "style": STYLE,
        "rcParams": RC_PARAMS,
        "rc": rc,
        "rcdefaults": rcdefaults,
        "colormaps": ColormapRegistry(),
        "use": _nothing,
        "get_backend": lambda: "tapeviz",
        "__version__": VERSION,
    },
)
