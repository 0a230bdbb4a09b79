"""The error under the editor: never squeezes the editor, never cut, scrolls when long."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.ui import MainWindow
from tapeviz.ui.window.error_frame import MAX_LINES

LONG = "raise ValueError('" + "a rather long explanation of what went wrong " * 30 + "')\n"


def show_long_error(qtbot: QtBot, w: MainWindow) -> None:
    w.apply_session(Session(source="x = 1\n" + LONG, mode="script"))
    qtbot.waitUntil(lambda: w._cancel is None and bool(w.error_label.text()), timeout=20_000)
    qtbot.waitUntil(lambda: w.code.error_frame.isVisible(), timeout=5000)


@pytest.mark.parametrize("size", [(1366, 768), (800, 560)])
def test_a_long_error_scrolls_and_the_editor_keeps_its_lines(
    qtbot: QtBot, window: MainWindow, size: tuple[int, int]
) -> None:
    show_long_error(qtbot, window)

    def resized() -> bool:  # right after a run the layout may not allow it yet: ask again
        window.resize(*size)
        return (window.width(), window.height()) == size

    qtbot.waitUntil(resized, timeout=10_000)
    QApplication.processEvents()  # the layout of the new size
    frame, editor = window.code.error_frame, window.editor
    line = editor.fontMetrics().lineSpacing()
    assert editor.viewport().height() >= 3 * line  # not squeezed to one line
    label_line = frame.label.fontMetrics().lineSpacing()
    assert frame.scroll.height() <= MAX_LINES * label_line + 6
    bar = frame.scroll.verticalScrollBar()
    assert bar.maximum() > 0  # the rest is a scroll away, not cut
    viewport = frame.scroll.viewport()
    assert frame.label.width() <= viewport.width()  # wrapped, not cut on the right
    assert frame.label.height() >= frame.label.heightForWidth(frame.label.width())
    assert frame.label.toolTip().startswith("line 2")  # and all of it in the tooltip
    assert frame.go_button.isVisible()


def test_a_short_error_takes_only_its_lines(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_session(Session(source="y = (1 +", mode="script"))
    qtbot.waitUntil(
        lambda: window._cancel is None and bool(window.error_label.text()), timeout=20_000
    )
    frame = window.code.error_frame
    qtbot.waitUntil(frame.isVisible, timeout=5000)
    assert frame.scroll.verticalScrollBar().maximum() == 0
    window.apply_session(Session(source="1 + 1", mode="script"))
    qtbot.waitUntil(
        lambda: window._cancel is None and not window.error_label.text(), timeout=20_000
    )
    assert not frame.isVisible()  # no error: no frame, the editor gets the room
