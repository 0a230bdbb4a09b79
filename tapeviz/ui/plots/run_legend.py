"""A plot's legend in a band above its data: it covers no curve, marker or start.

The plot's (hidden) top-axis row is made as tall as the legend, and the legend sits in it,
left-aligned with the data area. :func:`plan_legend` chooses how: at the presenter size in as
many columns as fit the width; else smaller text, down to :data:`FLOOR_POINTS` (14 px); else
names elided (the whole name on hover); and never more rows than :data:`MAX_ROWS` or than fit
in :data:`BAND_SHARE` of the plot's height: what is left says "+3 more" (its names on hover).

pyqtgraph's LegendItem sizes itself from its grid layout's last geometry, and the grid keeps
its old column count when given fewer columns, so it fell to one column (the band then took
the whole plot). :class:`BandLegend` places its entries itself.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QGraphicsGridLayout

LEGEND_ROW = 1  # the PlotItem layout's row of the top axis (hidden on these plots)
GAP = 3  # px between the legend band and the data
BAND_SHARE = 0.25  # of the plot's height, at most, for the legend's band
MAX_ROWS = 4  # rows of entries at most; the rest say "+k more"
FLOOR_POINTS = 10.5  # 14 px: text shrinks to fit down to this (or to the size asked, if smaller)
SHRINK = 0.9  # each try at a smaller text size
SAMPLE = 20.0  # px: a sample line (pyqtgraph's ItemSample)
SAMPLE_GAP = 4.0  # px between a sample and its name
COLUMN_GAP = 12.0  # px between columns
ROW_GAP = 2.0  # px between rows
TEXT_MARGIN = 1.0  # px: a name's QTextDocument margin on each side (Qt's default is 4)
MIN_NAME = 5.5  # an elided name keeps at least this many average characters' width
translate = QCoreApplication.translate  # lupdate reads translate("RunLegend", "…")


def text_font(label: pg.LabelItem, points: float | None = None) -> QFont:
    """The font ``label`` draws with (its CSS size, or ``points``)."""
    font = QFont(label.item.font())
    size = str(label.opts.get("size") or "")
    if points is None and size.endswith("pt"):
        points = float(size.removesuffix("pt"))
    if points:
        font.setPointSizeF(points)
    return font


def elide(text: str, font: QFont, room: float) -> str:
    """``text`` shortened with "…" to ``room`` px of its label (whole if it fits)."""
    return QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, room - 2 * TEXT_MARGIN)


class Entry(pg.LabelItem):
    """A legend name within ``room`` px: elided, the whole name on hover; ``text`` stays whole."""

    def setText(self, text: str, **args: object) -> None:
        """Show ``text`` (plain text), elided to the room the legend gave it (pyqtgraph API)."""
        room = getattr(self, "room", math.inf)
        self.item.document().setDocumentMargin(TEXT_MARGIN)
        shown = text if math.isinf(room) else elide(text, text_font(self), room)
        super().setText(html.escape(shown, quote=False), **args)
        self.text = text
        self.setToolTip("" if shown == text else text)

    def set_room(self, room: float) -> None:
        """Fit the name to ``room`` px (``math.inf``: whole)."""
        if room != getattr(self, "room", math.inf):
            self.room = room
            self.setText(self.text)


@dataclass(frozen=True)
class Sizes:
    """A legend's entries measured at one text size, in px."""

    widths: list[float]  # each entry whole: sample, gap and name
    more: float  # the "+k more" cell
    row: float  # a row's height
    least: float  # an entry with its name elided to MIN_NAME characters


@dataclass(frozen=True)
class Plan:
    """How a legend is laid out: text size, columns, entries shown, each column's name room."""

    points: float
    columns: int
    shown: int
    rooms: tuple[float, ...]  # px per column for a name (math.inf: whole names)


def _columns(widths: Sequence[float], columns: int) -> list[float]:
    """Each column's width with entries filled row by row."""
    out = [0.0] * columns
    for i, w in enumerate(widths):
        out[i % columns] = max(out[i % columns], w)
    return out


def _total(widths: Sequence[float]) -> float:
    return sum(widths) + COLUMN_GAP * (len(widths) - 1)


def _share(widths: list[float], room: float) -> list[float]:
    """Columns narrowed to ``room`` in all: the widest first, the narrow ones kept whole."""
    free = room - COLUMN_GAP * (len(widths) - 1)
    out, left = list(widths), sorted(range(len(widths)), key=lambda j: widths[j])
    while left:
        cap = free / len(left)
        j = left[0]
        if widths[j] > cap:  # every column left is at least this wide: all get the cap
            for k in left:
                out[k] = cap
            break
        free -= widths[j]
        left.pop(0)
    return out


