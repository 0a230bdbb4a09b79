"""The Plots tab: one panel per figure of the last run, each with PNG and SVG export."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from tapeviz.sandbox import figures as F
from tapeviz.ui.theme import LIGHT, Theme, font
from tapeviz.ui.turns import later, until_done

MIN_HEIGHT = 220  # px of a figure's canvas, whatever its aspect
AT_ONCE = 1  # figures drawn as a run's figures arrive; the others a figure per turn


class FigurePanel(QFrame):
    """A figure's heading, its export buttons and its canvas (sized by the figure's aspect)."""

    def __init__(self, figure: F.Figure, index: int, theme: Theme, scale: float,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName(f"figurePanel{index}")
        self.figure, self.index = figure, index
        self.heading = QLabel(self)
        self.heading.setObjectName("figureHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.png_button = QPushButton(self.tr("PNG…"), self)
        self.png_button.setObjectName("exportPngButton")
        self.png_button.setToolTip(self.tr("Export this figure as a PNG image"))
        self.svg_button = QPushButton(self.tr("SVG…"), self)
        self.svg_button.setObjectName("exportSvgButton")
        self.svg_button.setToolTip(self.tr("Export this figure as an SVG drawing"))
        from tapeviz.ui.figures.canvas import FigureCanvas  # pyqtgraph: when a figure comes

        self.canvas = FigureCanvas(figure, theme, scale, self)
        self.canvas.finished.connect(lambda: self.heading.setText(self.heading_text()))
        row = QHBoxLayout()
        row.addWidget(self.heading, 1)
        row.addWidget(self.png_button)
        row.addWidget(self.svg_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 4, 0, 8)
        box.addLayout(row)
        box.addWidget(self.canvas)
        self.png_button.clicked.connect(lambda: self.export_dialog("png"))
        self.svg_button.clicked.connect(lambda: self.export_dialog("svg"))
        self._style_heading(scale)  # (the canvas is drawn in this style already)

    def heading_text(self) -> str:
        """``Figure 2 — Loss`` and where the script saved it."""
        text = self.tr("Figure %1").replace("%1", str(self.index + 1))
        if self.figure.title:
            text += " — " + F.plain_text(self.figure.title)
        if self.figure.saved:
            text += "   " + self.tr("(savefig: %1)").replace("%1", ", ".join(self.figure.saved))
        for drawn, total in self.canvas.thinned:
            text += "   " + self.tr("(%1 of a scatter's %2 points drawn)").replace(
                "%1", f"{drawn:,}").replace("%2", f"{total:,}")  # fmt: skip
        for listed, total in self.canvas.unlisted:
            text += "   " + self.tr("(the legend lists %1 of %2 labels)").replace(
                "%1", f"{listed:,}").replace("%2", f"{total:,}")  # fmt: skip
        return text

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme and presenter scale for the heading and the canvas (a big one: next turn).

        A scale change restyles the whole window in one turn already (30-50 ms): a figure of
        many series is drawn again on a turn of its own (an export draws it first).
        """
        self._style_heading(scale)
        waiting, self._style = self._style, (theme, scale)
        if not self.canvas.many:
            self.apply_style()
        elif waiting is None:
            self.canvas.set_aside()  # (the window's repaint at the new scale: not these lines)
            later(self.apply_style, self)

    _style: tuple[Theme, float] | None = None  # the style to draw the canvas in, if not yet

    def _style_heading(self, scale: float) -> None:
        self.heading.setFont(font(10 * scale, bold=True))
        self.heading.setText(self.heading_text())

    def apply_style(self) -> None:
        """Draw the canvas in the style asked for last, if it is not drawn so."""
        if self._style is not None and not self.isHidden():  # (hidden: replaced, going)
            theme, scale = self._style
            self._style = None
            self.canvas.restyle(theme, scale)

    def fit_width(self, width: int, most: int) -> None:
        """Size the canvas for ``width`` px at the figure's aspect (at most ``most`` px high)."""
        height = round(width * self.canvas.aspect)
        self.canvas.setFixedHeight(max(MIN_HEIGHT, min(height, max(most, MIN_HEIGHT))))

    def default_name(self, kind: str) -> str:
        """The file name to offer: the script's savefig name, or ``figure1.png``."""
        if self.figure.saved:
            return Path(self.figure.saved[-1]).with_suffix("." + kind).name
        return f"figure{self.index + 1}.{kind}"

    def export_dialog(self, kind: str) -> None:
        """Ask where to save, then export (PNG or SVG)."""
        filters = {"png": self.tr("PNG image (*.png)"), "svg": self.tr("SVG drawing (*.svg)")}
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export figure"),
                                              self.default_name(kind), filters[kind])  # fmt: skip
        if not path:
            return
        try:
            self.export(kind, path)
        except OSError as exc:
            QMessageBox.warning(self, self.tr("Export figure"), str(exc))

    def export(self, kind: str, path: str | Path) -> Path:
        """Write the figure to ``path`` as ``kind`` ("png" or "svg")."""
        self.apply_style()
        return self.canvas.export_png(path) if kind == "png" else self.canvas.export_svg(path)


