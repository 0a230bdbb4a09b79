"""Issue 33, item 5: Ctrl + steps to the scales the README promises (twice: 150 %)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow

README = Path(__file__).resolve().parents[2] / "README.md"


def promised() -> tuple[float, int]:
    """The README's "Presenter scale 1.5× (Ctrl + twice)": the scale and the key presses."""
    match = re.search(r"Presenter scale ([\d.]+)× \(Ctrl \+ (once|twice|three times)\)",
                      README.read_text("utf-8"))  # fmt: skip
    assert match, "the README no longer says which scale Ctrl + gives"
    presses = {"once": 1, "twice": 2, "three times": 3}[match.group(2)]
    return float(match.group(1)), presses


def test_ctrl_plus_gives_the_readmes_scale(qtbot: QtBot, window: MainWindow) -> None:
    scale, presses = promised()
    window.graph.setFocus()
    for _ in range(presses):
        qtbot.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale == pytest.approx(scale)
    assert window.statusBar().currentMessage() == f"Text size {scale * 100:.0f} %"
    for _ in range(presses):  # and back the same way
        qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale == pytest.approx(1.0)
