"""A combo box that shortens its current text with "…" instead of clipping it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter


class ElidedComboBox(QComboBox):
    """A QComboBox whose closed text ends in "…" when it does not fit (full text in the tooltip).

    Qt clips a long item at the edge, so "1. SGD lr 0.001" can read "1. SGD lr 0": a wrong
    number on a projector. The popup list still shows every item in full. ``elide`` says where
    the "…" goes (a subclass or an instance may keep the end, where a result is).
    """

    elide = Qt.TextElideMode.ElideRight

    def shown_text(self) -> str:
        """The current text as drawn: whole, or cut with "…" to the edit field's width."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        width = field.width()
        if not opt.currentIcon.isNull():
            width -= opt.iconSize.width() + 4  # the style's gap between icon and text
        return self.fontMetrics().elidedText(opt.currentText, self.elide, width)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the frame and arrow as usual, then the (possibly shortened) label."""
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        if self.toolTip() != opt.currentText:  # here, not on a signal: owners block signals
            self.setToolTip(opt.currentText)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)
