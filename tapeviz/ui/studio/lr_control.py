"""The learning rate as a control a lecturer can aim: a log scale dragged under a fixed mark.

The value sits under the mark in the middle; dragging moves it one decade per
:data:`DECADE_PX` pixels (ten times finer with Shift; right is larger, as on a slider, and the
scale slides under the mark), so any value between 1e-9 and 100 can be reached and aimed at
on a 300-pixel panel. Arrow keys and the wheel step by a twentieth of
a decade (Shift: a hundredth), Page Up/Down by a decade. Values keep three significant digits,
as a lecturer would say them (``0.0025``, not ``0.0024937``). ``valueChanged(lr)`` as it moves.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from tapeviz.models.descent.optimizer_config import short_number

DECADE_PX = 100.0  # pixels of drag per decade of learning rate (at text scale 1)
KEY_STEP = 1 / 20  # decades per arrow key or wheel notch
FINE_STEP = 1 / 100  # ... with Shift
LOW, HIGH = 1e-9, 100.0


def rounded(lr: float) -> float:
    """``lr`` with three significant digits, inside [LOW, HIGH]."""
    return min(max(float(f"{lr:.3g}"), LOW), HIGH)


class LearningRateControl(QWidget):
    """A horizontal log scale under a fixed mark (objectName ``optimizerLrSlider``)."""

    valueChanged = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("optimizerLrSlider")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.SizeHorCursor)
        self._log = -3.0  # log10 of the exact position (the value is it, rounded)
        self._value = 1e-3
        self._drag: tuple[float, float] | None = None  # (x at press, log at press)
        self.scale = 1.0  # presenter scale: pixels per decade grow with it

    # -- the value ---------------------------------------------------------------------------
    def value(self) -> float:
        """The learning rate shown (three significant digits)."""
        return self._value

    def setValue(self, lr: float) -> None:
        """Show ``lr`` without a signal (as QSlider.setValue with signals blocked would)."""
        if not (math.isfinite(lr) and lr > 0) or rounded(lr) == self._value:
            return  # the same value: the exact position (between rounded values) stays
        self._value = rounded(lr)
        self._log = math.log10(self._value)
        self.update()

    def _move_to(self, log: float) -> None:
        log = min(max(log, math.log10(LOW)), math.log10(HIGH))
        self._log = log
        new = rounded(10**log)
        self.update()
        if new != self._value:
            self._value = new
            self.valueChanged.emit(new)

    def step(self, decades: float) -> None:
        """Move by ``decades`` (the keys and the wheel); always lands on a new value."""
        target = self._log + decades
        new = rounded(10**target)
        if new == self._value:  # three digits could round back: go one digit further
            target = math.log10(self._value) + math.copysign(0.0044, decades)
        self._move_to(target)

    @property
    def decade_px(self) -> float:
        """Pixels per decade on screen."""
        return DECADE_PX * max(1.0, self.scale)

    # -- input -------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Qt override: start dragging the scale."""
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag = (event.position().x(), self._log)
            self.setFocus(Qt.FocusReason.MouseFocusReason)
            event.accept()
        else:
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Qt override: right is larger, as on a slider (the scale slides under the mark)."""
        if self._drag is None:
            return
        x0, log0 = self._drag
        fine = 0.1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1.0
        self._move_to(log0 + (event.position().x() - x0) / self.decade_px * fine)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Qt override: the drag ends."""
        self._drag = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Qt override: ← → (and ↓ ↑) small steps, Shift finer, Page Up/Down a decade."""
        fine = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        small = FINE_STEP if fine else KEY_STEP
        steps = {
            Qt.Key.Key_Right: small, Qt.Key.Key_Up: small, Qt.Key.Key_PageUp: 1.0,
            Qt.Key.Key_Left: -small, Qt.Key.Key_Down: -small, Qt.Key.Key_PageDown: -1.0,
        }  # fmt: skip
        if event.key() in steps:
            self.step(steps[event.key()])
            event.accept()
        else:
            super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Qt override: a notch is a small step (Shift finer)."""
        notches = event.angleDelta().y() / 120 or event.angleDelta().x() / 120
        if notches:
            fine = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            self.step(notches * (FINE_STEP if fine else KEY_STEP))
        event.accept()

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Qt override: the focus frame shows."""
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Qt override: the focus frame goes."""
        super().focusOutEvent(event)
        self.update()

    # -- drawing -----------------------------------------------------------------------------
    def sizeHint(self) -> QSize:
        """Two lines of text: the scale's labels and the track."""
        return QSize(240, round(self.fontMetrics().height() * 2.6))

    def minimumSizeHint(self) -> QSize:
        """Room for a decade either side of the mark."""
        return QSize(120, self.sizeHint().height())

    def x_of(self, log: float) -> float:
        """Where ``log`` (log10 of a learning rate) is drawn."""
        return self.width() / 2 + (log - self._log) * self.decade_px

    def paintEvent(self, event: QPaintEvent) -> None:
        """Qt override: ticks at 1, 2 and 5 of each decade, labels at the decades, the mark."""
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text, mid = pal.color(QPalette.ColorRole.WindowText), pal.color(QPalette.ColorRole.Mid)
        accent = pal.color(QPalette.ColorRole.Highlight)
        h, w = self.height(), self.width()
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        metrics = self.fontMetrics()
        baseline = h - 3
        track = metrics.height() + 4
        p.setPen(QPen(mid, 1))
        p.drawLine(QPointF(0, track), QPointF(w, track))
        span = w / 2 / self.decade_px + 1
        first, last = math.floor(self._log - span), math.ceil(self._log + span)
        for decade in range(max(first, -9), min(last, 2) + 1):
            for mult in (1, 2, 5):
                log = decade + math.log10(mult)
                x = self.x_of(log)
                if not -20 <= x <= w + 20 or 10**log > HIGH * 1.0001:
                    continue
                major = mult == 1
                p.setPen(QPen(text if major else mid, 1.4 if major else 1))
                p.drawLine(QPointF(x, track), QPointF(x, track + (9 if major else 5)))
                if major:
                    label = short_number(10.0**decade)
                    width = metrics.horizontalAdvance(label)
                    if x - width / 2 >= 0 and x + width / 2 <= w:  # never a cut "0.0" at an edge
                        p.setPen(text)
                        p.drawText(QPointF(x - width / 2, baseline), label)
        value = short_number(self._value)
        box = QRectF(0, 0, metrics.horizontalAdvance(value) + 12, metrics.height() + 2)
        box.moveCenter(QPointF(w / 2, box.height() / 2))
        p.setPen(QPen(accent, 2))
        p.drawLine(QPointF(w / 2, box.bottom()), QPointF(w / 2, h - metrics.height() - 2))
        p.setBrush(accent)
        p.drawRoundedRect(box, 3, 3)
        p.setPen(QColor(pal.color(QPalette.ColorRole.HighlightedText)))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, value)
        if self.hasFocus():
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(accent, 1, Qt.PenStyle.DotLine))
            p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        p.end()
