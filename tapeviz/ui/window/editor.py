"""The code editor: Pygments highlighting, line numbers, and the error line marked in place."""

from __future__ import annotations

from typing import Any

from pygments.token import Token, _TokenType
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import (
    QFont,
    QInputMethodEvent,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from tapeviz.ui.theme import LIGHT, Theme, font
from tapeviz.ui.window.long_lines import LongLineTokens

LONG_LINE = 300  # characters: a longer line is highlighted by a regex instead of Pygments
STYLES: tuple[tuple[_TokenType, str, bool], ...] = (  # token, colour role, bold
    (Token.Keyword, "keyword", True),
    (Token.Name.Builtin, "builtin", False),
    (Token.Name.Function, "function", True),
    (Token.Name.Class, "function", True),
    (Token.Literal.String, "string", False),
    (Token.Literal.Number, "number", False),
    (Token.Comment, "comment", False),
)
SYNTAX = {  # contrast >= 4.5:1 on the editor background of each theme
    "light": {"keyword": "#0B5394", "builtin": "#006B4F", "function": "#0B5394",
              "string": "#9A4A00", "number": "#8E3B73", "comment": "#646464", "gutter": "#F0F0F0"},
    "dark": {"keyword": "#7CC4FA", "builtin": "#3FD1A3", "function": "#7CC4FA",
             "string": "#F0B060", "number": "#F5A3D3", "comment": "#A0A0A0", "gutter": "#2A2A2A"},
}  # fmt: skip
INDENT = 4  # spaces per indentation level, as PEP 8 writes Python
# The error line's background: the text and every syntax colour on it keep >= 4.5:1 contrast.
ERROR_BACKGROUND = {"light": "#FADBC9", "dark": "#5A2410"}


def error_background(theme: Theme) -> str:
    """The error line's background colour in ``theme``."""
    return ERROR_BACKGROUND.get(theme.name, ERROR_BACKGROUND["light"])


class PythonHighlighter(QSyntaxHighlighter):
    """Colours Python/TensorFlow code with Pygments' lexer, one block (line) at a time."""

    def __init__(self, document: QTextDocument, theme: Theme = LIGHT) -> None:
        super().__init__(document)
        self._lexer: Any = None  # importing and compiling it take ~0.1 s: when first used
        self.formats: list[tuple[_TokenType, QTextCharFormat]] = []
        self._long = LongLineTokens()  # the last long line's matches
        self.set_theme(theme)

    @property
    def lexer(self) -> Any:
        """Pygments' Python lexer, made the first time a line is highlighted."""
        if self._lexer is None:
            from pygments.lexers.python import PythonLexer  # its package reads entry points

            self._lexer = PythonLexer(stripnl=False, ensurenl=False)
        return self._lexer

    def set_theme(self, theme: Theme) -> None:
        """Recolour for a theme."""
        self.formats = []
        for token, role, bold in STYLES:
            fmt = QTextCharFormat()
            fmt.setForeground(theme.color(SYNTAX.get(theme.name, SYNTAX["light"])[role]))
            if bold:
                fmt.setFontWeight(QFont.Weight.Bold)
            self.formats.append((token, fmt))
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        if not text.strip():  # nothing to colour (the empty editor at start: no lexer yet)
            return
        if len(text) > LONG_LINE:  # Pygments takes ~0.1 s per key on a 1,000-op expression
            self._highlight_long(text)
            return
        pos = 0
        for token, value in self.lexer.get_tokens(text):
            for kind, fmt in self.formats:
                if token in kind:
                    self.setFormat(pos, len(value), fmt)
                    break
            pos += len(value)

    def _highlight_long(self, text: str) -> None:
        """Keywords, builtins, numbers, strings and comments of a long line, by one regex."""
        formats = dict(self.formats)
        roles = {"kw": Token.Keyword, "builtin": Token.Name.Builtin,
                 "string": Token.Literal.String, "number": Token.Literal.Number,
                 "comment": Token.Comment}  # fmt: skip
        for start, end, kind in self._long.tokens(text):  # rescanned around the edit only
            self.setFormat(start, end - start, formats[roles[kind]])


class _Gutter(QWidget):
    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """Plain-text editor for expressions and scripts (objectName ``functionEditor``)."""

    def __init__(self, parent: QWidget | None = None, theme: Theme = LIGHT) -> None:
        super().__init__(parent)
        self.setObjectName("functionEditor")
        self.theme = theme
        self.error_line: int | None = None
        self.error_col: int | None = None
        self.setFont(font(13, mono=True))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(False)
        self.highlighter = PythonHighlighter(self.document(), theme)
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(lambda _: self._update_margins())
        self.updateRequest.connect(self._on_update_request)
        self._update_margins()

    # -- line numbers ----------------------------------------------------------------------
    def gutter_width(self) -> int:
        """Pixels for the line numbers."""
        digits = len(str(max(1, self.blockCount())))
        return 12 + self.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def _update_margins(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        r = self.contentsRect()
        self.gutter.setGeometry(QRect(r.left(), r.top(), self.gutter_width(), r.height()))

    def paint_gutter(self, event: QPaintEvent) -> None:
        """Draw the visible line numbers; the error line's number in the warning colour."""
        t = self.theme
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), t.color(SYNTAX.get(t.name, SYNTAX["light"])["gutter"]))
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            line = block.blockNumber() + 1
            if block.isVisible():
                bad = line == self.error_line
                painter.setPen(t.color(t.warning if bad else t.muted))
                label = ("▶" if bad else "") + str(line)
                right = Qt.AlignmentFlag.AlignRight
                painter.drawText(0, top, self.gutter.width() - 6, height, right, label)
            top += round(self.blockBoundingRect(block).height())
            block = block.next()
        painter.end()

    # -- typing Python -----------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Qt override: Return keeps the indentation (one level more after ':'), Tab indents.

        Tab inserts spaces; Backspace in the indentation removes one level. After any key the
        view scrolls back to the first column if the caret is visible there.
        """
        self._key(event)
        self._prefer_left()

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        """Qt override: text from an input method (Chinese, say) scrolls back like a key."""
        super().inputMethodEvent(event)
        self._prefer_left()

    def _prefer_left(self) -> None:
        """Scroll to the first column when the caret would still be visible there.

        Qt scrolls only as far as the caret needs: after a line wider than the editor, Return
        left every line with its first letters hidden (``x =`` showed as ``ĸ =``).
        """
        bar = self.horizontalScrollBar()
        if bar.value() and self.cursorRect().right() + bar.value() < self.viewport().width():
            bar.setValue(0)

    def _key(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        plain = mods == Qt.KeyboardModifier.NoModifier
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            self.textCursor().insertText("\n" + self._next_indent())
            self.ensureCursorVisible()
            return
        cursor = self.textCursor()
        before = cursor.block().text()[: cursor.positionInBlock()]
        if key == Qt.Key.Key_Tab and plain and not cursor.hasSelection():
            cursor.insertText(" " * (INDENT - len(before) % INDENT))
            return
        in_indent = bool(before) and not before.strip(" ")
        if key == Qt.Key.Key_Backspace and plain and not cursor.hasSelection() and in_indent:
            remove = (len(before) - 1) % INDENT + 1  # back one level
            cursor.movePosition(QTextCursor.MoveOperation.Left,
                                QTextCursor.MoveMode.KeepAnchor, remove)  # fmt: skip
            cursor.removeSelectedText()
            return
        super().keyPressEvent(event)

    def _next_indent(self) -> str:
        """The indentation of a new line after the caret: the line's own, plus one after ':'."""
        cursor = self.textCursor()
        line = cursor.block().text()
        before = line[: cursor.positionInBlock()]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        indent = indent[: len(before)]  # Return inside the indentation keeps only what is left
        code = before.split("#", 1)[0].rstrip()
        if code.endswith(":"):
            indent += " " * INDENT
        return indent

    # -- errors ----------------------------------------------------------------------------
    def mark_error(self, line: int | None, col: int | None, message: str) -> None:
        """Highlight the error's line; the text, the caret, the selection and the scroll stay.

        Live re-runs mark errors while the lecturer types: moving the caret here would send
        the next keys elsewhere. :meth:`go_to_error` moves it when the user asks.
        """
        self.error_line = line
        self.error_col = col
        selections = []
        if line is not None and 1 <= line <= self.blockCount():
            block = self.document().findBlockByNumber(line - 1)
            whole = QTextEdit.ExtraSelection()
            whole.format.setBackground(self.theme.color(error_background(self.theme)))
            whole.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            whole.cursor = QTextCursor(block)
            selections.append(whole)
        self.setExtraSelections(selections)
        self.setToolTip(message)
        self.gutter.update()

    def go_to_error(self) -> bool:
        """Put the caret at the marked error (the user asked); False if there is none."""
        line = self.error_line
        if line is None or not 1 <= line <= self.blockCount():
            return False
        block = self.document().findBlockByNumber(line - 1)
        cursor = QTextCursor(block)
        col = self.error_col
        if col:
            steps = min(max(col - 1, 0), max(block.length() - 1, 0))
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=steps)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        self.setFocus()
        return True

    def clear_error(self) -> None:
        """Remove the error mark."""
        self.error_line = self.error_col = None
        self.setExtraSelections([])
        self.setToolTip("")
        self.gutter.update()

    def refresh_metrics(self) -> None:
        """Re-measure the gutter after the font changed (presenter scaling)."""
        self._update_margins()
        r = self.contentsRect()
        self.gutter.setGeometry(QRect(r.left(), r.top(), self.gutter_width(), r.height()))
        self.gutter.update()

    def set_theme(self, theme: Theme) -> None:
        """Recolour the highlighting, the gutter and a marked error line."""
        self.theme = theme
        self.highlighter.set_theme(theme)
        if self.error_line is not None:
            self.mark_error(self.error_line, self.error_col, self.toolTip())
        self.gutter.update()
