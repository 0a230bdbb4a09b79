"""What the graph's items share, made once: fonts, text widths, node and edge brushes and pens.

A big graph repeats a few looks and texts thousands of times; each is made or measured once.
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QFontMetricsF, QPen

from tapeviz.ui.theme import Theme, font

WIDTH_CACHE = 50_000  # text widths kept per thread before the cache starts again


# The characters of numbers and of default op titles (``v12 = ×``): a text of only these is
# measured as their advances added, with each kerned pair's correction.
ADDITIVE = "0123456789.−-+e= ∂,v×÷^²"


class Fonts(threading.local):
    """Fonts, metrics and text widths per (role, scale), per thread (a worker measures sizes)."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, float], tuple[QFont, QFontMetricsF]] = {}
        self.widths: dict[tuple[str, float, str], float] = {}
        self.heights: dict[tuple[str, float], float] = {}
        # (role, scale) -> each ADDITIVE character's advance, and the kerned pairs
        self.advances: dict[
            tuple[str, float], tuple[dict[str, float], list[tuple[str, float]]]
        ] = {}

    def get(self, role: str, scale: float) -> tuple[QFont, QFontMetricsF]:
        key = (role, scale)
        hit = self.cache.get(key)
        if hit is None:
            f = font(13 * scale, bold=True) if role == "title" else font(10.5 * scale)
            hit = self.cache[key] = (f, QFontMetricsF(f))
        return hit

    def width(self, role: str, scale: float, text: str) -> float:
        """The advance of ``text`` in the font of ``role`` (cached: big graphs repeat texts).

        A text made only of :data:`ADDITIVE` characters is their advances added, with the
        kerning of each kerned pair in it: a 20,000-op graph's values and titles are 40,000
        different texts, and shaping each whole took ~5 µs.
        """
        key = (role, scale, text)
        w = self.widths.get(key)
        if w is None:
            if len(self.widths) > WIDTH_CACHE:
                self.widths.clear()
            found = self.advances.get((role, scale))
            if found is None:
                found = self.advances[(role, scale)] = _advances(self.get(role, scale)[1])
            w = _added(text, *found)
            if w is None:  # (a character outside ADDITIVE: shaped whole)
                w = self.get(role, scale)[1].horizontalAdvance(text)
            self.widths[key] = w
        return w

    def height(self, role: str, scale: float) -> float:
        """The line height of the font of ``role``."""
        h = self.heights.get((role, scale))
        if h is None:
            h = self.heights[(role, scale)] = self.get(role, scale)[1].height()
        return h


def _advances(metrics: QFontMetricsF) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """Each :data:`ADDITIVE` character's advance, and the pairs the font kerns (their kerning).

    A font that shapes these characters by more than pairs (a ligature of three, kerning by
    context) fails the probes: then nothing is added up (every text is shaped whole).
    """
    adv = {c: metrics.horizontalAdvance(c) for c in ADDITIVE}
    kerns = []
    for a in ADDITIVE:
        for b in ADDITIVE:
            kern = metrics.horizontalAdvance(a + b) - adv[a] - adv[b]
            if abs(kern) > 1e-9:
                kerns.append((a + b, kern))
    for text in _probes():
        added = _added(text, adv, kerns)
        if added is None or abs(added - metrics.horizontalAdvance(text)) > 1e-6:
            return {}, []
    return adv, kerns


def _added(text: str, adv: dict[str, float], kerns: list[tuple[str, float]]) -> float | None:
    """``text``'s advance added up from its characters and kerned pairs (None: it cannot be)."""
    try:
        w = sum([adv[c] for c in text])
    except KeyError:
        return None
    for pair, kern in kerns:
        if pair in text:
            w += kern * _pairs(text, pair)
    return w


def _probes() -> list[str]:
    """Texts of three and more characters that would show shaping beyond pairs."""
    out = [a * 3 for a in ADDITIVE] + [f"1{a}1" for a in ADDITIVE] + [f"{a}1{a}" for a in ADDITIVE]
    return [*out, "= 1.1", "= −0.5", "= 1.234e−05", "∂ = −1.0001", "v12 = ×", "v9 = ÷"]


def _pairs(text: str, pair: str) -> int:
    """How many times ``pair`` (two characters) stands in ``text``, overlaps counted."""
    if pair[0] != pair[1]:
        return text.count(pair)
    return sum(1 for k in range(len(text) - 1) if text[k : k + 2] == pair)


FONTS = Fonts()

Style = tuple[QBrush, QPen, QPen, QPen, dict[str, QBrush]]
NODE_STYLES: dict[tuple[Any, ...], tuple[Theme, Style]] = {}  # (the theme kept: its id is the key)


def node_style(t: Theme, look: tuple[Any, ...]) -> Style:
    """Brushes and pens of a node's look (kind, scale, state, marked, ...), made once."""
    hit = NODE_STYLES.get((id(t), *look))
    if hit is not None:
        return hit[1]
    kind, s, state, marked, origin, bad_value, bad_grad = look
    fill = t.color(t.fills.get(kind, t.fills["op"]), 110 if state == "pending" else 255)
    border, width = t.color(t.borders.get(kind, t.borders["op"])), 2.0 * s
    if marked:
        border, width = t.color(t.highlight), 4.0 * s
    elif origin:
        border, width = t.color(t.warning), 3.5 * s  # this op made a nan or ±inf
    pen = QPen(border, width)
    if kind == "watched":
        pen.setStyle(Qt.PenStyle.DashLine)
    colours = {
        "title": t.text,
        "value": t.warning if bad_value else t.muted,
        "gradient": t.warning if bad_grad else t.gradient,
    }
    texts = {role: QBrush(t.color(c)) for role, c in colours.items()}
    style = (QBrush(fill), pen, QPen(border, 1.5 * s), QPen(t.color(t.gradient), 2.5 * s), texts)
    if len(NODE_STYLES) > 1000:
        NODE_STYLES.clear()
    NODE_STYLES[(id(t), *look)] = (t, style)
    return style


EdgeStyle = tuple[QPen, QPen, QBrush, QBrush]
EDGE_STYLES: dict[tuple[Any, ...], tuple[Theme, EdgeStyle]] = {}


def edge_style(t: Theme, scale: float, glowing: bool, highlighted: bool) -> EdgeStyle:
    """The pen, the head's pen and brush, and the label's brush of an edge's look, made once."""
    key = (id(t), scale, glowing, highlighted)
    hit = EDGE_STYLES.get(key)
    if hit is None:
        color, width = t.color(t.edge), 1.6
        if glowing:
            color, width = t.color(t.gradient), 4.5
        elif highlighted:
            color, width = t.color(t.highlight), 3.5
        label = QBrush(t.color(t.gradient if glowing else t.muted))
        if len(EDGE_STYLES) > 1000:
            EDGE_STYLES.clear()
        style = (QPen(color, width * scale), QPen(color, 1.0), QBrush(color), label)
        hit = EDGE_STYLES[key] = (t, style)
    return hit[1]


def restyling(attr: str, doc: str) -> property:
    """A property whose setter redraws the item, only when the value changes."""

    def get(self: Any) -> Any:
        return getattr(self, attr)

    def set_(self: Any, value: Any) -> None:
        if value != getattr(self, attr):
            setattr(self, attr, value)
            self._restyle()

    return property(get, set_, doc=doc)
