"""The figures a run drew with ``matplotlib.pyplot``, as plain data (no Qt, no matplotlib).

A :class:`Figure` is a grid of :class:`Axes`; each axes holds its titles, labels, ranges,
scales and a list of series (:class:`Line`, :class:`Points`, :class:`Bars`, :class:`Image`,
:class:`Contour`, :class:`Fill`, :class:`RefLine`, :class:`Text`) with float64 arrays and
``#rrggbbaa`` colours. This is what crosses the process boundary (validated on receipt) and what
the Plots tab draws; nothing here can run code.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MAX_FIGURES = 50  # figures kept from one run (matplotlib warns at 20 open ones)
MAX_AXES = 64  # per figure
MAX_SERIES = 500  # per axes
MAX_POINTS = 2_000_000  # numbers in all of a run's figures together
MAX_TEXT = 500  # characters of a title, label or text
MAX_GRID = 1024  # rows or columns of an image or contour grid
COLOR = re.compile(r"#[0-9a-f]{8}")
LINE_STYLES = ("-", "--", ":", "-.", "")  # "" is no line
MARKERS = ("", "o", ".", ",", "s", "^", "v", "<", ">", "x", "+", "*", "d", "D", "p", "h", "H",
           "8", "|", "_", "P", "X")  # fmt: skip
SCALES = ("linear", "log", "symlog")
LEGEND_PLACES = (
    "best", "upper right", "upper left", "lower left", "lower right", "right", "center left",
    "center right", "lower center", "upper center", "center",
)  # fmt: skip
# Colormaps a script may name (each also with "_r", reversed): evenly spaced colours from the
# lowest value to the highest (matplotlib's own maps, sampled). The Plots tab draws with these.
COLORMAPS: dict[str, tuple[str, ...]] = {
    "viridis": ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779",
                "#6ece58", "#b5de2b", "#fde725"),
    "plasma": ("#0d0887", "#46039f", "#7201a8", "#9c179e", "#bd3786", "#d8576b", "#ed7953",
               "#fb9f3a", "#fdca26", "#f0f921"),
    "inferno": ("#000004", "#1b0c41", "#4a0c6b", "#781c6d", "#a52c60", "#cf4446", "#ed6925",
                "#fb9b06", "#f7d13d", "#fcffa4"),
    "magma": ("#000004", "#180f3d", "#440f76", "#721f81", "#9e2f7f", "#cd4071", "#f1605d",
              "#fd9668", "#feca8d", "#fcfdbf"),
    "cividis": ("#00224e", "#123570", "#3b496c", "#575d6d", "#707173", "#8a8678", "#a59c74",
                "#c3b369", "#e1cc55", "#fee838"),
    "turbo": ("#30123b", "#4145ab", "#4675ed", "#39a2fc", "#1bcfd4", "#24eca6", "#61fc6c",
              "#a4fc3b", "#d1e834", "#f3c63a", "#fe9b2d", "#f36315", "#d93806", "#b11901",
              "#7a0403"),
    "gray": ("#000000", "#ffffff"),
    "Greys": ("#ffffff", "#f0f0f0", "#d9d9d9", "#bdbdbd", "#969696", "#737373", "#525252",
              "#252525", "#000000"),
    "Blues": ("#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5",
              "#08519c", "#08306b"),
    "Reds": ("#fff5f0", "#fee0d2", "#fcbba1", "#fc9272", "#fb6a4a", "#ef3b2c", "#cb181d",
             "#a50f15", "#67000d"),
    "Greens": ("#f7fcf5", "#e5f5e0", "#c7e9c0", "#a1d99b", "#74c476", "#41ab5d", "#238b45",
               "#006d2c", "#00441b"),
    "Oranges": ("#fff5eb", "#fee6ce", "#fdd0a2", "#fdae6b", "#fd8d3c", "#f16913", "#d94801",
                "#a63603", "#7f2704"),
    "Purples": ("#fcfbfd", "#efedf5", "#dadaeb", "#bcbddc", "#9e9ac8", "#807dba", "#6a51a3",
                "#54278f", "#3f007d"),
    "coolwarm": ("#3b4cc0", "#5977e3", "#7b9ff9", "#9ebeff", "#c0d4f5", "#dddcdc", "#f2cbb7",
                 "#f7ac8e", "#ee8468", "#d65244", "#b40426"),
    "bwr": ("#0000ff", "#ffffff", "#ff0000"),
    "seismic": ("#00004c", "#0000ff", "#ffffff", "#ff0000", "#7f0000"),
    "RdBu": ("#67001f", "#b2182b", "#d6604d", "#f4a582", "#fddbc7", "#f7f7f7", "#d1e5f0",
             "#92c5de", "#4393c3", "#2166ac", "#053061"),
    "RdYlBu": ("#a50026", "#d73027", "#f46d43", "#fdae61", "#fee090", "#ffffbf", "#e0f3f8",
               "#abd9e9", "#74add1", "#4575b4", "#313695"),
    "RdYlGn": ("#a50026", "#d73027", "#f46d43", "#fdae61", "#fee08b", "#ffffbf", "#d9ef8b",
               "#a6d96a", "#66bd63", "#1a9850", "#006837"),
    "Spectral": ("#9e0142", "#d53e4f", "#f46d43", "#fdae61", "#fee08b", "#ffffbf", "#e6f598",
                 "#abdda4", "#66c2a5", "#3288bd", "#5e4fa2"),
    "jet": ("#00007f", "#0000ff", "#007fff", "#00ffff", "#7fff7f", "#ffff00", "#ff7f00",
            "#ff0000", "#7f0000"),
    "hot": ("#0b0000", "#550000", "#a00000", "#ea0000", "#ff3500", "#ff8000", "#ffca00",
            "#ffff20", "#ffff90", "#ffffff"),
    "cool": ("#00ffff", "#ff00ff"),
    "spring": ("#ff00ff", "#ffff00"),
    "summer": ("#008066", "#ffff66"),
    "autumn": ("#ff0000", "#ffff00"),
    "winter": ("#0000ff", "#00ff80"),
}  # fmt: skip


def colormap_stops(name: str) -> tuple[str, ...]:
    """The colours of a (canonical) colormap name, low to high; reversed for ``..._r``."""
    if name.endswith("_r"):
        return COLORMAPS[name[:-2]][::-1]
    return COLORMAPS[name]


def colormap_name(name: str) -> str | None:
    """The canonical name of a colormap (``grey`` is ``gray``), or None if unknown."""
    base, reverse = (name[:-2], "_r") if name.endswith("_r") else (name, "")
    base = "gray" if base == "grey" else base
    return base + reverse if base in COLORMAPS else None


@dataclass(frozen=True)
class Line:
    """``plot``: a polyline with optional markers."""

    x: np.ndarray
    y: np.ndarray
    color: str
    label: str = ""
    width: float = 1.5
    style: str = "-"
    marker: str = ""
    marker_size: float = 6.0
    kind = "line"


@dataclass(frozen=True)
class Points:
    """``scatter``: markers, one colour or coloured by ``values`` through ``cmap``."""

    x: np.ndarray
    y: np.ndarray
    color: str
    label: str = ""
    sizes: np.ndarray | None = None  # marker areas in points², per point
    values: np.ndarray | None = None  # numbers mapped through the colormap
    colors: np.ndarray | None = None  # (n, 4) RGBA in [0, 1], one colour per point
    cmap: str = "viridis"
    marker: str = "o"
    vmin: float | None = None
    vmax: float | None = None
    kind = "points"


@dataclass(frozen=True)
class Bars:
    """``bar``/``barh``/``hist``: rectangles from ``base`` to ``base + height`` at ``x``."""

    x: np.ndarray  # centres (of the bars' width direction)
    height: np.ndarray
    width: np.ndarray
    base: np.ndarray
    color: str
    label: str = ""
    horizontal: bool = False
    edge: str = "#00000000"
    kind = "bars"


@dataclass(frozen=True)
class Image:
    """``imshow``: a grid of values (through ``cmap``) or of RGB(A) colours in [0, 1]."""

    values: np.ndarray  # (rows, cols) or (rows, cols, 3|4)
    extent: tuple[float, float, float, float]  # left, right, bottom, top
    cmap: str = "viridis"
    vmin: float | None = None
    vmax: float | None = None
    origin: str = "upper"
    label: str = ""
    kind = "image"


@dataclass(frozen=True)
class Contour:
    """``contour``/``contourf``: level lines (or bands) of ``z`` over the grid ``x`` × ``y``."""

    x: np.ndarray  # (cols,)
    y: np.ndarray  # (rows,)
    z: np.ndarray  # (rows, cols)
    levels: np.ndarray
    filled: bool = False
    cmap: str = "viridis"
    color: str = ""  # one colour for every line instead of the colormap
    width: float = 1.5
    labels: bool = False  # clabel()
    label: str = ""
    kind = "contour"


@dataclass(frozen=True)
class Fill:
    """``fill_between``: the band between ``y1`` and ``y2`` over ``x``."""

    x: np.ndarray
    y1: np.ndarray
    y2: np.ndarray
    color: str
    label: str = ""
    kind = "fill"


@dataclass(frozen=True)
class RefLine:
    """``axhline``/``axvline``: a line across the whole axes."""

    value: float
    vertical: bool
    color: str
    label: str = ""
    width: float = 1.5
    style: str = "-"
    kind = "refline"


@dataclass(frozen=True)
class Text:
    """``text``/``annotate``: a string at a data position."""

    x: float
    y: float
    text: str
    color: str
    size: float = 10.0
    kind = "text"


Series = Line | Points | Bars | Image | Contour | Fill | RefLine | Text
KINDS: dict[str, type] = {c.kind: c for c in (Line, Points, Bars, Image, Contour, Fill, RefLine,
                                              Text)}  # fmt: skip


@dataclass(frozen=True)
class Axes:
    """One plot of a figure, at ``row, col`` of its grid (spanning ``rowspan × colspan``)."""

    row: int
    col: int
    rowspan: int = 1
    colspan: int = 1
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None
    xscale: str = "linear"
    yscale: str = "linear"
    grid: bool = False
    legend: str | None = None  # where the legend goes, None: no legend
    equal: bool = False  # set_aspect("equal")
    frame: bool = True  # axis("off") hides the axes
    colorbar: str = ""  # the colorbar's label
    colorbar_for: int = -1  # index of the series the colorbar explains (-1: no colorbar)
    xticks: tuple[tuple[float, str], ...] | None = None
    yticks: tuple[tuple[float, str], ...] | None = None
    series: tuple[Series, ...] = ()


@dataclass(frozen=True)
class Figure:
    """A figure: its number, suptitle, size in inches, grid and axes; where it was saved."""

    number: int
    rows: int = 1
    cols: int = 1
    title: str = ""
    size: tuple[float, float] = (6.4, 4.8)
    axes: tuple[Axes, ...] = ()
    saved: tuple[str, ...] = field(default_factory=tuple)  # savefig names (nothing is written)


class Drawn(tuple):  # type: ignore[type-arg]
    """A run's figures with their :func:`fingerprint` (``key``), made where they are received."""

    key: bytes = b""

    def __new__(cls, figures: tuple[Figure, ...]) -> Drawn:
        out = super().__new__(cls, figures)
        out.key = fingerprint(figures)
        return out


