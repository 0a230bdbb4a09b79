"""The variables table: name, value (a number or a JSON list for arrays) and kind per row."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.values import format_value, parse_value
from tapeviz.sandbox.messages import MessageError, say
from tapeviz.sandbox.variables import KINDS, VariableSpec
from tapeviz.ui.messages import translated

KIND_LABELS = {
    "trainable": QT_TRANSLATE_NOOP("VariablesTable", "trainable"),
    "constant": QT_TRANSLATE_NOOP("VariablesTable", "constant"),
    "watched": QT_TRANSLATE_NOOP("VariablesTable", "watched"),
}


class VariablesTable(QWidget):
    """Rows of (name, value, kind) with Add/Remove; ``specs()`` validates them."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 3, self)
        self.table.setObjectName("variablesTable")
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Value"), self.tr("Kind")])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.add_button = QPushButton(self.tr("Add variable"), self)
        self.add_button.setObjectName("addVariableButton")
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setObjectName("removeVariableButton")
        self.add_button.clicked.connect(self.add_new)
        self.remove_button.clicked.connect(self.remove_selected)
        self.table.itemChanged.connect(lambda _: self.changed.emit())
        self.table.itemSelectionChanged.connect(self._update_buttons)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.table, 1)
        box.addLayout(buttons)
        self._update_buttons()

    def _free_name(self) -> str:
        used = [self.table.item(r, 0).text() for r in range(self.table.rowCount())]
        for name in ("x", "y", "z", "w", "b", *(f"v{i}" for i in range(1, 1000))):
            if name not in used:
                return name
        return "v"

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.table.selectionModel().selectedRows()))

    def add_row(self, name: str, value: object, kind: str = "trainable") -> None:
        """Append a row."""
        self.table.blockSignals(True)
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(name))
        self.table.setItem(row, 1, QTableWidgetItem(format_value(value)))
        combo = QComboBox(self.table)
        for k in KINDS:
            combo.addItem(self.tr(KIND_LABELS[k]), k)
        combo.setCurrentIndex(list(KINDS).index(kind))
        combo.currentIndexChanged.connect(lambda _: self.changed.emit())
        self.table.setCellWidget(row, 2, combo)
        self.table.blockSignals(False)
        self.changed.emit()

    def add_new(self) -> None:
        """Add a row with a free name, scroll to it and start editing its name."""
        self.add_row(self._free_name(), 0.0)
        row = self.table.rowCount() - 1
        item = self.table.item(row, 0)
        self.table.scrollToItem(item)
        self.table.setCurrentCell(row, 0)
        self.table.setFocus()
        self.table.editItem(item)

    def remove_selected(self) -> None:
        """Remove the selected rows."""
        rows = sorted((i.row() for i in self.table.selectionModel().selectedRows()), reverse=True)
        for row in rows:
            self.table.removeRow(row)
        if rows:
            self.changed.emit()
        self._update_buttons()

    def set_specs(self, specs: Sequence[VariableSpec]) -> None:
        """Replace every row.

        Rows that exist are reused (their text and kind set): a new kind box per row per
        session would leave Qt's style pixmaps of each new box in its pixmap cache (~100 kB
        per session loaded, until the cache's 10 MB are full).
        """
        self.table.blockSignals(True)
        while self.table.rowCount() > len(specs):
            self.table.removeRow(self.table.rowCount() - 1)
        reused = self.table.rowCount()
        for row, spec in enumerate(specs[:reused]):
            self.table.item(row, 0).setText(spec.name)
            self.table.item(row, 1).setText(format_value(spec.value))
            combo = self.table.cellWidget(row, 2)
            if isinstance(combo, QComboBox):
                combo.blockSignals(True)
                combo.setCurrentIndex(list(KINDS).index(spec.kind))
                combo.blockSignals(False)
        self.table.blockSignals(False)
        for spec in specs[reused:]:
            self.add_row(spec.name, spec.value, spec.kind)
        self._dtypes = {s.name: s.dtype for s in specs}
        if reused:
            self.changed.emit()

    def snapshot(self) -> tuple[tuple[str, str, str], ...]:
        """The rows exactly as shown (to tell whether anything changed)."""
        rows = []
        for row in range(self.table.rowCount()):
            combo = self.table.cellWidget(row, 2)
            kind = combo.currentData() if isinstance(combo, QComboBox) else ""
            name, value = self.table.item(row, 0), self.table.item(row, 1)
            rows.append((name.text() if name else "", value.text() if value else "", kind))
        return tuple(rows)

    def specs(self) -> list[VariableSpec]:
        """The rows as specs; raises ValueError naming the bad row."""
        out: list[VariableSpec] = []
        dtypes = getattr(self, "_dtypes", {})
        for row in range(self.table.rowCount()):
            name = self.table.item(row, 0).text().strip()
            combo = self.table.cellWidget(row, 2)
            kind = combo.currentData() if isinstance(combo, QComboBox) else "trainable"
            try:
                value = parse_value(self.table.item(row, 1).text())
                if any(s.name == name for s in out):
                    raise MessageError(say("variable_twice", name=repr(name)))
                out.append(VariableSpec(name, value, kind, dtypes.get(name, "float32")))
            except ValueError as exc:
                why = translated(exc.msg) if isinstance(exc, MessageError) else str(exc)
                raise ValueError(self.tr("Variable row %1: %2").replace("%1", str(row + 1))
                                 .replace("%2", why)) from None  # fmt: skip
        return out
