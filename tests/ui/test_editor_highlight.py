"""The editor's highlighting: a long line (a 1,000-op expression) is coloured as a short one is."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.ui.window.editor import LONG_LINE, CodeEditor


def colours(editor: CodeEditor, line: int = 0) -> dict[int, str]:
    """Character position -> the colour the highlighter gave it (uncoloured left out)."""
    block = editor.document().findBlockByNumber(line)
    out: dict[int, str] = {}
    for r in block.layout().formats():
        for i in range(r.start, r.start + r.length):
            out[i] = r.format.foreground().color().name()
    return out


def test_a_long_line_is_coloured_like_a_short_one(qtbot: QtBot) -> None:
    tail = "1.5e-3 + abs(x) + tf.abs(x) + x2 if True else None  # note"
    short, long_ = tail, "x + " * (LONG_LINE // 4 + 1) + tail
    assert len(short) < LONG_LINE < len(long_)
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText(short + "\n" + long_)
    small, big = colours(editor, 0), colours(editor, 1)
    offset = len(long_) - len(short)
    assert small  # Pygments coloured the short line
    assert {i + offset: c for i, c in small.items()} == {
        i: c for i, c in big.items() if i >= offset
    }
    assert not any(i < offset for i in big)  # "x + x + ...": nothing to colour


def test_a_keystroke_in_a_long_line_recolours_it(qtbot: QtBot) -> None:
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText("x + " * 200 + "x")
    assert not colours(editor)
    cursor = editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, " + 2")
    end = len(editor.toPlainText()) - 1
    assert end in colours(editor)  # the number typed is coloured