def fingerprint(figures: tuple[Figure, ...]) -> bytes:
    """A digest of everything the figures hold (the same figures: the same digest)."""
    digest = hashlib.blake2b(str(len(figures)).encode(), digest_size=16)
    stack: list[Any] = list(reversed(figures))
    while stack:
        item = stack.pop()
        if isinstance(item, np.ndarray):
            data = np.ascontiguousarray(item)
            digest.update(f"{data.dtype.str}{data.shape}".encode())
            digest.update(memoryview(data).cast("B"))
        elif isinstance(item, tuple | list):
            digest.update(f"[{len(item)}".encode())
            stack.extend(reversed(item))
        elif hasattr(item, "__dataclass_fields__"):
            digest.update(type(item).__name__.encode())
            stack.extend(reversed([getattr(item, f) for f in item.__dataclass_fields__]))
        else:
            digest.update(repr(item).encode())
    return digest.digest()


def points(figure: Figure) -> int:
    """How many numbers a figure's arrays hold (for the size limit)."""
    total = 0
    for ax in figure.axes:
        for s in ax.series:
            for value in vars(s).values():
                if isinstance(value, np.ndarray):
                    total += value.size
    return total


# -- matplotlib's mathtext, as plain text ------------------------------------------------------
_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
    "Omega": "Ω", "nabla": "∇", "partial": "∂", "cdot": "·", "times": "×", "div": "÷",
    "pm": "±", "infty": "∞", "approx": "≈", "leq": "≤", "geq": "≥", "le": "≤", "ge": "≥",
    "neq": "≠", "ne": "≠", "sum": "Σ", "prod": "∏", "int": "∫", "sqrt": "√", "to": "→",
    "rightarrow": "→", "leftarrow": "←", "in": "∈", "ell": "ℓ", "hat": "", "mathrm": "",
    "mathbf": "", "mathit": "", "text": "", "left": "", "right": "", ",": " ", ";": " ",
    "quad": "  ", "log": "log", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
    "min": "min", "max": "max", "lVert": "‖", "rVert": "‖", "Vert": "‖", "|": "‖",
}  # fmt: skip
_SUPER = str.maketrans("0123456789+-=()nixyT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱˣʸᵀ")
_SUB = str.maketrans("0123456789+-=()aeijkmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑᵢⱼₖₘₙₒₚᵣₛₜᵤᵥₓ")
_COMMAND = re.compile(r"\\([A-Za-z]+|[,;|])")
_SCRIPT = re.compile(r"([\^_])(\{[^{}]*\}|\\?[A-Za-z0-9+\-=()])")
_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")