def plan_legend(
    measure: Callable[[float], Sizes],
    count: int,
    room: float,
    band: float,
    points: float,
    floor: float,
) -> Plan:
    """The layout of ``count`` entries in ``room`` × ``band`` px, text ``points`` to ``floor``.

    ``measure(points)`` gives the entries' :class:`Sizes` at that text size.
    """
    p = points
    while True:
        sizes = measure(p)
        widths = sizes.widths
        rows = max(1, min(MAX_ROWS, int(band // sizes.row)))
        for c in range(count, 0, -1):
            if math.ceil(count / c) > rows:
                break  # fewer columns only need more rows
            if _total(_columns(widths, c)) <= room:
                c = math.ceil(count / math.ceil(count / c))  # as few columns for those rows
                return Plan(p, c, count, (math.inf,) * c)
        if p <= floor:
            break
        p = max(floor, p * SHRINK)
    least = min(sizes.least, *widths)
    fit = max(1, int((room + COLUMN_GAP) // (least + COLUMN_GAP)))
    c = max(1, min(math.ceil(count / rows), fit, count))
    shown = count if c * rows >= count else max(1, c * rows - 1)
    cells = list(widths[:shown]) + ([sizes.more] if shown < count else [])
    columns = _columns(cells, c)
    shared = _share(columns, room) if _total(columns) > room else columns
    rooms = tuple(
        math.inf if s >= w - 0.5 else max(s - SAMPLE - SAMPLE_GAP, 1.0)
        for s, w in zip(shared, columns, strict=True)
    )
    return Plan(p, c, shown, rooms)


class BandLegend(pg.LegendItem):
    """A LegendItem that lays its entries out itself, by a :class:`Plan` (``arrange``)."""

    def __init__(self, points: float) -> None:
        super().__init__(offset=None, labelTextSize=f"{points:.1f}pt", horSpacing=COLUMN_GAP)
        self.setLayout(None)  # (deletes the grid) entries are placed by updateSize
        self.layout = QGraphicsGridLayout()  # detached: kept for code that sets its spacing
        self.plan = Plan(points, 1, 0, (math.inf,))
        self.more = pg.LabelItem(" ", parent=self, justify="left")
        self.more.item.document().setDocumentMargin(TEXT_MARGIN)
        self.more.hide()

    def addItem(self, item: object, name: str) -> None:
        """Add an entry (pyqtgraph API): a sample of ``item`` and ``name`` (plain text)."""
        label = Entry(name, color=self.opts["labelTextColor"], justify="left",
                      size=self.opts["labelTextSize"])  # fmt: skip
        sample = item if isinstance(item, self.sampleType) else self.sampleType(item)
        sample.sigClicked.connect(self.sigSampleClicked)
        self.items.append((sample, label))
        self._addItemToLayout(sample, label)
        self.plan = Plan(self.plan.points, max(self.plan.columns, 1), len(self.items), ())
        self.updateSize()

    def _addItemToLayout(self, sample: pg.GraphicsWidget, label: pg.LabelItem) -> None:
        for part in (sample, label):
            part.setParentItem(self)

    def _removeItemFromLayout(self, *parts: pg.GraphicsWidget) -> None:
        for part in parts:
            part.setParentItem(None)
            part.close()
            if part.scene() is not None:
                part.scene().removeItem(part)

    def clear(self) -> None:
        """Remove every entry (pyqtgraph API), and the "+k more" with them."""
        self.more.hide()
        super().clear()

    def setColumnCount(self, columnCount: int) -> None:
        """Entries in ``columnCount`` columns, every one shown whole (pyqtgraph API)."""
        count = max(1, int(columnCount))
        self.arrange(Plan(self.plan.points, count, len(self.items), (math.inf,) * count))

    def setLabelTextColor(self, *args: object, **kwargs: object) -> None:
        """Colour of the names and of "+k more" (pyqtgraph API)."""
        super().setLabelTextColor(*args, **kwargs)
        for label in (*(label for _, label in self.items), self.more):
            label.setAttr("color", self.opts["labelTextColor"])
            label.setText(label.text)

    def arrange(self, plan: Plan) -> None:
        """Lay the entries out by ``plan`` (text size, columns, shown, name rooms)."""
        self.plan = plan
        size = f"{plan.points:.1f}pt"
        if size != self.opts["labelTextSize"]:
            set_legend_text_size(self, size)
        count = len(self.items)
        for i, (sample, label) in enumerate(self.items):
            shown = i < plan.shown
            sample.setVisible(shown)
            label.setVisible(shown)
            if shown:
                label.set_room(plan.rooms[i % plan.columns] if plan.rooms else math.inf)
        hidden = [label.text for _, label in self.items[plan.shown :]]
        self.more.setVisible(bool(hidden))
        if hidden:
            self.more.setAttr("size", size)
            self.more.setAttr("color", self.opts["labelTextColor"])
            self.more.setText(
                html.escape(translate("RunLegend", "+{count} more").format(count=len(hidden)))
            )
            self.more.setToolTip("\n".join(hidden))
        self.columnCount = plan.columns
        cells = min(count, plan.shown + bool(hidden))
        self.rowCount = math.ceil(cells / plan.columns)
        self.updateSize()

    def updateSize(self) -> None:
        """Place the entries row by row in the plan's columns, and fit the box to them."""
        if not hasattr(self, "more"):  # (pyqtgraph's constructor)
            return
        columns = max(1, self.columnCount)
        cells: list[tuple[pg.GraphicsWidget | None, pg.LabelItem]] = [
            (sample, label) for sample, label in self.items if label.isVisible()
        ]
        if self.more.isVisible():
            cells.append((None, self.more))
        widths, heights = [0.0] * columns, [0.0] * math.ceil(len(cells) / columns)
        for i, (sample, label) in enumerate(cells):
            label.resize(label.minimumSize())
            w = label.minimumWidth() + (SAMPLE + SAMPLE_GAP if sample is not None else 0.0)
            widths[i % columns] = max(widths[i % columns], w)
            heights[i // columns] = max(heights[i // columns], label.minimumHeight() + ROW_GAP)
        lefts = [sum(widths[:j]) + COLUMN_GAP * j for j in range(columns)]
        tops = [sum(heights[:r]) for r in range(len(heights))]
        for i, (sample, label) in enumerate(cells):
            x, y, h = lefts[i % columns], tops[i // columns], heights[i // columns]
            if sample is not None:
                sample.setPos(x, y + (h - SAMPLE) / 2)
                x += SAMPLE + SAMPLE_GAP
            label.setGeometry(QRectF(x, y + (h - label.minimumHeight()) / 2,
                                     label.minimumWidth(), label.minimumHeight()))  # fmt: skip
        width = _total([w for w in widths if w]) if cells else 0.0
        self.setGeometry(QRectF(self.pos().x(), self.pos().y(), width, sum(heights)))


def set_legend_text_size(legend: pg.LegendItem, size: str) -> None:
    """Re-render a legend's labels at ``size`` and fit its box to them.

    pyqtgraph's setLabelTextSize only stores the option, and a label never shrinks by itself,
    so the legend's box would keep its old, larger size.
    """
    legend.setLabelTextSize(size)
    for _, label in legend.items:
        label.setText(label.text)
        label.resize(label.minimumSize())
    legend.updateSize()


class RunLegend:
    """A :class:`BandLegend` (``legend``) laid out above the data area of ``plot``."""

    def __init__(self, plot: pg.PlotWidget) -> None:
        self.plot = plot
        self.item = plot.getPlotItem()
        self.legend = BandLegend(10.0)
        self.legend.setParentItem(self.item)
        self.legend.setZValue(30)
        self._busy = False
        self._last: tuple[object, ...] = ()

    def fit(self, points: float) -> None:
        """Lay the legend out for the data area's width, at ``points`` or smaller text."""
        if self._busy:  # the band's new height moves the data area, which calls this again
            return
        self._busy = True
        try:
            self._fit(points)
        finally:
            self._busy = False

    def _fit(self, points: float) -> None:
        legend, view = self.legend, self.item.getViewBox()
        names = tuple(label.text for _, label in legend.items)
        if not names:
            legend.setVisible(False)
            self._band(0)
            return
        legend.setVisible(True)
        room = max(view.width() - 4, 1.0)
        band = BAND_SHARE * self.plot.height() - GAP
        labels = tuple(id(label) for _, label in legend.items)  # new entries: a new plan
        key = (names, labels, round(points, 2), round(room), round(band))
        if key != self._last:
            self._last = key
            probe = legend.items[0][1]
            more = translate("RunLegend", "+{count} more").format(count=len(names))

            def measure(p: float) -> Sizes:
                metrics = QFontMetricsF(text_font(probe, p))
                pad = SAMPLE + SAMPLE_GAP + 2 * TEXT_MARGIN + 1
                return Sizes(
                    [pad + metrics.horizontalAdvance(n) for n in names],
                    pad - SAMPLE - SAMPLE_GAP + metrics.horizontalAdvance(more),
                    metrics.height() + 2 * TEXT_MARGIN + ROW_GAP,
                    pad + metrics.averageCharWidth() * MIN_NAME + metrics.horizontalAdvance("…"),
                )

            floor = min(points, FLOOR_POINTS)
            legend.arrange(plan_legend(measure, len(names), room, band, points, floor))
        self._band(legend.height() + GAP)
        area = view.geometry()
        legend.setPos(area.left(), area.top() - legend.height() - GAP)

    def _band(self, height: float) -> None:
        layout = self.item.layout
        if abs(layout.rowMinimumHeight(LEGEND_ROW) - height) > 0.5:
            layout.setRowFixedHeight(LEGEND_ROW, height)
            layout.activate()  # the data area moves down now, so the legend lands above it

    @property
    def points(self) -> float:
        """The text size the legend has now, in points."""
        return float(self.legend.opts["labelTextSize"].removesuffix("pt"))
