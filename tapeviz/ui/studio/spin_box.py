"""The studio's number fields: :class:`SciSpinBox` (5e-4, stepped on a log scale); swatches."""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap, QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QWidget

from tapeviz.models.descent.optimizer_config import HyperParameter, short_number


class SciSpinBox(QDoubleSpinBox):
    """A spin box for values like 5e-4: shown compactly, stepped ×10^0.1 on a log scale."""

    def __init__(self, spec: HyperParameter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.setDecimals(12)
        self.setRange(spec.low if not spec.log else max(spec.low, 1e-12), spec.high)
        self.setKeyboardTracking(False)
        self.setSingleStep(0.01 if spec.high <= 1 else 0.1)

    def textFromValue(self, value: float) -> str:
        """Qt override: ``5e-4`` rather than ``0.000500000000``."""
        return short_number(value) if self.spec.log else f"{value:.6g}"

    def valueFromText(self, text: str) -> float:
        """Qt override: any float spelling."""
        try:
            return float(text)
        except ValueError:
            return self.value()

    def validate(self, text: str, pos: int) -> object:
        """Qt override: accept what float() accepts, and the beginnings of it."""
        try:
            v = float(text)
        except ValueError:
            ok = text.strip() in ("", "-", ".", "-.") or text.rstrip().endswith(("e", "e-"))
            state = QValidator.State.Intermediate if ok else QValidator.State.Invalid
            return state, text, pos
        inside = self.minimum() <= v <= self.maximum()
        return (QValidator.State.Acceptable if inside else QValidator.State.Intermediate), text, pos

    def stepBy(self, steps: int) -> None:
        """Qt override: log-scale values step by a factor of 10^0.1."""
        if self.spec.log and self.value() > 0:
            self.setValue(self.value() * 10 ** (steps / 10))
        else:
            super().stepBy(steps)


def swatch(color: str) -> QIcon:
    """A small filled square of a run's colour."""
    pix = QPixmap(14, 14)
    pix.fill(QColor(color))
    return QIcon(pix)
