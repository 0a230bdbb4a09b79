"""The timeline's step line keeps its whole text and paints it cut with "…" to its width."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from tapeviz.ui.elided_label import ElidedPaintLabel

LINE = "step 3,151 of 6,301  ·  loss = 0.04674  ·  ‖w‖ = 1.0132  ·  ‖∇‖ = 0.4431"


def _grab(label: QLabel, qtbot: QtBot, width: int) -> object:
    qtbot.addWidget(label)
    label.resize(width, 30)
    label.show()
    qtbot.waitExposed(label)
    return label.grab().toImage()


def test_a_long_line_is_painted_cut_and_read_whole(qtbot: QtBot) -> None:
    label = ElidedPaintLabel()
    label.setText(LINE)
    painted = _grab(label, qtbot, 220)
    cut = label.fontMetrics().elidedText(LINE, Qt.TextElideMode.ElideRight, 220)
    assert cut.endswith("…") and label.text() == LINE  # read whole, shown cut
    same = QLabel(cut)
    same.setAlignment(label.alignment())
    assert _grab(same, qtbot, 220) == painted


def test_a_line_that_fits_is_painted_whole(qtbot: QtBot) -> None:
    label = ElidedPaintLabel()
    label.setText("step 1 of 9")
    plain = QLabel("step 1 of 9")
    assert _grab(plain, qtbot, 400) == _grab(label, qtbot, 400)
    assert label.minimumSizeHint().width() <= 10  # never widens its row
