"""matplotlib's colour, line-style and marker spellings, and its ``'ro--'`` format strings."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.sandbox.figures import LINE_STYLES, MARKERS

# The default property cycle ("tab10"), as C0..C9.
CYCLE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
         "#7f7f7f", "#bcbd22", "#17becf")  # fmt: skip
_BASE = {"b": "#0000ff", "g": "#008000", "r": "#ff0000", "c": "#00bfbf", "m": "#bf00bf",
         "y": "#bfbf00", "k": "#000000", "w": "#ffffff"}  # fmt: skip
_TAB = dict(zip(("blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive",
                 "cyan"), CYCLE, strict=True))  # fmt: skip
# CSS4 / X11 colour names, as matplotlib has them.
_CSS = dict(
    pair.split(":")
    for pair in """
aliceblue:f0f8ff antiquewhite:faebd7 aqua:00ffff aquamarine:7fffd4 azure:f0ffff beige:f5f5dc
bisque:ffe4c4 black:000000 blanchedalmond:ffebcd blue:0000ff blueviolet:8a2be2 brown:a52a2a
burlywood:deb887 cadetblue:5f9ea0 chartreuse:7fff00 chocolate:d2691e coral:ff7f50
cornflowerblue:6495ed cornsilk:fff8dc crimson:dc143c cyan:00ffff darkblue:00008b darkcyan:008b8b
darkgoldenrod:b8860b darkgray:a9a9a9 darkgreen:006400 darkgrey:a9a9a9 darkkhaki:bdb76b
darkmagenta:8b008b darkolivegreen:556b2f darkorange:ff8c00 darkorchid:9932cc darkred:8b0000
darksalmon:e9967a darkseagreen:8fbc8f darkslateblue:483d8b darkslategray:2f4f4f
darkslategrey:2f4f4f darkturquoise:00ced1 darkviolet:9400d3 deeppink:ff1493 deepskyblue:00bfff
dimgray:696969 dimgrey:696969 dodgerblue:1e90ff firebrick:b22222 floralwhite:fffaf0
forestgreen:228b22 fuchsia:ff00ff gainsboro:dcdcdc ghostwhite:f8f8ff gold:ffd700
goldenrod:daa520 gray:808080 green:008000 greenyellow:adff2f grey:808080 honeydew:f0fff0
hotpink:ff69b4 indianred:cd5c5c indigo:4b0082 ivory:fffff0 khaki:f0e68c lavender:e6e6fa
lavenderblush:fff0f5 lawngreen:7cfc00 lemonchiffon:fffacd lightblue:add8e6 lightcoral:f08080
lightcyan:e0ffff lightgoldenrodyellow:fafad2 lightgray:d3d3d3 lightgreen:90ee90 lightgrey:d3d3d3
lightpink:ffb6c1 lightsalmon:ffa07a lightseagreen:20b2aa lightskyblue:87cefa
lightslategray:778899 lightslategrey:778899 lightsteelblue:b0c4de lightyellow:ffffe0
lime:00ff00 limegreen:32cd32 linen:faf0e6 magenta:ff00ff maroon:800000 mediumaquamarine:66cdaa
mediumblue:0000cd mediumorchid:ba55d3 mediumpurple:9370db mediumseagreen:3cb371
mediumslateblue:7b68ee mediumspringgreen:00fa9a mediumturquoise:48d1cc mediumvioletred:c71585
midnightblue:191970 mintcream:f5fffa mistyrose:ffe4e1 moccasin:ffe4b5 navajowhite:ffdead
navy:000080 oldlace:fdf5e6 olive:808000 olivedrab:6b8e23 orange:ffa500 orangered:ff4500
orchid:da70d6 palegoldenrod:eee8aa palegreen:98fb98 paleturquoise:afeeee palevioletred:db7093
papayawhip:ffefd5 peachpuff:ffdab9 peru:cd853f pink:ffc0cb plum:dda0dd powderblue:b0e0e6
purple:800080 rebeccapurple:663399 red:ff0000 rosybrown:bc8f8f royalblue:4169e1
saddlebrown:8b4513 salmon:fa8072 sandybrown:f4a460 seagreen:2e8b57 seashell:fff5ee
sienna:a0522d silver:c0c0c0 skyblue:87ceeb slateblue:6a5acd slategray:708090 slategrey:708090
snow:fffafa springgreen:00ff7f steelblue:4682b4 tan:d2b48c teal:008080 thistle:d8bfd8
tomato:ff6347 turquoise:40e0d0 violet:ee82ee wheat:f5deb3 white:ffffff whitesmoke:f5f5f5
yellow:ffff00 yellowgreen:9acd32
""".split()
)
_HEX = re.compile(r"#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_STYLE_NAMES = {"solid": "-", "dashed": "--", "dotted": ":", "dashdot": "-.", "None": "",
                "none": "", " ": "", "": ""}  # fmt: skip


def _rgba(r: float, g: float, b: float, a: float = 1.0) -> str:
    parts = [min(max(float(v), 0.0), 1.0) for v in (r, g, b, a)]
    return "#" + "".join(f"{round(v * 255):02x}" for v in parts)


def color(spec: Any, alpha: float | None = None) -> str:
    """``#rrggbbaa`` for a matplotlib colour (ValueError for anything else).

    ``'r'``, ``'C1'``, ``'tab:blue'``, ``'navy'``, ``'#ff8800'``, ``'0.5'`` (grey),
    ``(r, g, b[, a])``, ``'none'``.
    """
    text: str | None = None
    if isinstance(spec, str):
        s = spec.strip()
        low = s.lower()
        if low == "none":
            return "#00000000"
        if re.fullmatch(r"C\d", s):
            text = CYCLE[int(s[1]) % len(CYCLE)]
        elif low.startswith("tab:") and low[4:] in _TAB:
            text = _TAB[low[4:]]
        elif s in _BASE:
            text = _BASE[s]
        elif low in _CSS:
            text = "#" + _CSS[low]
        elif _HEX.fullmatch(s):
            digits = s[1:]
            if len(digits) in (3, 4):
                digits = "".join(d * 2 for d in digits)
            text = "#" + digits.lower()
        else:
            try:
                grey = float(s)
            except ValueError:
                grey = -1.0
            if 0.0 <= grey <= 1.0:
                text = _rgba(grey, grey, grey)
        if text is None:
            raise ValueError(f"{spec[:40]!r} is not a valid color value")
        if len(text) == 7:
            text += "ff"
    elif isinstance(spec, tuple | list | np.ndarray) and len(spec) in (3, 4):
        try:
            values = [float(v) for v in spec]
        except (TypeError, ValueError):
            raise ValueError("a color tuple holds 3 or 4 numbers between 0 and 1") from None
        if not all(0.0 <= v <= 1.0 for v in values):
            raise ValueError("RGBA values should be within 0-1 range")
        text = _rgba(*values)
    else:
        raise ValueError(f"{type(spec).__name__} is not a valid color value")
    if alpha is not None:
        a = min(max(float(alpha), 0.0), 1.0)
        text = text[:7] + f"{round(a * 255):02x}"
    return text


def colors(spec: Sequence[Any], alpha: float | None = None) -> np.ndarray:
    """Per-point colours as an (n, 4) array of RGBA in [0, 1]."""
    out = np.zeros((len(spec), 4))
    for i, c in enumerate(spec):
        h = color(c, alpha)
        out[i] = [int(h[k : k + 2], 16) / 255 for k in (1, 3, 5, 7)]
    return out


def line_style(spec: Any) -> str:
    """``'-'``, ``'--'``, ``':'``, ``'-.'`` or ``''`` (no line)."""
    if not isinstance(spec, str):
        raise ValueError("a linestyle is a string such as '-', '--', ':' or '-.'")
    style = _STYLE_NAMES.get(spec, spec)
    if style not in LINE_STYLES:
        raise ValueError(f"{spec[:40]!r} is not a valid value for linestyle")
    return style


def marker(spec: Any) -> str:
    """A marker code of :data:`~tapeviz.sandbox.figures.MARKERS` (``''``: none)."""
    if spec is None or spec in ("None", "none", " "):
        return ""
    if not isinstance(spec, str) or spec not in MARKERS:
        raise ValueError(f"unrecognized marker style {str(spec)[:40]!r}")
    return spec


def parse_format(fmt: str) -> tuple[str | None, str | None, str | None]:
    """``'ro--'`` → (color, marker, linestyle); parts not given are None (matplotlib's rules)."""
    if fmt in _CSS or (fmt.startswith("#") and _HEX.fullmatch(fmt)):
        return color(fmt), None, None
    col = mark = style = None
    i = 0
    while i < len(fmt):
        two = fmt[i : i + 2]
        if two in ("--", "-."):
            style, i = (two if style is None else _dup("linestyle", fmt)), i + 2
        elif fmt[i] in "-:":
            style, i = (fmt[i] if style is None else _dup("linestyle", fmt)), i + 1
        elif two[:1] == "C" and two[1:2].isdigit():
            col, i = (color(two) if col is None else _dup("color", fmt)), i + 2
        elif fmt[i] in _BASE:
            col, i = (color(fmt[i]) if col is None else _dup("color", fmt)), i + 1
        elif fmt[i] in MARKERS:
            mark, i = (fmt[i] if mark is None else _dup("marker", fmt)), i + 1
        else:
            raise ValueError(f"{fmt!r} is not a valid format string (unrecognized {fmt[i]!r})")
    if mark is not None and style is None:
        style = ""  # 'ro': markers only
    return col, mark, style


def _dup(what: str, fmt: str) -> Any:
    raise ValueError(f"{fmt!r} is not a valid format string (two {what} symbols)")