class PlotsPanel(QWidget):
    """The figures of the last run that drew any, top to bottom in a scroll area."""

    figuresChanged = Signal(int)  # how many figures are shown

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("plotsPanel")
        self.theme: Theme = LIGHT
        self.scale = 1.0
        self.figures: tuple[F.Figure, ...] = ()
        self._key: bytes | None = None  # the digest of the figures shown (F.Drawn.key)
        self.panels: list[FigurePanel] = []  # (the figures drawn so far: see set_figures)
        self._generation = 0
        self.empty = QLabel(
            self.tr("Figures a script draws with matplotlib appear here: "
                    "import matplotlib.pyplot as plt, then plt.plot(...)."),
            self,
        )  # fmt: skip
        self.empty.setObjectName("plotsEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll = QScrollArea(self)
        self.scroll.setObjectName("plotsScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.inner = QWidget(self.scroll)
        self.column = QVBoxLayout(self.inner)
        self.column.setContentsMargins(8, 0, 8, 0)
        self.column.addStretch(1)
        self.scroll.setWidget(self.inner)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.empty)
        box.addWidget(self.scroll, 1)
        self._show_empty()

    def set_figures(self, figures: Sequence[F.Figure]) -> None:
        """Show ``figures`` (a run's), replacing what was shown.

        The first :data:`AT_ONCE` are drawn now, the others a figure per turn: a run's 50
        figures (the sandbox's cap) took the window 1.1 s in one go. The figures shown before
        are hidden now and deleted by turns. Received figures the same as those shown (a
        streamed run's, at its end) are not drawn again.
        """
        self._offered = None
        key = getattr(figures, "key", None)  # (F.Drawn: its digest, made off the UI thread)
        if key is not None and key == self._key:
            return
        self._key = key
        replaced = self.panels
        for panel in replaced:
            self.column.removeWidget(panel)
            panel.hide()
        self.figures, self.panels = tuple(figures), []
        self._generation += 1
        for _ in self.figures[:AT_ONCE]:
            self._add_panel()
        self._show_empty()
        self.figuresChanged.emit(len(self.figures))
        if len(self.figures) > AT_ONCE:
            later(partial(self._add_later, self._generation), self)
        for panel in replaced:  # gone by turns, after the new ones' (see FigureCanvas.dismantle)
            until_done(panel.canvas.dismantle, panel, panel.deleteLater)

    _offered: Sequence[F.Figure] | None = None  # a running script's figures, not drawn yet

    def offer(self, figures: Sequence[F.Figure]) -> None:
        """A running script's figures so far: drawn if this tab shows, else once it does.

        Built in a hidden tab, a figure of 500 lines was painted all at once when the tab came
        forward at the run's end (107-236 ms); drawn while shown, it is painted by turns.
        """
        if self.isVisible():
            self.set_figures(figures)
        else:
            self._offered = figures
            self.figuresChanged.emit(len(figures))

    def showEvent(self, event: QShowEvent) -> None:
        """Qt override: a running script's figures offered meanwhile are drawn now."""
        super().showEvent(event)
        if self._offered is not None:
            self.set_figures(self._offered)

    @property
    def building(self) -> bool:
        """Whether figures wait for their turn to be drawn."""
        return len(self.panels) < len(self.figures)

    def finish(self) -> None:
        """Draw the figures still waiting, now."""
        while self.building:
            self._add_panel()

    def _add_later(self, generation: int) -> None:
        if generation != self._generation or not self.building:
            return  # newer figures, or drawn meanwhile (finish)
        self._add_panel()
        if self.building:
            later(partial(self._add_later, generation), self)

    def _add_panel(self) -> None:
        k = len(self.panels)
        panel = FigurePanel(self.figures[k], k, self.theme, self.scale, self.inner)
        self.panels.append(panel)
        self.column.insertWidget(k, panel)
        panel.fit_width(*self._room())

    def _show_empty(self) -> None:
        self.empty.setVisible(not self.panels)
        self.scroll.setVisible(bool(self.panels))

    def set_theme(self, theme: Theme) -> None:
        """Light or dark."""
        self.theme = theme
        self._restyle()

    def set_font_scale(self, scale: float) -> None:
        """The presenter scale (fonts and line widths)."""
        self.scale = scale
        self._restyle()

    def _restyle(self) -> None:
        self.empty.setFont(font(11 * self.scale))
        for panel in self.panels:
            panel.restyle(self.theme, self.scale)

    def _room(self) -> tuple[int, int]:
        """A figure's width and its greatest height, px."""
        width = self.scroll.viewport().width() - 16
        return max(width, 200), round(self.scroll.viewport().height() * 0.95)

    def _fit(self) -> None:
        room = self._room()
        for panel in self.panels:
            panel.fit_width(*room)

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self._fit()