def _script(match: re.Match[str]) -> str:
    mark, body = match.group(1), match.group(2).strip("{}")
    table = _SUPER if mark == "^" else _SUB
    shifted = body.translate(table)
    if all(a != b for a, b in zip(body, shifted, strict=True)):
        return shifted
    return f"{mark}({body})" if len(body) > 1 else mark + body


def _math(text: str) -> str:
    text = _FRAC.sub(r"(\1)/(\2)", text)
    text = _COMMAND.sub(lambda m: _SYMBOLS.get(m.group(1), m.group(1)), text)
    text = _SCRIPT.sub(_script, text)
    return text.replace("{", "").replace("}", "")


def plain_text(text: str) -> str:
    r"""A label with ``$...$`` mathtext turned into Unicode (``$\alpha^2$`` → ``α²``)."""
    if "$" not in text:
        return text
    parts = re.split(r"(?<!\\)\$", text)
    if len(parts) % 2 == 0:  # an unpaired $: leave the text alone
        return text
    return "".join(_math(p) if i % 2 else p for i, p in enumerate(parts)).replace("\\$", "$")


def describe(figure: Figure) -> dict[str, Any]:
    """A short summary (for tests and logs): axes count, series kinds per axes."""
    return {
        "number": figure.number,
        "grid": (figure.rows, figure.cols),
        "axes": [[s.kind for s in ax.series] for ax in figure.axes],
    }
