"""A layout that wraps its widgets onto the next row when the width runs out (Qt's example).

The Network view's top bar holds Playground's controls; at presenter scale on a 1366-pixel
screen they need two or three rows, and a wrapped row beats a control cut off.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Items left to right, wrapping; the height follows the width (``heightForWidth``)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item: QLayoutItem) -> None:
        """Qt override: keep the item."""
        self._items.append(item)

    def count(self) -> int:
        """Qt override: how many items."""
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        """Qt override: item ``index`` or None."""
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        """Qt override: remove and return item ``index``."""
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        """Qt override: it does not grow on its own."""
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        """Qt override: the rows depend on the width."""
        return True

    def heightForWidth(self, width: int) -> int:
        """Qt override: the height the rows take at ``width``."""
        return self._arrange(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        """Qt override: place the items."""
        super().setGeometry(rect)
        self._arrange(rect, apply=True)

    def sizeHint(self) -> QSize:
        """Qt override: the minimum size."""
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        """Qt override: the widest item (everything else can wrap)."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _arrange(self, rect: QRect, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_h = area.x(), area.y(), 0
        row: list[tuple[QLayoutItem, QSize]] = []
        gap = self._spacing

        def place_row() -> None:
            for item, hint in row:
                if apply:
                    top = y + (row_h - hint.height()) // 2
                    item.setGeometry(QRect(QPoint(item_x[id(item)], top), hint))

        item_x: dict[int, int] = {}
        for item in self._items:
            widget = item.widget()
            if widget is not None and widget.isHidden():
                continue
            hint = item.sizeHint().boundedTo(QSize(area.width(), 10_000))
            if row and x + hint.width() > area.right() + 1:
                place_row()
                x, y, row = area.x(), y + row_h + gap, []
                row_h = 0
            item_x[id(item)] = x
            row.append((item, hint))
            x += hint.width() + gap
            row_h = max(row_h, hint.height())
        place_row()
        return y + row_h - rect.y() + m.bottom()
